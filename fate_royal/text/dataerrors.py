"""Data-file problems in the reader's language.

The card loader (``fate_royal.cards``) words its problems in English: the command line prints them
as they are, next to the file and line they name. The card editor and the card patch form show the
same problems to players at the table, in the table's language: ``localize(message, lang)`` rewords
the problems those forms can produce, keeping every value, key, card id and path exactly as the
loader wrote it. A message with no wording here stays as the loader wrote it (``known`` says which).

A rewording is a pattern over the loader's sentence and a catalog key (``dataerror.*``) whose
placeholders are the pattern's named groups. Qt-free.
"""

from __future__ import annotations

import re
from typing import Callable

from fate_royal.text.catalog import tr_in

__all__ = ["localize", "known"]

_Q = r"'(?P<{}>[^']*)'"  # a value the loader quoted with repr()


def _p(pattern: str) -> re.Pattern:
    """``{Q:name}`` in ``pattern`` stands for a quoted value captured as ``name``."""
    return re.compile("^" + re.sub(r"\{Q:(\w+)\}", lambda m: _Q.format(m.group(1)), pattern) + "$")


#: (pattern over the loader's sentence, catalog key); the first that matches the whole sentence wins
_WORDINGS: tuple[tuple[re.Pattern, str], ...] = tuple((_p(p), k) for p, k in (
    (r"value (?P<value>-?\d+) above the maximum (?P<maximum>-?\d+)", "dataerror.above_maximum"),
    (r"value (?P<value>-?\d+) below the minimum (?P<minimum>-?\d+)", "dataerror.below_minimum"),
    (r"(?P<what>'[^']*' in [\w ]+|\w+ \([A-Z][\w.]*\)): value (?P<value>-?\d+) above the maximum "
     r"(?P<maximum>-?\d+)", "dataerror.above_maximum_of"),
    (r"(?P<what>'[^']*' in [\w ]+|\w+ \([A-Z][\w.]*\)): value (?P<value>-?\d+) below the minimum "
     r"(?P<minimum>-?\d+)", "dataerror.below_minimum_of"),
    (r"(?P<what>'[^']*' in [\w ']+|\w+ \([A-Z][\w.]*\)) must be at least (?P<minimum>-?\d+), got "
     r"(?P<value>-?\d+)", "dataerror.below_minimum_of"),
    (r"unknown operation {Q:op}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_operation"),
    (r"unknown condition {Q:cond}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_condition"),
    (r"unknown keyword {Q:word} in (?P<what>.+) \(known: (?P<known>[^()]*)\)(?P<near> \(did you mean "
     r"'[^']*'\?\))?", "dataerror.unknown_keyword"),
    (r"missing required key {Q:field} in (?P<what>.+)", "dataerror.missing_key"),
    (r"(?P<field>\w+) is required", "dataerror.required"),
    (r"'(?P<field>[^']*)' in (?P<what>[\w ]+) is empty", "dataerror.empty"),
    (r"(?P<path>\S+|the card) has no item {Q:item}", "dataerror.no_item"),
    (r"key {Q:name} is read as (?P<reading>.+), not text: write it in quotes \('[^']*'\)", "dataerror.key_not_text"),
    (r"required key {Q:field} in (?P<what>.+) has no value", "dataerror.key_without_value"),
    (r"unknown key {Q:field} in (?P<what>.+?)(?P<near> \(did you mean '[^']*'\?\))?",
     "dataerror.unknown_key"),
    (r"wrong type for (?P<name>.+): expected (?P<expected>.+), got (?P<got>.+)", "dataerror.wrong_type"),
    (r"(?P<value>.+) is not allowed for (?P<name>.+) \(one of: (?P<choices>[^()]*)\)"
     r"(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.not_allowed"),
    (r"a provisional value needs a note saying why \(e\.g\. note: printed text unknown\)",
     "dataerror.provisional_needs_note"),
    (r"a hero needs classes: its qualified classes \(クラス適性\)", "dataerror.hero_needs_classes"),
    (r"a class card needs class_name \(e\.g\. セイバー\)", "dataerror.class_needs_name"),
    (r"only hero cards have classes \(qualified classes\)", "dataerror.only_heroes_have_classes"),
    (r"only class cards have class_name", "dataerror.only_classes_have_class_name"),
    (r"unknown class {Q:cls} \(classes are written in Japanese: (?P<classes>[^)]*)\)"
     r"(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_class_in_classes"),
    (r"unknown class {Q:cls}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_class"),
    (r"card id {Q:card} does not match kind {Q:kind} \((?P=kind) ids start with (?P<prefix>\S+)\)",
     "dataerror.id_kind_mismatch"),
    (r"duplicate card id (?P<card>\S+) \(also in (?P<where>.+)\)", "dataerror.duplicate_card"),
    (r"duplicate card id (?P<card>\S+) in the extra cards", "dataerror.duplicate_extra_card"),
    (r"a 常時 \(constant\) effect has no cost \(B4\)", "dataerror.constant_no_cost"),
    (r"a 常時 \(constant\) effect has no window", "dataerror.constant_no_window"),
    (r"operation {Q:op} cannot be used in a 常時 \(constant\) effect", "dataerror.op_not_in_constant"),
    (r"operation {Q:op} can only be used in a 常時 \(constant\) effect", "dataerror.op_only_in_constant"),
    (r"operation {Q:op} needs parameter {Q:param}", "dataerror.op_needs_parameter"),
    (r"unknown parameter {Q:param} for operation {Q:op}(?P<near> \(did you mean '[^']*'\?\))?",
     "dataerror.op_unknown_parameter"),
    (r"operation {Q:op} acts on the effect's target, but the effect has no target "
     r"\(add target: \{kind: \.\.\.\}\)", "dataerror.op_needs_target"),
    (r"operation {Q:op} needs a target of kind {Q:wanted}, not {Q:got}", "dataerror.op_target_kind"),
    (r"unless_target_has needs a target", "dataerror.unless_needs_target"),
    (r"effect {Q:effect} has no ops \(and no script; an effect the vocabulary cannot express is "
     r"marked unplayable: true with its text:\)", "dataerror.effect_without_ops"),
    (r"an effect marked unplayable \(not yet playable\) has no ops and no script",
     "dataerror.unplayable_has_ops"),
    (r"a not yet playable effect keeps its printed text: add text: \(the card's Japanese text\)",
     "dataerror.unplayable_needs_text"),
    (r"die face (?P<face>\S+) is not 1 to 6", "dataerror.die_face"),
    (r"die face (?P<face>\S+) is already in outcome (?P<outcome>\S+)", "dataerror.die_face_twice"),
))

