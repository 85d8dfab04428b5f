"""Cards moving and changing state, mana, damage, dropping out and victory.

- card states (B3; E1.1, E1.3, E1.6–E1.8) and the servant seat's capacity (D7, E1.7, E1.8);
- drawing (D5; E8 rebuilds the deck, D15) and discarding;
- mana lost and recovered (D11, B10, E3), damage ignoring defense (D11);
- dropping out (D14, E7.1, E7.2, E4.1) and the end of the war (B8).
"""

from __future__ import annotations

from fate_royal.rules.context import Ctx

#: States each kind of seat card may take (B3: Down and Danger are servant states; E1.6 class cards
#: Reverse or Rise; E1.7 mystic codes Reverse, Rise or Down; E1.8 a scene on the field is Reverse).
ALLOWED_STATES = {"class": ("reverse", "rise"), "mystic_code": ("reverse", "rise", "down"),
                  "scene": ("reverse",)}
STATE_RULE = {"class": "E1.6", "mystic_code": "E1.7", "scene": "E1.8"}


def servant_state(ctx: Ctx, p: int) -> str | None:
    hero = ctx.s.players[p].hero
    return None if hero is None else ctx.s.card_states.get(hero)


def sources(ctx: Ctx, p: int) -> list[int]:
    """The cards whose effects p's servant may use: hero, class and the seat's cards."""
    pl = ctx.s.players[p]
    return [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]


def face_down_owner(ctx: Ctx, uid: int, owner: int) -> int:
    """``owner`` if the card is face down on its seat (its identity is the owner's secret), else -1."""
    return owner if ctx.s.card_states.get(uid) == "reverse" else -1


def set_card_state(ctx: Ctx, uid: int, new: str, rules: tuple[str, ...], owner: int) -> bool:
    """Change a card's state; E1.3 keeps a Reverse servant from going Down or Danger."""
    s = ctx.s
    old = s.card_states.get(uid)
    if old == new:
        return False
    is_servant = uid == s.players[owner].hero
    if is_servant and old == "reverse" and new in ("down", "danger") and ctx.on("E1.3"):
        ctx.emit("StateChangeIgnored", ("E1.3",), cid=s.cards[uid], secret=owner,
                 player=owner, card=s.cards[uid], state=new)
        return False
    kind = ctx.card_of(uid).kind
    allowed = ALLOWED_STATES.get(kind)
    if allowed is not None and new not in allowed:
        ctx.emit("StateChangeIgnored", (ctx.cite(STATE_RULE[kind], "B3"),), cid=s.cards[uid],
                 secret=face_down_owner(ctx, uid, owner), player=owner, card=s.cards[uid],
                 state=new)
        return False
    if is_servant and ctx.on("E1.1"):
        rules = tuple(rules) + ("E1.1",)  # one of the servant's four states
    s.card_states[uid] = new
    klass = s.players[owner].klass
    if is_servant and old == "reverse" and new != "reverse" and s.card_states.get(klass) == "reverse":
        s.card_states[klass] = "rise"
    if is_servant and new != "reverse":
        reveal_servant(ctx, owner)
    ctx.emit("CardStateChanged", rules, cid=s.cards[uid], player=owner, card=s.cards[uid],
             before=old, after=new)
    return True


def reveal_servant(ctx: Ctx, p: int) -> None:
    """Every player has now seen p's hero and class (it stays known if it turns Reverse again)."""
    s = ctx.s
    for uid in (s.players[p].hero, s.players[p].klass):
        if uid is not None and uid not in s.revealed:
            s.revealed.append(uid)


def seat_capacity(ctx: Ctx, p: int) -> int:
    """Mystic codes the seat may hold (D7; E1.7 adds one per Reverse mystic code, E1.8 one per
    Reverse scene)."""
    s = ctx.s
    cap = ctx.profile.seat_slots
    codes, scenes = ctx.on("E1.7"), ctx.on("E1.8")
    if codes or scenes:
        for u in s.players[p].seat:
            if s.card_states.get(u) == "reverse":
                kind = ctx.card_of(u).kind
                if (codes and kind == "mystic_code") or (scenes and kind == "scene"):
                    cap += 1
    return cap


def seat_codes(ctx: Ctx, p: int) -> int:
    return sum(1 for u in ctx.s.players[p].seat if ctx.card_of(u).kind == "mystic_code")


# --- drawing and discarding


def draw(ctx: Ctx, p: int, log: bool = True) -> bool:
    """p draws the top card. E8: the moment the last card leaves the deck, the discard pile is
    shuffled into a new one (cards discarded later stay in the new discard pile); a deck that ran
    out while the discard pile was empty is rebuilt when the next draw finds it empty."""
    s = ctx.s
    if not s.deck and not rebuild_deck(ctx):
        if s.discard and not ctx.on("E8"):
            ctx.emit("DrawNothing", ("D15",), player=p)  # E8 off: no rebuild
        else:
            ctx.emit("DrawFailed", ("D15",), player=p)
        return False
    uid = s.deck.pop(0)
    s.players[p].hand.append(uid)
    if log:
        ctx.emit("CardDrawn", ("D5",), player=p)
    if not s.deck:
        rebuild_deck(ctx)
    return True


