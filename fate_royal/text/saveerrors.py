"""Why a save or the autosave cannot be opened, in the reader's language.

The engine words a refused save in English (``rules/save.py``, ``rules/journal.py``): the command
line prints it as it is, after the file and line. At the table the message box around it is in the
table's language, so ``localize_refusal(message, lang)`` rewords the sentences a person meets when a
friend's file is broken, foreign, too new or played with other cards — keeping every number, key
and card id as the engine wrote it. "damaged save: …" is reworded with what follows it; a detail
with no wording stays in English inside the reworded frame; a problem of the game's setup is worded
as a scenario's (``dataerrors``); an action the replay refused is worded by its reason code, as the
table words a refused action.
Qt-free.
"""

from __future__ import annotations

import re

from fate_royal.text.catalog import tr_in
from fate_royal.text.dataerrors import known as data_known, localize
from fate_royal.text.words import Words

__all__ = ["localize_refusal", "known"]

#: "damaged save: …" and "damaged autosave: …": the frame, then what follows it
_FRAMES = (("damaged save: ", "saveerror.damaged_save"), ("damaged autosave: ", "saveerror.damaged_autosave"))

#: (pattern over the engine's whole sentence, catalog key); placeholders are the named groups
_WORDINGS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile("^" + p + "$", re.S), k) for p, k in (
    (r"the file is empty", "saveerror.empty"),
    (r"too large to be a fate_royal (?P<what>save|autosave) \((?P<size>\d+) bytes\)", "saveerror.too_large"),
    (r"cannot read: (?P<reason>.+)", "saveerror.cannot_read"),
    (r"cannot open: (?P<reason>.+)", "saveerror.cannot_open"),
    (r"not a fate_royal (?P<what>save|autosave) \(not UTF-8 text\)", "saveerror.not_text"),
    (r"not a fate_royal save \(no 'format: fate_royal-save' field\)", "saveerror.not_a_save"),
    (r"not a fate_royal autosave \(no 'format: fate_royal-journal' field\)", "saveerror.not_an_autosave"),
    (r"saved by a newer fate_royal \(format (?P<version>[^;]+); this one reads up to (?P<reads>\d+)\); "
     r"update fate_royal to open it", "saveerror.newer"),
    (r"unknown save format version (?P<version>.+)", "saveerror.unknown_version"),
    (r"autosave format (?P<version>.+) is not known to this version", "saveerror.unknown_autosave_version"),
    (r"this game used personal cards that your card pack does not have: (?P<cards>.+) \(import the card "
     r"pack it was played with, then open it again\)", "saveerror.personal_cards"),
    (r"incompatible: the card data changed since this game was saved \(open it anyway to replay it "
     r"with the current cards\)", "saveerror.cards_changed"),
    (r"cannot load the card data to replay this save: (?P<reason>.+)", "saveerror.card_data"),
    (r"replay failed at action (?P<n>\d+): (?P<reason>.+?)(?P<rule> \[[^\]]+\])?", "saveerror.replay_failed"),
    # what follows "damaged save: " or "damaged autosave: "
    (r"nested too deeply", "saveerror.nested"),
    (r"a number has more than (?P<digits>\d+) digits", "saveerror.long_number"),
    (r"no format version", "saveerror.no_version"),
    (r"'(?P<field>[^']+)' is missing or has the wrong type", "saveerror.key_missing"),
    (r"'record' or 'names' is missing", "saveerror.record_or_names"),
    (r"'(?P<field>[^']+)' is missing", "saveerror.key_missing_only"),
    (r"its setup cannot be played \((?P<reason>.+)\)", "saveerror.setup"),
    (r"action (?P<n>\d+) is not valid \((?P<reason>.+)\)", "saveerror.action_not_valid"),
    (r"the replay does not reach the saved position", "saveerror.replay_differs"),
    (r"the record holds (?P<n>\d+) actions, above the maximum (?P<maximum>\d+)", "saveerror.too_many_actions"),
    (r"(?P<n>\d+) actions, above the maximum (?P<maximum>\d+)", "saveerror.too_many_actions"),
    (r"its first line is not readable", "saveerror.first_line"),
    (r"a line is not readable", "saveerror.line"),
    (r"expected entry (?P<n>\d+) here", "saveerror.entry_expected"),
    # what Python's JSON reader says of a file that is not JSON (the line is given before it)
    (r"(?:Expecting|Unterminated|Invalid|Extra data|Illegal)\b.*", "saveerror.not_json"),
))


def _reword(sentence: str, lang: str, code: str = "") -> str | None:
    for prefix, key in _FRAMES:
        if sentence.startswith(prefix):
            rest = sentence[len(prefix):]
            # a detail the checks share with scenarios (an impossible start position) is worded there
            return tr_in(lang, key, detail=_reword(rest, lang) or localize(rest, lang))
    for pattern, key in _WORDINGS:
        m = pattern.match(sentence)
        if m:
            values = m.groupdict()
            if "what" in values:
                values["what"] = tr_in(lang, "saveerror.kind." + values["what"])
            if "rule" in values:  # a refused action: by its code as the table words it, else as written
                if code:
                    values["reason"] = Words(lang).reason(code, replayed=True)
                values["reason"] += values.pop("rule") or ""
            if key == "saveerror.setup":  # the setup checker's problem, as a scenario's is worded
                values["reason"] = localize(values["reason"], lang)
            return tr_in(lang, key, **values)
    return None


def localize_refusal(message: str, lang: str, reason: str = "") -> str:
    """``message`` (a SaveError's sentence, without its file and line) in ``lang``; English, and a
    sentence with no wording, come back unchanged. ``reason``: the engine's code for the action a
    replay refused (SaveError.reason), worded as the table words a refused action."""
    if lang == "en":
        return message
    got = _reword(message, lang, reason)
    return message if got is None else got


def known(message: str) -> bool:
    """Whether ``message`` has a wording: the whole of it, frame and what follows."""
    for prefix, _key in _FRAMES:
        if message.startswith(prefix):
            rest = message[len(prefix):]
            return known(rest) or data_known(rest)
    return any(pattern.match(message) for pattern, _key in _WORDINGS)
