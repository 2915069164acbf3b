"""The printed God Num cards carry the revision-2 texts (GN-3 Burden, GN-6 number 1s)."""

from __future__ import annotations

import random
import re

import pypdfium2 as pdfium

from printables.jobs import build
from printables.options import PrintOptions


def pdf_text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        parts = []
        for i in range(len(doc)):
            page = doc[i]
            parts.append(page.get_textpage().get_text_range())
            page.close()
        return re.sub(r"\s+", " ", " ".join(parts))
    finally:
        doc.close()


def test_printed_godnum_cards_carry_burden_and_the_number_1_wording() -> None:
    pdf, manifest, _ = build("godnum", PrintOptions(players=2), random.Random(3))
    faces = [c["face"] for c in manifest["cards"]]
    # GN-2 rev. 2: a print holds all five legions; GN-3 rev. 2: four Burdens each.
    assert sum(1 for f in faces if f.endswith("-burden")) == 5 * 4
    assert not any("cleanse" in f for f in faces)
    text = pdf_text(pdf)
    assert "Burden" in text and "Cleanse" not in text
    assert "discard one card of their choice" in text
    assert not re.search(r"on (Metal|Water|Wood|Fire|Earth) below 1,", text)
    assert "as no number is below 1" in text
