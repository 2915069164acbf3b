"""Issue 29 §12: a DriveThruCards file is CMYK. Black text and the codes are black ink
alone (``0 0 0 1 k``), never a four-colour black; no RGB colour is left; the file names
its printing condition (``/OutputIntents``); and every code still reads after rendering.
Checked on the PDF's own content streams (decompressed with zlib, read by a small
tokenizer), for every game."""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.registry import GAMES
from printables.art import BACK_COLOURS, COLOURS
from printables.document import to_cmyk
from printables.options import PrintOptions
from printables.pod import export
from tests.printables.pdf_probe import decode, render

_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|\[|\]|/[^\s/\[\]()<>]+|[^\s/\[\]()<>]+",
                    re.S)
_OBJ = re.compile(rb"\d+ 0 obj\s*<<(.*?)>>\s*stream\r?\n", re.S)


def content_streams(pdf: bytes) -> Iterator[bytes]:
    """The decompressed page and form content streams (not fonts or their maps)."""
    for m in _OBJ.finditer(pdf):
        head = m.group(1)
        if b"/Length1" in head or b"FlateDecode" not in head:
            continue
        end = pdf.find(b"endstream", m.end())
        data = zlib.decompress(pdf[m.end():end])
        if b"begincmap" not in data:
            yield data


def paint_ops(stream: bytes) -> Iterator[tuple[str, tuple[float, ...] | None, int]]:
    """``(operator, fill colour in effect, rectangles in the path)`` for every text show
    (``Tj`` ...) and fill (``f`` ...), following ``q``/``Q`` and the colour operators."""
    fill: tuple[float, ...] | None = None
    stack: list[tuple[float, ...] | None] = []
    operands: list[bytes] = []
    rects = 0
    for tok in _TOKEN.findall(stream):
        if re.fullmatch(rb"[-+]?(?:\d+\.?\d*|\.\d+)", tok) or tok[:1] in b"(<[]/":
            operands.append(tok)
            continue
        op = tok.decode("latin-1")
        if op == "q":
            stack.append(fill)
        elif op == "Q":
            fill = stack.pop()
        elif op in ("k", "rg", "g"):
            fill = tuple(float(v) for v in operands[-{"k": 4, "rg": 3, "g": 1}[op]:])
            if op != "k":
                yield (op, fill, 0)
        elif op in ("RG", "sc", "scn", "SC", "SCN", "cs", "CS"):
            yield (op, None, 0)
        elif op == "re":
            rects += 1
        elif op in ("Tj", "TJ", "'", '"'):
            yield ("text", fill, 0)
        elif op in ("f", "f*", "F", "B", "B*", "b", "b*"):
            yield ("fill", fill, rects)
            rects = 0
        elif op in ("n", "S", "s"):
            rects = 0
        operands = []


@pytest.mark.parametrize("game", list(GAMES))
def test_dtc_file_is_cmyk_with_black_text_and_codes_in_black_ink(game: str,
                                                                   tmp_path: Path) -> None:
    res = export(game, tmp_path, "dtc", PrintOptions(), None, random.Random(5))
    pdf = next(p for p in res.files if p.suffix == ".pdf").read_bytes()
    assert b"/OutputIntents" in pdf
    intent = re.search(rb"/OutputIntents \[ <<(.*?)>> \]", pdf, re.S)
    assert intent is not None
    assert b"/S /GTS_PDFX" in intent.group(1)
    assert b"/OutputConditionIdentifier (FOGRA39)" in intent.group(1)
    assert b"/DeviceRGB" not in pdf
    texts: list[tuple[float, ...]] = []
    codes = 0
    streams = 0
    for stream in content_streams(pdf):
        streams += 1
        for op, fill, rects in paint_ops(stream):
            assert op in ("text", "fill"), f"{op} colour operator left in a DTC file"
            assert fill is not None and len(fill) == 4, f"{op} in no CMYK colour: {fill}"
            if op == "text":
                texts.append(fill)
            elif rects >= 20:  # a QR code: one path of many module runs
                assert fill == (0, 0, 0, 1), f"a code printed in {fill}"
                codes += 1
    assert codes == len(res.runs[0].cards)
    assert streams > codes
    black = [t for t in texts if t == (0, 0, 0, 1)]
    assert len(black) > len(res.runs[0].cards)  # the rule text at least, on every face
    for c, m, y, k in texts:
        # The grey part of every colour is black ink: never all three colour inks at once
        # (a four-colour grey or black), and dark words are black ink alone.
        assert min(c, m, y) == 0, f"text in four-colour ink {c, m, y, k}"
        assert not (k >= 0.85 and (c, m, y) != (0, 0, 0)), f"rich black text {c, m, y, k}"
    # The codes still read: every face page, rendered, decodes to its own card.
    rows = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["cards"]
    images = render(pdf, 150, [row["page"] for row in rows])
    read = set()
    for row in rows:
        found = decode(images[row["page"]], 150)
        assert [r.text for r in found] == [row["payload"]], f"page {row['page']}"
        read.add(found[0].text)
    payloads = {row["payload"] for row in rows}
    assert read == payloads


def test_colours_convert_to_cmyk_with_neutrals_in_black_ink_alone() -> None:
    assert to_cmyk((0, 0, 0)) == (0, 0, 0, 1)
    assert to_cmyk((1, 1, 1)) == (0, 0, 0, 0)
    assert to_cmyk((0.3, 0.3, 0.3)) == (0, 0, 0, 0.7)
    c, m, y, k = to_cmyk((0.776, 0.157, 0.157))  # fire red
    assert c == 0 and m == y and 0.75 < m < 0.85 and 0.2 < k < 0.25
    # Inks multiply: the light a colour sends back is (1 - C)(1 - K), as it was in RGB.
    for colour in (*COLOURS.values(), *BACK_COLOURS):
        cmyk = to_cmyk(colour)
        assert min(cmyk[:3]) == 0
        assert sum(cmyk) <= 2.05  # total ink of the heaviest colour: about 200 %
        for v, ink in zip(colour, cmyk[:3], strict=True):
            assert (1 - ink) * (1 - cmyk[3]) == pytest.approx(v, abs=1e-3)
