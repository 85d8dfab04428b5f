"""A fighter's stat lines and keywords.

Stat lines (stats.stat_breakdown, Game.stat_breakdown): each contribution's source
(card or chip id), label, stats, the rule that produced it and the effect's name. The card inspector
shows them line by line ("see which rule produced each outcome") and a damage process cites their
rules (combat.strike), so every field is part of a ruling's explanation.

The rules: the hero's and the class's printed stats (B2), the class's less the profile's penalty
when the hero is not qualified for it (D8, ``unqualified_class: stat_penalty``), a fighting proxy's
chip (E6.5; P2 with the errata off), 常時 stat effects that are on (E2.3; B11 with the errata off),
one line per stat part, a same-name effect counted once (E2.3, D16), a part under a condition only
while it holds (the attack type given, else the fighter's own), and the lasting stat changes of 起動
effects (B11). While a proxy fights, the hero's and class's effects aimed at their own servant do
not apply (E6.3), a 支援 effect of the card that summoned the proxy does (E5), mystic codes' do
(E6.4). Keywords (stats.fighter_keywords): below. Positions come from small scenarios with
scenario-defined cards.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from fate_royal.rules import proxy, stats
from fate_royal.rules.game import Game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

import positions

POSITION = """\
title: stat lines
seed: 1
options: {auto_pass: false}
cards:
  - id: M-960
    kind: mystic_code
    name: 試しの籠手
    provenance: provisional
    skills: [支援]
    effects:
      - name: 籠手の一撃
        timing: activated
        window: any
        ops:
          - {op: modify_stats, subject: combatant, pa: 2}
      - name: 籠手の加護
        timing: constant
        ops:
          - {op: modify_stats, subject: combatant, pa: 1}
          - {op: grant_keyword, subject: opponent, keyword: 軍団}
          - {op: modify_stats, subject: opponent, pd: 5}
          - {op: grant_keyword, subject: combatant, keyword: 対魔力, if: {attack_type: magic}}
          - {op: modify_stats, subject: combatant, ma: 3, if: {attack_type: magic}}
          - {op: modify_stats, subject: self, md: 2}
          - {op: grant_keyword, subject: combatant, keyword: 回復}
      - name: 籠手の魔弾
        timing: activated
        window: any
        ops:
          - {op: modify_stats, subject: combatant, ma: 4, if: {attack_type: magic}}
      - name: 籠手の俊足
        timing: activated
        window: any
        ops:
          - {op: grant_keyword, subject: combatant, keyword: 騎乗}
      - name: 籠手の見切り
        timing: activated
        window: any
        ops:
          - {op: grant_keyword, subject: combatant, keyword: 直感, if: {attack_type: magic}}
      - name: 籠手の構え
        timing: activated
        window: any
        ops:
          - {op: grant_keyword, subject: combatant, keyword: 軍団}
  - id: M-961
    kind: mystic_code
    name: 眠る籠手
    provenance: provisional
    skills: [直感]
    effects:
      - name: 眠りの加護
        timing: constant
        ops:
          - {op: modify_stats, subject: combatant, pa: 9}
  - id: C-007
    kind: class
    name: バーサーカー
    class_name: バーサーカー
    provenance: provisional
    stats: {pa: 2, pd: 1, ma: 0, md: 0}
    skills: [軍団]
    effects:
      - name: 狂化
        timing: constant
        ops:
          - {op: modify_stats, subject: combatant, pd: 1}
players:
  - name: A
    servant: {hero: H-001, class: ライダー, state: rise}
    seat: [M-960, {card: M-961, state: reverse}, M-960]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    seat: [M-960]
  - name: C
    servant: {hero: H-003, class: バーサーカー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: combat}
