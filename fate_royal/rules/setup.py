"""Setting up a game (D1–D4): card instances, the padded deck, servants, hands, first player.

A ``setup`` mapping describes the table: ``players`` (names, and for a scenario their position),
optionally ``deck``/``discard``/``grail``, ``dice``, ``start`` and ``scenario: true``. The seed is
passed separately (it is part of the game record). Card instances get numbers (``uid``) in an order
shuffled from the seed, so that an instance number says nothing about which card it is.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from fate_royal.cards.loader import invisible_character
from fate_royal.cards.vocabulary import CARD_STATES, COIN_KINDS
from fate_royal.rules import zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.errors import SetupError
from fate_royal.rules.rng import Rng
from fate_royal.rules.state import STEPS, Decision, GameState, Player

#: Mixed into the seed for the instance-number shuffle, so that it draws nothing from the game's
#: own generator (scenarios keep their deck order and dice).
_UID_SALT = 0x5EED_CA2D_0F0F_1234


def seed_commitment(seed: int) -> str:
    """A hash of the seed shown at the start of a game: the seed revealed at its end can be checked
    against it, while nobody can work out the deck order from it before."""
    return hashlib.sha256(f"fate_royal seed {int(seed)}".encode()).hexdigest()[:16]


class _Instances:
    """The card instances of a game: every hero and class once, mystic codes and scenes by their
    ``copies`` and (D1) padded with copies of the known ones up to the deck's minimum size."""

    def __init__(self, ctx: Ctx, pad: bool) -> None:
        db = ctx.db
        self.cards: dict[int, str] = {}
        self.pool: dict[str, list[int]] = {}
        self.used: set[int] = set()
        self.heroes = [c.id for c in db.by_kind("hero")]
        self.classes = [c.id for c in db.by_kind("class")]
        deckable = db.by_kind("mystic_code") + db.by_kind("scene")
        for cid in self.heroes + self.classes:
            self.new(cid)
        for c in deckable:
            for _ in range(max(1, c.copies)):
                self.new(c.id)
        self.padded = 0
        base = [c.id for c in deckable]
        n_deck = sum(max(1, c.copies) for c in deckable)
        while pad and base and n_deck < ctx.profile.deck_min_size:
            self.new(base[self.padded % len(base)])
            n_deck += 1
            self.padded += 1
        self.db = db

    def new(self, card_id: str) -> int:
        uid = len(self.cards) + 1
        self.cards[uid] = card_id
        self.pool.setdefault(card_id, []).append(uid)
        return uid

    def take(self, card_id: str) -> int:
        """An unused instance of ``card_id`` (a new one if all are placed)."""
        if card_id not in self.db.cards:
            raise SetupError(f"unknown card {card_id!r}")
        for uid in self.pool.get(card_id, []):
            if uid not in self.used:
                self.used.add(uid)
                return uid
        uid = self.new(card_id)
        self.used.add(uid)
        return uid

    def free(self, card_ids: list[str]) -> list[int]:
        return [u for cid in card_ids for u in self.pool.get(cid, []) if u not in self.used]

    def free_deck(self) -> list[int]:
        return [u for u, cid in sorted(self.cards.items())
                if u not in self.used and self.db.cards[cid].kind in ("mystic_code", "scene")]