_NEAR = re.compile(r"^ \(did you mean '([^']*)'\?\)$")
#: "path: sentence" (a problem found in data given as plain mappings, e.g. the editor's form)
_PATH = re.compile(r"^(?P<path>[a-z_]+(?:\.[0-9A-Za-z_]+)*): (?P<rest>.+)$", re.S)


#: the parts of card data the loader names ("… in effect", "'pa' in stats", "item of classes")
_PARTS = ("card", "effect", "cost", "target", "stats", "outcome", "chip", "chip sheet", "errata pack",
          "errata patch", "provenance wrapper", "condition", "classes", "skills", "ops")
_KEY_IN = re.compile(r"^'(?P<key>[^']*)' in (?P<rest>.+)$")
_ITEM_OF = re.compile(r"^item of (?P<rest>.+)$")
_OPERATION = re.compile(r"^operation '(?P<op>[^']*)'$")


def _what(text: str, lang: str) -> str:
    """A part of the data as the loader names it, in ``lang`` (unchanged when not known)."""
    m = _KEY_IN.match(text)
    if m:
        return tr_in(lang, "dataerror.part.key_in", field=m.group("key"), part=_what(m.group("rest"), lang))
    m = _ITEM_OF.match(text)
    if m:
        return tr_in(lang, "dataerror.part.item_of", part=_what(m.group("rest"), lang))
    m = _OPERATION.match(text)
    if m:
        return tr_in(lang, "dataerror.part.operation", op=m.group("op"))
    if text in _PARTS:
        return tr_in(lang, "dataerror.part." + text.replace(" ", "_"))
    return text


#: how the loader names a type or a value it did not expect
_TYPES = {"text": "text", "an integer": "integer", "true or false": "bool", "a list of integers":
          "int_list", "a list of text": "text_list", "a number": "number", "a mapping": "mapping",
          "a list": "list", "null": "null"}
_VALUE = re.compile(r"^(?P<kind>boolean|integer|number|text) (?P<value>.+)$")


def _value(text: str, lang: str) -> str:
    """A type or a described value ("text 'x'", "integer 5") in ``lang``."""
    if text in _TYPES:
        return tr_in(lang, "dataerror.type." + _TYPES[text])
    m = _VALUE.match(text)
    if m:
        return tr_in(lang, "dataerror.value." + m.group("kind"), value=m.group("value"))
    return text


def _reword(sentence: str, lang: str, label: Callable[[str], str] | None = None) -> str | None:
    for pattern, key in _WORDINGS:
        m = pattern.match(sentence)
        if m:
            values = {k: (v or "") for k, v in m.groupdict().items()}
            if label is not None and values.get("field"):  # a form names its fields in words
                values["field"] = label(values["field"])
            near = _NEAR.match(values.get("near", ""))
            if near:
                values["near"] = tr_in(lang, "dataerror.did_you_mean", word=near.group(1))
            for name in ("what", "name"):
                if name in values:
                    values[name] = _what(values[name], lang)
            for name in ("expected", "got", "value"):
                if name in values:
                    values[name] = _value(values[name], lang)
            return tr_in(lang, key, **values)
    return None


def localize(message: str, lang: str, label: Callable[[str], str] | None = None) -> str:
    """``message`` (a loader problem, with or without its ``path:`` in front) in ``lang``; sentences
    without a wording come back unchanged, and so does English unless ``label`` is given.

    ``label`` is a form's own name for a field key (``"rule"`` → "エラッタのルール"): a form words
    a missing or empty field by the name it shows beside it, and in English it gets the catalog's
    sentence (the loader's English quotes Japanese terms a form does not show)."""
    if lang == "en" and label is None:
        return message
    m = _PATH.match(message)
    if m:  # the path first: a sentence pattern could otherwise swallow it into a value
        rest = _reword(m.group("rest"), lang, label)
        if rest is not None:
            return f"{m.group('path')}: {rest}"
    got = _reword(message, lang, label)
    return message if got is None else got


def known(message: str) -> bool:
    """Whether ``message`` has a wording (with or without its path)."""
    m = _PATH.match(message)
    return _reword(message, "en") is not None or (m is not None and _reword(m.group("rest"), "en") is not None)