steps:
  - do: {player: A, action: raid, target: B}
  - advance: raid
  - do: {player: A, action: attack, type: magic}
  - do: {player: A, action: use, card: M-960, effect: 籠手の魔弾}
  - resolve
  - do: {player: A, action: use, card: M-960, effect: 籠手の一撃}
  - resolve
  - do: {player: A, action: use, card: M-960, effect: 籠手の見切り}
  - resolve
  - do: {player: A, action: use, card: M-960, effect: 籠手の構え}
  - resolve
  - do: {player: A, action: pass}
  - do: {player: B, action: use, card: M-960, effect: 籠手の一撃}
  - resolve
  - do: {player: A, action: pass}
  - do: {player: B, action: use, card: M-960, effect: 籠手の俊足}
  - resolve
"""

PROXY_POSITION = """\
title: stat lines of a fighting proxy
seed: 1
options: {auto_pass: false}
profile: {interception: false}
cards:
  - id: H-954
    kind: hero
    name: 従者の英霊
    provenance: provisional
    stats: {pa: 3, pd: 3, ma: 3, md: 3}
    classes: [キャスター]
    skills: [騎乗]
    effects:
      - name: 気合
        timing: activated
        window: engagement
        ops:
          - {op: modify_stats, subject: combatant, pa: 2}
          - {op: grant_keyword, subject: combatant, keyword: 軍団}
      - name: 従者召喚
        timing: activated
        window: engagement
        keywords: [代理戦闘]
        ops:
          - {op: proxy, chip: dragon_tooth_warrior}
      - name: 気迫
        timing: constant
        ops:
          - {op: modify_stats, subject: combatant, pd: 1}
          - {op: grant_keyword, subject: combatant, keyword: 回復}
      - name: 加勢
        timing: constant
        keywords: [支援]
        ops:
          - {op: modify_stats, subject: combatant, ma: 1}
          - {op: grant_keyword, subject: combatant, keyword: 直感}
      - name: 構え
        timing: activated
        window: raid
        ops:
          - {op: modify_stats, subject: combatant, pd: 1}
      - name: 強化
        timing: activated
        window: raid
        keywords: [支援]
        ops:
          - {op: modify_stats, subject: combatant, pa: 2, pd: 2}
          - {op: grant_keyword, subject: combatant, keyword: 先制}
  - id: C-006
    kind: class
    name: キャスター
    class_name: キャスター
    provenance: provisional
    stats: {pa: 0, pd: 0, ma: 2, md: 2}
    skills: [対魔力]
    effects:
      - name: 魔力放出
        timing: activated
        window: engagement
        ops:
          - {op: modify_stats, subject: combatant, pa: 1}
          - {op: grant_keyword, subject: combatant, keyword: 回復}
      - name: 魔術炉
        timing: constant
        ops:
          - {op: modify_stats, subject: combatant, md: 1}
players:
  - name: A
    servant: {hero: H-954, class: キャスター, state: rise}
    seat: [M-901, M-006]
  - name: B
    servant: {hero: H-001, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: combat}
steps:
  - do: {player: A, action: raid, target: B}
  - advance: engagement
  - do: {player: A, action: use, card: C-006, effect: 魔力放出}
  - do: {player: A, action: use, card: H-954, effect: 気合}
  - do: {player: A, action: use, card: H-954, effect: 従者召喚}
  - resolve
  - advance: raid
  - do: {player: A, action: attack, type: physical}
  - do: {player: A, action: use, card: H-954, effect: 強化}
  - resolve
  - do: {player: A, action: use, card: M-006}
  - resolve
"""


def play(tmp_path: Path, text: str, head: str = "") -> Game:
    """The position after the scenario's steps; ``head`` goes before its ``seed:`` line."""
    return positions.play(tmp_path, textwrap.dedent(text).replace("seed: 1\n", head + "seed: 1\n", 1))


def lines(game: Game, p: int, attack_type: str | None = None) -> list[tuple]:
    return [(x.source, x.label, x.stats, x.rule, x.effect) for x in game.stat_breakdown(p, attack_type)]


