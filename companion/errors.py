"""The companion's error taxonomy.

Every refusal is a ``CompanionError`` (a ``ValueError``) whose message quotes the bad input.
``code`` is a stable machine-readable name (the web API returns it); ``rule`` names the
ruling id (``WX-7``, ``C-1``...) a refused play breaks, when there is one.
"""

from __future__ import annotations


class CompanionError(ValueError):
    """Base class of every error the companion raises on bad input."""

    code = "error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule
        self.plain = message  # without the ruling id: what a player reads (C-8)


class MalformedPayload(CompanionError):
    """A QR payload that is not a well-formed Table Companion payload."""

    code = "malformed_payload"


class ForeignPayload(MalformedPayload):
    """A well-formed payload of another game, or a QR code that is not ours at all."""

    code = "foreign_payload"


class UnknownCard(CompanionError):
    """A serial or face the companion never printed, or not part of this table."""

    code = "unknown_card"


class CardNotAvailable(CompanionError):
    """A known card shown somewhere it cannot legally come from (C-1)."""

    code = "card_not_available"


class IllegalPlay(CompanionError):
    """A play the rules forbid."""

    code = "illegal_play"


class OutOfTurn(IllegalPlay):
    """A seat acting when it is not that seat's turn, or for another seat."""

    code = "out_of_turn"


class GameOver(IllegalPlay):
    """Any play after the game has ended."""

    code = "game_over"


class MalformedEvent(CompanionError):
    """An event with a missing field, a wrong type or an unknown type."""

    code = "malformed_event"


class BadSetup(CompanionError):
    """A table that cannot be created: player count, options, print runs."""

    code = "bad_setup"


class UnknownGame(CompanionError):
    """A game name that is not in the registry."""

    code = "unknown_game"


class StaleVersion(CompanionError):
    """A correction or action sent against an older version of the table."""

    code = "stale_version"


class NothingToUndo(CompanionError):
    """Undo asked for more events than the log holds."""

    code = "nothing_to_undo"
