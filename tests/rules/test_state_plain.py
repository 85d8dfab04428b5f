"""The state's plain-data form turns any dataclass it holds into a dict of its fields."""

from dataclasses import dataclass, field

from fate_royal.rules.state import _to_plain


@dataclass
class _Inner:
    n: int = 1
    tags: tuple = ("a", "b")


@dataclass
class _Outer:
    name: str = "x"
    inner: _Inner = field(default_factory=_Inner)
    by_seat: dict = field(default_factory=lambda: {0: [1, 2]})


def test_dataclasses_become_dicts_of_their_fields():
    assert _to_plain(_Outer()) == {"name": "x", "inner": {"n": 1, "tags": ["a", "b"]},
                                   "by_seat": {"0": [1, 2]}}