def _is_text(name: str) -> bool:
    """False for a string that cannot be written as UTF-8 (a lone surrogate, which a YAML or JSON
    escape or an undecodable command-line byte can produce): saves and the autosave could not hold it."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


#: The longest player name: the new-game dialog's limit (a seat's header has room for about this
#: much), and what a save or scenario may hold (a name of millions of characters froze the table).
MAX_NAME = 16


def _shown(name: str) -> str:
    """A name as a message quotes it: cut after 20 characters."""
    return repr(name if len(name) <= 20 else name[:20] + "…")


def reading(name: str) -> str:
    """How a name reads at the table: "A" and the full-width "Ａ" (or "ｱ" and "ア") read the same,
    so two players' names must differ in their readings (NFKC), not only in their characters."""
    return unicodedata.normalize("NFKC", name)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None when it can): it must be text of 1 to MAX_NAME
    characters with no space at either end and no control or invisible character (two names that
    look the same must not name two players)."""
    if not _is_text(name):
        return (f"player name {_shown(name)} is not valid text: it holds half of a UTF-16 surrogate "
                "pair (an escape such as \\ud800); type the name again")
    if not name.strip():
        return "a player name is empty"
    if len(name) > MAX_NAME:
        return f"player name {_shown(name)} is {len(name)} characters long, above the maximum {MAX_NAME}"
    if name != name.strip():
        return f"player name {name!r} starts or ends with a space"
    odd = invisible_character(name)
    if odd is not None:
        return f"player name {name!r} holds a control or invisible character (U+{ord(odd):04X})"
    return None


#: What a setup mapping may hold (``seed`` is taken out by ``Game`` before ``build``), a player's
#: and the start's (a scenario file writes the same keys).
SETUP_KEYS = ("players", "deck", "discard", "grail", "dice", "start", "scenario", "uid_order")
PLAYER_KEYS = ("name", "servant", "seat", "hand", "mana", "mana_limit", "command_spells", "coins",
               "out")
START_KEYS = ("player", "step", "turn")
SERVANT_KEYS = ("hero", "class", "state", "class_state")
SEAT_CARD_KEYS = ("card", "state")
#: Bounds on what a setup (a scenario file's or a save's) may ask for, so that no file can hang or
#: exhaust the table.
MAX_LIST = 200  # cards in a pile or hand, die results, steps' lists
MAX_NUMBER = 99  # mana, limits, command spells, coins
MAX_TURN = 10_000
UID_ORDERS = ("shuffled", "sequential")
SEAT_STATES = ("reverse", "rise", "down")  # a seat card is never in danger
MAX_SEAT = 20  # cards on one servant seat, as a scenario may give them


def shown_value(value: Any) -> str:
    """A value as a message quotes it: a list or mapping by its kind, anything else cut after 20
    characters (a number of 400 digits, a name of a million characters)."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, str):
        return _shown(value)
    try:
        text = repr(value)
    except ValueError:  # an int too long to write out (Python's limit is 4300 digits)
        return "a number of thousands of digits"
    return text if len(text) <= 20 else text[:20] + "…"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number_problem(what: str, value: Any, low: int, high: int) -> str | None:
    """Why ``value`` is not a whole number from ``low`` to ``high`` (None when it is)."""
    if not _whole(value):
        return f"{what} must be a whole number from {low} to {high}, got {shown_value(value)}"
    if value < low:
        return f"{what} {shown_value(value)} is below the minimum {low}"
    if value > high:
        return f"{what} {shown_value(value)} is above the maximum {high}"
    return None


