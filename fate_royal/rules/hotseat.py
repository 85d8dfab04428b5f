"""Who looks at the screen: the hot-seat policy, outside Qt so it can be tested and counted.

At a real table nobody passes the rulebook around to ask "anything?". The policy turns each pending
decision of the engine (which asks every player in every window: the game's ``auto_pass`` option is
off) into one of a few prompts:

- ``private``: the decision needs something only that player may see (their hand, a face-down
  card): a "pass the computer to …" screen first, saying why, unless that player already holds it.
  The turn player's own windows (the ritual and combat steps) are one such decision per turn.
- ``on_table``: a decision on public information (attack type, encounter opponent, turning cards
  Rise, a fighter's face-up effect in a combat process) is made on the shared screen by the named
  player; they may ask for the hand-off first.
- ``shared``: something was put on the stack or a raid was declared: one prompt for the whole table,
  "does anyone respond to …?". A player who claims gets the hand-off; Space means nobody.
- ``auto``: an empty window (a step or process with nothing new) where the player set no stop: the
  policy passes for them.
- ``computer``: a computer seat decides by itself.

Whether a player is asked depends only on public information — the step, what is on the stack,
who fights, the public cards, the player's own stops — never on what they hold; the policy reads
``view(game, None)`` and each seat's public options, and a test proves two positions that differ
only in hidden cards give the same prompts. Showing private information needs a confirmed hand-off:
any prompt the whole table looks at (``shared``, ``on_table``) ends the current viewer's privacy.
With one human against computer seats there is nobody to hide from: that player holds the screen
for the whole game (``solo``), no hand-off screen is shown and their hand stays face up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fate_royal.rules.actions import Action, Pass, UseEffect

#: Stops a player may set (recorded in the game's ``stops`` option, per seat).
STOPS = ("my_turn", "my_combat", "every_window")

PRIVATE_DECISIONS = {"discard": "discard", "choose_hero": "choose_servant",
                     "choose_class": "choose_servant"}
PUBLIC_DECISIONS = {"attack": "attack", "encounter_target": "encounter_target",
                    "rise_cards": "rise_cards"}


@dataclass(frozen=True)
class Prompt:
    kind: str  # private | on_table | shared | auto | computer | over
    player: int | None = None  # who decides (for shared: the first candidate)
    reason: str = ""  # why this player is asked (a code the catalogs word: your_turn, claimed …)
    candidates: tuple[int, ...] = ()  # shared: the human seats that may claim
    about: dict = field(default_factory=dict)  # shared: what to respond to (stack entry or raid)


@dataclass
class Counters:
    handoffs: int = 0
    shared: int = 0
    on_table: int = 0
    private: int = 0
    auto: int = 0


def humans_of(game: Any) -> set[int]:
    seats = game.options.get("seats") or {}
    n = len(game.ctx.s.players)
    return {i for i in range(n) if seats.get(str(i), "human") == "human"}


def stops_of(game: Any, seat: int) -> set[str]:
    return set((game.options.get("stops") or {}).get(str(seat), []))


def public_actions(game: Any, seat: int) -> list[Action]:
    """The seat's legal actions that reveal nothing of its hand: passing, raids, attack types,
    targets, command spells, and effects of face-up cards on the table."""
    s = game.ctx.s
    hand = set(s.players[seat].hand)
    out = []
    for a in game.legal_actions():
        if a.player != seat:
            continue
        card = getattr(a, "card", None)
        if card is not None and card in hand:
            continue
        if getattr(a, "kind", "") == "discard" or (getattr(a, "kind", "") == "choose"
                                                   and s.decision is not None
                                                   and s.decision.kind in PRIVATE_DECISIONS):
            continue
        out.append(a)
    return out


class HotSeat:
    """The policy and its memory for one game (who holds the screen; who declined this round).

    ``advance()`` applies automatic passes and returns the prompt that needs people; the table
    shows it, then calls ``confirm()`` (hand-off confirmed), ``claim(seat)``, ``nobody()``,
    ``ask_privately()`` or ``apply(action)``. The same object counts hand-offs and shared prompts
    for the bench.
    """

    def __init__(self, game: Any, humans: set[int] | None = None) -> None:
        self.game = game
        self.humans = humans_of(game) if humans is None else set(humans)
        self.viewer: int | None = self.solo  # the seat whose private cards may be shown now
        self.count = Counters()
        self._round: tuple | None = None
        self._declined: set[int] = set()
        self._claimed: int | None = None  # claimed the shared prompt, or asked for privacy
        self._rest: tuple[int, ...] = ()  # after a claim: the later candidates, asked again
        self._rest_about: dict = {}
        self._seen: set[tuple] = set()  # news already put to the table (stack entries, raids)
        self._last: Prompt | None = None
        self._acted = 0  # actions applied (a new response round after each non-pass action)

    # --- reading the position (public information only)

    def _round_key(self) -> tuple:
        s = self.game.ctx.s
        w = s.window
        c = s.combat
        return (s.turn, s.step, c.process if c else "", w.kind if w else "", len(s.stack),
                tuple(it.negated for it in s.stack), self._acted)

    def _news(self) -> dict:
        """What this response round is about, if it is new to the table: an entry just put on the
        stack, or a raid just declared (or an encounter)."""
        s = self.game.ctx.s
        if s.stack:
            item = s.stack[-1]
            key = ("stack", len(s.stack) - 1, item.player, item.card, item.effect, item.negated)
            if key not in self._seen:
                return {"key": key, "stack": len(s.stack) - 1, "player": item.player,
                        "card": s.cards.get(item.card, ""), "effect": item.effect}
            return {}
        c = s.combat
        if c is not None and c.process == "disclosure":
            key = ("raid", s.turn, c.raider.player, c.interceptor.player)
            if key not in self._seen:
                return {"key": key, "raid": c.raider.player, "target": c.interceptor.player,
                        "encounter": c.encounter}
        return {}

    def _main_window(self, p: int) -> bool:
        s = self.game.ctx.s
        w = s.window
        return (p == s.turn_player and w is not None and w.kind == "step" and not s.stack
                and s.combat is None and s.step in ("ritual", "combat"))

    def _stopped(self, p: int) -> bool:
        s = self.game.ctx.s
        stops = stops_of(self.game, p)
        if "every_window" in stops:
            return True
        if "my_turn" in stops and s.turn_player == p:
            return True
        c = s.combat
        return "my_combat" in stops and c is not None and c.side(p) is not None

    def _fighter_option(self, p: int) -> bool:
        """p fights now and has an effect of a face-up card to use (public information)."""
        c = self.game.ctx.s.combat
        if c is None or c.side(p) is None:
            return False
        return any(isinstance(a, UseEffect) for a in public_actions(self.game, p))

    @property
    def solo(self) -> int | None:
        """The one human seat of a game against computers (None with two humans or more, or none):
        nobody else looks at the screen, so that seat never hands the computer over."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def current(self) -> Prompt:
        """The prompt for the pending decision (the game is not changed)."""
        g = self.game
        pend = g.pending
        if pend is None:
            return Prompt("over")
        p = pend.player
        if p not in self.humans:
            return Prompt("computer", p)
        if self._claimed == p:
            return Prompt("private", p, "claimed" if pend.kind == "priority" else "asked")
        if pend.kind != "priority":
            if pend.kind in PRIVATE_DECISIONS:
                return Prompt("private", p, PRIVATE_DECISIONS[pend.kind])
            return Prompt("on_table", p, PUBLIC_DECISIONS.get(pend.kind, pend.kind))
        key = self._round_key()
        if key != self._round:
            self._round, self._declined, self._rest = key, set(), ()
        if p in self._declined:
            return Prompt("auto", p, "declined")
        if self._main_window(p):
            return Prompt("private", p, "your_turn")
        if self._stopped(p):
            return Prompt("private", p, "stop")
        w = g.ctx.s.window
        if p in self._rest:  # the claimer passed: the others may still answer
            candidates = tuple(q for q in w.order[w.index:] if q in self._rest
                               and q not in self._declined)
            return Prompt("shared", p, "respond_more", candidates, self._rest_about)
        news = self._news()
        if news:
            order = w.order[w.index:]
            candidates = tuple(q for q in order if q in self.humans and q not in self._declined)
            about = {k: v for k, v in news.items() if k != "key"}
            return Prompt("shared", candidates[0] if candidates else p, "respond", candidates, about)
        if self._fighter_option(p):
            return Prompt("on_table", p, "fighter_option")
        return Prompt("auto", p, "nothing_new")

    # --- acting

    def advance(self) -> Prompt:
        """Apply automatic passes until a prompt needs people (or a computer, or the end)."""
        for _ in range(100_000):
            prompt = self.current()
            if prompt.kind != "auto":
                break
            self.count.auto += 1
            self._apply(Pass(prompt.player))
        else:  # pragma: no cover - a policy bug; never hang the table
            raise RuntimeError("hot-seat policy made no progress")
        if prompt != self._last:
            self._last = prompt
            if prompt.kind in ("shared", "on_table"):
                self.viewer = self.solo  # the whole table looks at the screen: privacy ends
                if prompt.kind == "shared":
                    self.count.shared += 1
                else:
                    self.count.on_table += 1
            elif prompt.kind == "private":
                self.count.private += 1
        return prompt

    def needs_handoff(self, prompt: Prompt | None = None) -> bool:
        prompt = prompt or self.current()
        return prompt.kind == "private" and prompt.player != self.viewer

    def confirm(self) -> None:
        """The deciding player confirmed the hand-off screen: their private cards may be shown."""
        prompt = self.current()
        if prompt.kind == "private" and prompt.player != self.viewer:
            self.viewer = prompt.player
            self.count.handoffs += 1

    def ask_privately(self) -> bool:
        """The player deciding on the shared screen wants to look at their cards first."""
        prompt = self.current()
        if prompt.kind != "on_table":
            return False
        self._claimed = prompt.player
        self._last = None
        return True

    def claim(self, seat: int) -> bool:
        """``seat`` answers the shared prompt: it will respond (the hand-off comes next). The humans
        before it in the round's order have declined."""
        prompt = self.current()
        if prompt.kind != "shared" or seat not in prompt.candidates:
            return False
        self._mark_seen()
        later = prompt.candidates[prompt.candidates.index(seat) + 1:]
        self._declined.update(prompt.candidates[:prompt.candidates.index(seat)])
        self._rest, self._rest_about = later, dict(prompt.about)
        self._claimed = seat
        self._last = None
        return True

    def nobody(self) -> None:
        """Nobody responds to the shared prompt: every candidate passes."""
        prompt = self.current()
        if prompt.kind == "shared":
            self._mark_seen()
            self._declined.update(prompt.candidates)
            self._last = None

    def _mark_seen(self) -> None:
        news = self._news()
        if news:
            self._seen.add(news["key"])

    def apply(self, action: Action) -> list:
        events = self._apply(action)
        self._last = None
        return events

    def _apply(self, action: Action) -> list:
        events = self.game.apply(action)
        if not isinstance(action, Pass):
            self._acted += 1  # someone acted: everyone may answer it (a new round)
        if self._claimed is not None and action.player == self._claimed:
            self._claimed = None
        return events

    def reset(self) -> None:
        """The position changed outside the policy (undo, a loaded game): forget the round and
        who holds the screen."""
        self._round, self._declined, self._claimed, self._last = None, set(), None, None
        self._rest = ()
        self._acted += 1
        self.viewer = self.solo


