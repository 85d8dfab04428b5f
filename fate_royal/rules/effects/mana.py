"""Operations on mana and coins: ``recover`` (B10, E3), ``damage`` (D11) and ``place_coins``
(D12, E4.2, E9.3)."""

from __future__ import annotations

from fate_royal.rules import proxy, zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.effects import effect_of, handler, subject


def recover(ctx: Ctx, r: dict, op: dict) -> None:
    zones.recover(ctx, r["player"], int(op["params"]["amount"]), ("B10",))


def damage(ctx: Ctx, r: dict, op: dict) -> None:
    """Damage ignoring defense: a fighting proxy is removed instead (D11)."""
    s = ctx.s
    q = subject(ctx, r, op, "target")
    if q is None or s.players[q].out:
        return
    c = s.combat
    f = c.side(q) if c else None
    if f is not None and f.proxy and f.proxy != proxy.REMOVED:
        ctx.emit("ProxyRemoved", ("D11",), player=q, chip=f.proxy)
        f.proxy = proxy.REMOVED
        return
    zones.damage_servant(ctx, q, int(op["params"]["amount"]), ())  # damage_servant cites D11


def place_coins(ctx: Ctx, r: dict, op: dict) -> None:
    s = ctx.s
    params = op["params"]
    q = subject(ctx, r, op, "target")
    if q is None or s.players[q].out:
        return
    amount = int(params["amount"])
    rules = ["D12", "E4.2"] if ctx.on("E4.2") else ["D12"]
    if params.get("halve"):
        amount //= 2
        rules.insert(0, "E9.3")
    coin = params.get("coin", "assassination")
    if amount > 0:
        s.players[q].coins[coin] = s.players[q].coins.get(coin, 0) + amount
    card = ctx.card_of(r["card"])
    ctx.emit("CoinsPlaced", tuple(rules), cid=card.id, effect=effect_of(ctx, r).name, player=q,
             amount=amount, coin=coin)


# Registered here rather than with @handler on each function: mutation testing (mutmut) leaves
# decorated functions alone, and these are the rules' operations.
handler("recover", ("amount",))(recover)
handler("damage", ("subject", "amount"))(damage)
handler("place_coins", ("subject", "coin", "amount", "halve"))(place_coins)
