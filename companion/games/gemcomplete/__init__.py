"""Gem Complete (seed 004): two win conditions and the smallest game around them (GC-1..GC-5).

``rules.py`` the ``Rules`` object and its events, ``adjudicate.py`` the decisions (where each
GC ruling is decided, and the C-7 refusal), ``view.py`` what each seat sees and the words,
``state.py`` the table's state (GC-2).
"""

from companion.games.gemcomplete.rules import RULES, GemCompleteRules
from companion.games.gemcomplete.state import GemState, LocusCard, Side

__all__ = ["RULES", "GemCompleteRules", "GemState", "LocusCard", "Side"]
