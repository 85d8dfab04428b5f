"""The turn (D5) as a table of steps, and the automatic loop that runs the game until someone must
decide.

Each step has its automatic work (``STEP_WORK``), then a response window (D6), then its end: the
E4.1 check and the reset of the once-per-step counters (E2.2). ``run`` drives everything: a pending
decision or a player with priority stops it; otherwise it resolves the stack, advances a combat
(``combat.progress``) or advances the step.
"""

from __future__ import annotations

from typing import Callable

from fate_royal.rules import combat, stack, zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.state import STEPS, Decision

MAX_AUTOMATIC = 100_000  # steps of automatic work between two decisions: more is a flow bug


def run(ctx: Ctx) -> None:
    """Do the automatic work until a player must decide or the game is over."""
    guard = 0
    while not ctx.s.over:
        guard += 1
        if guard > MAX_AUTOMATIC:  # pragma: no cover - a flow bug; fail loudly rather than hang
            raise RuntimeError("rules engine made no progress")
        s = ctx.s
        if s.decision is not None:
            if s.players[s.decision.player].out:
                s.decision = None
                continue
            return
        if s.resolving is not None:
            stack.continue_resolution(ctx)
            continue
        if s.window is not None:
            if stack.window_step(ctx):
                return
            continue
        if s.setup_phase:
            from fate_royal.rules.setup import next_choice_decision

            next_choice_decision(ctx)
            continue
        if s.combat is not None:
            combat.progress(ctx)
            continue
        progress_step(ctx)


def progress_step(ctx: Ctx) -> None:
    """One stage of the current step: its start (and automatic work), its window, its end. A
    turn player who drops out in the middle of a step does not cut it short: the step runs to
    its end, and the E4.1 check with it (the next turn starts from ``end_step``)."""
    s = ctx.s
    if s.stage == "start" and s.players[s.turn_player].out:
        next_turn(ctx)
        return
    if s.stage == "start":
        ctx.emit("StepStarted", ("D5",), step=s.step)
        STEP_WORK[s.step](ctx)
        s.stage = "open"
        return
    if s.stage == "open":
        s.stage = "closing"
        # D6: a window at the start of every step (the ritual and combat steps always have one:
        # the turn player acts there); after a raid the rest of the turn still gets its windows
        if s.step == "combat" and s.raided:
            pass
        elif s.step in ("ritual", "combat") or ctx.profile.response_windows == "every_step":
            stack.open_window(ctx, "step")
        return
    end_step(ctx)  # closing: the window has closed


# --- the automatic work of each step


def rise_step(ctx: Ctx) -> None:
    """E1.9 (or D5's base rise step), then the assassination-coin upkeep (D12)."""
    s = ctx.s
    tp = s.turn_player
    pl = s.players[tp]
    mine = [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]
    if ctx.on("E1.9"):
        for uid in mine:
            st = s.card_states.get(uid)
            if st == "down":
                zones.set_card_state(ctx, uid, "rise", ("E1.9",), tp)
            elif st == "danger":
                zones.set_card_state(ctx, uid, "down", ("E1.9",), tp)
    elif ctx.profile.base_rise_step:
        for uid in mine:
            if s.card_states.get(uid) in ("down", "danger"):
                zones.set_card_state(ctx, uid, "rise", ("D5",), tp)
    coins = pl.coins.get("assassination", 0)
    if coins and ctx.profile.assassination_upkeep:
        amount = coins * ctx.profile.assassination_upkeep
        ctx.emit("CoinUpkeep", ("D12",), player=tp, count=coins, amount=amount)
        zones.damage_servant(ctx, tp, amount, ("D12",))


def draw_step(ctx: Ctx) -> None:
    for _ in range(ctx.profile.draw_per_turn):
        zones.draw(ctx, ctx.s.turn_player)