ARTORIA = ("H-001", "アルトリア", {"pa": 6, "pd": 5, "ma": 3, "md": 3}, "B2", "")
RIDER = ("C-005", "ライダー", {"pa": 1, "pd": 1, "ma": 0, "md": 0}, "B2", "")
KOJIROU = ("H-015", "佐々木小次郎", {"pa": 6, "pd": 3, "ma": 1, "md": 2}, "B2", "")
SABER = ("C-001", "セイバー", {"pa": 2, "pd": 1, "ma": 0, "md": 1}, "B2", "")
ARTHUR = ("H-003", "アーサー", {"pa": 6, "pd": 5, "ma": 3, "md": 3}, "B2", "")
BERSERKER = ("C-007", "バーサーカー", {"pa": 2, "pd": 1, "ma": 0, "md": 0}, "B2", "")
GAUNTLET = "試しの籠手: 籠手の加護"


def constants(rule: str, magic: bool) -> list[tuple]:
    """A's 常時 lines: the Rider class's 騎乗 and the gauntlet's parts aimed at its own fighter
    (combatant, self), once for two gauntlets of the same name (E2.3); the magic part only with a
    magic attack. Not the part aimed at the opponent, not the keyword, not the Reverse 眠る籠手."""
    out = [("C-005", "ライダー: 騎乗", {"pa": 1}, rule, "騎乗"),
           ("M-960", GAUNTLET, {"pa": 1}, rule, "籠手の加護")]
    if magic:
        out.append(("M-960", GAUNTLET, {"ma": 3}, rule, "籠手の加護"))
    return out + [("M-960", GAUNTLET, {"md": 2}, rule, "籠手の加護")]


STRIKE = ("M-960", "籠手の一撃", {"pa": 2}, "B11", "籠手の一撃")
MAGIC_SHOT = ("M-960", "籠手の魔弾", {"ma": 4}, "B11", "籠手の魔弾")


@pytest.mark.parametrize("errata, rule", [(True, "E2.3"), (False, "B11")])
def test_a_raiding_servants_lines(tmp_path, errata, rule):
    """A raids with magic: hero and class (B2), the 常時 parts that are on, and its own lasting
    changes (B11): 籠手の魔弾's +4 holds for a magic attack only; 籠手の見切り gave a keyword, no line;
    B's 籠手の一撃 is B's. Asked for another attack type, the magic parts drop out."""
    game = play(tmp_path, POSITION, "" if errata else "errata: false\n")
    want_magic = [ARTORIA, RIDER, *constants(rule, True), MAGIC_SHOT, STRIKE]
    assert lines(game, 0) == want_magic  # A's own attack type (magic) counts
    assert lines(game, 0, "magic") == want_magic
    assert lines(game, 0, "physical") == [ARTORIA, RIDER, *constants(rule, False), STRIKE]


@pytest.mark.parametrize("errata, rule", [(True, "E2.3"), (False, "B11")])
def test_the_intercepting_servants_lines(tmp_path, errata, rule):
    """B intercepts and has not chosen an attack type: 山門の守護 (+2 physical defense while
    intercepting) counts, the gauntlet's magic part only when asked for a magic attack."""
    game = play(tmp_path, POSITION, "" if errata else "errata: false\n")
    gate = ("H-015", "佐々木小次郎: 山門の守護", {"pd": 2}, rule, "山門の守護")
    head = [KOJIROU, SABER, gate, ("M-960", GAUNTLET, {"pa": 1}, rule, "籠手の加護")]
    tail = [("M-960", GAUNTLET, {"md": 2}, rule, "籠手の加護"), STRIKE]
    assert lines(game, 1) == [*head, *tail]
    assert lines(game, 1, "magic") == [*head, ("M-960", GAUNTLET, {"ma": 3}, rule, "籠手の加護"),
                                       *tail]
    # the totals (Game.fighter_stats) follow the lines, for the attack type asked about too (the
    # computer seats weigh an attack type with it)
    assert game.fighter_stats(1) == {"pa": 11, "pd": 6, "ma": 1, "md": 5}
    assert game.fighter_stats(1, "magic") == {"pa": 11, "pd": 6, "ma": 4, "md": 5}


