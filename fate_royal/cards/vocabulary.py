"""The closed vocabulary that card effects are written in.

A card's effect is data: a list of *operations*, each with declared parameters. The validator checks
every operation and parameter against the tables here; the engine (``fate_royal.rules.effects``)
interprets them. A card the vocabulary cannot express gets a per-card script (``script:``), the
marked exception (see ``SCRIPTS``).

Everything here is plain data so that the card guide, the checker and the engine share one source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# --- enumerations ----------------------------------------------------------------------------------

CARD_KINDS = ("hero", "class", "mystic_code", "scene")
ID_PREFIX = {"hero": "H", "class": "C", "mystic_code": "M", "scene": "S"}

#: ``entered``: typed in by a person from their own cards (the personal card pack, cards/pack.py).
PROVENANCES = ("printed", "errata", "provisional", "entered")

#: Class names as printed (ja) with their English names.
CLASSES = {
    "セイバー": "Saber",
    "アーチャー": "Archer",
    "ランサー": "Lancer",
    "ライダー": "Rider",
    "キャスター": "Caster",
    "アサシン": "Assassin",
    "バーサーカー": "Berserker",
}

STAT_KEYS = ("pa", "pd", "ma", "md")  # 物理攻撃力, 物理防御力, 魔術攻撃力, 魔術防御力

#: Timings (B5): 常時 constant, 起動 activated.
TIMINGS = ("constant", "activated")

#: Windows an activated effect names (B5). ``any`` = いつでも.
WINDOWS = {
    "any": "いつでも",
    "ritual": "儀式ステップ",
    "damage": "ダメージ判定プロセス",
    "engagement": "交戦プロセス",
    "raid": "襲撃プロセス",
    "combat": "戦闘ステップ",
}

CARD_STATES = ("reverse", "rise", "down", "danger")

#: Keywords seen on cards (cards.md). Skills are keywords held by a card; effect keywords tag effects.
KEYWORDS = {
    "先制": "first strike",
    "支援": "support",
    "代理戦闘": "proxy combat",
    "騎乗": "riding",
    "軍団": "army",
    "直感": "intuition",
    "回復": "recovery",
    "対魔力": "magic resistance",
    "竜": "dragon (竜N: dragon rank N)",
}

COIN_KINDS = ("assassination",)

#: Who an operation acts on.
#:  self        the servant (or player) of the card's owner
#:  target      the effect's chosen target (see ``Target``)
#:  opponent    the owner's opponent in the current combat
#:  combatant   whoever fights for the owner in the current combat (the servant, or its proxy)
#:  this_card   the card that carries the effect
SUBJECTS = ("self", "target", "opponent", "combatant", "this_card")

DURATIONS = ("turn", "combat", "permanent")


# --- parameter and operation specs ------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One declared parameter of an operation or condition."""

    type: str  # "int", "str", "bool", "list[int]", "enum", "ops", "condition", "outcomes"
    required: bool = False
    default: Any = None
    choices: tuple = ()
    doc: str = ""
    minimum: int | None = None  # for int (and each item of list[int])
    maximum: int | None = None
    #: for str: a name, at most this many characters, with no control or invisible character
    max_length: int | None = None


#: Upper bounds of the numbers card data may carry: what a table can hold, draw and play. No card
#: comes near them; they keep a mistyped or hostile value from making the engine deal, draw or
#: place without end.
MAX_STAT = 99  # a printed stat, and a stat change
MAX_CARDS = 40  # cards moved by one operation (draw, steal, a fresh hand), a discard cost
MAX_AMOUNT = 99  # mana, damage, coins
MAX_COMMAND_SPELLS = 9
MAX_COPIES = 20  # copies of one card in the deck
MAX_DRAGON_RANK = 99  # 竜N
MAX_NAME = 40  # a card's or effect's printed name (the longest printed one has 11 characters)
MAX_NAME_EN = 80  # its English name (the longest has 36)
MAX_PLAYERS = 7
DIE_FACES = (1, 6)


def count_param(maximum: int, required: bool = True, default: Any = None, doc: str = "") -> Param:
    """A whole number from 0 to ``maximum``."""
    return Param("int", required=required, default=default, doc=doc, minimum=0, maximum=maximum)


def faces_param(required: bool = True, default: Any = None, doc: str = "") -> Param:
    """A list of die faces, each 1 to 6."""
    return Param("list[int]", required=required, default=default, doc=doc, minimum=DIE_FACES[0],
                 maximum=DIE_FACES[1])


