"""Every rule of the rules reference is pinned by a scenario named after it.

A scenario file is named after the rule it pins: the rule id is the file name up to the first
``-`` (``E1.3-reverse-never-down.yaml`` pins E1.3, ``E1-card-states-through-a-turn.yaml`` pins the
group E1). Files in ``scenarios/rulings/`` and the demos in ``scenarios/demos/`` both count.

This is stricter than ``test_every_rule_is_cited_by_some_scenario`` in test_scenarios.py, which is
content with an id appearing somewhere in some scenario's log: here each id needs a ruling of its
own, so that changing what a rule does means changing a file that says it is about that rule.

Run this file as a script to print the table of rule ids and their scenario files.
"""

from __future__ import annotations

from pathlib import Path

from fate_royal.cards.reference import reference

ROOT = Path(__file__).resolve().parents[2]


def rule_of(path: Path) -> str:
    """The rule id a scenario file is named after: its name up to the first '-'."""
    return path.name.split("-", 1)[0]


def scenarios_by_rule(root: Path = ROOT, ids: list[str] | None = None) -> dict[str, list[str]]:
    """Every rule id of the reference (in its order) with the scenario files named after it."""
    ids = list(reference().ids()) if ids is None else list(ids)
    table: dict[str, list[str]] = {rid: [] for rid in ids}
    for path in sorted((root / "scenarios").rglob("*.yaml")):
        rid = rule_of(path)
        if rid in table:
            table[rid].append(path.relative_to(root).as_posix())
    return table


def unpinned(table: dict[str, list[str]]) -> list[str]:
    return [rid for rid, files in table.items() if not files]


def test_every_rule_has_a_scenario_named_after_it():
    table = scenarios_by_rule()
    missing = unpinned(table)
    assert not missing, (
        f"{len(missing)} rule id(s) have no scenario named after them "
        f"(scenarios/rulings/ID-what-it-pins.yaml): {', '.join(missing)}")


def test_the_table_lists_every_rule_of_the_reference():
    table = scenarios_by_rule()
    assert list(table) == list(reference().ids())
    assert "scenarios/rulings/E1.3-reverse-never-down.yaml" in table["E1.3"]
    assert "scenarios/demos/E8-demo-deck-rebuild.yaml" in table["E8"]  # demos count too
    # a sub-rule's file pins the sub-rule, not its group
    assert "scenarios/rulings/E1.3-reverse-never-down.yaml" not in table["E1"]


def test_a_rule_without_a_scenario_is_reported(tmp_path):
    rulings = tmp_path / "scenarios" / "rulings"
    demos = tmp_path / "scenarios" / "demos"
    rulings.mkdir(parents=True)
    demos.mkdir()
    (rulings / "B1-components.yaml").write_text("title: x\n", encoding="utf-8")
    (demos / "E8-demo-deck.yaml").write_text("title: x\n", encoding="utf-8")
    (rulings / "E1.3-reverse.yaml").write_text("title: x\n", encoding="utf-8")
    (rulings / "B2-notes.txt").write_text("not a scenario\n", encoding="utf-8")
    table = scenarios_by_rule(tmp_path, ["B1", "B2", "E1", "E1.3", "E8"])
    assert table["B1"] == ["scenarios/rulings/B1-components.yaml"]
    assert table["E8"] == ["scenarios/demos/E8-demo-deck.yaml"]
    assert unpinned(table) == ["B2", "E1"]


if __name__ == "__main__":  # pragma: no cover - a listing for people
    for rid, files in scenarios_by_rule().items():
        print(f"{rid:8} {len(files):2}  {', '.join(Path(f).name for f in files) or '— none —'}")
