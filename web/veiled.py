"""What a table's viewers may read of its stand-ins (C-7 rev. 3, ``companion.veil``).

A card tapped instead of scanned is recorded under one printed copy's serial, a stand-in
(``Rules.stand_ins``). ``StandIns`` keeps, for one table, every serial that stood in for
a tap at any version so far with the seats that owned it, and veils them for everyone but
that seat and the referee: in the snapshot (and so the event stream), the refusals, the
record and the replay. Viewers are given as the engine's seats: 0 the referee, n a seat,
``None`` anyone else (the big screen, the camera, no token).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion import veil
from companion.engine import Match, Rules, Setup
from companion.errors import CompanionError
from companion.replay import states_after

log = logging.getLogger(__name__)

# The parts of a snapshot that may name a card (the actions get stand-in names instead).
VEILED = ("view", "last_play", "history", "undone", "refused")


class StandIns:
    """One table's stand-ins over its game: ``log_records`` gives its log as ``(kind,
    body)`` pairs, ``now`` its state now."""

    def __init__(self, rules: Rules[Any], setup: Setup,
                 log_records: Callable[[], Iterable[tuple[str, Mapping[str, Any]]]],
                 now: Callable[[], Any]) -> None:
        self.rules = rules
        self.setup = setup
        self._log = log_records
        self._now = now
        self._stood: dict[str, set[int | None]] | None = None
        self.names = {s: f.name for s, f in setup.cards.items()}
        self.faces = {s: f.id for s, f in setup.cards.items()}

    def ever(self) -> dict[str, set[int | None]]:
        """Every serial that stood in for a tap at any version, with the seats that owned
        it: found once by replaying the log, then noted as plays come (``note``)."""
        if self._stood is None:
            self._stood = {}
            match: Match[Any] = Match(self.rules, self.setup)
            self.note(match.state)
            try:
                for state in states_after(match, self._log()):
                    self.note(state)
            except CompanionError:  # a log the rules no longer replay: what it did, and now
                log.exception("could not replay a table's log for its stand-ins")
                self.note(self._now())
        return self._stood

    def note(self, state: Any) -> None:
        """``state`` was a version of the table (kept only once ``ever`` was read)."""
        if self._stood is not None:
            for serial, owner in self.rules.stand_ins(state).items():
                self._stood.setdefault(serial, set()).add(owner)

    def hidden(self, seat: int | None, state: Any = None) -> frozenset[str]:
        """The serials ``seat`` may not read: in ``state``, or by default any that stood in
        for a tap so far (a stand-in told apart later stays veiled: the last play moving it
        would tell what the veil hid before)."""
        if state is not None:
            return veil.hidden_from(self.rules.stand_ins(state), seat)
        return veil.hidden_ever(self.ever(), seat)

    def veil(self, value: Any, seat: int | None, hidden: frozenset[str] | None = None) -> Any:
        """``value`` (JSON-like or a text) as ``seat`` may read it."""
        hidden = self.hidden(seat) if hidden is None else hidden
        return veil.veil(value, hidden, self.names) if hidden else value

    def snapshot(self, out: dict[str, Any], actions: Any, seat: int | None) -> None:
        """Veil a snapshot ``out`` in place for ``seat``; ``actions`` get stand-in names."""
        hidden = self.hidden(seat)
        if hidden:
            for k in VEILED:
                out[k] = veil.veil(out[k], hidden, self.names)
            out["actions"] = veil.veil_actions(actions, hidden, self.faces, self.names)

    def unveil(self, event: Mapping[str, Any], seat: int, state: Any) -> Mapping[str, Any]:
        """``event`` from ``seat`` with the stand-in names its actions carried in ``state``
        turned back into their serials (``veil.veil_actions``); as sent otherwise."""
        if not any(veil.ALIAS in x for v in event.values()
                   for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)):
            return event
        hidden = self.hidden(seat)
        acts = self.rules.actions(state, seat) if hidden else []
        return veil.unveil(event, veil.aliases(acts, hidden, self.faces))
