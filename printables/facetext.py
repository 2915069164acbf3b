"""A card's rule text set in a box: plain paragraphs, or a list of labelled items.

A text made of labelled parts ("Basic skill (free): ... Skill 1 (1 HP): ...", a Mountains
& Rivers character) is set as a list: each part on its own line, its label in bold and
never broken ("Skill 3 (3 HP)" stays on one line), continuation lines indented. Anything
else is one paragraph. Sizes run from 8.5 pt down to 7 pt, the smallest a player reads
(issue 29 §11); at 7 pt the lines close up (``TIGHT``, down to type set solid) rather than
the type shrink.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printables import fonts
from printables.geometry import MM, PrintError, Rect

MIN_TEXT_PT = 7.0
LEADING = 1.15
# The last resorts at the smallest size: lines closer, never smaller type. At 1.0 (set
# solid) Vera's descenders (0.24 em) and ascenders (0.76 em) still do not touch.
TIGHT = (1.08, 1.04, 1.0)
INDENT_MM = 2.0
# Vera's tallest letters and brackets reach 0.76 em above the baseline, its descenders
# 0.24 em below: a text box holds the letters themselves, so the safe line is kept exactly.
ASCENT = 0.76
DESCENT = 0.24
# "Basic skill (free):", "Skill 2 (2 HP):": a label, its cost in brackets, a colon.
_ITEM = re.compile(r"(?:^|\s)((?:Basic skill|Skill \d+) \([^)]*\)):\s*")


@dataclass(frozen=True)
class Run:
    """Words set in one font on one line, starting ``x`` points from the line's start."""

    x: float
    text: str
    font: str


@dataclass(frozen=True)
class SetText:
    size: float
    lines: tuple[tuple[Run, ...], ...]
    leading: float = LEADING

    @property
    def line_mm(self) -> float:
        return self.size * self.leading / MM

    @property
    def ascent_mm(self) -> float:
        """From the top of the tallest letters (and brackets) to the first baseline."""
        return ASCENT * self.size / MM

    @property
    def height_mm(self) -> float:
        """From the top of the first line's tallest letters to the bottom of the last
        line's descenders: the lines' own room, no empty leading above or below."""
        if not self.lines:
            return 0.0
        return (len(self.lines) - 1) * self.line_mm + (ASCENT + DESCENT) * self.size / MM


def items(text: str) -> list[tuple[str, str]]:
    """``(label, body)`` parts of ``text``: several for a labelled list, else one with no
    label."""
    marks = list(_ITEM.finditer(text))
    if len(marks) < 2 or text[: marks[0].start()].strip():
        return [("", text)]
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((m.group(1) + ":", text[m.end():end].strip()))
    return out


def _wrap(label: str, body: str, size: float, width: float) -> list[tuple[Run, ...]]:
    """Greedy lines of one item, ``width`` in points; the label is one unbreakable word."""
    space = fonts.width(" ", fonts.SANS, size)
    indent = INDENT_MM * MM if label else 0.0
    words = ([(label, fonts.BOLD)] if label else []) + [(w, fonts.SANS) for w in body.split()]
    lines: list[tuple[Run, ...]] = []
    runs: list[Run] = []
    x = 0.0
    start = 0.0
    for word, font in words:
        w = fonts.width(word, font, size)
        if runs and x + space + w > width:
            lines.append(tuple(runs))
            runs, x = [], indent
            start = indent
        at = x + (space if runs else 0.0)
        if runs and runs[-1].font == font:
            last = runs[-1]
            runs[-1] = Run(last.x, last.text + " " + word, font)
        else:
            runs.append(Run(at if runs else start, word, font))
        x = at + w
    if runs:
        lines.append(tuple(runs))
    return lines


def set_text(text: str, box: Rect, start: float = 8.5, floor: float = MIN_TEXT_PT,
             tight: tuple[float, ...] = TIGHT) -> SetText | None:
    """The largest size (points, ``start`` down to ``floor``) at which ``text`` fits
    ``box``, or None; at ``floor`` the lines may close up to the leadings ``tight``."""
    parts = items(text)
    size = start
    while size >= floor - 1e-9:
        lines: list[tuple[Run, ...]] = []
        for label, body in parts:
            lines += _wrap(label, body, size, box.w * MM)
        for leading in (LEADING, *tight) if size < floor + 1e-9 else (LEADING,):
            st = SetText(size, tuple(lines), leading)
            if st.height_mm <= box.h + 1e-6:
                return st
        size -= 0.25
    return None


def fit(text: str, box: Rect, floor: float = MIN_TEXT_PT) -> SetText:
    """``set_text`` or a ``PrintError`` naming the text that does not fit."""
    st = set_text(text, box, floor=floor)
    if st is None:
        raise PrintError(f"card text is too long for a {box.w:.0f}x{box.h:.0f} mm text box "
                         f"at {floor:g} pt: {text[:60]!r}...")
    return st
