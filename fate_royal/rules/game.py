"""The ``Game`` facade: the only way to ask what may be done and to change the position.

``legal_actions()`` answers "what may the deciding player do now?"; ``apply(action)`` re-checks and
either changes the state or raises ``IllegalAction`` (reason code + rule id) leaving the state exactly
as it was. After setup and after every action the game runs its automatic work (``_run``) until a
player's decision is needed: a pending decision, or priority in a response window (D6).

The turn (D5) and the combat (B6, D9, D10, B7) are tables of steps and processes driven by
``_progress_step`` and ``_progress_combat``; effects are interpreted from the card data
(``fate_royal.cards.vocabulary``) by ``_run_op``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from fate_royal.cards.model import CardDB, CardDef, Effect
from fate_royal.cards.profile import RulesProfile
from fate_royal.cards.vocabulary import STAT_KEYS
from fate_royal.rules.actions import (
    Action, ChooseAttack, ChooseEncounterTarget, Choose, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.errors import GameOver, IllegalAction, SetupError
from fate_royal.rules.events import Event
from fate_royal.rules.rng import Rng
from fate_royal.rules.state import (
    STEPS, Combat, Decision, Fighter, GameState, Modifier, Player, StackItem, Window,
)

SELF_OPS = ("modify_stats", "grant_keyword")
CHECKPOINT_EVERY = 16  # undo restores the nearest checkpoint and replays at most this many actions


@dataclass(frozen=True)
class Pending:
    """Whose decision it is and what kind: ``priority`` (a response window, with ``window`` its kind)
    or a decision kind such as ``attack``, ``encounter_target``, ``discard``."""

    player: int
    kind: str
    window: str = ""
    step: str = ""
    process: str = ""


@dataclass(frozen=True)
class Outcome:
    winner: int | None  # seat, or None for "no winner"
    winner_name: str | None


@dataclass(frozen=True)
class StatLine:
    """One contribution to a fighter's effective stats, for the card inspector."""

    source: str  # card id or chip id
    label: str  # card / effect name
    stats: dict
    rule: str = ""


