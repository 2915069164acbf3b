"""Helpers for tests: render PDF pages, decode QR codes, find lines and panels in mm."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import zxingcpp


def render(pdf: bytes, dpi: float, pages: list[int] | None = None) -> dict[int, np.ndarray]:
    """Grey images (0 black .. 255 white) of the given 1-based pages (all by default)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        wanted = pages if pages is not None else list(range(1, len(doc) + 1))
        out = {}
        for p in wanted:
            page = doc[p - 1]
            img = page.render(scale=dpi / 72, grayscale=True).to_numpy()
            out[p] = np.asarray(img).reshape(img.shape[0], img.shape[1]).copy()
            page.close()
        return out
    finally:
        doc.close()


@dataclass(frozen=True)
class Read:
    text: str
    cx_mm: float
    cy_mm: float
    width_mm: float


def decode(img: np.ndarray, dpi: float) -> list[Read]:
    px = 25.4 / dpi
    out = []
    for r in zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCodeModel2):
        p = r.position
        xs = [p.top_left.x, p.top_right.x, p.bottom_right.x, p.bottom_left.x]
        ys = [p.top_left.y, p.top_right.y, p.bottom_right.y, p.bottom_left.y]
        out.append(Read(r.text, sum(xs) / 4 * px, sum(ys) / 4 * px, (max(xs) - min(xs)) * px))
    return out


def line_centres(profile: np.ndarray, dpi: float, max_width_mm: float = 0.6,
                 threshold: float = 40.0) -> list[float]:
    """Centres (mm) of thin dark lines along a 1-D grey profile, darkness-weighted."""
    dark = 255.0 - profile.astype(float)
    px = 25.4 / dpi
    n = len(dark)
    out = []
    for i, j in _true_runs(dark > threshold):
        if (j - i) * px <= max_width_mm:
            lo, hi = max(0, i - 1), min(n, j + 1)
            w = dark[lo:hi]
            idx = np.arange(lo, hi)
            out.append(float((w * idx).sum() / w.sum() + 0.5) * px)
    return out


def _true_runs(on: np.ndarray) -> list[tuple[int, int]]:
    """``(start, end)`` index pairs (end exclusive) of the runs of True in ``on``."""
    runs = []
    i, n = 0, len(on)
    while i < n:
        if not on[i]:
            i += 1
            continue
        j = i
        while j < n and on[j]:
            j += 1
        runs.append((i, j))
        i = j
    return runs


def dark_runs(profile: np.ndarray, dpi: float, level: float = 128.0) -> list[tuple[float, float]]:
    """Runs darker than ``level`` along a profile, as (start mm, end mm) with sub-pixel edges.

    Edges are unbiased when ``level`` is halfway between the paper and the run's colour.
    """
    v = profile.astype(float)
    px = 25.4 / dpi
    n = len(v)
    runs = []
    for i, j in _true_runs(v < level):
        # pixel k covers [k, k + 1): the crossing lies between the centres of two pixels
        start = i - 0.5 + _frac(v, i - 1, i, level) if i > 0 else 0.0
        end = j - 0.5 + _frac(v, j - 1, j, level) if j < n else float(n)
        runs.append((start * px, end * px))
    return runs


def _frac(v: np.ndarray, a: int, b: int, level: float) -> float:
    """Where between pixel a and pixel b the profile crosses ``level`` (0..1 from a)."""
    if v[b] == v[a]:
        return 0.5
    return float(min(1.0, max(0.0, (level - v[a]) / (v[b] - v[a]))))


def text_of(pdf: bytes) -> str:
    """All text drawn in the PDF, page after page."""
    doc = pdfium.PdfDocument(pdf)
    try:
        parts = []
        for page in doc:
            tp = page.get_textpage()
            parts.append(tp.get_text_range())
            tp.close()
            page.close()
        return "\n".join(parts)
    finally:
        doc.close()


def page_texts(pdf: bytes) -> list[str]:
    """The text drawn on each page, in page order."""
    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in doc:
            tp = page.get_textpage()
            out.append(tp.get_text_range())
            tp.close()
            page.close()
        return out
    finally:
        doc.close()


@dataclass(frozen=True)
class Char:
    """One drawn character: its box in page mm (top-left origin) and its size in points."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float


def chars(pdf: bytes) -> dict[int, list[Char]]:
    """Every visible character of every page (1-based), with pdfium's glyph box and
    font size (``FPDFText_GetFontSize``)."""
    import pypdfium2.raw as raw

    mm = 25.4 / 72
    doc = pdfium.PdfDocument(pdf)
    try:
        out: dict[int, list[Char]] = {}
        for i, page in enumerate(doc):
            h = page.get_height()
            tp = page.get_textpage()
            found = []
            for k in range(tp.count_chars()):
                ch = chr(raw.FPDFText_GetUnicode(tp, k))
                if ch.isspace() or not ch.isprintable():
                    continue
                left, bottom, right, top = tp.get_charbox(k)
                found.append(Char(ch, left * mm, (h - top) * mm, right * mm, (h - bottom) * mm,
                                  float(raw.FPDFText_GetFontSize(tp, k))))
            out[i + 1] = found
            tp.close()
            page.close()
        return out
    finally:
        doc.close()
