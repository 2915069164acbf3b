"""The designer's playtest report (issue 22): many simulated games through the engines,
and real games recorded at tables, as one self-contained HTML file with matplotlib plots.

``companion.playtest`` plays the games and makes the figures (pure); this package runs
them on every core, reads recorded games from a data dir, and draws the report.
"""