class Game:
    # ------------------------------------------------------------------ construction

    def __init__(self, db: CardDB, profile: RulesProfile, setup: dict[str, Any], *,
                 ask_all: bool = False) -> None:
        self.db = db
        self.profile = profile
        self.errata = bool(profile.errata)
        self.setup = setup
        self.ask_all = ask_all
        self.log: list[Event] = []
        self.history: list[Action] = []
        self._checkpoints: dict[int, tuple[dict, int]] = {}  # actions applied -> (state, log length)
        self._version = 0  # bumped on every change of the position (keys the legal-action cache)
        self._redo: list[Action] = []
        self._cache_key: Any = None
        self._cache: list[Action] | None = None
        self.record_undo = True
        self._defs: dict[int, CardDef] = {}
        self.s = self._build(setup)
        self._run()
        self._checkpoint(0)

    @classmethod
    def new(cls, db: CardDB, profile: RulesProfile, names: list[str], seed: int = 0,
            **kwargs: Any) -> "Game":
        return cls(db, profile, {"players": [{"name": n} for n in names], "seed": seed}, **kwargs)

    # ------------------------------------------------------------------ public API

    @property
    def state(self) -> GameState:
        return self.s

    @property
    def pending(self) -> Pending | None:
        s = self.s
        if s.over:
            return None
        if s.decision is not None:
            return Pending(s.decision.player, s.decision.kind, "", s.step,
                           s.combat.process if s.combat else "")
        if s.window is not None:
            return Pending(s.window.order[s.window.index], "priority", s.window.kind, s.step,
                           s.combat.process if s.combat else "")
        return None

    def outcome(self) -> Outcome | None:
        if not self.s.over:
            return None
        w = self.s.winner
        return Outcome(w, None if w is None else self.s.players[w].name)

    def legal_actions(self) -> list[Action]:
        key = (self._version, self.ask_all)
        if self._cache is not None and self._cache_key == key:
            return list(self._cache)
        actions = self._legal()
        self._cache, self._cache_key = actions, key
        return list(actions)

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action; return the events it produced. Illegal → IllegalAction, no change."""
        if self.s.over:
            raise GameOver("the game is over")
        legal = self.legal_actions()
        if action not in legal:
            reason, rule, message = self.why_illegal(action)
            raise IllegalAction(reason, rule, message)
        n = len(self.history)
        if self.record_undo:
            self._checkpoint(n)
        start = len(self.log)
        try:
            self._do(action)
            self._run()
        except Exception:
            if self.record_undo:
                self._rebuild(n)  # never leave a half-changed state behind
            raise
        self.history.append(action)
        self._redo.clear()
        self._changed()
        return self.log[start:]

    def can_undo(self) -> bool:
        return self.record_undo and bool(self.history) and 0 in self._checkpoints

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Action:
        if not self.can_undo():
            raise IllegalAction("nothing_to_undo", "", "nothing to undo")
        action = self.history[-1]
        self._rebuild(len(self.history) - 1)
        self.history.pop()
        self._redo.append(action)
        self._changed()
        return action

    def redo(self) -> list[Event]:
        if not self._redo:
            raise IllegalAction("nothing_to_redo", "", "nothing to redo")
        action = self._redo.pop()
        redo = list(self._redo)
        events = self.apply(action)
        self._redo = redo
        return events

    # --- undo by checkpoints and replay
    # A full copy of the state before every action was half of what an action cost. Instead the
    # state is copied every CHECKPOINT_EVERY actions, and undo restores the nearest checkpoint and
    # replays the actions after it: the replay is exact, since all randomness lives in the state.

    def _checkpoint(self, n: int) -> None:
        """Record the state before action ``n`` when it falls on a checkpoint; forget checkpoints of
        an undone future."""
        if self._checkpoints and max(self._checkpoints) > n:
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= n}
        if n % CHECKPOINT_EVERY == 0 and n not in self._checkpoints:
            self._checkpoints[n] = (self.s.to_dict(), len(self.log))

    def _rebuild(self, n: int) -> None:
        """Make the state and log those after the first ``n`` actions of the history."""
        base = max(k for k in self._checkpoints if k <= n)
        snapshot, log_len = self._checkpoints[base]
        self.s = GameState.from_dict(snapshot)
        del self.log[log_len:]
        for action in self.history[base:n]:
            self._do(action)
            self._run()

    def _changed(self) -> None:
        self._version += 1
        self._cache = None

    # ------------------------------------------------------------------ names and text

    def pname(self, p: int | None) -> str:
        if p is None:
            return "—"
        if not isinstance(p, int) or not 0 <= p < len(self.s.players):
            return f"#{p}"
        return self.s.players[p].name

    def card_of(self, uid: int) -> CardDef:
        card = self._defs.get(uid)
        if card is None:  # an instance never changes its card during a game: cache the lookup
            card = self._defs[uid] = self.db.cards[self.s.cards[uid]]
        return card

    def cname(self, uid: int) -> str:
        return self.card_of(uid).name

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.s.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def describe(self, action: Action, lang: str = "en") -> str:
        """A readable form of an action, in English or Japanese (logs, scenarios, demo mode)."""
        ja = lang == "ja"
        who = self.pname(action.player)
        if isinstance(action, Pass):
            return f"{who}：パス" if ja else f"{who}: pass"
        if isinstance(action, DeclareRaid):
            target = self.pname(action.target)
            return f"{who}：{target}に襲撃を宣言" if ja else f"{who}: raid {target}"
        if isinstance(action, ChooseEncounterTarget):
            target = self.pname(action.target)
            return f"{who}：遭遇戦の相手に{target}を選ぶ" if ja else f"{who}: encounter → {target}"
        if isinstance(action, ChooseAttack):
            if ja:
                return f"{who}：{'物理' if action.type == 'physical' else '魔術'}攻撃"
            return f"{who}: {action.type} attack"
        if isinstance(action, PlayCard):
            name = self.cname(action.card)
            return f"{who}：{name}を場に出す" if ja else f"{who}: play {name}"
        if isinstance(action, Discard):
            name = self.cname(action.card)
            return f"{who}：{name}を捨てる" if ja else f"{who}: discard {name}"
        if isinstance(action, UseEffect):
            eff = self.card_of(action.card).effects[action.effect - 1]
            card, targets = self.cname(action.card), self._targets_text(action)
            if ja:
                return f"{who}：{card}の{eff.name}を使用{targets}"
            return f"{who}: use {eff.name} of {card}{targets}"
        if isinstance(action, CommandSpell):
            if action.spell == "negate":
                if not 0 <= action.target < len(self.s.stack):
                    what = f"#{action.target + 1}"
                else:
                    what = self._item_name(self.s.stack[action.target])
                return f"{who}：令呪で{what}を打ち消す" if ja else \
                    f"{who}: command spell, negate {what}"
            target = self.pname(action.target)
            if ja:
                return f"{who}：令呪で{target}の特殊コイン（{action.coin}）を1つ取り除く"
            return f"{who}: command spell, remove a {action.coin} coin from {target}"
        if isinstance(action, Choose):
            option = self._option_text(action.option)
            return f"{who}：{option}を選ぶ" if ja else f"{who}: choose {option}"
        return f"{who}: {action.kind}"

    def _targets_text(self, action: UseEffect) -> str:
        if not action.targets:
            return ""
        eff = self.card_of(action.card).effects[action.effect - 1]
        kind = eff.target.kind
        parts = []
        for t in action.targets:
            if kind in ("servant", "player", "dropped_player"):
                parts.append(self.pname(t))
            elif kind == "card":
                parts.append(self.cname(t))
            elif kind == "stack_effect":
                parts.append(self._item_name(self.s.stack[t]) if t < len(self.s.stack) else str(t))
        return " → " + ", ".join(parts)

    def _item_name(self, item: StackItem) -> str:
        if item.card < 0:
            return "command spell"
        return self.card_of(item.card).effects[item.effect - 1].name

    def _option_text(self, option: Any) -> str:
        d = self.s.decision
        if d is not None and d.kind in ("rise_cards", "choose_hero", "choose_class") \
                and isinstance(option, int):
            return self.cname(option)
        return str(option)

    # ------------------------------------------------------------------ setup

    def _build(self, setup: dict[str, Any]) -> GameState:
        db, prof = self.db, self.profile
        players_in = setup.get("players") or []
        if not 2 <= len(players_in) <= 7:
            raise SetupError(f"a game needs 2 to 7 players, got {len(players_in)}")
        names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(players_in)]
        if len(set(names)) != len(names):
            raise SetupError("player names must differ")
        rng = Rng(int(setup.get("seed", 0)))
        cards: dict[int, str] = {}
        pool: dict[str, list[int]] = {}

        def new_instance(card_id: str) -> int:
            uid = len(cards) + 1
            cards[uid] = card_id
            pool.setdefault(card_id, []).append(uid)
            return uid

        heroes = [c.id for c in db.by_kind("hero")]
        classes = [c.id for c in db.by_kind("class")]
        deckable = [c for c in db.by_kind("mystic_code") + db.by_kind("scene")]
        for cid in heroes + classes:
            new_instance(cid)
        for c in deckable:
            for _ in range(max(1, c.copies)):
                new_instance(c.id)
        scenario = bool(setup.get("scenario"))
        padded = 0
        if not scenario or setup.get("deck") is None:
            base = [c.id for c in deckable]
            n_deck = sum(max(1, c.copies) for c in deckable)
            i = 0
            while base and n_deck < prof.deck_min_size:
                new_instance(base[i % len(base)])
                n_deck += 1
                padded += 1
                i += 1
        used: set[int] = set()

        def take(card_id: str) -> int:
            if card_id not in db.cards:
                raise SetupError(f"unknown card {card_id!r}")
            for uid in pool.get(card_id, []):
                if uid not in used:
                    used.add(uid)
                    return uid
            uid = new_instance(card_id)
            used.add(uid)
            return uid

        s = GameState(players=[], cards=cards, card_states={}, rng=rng.state, padded=padded)
        start_state = prof.servant_start_state
        # players
        for i, spec in enumerate(players_in):
            p = Player(name=names[i], mana=prof.start_mana, mana_limit=prof.mana_limit,
                       command_spells=prof.start_command_spells)
            for key in ("mana", "mana_limit", "command_spells"):
                if key in spec:
                    setattr(p, key, int(spec[key]))
            if "coins" in spec:
                p.coins = {str(k): int(v) for k, v in dict(spec["coins"]).items() if int(v)}
            p.out = bool(spec.get("out", False))
            servant = spec.get("servant") or {}
            if servant.get("hero") and not p.out:
                p.hero = take(str(servant["hero"]))
                if db.cards[cards[p.hero]].kind != "hero":
                    raise SetupError(f"{servant['hero']} is not a hero card")
                s.card_states[p.hero] = servant.get("state", start_state)
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
                kind = db.cards[cards[uid]].kind
                if kind not in ("mystic_code", "scene"):
                    raise SetupError(f"{entry['card']} cannot sit on a servant seat")
                p.seat.append(uid)
                s.card_states[uid] = entry.get("state", "rise" if kind == "mystic_code" else "reverse")
            for cid in spec.get("hand", []) or []:
                uid = take(str(cid))
                if db.cards[cards[uid]].kind not in ("mystic_code", "scene"):
                    raise SetupError(f"{cid} cannot be in a hand")
                p.hand.append(uid)
            s.players.append(p)
        for zone in ("discard", "grail"):
            for cid in setup.get(zone, []) or []:
                getattr(s, zone).append(take(str(cid)))
        if setup.get("deck") is not None:
            s.deck = [take(str(cid)) for cid in setup["deck"]]
        # everything not placed: heroes/classes → box (dealt below); deck cards → deck (or box)
        free_heroes = [u for cid in heroes for u in pool.get(cid, []) if u not in used]
        free_classes = [u for cid in classes for u in pool.get(cid, []) if u not in used]
        free_deck = [u for u, cid in sorted(cards.items())
                     if u not in used and db.cards[cid].kind in ("mystic_code", "scene")]
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
        self.s = s
        self._log("GameStarted", ("B1", "D3"), players=len(names), errata="on" if self.errata else "off",
                  seed=setup.get("seed", 0))
        if padded:
            self._log("DeckBuilt", ("D1",), size=len(s.deck), padded=padded)
        # servants (D2)
        choose = prof.servant_assignment == "choose" and not scenario
        for i, p in enumerate(s.players):
            if p.out or (p.hero is not None and p.klass is not None):
                continue
            if choose:
                continue
            self._deal_servant(i, start_state)
        # hands (D3)
        if not scenario:
            for _ in range(prof.start_hand):
                for i in range(len(s.players)):
                    self._draw(i, log=False)
        # start (D4)
        start = setup.get("start") or {}
        if "player" in start:
            tp = start["player"]
            s.turn_player = names.index(tp) if isinstance(tp, str) else int(tp)
        elif prof.first_player == "random":
            s.turn_player = self._rng_below(len(s.players))
        else:
            s.turn_player = 0
        s.active_master = s.turn_player
        s.step = start.get("step", "rise")
        s.turn = int(start.get("turn", 1))
        if s.step not in STEPS:
            raise SetupError(f"unknown step {s.step!r} (steps: {', '.join(STEPS)})")
        self._log("ActiveMasterChosen", ("D4",), player=self.pname(s.turn_player))
        if choose:
            s.setup_phase = True
            self._next_choice_decision()
        else:
            self._log("TurnStarted", ("D4", "D5"), turn=s.turn, player=self.pname(s.turn_player))
        return s

    def _deal_servant(self, i: int, state: str) -> None:
        s = self.s
        hero = next(u for u in s.box if self.card_of(u).kind == "hero")
        klass = next(u for u in s.box if self.card_of(u).kind == "class")
        s.box.remove(hero)
        s.box.remove(klass)
        p = s.players[i]
        p.hero, p.klass = hero, klass
        s.card_states[hero] = state
        s.card_states[klass] = "reverse" if state == "reverse" else "rise"
        self._log("ServantDealt", ("D2",), player=p.name)

    def _next_choice_decision(self) -> None:
        s = self.s
        for i, p in enumerate(s.players):
            if p.out:
                continue
            if p.hero is None:
                opts = [u for u in s.box if self.card_of(u).kind == "hero"]
                s.decision = Decision("choose_hero", i, opts)
                return
            if p.klass is None:
                opts = [u for u in s.box if self.card_of(u).kind == "class"]
                s.decision = Decision("choose_class", i, opts)
                return
        s.setup_phase = False
        self._log("TurnStarted", ("D4", "D5"), turn=s.turn, player=self.pname(s.turn_player))

    # ------------------------------------------------------------------ logging, rng

    def _log(self, code: str, rules: Iterable[str], *, cid: str = "", **args: Any) -> None:
        """Record an event; ``cid`` is the card id involved, ``effect`` (if given) its effect."""
        s = getattr(self, "s", None)
        self.log.append(Event(code, args, tuple(rules), cid, str(args.get("effect", "")),
                              s.turn if s else 0, s.step if s else ""))

    def _rng_below(self, n: int) -> int:
        r = Rng(self.s.rng)
        v = r.below(n)
        self.s.rng = r.state
        return v

    def _roll(self, p: int, rules: tuple[str, ...] = ("B1",)) -> int:
        s = self.s
        if s.dice:
            value, scripted = s.dice.pop(0), " (scripted)"
        else:
            r = Rng(s.rng)
            value, scripted = r.die(), ""
            s.rng = r.state
        self._log("DieRolled", rules, player=self.pname(p), value=value, scripted=scripted)
        return value

    def _shuffle(self, items: list) -> None:
        r = Rng(self.s.rng)
        r.shuffle(items)
        self.s.rng = r.state

    # ------------------------------------------------------------------ rule-citation helpers

    def _r(self, errata_rule: str, base_rule: str) -> str:
        return errata_rule if self.errata else base_rule

    # ------------------------------------------------------------------ card states and zones

    def servant_state(self, p: int) -> str | None:
        hero = self.s.players[p].hero
        return None if hero is None else self.s.card_states.get(hero)

    def _set_card_state(self, uid: int, new: str, rules: tuple[str, ...], owner: int) -> bool:
        """Change a card's state; E1.3 keeps a Reverse servant from going Down or Danger."""
        s = self.s
        old = s.card_states.get(uid)
        if old == new:
            return False
        is_servant = uid == s.players[owner].hero
        if is_servant and self.errata and old == "reverse" and new in ("down", "danger"):
            self._log("StateChangeIgnored", ("E1.3",), cid=s.cards[uid], player=self.pname(owner),
                      card=self.cname(uid), state=new)
            return False
        kind = self.card_of(uid).kind
        allowed = {"class": ("reverse", "rise"), "mystic_code": ("reverse", "rise", "down"),
                   "scene": ("reverse",)}.get(kind)
        if allowed is not None and new not in allowed:
            # E1.6 class cards are Reverse or Rise; E1.7 mystic codes Reverse, Rise or Down;
            # E1.8 a scene on the field is always Reverse (B3: Down/Danger are servant states)
            rule = {"class": "E1.6", "mystic_code": "E1.7", "scene": "E1.8"}[kind]
            self._log("StateChangeIgnored", (self._r(rule, "B3"),), cid=s.cards[uid],
                      player=self.pname(owner), card=self.cname(uid), state=new)
            return False
        if is_servant and self.errata:
            rules = tuple(rules) + ("E1.1",)  # one of the servant's four states
        s.card_states[uid] = new
        if is_servant and new != "reverse" and s.card_states.get(s.players[owner].klass) == "reverse" \
                and old == "reverse":
            s.card_states[s.players[owner].klass] = "rise"
        self._log("CardStateChanged", rules, cid=s.cards[uid], player=self.pname(owner),
                  card=self.cname(uid), before=old, after=new)
        return True

    def seat_capacity(self, p: int) -> int:
        """Mystic codes the seat may hold (D7; E1.7 and E1.8 add one per Reverse code / scene)."""
        s = self.s
        cap = self.profile.seat_slots
        if self.errata:
            cap += sum(1 for u in s.players[p].seat if s.card_states.get(u) == "reverse")
        return cap

    def _seat_codes(self, p: int) -> int:
        return sum(1 for u in self.s.players[p].seat if self.card_of(u).kind == "mystic_code")

    def _draw(self, p: int, log: bool = True) -> bool:
        s = self.s
        if not s.deck:
            if self.errata and (s.discard or (self.profile.grail_reshuffle and s.grail)):
                s.deck = list(s.discard)
                s.discard.clear()
                if self.profile.grail_reshuffle:
                    s.deck += s.grail
                    s.grail.clear()
                self._shuffle(s.deck)
                self._log("DeckRebuilt", ("E8", "D15"), size=len(s.deck))
            elif not self.errata and s.discard:
                self._log("DrawNothing", ("D15",), player=self.pname(p))  # E8 off: no rebuild
                return False
            else:
                self._log("DrawFailed", ("D15",), player=self.pname(p))
                return False
        uid = s.deck.pop(0)
        s.players[p].hand.append(uid)
        if log:
            self._log("CardDrawn", ("D5",), player=self.pname(p))
        return True

    def _discard_from_hand(self, p: int, uid: int, rules: tuple[str, ...]) -> None:
        s = self.s
        s.players[p].hand.remove(uid)
        s.discard.append(uid)
        self._log("CardDiscarded", rules, cid=s.cards[uid], player=self.pname(p),
                  card=self.cname(uid))

    # ------------------------------------------------------------------ mana, damage, dropping out

    def _lose_mana(self, p: int, amount: int, rules: tuple[str, ...]) -> bool:
        """Remove mana; True if the servant is destroyed (fewer coins than the damage, D11)."""
        pl = self.s.players[p]
        destroyed = pl.mana < amount
        lost = min(pl.mana, amount)
        pl.mana = max(0, pl.mana - amount)
        self._log("ManaLost", rules, player=pl.name, amount=lost, mana=pl.mana)
        return destroyed

    def _recover(self, p: int, amount: int, rules: tuple[str, ...]) -> None:
        pl = self.s.players[p]
        pl.mana += amount
        self._log("ManaRecovered", rules, player=pl.name, amount=amount, mana=pl.mana)
        if pl.mana > pl.mana_limit:
            excess = pl.mana - pl.mana_limit
            pl.mana = pl.mana_limit
            self._log("ManaExcessLost", ("E3",) if self.errata else ("D3",), player=pl.name,
                      amount=excess, limit=pl.mana_limit)

    def _damage_servant(self, p: int, amount: int, rules: tuple[str, ...]) -> None:
        """Damage ignoring defense (effects, upkeep): mana loss, destruction by D11."""
        if amount <= 0 or self.s.players[p].out:
            return
        if self._lose_mana(p, amount * self.profile.mana_per_damage, rules + ("D11",)):
            self._log("ServantDestroyed", ("D11",), player=self.pname(p))
            c = self.s.combat
            f = c.side(p) if c else None
            if f is not None:
                f.destroyed = True
            self._drop_out(p, "destroyed", ("D14",))

    def _drop_out(self, p: int, why: str, rules: tuple[str, ...], check: bool = True) -> None:
        s = self.s
        pl = s.players[p]
        if pl.out:
            return
        for uid in (pl.hero, pl.klass):
            if uid is not None:
                s.removed.append(uid)
                s.card_states.pop(uid, None)
        pl.hero = pl.klass = None
        if pl.seat:
            for uid in pl.seat:
                s.discard.append(uid)
                s.card_states.pop(uid, None)
            pl.seat.clear()
            self._log("SeatCleared", ("E7.1",) if self.errata else ("D14",), player=pl.name)
        target = s.discard if self.profile.destroyed_hand_to == "discard" else s.removed
        target.extend(pl.hand)
        pl.hand.clear()
        pl.mana = 0
        pl.coins = {}
        pl.out = True
        s.modifiers = [m for m in s.modifiers if m.player != p]
        self._log("PlayerDroppedOut", rules, player=pl.name, why=why)
        self._note_lost_effects()
        if s.active_master == p:
            if self.errata:
                s.active_master = None  # E7.2: the next player receives it when their turn comes
            else:
                s.active_master = self._next_alive(p)
        if s.decision is not None and s.decision.player == p:
            s.decision = None
            s.resolving = None
        if check:
            self._check_victory()

    def _note_lost_effects(self) -> None:
        """Log effects whose ``lost_when`` now holds (E9.4: 山門の守護 with two players left)."""
        if not self.errata:
            return
        s = self.s
        for q in s.alive():
            for uid in self._sources(q):
                card = self.card_of(uid)
                for i, e in enumerate(card.effects, 1):
                    if e.lost_when and self._cond(e.lost_when, q):
                        rules = tuple(pt.rule for pt in card.patches
                                      if "lost_when" in pt.path) or ("B11",)
                        self._log("EffectLost", rules, cid=card.id, effect=e.name,
                                  player=self.pname(q), card=card.name)

    def _next_alive(self, p: int) -> int | None:
        n = len(self.s.players)
        for k in range(1, n + 1):
            q = (p + k) % n
            if not self.s.players[q].out:
                return q
        return None

    def _check_victory(self) -> None:
        s = self.s
        if s.over:
            return
        alive = s.alive()
        if len(alive) == 1:
            s.over, s.winner = True, alive[0]
            s.window, s.decision, s.resolving = None, None, None
            self._log("GameWon", ("B8",), player=self.pname(alive[0]))
        elif not alive:
            s.over, s.winner = True, None
            s.window, s.decision, s.resolving = None, None, None
            self._log("NoWinner", ("B8",))

    # ------------------------------------------------------------------ the automatic loop

    def _run(self) -> None:
        s = self.s
        guard = 0
        while not s.over:
            guard += 1
            if guard > 100000:  # pragma: no cover - a flow bug; fail loudly rather than hang
                raise RuntimeError("rules engine made no progress")
            s = self.s
            if s.decision is not None:
                if s.players[s.decision.player].out:
                    s.decision = None
                    continue
                return
            if s.resolving is not None:
                self._continue_resolution()
                continue
            if s.window is not None:
                if self._window_step():
                    return
                continue
            if s.setup_phase:
                self._next_choice_decision()
                continue
            if s.combat is not None:
                self._progress_combat()
                continue
            self._progress_step()

    # --- windows (D6)

    def _open_window(self, kind: str) -> None:
        s = self.s
        order = []
        n = len(s.players)
        start = s.turn_player
        for k in range(n):
            q = (start + k) % n
            if not s.players[q].out:
                order.append(q)
        if order:
            s.window = Window(kind, order)

    def _window_step(self) -> bool:
        """Advance a response window. True when a player must decide (priority)."""
        s = self.s
        w = s.window
        w.order = [q for q in w.order if not s.players[q].out]
        if not w.order:
            s.window = None
            return False
        if w.index >= len(w.order):
            w.index = 0
        if w.passes >= len(w.order):
            w.passes = 0
            w.index = 0
            if s.stack:
                self._log("StackResolving", ("D6", "P1"))
                self._resolve_top()
            else:
                s.window = None
            return False
        p = w.order[w.index]
        if self.ask_all or self._priority_options(p, any_only=True):
            return True
        # P6: nothing to do but pass: the engine passes and logs it
        self._log("AutoPassed", ("P6",), player=self.pname(p))
        self._pass_priority()
        return False

    def _pass_priority(self) -> None:
        w = self.s.window
        w.passes += 1
        w.index = (w.index + 1) % len(w.order)

    def _restart_window(self) -> None:
        w = self.s.window
        if w is not None:
            w.passes = 0
            w.index = 0

    # --- steps (D5)

    def _progress_step(self) -> None:
        s = self.s
        if s.players[s.turn_player].out:
            self._next_turn()
            return
        if s.stage == "start":
            self._log("StepStarted", ("D5",), step=s.step)
            self._step_work()
            s.stage = "open"
            return
        if s.stage == "open":
            s.stage = "closing"
            # D6: a window at the start of every step (the ritual and combat steps always have one:
            # the turn player acts there); after a raid the rest of the turn still gets its windows
            if s.step == "combat" and s.raided:
                pass
            elif s.step in ("ritual", "combat") or self.profile.response_windows == "every_step":
                self._open_window("step")
            return
        # closing: the window has closed
        self._end_step()

    def _step_work(self) -> None:
        s = self.s
        tp = s.turn_player
        pl = s.players[tp]
        if s.step == "rise":
            self._rise_step(tp)
        elif s.step == "draw":
            for _ in range(self.profile.draw_per_turn):
                self._draw(tp)
        elif s.step == "encounter":
            value = self._roll(tp, ("D5",))
            faces = set(self.profile.encounter_on)
            rules = ["D5"]
            extra = self._encounter_faces(tp)
            if extra and value in extra and value not in faces:
                rules.append("E9.5")
            faces |= extra
            if value in faces and pl.hero is not None:
                s.encountered = True
                state = self.servant_state(tp)
                if state == "down":
                    rules.append(self._r("E1.4", "B3"))
                elif state == "danger":
                    rules.append(self._r("E1.5", "B3"))
                self._log("EncounterHappened", tuple(rules), player=pl.name)
                targets = [q for q in s.alive() if q != tp]
                if len(targets) == 1:
                    self._start_combat(tp, targets[0], encounter=True)
                else:
                    s.decision = Decision("encounter_target", tp, targets)
            else:
                self._log("NoEncounter", ("D5",))
        elif s.step == "end":
            before = len(s.modifiers)
            s.modifiers = [m for m in s.modifiers if m.duration == "permanent"]
            if before != len(s.modifiers):
                self._log("ModifiersExpired", ("B11",))
            excess = len(pl.hand) - self.profile.hand_limit
            if excess > 0:
                self._log("HandLimit", ("D5", "P5"), player=pl.name, limit=self.profile.hand_limit)
                s.decision = Decision("discard", tp, list(pl.hand), excess, {"why": "hand_limit"})

    def _rise_step(self, tp: int) -> None:
        s = self.s
        pl = s.players[tp]
        mine = [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]
        if self.errata:
            for uid in mine:
                st = s.card_states.get(uid)
                if st == "down":
                    self._set_card_state(uid, "rise", ("E1.9",), tp)
                elif st == "danger":
                    self._set_card_state(uid, "down", ("E1.9",), tp)
        elif self.profile.base_rise_step:
            for uid in mine:
                if s.card_states.get(uid) in ("down", "danger"):
                    self._set_card_state(uid, "rise", ("D5",), tp)
        coins = pl.coins.get("assassination", 0)
        if coins and self.profile.assassination_upkeep:
            amount = coins * self.profile.assassination_upkeep
            self._log("CoinUpkeep", ("D12",), player=pl.name, count=coins, amount=amount)
            self._damage_servant(tp, amount, ("D12",))

    def _end_step(self) -> None:
        s = self.s
        self._log("StepEnded", ("D5",), step=s.step)
        if self.errata:
            # E4.1: everyone without command spells drops out at once, then B8 is checked (two
            # last players dropping together leave no winner)
            gone = [i for i, p in enumerate(s.players) if not p.out and p.command_spells <= 0]
            for i in gone:
                self._drop_out(i, "no command spells", ("E4.1", "D14"), check=False)
            if gone:
                self._check_victory()
                if s.over:
                    return
        s.used = []
        if s.players[s.turn_player].out:
            self._next_turn()
            return
        idx = STEPS.index(s.step)
        if idx + 1 < len(STEPS):
            s.step = STEPS[idx + 1]
            s.stage = "start"
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        s = self.s
        nxt = self._next_alive(s.turn_player)
        if nxt is None:
            self._check_victory()
            return
        s.turn += 1
        s.turn_player = nxt
        s.step, s.stage = "rise", "start"
        s.encountered = s.raided = False
        s.used = []
        s.stack.clear()
        s.window = None
        if s.active_master != nxt:
            had = s.active_master
            s.active_master = nxt
            if had is None:
                self._log("ActiveMasterPassed", ("E7.2",), player=self.pname(nxt))
        self._log("TurnStarted", ("D4", "D5"), turn=s.turn, player=self.pname(nxt))

    # --- combat (B6, D9, D10, B7)

    def _start_combat(self, raider: int, target: int, encounter: bool) -> None:
        s = self.s
        s.window = None
        s.combat = Combat(Fighter(raider), Fighter(target), encounter=encounter)
        if encounter:
            self._log("EncounterTargetChosen", ("D5",), player=self.pname(raider),
                      target=self.pname(target))

    def _progress_combat(self) -> None:
        s = self.s
        c = s.combat
        if c.stage == "start":
            if self._skip_process(c.process):
                c.stage = "done"
                return
            self._log("ProcessStarted", ("B6",), process=c.process)
            self._process_work(c.process)
            c.stage = "window"
            if s.combat is not None and c.process != "retreat":
                self._open_window("process")
            return
        if c.stage == "window":
            c.stage = "done"
            self._process_close(c.process)
            return
        # done → next process
        if c.process == "retreat" or c.void:
            self._end_combat()
            return
        idx = c.order.index(c.process)
        c.process = c.order[idx + 1]
        c.stage = "start"

    def _in_fight(self, f: Fighter) -> bool:
        return not f.destroyed and not self.s.players[f.player].out and f.proxy != "#removed"

    def _skip_process(self, process: str) -> bool:
        c = self.s.combat
        if process in ("raid", "raider_damage"):
            return not (self._in_fight(c.raider) and self._in_fight(c.interceptor))
        if process in ("interception", "interceptor_damage"):
            if not self.profile.interception:
                return True
            return not (self._in_fight(c.raider) and self._in_fight(c.interceptor))
        if process in ("disclosure", "engagement"):
            return not (self._in_fight(c.raider) and self._in_fight(c.interceptor))
        return False

    def _process_work(self, process: str) -> None:
        s = self.s
        c = s.combat
        if process == "disclosure":
            for f in (c.raider, c.interceptor):
                pl = s.players[f.player]
                if pl.hero is not None and s.card_states.get(pl.hero) == "reverse":
                    s.card_states[pl.hero] = "rise"
                    if pl.klass is not None:
                        s.card_states[pl.klass] = "rise"
                    self._log("ServantRevealed", ("B6",), cid=s.cards[pl.hero], player=pl.name,
                              hero=self.cname(pl.hero),
                              klass=self.cname(pl.klass) if pl.klass else "—")
        elif process == "raid":
            s.decision = Decision("attack", c.raider.player, ["physical", "magic"],
                                  context={"role": "raider"})
        elif process == "interception":
            opts = ["physical", "magic"]
            forced = c.interceptor.attack  # set when a conditional 先制 decided the order (P7)
            if forced:
                opts = [forced]
            s.decision = Decision("attack", c.interceptor.player, opts,
                                  context={"role": "interceptor"})
        elif process == "retreat":
            self._retreat()

    def _process_close(self, process: str) -> None:
        s = self.s
        c = s.combat
        if process == "engagement":
            c.established = True
            self._log("EngagementEstablished", ("B6", "E6.1") if (
                c.raider.proxy or c.interceptor.proxy) else ("B6",))
            self._note_proxy_suppression()
            self._decide_order()
        elif process == "raid":
            f = c.raider
            now = self.fighter_stats(f.player)
            if f.attack and now != f.attack_stats:
                s.decision = Decision("attack", f.player, ["physical", "magic"],
                                      context={"role": "raider", "switch": True})
        elif process == "raider_damage":
            self._strike(c.raider, c.interceptor)
        elif process == "interceptor_damage":
            self._strike(c.interceptor, c.raider)

    def _decide_order(self) -> None:
        """D10: if exactly one side has 先制 that side strikes first (here: only the interceptor
        can change the default order, since the raider strikes first anyway)."""
        c = self.s.combat
        if self.profile.first_strike != "exclusive":
            return
        r_fs = self._first_strike_types(c.raider.player)
        i_fs = self._first_strike_types(c.interceptor.player)
        if i_fs and not r_fs and self.profile.interception:
            c.order = ["disclosure", "engagement", "interception", "interceptor_damage", "raid",
                       "raider_damage", "retreat"]
            rules = ("D10",)
            if i_fs != {"physical", "magic"}:
                c.interceptor.attack = sorted(i_fs)[0]  # P7: must attack the way that gives 先制
                rules = ("D10", "P7")
            self._log("FirstStrike", rules, player=self.pname(c.interceptor.player))
        elif r_fs and not i_fs:
            self._log("FirstStrike", ("D10", "P7") if r_fs != {"physical", "magic"} else ("D10",),
                      player=self.pname(c.raider.player))

    def _first_strike_types(self, p: int) -> set[str]:
        """Attack types with which fighter ``p`` would have 先制."""
        return {t for t in ("physical", "magic") if "先制" in self.fighter_keywords(p, t)}

    def _strike(self, att: Fighter, dfn: Fighter) -> None:
        s = self.s
        if not (self._in_fight(att) and self._in_fight(dfn)):
            return
        t = att.attack or "physical"
        a_stats = self.fighter_stats(att.player)
        d_stats = self.fighter_stats(dfn.player)
        a_key, d_key = ("pa", "pd") if t == "physical" else ("ma", "md")
        attack, defense = a_stats[a_key], d_stats[d_key]
        rules = ["B6", "D11"] if att is s.combat.raider else ["D9", "D11"]
        for f in (att, dfn):  # the rules that made the two stat lines (B2, D8, E6.5 / P2, E2.3…)
            for line in self.stat_breakdown(f.player, t if f is att else None):
                if line.rule and line.rule not in rules:
                    rules.append(line.rule)
        a_name = self._fighter_name(att)
        d_name = self._fighter_name(dfn)
        if attack < defense or attack - defense == 0:
            self._log("NoDamage", tuple(rules), attacker=a_name, attack=attack, defense=defense)
            return
        damage = attack - defense
        att.dealt += damage
        dfn.took += damage
        self._log("DamageDealt", tuple(rules), attacker=a_name, defender=d_name, damage=damage,
                  attack=attack, defense=defense)
        if dfn.proxy:
            self._log("ProxyRemoved", ("D11",), player=self.pname(dfn.player),
                      chip=self._chip_name(dfn.proxy))
            dfn.proxy = "#removed"
            return
        if self._lose_mana(dfn.player, damage * self.profile.mana_per_damage, ("D11",)):
            dfn.destroyed = True
            self._log("ServantDestroyed", ("D11",), player=self.pname(dfn.player))
            if not self._in_fight(att) or att.destroyed:
                pass
            self._drop_out(dfn.player, "destroyed", ("D14",))

    def _fighter_name(self, f: Fighter) -> str:
        if f.proxy and f.proxy != "#removed":
            return f"{self.pname(f.player)} ({self._chip_name(f.proxy)})"
        return self.pname(f.player)

    def _chip_name(self, chip_id: str) -> str:
        chip = self.db.chips.get(chip_id)
        return chip.name if chip else chip_id

    def _retreat(self) -> None:
        s = self.s
        c = s.combat
        if c.void:
            return
        for f in (c.raider, c.interceptor):
            pl = s.players[f.player]
            if f.took > 0 and not f.proxy and not f.destroyed and not pl.out:
                if s.card_states.get(pl.hero) != "down":
                    s.card_states[pl.hero] = "down"
                    self._log("ServantDowned", ("B7",), cid=s.cards[pl.hero], player=pl.name)
        for a, b in ((c.raider, c.interceptor), (c.interceptor, c.raider)):
            if a.dealt > 0 and a.took == 0 and not s.players[a.player].out:
                victim = s.players[b.player]
                if victim.hand:
                    uid = victim.hand.pop(self._rng_below(len(victim.hand)))
                    s.players[a.player].hand.append(uid)
                    self._log("CardStolen", ("B7",), player=self.pname(a.player), victim=victim.name)

    def _end_combat(self) -> None:
        s = self.s
        c = s.combat
        s.modifiers = [m for m in s.modifiers if m.duration != "combat"]
        self._log("CombatEnded", ("E6.2",) if c.void else ("B7", "D11") if (
            c.raider.proxy or c.interceptor.proxy) else ("B7",))
        s.combat = None
        s.window = None
        if c.raider.destroyed and c.interceptor.destroyed:
            self._check_victory()

    def _note_proxy_suppression(self) -> None:
        """E6.3: log which hero/class effects and skills do not apply to a fighting proxy."""
        if not self.errata:
            return
        c = self.s.combat
        for f in (c.raider, c.interceptor):
            if not f.proxy or f.proxy == "#removed":
                continue
            pl = self.s.players[f.player]
            for uid in (pl.hero, pl.klass):
                if uid is None:
                    continue
                card = self.card_of(uid)
                for e in card.effects:
                    if self._self_targeting(e) and not self._support_exempt(card, e):
                        self._log("ProxySuppressed", ("E6.3",), cid=card.id, effect=e.name,
                                  player=pl.name, card=card.name)
                if card.skills:
                    self._log("ProxySuppressed", ("E6.3",), cid=card.id, player=pl.name,
                              card=card.name, effect="/".join(card.skills))
            for uid in pl.seat:  # E6.4 (B12): mystic code effects and skills still apply
                card = self.card_of(uid)
                if card.kind != "mystic_code" or self.s.card_states.get(uid) == "reverse":
                    continue
                kept = [e.name for e in card.effects
                        if e.is_constant and self._constant_active(f.player, uid, e)]
                kept += list(card.skills)
                if kept:
                    self._log("ProxyKept", ("E6.4", "B12") if card.skills else ("E6.4",),
                              cid=card.id, player=pl.name, card=card.name, effect="/".join(kept))

    # ------------------------------------------------------------------ stats and keywords

    def _self_targeting(self, e: Effect) -> bool:
        return bool(e.ops) and all(
            o.op in SELF_OPS and o.params.get("subject", "combatant") in ("self", "combatant")
            for o in e.ops)

    def _support_exempt(self, card: CardDef, e: Effect) -> bool:
        """E5: a 支援 effect of a card that also has 代理戦闘 may boost that card's own proxy."""
        return self.errata and "支援" in e.keywords and any("代理戦闘" in x.keywords for x in card.effects)

    def _proxy_of(self, p: int) -> str:
        c = self.s.combat
        f = c.side(p) if c else None
        if f and f.proxy and f.proxy != "#removed":
            return f.proxy
        return ""

    def _applies_to_fighter(self, p: int, source_uid: int, e: Effect) -> bool:
        """Whether a stat/keyword effect of ``source_uid`` applies to p's fighter now (E6.3/E6.4)."""
        if not self.errata or not self._proxy_of(p):
            return True
        card = self.card_of(source_uid)
        if card.kind not in ("hero", "class"):
            return True  # E6.4
        if self._support_exempt(card, e):
            c = self.s.combat
            f = c.side(p)
            return f.proxy_source == source_uid  # E5: only that same card's proxy
        return False

    def _constant_active(self, p: int, uid: int, e: Effect) -> bool:
        s = self.s
        pl = s.players[p]
        card = self.card_of(uid)
        st = s.card_states.get(uid)
        if e.lost_when and self.errata and self._cond(e.lost_when, p):
            return False
        if card.kind == "hero":
            return st != "reverse"
        if card.kind == "class":
            if st == "reverse" or s.card_states.get(pl.hero) == "reverse":
                return False
            return not self._unqualified_blocks(p)
        if card.kind == "mystic_code":
            return st != "reverse"
        return False

    def _unqualified_blocks(self, p: int) -> bool:
        pl = self.s.players[p]
        if pl.hero is None or pl.klass is None or self.profile.unqualified_class != "effects_unusable":
            return False
        return self.card_of(pl.klass).class_name not in self.card_of(pl.hero).classes

    def _sources(self, p: int) -> list[int]:
        pl = self.s.players[p]
        return [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]

    def fighter_stats(self, p: int, attack_type: str | None = None) -> dict[str, int]:
        return {k: v for k, v in self._stat_lines_total(p, attack_type).items()}

    def _stat_lines_total(self, p: int, attack_type: str | None) -> dict[str, int]:
        total = dict.fromkeys(STAT_KEYS, 0)
        for line in self.stat_breakdown(p, attack_type):
            for k, v in line.stats.items():
                total[k] += v
        return total

    def stat_breakdown(self, p: int, attack_type: str | None = None) -> list[StatLine]:
        """Every contribution to p's fighter's stats: base, constants, lasting effects."""
        s = self.s
        pl = s.players[p]
        lines: list[StatLine] = []
        if pl.out or pl.hero is None:
            return lines
        proxy = self._proxy_of(p)
        if proxy:
            chip = self.db.chips.get(proxy)
            if chip:
                lines.append(StatLine(chip.id, chip.name, chip.stats.as_dict(),
                                      "E6.5" if self.errata else "P2"))
        else:
            hero = self.card_of(pl.hero)
            lines.append(StatLine(hero.id, hero.name, hero.stats.as_dict(), "B2"))
            if pl.klass is not None:
                klass = self.card_of(pl.klass)
                kst = klass.stats.as_dict()
                rule = "B2"
                if self.profile.unqualified_class == "stat_penalty" and \
                        klass.class_name not in hero.classes:
                    pen = self.profile.unqualified_stat_penalty
                    kst = {k: v - pen for k, v in kst.items()}
                    rule = "D8"
                lines.append(StatLine(klass.id, klass.name, kst, rule))
        seen: set[tuple[str, int]] = set()
        for uid in self._sources(p):
            card = self.card_of(uid)
            for e in card.effects:
                if not e.is_constant or not self._constant_active(p, uid, e):
                    continue
                if not self._applies_to_fighter(p, uid, e):
                    continue
                for k, o in enumerate(e.ops):
                    if o.op != "modify_stats" or o.params.get("subject", "combatant") not in (
                            "self", "combatant"):
                        continue
                    if o.condition and not self._cond(o.condition, p, attack_type):
                        continue
                    if (e.name, k) in seen:
                        continue
                    seen.add((e.name, k))
                    lines.append(StatLine(card.id, f"{card.name}: {e.name}", _op_stats(o.params),
                                          "E2.3" if self.errata else "B11"))
        for m in s.modifiers:
            if m.player != p or not m.stats:
                continue
            if proxy and m.source_kind in ("hero", "class") and m.source in s.cards:
                src = self.card_of(m.source)
                if not self._applies_to_fighter(p, m.source, src.effects[m.effect - 1]):
                    continue
            if m.condition and not self._cond(m.condition, p, attack_type):
                continue
            lines.append(StatLine(s.cards.get(m.source, ""), m.name, dict(m.stats), "B11"))
        return lines

    def fighter_keywords(self, p: int, attack_type: str | None = None,
                         base_only: bool = False) -> set[str]:
        s = self.s
        pl = s.players[p]
        if pl.out or pl.hero is None:
            return set()
        kws: set[str] = set()
        proxy = self._proxy_of(p)
        suppress = self.errata and bool(proxy)
        if proxy:
            chip = self.db.chips.get(proxy)
            if chip:
                kws.update(chip.skills)
        hero_uid, klass_uid = pl.hero, pl.klass
        if not suppress:
            if s.card_states.get(hero_uid) != "reverse":
                kws.update(self.card_of(hero_uid).skills)
                if klass_uid is not None and s.card_states.get(klass_uid) != "reverse" \
                        and not self._unqualified_blocks(p):
                    kws.update(self.card_of(klass_uid).skills)
        for uid in pl.seat:
            card = self.card_of(uid)
            if card.kind == "mystic_code" and s.card_states.get(uid) != "reverse":
                kws.update(card.skills)  # B12
        if base_only:
            return kws
        for uid in self._sources(p):
            card = self.card_of(uid)
            for e in card.effects:
                if not e.is_constant or not self._constant_active(p, uid, e):
                    continue
                if not self._applies_to_fighter(p, uid, e):
                    continue
                for o in e.ops:
                    if o.op == "grant_keyword" and o.params.get("subject", "combatant") in (
                            "self", "combatant"):
                        if o.condition and not self._cond(o.condition, p, attack_type):
                            continue
                        kws.add(str(o.params.get("keyword")))
        for m in s.modifiers:
            if m.player == p and m.keyword:
                if suppress and m.source_kind in ("hero", "class") and not (
                        m.support and self._applies_to_fighter(p, m.source,
                                                                self.card_of(m.source).effects[m.effect - 1])):
                    continue
                if m.condition and not self._cond(m.condition, p, attack_type):
                    continue
                kws.add(m.keyword)
        return kws

    def _cond(self, cond: dict, p: int, attack_type: str | None = None,
              target: Any = None) -> bool:
        s = self.s
        c = s.combat
        for key, value in cond.items():
            if key == "opponent_has_keyword":
                if c is None or c.side(p) is None:
                    return False
                other = c.other(p).player
                if not any(k == value or k.startswith(str(value))
                           for k in self.fighter_keywords(other, base_only=True)):
                    return False
            elif key == "target_has_keyword":
                if target is None or not any(
                        k.startswith(str(value)) for k in self.fighter_keywords(target, base_only=True)):
                    return False
            elif key == "attack_type":
                f = c.side(p) if c else None
                t = attack_type or (f.attack if f else "")
                if t != value:
                    return False
            elif key == "role":
                if c is None:
                    return False
                if (value == "raider") != (c.raider.player == p) or c.side(p) is None:
                    return False
            elif key == "in_combat":
                if (c is not None and c.side(p) is not None) != bool(value):
                    return False
            elif key == "players_at_most":
                if len(s.alive()) > int(value):
                    return False
            elif key == "servant_state":
                if self.servant_state(p) != value:
                    return False
            elif key == "not":
                if self._cond(value, p, attack_type, target):
                    return False
        return True

    def _encounter_faces(self, p: int) -> set[int]:
        faces: set[int] = set()
        if not self.errata:
            return faces
        for uid in self._sources(p):
            for e in self.card_of(uid).effects:
                if e.is_constant and self._constant_active(p, uid, e):
                    for o in e.ops:
                        if o.op == "encounter_faces":
                            faces.update(int(x) for x in o.params.get("faces", []))
        return faces

    # ------------------------------------------------------------------ effect usability

    def effect_block(self, p: int, uid: int, index: int) -> tuple[str, str] | None:
        """None if p may use effect ``index`` of card ``uid`` now (targets aside), else
        (reason code, rule id)."""
        s = self.s
        pl = s.players[p]
        if pl.out:
            return ("out", "D14")
        card = self.card_of(uid)
        if not 1 <= index <= len(card.effects):
            return ("no_such_effect", "")
        e = card.effects[index - 1]
        where = ("hero" if uid == pl.hero else "class" if uid == pl.klass else
                 "seat" if uid in pl.seat else "hand" if uid in pl.hand else "")
        if not where:
            return ("not_your_card", "")
        if e.is_constant:
            return ("constant", "B5")
        if e.lost_when and self.errata and self._cond(e.lost_when, p):
            return ("effect_lost", "E9.4")
        sst = self.servant_state(p)
        st = s.card_states.get(uid)
        if where == "hand":
            if card.kind != "scene":
                return ("play_first", "B9")
        elif where == "hero":
            if sst == "reverse":
                return ("hero_reverse", self._r("E1.2", "B3"))
            if sst == "danger":
                return ("danger_constant_only", self._r("E1.5", "B3"))
        elif where == "class":
            if st == "reverse" or sst == "reverse":
                return ("class_reverse", self._r("E1.6", "B3"))
            if sst == "danger":
                return ("danger_constant_only", self._r("E1.5", "B3"))
            if self._unqualified_blocks(p):
                return ("unqualified_class", "D8")
        else:  # seat
            if card.kind == "scene" or st == "reverse":
                return ("card_reverse", self._r("E1.8" if card.kind == "scene" else "E1.7", "B3"))
            if st == "down":
                return ("card_down", "P3")
            if sst == "down" and not (self.errata and e.usable_while_down):
                return ("servant_down_codes", self._r("E1.4", "B3"))
            if sst == "danger":
                return ("danger_constant_only", self._r("E1.5", "B3"))
        # timing window
        block = self._window_block(p, e)
        if block:
            return block
        if [uid, index] in s.used:
            return ("once_per_step", self._r("E2.2", "B11"))
        # costs
        cost = e.cost
        if cost.tap and st != "rise" and where != "hand":
            return ("tap_needs_rise", "P3")
        hand_n = len(pl.hand) - (1 if where == "hand" else 0)
        if cost.discard and hand_n < cost.discard:
            return ("cost_discard", "B4")
        if cost.mana and pl.mana < cost.mana:
            return ("cost_mana", "B4")
        # proxy suppression
        if self.errata and self._proxy_of(p) and card.kind in ("hero", "class") and \
                self._self_targeting(e) and not self._support_exempt(card, e):
            return ("proxy_suppressed", "E6.3")
        if e.condition and not self._cond(e.condition, p):
            return ("condition", "")
        for o in e.ops:
            if o.op == "proxy":
                c = s.combat
                f = c.side(p) if c else None
                if f is None or c.process != "engagement":
                    return ("proxy_engagement_only", self._r("E6.1", "B6"))
                if f.proxy:
                    return ("proxy_already", "E6.1")
        return None

    def _window_block(self, p: int, e: Effect) -> tuple[str, str] | None:
        s = self.s
        c = s.combat
        w = e.window
        if w == "any":
            return None
        if w == "ritual":
            if s.step != "ritual" or c is not None:
                return ("window_ritual", "B5")
            if self.errata and p != s.turn_player:
                return ("ritual_own_turn", "E2.1")
            return None
        if c is None:
            return ("window_combat", "B5")
        if w == "damage":
            return None if c.process in ("raider_damage", "interceptor_damage") else (
                "window_damage", "B5")
        if w == "engagement":
            return None if c.process == "engagement" else ("window_engagement", "E6.1")
        if w == "raid":
            return None if c.process == "raid" else ("window_raid", "B6")
        return None  # combat

    def effect_targets(self, p: int, uid: int, index: int) -> list[tuple]:
        """Every legal ``targets`` tuple for an effect (``[()]`` when it takes none)."""
        s = self.s
        e = self.card_of(uid).effects[index - 1]
        t = e.target
        kind, side = t.kind, t.side
        if kind == "none":
            return [()]
        alive = s.alive()
        c = s.combat

        def side_ok(q: int) -> bool:
            if side == "opponent":
                return q != p
            if side == "self":
                return q == p
            if side == "combat_opponent":
                return c is not None and c.side(p) is not None and c.other(p).player == q
            return True

        if kind in ("servant", "player"):
            return [(q,) for q in alive if side_ok(q)]
        if kind == "dropped_player":
            return [(q,) for q, pl in enumerate(s.players) if pl.out]
        if kind == "card":
            kinds = t.card_kinds or ("mystic_code",)
            out = []
            for q in alive:
                if not side_ok(q):
                    continue
                for u in s.players[q].seat:
                    if self.card_of(u).kind in kinds:
                        out.append((u,))
            return out
        if kind == "stack_effect":
            out = []
            for i, item in enumerate(s.stack):
                if item.negated or item.card < 0:
                    continue
                if t.card_kinds and self.card_of(item.card).kind not in t.card_kinds:
                    continue
                if side == "opponent" and item.player == p:
                    continue
                out.append((i,))
            return out
        return []

    # ------------------------------------------------------------------ legal actions

    def _priority_options(self, p: int, any_only: bool = False) -> list[Action]:
        """Everything but passing that ``p`` may do with priority now. With ``any_only`` it stops at
        the first option found (enough to decide whether to auto-pass, P6) and checks the cheap
        kinds first."""
        s = self.s
        pl = s.players[p]
        acts: list[Action] = []
        # command spells (D13, E4.2)
        if pl.command_spells > 0:
            if self.profile.command_spell_negate:
                for i, item in enumerate(s.stack):
                    if item.negated:
                        continue
                    if self.errata and item.places_coins:
                        continue
                    acts.append(CommandSpell(p, "negate", i))
            if self.errata and self.profile.command_spell_remove_coin:
                for q, other in enumerate(s.players):
                    if other.coins:
                        for coin, n in sorted(other.coins.items()):
                            if n > 0:
                                acts.append(CommandSpell(p, "remove_coin", q, coin))
            if any_only and acts:
                return acts
        # main actions of the turn player, with an empty stack, in the step window
        w = s.window
        main: list[Action] = []
        if p == s.turn_player and not s.stack and w is not None and w.kind == "step" and s.combat is None:
            if s.step == "ritual":
                free = self.seat_capacity(p) - self._seat_codes(p)
                for uid in pl.hand:
                    kind = self.card_of(uid).kind
                    if kind == "mystic_code" and free > 0:
                        main.append(PlayCard(p, uid))
                    elif kind == "scene" and self.errata:
                        main.append(PlayCard(p, uid))
            elif s.step == "combat" and not s.encountered and not s.raided:
                if self._may_declare_raid(p) is None:
                    for q in s.alive():
                        if q != p:
                            main.append(DeclareRaid(p, q))
        if any_only and main:
            return main
        # effects
        effects: list[Action] = []
        for uid in self._sources(p) + [u for u in pl.hand if self.card_of(u).kind == "scene"]:
            card = self.card_of(uid)
            for i, e in enumerate(card.effects, 1):
                if e.is_constant:
                    continue
                if self.effect_block(p, uid, i) is None:
                    for tg in self.effect_targets(p, uid, i):
                        effects.append(UseEffect(p, uid, i, tg))
                        if any_only:
                            return effects
        return main + effects + acts

    def _may_declare_raid(self, p: int) -> tuple[str, str] | None:
        s = self.s
        st = self.servant_state(p)
        if st is None:
            return ("no_servant", "D14")
        if st == "down":
            return ("servant_down", self._r("E1.4", "B3"))
        if st == "danger":
            return ("servant_danger", self._r("E1.5", "B3"))
        if st == "reverse" and not self.profile.reverse_may_raid:
            return ("servant_reverse", "D2")
        if s.encountered:
            return ("encounter_this_turn", "D5")
        if s.raided:
            return ("one_raid", "D5")
        return None

    def _legal(self) -> list[Action]:
        s = self.s
        if s.over:
            return []
        d = s.decision
        if d is not None:
            p = d.player
            if d.kind == "attack":
                return [ChooseAttack(p, t) for t in d.options]
            if d.kind == "encounter_target":
                return [ChooseEncounterTarget(p, q) for q in d.options]
            if d.kind == "discard":
                return [Discard(p, u) for u in d.options]
            return [Choose(p, o) for o in d.options]
        if s.window is not None:
            p = s.window.order[s.window.index]
            return [Pass(p)] + self._priority_options(p)
        return []

    def why_illegal(self, action: Action) -> tuple[str, str, str]:
        """(reason, rule, message) for an action that is not legal now."""
        s = self.s
        pend = self.pending
        if pend is None:
            return ("no_decision", "", "no decision is pending")
        if action.player != pend.player:
            return ("not_your_turn", "D6",
                    f"it is {self.pname(pend.player)}'s decision, not {self.pname(action.player)}'s")
        if isinstance(action, DeclareRaid):
            if s.step != "combat":
                return ("raid_combat_step", "D5", "a raid is declared in the combat step")
            block = self._may_declare_raid(action.player)
            if block:
                return (*block, f"cannot declare a raid ({block[0]})")
            if action.target == action.player or not 0 <= action.target < len(s.players) \
                    or s.players[action.target].out:
                return ("bad_target", "B6", "raid another player who is still in the game")
        if isinstance(action, UseEffect):
            if action.card not in s.cards:
                return ("no_such_card", "", "no such card")
            block = self.effect_block(action.player, action.card, action.effect)
            if block:
                return (*block, f"{self.cname(action.card)} cannot be used now ({block[0]})")
            return ("bad_target", "", "that target is not allowed")
        if isinstance(action, PlayCard):
            if s.step != "ritual":
                return ("play_ritual_step", "D5", "mystic codes are put on the seat in the ritual step")
            if action.card in s.players[action.player].hand and \
                    self.card_of(action.card).kind == "mystic_code":
                return ("seat_full", "D7", "the servant seat is full")
            if action.card in s.cards and self.card_of(action.card).kind == "scene" and not self.errata:
                return ("scene_on_field", "E1.8", "scenes are placed on the field only with the errata")
        if isinstance(action, CommandSpell):
            pl = s.players[action.player]
            if pl.command_spells <= 0:
                return ("no_command_spells", "D13", "no command spells left")
            if action.spell == "negate" and 0 <= action.target < len(s.stack) and \
                    s.stack[action.target].places_coins and self.errata:
                return ("spell_vs_coins", "E4.2",
                        "a command spell cannot negate an effect that places special coins")
            if action.spell == "remove_coin" and not self.errata:
                return ("remove_coin_errata", "E4.2", "removing a special coin is an errata rule")
        return ("not_allowed_now", "", "that action is not allowed now")

    # ------------------------------------------------------------------ doing actions

    def _do(self, a: Action) -> None:
        s = self.s
        p = a.player
        if isinstance(a, Pass):
            self._log("Passed", ("D6",), player=self.pname(p))
            self._pass_priority()
        elif isinstance(a, DeclareRaid):
            s.raided = True
            rules = ("B6", "D5", "D2") if self.servant_state(p) == "reverse" else ("B6", "D5")
            self._log("RaidDeclared", rules, player=self.pname(p), target=self.pname(a.target))
            self._start_combat(p, a.target, encounter=False)
        elif isinstance(a, ChooseEncounterTarget):
            s.decision = None
            self._start_combat(p, a.target, encounter=True)
        elif isinstance(a, ChooseAttack):
            d = s.decision
            s.decision = None
            f = s.combat.side(p)
            switch = d.context.get("switch")
            f.attack = a.type
            f.attack_stats = self.fighter_stats(p)
            self._log("AttackSwitched" if switch and a.type != (d.context.get("was") or a.type)
                      else "AttackChosen", ("B6",) if d.context.get("role") == "raider" else ("D9",),
                      player=self.pname(p), type=a.type)
        elif isinstance(a, PlayCard):
            self._play(p, a.card)
        elif isinstance(a, Discard):
            self._answer_discard(p, a.card)
        elif isinstance(a, Choose):
            self._answer_choose(p, a.option)
        elif isinstance(a, UseEffect):
            self._use(p, a.card, a.effect, list(a.targets))
        elif isinstance(a, CommandSpell):
            self._command_spell(p, a)

    def _play(self, p: int, uid: int) -> None:
        s = self.s
        pl = s.players[p]
        pl.hand.remove(uid)
        pl.seat.append(uid)
        kind = self.card_of(uid).kind
        state = "rise" if kind == "mystic_code" else "reverse"
        s.card_states[uid] = state
        self._log("CardPlayed", ("D5", "D7") if kind == "mystic_code" else ("E1.8", "D7"),
                  cid=s.cards[uid], player=pl.name, card=self.cname(uid), state=state)
        self._restart_window()

    def _answer_discard(self, p: int, uid: int) -> None:
        s = self.s
        d = s.decision
        why = d.context.get("why")
        rules = {"hand_limit": ("D5", "P5"), "cost": ("B4", "P5"), "effect": ("B11",)}.get(
            why, ("B4",))
        self._discard_from_hand(p, uid, rules)
        d.count -= 1
        d.options = [u for u in d.options if u != uid and u in s.players[p].hand]
        if d.count > 0 and d.options:
            return
        s.decision = None
        if why == "cost":
            self._push(p, d.context["card"], d.context["effect"], d.context["targets"],
                       d.context.get("die_ok", True))

    def _answer_choose(self, p: int, option: Any) -> None:
        s = self.s
        d = s.decision
        if d.kind in ("choose_hero", "choose_class"):
            s.box.remove(option)
            pl = s.players[p]
            state = self.profile.servant_start_state
            if d.kind == "choose_hero":
                pl.hero = option
                s.card_states[option] = state
            else:
                pl.klass = option
                s.card_states[option] = "reverse" if state == "reverse" else "rise"
                self._log("ServantChosen", ("D2",), player=pl.name)
            s.decision = None
            return
        if d.kind == "rise_cards":
            self._set_card_state(option, "rise", ("B3",), p)
            d.count -= 1
            d.options = [u for u in d.options if u != option]
            if d.count <= 0 or not d.options:
                s.decision = None
            return
        s.decision = None  # pragma: no cover - no other choice kinds yet

    def _command_spell(self, p: int, a: CommandSpell) -> None:
        s = self.s
        pl = s.players[p]
        pl.command_spells -= 1
        if a.spell == "negate":
            item = s.stack[a.target]
            item.negated = True
            self._log("CommandSpellUsed", ("D13",), player=pl.name, left=pl.command_spells,
                      what=f"negate {self._item_name(item)}")
        else:
            other = s.players[a.target]
            other.coins[a.coin] = other.coins.get(a.coin, 0) - 1
            if other.coins[a.coin] <= 0:
                del other.coins[a.coin]
            self._log("CommandSpellUsed", ("D13", "E4.2"), player=pl.name, left=pl.command_spells,
                      what=f"remove a {a.coin} coin from {other.name}")
        if self.errata and pl.command_spells == 0:
            self._log("CommandSpellUsed", ("E4.1",), player=pl.name, left=0,
                      what="no command spells left: drops out when this step ends")
        self._restart_window()

    def _use(self, p: int, uid: int, index: int, targets: list) -> None:
        s = self.s
        pl = s.players[p]
        card = self.card_of(uid)
        e = card.effects[index - 1]
        rules = ["B5", self._r("E2.2", "B11")]
        if any(u == uid for u, _ in s.used):
            rules.append("E2.4" if self.errata else "B11")
        if e.window == "ritual" and self.errata:
            rules.append("E2.1")
        if e.usable_while_down and self.errata and self.servant_state(p) == "down":
            rules.append("E9.6")
        for pt in card.patches:
            if pt.path.startswith(f"effects.{index}"):
                rules.append(pt.rule)
        if card.kind == "scene":
            rules.append("B9")
        c = s.combat
        if p != s.turn_player or (c is not None and c.side(p) is None):
            rules.append(self._r("E2.1", "B11"))  # used on another player's turn / in their combat
        if "代理戦闘" in e.keywords:
            rules.append(self._r("E6.1", "B6"))
        if self.errata and self._proxy_of(p) and card.kind in ("hero", "class") \
                and not self._self_targeting(e):
            rules.append("E6.4")  # not aimed at the servant itself: usable while a proxy fights
        if self._support_exempt(card, e) and self._proxy_of(p):
            rules.append("E5")
        self._log("EffectUsed", tuple(dict.fromkeys(rules)), cid=card.id, effect=e.name,
                  player=pl.name, card=card.name, targets=self._targets_text(
                      UseEffect(p, uid, index, tuple(targets))))
        s.used.append([uid, index])
        if card.kind == "scene" and uid in pl.hand:
            pl.hand.remove(uid)
            s.grail.append(uid)  # B9: used scenes go to the grail seat
        cost = e.cost
        paid = []
        if cost.tap and card.kind != "scene":
            owner_rules = ("B4", "E9.2") if self.errata and any(
                pt.rule == "E9.2" for pt in card.patches) else ("B4",)
            self._set_card_state(uid, "down", owner_rules, p)
            paid.append("T")
        if cost.mana:
            self._lose_mana(p, cost.mana, ("B4",))
            paid.append(f"{cost.mana} mana")
        die_ok = True
        if cost.die:
            value = self._roll(p, ("B4", "P4"))
            die_ok = value in cost.die
            if not die_ok:
                self._log("DieCostFailed", ("P4",), cid=card.id, effect=e.name, value=value)
        if paid:
            self._log("CostPaid", ("B4",), cid=card.id, effect=e.name, player=pl.name,
                      cost=" + ".join(paid) + (f" ({cost.raw})" if cost.raw else ""))
        if s.players[p].out:
            return
        if cost.discard:
            if len(pl.hand) > cost.discard:
                s.decision = Decision("discard", p, list(pl.hand), cost.discard,
                                      {"why": "cost", "card": uid, "effect": index,
                                       "targets": targets, "die_ok": die_ok})
                return
            for u in list(pl.hand):
                self._discard_from_hand(p, u, ("B4",))
        self._push(p, uid, index, targets, die_ok)

    def _push(self, p: int, uid: int, index: int, targets: list, die_ok: bool) -> None:
        e = self.card_of(uid).effects[index - 1]
        places = any(o.op == "place_coins" for o in _walk_ops(e.ops))
        self.s.stack.append(StackItem(p, uid, index, list(targets), die_ok=die_ok,
                                      places_coins=places))
        self._restart_window()

    # ------------------------------------------------------------------ resolution

    def _resolve_top(self) -> None:
        s = self.s
        item = s.stack.pop()
        card = self.card_of(item.card)
        e = card.effects[item.effect - 1]
        if item.negated:
            self._log("EffectNegated", ("D13", "D6"), cid=card.id, effect=e.name,
                      card=card.name)
            self._after_resolution(item)
            return
        if s.players[item.player].out:
            self._log("EffectFizzled", ("D14",), cid=card.id, effect=e.name, card=card.name,
                      why="its user dropped out")
            return
        if not item.die_ok:
            self._log("EffectFizzled", ("P4",), cid=card.id, effect=e.name, card=card.name,
                      why="die")
            return
        if e.unless_target_has and item.targets:
            t = item.targets[0]
            if isinstance(t, int) and 0 <= t < len(s.players) and any(
                    k.startswith(e.unless_target_has) for k in self.fighter_keywords(t, base_only=True)):
                self._log("EffectCancelled", ("B12",), cid=card.id, effect=e.name,
                          target=self.pname(t), keyword=e.unless_target_has)
                return
        self._log("EffectResolved", ("D6",), cid=card.id, effect=e.name, card=card.name)
        s.resolving = {"player": item.player, "card": item.card, "effect": item.effect,
                       "targets": list(item.targets),
                       "ops": [_op_dict(o) for o in e.ops]}

    def _after_resolution(self, item: StackItem) -> None:
        """E6.1: a proxy effect negated during engagement leaves the servant (or another proxy
        effect) to fight."""
        if not self.errata or item.card < 0:
            return
        e = self.card_of(item.card).effects[item.effect - 1]
        c = self.s.combat
        if "代理戦闘" in e.keywords and c is not None and c.process == "engagement":
            self._log("ProxyLost", ("E6.1",), cid=self.s.cards[item.card], effect=e.name,
                      player=self.pname(item.player),
                      what=f"{e.name} negated: the servant or another proxy effect fights")

    def _check_proxy_lost(self) -> None:
        """E6.1 / E6.2: a fighting proxy whose 代理戦闘 effect is lost (its card left the servant or
        turned Reverse, or the effect itself is lost): during the engagement process the servant
        (or another proxy effect) fights instead; after it, the combat counts as never having
        happened."""
        s = self.s
        c = s.combat
        if not self.errata or c is None or c.void:
            return
        for f in (c.raider, c.interceptor):
            if not f.proxy or f.proxy == "#removed" or f.proxy_source < 0:
                continue
            uid = f.proxy_source
            pl = s.players[f.player]
            card = self.card_of(uid)
            e = card.effects[f.proxy_effect - 1] if 0 < f.proxy_effect <= len(card.effects) else None
            lost = ""
            if uid not in self._sources(f.player):
                lost = f"{card.name} left the servant"
            elif s.card_states.get(uid) == "reverse" and card.kind != "hero":
                lost = f"{card.name} is Reverse"
            elif e is not None and e.lost_when and self._cond(e.lost_when, f.player):
                lost = f"{e.name} is lost"
            if not lost or pl.out:
                continue
            if c.process == "engagement" and not c.established:
                self._log("ProxyLost", ("E6.1",), cid=card.id, player=pl.name,
                          what=lost + ": the servant or another proxy effect fights")
                f.proxy, f.proxy_source, f.proxy_effect = "", -1, 0
            else:
                self._log("ProxyLost", ("E6.2",), cid=card.id, player=pl.name, what=lost)
                self._log("CombatVoid", ("E6.2",))
                c.void = True
                c.stage = "done"
                s.window = None
                s.stack.clear()
                if s.decision is not None and s.decision.kind == "attack":
                    s.decision = None
                return

    def _continue_resolution(self) -> None:
        s = self.s
        r = s.resolving
        while r["ops"]:
            op = r["ops"].pop(0)
            if s.players[r["player"]].out:
                break
            if op.get("if") and not self._cond(op["if"], r["player"]):
                continue
            self._run_op(r, op)
            if s.over:
                s.resolving = None
                return
            if s.decision is not None:
                return
        s.resolving = None
        self._check_proxy_lost()

    def _subject(self, r: dict, op: dict, default: str) -> int | None:
        subj = op["params"].get("subject", default)
        p = r["player"]
        if subj in ("self", "combatant"):
            return p
        if subj == "target":
            t = r["targets"][0] if r["targets"] else None
            if isinstance(t, int) and 0 <= t < len(self.s.players):
                card = self.card_of(r["card"])
                if card.effects[r["effect"] - 1].target.kind in ("servant", "player",
                                                                  "dropped_player"):
                    return t
            return None
        if subj == "opponent":
            c = self.s.combat
            if c and c.side(p):
                return c.other(p).player
            return None
        return None

    def _run_op(self, r: dict, op: dict) -> None:
        s = self.s
        p = r["player"]
        name = op["op"]
        params = op["params"]
        card = self.card_of(r["card"])
        e = card.effects[r["effect"] - 1]
        ctx = {"cid": card.id, "effect": e.name}
        if name in ("modify_stats", "grant_keyword"):
            q = self._subject(r, op, "combatant")
            if q is None or s.players[q].out:
                return
            part = r.setdefault("part", 0)
            r["part"] = part + 1
            if any(m.player == q and m.name == e.name and m.part == part for m in s.modifiers):
                self._log("SameNameIgnored", (self._r("E2.3", "B11"), "D16"), **ctx,
                          player=self.pname(q))
                return
            card_has_proxy = any("代理戦闘" in x.keywords for x in card.effects)
            mod = Modifier(player=q, name=e.name, source=r["card"], source_kind=card.kind,
                           effect=r["effect"], part=part, duration=params.get("duration", "turn"),
                           condition=op.get("if"),
                           support="支援" in e.keywords and card_has_proxy)
            if name == "modify_stats":
                mod.stats = _op_stats(params)
                s.modifiers.append(mod)
                change = " ".join(f"{k}{v:+d}" for k, v in mod.stats.items() if v)
                self._log("StatsModified", ("B11",), **ctx, player=self.pname(q), change=change)
            else:
                mod.keyword = str(params["keyword"])
                s.modifiers.append(mod)
                self._log("KeywordGranted", ("B12",), **ctx, player=self.pname(q),
                          keyword=mod.keyword)
            if self.errata and self._proxy_of(q) and card.kind in ("hero", "class") \
                    and not mod.support:
                self._log("ProxySuppressed", ("E6.3",), **ctx, player=self.pname(q),
                          card=card.name)
        elif name == "set_state":
            state = params["state"]
            t = r["targets"][0] if r["targets"] else None
            if e.target.kind == "card" and t in s.cards:
                zone, owner = s.zone_of(t)
                if zone == "seat" and owner is not None:
                    self._set_card_state(t, state, ("B3",) if not self.errata else ("E1.7",), owner)
                return
            q = self._subject(r, op, "target")
            if q is None or s.players[q].out or s.players[q].hero is None:
                return
            self._set_card_state(s.players[q].hero, state, ("B3",), q)
        elif name == "rise_cards":
            pl = s.players[p]
            downs = [u for u in [pl.hero] + pl.seat if u is not None and s.card_states.get(u) == "down"]
            count = int(params["count"])
            rules = ("E9.1",) if any(pt.rule == "E9.1" for pt in card.patches) else ("B3",)
            if len(downs) <= count:
                for u in downs:
                    self._set_card_state(u, "rise", rules, p)
                self._log("CardsRisen", rules, **ctx, player=pl.name, count=len(downs))
            else:
                s.decision = Decision("rise_cards", p, downs, count, {"why": "effect"})
        elif name == "draw":
            for _ in range(int(params["count"])):
                self._draw(p)
        elif name == "discard":
            q = self._subject(r, op, "self")
            if q is None or s.players[q].out:
                return
            hand = s.players[q].hand
            count = int(params["count"])
            if len(hand) <= count:
                for u in list(hand):
                    self._discard_from_hand(q, u, ("B11",))
            else:
                s.decision = Decision("discard", q, list(hand), count, {"why": "effect"})
        elif name == "steal_random":
            q = self._subject(r, {"params": {"subject": "target"}}, "target")
            if q is None:
                return
            for _ in range(int(params.get("count", 1))):
                victim = s.players[q]
                if victim.hand:
                    uid = victim.hand.pop(self._rng_below(len(victim.hand)))
                    s.players[p].hand.append(uid)
                    self._log("CardStolen", ("B11",), player=self.pname(p), victim=victim.name)
        elif name == "recover":
            self._recover(p, int(params["amount"]), ("B10",))
        elif name == "damage":
            q = self._subject(r, op, "target")
            if q is None or s.players[q].out:
                return
            amount = int(params["amount"])
            c = s.combat
            f = c.side(q) if c else None
            if f is not None and f.proxy and f.proxy != "#removed":
                self._log("ProxyRemoved", ("D11",), player=self.pname(q), chip=self._chip_name(f.proxy))
                f.proxy = "#removed"
                return
            self._damage_servant(q, amount, ("D11",))
        elif name == "place_coins":
            q = self._subject(r, op, "target")
            if q is None or s.players[q].out:
                return
            amount = int(params["amount"])
            rules = ["D12", "E4.2"]
            if params.get("halve"):
                amount //= 2
                rules.insert(0, "E9.3")
            coin = params.get("coin", "assassination")
            if amount > 0:
                s.players[q].coins[coin] = s.players[q].coins.get(coin, 0) + amount
            self._log("CoinsPlaced", tuple(rules), **ctx, player=self.pname(q), amount=amount,
                      coin=coin)
        elif name == "roll_die":
            value = self._roll(p, ("B1",))
            for outcome in params["outcomes"]:
                if value in outcome.get("faces", []):
                    r["ops"][0:0] = [_normalise_op(o) for o in outcome.get("ops", [])]
                    break
        elif name == "negate":
            t = r["targets"][0] if r["targets"] else None
            if isinstance(t, int) and 0 <= t < len(s.stack):
                s.stack[t].negated = True
                self._log("EffectNegated", ("D6",), cid=card.id, effect=e.name,
                          card=self._item_name(s.stack[t]))
        elif name == "proxy":
            c = s.combat
            f = c.side(p) if c else None
            if f is None or c.process != "engagement" or f.proxy:
                self._log("EffectFizzled", ("E6.1",), **ctx, card=card.name,
                          why="proxies are summoned in the engagement process")
                return
            f.proxy = str(params["chip"])
            f.proxy_source = r["card"]
            f.proxy_effect = r["effect"]
            self._log("ProxySummoned", ("E6.1", "E6.5", "E9.7") if self.errata else ("B6", "P2"), **ctx,
                      player=self.pname(p), chip=self._chip_name(f.proxy))
        elif name == "revive":
            q = r["targets"][0] if r["targets"] else None
            if not isinstance(q, int) or not 0 <= q < len(s.players) or not s.players[q].out:
                return
            heroes = [u for u in s.box if self.card_of(u).kind == "hero"]
            classes = [u for u in s.box if self.card_of(u).kind == "class"]
            if not heroes or not classes:
                self._log("EffectFizzled", ("D14",), **ctx, card=card.name,
                          why="no servant left to summon")
                return
            pl = s.players[q]
            pl.out = False
            hero = heroes[self._rng_below(len(heroes))]
            klass = classes[self._rng_below(len(classes))]
            s.box.remove(hero)
            s.box.remove(klass)
            pl.hero, pl.klass = hero, klass
            s.card_states[hero] = "reverse"
            s.card_states[klass] = "reverse"
            pl.mana = min(int(params.get("mana", 1)), pl.mana_limit)
            pl.command_spells = int(params.get("command_spells", 1))
            self._log("PlayerRevived", ("D14",), **ctx, player=pl.name)
            for _ in range(int(params.get("hand", 2))):
                self._draw(q)
        # encounter_faces is a 常時 rule read by the encounter step, nothing to do here


