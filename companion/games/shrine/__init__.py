"""Shrine of the Elemental Kings (seed 002): auctions for cards with Oinks (SK-1..SK-10).

``rules.py`` the ``Rules`` object and its events, ``adjudicate.py`` the decisions (where each
SK ruling is decided), ``view.py`` what each seat sees and the words, ``state.py`` the
table's state, ``influence.py`` the exact best split into groups (SK-10).
"""

from companion.games.shrine.adjudicate import (
    bid_refusal,
    capacity,
    distribution_sharers,
    divide,
    forbidden_units,
    influence,
    legal_bids,
    payment_bounds,
    propose_payment,
)
from companion.games.shrine.rules import RULES, ShrineRules
from companion.games.shrine.state import ShrineState, shrine_of

__all__ = [
    "RULES",
    "ShrineRules",
    "ShrineState",
    "bid_refusal",
    "capacity",
    "distribution_sharers",
    "divide",
    "forbidden_units",
    "influence",
    "legal_bids",
    "payment_bounds",
    "propose_payment",
    "shrine_of",
]
