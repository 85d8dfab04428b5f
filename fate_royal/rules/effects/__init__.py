"""The effect interpreter: one handler per operation of the card vocabulary, registered by name.

``fate_royal.cards.vocabulary.OPERATIONS`` declares every operation and its parameters; each handler
here is registered with ``handler(name, params)(fn)`` naming exactly the parameters it reads (a call
below the functions, not a decorator: mutmut leaves decorated functions unmutated), and a
test fails if the registry and the vocabulary differ in a single operation or parameter. An
operation with no handler is an error, never silently skipped.

A resolving effect is a plain dict (``GameState.resolving``): its user, card, effect index,
targets and the operations still to run, each ``{"op": name, "params": {...}, "if": {...}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from fate_royal.rules.context import Ctx

Handler = Callable[[Ctx, dict, dict], None]


@dataclass(frozen=True)
class Registered:
    name: str
    params: tuple[str, ...]
    run: Handler


REGISTRY: dict[str, Registered] = {}


def handler(name: str, params: Iterable[str] = ()) -> Callable[[Handler], Handler]:
    """Register ``fn`` as the handler of operation ``name``, reading the given parameters."""

    def register(fn: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"operation {name!r} registered twice")
        REGISTRY[name] = Registered(name, tuple(params), fn)
        return fn

    return register


class UnknownOperation(RuntimeError):
    """An effect names an operation the interpreter has no handler for."""


def run_op(ctx: Ctx, r: dict, op: dict) -> None:
    reg = REGISTRY.get(op["op"])
    if reg is None:
        raise UnknownOperation(f"no handler for operation {op['op']!r}")
    reg.run(ctx, r, op)


def effect_of(ctx: Ctx, r: dict) -> Any:
    """The Effect being resolved."""
    return ctx.card_of(r["card"]).effects[r["effect"] - 1]


def subject(ctx: Ctx, r: dict, op: dict, default: str) -> int | None:
    """The seat an operation acts on (vocabulary.SUBJECTS), or None when there is none."""
    subj = op["params"].get("subject", default)
    p = r["player"]
    if subj in ("self", "combatant"):
        return p
    if subj == "target":
        t = r["targets"][0] if r["targets"] else None
        if isinstance(t, int) and 0 <= t < len(ctx.s.players):
            if effect_of(ctx, r).target.kind in ("servant", "player", "dropped_player"):
                return t
        return None
    if subj == "opponent":
        c = ctx.s.combat
        if c and c.side(p):
            return c.other(p).player
        return None
    return None


# --- operations as plain data


def op_dict(o: Any) -> dict:
    params = {k: _plain(v) for k, v in dict(o.params).items()}
    d = {"op": o.op, "params": params}
    if o.condition:
        d["if"] = _plain(o.condition)
    return d


def normalise_op(o: Any) -> dict:
    """An operation (an ``Op`` or the dict form found inside ``roll_die`` outcomes) as a dict."""
    if hasattr(o, "op"):
        return op_dict(o)
    d = dict(o)
    params = {k: _plain(v) for k, v in d.items() if k not in ("op", "if", "params")}
    params.update(_plain(d.get("params", {})))
    out = {"op": d["op"], "params": params}
    if d.get("if"):
        out["if"] = _plain(d["if"])
    return out


def _plain(v: Any) -> Any:
    if hasattr(v, "op") and hasattr(v, "params"):
        return op_dict(v)
    if isinstance(v, dict) or (hasattr(v, "items") and not isinstance(v, (str, bytes))):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def walk_ops(ops: Iterable[Any]) -> Iterable[dict]:
    """Every operation of an effect as a dict, including those inside die-roll outcomes."""
    for o in ops:
        d = normalise_op(o)
        yield d
        if d["op"] == "roll_die":
            for outcome in d["params"].get("outcomes", []):
                yield from walk_ops(outcome.get("ops", []))


# the handlers register themselves on import
from fate_royal.rules.effects import cards, combat_ops, mana, states  # noqa: E402,F401

__all__ = ["REGISTRY", "Registered", "UnknownOperation", "handler", "normalise_op", "op_dict",
           "run_op", "subject", "walk_ops"]
