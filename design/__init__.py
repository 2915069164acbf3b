"""The designer's lab beside the report (issue 30 §3): each game as an OpenSpiel game and a
PettingZoo environment, the players of a skill ladder (random, greedy, information-set
search at several budgets), and the ratings that rank them.

It depends on ``companion`` (the simulated physical table of ``companion.seatplay``) and
on the optional ``[design]`` extra (``open_spiel``, ``pettingzoo``); nothing in
``companion`` imports it. ``report`` draws its ladder section from here.
"""

INSTALL_HINT = ("the skill ladder needs OpenSpiel: install the design extra with "
                "./scripts/setup design (or: pip install -e '.[design]')")

# The search players' default budgets (simulations a decision), chosen so that a ladder of
# 16 games a pair ends within about 10 minutes on two cores (``companion bench ladder``).
# God Num games last about five decisions with up to 36 options each: a search needs more
# simulations than options to try each once, and there they are cheap. A Mountains &
# Rivers simulation costs the most (a playout of a long game): at 10 and 30 its ladder took
# 16 minutes on two shared cores.
LADDER_BUDGETS: dict[str, tuple[int, ...]] = {"godnum": (25, 100, 400),
                                              "mountains": (5, 20)}
DEFAULT_BUDGETS = (10, 30)


def ladder_budgets(game: str) -> tuple[int, ...]:
    """The default search budgets of ``game``'s skill ladder."""
    return LADDER_BUDGETS.get(game, DEFAULT_BUDGETS)
