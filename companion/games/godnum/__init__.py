"""God Num (seed 001): legions race the divine number to an exact target (GN-1..GN-11).

``rules.py`` the ``Rules`` object (options, set-up, events); ``adjudicate.py`` the pure
resolution (GN-3..GN-11); ``legions.py`` legion binding and who holds which card (GN-2, C-1,
C-7); ``view.py`` what each seat sees and may do; ``words.py`` the words (C-8);
``state.py`` the immutable state.
"""

from companion.games.godnum.rules import RULES, GodNumRules
from companion.games.godnum.state import HAND_SIZE, GodNumState, Legion, PrintedLegion

__all__ = ["HAND_SIZE", "RULES", "GodNumRules", "GodNumState", "Legion", "PrintedLegion"]