def test_an_unqualified_class_adds_its_stats_without_its_effects_D8(tmp_path):
    """The default (``effects_unusable``): the class's stats add in full (B2) and its 常時 狂化
    does not apply."""
    game = play(tmp_path, POSITION)
    assert lines(game, 2) == [ARTHUR, BERSERKER]
    assert lines(game, 2, "magic") == [ARTHUR, BERSERKER]


def test_an_unqualified_class_with_a_stat_penalty_D8(tmp_path):
    """``unqualified_class: stat_penalty`` (1): each class stat less one, cited D8; the class's
    effects stay usable, so 狂化 applies. A qualified class is plain B2."""
    game = play(tmp_path, POSITION, "profile: {unqualified_class: stat_penalty}\n")
    assert lines(game, 2) == [
        ARTHUR, ("C-007", "バーサーカー", {"pa": 1, "pd": 0, "ma": -1, "md": -1}, "D8", ""),
        ("C-007", "バーサーカー: 狂化", {"pd": 1}, "E2.3", "狂化")]
    assert lines(game, 0, "physical") == [ARTORIA, RIDER, *constants("E2.3", False), STRIKE]


PROXY = {"pa": 3, "pd": 2, "ma": 1, "md": 1}
DRAGON = ("M-901", "竜種: 竜種", {"pa": 1, "pd": 1, "ma": 1, "md": 1})
BOOST = ("H-954", "強化", {"pa": 2, "pd": 2}, "B11", "強化")
VMAX = ("M-006", "V-MAX", {"pa": 2}, "B11", "V-MAX")


def test_a_fighting_proxys_lines_E6_5(tmp_path):
    """The scenario hero 従者の英霊 has its retainers (竜牙兵's chip) fight: the chip's stats (E6.5)
    instead of hero and class. The hero's and class's effects aimed at their own fighter do not
    apply (E6.3): 気迫 and the class's 魔術炉 (常時), 気合 and 魔力放出 (used in the engagement
    before the proxy came); the hero's 支援 effects do, as the proxy is that same card's (E5): 加勢
    (常時) and 強化. The seat's mystic codes apply (E6.4): 竜種's 常時 bonus and V-MAX."""
    game = play(tmp_path, PROXY_POSITION)
    want = [("dragon_tooth_warrior", "竜牙兵", PROXY, "E6.5", ""),
            ("H-954", "従者の英霊: 加勢", {"ma": 1}, "E2.3", "加勢"), (*DRAGON, "E2.3", "竜種"),
            BOOST, VMAX]
    assert lines(game, 0) == want
    assert lines(game, 0, "physical") == want
    assert lines(game, 1) == [ARTORIA, SABER]


def test_a_fighting_proxys_lines_with_the_errata_off_P2(tmp_path):
    """Errata off: the chip cites P2, and nothing holds the hero's and class's effects back: all
    of them apply (B11)."""
    game = play(tmp_path, PROXY_POSITION, "errata: false\n")
    assert lines(game, 0) == [
        ("dragon_tooth_warrior", "竜牙兵", PROXY, "P2", ""),
        ("H-954", "従者の英霊: 気迫", {"pd": 1}, "B11", "気迫"),
        ("H-954", "従者の英霊: 加勢", {"ma": 1}, "B11", "加勢"),
        ("C-006", "キャスター: 魔術炉", {"md": 1}, "B11", "魔術炉"), (*DRAGON, "B11", "竜種"),
        ("H-954", "気合", {"pa": 2}, "B11", "気合"), ("C-006", "魔力放出", {"pa": 1}, "B11", "魔力放出"),
        BOOST, VMAX]


