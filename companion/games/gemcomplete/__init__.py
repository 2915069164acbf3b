"""Gem Complete (seed 004)."""

from companion.games.gemcomplete.rules import RULES, GemState

__all__ = ["RULES", "GemState"]