@dataclass(frozen=True)
class Operation:
    """An operation of the vocabulary: its name, parameters and a one-line meaning."""

    name: str
    params: dict[str, Param]
    doc: str
    rules: tuple[str, ...] = ()  # rule ids the operation typically cites
    constant_ok: bool = True  # may appear in a 常時 effect
    activated_ok: bool = True  # may appear in a 起動 effect


def _subject(default: str = "self") -> Param:
    return Param("enum", default=default, choices=SUBJECTS, doc="who it acts on")


_STAT_PARAMS = {k: count_param(MAX_STAT, False, 0, f"change to {k}") for k in STAT_KEYS}

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in [
        Operation(
            "modify_stats",
            {
                "subject": _subject("combatant"),
                **_STAT_PARAMS,
                "duration": Param("enum", default="turn", choices=DURATIONS),
            },
            "Add to (or subtract from) a fighter's physical/magic attack and defense. In a 常時 effect "
            "the change holds while the effect is on; in a 起動 effect it lasts for `duration`.",
            ("B2", "B11"),
        ),
        Operation(
            "set_state",
            {
                "subject": _subject("target"),
                "state": Param("enum", required=True, choices=CARD_STATES),
            },
            "Put the subject servant (or card) into a state: rise, down, danger or reverse.",
            ("B3", "E1.3"),
            constant_ok=False,
        ),
        Operation(
            "rise_cards",
            {"count": count_param(MAX_CARDS, doc="how many of the user's Down cards to turn Rise")},
            "The user turns up to `count` of their own Down cards (servant or mystic codes) Rise, "
            "choosing which.",
            ("B3",),
            constant_ok=False,
        ),
        Operation(
            "draw",
            {"count": count_param(MAX_CARDS)},
            "The user draws `count` cards (E8 rebuilds an empty deck mid-effect).",
            ("E8", "D15"),
            constant_ok=False,
        ),
        Operation(
            "discard",
            {
                "count": count_param(MAX_CARDS),
                "subject": _subject("self"),
            },
            "The subject player discards `count` cards of their choice from hand.",
            constant_ok=False,
        ),
        Operation(
            "steal_random",
            {"count": count_param(MAX_CARDS, False, 1)},
            "The user takes `count` cards at random from the target player's hand.",
            ("B7",),
            constant_ok=False,
        ),
        Operation(
            "recover",
            {"amount": count_param(MAX_AMOUNT)},
            "【回復】 The user restores `amount` mana coins (the E3 limit still caps them).",
            ("B10", "E3"),
            constant_ok=False,
        ),
        Operation(
            "damage",
            {
                "subject": _subject("target"),
                "amount": count_param(MAX_AMOUNT),
            },
            "Deal `amount` damage to a servant, ignoring defense: each point removes one of its "
            "master's mana coins (D11); a proxy is removed instead.",
            ("D11",),
            constant_ok=False,
        ),
        Operation(
            "place_coins",
            {
                "subject": _subject("target"),
                "coin": Param("enum", default="assassination", choices=COIN_KINDS),
                "amount": count_param(MAX_AMOUNT),
                "halve": Param("bool", default=False,
                               doc="place ⌊amount ÷ 2⌋ coins (E9.3: damage ÷ 2, rounded down)"),
            },
            "Place special coins on the subject servant's master (they stay until removed, D12).",
            ("E9.3", "D12", "E4.2"),
            constant_ok=False,
        ),
        Operation(
            "roll_die",
            {"outcomes": Param("outcomes", required=True, doc="list of {faces: [..], ops: [..]}")},
            "Roll the die (logged) and carry out the operations of the outcome whose faces match.",
            ("B1",),
            constant_ok=False,
        ),
        Operation(
            "negate",
            {
                "what": Param(
                    "enum", default="any", choices=("any", "scene", "mystic_code", "hero", "class"),
                    doc="what kind of card's effect may be negated",
                ),
            },
            "打ち消し: negate the targeted effect waiting on the stack (it does nothing).",
            ("D6",),
            constant_ok=False,
        ),
        Operation(
            "proxy",
            {"chip": Param("str", required=True, doc="id of a chip on the chip sheet")},
            "代理戦闘: a proxy with the chip's stats fights this combat for the user's servant.",
            ("E6.1", "E6.5", "E9.7"),
            constant_ok=False,
        ),
        Operation(
            "grant_keyword",
            {
                "subject": _subject("combatant"),
                "keyword": Param("str", required=True),
                "duration": Param("enum", default="turn", choices=DURATIONS),
            },
            "Give a fighter a keyword (a skill such as 先制) while on / for `duration`.",
            ("B12", "D10"),
        ),
        Operation(
            "encounter_faces",
            {"faces": faces_param()},
            "常時: in its owner's encounter step these die faces also cause an encounter.",
            ("D5", "E9.5"),
            activated_ok=False,
        ),
        Operation(
            "revive",
            {
                "mana": count_param(MAX_AMOUNT, False, 1),
                "command_spells": count_param(MAX_COMMAND_SPELLS, False, 1),
                "hand": count_param(MAX_CARDS, False, 2),
            },
            "Bring a dropped-out player (the target) back with a new Reverse servant from the cards "
            "out of play, the given mana, command spells and a fresh hand.",
            ("D14",),
            constant_ok=False,
        ),
    ]
}

