"""Table Companion's pure domain: cards, payloads, print runs, rules engines, event log.

Nothing here imports OpenCV, Flask or reportlab (a test enforces it): printing, the camera
and the web referee depend on this package, never the reverse.
"""

__version__ = "0.1.0"
