"""No mixed languages: every UI string, every event the engine writes (from every scenario and a
sweep of random games, plus the codes those never reach) and every card's rules text and zoom,
rendered in Japanese and in English, holds no fragment of the other language — proper names aside
(card, effect, chip and player names; keywords in 【】, which the game keeps as printed terms).
Plural forms in English; Qt's own strings come from Qt's Japanese translation."""

from __future__ import annotations

import glob
import random
import re
from functools import lru_cache

import pytest

from fate_royal.cards import load_card_db
from fate_royal.cards.rulesets import shipped_ruleset
from fate_royal.qt import i18n
from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.text import Words
from fate_royal.text.catalog import catalog, fill

from tablepos import ROOT

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
LATIN = re.compile(r"[A-Za-z]{2,}")
KEYWORD = re.compile(r"【[^】]*】")
#: Latin words a Japanese UI shows as they are: the game's title, key names, file types and formats,
#: values to be typed as written (true/false), the language's own name.
JA_LATIN_OK = {"Fate", "Ace", "Royal", "English", "Enter", "Esc", "Space", "PageUp", "PageDown", "OK",
               "NG", "PNG", "png", "json", "jsonl", "yaml", "yml", "YAML", "txt", "Ctrl", "Shift",
               "true", "false"}
EN_JAPANESE_OK = {"日本語"}  # the language menu names Japanese in Japanese


def keywords() -> list[str]:
    """The game's keywords (先制, 竜 …): printed terms kept in Japanese in both languages."""
    return sorted((k.split(".", 2)[2] for k in catalog("ja") if k.startswith("cardtext.keyword.")),
                  key=len, reverse=True)


def other_language(text: str, lang: str, names: list[str] = ()) -> list[str]:
    """Fragments of the other language in ``text`` (after taking out proper names)."""
    for n in list(names) + (keywords() if lang == "en" else []):
        if n:
            text = text.replace(n, " ")
    text = KEYWORD.sub(" ", text)
    text = re.sub(r"\b[0-9a-f]{8,}\b", " ", text)  # a seed commitment
    text = re.sub(r"\b[A-Z]{1,2}-?\d+(\.\d+)*\b", " ", text)  # rule and card ids: E6.3, H-012
    if lang == "en":
        return [f for f in JAPANESE.findall(text) if f not in EN_JAPANESE_OK]
    return [w for w in LATIN.findall(text) if w not in JA_LATIN_OK]


@lru_cache(maxsize=None)
def _db(name: str):
    rules = shipped_ruleset(name)
    return rules, load_card_db(rules=rules)


def proper_names(db, players=()) -> list[str]:
    names = set(players)
    for c in db.cards.values():
        names |= {c.name, c.name_en}
        for e in c.effects:
            names |= {e.name, e.name_en}
    for ch in db.chips.values():
        names |= {ch.name, ch.name_en}
    return sorted((n for n in names if n), key=len, reverse=True)


@lru_cache(maxsize=None)
def played_games() -> tuple:
    """Every scenario played through, and random games of 2–7 players with and without errata."""
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    games = []
    for path in sorted(glob.glob(str(ROOT / "scenarios" / "*" / "*.yaml"))):
        run = ScenarioRun(load_scenario(path))
        while not run.done:
            run.forward()
        games.append(run.game)
    for name in ("house", "base"):
        rules, db = _db(name)
        for seed in range(6):
            n = 2 + seed
            g = Game.new(db, rules, [f"P{i + 1}" for i in range(n)], seed=seed)
            rng = random.Random(seed)
            while g.outcome() is None and len(g.history) < 1200:
                acts = g.legal_actions()
                g.apply(rng.choices(acts, [{"spell": 0.2, "raid": 2.0}.get(a.kind, 1.0) for a in acts])[0])
            games.append(g)
    return tuple(games)