def rebuild_deck(ctx: Ctx) -> bool:
    """E8: shuffle the discard pile (and with D15's ``grail_reshuffle`` the grail seat) into a new
    deck. False when E8 is off or there is nothing to shuffle."""
    s = ctx.s
    grail = ctx.profile.grail_reshuffle
    if not ctx.on("E8") or not (s.discard or (grail and s.grail)):
        return False
    s.deck = list(s.discard)
    s.discard.clear()
    if grail:
        s.deck += s.grail
        s.grail.clear()
    ctx.shuffle(s.deck)
    ctx.emit("DeckRebuilt", ("E8", "D15"), size=len(s.deck))
    return True


def discard_from_hand(ctx: Ctx, p: int, uid: int, rules: tuple[str, ...]) -> None:
    s = ctx.s
    s.players[p].hand.remove(uid)
    s.discard.append(uid)
    ctx.emit("CardDiscarded", rules, cid=s.cards[uid], player=p, card=s.cards[uid])


# --- mana and damage


def lose_mana(ctx: Ctx, p: int, amount: int, rules: tuple[str, ...]) -> bool:
    """Remove mana; True if the servant is destroyed (fewer coins than the damage, D11)."""
    pl = ctx.s.players[p]
    destroyed = pl.mana < amount
    lost = min(pl.mana, amount)
    pl.mana = max(0, pl.mana - amount)
    ctx.emit("ManaLost", rules, player=p, amount=lost, mana=pl.mana)
    return destroyed


def recover(ctx: Ctx, p: int, amount: int, rules: tuple[str, ...]) -> None:
    pl = ctx.s.players[p]
    pl.mana += amount
    ctx.emit("ManaRecovered", rules, player=p, amount=amount, mana=pl.mana)
    if pl.mana > pl.mana_limit:
        excess = pl.mana - pl.mana_limit
        pl.mana = pl.mana_limit
        ctx.emit("ManaExcessLost", (ctx.cite("E3", "D3"),), player=p, amount=excess,
                 limit=pl.mana_limit)


def damage_servant(ctx: Ctx, p: int, amount: int, rules: tuple[str, ...]) -> None:
    """Damage ignoring defense (effects, upkeep): mana loss, destruction by D11."""
    if amount <= 0 or ctx.s.players[p].out:
        return
    if lose_mana(ctx, p, amount * ctx.profile.mana_per_damage, rules + ("D11",)):
        ctx.emit("ServantDestroyed", ("D11",), player=p)
        c = ctx.s.combat
        f = c.side(p) if c else None
        if f is not None:
            f.destroyed = True
        drop_out(ctx, p, "destroyed", ("D14",))


# --- dropping out, victory


def drop_out(ctx: Ctx, p: int, why: str, rules: tuple[str, ...], check: bool = True) -> None:
    s = ctx.s
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
        ctx.emit("SeatCleared", (ctx.cite("E7.1", "D14"),), player=p)
    target = s.discard if ctx.profile.destroyed_hand_to == "discard" else s.removed
    target.extend(pl.hand)
    pl.hand.clear()
    pl.mana = 0
    pl.coins = {}
    pl.out = True
    s.modifiers = [m for m in s.modifiers if m.player != p]
    ctx.emit("PlayerDroppedOut", rules, player=p, why=why)
    note_lost_effects(ctx)
    if s.active_master == p:
        if ctx.on("E7.2"):
            s.active_master = None  # E7.2: the next player receives it when their turn comes
        else:
            s.active_master = next_alive(ctx, p)
    if s.decision is not None and s.decision.player == p:
        s.decision = None
        s.resolving = None
    if check:
        check_victory(ctx)


def note_lost_effects(ctx: Ctx) -> None:
    """Log effects whose ``lost_when`` now holds (E9.4: 山門の守護 with two players left), and keep
    them as lost for good (reading R2)."""
    from fate_royal.rules.stats import cond

    s = ctx.s
    for q in s.alive():
        for uid in sources(ctx, q):
            card = ctx.card_of(uid)
            for e in card.effects:
                if not e.lost_when or [uid, e.index] in s.lost or not cond(ctx, e.lost_when, q):
                    continue
                s.lost.append([uid, e.index])
                rules = tuple(pt.rule for pt in card.patches if "lost_when" in pt.path) or ("B11",)
                if ctx.reading("R2") == "stays_lost":
                    rules += ("R2",)
                ctx.emit("EffectLost", rules, cid=card.id, effect=e.name,
                         secret=face_down_owner(ctx, uid, q), player=q, card=card.id)


def next_alive(ctx: Ctx, p: int) -> int | None:
    n = len(ctx.s.players)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not ctx.s.players[q].out:
            return q
    return None


def check_victory(ctx: Ctx) -> None:
    s = ctx.s
    if s.over:
        return
    alive = s.alive()
    if len(alive) == 1:
        s.over, s.winner = True, alive[0]
        s.window, s.decision, s.resolving = None, None, None
        ctx.emit("GameWon", ("B8",), player=alive[0])
    elif not alive:
        s.over, s.winner = True, None
        s.window, s.decision, s.resolving = None, None, None
        ctx.emit("NoWinner", ("B8",))