def encounter_step(ctx: Ctx) -> None:
    """D5: roll; on an encounter face the turn player's servant raids an opponent at once."""
    from fate_royal.rules.stats import encounter_faces

    s = ctx.s
    tp = s.turn_player
    pl = s.players[tp]
    value = ctx.roll(tp, ("D5",))
    faces = set(ctx.profile.encounter_on)
    rules = ["D5"]
    extra = encounter_faces(ctx, tp)
    if extra and value in extra and value not in faces:
        rules += ["E9.5", "R3"]
    faces |= extra
    if value in faces and pl.hero is not None:
        s.encountered = True
        state = zones.servant_state(ctx, tp)
        rule = {"down": "E1.4", "danger": "E1.5"}.get(state or "")
        if rule and not ctx.on(rule):
            # errata off: B3 says a Down/Danger servant cannot raid; D5 (reading R4) lets it
            rules += ["B3", "R4"]
            if ctx.reading("R4") == "no_raid":
                ctx.emit("EncounterNoRaid", tuple(rules), player=tp, state=state)
                return
        elif rule:
            rules.append(rule)
        ctx.emit("EncounterHappened", tuple(rules), player=tp)
        targets = [q for q in s.alive() if q != tp]
        if len(targets) == 1:
            combat.start(ctx, tp, targets[0], encounter=True)
        else:
            s.decision = Decision("encounter_target", tp, targets)
    else:
        ctx.emit("NoEncounter", ("D5",), player=tp)


def end_step_work(ctx: Ctx) -> None:
    """D5: "until end of turn" effects expire; the turn player discards down to the hand limit."""
    s = ctx.s
    tp = s.turn_player
    pl = s.players[tp]
    before = len(s.modifiers)
    s.modifiers = [m for m in s.modifiers if m.duration == "permanent"]
    if before != len(s.modifiers):
        ctx.emit("ModifiersExpired", ("B11",))
    excess = len(pl.hand) - ctx.profile.hand_limit
    if excess > 0:
        ctx.emit("HandLimit", ("D5", "P5"), player=tp, limit=ctx.profile.hand_limit)
        s.decision = Decision("discard", tp, list(pl.hand), excess, {"why": "hand_limit"})


def _nothing(ctx: Ctx) -> None:
    """The ritual and combat steps have no automatic work: the turn player acts in their window."""


#: D5: the turn's steps and their automatic work, in order (``state.STEPS``).
STEP_WORK: dict[str, Callable[[Ctx], None]] = {
    "rise": rise_step,
    "draw": draw_step,
    "ritual": _nothing,
    "encounter": encounter_step,
    "combat": _nothing,
    "end": end_step_work,
}
assert tuple(STEP_WORK) == STEPS


def end_step(ctx: Ctx) -> None:
    """A step ends: E4.1 (everyone without command spells drops out), the E2.2 counters reset, and
    the next step (or turn) begins."""
    s = ctx.s
    ctx.emit("StepEnded", ("D5",), step=s.step)
    if ctx.on("E4.1"):
        # E4.1: everyone without command spells drops out at once, then B8 is checked (two last
        # players dropping together leave no winner)
        gone = [i for i, p in enumerate(s.players) if not p.out and p.command_spells <= 0]
        for i in gone:
            zones.drop_out(ctx, i, "no_command_spells", ("E4.1", "D14"), check=False)
        if gone:
            zones.check_victory(ctx)
            if s.over:
                return
    s.used = []
    if s.players[s.turn_player].out:
        next_turn(ctx)
        return
    idx = STEPS.index(s.step)
    if idx + 1 < len(STEPS):
        s.step = STEPS[idx + 1]
        s.stage = "start"
    else:
        next_turn(ctx)


def next_turn(ctx: Ctx) -> None:
    s = ctx.s
    nxt = zones.next_alive(ctx, s.turn_player)
    if nxt is None:
        zones.check_victory(ctx)
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
            ctx.emit("ActiveMasterPassed", ("E7.2",), player=nxt)
    ctx.emit("TurnStarted", ("D4", "D5"), turn=s.turn, player=nxt)
