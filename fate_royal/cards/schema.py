"""The keys of the data files that are not effects (cards, chips, errata pack, provenance wrapper).

The effect, cost and target keys and the operations live in ``vocabulary``; this module adds the
outer shapes so that the loader, the checker and the authoring guide share one table.
"""

from __future__ import annotations

from fate_royal.cards.vocabulary import CARD_KINDS, MAX_COPIES, MAX_NAME, MAX_NAME_EN, MAX_STAT, Param

#: Folder of ``cards/`` -> the card kind its files hold.
KIND_FOLDERS = {"heroes": "hero", "classes": "class", "mystic_codes": "mystic_code", "scenes": "scene"}

CHIP_SHEET = "chips.yaml"
ERRATA_DIR = "errata"
PROFILE_FILE = "profile.yaml"

#: Provenance a card file may state (``errata`` is given only by errata patches).
FILE_PROVENANCES = ("printed", "provisional")

CARD_KEYS = {
    "id": Param("str", required=True, doc="H-001, C-003, M-007, S-001 (prefix by kind, 3 digits)"),
    "kind": Param("enum", required=True, choices=CARD_KINDS),
    "name": Param("str", required=True, doc="name as printed (Japanese)", max_length=MAX_NAME),
    "name_en": Param("str", default="", max_length=MAX_NAME_EN),
    "provenance": Param("enum", default="printed", choices=FILE_PROVENANCES,
                        doc="provenance of every field not wrapped otherwise"),
    "stats": Param("stats", doc="{pa, pd, ma, md}, each −99–99; required for heroes and classes"),
    "classes": Param("list[str]", doc="heroes only: qualified classes (Japanese class names)"),
    "class_name": Param("str", doc="class cards only: which class (Japanese class name)"),
    "skills": Param("list[str]", default=(), doc="keywords the card carries (先制, 竜5, ...)"),
    "effects": Param("effects", default=(), doc="list of effects (see EFFECT_KEYS)"),
    "copies": Param("int", default=1, doc="copies in the deck (mystic codes and scenes)", minimum=1,
                    maximum=MAX_COPIES),
    "text": Param("str", default=""),
    "note": Param("str", default="", doc="free remark; for a provisional card, why"),
}

STATS_KEYS = ("pa", "pd", "ma", "md")

#: A printed stat (of a hero, a class card or a chip): a whole number within these bounds.
STAT_PARAM = Param("int", required=True, minimum=-MAX_STAT, maximum=MAX_STAT)

CHIP_SHEET_KEYS = {
    "provenance": Param("enum", default="provisional", choices=FILE_PROVENANCES),
    "note": Param("str", default=""),
    "chips": Param("chips", required=True),
}

CHIP_KEYS = {
    "id": Param("str", required=True, doc="lower_case id the proxy operation names"),
    "name": Param("str", required=True, max_length=MAX_NAME),
    "name_en": Param("str", default="", max_length=MAX_NAME_EN),
    "provenance": Param("enum", choices=FILE_PROVENANCES, doc="default: the sheet's provenance"),
    "stats": Param("stats", required=True),
    "skills": Param("list[str]", default=()),
    "note": Param("str", default=""),
}

ERRATA_KEYS = {
    "pack": Param("str", required=True, doc="name of the pack"),
    "title": Param("str", default=""),
    "source_file": Param("str", default=""),
    "note": Param("str", default=""),
    "patches": Param("patches", required=True),
}

PATCH_KEYS = {
    "id": Param("str", required=True, doc="unique in the pack, e.g. E9.1-a"),
    "rule": Param("str", required=True, doc="rule id, e.g. E9.1"),
    "source": Param("str", required=True, doc="the sentence of the source text the patch implements"),
    "card": Param("str", required=True, doc="card id"),
    "path": Param("str", required=True, doc="dotted field path, e.g. effects.1.ops"),
    "expect": Param("any", required=True,
                    doc="set: the value it replaces; append: {count: N} items already there"),
    "set": Param("any", doc="the new value"),
    "append": Param("any", doc="an item appended to the list at path"),
    "note": Param("str", default=""),
}

WRAPPER_KEYS = {
    "value": Param("any", required=True),
    "provenance": Param("enum", required=True, choices=FILE_PROVENANCES),
    "note": Param("str", doc="why (required for provisional)"),
}
