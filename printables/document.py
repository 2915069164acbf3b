"""A PDF being written: page set-up, a top-left-millimetre pen, the true-size notes.

Every page carries a "print at 100 % / actual size" note and a 50 mm check bar, and the
file asks PDF readers not to scale it (``/PrintScaling /None``) and, for duplex jobs, to
flip on the right edge (``/Duplex``). Readers that honour those preferences preselect
"actual size" and the right duplex mode in their print dialog; the note and the bar catch
the ones that do not.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, toColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString
from reportlab.pdfgen.canvas import Canvas

from printables import fonts
from printables.art import RGB
from printables.geometry import MM, Line, Rect

# Compressed streams stay binary: ASCII85 on top makes every PDF 25 % larger and costs
# time (in pure Python) for nothing a modern reader or print shop needs.
rl_config.useA85 = 0

NOTE = "PRINT AT 100% / ACTUAL SIZE: no 'fit to page'"
NOTE_PT = 6.0  # nothing a person must read is smaller than 6 pt
GREY = (0.35, 0.35, 0.35)
BLANK = "(this side intentionally blank)"
BAR_MM = 50.0


class Pen:
    """Draws in millimetres from the top-left corner of the current page."""

    def __init__(self, canvas: Canvas, page_w: float, page_h: float) -> None:
        self.c = canvas
        self.page_w = page_w
        self.page_h = page_h

    def _paint(self, fill: RGB | None, stroke: RGB | None, width: float) -> None:
        """Set fill and stroke (``width`` in mm) for the next shape; inside save/restore."""
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        if stroke is not None:
            self.c.setStrokeColorRGB(*stroke)
            self.c.setLineWidth(width * MM)

    def rect(self, r: Rect, *, fill: RGB | None = None, stroke: RGB | None = None,
             width: float = 0.25, radius: float = 0.0) -> None:
        c = self.c
        c.saveState()
        self._paint(fill, stroke, width)
        args = (r.x * MM, (self.page_h - r.bottom) * MM, r.w * MM, r.h * MM)
        if radius > 0:
            c.roundRect(*args, radius * MM, stroke=int(stroke is not None),
                        fill=int(fill is not None))
        else:
            c.rect(*args, stroke=int(stroke is not None), fill=int(fill is not None))
        c.restoreState()

    def line(self, ln: Line, *, colour: RGB = (0, 0, 0), width: float = 0.2,
             dash: tuple[float, float] | None = None) -> None:
        """A straight line; ``dash`` is (on, off) in mm for a dashed one."""
        c = self.c
        c.saveState()
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width * MM)
        if dash is not None:
            c.setDash([dash[0] * MM, dash[1] * MM])
        c.line(ln.x1 * MM, (self.page_h - ln.y1) * MM, ln.x2 * MM, (self.page_h - ln.y2) * MM)
        c.restoreState()

    def text(self, x: float, y: float, s: str, *, size: float, font: str = fonts.SANS,
             colour: RGB = (0, 0, 0), align: str = "left", angle: float = 0.0) -> None:
        """Text with its baseline at page mm ``y`` (``size`` in points)."""
        c = self.c
        c.saveState()
        c.setFillColorRGB(*colour)
        c.setFont(font, size)
        c.translate(x * MM, (self.page_h - y) * MM)
        if angle:
            c.rotate(angle)
        draw = {"left": c.drawString, "centre": c.drawCentredString,
                "right": c.drawRightString}[align]
        draw(0, 0, s)
        c.restoreState()

    def circle(self, cx: float, cy: float, r: float, *, fill: RGB | None = None,
               stroke: RGB | None = None, width: float = 0.25) -> None:
        c = self.c
        c.saveState()
        self._paint(fill, stroke, width)
        c.circle(cx * MM, (self.page_h - cy) * MM, r * MM, stroke=int(stroke is not None),
                 fill=int(fill is not None))
        c.restoreState()


class Document:
    """A PDF in memory; ``page(w, h)`` starts a page and returns its pen.

    Pages are *accessory* pages (tokens, trackers, board, mat, guide) unless started with
    ``sided=True`` (a sheet of card fronts, its back page, the calibration pair). In a
    duplex job each accessory page is followed by its own blank back, inserted here when
    the next page starts (or the file ends), so no accessory sheet ever lands on the back
    of another and every card front stays on an odd page.
    """

    def __init__(self, title: str, *, duplex: str = "none", cmyk: bool = False) -> None:
        fonts.register()
        self.buffer = io.BytesIO()
        # The initial font too: otherwise reportlab lists Helvetica (not embedded) anyway.
        # ``cmyk``: every colour set is written as CMYK (``to_cmyk``), with an output
        # intent (``add_output_intent``): a print shop's file (issue 29 §12).
        self.canvas = Canvas(self.buffer, pageCompression=1, invariant=1,
                             initialFontName=fonts.SANS,
                             enforceColorSpace=to_cmyk if cmyk else None)
        if cmyk:
            add_output_intent(self.canvas)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Table Companion")
        self.canvas.setCreator("Table Companion printables")
        # Ask readers to print at actual size, and to preselect the matching duplex flip.
        self.canvas.setViewerPreference("PrintScaling", "None")
        if duplex == "long-edge":
            self.canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
        elif duplex == "short-edge":
            self.canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge")
        self.duplex = duplex
        self.pages = 0
        self.blank_backs: list[int] = []  # page numbers of the blank backs inserted
        self.forms: set[str] = set()  # names of reusable drawings (card backs) defined
        self._open = False
        self._size = (0.0, 0.0)
        self._needs_back = False

    def page(self, page_w: float, page_h: float, *, sided: bool = False,
             trim: Rect | None = None, bleed: float = 0.0) -> Pen:
        """Start a page of ``page_w`` x ``page_h`` mm.

        ``trim`` (page mm) is the finished piece when the page is one piece with ``bleed``
        mm of colour around it (a print-on-demand card): the page then carries that
        TrimBox and BleedBox. Otherwise both are the whole page, which is what a home
        printer's sheet is.
        """
        self._close_page()
        self._new_page(page_w, page_h, trim, bleed)
        self._needs_back = not sided and self.duplex != "none"
        return Pen(self.canvas, page_w, page_h)

    def _new_page(self, page_w: float, page_h: float, trim: Rect | None, bleed: float) -> None:
        self.canvas.setPageSize((page_w * MM, page_h * MM))
        t = trim if trim is not None else Rect(0.0, 0.0, page_w, page_h)
        b = t.grow(bleed) if trim is not None else t

        def box(r: Rect) -> tuple[float, float, float, float]:
            return (r.x * MM, (page_h - r.bottom) * MM, r.right * MM, (page_h - r.y) * MM)

        self.canvas.setTrimBox(box(t))
        self.canvas.setBleedBox(box(b))
        self._open = True
        self._size = (page_w, page_h)
        self.pages += 1

    def _close_page(self) -> None:
        if not self._open:
            return
        self.canvas.showPage()
        self._open = False
        if self._needs_back:
            self._needs_back = False
            w, h = self._size
            self._new_page(w, h, None, 0.0)
            pen = Pen(self.canvas, w, h)
            pen.text(w / 2, h / 2, BLANK, size=7, colour=(0.6, 0.6, 0.6), align="centre")
            page_note(pen, f"back of page {self.pages - 1}")
            self.blank_backs.append(self.pages)
            self.canvas.showPage()
            self._open = False

    def finish(self) -> bytes:
        self._close_page()
        self.canvas.save()
        return self.buffer.getvalue()


# The printing condition a CMYK file is made for: offset on coated paper, the ICC's
# registered characterisation FOGRA39 (ISO 12647-2:2004, paper type 1 or 2).
OUTPUT_CONDITION = "FOGRA39"
OUTPUT_CONDITION_INFO = "Coated FOGRA39 (ISO 12647-2:2004)"
ICC_REGISTRY = "http://www.color.org"


def to_cmyk(colour: Any) -> tuple[float, float, float, float]:
    """A colour as CMYK, for reportlab's ``enforceColorSpace``.

    Neutral colours (black text, the codes, grey serials) become black ink alone: black
    text and codes come out ``0 0 0 1``, never the four-colour black a print shop's own
    conversion makes of RGB black (C72 M68 Y67 K89 at DriveThruCards, issue 29 §12), which
    smears when the four plates do not meet exactly. Other colours take the plain
    conversion with full grey replacement (the grey part of a colour is black ink, so no
    colour uses all three colour inks); no ICC profile is applied (none ships with the
    project), so a colour may print a little off its screen colour.
    """
    if isinstance(colour, tuple) and len(colour) == 4:
        return (float(colour[0]), float(colour[1]), float(colour[2]), float(colour[3]))
    c = toColor(colour)
    if isinstance(c, CMYKColor):
        d = c.density
        return (d * c.cyan, d * c.magenta, d * c.yellow, d * c.black)
    r, g, b = float(c.red), float(c.green), float(c.blue)
    if abs(r - g) < 1e-6 and abs(g - b) < 1e-6:
        return (0.0, 0.0, 0.0, round(1.0 - r, 4))
    # Inks multiply: (1 - C)(1 - K) of the light comes back, so C = (1 - R - K) / (1 - K).
    # (reportlab's rgb2cmyk leaves out the division: its colours print washed out.)
    black = 1.0 - max(r, g, b)
    return (round((1 - r - black) / (1 - black), 4), round((1 - g - black) / (1 - black), 4),
            round((1 - b - black) / (1 - black), 4), round(black, 4))


def add_output_intent(canvas: Canvas) -> None:
    """An ``/OutputIntents`` entry in the file's catalogue: the colours are meant for
    ``OUTPUT_CONDITION``. The registered condition is named, with no ICC profile embedded
    (``DestOutputProfile``): PDF/X-1a and PDF/X-3 allow that for a condition in the ICC
    registry; PDF/X-4 would need the profile, and no CMYK profile ships with the project.
    The file does not claim PDF/X conformance."""
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"),
        "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION),
        "OutputCondition": PDFString(OUTPUT_CONDITION_INFO),
        "RegistryName": PDFString(ICC_REGISTRY),
        "Info": PDFString(OUTPUT_CONDITION_INFO),
    })
    catalog = canvas._doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])


def page_note(pen: Pen, label: str) -> None:
    """The 100 % note and a 50 mm bar along the bottom of a non-card page."""
    y = pen.page_h - 5.6
    pen.text(5.5, y, NOTE, size=NOTE_PT, font=fonts.BOLD, colour=GREY)
    x1 = pen.page_w - 5.5
    pen.line(Line(x1 - BAR_MM, y - 3.0, x1, y - 3.0), width=0.35)
    for x in (x1 - BAR_MM, x1):
        pen.line(Line(x, y - 3.7, x, y - 2.3), width=0.25)
    pen.text(x1, y, f"bar = 50 mm | {label}", size=NOTE_PT, colour=GREY, align="right")


def true_size_note(pen: Pen, note: Rect, bar: Rect, label: str) -> None:
    """The 100 % note (left strip, read bottom to top) and the 50 mm bar (right strip).

    Strips narrower than 2 mm get the note along the bottom printable edge instead.
    """
    grey = (0.25, 0.25, 0.25)
    if note.w >= 2.0:
        pen.text(note.x + note.w - 0.5, note.bottom, NOTE, size=NOTE_PT, font=fonts.BOLD,
                 colour=grey, angle=90)
    else:
        pen.text(pen.page_w / 2, pen.page_h - 5.6, NOTE, size=NOTE_PT, font=fonts.BOLD,
                 colour=grey, align="centre")
    if bar.w >= 2.0:
        x = bar.x + 0.8
        y0 = bar.y + (bar.h - BAR_MM) / 2
        pen.line(Line(x, y0, x, y0 + BAR_MM), width=0.35)
        for y in (y0, y0 + BAR_MM):
            pen.line(Line(x - 0.7, y, x + 0.7, y), width=0.25)
        pen.text(bar.x + bar.w - 0.5, y0 + BAR_MM, f"bar = {BAR_MM:g} mm | {label}",
                 size=NOTE_PT, colour=grey, angle=90)