#: Conditions an operation (``if:``) or an effect (``condition:``, ``lost_when:``) may test.
CONDITIONS: dict[str, Param] = {
    "opponent_has_keyword": Param("str", doc="the combat opponent has this keyword"),
    "target_has_keyword": Param("str", doc="the effect's target has this keyword"),
    "attack_type": Param("enum", choices=("physical", "magic"), doc="the user's attack type"),
    "role": Param("enum", choices=("raider", "interceptor"), doc="the user's side in combat"),
    "in_combat": Param("bool", doc="the user's servant is fighting now"),
    "players_at_most": Param("int", doc="at most this many players remain (owner included)",
                             minimum=1, maximum=MAX_PLAYERS),
    "servant_state": Param("enum", choices=CARD_STATES, doc="the user's servant is in this state"),
    "not": Param("condition", doc="the inner condition is false"),
}

#: What an effect may target. ``kind`` none means no target is chosen.
TARGET_KINDS = ("none", "servant", "player", "dropped_player", "card", "stack_effect")
TARGET_SIDES = ("any", "opponent", "self", "combat_opponent")

EFFECT_KEYS = {
    "name": Param("str", required=True, doc="the effect's printed name (same-name effects do not stack)",
                  max_length=MAX_NAME),
    "name_en": Param("str", max_length=MAX_NAME_EN),
    "timing": Param("enum", required=True, choices=TIMINGS),
    "window": Param("enum", default="any", choices=tuple(WINDOWS)),
    "cost": Param("cost"),
    "keywords": Param("list[str]", default=()),
    "target": Param("target"),
    "condition": Param("condition"),
    "lost_when": Param("condition"),
    "usable_while_down": Param("bool", default=False),
    "unless_target_has": Param("str"),
    "ops": Param("ops", default=()),
    "script": Param("str"),
    "unplayable": Param("bool", default=False,
                        doc="not yet playable: the vocabulary cannot express it; kept with its "
                            "printed text (text:), never offered in a game, listed by check"),
    "text": Param("str", doc="the card text in Japanese (as printed, or as known)"),
    "text_en": Param("str"),
    "note": Param("str"),
}

COST_KEYS = {
    "raw": Param("str", doc="the printed cost notation, kept verbatim (e.g. 'R4', 'D1・2+R4', 'T')"),
    "tap": Param("bool", default=False, doc="T: this card goes Down"),
    "discard": count_param(MAX_CARDS, False, 0, "discard this many cards from hand"),
    "mana": count_param(MAX_AMOUNT, False, 0, "pay this many mana coins"),
    "die": faces_param(False, (), "roll the die; the effect works only on these faces"),
}

TARGET_KEYS = {
    "kind": Param("enum", default="none", choices=TARGET_KINDS,
                  doc="what is chosen: a servant, a player, a dropped-out player, a card on a "
                      "seat, an effect waiting on the stack"),
    "side": Param("enum", default="any", choices=TARGET_SIDES,
                  doc="whose: anyone's; another player's; the user's own; the other fighter's "
                      "(nothing outside a combat) — for every kind"),
    "card_kinds": Param("list[str]", default=(), doc="for card / stack_effect targets"),
}

#: Per-card scripts, the marked exception: name -> one line on what it does. The engine registers
#: the implementation under the same name (fate_royal.rules.scripts).
SCRIPTS: dict[str, str] = {}


def describe() -> dict[str, Any]:
    """A plain summary of the vocabulary (used by docs and ``fate-royal check --vocabulary``)."""
    return {
        "operations": {
            name: {
                "doc": op.doc,
                "params": {p: {"type": s.type, "required": s.required, "default": s.default,
                               "choices": list(s.choices), "minimum": s.minimum,
                               "maximum": s.maximum} for p, s in op.params.items()},
            }
            for name, op in OPERATIONS.items()
        },
        "conditions": {name: p.doc for name, p in CONDITIONS.items()},
    }
