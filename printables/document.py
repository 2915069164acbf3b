"""A PDF being written: page set-up, a top-left-millimetre pen, the true-size notes.

Every page carries a "print at 100 % / actual size" note and a 50 mm check bar, and the
file asks PDF readers not to scale it (``/PrintScaling /None``) and, for duplex jobs, to
flip on the right edge (``/Duplex``). Readers that honour those preferences preselect
"actual size" and the right duplex mode in their print dialog; the note and the bar catch
the ones that do not.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from printables.art import RGB
from printables.geometry import MM, Line, Rect

NOTE = "PRINT AT 100% / ACTUAL SIZE - turn off 'fit to page' and 'shrink oversized pages'"
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

    def text(self, x: float, y: float, s: str, *, size: float, font: str = "Helvetica",
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
    """A PDF in memory; ``page(w, h)`` starts a page and returns its pen."""

    def __init__(self, title: str, *, duplex: str = "none") -> None:
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pageCompression=1, invariant=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Table Companion")
        self.canvas.setCreator("Table Companion printables")
        # Ask readers to print at actual size, and to preselect the matching duplex flip.
        self.canvas.setViewerPreference("PrintScaling", "None")
        if duplex == "long-edge":
            self.canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
        elif duplex == "short-edge":
            self.canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge")
        self.pages = 0
        self.forms: set[str] = set()  # names of reusable drawings (card backs) defined
        self._open = False

    def page(self, page_w: float, page_h: float) -> Pen:
        if self._open:
            self.canvas.showPage()
        self.canvas.setPageSize((page_w * MM, page_h * MM))
        self._open = True
        self.pages += 1
        return Pen(self.canvas, page_w, page_h)

    def finish(self) -> bytes:
        if self._open:
            self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue()


def true_size_note(pen: Pen, note: Rect, bar: Rect, label: str) -> None:
    """The 100 % note (left strip, read bottom to top) and the 50 mm bar (right strip).

    Strips narrower than 2 mm get the note along the bottom printable edge instead.
    """
    grey = (0.25, 0.25, 0.25)
    if note.w >= 2.0:
        pen.text(note.x + note.w - 0.6, note.bottom, NOTE, size=5.2, font="Helvetica-Bold",
                 colour=grey, angle=90)
    else:
        pen.text(pen.page_w / 2, pen.page_h - 5.6, NOTE, size=5.2, font="Helvetica-Bold",
                 colour=grey, align="centre")
    if bar.w >= 2.0:
        x = bar.x + 0.8
        y0 = bar.y + (bar.h - BAR_MM) / 2
        pen.line(Line(x, y0, x, y0 + BAR_MM), width=0.35)
        for y in (y0, y0 + BAR_MM):
            pen.line(Line(x - 0.7, y, x + 0.7, y), width=0.25)
        pen.text(bar.x + bar.w - 0.7, y0 + BAR_MM, f"this bar = {BAR_MM:g} mm  |  {label}",
                 size=4.6, colour=grey, angle=90)