__all__ = ["Counters", "HotSeat", "PRIVATE_DECISIONS", "PUBLIC_DECISIONS", "Prompt", "STOPS",
           "humans_of", "public_actions", "stops_of"]


def play_scripted(game: Any, chooser: Any, *, claim: bool = False, max_turns: int = 60,
                  choose: Any = None) -> tuple[Counters, int]:
    """Play ``game`` at a scripted hot-seat table, through this policy: every player confirms
    their hand-offs; at a shared prompt nobody claims (or, with ``claim``, the first player who
    holds a response other than passing or a command spell claims); every decision is made at
    random among what the screen offers (``choose(chooser, actions)``, default uniform).
    Returns the counters and the number of turns played (for the bench)."""
    from fate_royal.rules.legality import effect_options

    choose = choose or (lambda rnd, acts: acts[rnd.randrange(len(acts))])
    hs = HotSeat(game)
    first = game.ctx.s.turn
    while game.outcome() is None and game.ctx.s.turn - first < max_turns:
        prompt = hs.advance()
        if prompt.kind == "over":
            break
        if prompt.kind == "shared":
            claimer = None
            if claim:
                claimer = next((q for q in prompt.candidates
                                if effect_options(game.ctx, q, first_only=True)), None)
            if claimer is None:
                hs.nobody()
            else:
                hs.claim(claimer)
            continue
        if prompt.kind == "private" and hs.needs_handoff(prompt):
            hs.confirm()
        acts = game.legal_actions() if prompt.kind in ("private", "computer") else \
            public_actions(game, prompt.player)
        hs.apply(choose(chooser, acts))
    return hs.count, max(1, game.ctx.s.turn - first + 1)
