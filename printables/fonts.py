"""The fonts every printed page uses, embedded in the PDF.

The 14 standard PDF fonts (Helvetica, Courier) are not embedded: a print shop's preflight
rejects them and a reader without them substitutes a font with other widths, which breaks
the spacing of a card's text. We use Bitstream Vera Sans, which reportlab itself ships
(``reportlab/fonts``, Bitstream Vera licence: free to embed and redistribute), so the
package brings its own fonts and never depends on what the machine has installed.
reportlab embeds a subset of each TrueType font it draws with.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

SANS = "TC-Sans"
BOLD = "TC-Sans-Bold"
ITALIC = "TC-Sans-Oblique"
# Serials are read character by character: Vera's 0/O and 1/l differ clearly enough.
SERIAL = "TC-Sans"

_FILES = {SANS: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf"}


@lru_cache(maxsize=1)
def register() -> tuple[str, ...]:
    """Register the fonts with reportlab (once); returns their names."""
    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, file))
    return tuple(_FILES)


def width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points (the fonts are registered first)."""
    register()
    return float(pdfmetrics.stringWidth(text, font, size))


register()  # at import: layout code measures text with these fonts before any page exists