def test_a_seat_without_a_servant_has_no_lines(db, rules):
    """Before the servants are chosen (D2 ``servant_assignment: choose``) a seat has no hero: no
    lines and no stats."""
    choose = rules.with_(profile=rules.profile.with_(servant_assignment="choose"))
    game = Game.new(db, choose, ["A", "B"], seed=3)
    assert game.pending.kind == "choose_hero"
    assert all(pl.hero is None and not pl.out for pl in game.state.players)
    assert game.stat_breakdown(0) == [] and game.stat_breakdown(1, "magic") == []
    assert game.fighter_stats(0) == {"pa": 0, "pd": 0, "ma": 0, "md": 0}



# --- keywords (stats.fighter_keywords): the skills a fighter has now, and with base_only the printed
# ones only (the hero's, the class's, the seat's mystic codes', or a proxy's chip's), which
# target_has_keyword, unless_target_has and opponent_has_keyword ask about


def keywords(game: Game, p: int, attack_type: str | None = None, base_only: bool = False) -> list:
    return sorted(stats.fighter_keywords(game.ctx, p, attack_type, base_only=base_only))


@pytest.mark.parametrize("errata", [True, False])
def test_a_servants_keywords(tmp_path, errata):
    """A: the Rider class's 先制 and 試しの籠手's 支援 (B12), not 眠る籠手's 直感 (Reverse); 籠手の加護
    grants 回復, and 対魔力 while A attacks with magic, not the 軍団 it gives the opponent; 籠手の見切り
    gave 直感 for a magic attack, 籠手の構え 軍団. B: the Saber class's 対魔力, the gauntlet's 支援 and 回復, and 騎乗
    from its own 籠手の俊足, which is not A's. C: the unqualified class's 軍団 is off (D8)."""
    game = play(tmp_path, POSITION, "" if errata else "errata: false\n")
    assert keywords(game, 0) == ["先制", "回復", "対魔力", "支援", "直感", "軍団"]
    assert keywords(game, 0, "magic") == ["先制", "回復", "対魔力", "支援", "直感", "軍団"]
    assert keywords(game, 0, "physical") == ["先制", "回復", "支援", "軍団"]
    assert keywords(game, 0, base_only=True) == ["先制", "支援"]
    assert keywords(game, 1) == ["回復", "対魔力", "支援", "騎乗"]
    assert keywords(game, 1, "physical", base_only=True) == ["対魔力", "支援"]
    assert keywords(game, 2) == [] and keywords(game, 2, base_only=True) == []
    assert stats.first_strike_types(game.ctx, 0) == {"physical", "magic"}
    assert stats.first_strike_types(game.ctx, 1) == set()


def test_an_unqualified_class_with_a_stat_penalty_keeps_its_skills_D8(tmp_path):
    game = play(tmp_path, POSITION, "profile: {unqualified_class: stat_penalty}\n")
    assert keywords(game, 2) == ["軍団"] and keywords(game, 2, base_only=True) == ["軍団"]


def test_a_fighting_proxys_keywords_E6_3(tmp_path):
    """While the retainers fight, the hero's 騎乗 and the class's 対魔力 do not apply, nor 気迫's 回復,
    気合's 軍団 or 魔力放出's 回復 (E6.3); 竜種's 竜5 does (E6.4), and so do the 支援 effects of the card that
    summoned the proxy (E5): 加勢's 直感 and 強化's 先制."""
    game = play(tmp_path, PROXY_POSITION)
    assert keywords(game, 0) == ["先制", "直感", "竜5"]
    assert keywords(game, 0, "magic") == ["先制", "直感", "竜5"]
    assert keywords(game, 0, base_only=True) == ["竜5"]
    assert stats.first_strike_types(game.ctx, 0) == {"physical", "magic"}
    assert keywords(game, 1) == ["対魔力"]


def test_a_fighting_proxys_keywords_with_the_errata_off(tmp_path):
    game = play(tmp_path, PROXY_POSITION, "errata: false\n")
    assert keywords(game, 0) == ["先制", "回復", "対魔力", "直感", "竜5", "軍団", "騎乗"]
    assert keywords(game, 0, base_only=True) == ["対魔力", "竜5", "騎乗"]