def _op_stats(params: Any) -> dict[str, int]:
    return {k: int(params.get(k, 0)) for k in STAT_KEYS if int(params.get(k, 0))}


def _op_dict(o: Any) -> dict:
    params = {}
    for k, v in dict(o.params).items():
        params[k] = _plain(v)
    d = {"op": o.op, "params": params}
    if o.condition:
        d["if"] = _plain(o.condition)
    return d


def _normalise_op(o: Any) -> dict:
    if hasattr(o, "op"):
        return _op_dict(o)
    d = dict(o)
    params = {k: _plain(v) for k, v in d.items() if k not in ("op", "if", "params")}
    params.update(_plain(d.get("params", {})))
    out = {"op": d["op"], "params": params}
    if d.get("if"):
        out["if"] = _plain(d["if"])
    return out


def _plain(v: Any) -> Any:
    if hasattr(v, "op") and hasattr(v, "params"):
        return _op_dict(v)
    if isinstance(v, dict) or (hasattr(v, "items") and not isinstance(v, (str, bytes))):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _walk_ops(ops: Iterable[Any]) -> Iterable[Any]:
    for o in ops:
        yield o
        if getattr(o, "op", None) == "roll_die" or (isinstance(o, dict) and o.get("op") == "roll_die"):
            params = o.params if hasattr(o, "params") else o.get("params", o)
            for outcome in params.get("outcomes", []):
                for inner in outcome.get("ops", []):
                    yield inner if hasattr(inner, "op") else _Shim(inner)


class _Shim:
    def __init__(self, d: dict) -> None:
        self.op = d.get("op")
        self.params = {k: v for k, v in d.items() if k != "op"}