def _card_ref_problem(what: str, value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"{what} must be a card id such as M-006, got {shown_value(value)}"
    return None


#: A setup's problem: where it is (the keys and list positions from the setup down to the value, so
#: that a scenario file can name the line) and what is wrong there, in one sentence.
Located = tuple[tuple, str]


def hint(word: Any, options: Any) -> str:
    """The option nearest to a mistyped ``word``, as ``" (did you mean 'x'?)"``; "" when none is near."""
    from difflib import get_close_matches

    near = get_close_matches(str(word), [str(o) for o in options], n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _near_or_all(word: Any, options: Any, what: str) -> str:
    """The option nearest to ``word``, else all of them (few enough to list)."""
    return hint(word, options) or f" ({what}: {', '.join(options)})"


def _unknown_keys(path: tuple, mapping: dict, allowed: tuple, where: str) -> list[Located]:
    return [(path + (k,), f"unknown key {shown_value(k)} in {where}{_near_or_all(k, allowed, 'keys')}")
            for k in mapping if k not in allowed]


def _number(path: tuple, what: str, value: Any, low: int, high: int) -> list[Located]:
    problem = _number_problem(what, value, low, high)
    return [(path, problem)] if problem else []


def _card_ref(path: tuple, what: str, value: Any) -> list[Located]:
    problem = _card_ref_problem(what, value)
    return [(path, problem)] if problem else []


def _card_list(path: tuple, what: str, value: Any) -> list[Located]:
    """A list of at most MAX_LIST card ids (None: not given)."""
    if value is None:
        return []
    if not isinstance(value, list):
        return [(path, f"{what} must be a list of card ids such as [M-006, S-001], got {shown_value(value)}")]
    if len(value) > MAX_LIST:
        return [(path, f"{what} holds {len(value)} cards, above the maximum {MAX_LIST}")]
    return [p for i, card in enumerate(value) for p in _card_ref(path + (i,), f"each card of {what}", card)]


def setup_problems(setup: Any) -> list[str]:
    """Every reason why ``setup`` (a save's) is not a setup the table can hold, as one-line messages
    naming the player and field (empty when it is well formed): wrong types, unknown keys and values,
    names, numbers out of the scenario files' bounds. Which cards exist is ``build``'s check (it
    needs the card data). A scenario file gets the same problems at their lines (``located_problems``)."""
    return [_said(setup, path, message) for path, message in located_problems(setup)]


def _said(setup: Any, path: tuple, message: str) -> str:
    """``message`` with the player or part it is about, for a setup that has no lines to name."""
    if path[:1] != ("players",) or len(path) < 2:
        return message
    spec = setup["players"][path[1]]
    name = spec.get("name") if isinstance(spec, dict) else None
    by_name = isinstance(name, str) and path[2:3] != ("name",)
    return f"player {_shown(name) if by_name else path[1] + 1}: {message}"


def located_problems(setup: Any) -> list[Located]:
    """``setup_problems`` with each problem's place in ``setup``: the keys and list positions that
    lead to the value it is about (a scenario file names that value's line)."""
    if not isinstance(setup, dict):
        return [((), f"the setup must be a mapping, got {shown_value(setup)}")]
    problems = _unknown_keys((), setup, SETUP_KEYS, "the setup")
    players = setup.get("players") or []
    names: list[str] | None = None
    if not isinstance(players, list):
        problems.append((("players",), "players must be a list of 2 to 7 players, "
                                       f"got {shown_value(players)}"))
    elif not 2 <= len(players) <= 7:
        problems.append((("players",), f"a game needs 2 to 7 players, got {len(players)}"))
    else:
        names = []
        for i, spec in enumerate(players):
            names.append(f"P{i + 1}")
            if not isinstance(spec, dict):
                problems.append((("players", i), "a player must be a mapping with a name, "
                                                 f"got {shown_value(spec)}"))
                continue
            problems += _player_problems(("players", i), spec, names)
    for zone in ("deck", "discard", "grail"):
        problems += _card_list((zone,), zone, setup.get(zone))
    dice = setup.get("dice") or []
    if not isinstance(dice, list):
        problems.append((("dice",), f"dice must be a list of die results 1..6, got {shown_value(dice)}"))
    elif len(dice) > MAX_LIST:
        problems.append((("dice",), f"dice holds {len(dice)} results, above the maximum {MAX_LIST}"))
    else:
        problems += [p for i, d in enumerate(dice) for p in _number(("dice", i), "a die result", d, 1, 6)]
    if names is not None:
        problems += _start_problems(setup.get("start"), names)
    if not isinstance(setup.get("scenario", False), bool):
        problems.append((("scenario",), "scenario must be true or false, "
                                        f"got {shown_value(setup['scenario'])}"))
    uid_order = setup.get("uid_order", "shuffled")
    if uid_order not in UID_ORDERS:  # (a list or mapping is not in the tuple either)
        problems.append((("uid_order",), f"unknown uid_order {shown_value(uid_order)} "
                                         f"(uid orders: {', '.join(UID_ORDERS)})"))
    return problems


def _player_problems(path: tuple, spec: dict, names: list[str]) -> list[Located]:
    """One player's problems; ``names`` ends with this player's default name, which becomes the
    player's own name when it is one (the names so far: two players must not read the same)."""
    problems = _unknown_keys(path, spec, PLAYER_KEYS, "a player")
    problems += _name_problems(path + ("name",), spec.get("name", names[-1]), names)
    for key in ("mana", "mana_limit", "command_spells"):
        if key in spec:
            problems += _number(path + (key,), key, spec[key], 0, MAX_NUMBER)
    mana, limit = spec.get("mana"), spec.get("mana_limit")
    if _whole(mana) and _whole(limit) and limit < mana <= MAX_NUMBER:
        problems.append((path + ("mana",), f"mana {mana} is above the mana limit {limit}"))
    if not isinstance(spec.get("out", False), bool):
        problems.append((path + ("out",), f"out must be true or false, got {shown_value(spec['out'])}"))
    coins = spec.get("coins")
    if coins is not None and not isinstance(coins, dict):
        problems.append((path + ("coins",), f"coins must be a mapping like {{assassination: 1}}, "
                                            f"got {shown_value(coins)}"))
    for kind, count in (coins.items() if isinstance(coins, dict) else ()):
        if kind not in COIN_KINDS:
            problems.append((path + ("coins", kind), f"unknown coin {shown_value(kind)} "
                                                     f"(coins: {', '.join(COIN_KINDS)})"))
        else:
            problems += _number(path + ("coins", kind), f"coins.{kind}", count, 0, MAX_NUMBER)
    problems += _servant_problems(path + ("servant",), spec.get("servant"))
    problems += _card_list(path + ("hand",), "hand", spec.get("hand"))
    problems += _seat_problems(path + ("seat",), spec.get("seat"))
    return problems


def _name_problems(path: tuple, name: Any, names: list[str]) -> list[Located]:
    if not isinstance(name, str):
        return [(path, f"name must be text, got {shown_value(name)}")]
    problem = name_problem(name)
    if problem:
        return [(path, problem)]
    for other in names[:-1]:  # "A" and the full-width "Ａ" read the same at the table
        if other == name:
            return [(path, f"two players are called {_shown(name)}")]
        if reading(other) == reading(name):
            return [(path, f"player names {other!r} and {name!r} read the same: names must differ")]
    names[-1] = name
    return []


def _servant_problems(path: tuple, servant: Any) -> list[Located]:
    if servant is None:
        return []
    if not isinstance(servant, dict):
        return [(path, f"servant must be a mapping {{hero, class, state}}, got {shown_value(servant)}")]
    problems = _unknown_keys(path, servant, SERVANT_KEYS, "a servant")
    for key in ("hero", "class"):
        if key in servant:
            problems += _card_ref(path + (key,), f"servant {key}", servant[key])
    for key in ("state", "class_state"):  # (None: not given)
        if servant.get(key) is not None and servant[key] not in CARD_STATES:
            problems.append((path + (key,), f"servant {key} must be {', '.join(CARD_STATES[:-1])} or "
                                            f"{CARD_STATES[-1]}, got {shown_value(servant[key])}"))
    return problems


def _seat_problems(path: tuple, seat: Any) -> list[Located]:
    if seat is None:
        return []
    if not isinstance(seat, list):
        return [(path, "seat must be a list of cards (M-006 or {card: M-006, state: down}), "
                       f"got {shown_value(seat)}")]
    if len(seat) > MAX_SEAT:
        return [(path, f"seat holds {len(seat)} cards, above the maximum {MAX_SEAT}")]
    problems: list[Located] = []
    for i, entry in enumerate(seat):
        if not isinstance(entry, dict):
            problems += _card_ref(path + (i,), "each seat card", entry)
            continue
        problems += _unknown_keys(path + (i,), entry, SEAT_CARD_KEYS, "a seat card")
        if "card" not in entry:
            problems.append((path + (i,), "a seat card needs card: (an id such as M-006)"))
        else:
            problems += _card_ref(path + (i, "card"), "a seat card", entry["card"])
        if entry.get("state") is not None and entry["state"] not in SEAT_STATES:  # (None: not given)
            problems.append((path + (i, "state"), f"a seat card is {', '.join(SEAT_STATES[:-1])} or "
                                                  f"{SEAT_STATES[-1]}, got {shown_value(entry['state'])}"))
    return problems


def _start_problems(start: Any, names: list[str]) -> list[Located]:
    """``start``: the first player (a name, or a seat number from 0), step and turn."""
    if start is None:
        return []
    if not isinstance(start, dict):
        return [(("start",), f"start must be a mapping {{player, step, turn}}, got {shown_value(start)}")]
    problems = _unknown_keys(("start",), start, START_KEYS, "start")
    player = start.get("player")
    if isinstance(player, str):
        if player not in names:
            problems.append((("start", "player"), f"unknown start player {shown_value(player)}"
                                                  f"{_near_or_all(player, names, 'players')}"))
    elif "player" in start:
        problems += _number(("start", "player"), "start player", player, 0, len(names) - 1)
    step = start.get("step")
    if "step" in start and not isinstance(step, str):
        problems.append((("start", "step"),
                         f"start step must be one of {', '.join(STEPS)}, got {shown_value(step)}"))
    elif "step" in start and step not in STEPS:
        problems.append((("start", "step"),
                         f"unknown start step {shown_value(step)}{_near_or_all(step, STEPS, 'steps')}"))
    if "turn" in start:
        problems += _number(("start", "turn"), "start turn", start["turn"], 1, MAX_TURN)
    return problems


def build(ctx: Ctx, setup: dict[str, Any], seed: int) -> GameState:
    """Set up the position described by ``setup`` with the game's ``seed``; SetupError when it
    cannot be played."""
    problems = setup_problems(setup)
    if problems:
        raise SetupError(problems[0])
    players_in = setup.get("players") or []
    names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(players_in)]
    rng = Rng(int(seed))
    scenario = bool(setup.get("scenario"))
    inst = _Instances(ctx, pad=not scenario or setup.get("deck") is None)
    s = GameState(players=[], cards=inst.cards, card_states={}, rng=rng.state, padded=inst.padded)
    ctx.s = s
    start_state = ctx.profile.servant_start_state
    for i, spec in enumerate(players_in):
        s.players.append(_player(ctx, i, names[i], spec, inst.take, start_state))
    for zone in ("discard", "grail", "deck"):
        for cid in setup.get(zone, []) or []:
            uid = inst.take(str(cid))
            # a hero or class in the deck would be drawn into a hand (a scenario may park them in
            # the discard pile, to leave none out of play)
            if zone == "deck" and ctx.db.cards[s.cards[uid]].kind not in ("mystic_code", "scene"):
                raise SetupError(f"{cid} cannot be in the deck")
            getattr(s, zone).append(uid)
    # everything not placed: heroes/classes → box (dealt below); deck cards → deck (or box)
    free_heroes, free_classes = inst.free(inst.heroes), inst.free(inst.classes)
    free_deck = inst.free_deck()
    if setup.get("deck") is None:
        rng.shuffle(free_deck)
        s.deck = free_deck
    else:
        s.box.extend(free_deck)
    rng.shuffle(free_heroes)
    rng.shuffle(free_classes)
    s.box.extend(free_heroes)
    s.box.extend(free_classes)
    s.rng = rng.state
    s.dice = [int(d) for d in setup.get("dice", []) or []]
    ctx.emit("GameStarted", ("B1", "D3"), players=len(names), seed_commit=seed_commitment(seed))
    if inst.padded:
        ctx.emit("DeckBuilt", ("D1",), size=len(s.deck), padded=inst.padded)
    entered = sorted(c.id for c in ctx.db.cards.values() if c.provenance_default == "entered")
    if entered:  # provenance stays honest: the log says which cards were typed in by a person
        ctx.emit("PersonalCardsUsed", ("D1",), entered_cards=entered)
    _start(ctx, setup, names, scenario, start_state)
    if setup.get("uid_order", "shuffled") == "shuffled":
        relabel(s, Rng(int(seed) ^ _UID_SALT))
    ctx.forget_cards()
    for i, p in enumerate(s.players):
        if p.hero is not None and s.card_states.get(p.hero) != "reverse":
            zones.reveal_servant(ctx, i)  # a scenario's face-up servant is known to all
    zones.note_lost_effects(ctx)  # E9.4: an effect may be lost from the start (two players)
    return s


def _player(ctx: Ctx, i: int, name: str, spec: dict, take, start_state: str) -> Player:
    """One player as the setup describes them (a scenario may give every detail)."""
    s, db, prof = ctx.s, ctx.db, ctx.profile
    p = Player(name=name, mana=prof.start_mana, mana_limit=prof.mana_limit,
               command_spells=prof.start_command_spells)
    for key in ("mana", "mana_limit", "command_spells"):
        if key in spec:
            setattr(p, key, int(spec[key]))
    if "coins" in spec:
        p.coins = {str(k): int(v) for k, v in dict(spec["coins"]).items() if int(v)}
    p.out = bool(spec.get("out", False))
    if p.out:  # a player who has dropped out holds nothing (D14)
        p.mana = int(spec.get("mana", 0))
        p.coins = {}
    servant = spec.get("servant") or {}
    if servant.get("hero") and not p.out:
        p.hero = take(str(servant["hero"]))
        if db.cards[s.cards[p.hero]].kind != "hero":
            raise SetupError(f"{servant['hero']} is not a hero card")
        s.card_states[p.hero] = servant.get("state") or start_state
    if servant.get("class") and not p.out:
        try:
            cdef = db.class_card(str(servant["class"]))
        except KeyError:
            raise SetupError(f"unknown class {servant['class']!r}") from None
        p.klass = take(cdef.id)
        s.card_states[p.klass] = servant.get("class_state") or (
            "reverse" if s.card_states.get(p.hero) == "reverse" else "rise")
    for entry in spec.get("seat", []) or []:
        entry = {"card": entry} if isinstance(entry, str) else entry
        uid = take(str(entry["card"]))
        kind = db.cards[s.cards[uid]].kind
        if kind not in ("mystic_code", "scene"):
            raise SetupError(f"{entry['card']} cannot sit on a servant seat")
        p.seat.append(uid)
        s.card_states[uid] = entry.get("state") or ("rise" if kind == "mystic_code" else "reverse")
    for cid in spec.get("hand", []) or []:
        uid = take(str(cid))
        if db.cards[s.cards[uid]].kind not in ("mystic_code", "scene"):
            raise SetupError(f"{cid} cannot be in a hand")
        p.hand.append(uid)
    return p


def _start(ctx: Ctx, setup: dict, names: list[str], scenario: bool, start_state: str) -> None:
    """D2 servants, D3 hands, D4 the first player (or the scenario's start)."""
    s, prof = ctx.s, ctx.profile
    choose = prof.servant_assignment == "choose" and not scenario
    if not choose:
        for i, p in enumerate(s.players):
            if not p.out and (p.hero is None) != (p.klass is None):
                # dealing would put a whole servant over the half given, and lose that card
                given, missing = ("hero", "class") if p.klass is None else ("class", "hero")
                raise SetupError(f"{p.name}'s servant gives a {given} but no {missing}: give both, "
                                 f"or neither to have one dealt")
            if not p.out and p.hero is None:
                deal_servant(ctx, i, start_state)
    # a player who has dropped out holds nothing and takes no turn (D14); in a position where
    # everybody has (B8: no winner), the seats stand as they are
    seated = [i for i, p in enumerate(s.players) if not p.out] or list(range(len(s.players)))
    if not scenario:
        for _ in range(prof.start_hand):
            for i in seated:
                if not s.players[i].out:
                    zones.draw(ctx, i, log=False)
    start = setup.get("start") or {}
    if "player" in start:
        tp = start["player"]
        s.turn_player = names.index(tp) if isinstance(tp, str) else int(tp)
    elif prof.first_player == "random":
        s.turn_player = seated[ctx.below(len(seated))]
    else:
        s.turn_player = seated[0]
    s.active_master = s.turn_player
    s.step = start.get("step", "rise")
    s.turn = int(start.get("turn", 1))
    ctx.emit("ActiveMasterChosen", ("D4",), player=s.turn_player)
    if choose:
        s.setup_phase = True
        next_choice_decision(ctx)
    else:
        ctx.emit("TurnStarted", ("D4", "D5"), turn=s.turn, player=s.turn_player)


def deal_servant(ctx: Ctx, i: int, state: str) -> None:
    s = ctx.s
    hero = next(u for u in s.box if ctx.card_of(u).kind == "hero")
    klass = next(u for u in s.box if ctx.card_of(u).kind == "class")
    s.box.remove(hero)
    s.box.remove(klass)
    p = s.players[i]
    p.hero, p.klass = hero, klass
    s.card_states[hero] = state
    s.card_states[klass] = "reverse" if state == "reverse" else "rise"
    ctx.emit("ServantDealt", ("D2",), player=i)


def next_choice_decision(ctx: Ctx) -> None:
    """D2 (choose): the next player without a hero or class picks one, in seat order, hidden."""
    s = ctx.s
    for i, p in enumerate(s.players):
        if p.out:
            continue
        if p.hero is None:
            s.decision = Decision("choose_hero", i,
                                  [u for u in s.box if ctx.card_of(u).kind == "hero"])
            return
        if p.klass is None:
            s.decision = Decision("choose_class", i,
                                  [u for u in s.box if ctx.card_of(u).kind == "class"])
            return
    s.setup_phase = False
    ctx.emit("TurnStarted", ("D4", "D5"), turn=s.turn, player=s.turn_player)


def relabel(s: GameState, rng: Rng) -> None:
    """Give every card instance a new number, in an order shuffled by ``rng``."""
    old = sorted(s.cards)
    new = list(old)
    rng.shuffle(new)
    m = dict(zip(old, new))
    s.cards = {m[u]: s.cards[u] for u in old}
    s.cards = dict(sorted(s.cards.items()))
    s.card_states = {m[u]: st for u, st in s.card_states.items()}
    for p in s.players:
        p.hero = None if p.hero is None else m[p.hero]
        p.klass = None if p.klass is None else m[p.klass]
        p.seat = [m[u] for u in p.seat]
        p.hand = [m[u] for u in p.hand]
    for zone in ("deck", "discard", "grail", "removed", "box"):
        setattr(s, zone, [m[u] for u in getattr(s, zone)])
    d = s.decision
    if d is not None and d.kind in ("choose_hero", "choose_class"):
        d.options = [m[u] for u in d.options]
