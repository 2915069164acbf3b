"""The designer's lab beside the report (issue 30 §3): each game as an OpenSpiel game and a
PettingZoo environment, the players of a skill ladder (random, greedy, information-set
search at several budgets), and the ratings that rank them.

It depends on ``companion`` (the simulated physical table of ``companion.seatplay``) and
on the optional ``[design]`` extra (``open_spiel``, ``pettingzoo``); nothing in
``companion`` imports it. ``report`` draws its ladder section from here.
"""

INSTALL_HINT = ("the skill ladder needs OpenSpiel: install the design extra with "
                "./scripts/setup design (or: pip install -e '.[design]')")
