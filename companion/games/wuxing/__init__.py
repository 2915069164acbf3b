"""WuXing (seed 000; WX-1..WX-12, C-1, C-2, C-6, C-7, C-8): the companion referees every
challenge.

Two players challenge the Universe card each turn; the footer of each card says whether it
wins the pot, joins it or goes to the Void. The camera (or a phone, or the referee by hand)
reports every card that leaves a deck; the companion adjudicates and explains.

Where things are decided:

- ``rules``: the ``Rules`` object: options, the deal (WX-2), the events and every check an
  event passes (C-1 where a card can come from, C-7 who may show it), WX-12.
- ``adjudicate``: the pure resolution: WX-5, WX-6, WX-7 (cases 1-8), WX-8, WX-9, WX-11.
- ``rounds``: how the game moves on: WX-3 pairing, WX-4 Universe card, WX-10 end, the
  WX-11 sudden death.
- ``view``: what each seat sees, its actions, the last play in words; ``rulings``: the
  referee's sentences.
- ``state``: the places, phases and the frozen state.
"""

from companion.games.wuxing.rules import WuXingRules
from companion.games.wuxing.state import WuXingState

RULES = WuXingRules()

__all__ = ["RULES", "WuXingRules", "WuXingState"]
