"""A challenge card's mini-game (MR-9): whom the drawer challenges, and who won.

The drawer chooses the opponent (``opponent``), or names them by entering the result;
with one opponent alive the choice is made at the draw. From then on only a result
between those two is accepted, and only from one of them or the referee (C-7): a third
player can no longer enter "I beat Ana" and collect the winner's reward.
"""

from __future__ import annotations

from companion.engine import Event, evolve, require
from companion.errors import IllegalPlay, MalformedEvent, OutOfTurn
from companion.games.mountains.state import MountainsState, Pending, apply_effect


def sender(s: MountainsState, event: Event) -> int | None:
    """The seat that sent ``event`` (set by the web from the seat token), or ``None``: the
    referee."""
    if "seat" not in event:
        return None
    seat = require(event, "seat", int)
    if not 1 <= seat <= len(s.players):
        raise MalformedEvent(f"there is no seat {seat!r} at this table")
    return int(seat)


def challenge_pending(s: MountainsState) -> Pending:
    """The challenge being played; raises ``IllegalPlay`` when there is none."""
    pend = next((p for p in s.pending if p.kind == "result"), None)
    if pend is None:
        raise IllegalPlay("no challenge is being played", rule="MR-9")
    return pend


def first_opponent(s: MountainsState, drawer: int) -> int:
    """The opponent chosen at the draw: the only other player alive, else 0 (not yet)."""
    others = [y for y in s.living if y != drawer]
    return others[0] if len(others) == 1 else 0


def _with(s: MountainsState, old: Pending, new: Pending) -> MountainsState:
    return evolve(s, pending=tuple(new if p is old else p for p in s.pending))


def on_opponent(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    """``{"type": "opponent", "seat": drawer, "target": y}``: the drawer (or the referee)
    records whom the drawer challenges (MR-9)."""
    pend = challenge_pending(s)
    by = sender(s, event)
    drawer = s.name(pend.seat)
    if by is not None and by != pend.seat:
        raise OutOfTurn(f"{drawer} drew the challenge and chooses the opponent, not "
                        f"{s.name(by)}", rule="C-7")
    if pend.other:
        raise IllegalPlay(f"{drawer} already challenges {s.name(pend.other)}", rule="MR-9")
    target = require(event, "target", int)
    if target == pend.seat or not 1 <= target <= len(s.players) \
            or not s.player(target).alive:
        raise IllegalPlay(f"{drawer} challenges another player still in the game, not "
                          f"seat {target!r}", rule="MR-9")
    s = _with(s, pend, evolve(pend, other=target))
    return s, (f"{drawer} challenges {s.name(target)} to {s.face(pend.card).name!r}; "
               f"{drawer} or {s.name(target)} enters who won (MR-9)")


def on_result(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    """Who won the mini-game: the drawer against the opponent they chose (MR-9)."""
    pend = challenge_pending(s)
    if "outcome" in event:  # one choice of the result action: [winner, loser]
        outcome = require(event, "outcome", list)
        if len(outcome) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in outcome
        ):
            raise MalformedEvent(f"'outcome' is [winner seat, loser seat], got {outcome!r}")
        winner, loser = outcome
    else:
        winner = require(event, "winner", int)
        loser = require(event, "loser", int)
    for x in (winner, loser):
        if not 1 <= x <= len(s.players) or not s.player(x).alive:
            raise IllegalPlay(f"seat {x!r} is not a player in the game", rule="MR-9")
    drawer = s.name(pend.seat)
    if winner == loser or pend.seat not in (winner, loser):
        raise IllegalPlay(f"the challenge is between {drawer} and an opponent; got "
                          f"winner {winner!r}, loser {loser!r}", rule="MR-9")
    by = sender(s, event)
    if pend.other and pend.other not in (winner, loser):
        raise IllegalPlay(f"{drawer} challenged {s.name(pend.other)}: the result is between "
                          f"{drawer} and {s.name(pend.other)}", rule="MR-9")
    if by is not None and by not in (winner, loser):
        # C-7: the players in the mini-game, or the referee (no sender), enter its result.
        raise OutOfTurn(f"{s.name(by)} did not play this mini-game; {s.name(winner)} or "
                        f"{s.name(loser)} (or the referee) enters who won", rule="C-7")
    if not pend.other and by is not None and by != pend.seat:
        # Only the drawer names the opponent; another phone waits for that choice.
        raise OutOfTurn(f"{drawer} has not chosen an opponent yet: {drawer} chooses whom to "
                        "challenge, or enters the result", rule="C-7")
    rest = list(s.pending)
    rest.remove(pend)
    s = evolve(s, pending=tuple(rest))
    face = s.face(pend.card)
    s, w = apply_effect(s, winner, face.attrs["winner"], other=loser, source=face.name)
    s, lo = apply_effect(s, loser, face.attrs["loser"], other=winner, source=face.name)
    return s, f"{s.name(winner)} wins {face.name!r}: {'; '.join(w + lo)} (MR-9)"