def test_a_seat_without_a_servant_has_no_keywords(db, rules):
    choose = rules.with_(profile=rules.profile.with_(servant_assignment="choose"))
    game = Game.new(db, choose, ["A", "B"], seed=3)
    assert game.state.players[0].hero is None
    assert game.fighter_keywords(0) == set() and stats.fighter_keywords(game.ctx, 1, base_only=True) == set()


OTHER_PROXY_POSITION = """\
title: a 支援 keyword with another card's proxy fighting
seed: 1
options: {auto_pass: false}
profile: {interception: false}
cards:
  - id: H-956
    kind: hero
    name: 伴の英霊
    provenance: provisional
    stats: {pa: 3, pd: 3, ma: 3, md: 3}
    classes: [キャスター]
    effects:
      - name: 伴の召喚
        timing: activated
        window: engagement
        keywords: [代理戦闘]
        ops:
          - {op: proxy, chip: dragon_tooth_warrior}
      - name: 伴の加護
        timing: activated
        window: engagement
        keywords: [支援]
        ops:
          - {op: grant_keyword, subject: combatant, keyword: 直感}
  - id: M-950
    kind: mystic_code
    name: 使い魔の鈴
    provenance: provisional
    effects:
      - name: 使い魔召喚
        timing: activated
        window: engagement
        keywords: [代理戦闘]
        ops:
          - {op: proxy, chip: sea_demon}
players:
  - name: A
    servant: {hero: H-956, class: キャスター, state: rise}
    seat: [M-950]
  - name: B
    servant: {hero: H-001, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: combat}
steps:
  - do: {player: A, action: raid, target: B}
  - advance: engagement
  - do: {player: A, action: use, card: H-956, effect: 伴の加護}
  - do: {player: A, action: use, card: M-950}
  - resolve
"""


def test_a_support_keyword_of_the_hero_is_not_for_another_cards_proxy_E5(tmp_path):
    """The hero's 伴の加護 (支援: 直感) resolves after the seat's bell called its sea demon: the
    hero's card has 代理戦闘 too, but the proxy fighting is not that card's, so E5 does not lift
    E6.3 and the proxy has no 直感."""
    game = play(tmp_path, OTHER_PROXY_POSITION)
    assert proxy.proxy_of(game.ctx, 0) == "sea_demon"
    assert [m.keyword for m in game.state.modifiers] == ["直感"]
    assert keywords(game, 0) == []
    with_own = play(tmp_path, OTHER_PROXY_POSITION.replace("card: M-950}", "card: H-956, effect: 伴の召喚}"))
    assert keywords(with_own, 0) == ["直感"]  # the hero's own proxy: E5


def test_a_proxys_skills_are_its_chips(tmp_path):
    """The chip sheet may give a proxy skills (B12: they count for whoever fights); the shipped
    sheet gives none, so a copy of the card folder gives the sea demon 騎乗: the bell's sea demon
    fights with it, printed skill and all (base_only)."""
    cards = tmp_path / "cards"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cards", cards)
    sheet = cards / "chips.yaml"
    text = sheet.read_text(encoding="utf-8")
    assert text.count("    name: 海魔\n") == 1 and "skills" not in text.split("chips:", 1)[1]
    sheet.write_text(text.replace("    name: 海魔\n", "    name: 海魔\n    skills: [騎乗]\n"),
                     encoding="utf-8")
    path = tmp_path / "position.yaml"
    path.write_text(OTHER_PROXY_POSITION, encoding="utf-8")
    scenario = load_scenario(path)
    run = ScenarioRun(scenario, game=scenario.build_game(root=cards))
    assert all(r.ok for r in run.run_all())
    assert run.game.ctx.db.chips["sea_demon"].skills == ("騎乗",)
    assert keywords(run.game, 0) == ["騎乗"]
    assert keywords(run.game, 0, base_only=True) == ["騎乗"]
