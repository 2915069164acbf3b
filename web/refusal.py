"""``Refused``: a request the web layer refuses before the rules see it (auth, seat, table).

A module of its own so that the helpers ``web.table`` uses (``web.piles``) can raise it
without importing ``web.table`` back (no import circles, ``tests/test_architecture.py``).
"""

from __future__ import annotations

from companion.errors import CompanionError


class Refused(CompanionError):
    """A request the web layer refuses before the rules see it (auth, seat, table)."""

    def __init__(self, message: str, *, code: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