def file_words() -> set[str]:
    """The words of the scenario and setup formats (keys, steps, actions and the values to type):
    a problem with such a file names them as the file must spell them, in either language."""
    from fate_royal.cards import rulesets
    from fate_royal.cards.profile import PARAMETERS
    from fate_royal.cards.ruleset import READINGS
    from fate_royal.rules import scenario, setup

    spelled = [*scenario.TOP_KEYS, *scenario.STEP_KINDS, *scenario.EXPECT_KEYS, *scenario.ACTION_KEYS,
               *(k for keys in scenario.ACTION_KEYS.values() for k in keys), *setup.SETUP_KEYS,
               *setup.PLAYER_KEYS, *setup.START_KEYS, *setup.SERVANT_KEYS, *setup.SEAT_CARD_KEYS,
               *setup.UID_ORDERS, *setup.SEAT_STATES, "uid_order", "action", "rule", "cards", "options",
               "auto_pass", "physical", "magic", "negate", "remove_coin", "assassination", "pa", "pd", "ma", "md",
               "KB", "UTF", "ud800", "null", "expect", "count", "append", "path", "set",  # (an errata patch's)
               *rulesets.KEYS, *rulesets.SHIPPED, "errata", *PARAMETERS,  # (a rule set's)
               *(choice for reading in READINGS.values() for choice in reading.choices)]
    return set(LATIN.findall(" ".join(spelled)))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_ui_string_is_in_one_language(lang):
    bad = []
    spelled = file_words()
    for key, template in catalog(lang).items():
        if key.startswith(("keyword.", "cardtext.keyword.")):
            continue  # the game's printed terms, glossed
        text = fill(template, {})
        text = re.sub(r"\{[^}]*\}", " ", text)
        frags = other_language(text, lang)
        if key.startswith(("setuperror.", "yamlerror.", "dataerror.")):  # a broken file's problem names its words
            frags = [f for f in frags if f not in spelled]
        if frags:
            bad.append((key, frags))
    assert not bad, bad


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_event_renders_in_one_language(lang):
    bad = {}
    seen = set()
    for g in played_games():
        w = Words.for_game(g, lang)
        names = proper_names(g.db, [p.name for p in g.ctx.s.players])
        for e in g.ctx.log:
            seen.add(e.code)
            frags = other_language(w.event(e), lang, names)
            if frags:
                bad.setdefault(e.code, (w.event(e), frags))
    # the codes no game above reached, with arguments of the right kinds
    rules, db = _db("house")
    w = Words(lang, db, ["A", "B"])
    samples = {"player": 0, "card": "H-001", "keyword": "先制", "seed": 12345, "seed_commit": "d8a016f1b1aff0bc",
               "entered_cards": ["H-001"], "skills": ["先制"], "effects": [], "targets": [], "change": {},
               "paid": []}
    for key in catalog(lang):
        code = key.split(".", 1)[1] if key.startswith("event.") else None
        if code is None or code in seen:
            continue
        names = re.findall(r"\{([A-Za-z_]+)", catalog(lang)[key])
        args = {n: samples.get(n, 1) for n in names if n != "effect"}
        text = w.event(Event(code, args, (), "H-001", "約束された勝利の剣"))
        frags = other_language(text, lang, proper_names(db, ["A", "B"]))
        if frags:
            bad[code] = (text, frags)
    assert not bad, bad


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("ruleset", ["house", "base"])
def test_every_card_text_and_zoom_in_one_language(lang, ruleset, qapp):
    from fate_royal.qt import art
    from fate_royal.qt.zoom import ZoomTarget, zoom_html
    from PySide6.QtGui import QTextDocument

    rules, db = _db(ruleset)
    g = Game.new(db, rules, ["A", "B"], seed=1)
    names = proper_names(db, ["A", "B"])
    i18n.set_language(lang)
    try:
        bad = []
        for card in db.cards.values():
            for text, _generated in art.rules_text(card, lang, db):
                frags = other_language(text, lang, names)
                if frags:
                    bad.append((card.id, "text", text, frags))
            doc = QTextDocument()
            doc.setHtml(zoom_html(g, ZoomTarget(card.id, role="discard"), None))
            frags = other_language(doc.toPlainText(), lang, names)
            if frags:
                bad.append((card.id, "zoom", frags))
        assert not bad, bad[:8]
    finally:
        i18n.set_language("ja")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_rule_set_titles_in_one_language(lang):
    from fate_royal.qt import texts

    i18n.set_language(lang)
    try:
        for name in ("house", "base"):
            rules, _db_ = _db(name)
            assert not other_language(texts.rules_title(rules), lang), texts.rules_title(rules)
    finally:
        i18n.set_language("ja")


def test_english_plurals():
    w = Words("en")
    assert w.tr("player.hand_count", count=1) == "1 card in hand"
    assert w.tr("player.hand_count", count=3) == "3 cards in hand"
    assert "1 turn " in w.tr("gameover.summary", turns=1, count=2, rules="x") + " "


def test_qt_own_strings_are_translated(qapp):
    from PySide6.QtCore import QCoreApplication

    from fate_royal.qt.app import install_qt_translations

    assert install_qt_translations("ja")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "キャンセル"
    install_qt_translations("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
