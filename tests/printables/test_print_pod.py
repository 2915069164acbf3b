"""Issue 21 §4: print-on-demand exports (MakePlayingCards PNGs, DriveThruCards PDF), fonts
embedded in every PDF, trim and bleed boxes, repeated exports and --copies."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
import zxingcpp
from pdf_probe import decode, render
from PIL import Image

from companion.runs import RunBook, RunStore
from printables.geometry import PrintError
from printables.jobs import build
from printables.options import PrintOptions
from printables.pod import SERVICES, export

MODEL2 = zxingcpp.BarcodeFormat.QRCodeModel2


def test_mpc_export_is_one_png_per_card_that_reads_as_its_card(tmp_path: Path) -> None:
    out, data = tmp_path / "mpc", tmp_path / "data"
    result = export("mountains", out, "mpc", PrintOptions(), data, random.Random(4))
    m = json.loads((out / "manifest.json").read_text())
    (run,) = result.runs
    assert m["pod"] == "mpc" and m["pixels"] == [822, 1122]
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    fronts = [f"{c.deck}/{c.serial}.png" for c in run.cards]
    backs = sorted({f"{c.deck}/back.png" for c in run.cards})
    assert names == sorted([*fronts, *backs, "manifest.json"])
    # character, weapon, challenge and chance backs differ: one folder per back design,
    # each holding its fronts and its one back (MakePlayingCards' "same back" upload).
    assert len(backs) == 4
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(
        {c.deck for c in run.cards})
    book = RunBook(RunStore(data).all())
    for row in m["cards"]:
        img = Image.open(out / row["file"])
        assert img.size == (822, 1122) and img.mode == "RGB"
        assert round(img.info["dpi"][0]) == 300
        grey = np.asarray(img.convert("L"))
        got = [r.text for r in zxingcpp.read_barcodes(grey, formats=MODEL2)]
        assert got == [row["payload"]], row["serial"]
        assert book.resolve(row["payload"]).serial == row["serial"]
        assert row["back_file"] in backs
    for back in backs:  # a back carries no code
        grey = np.asarray(Image.open(out / back).convert("L"))
        assert not zxingcpp.read_barcodes(grey, formats=MODEL2)


def test_dtc_export_is_one_card_per_page_with_trim_and_bleed_boxes(tmp_path: Path) -> None:
    out = tmp_path / "dtc"
    result = export("shrine", out, "dtc", PrintOptions(), None, random.Random(4))
    (run,) = result.runs
    svc = SERVICES["dtc"]
    pdf = (out / f"shrine-{run.run_id}.pdf").read_bytes()
    m = json.loads((out / "manifest.json").read_text())
    doc = pdfium.PdfDocument(pdf)
    try:
        assert len(doc) == 2 * len(run.cards)
        mm = 72 / 25.4
        for i in range(len(doc)):
            page = doc[i]
            w, h = page.get_size()
            assert (w / mm, h / mm) == pytest.approx(svc.page, abs=0.01)
            assert page.get_bleedbox() == pytest.approx((0, 0, w, h), abs=0.01)
            b = svc.bleed * mm
            assert page.get_trimbox() == pytest.approx((b, b, w - b, h - b), abs=0.01)
    finally:
        doc.close()
    images = render(pdf, 200)
    for row in m["cards"]:
        assert [r.text for r in decode(images[row["page"]], 200)] == [row["payload"]]
        assert decode(images[row["back_page"]], 200) == []


def _fonts(pdf: bytes) -> tuple[list[str], int]:
    names = [n.decode() for n in re.findall(rb"/BaseFont\s*/([^\s/>\]]+)", pdf)]
    return names, pdf.count(b"/FontFile2")


@pytest.mark.parametrize("what", ["mountains", "board", "calibration", "mat"])
def test_every_pdf_embeds_its_fonts(what: str) -> None:
    pdf, _, _ = build(what, PrintOptions(backs="long-edge" if what != "mat" else "none"),
                      random.Random(1))
    names, files = _fonts(pdf)
    assert names, "no fonts at all?"
    assert not any(n.startswith(("Helvetica", "Courier", "Times")) for n in names), names
    assert files >= len(set(names)) - names.count("ZapfDingbats")


def test_sheets_with_bleed_carry_trim_and_bleed_boxes() -> None:
    pdf, _, _ = build("shrine", PrintOptions(bleed=2.0), random.Random(1))
    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            page = doc[i]
            w, h = page.get_size()
            # a home sheet is the finished piece: trim and bleed are the page
            assert page.get_trimbox() == pytest.approx((0, 0, w, h), abs=0.01)
            assert page.get_bleedbox() == pytest.approx((0, 0, w, h), abs=0.01)
    finally:
        doc.close()


def test_a_second_export_warns_and_copies_make_distinct_serials(tmp_path: Path) -> None:
    out, data = tmp_path / "x", tmp_path / "data"
    first = export("gemcomplete", out, "mpc", PrintOptions(), data, random.Random(1))
    assert first.warnings == ()
    second = export("gemcomplete", out, "mpc", PrintOptions(copies=2), data, random.Random(2))
    (warning,) = second.warnings
    assert first.runs[0].run_id in warning and "--copies" in warning
    files = {p.name for p in out.iterdir()}
    # the first export's cards are gone from the folder; both runs stay registered
    assert not any(n.startswith(first.runs[0].run_id) for n in files)
    serials = [c.serial for c in second.runs[0].cards]
    assert len(serials) == 2 * len(first.runs[0].cards) == len(set(serials))
    assert {r.run_id for r in RunStore(data).all()} == {first.runs[0].run_id,
                                                        second.runs[0].run_id}


def test_cli_pod_export_says_to_order_once(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    cmd = [sys.executable, "-m", "companion_cli", "print", "shrine", "--pod", "dtc", "--out",
           str(out), "--data-dir", str(tmp_path / "data")]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert "Order these files once" in done.stdout and "--copies" in done.stdout
    bad = subprocess.run([*cmd[:5], "--pod", "xyz", "--out", str(out)], capture_output=True,
                         text=True, cwd=Path(__file__).resolve().parents[2])
    assert bad.returncode == 2 and "xyz" in bad.stderr


@pytest.mark.parametrize("service", ["mpc", "dtc"])
def test_pod_backs_run_to_the_bleed_edge_with_no_white_frame(tmp_path: Path,
                                                             service: str) -> None:
    """Issue 29 §10: the coloured back reaches the bleed edge, so a 1.5 mm cutting error
    leaves no white border of a different width on each card."""
    out = tmp_path / service
    export("wuxing", out, service, PrintOptions(), None, random.Random(2))
    m = json.loads((out / "manifest.json").read_text())
    svc = SERVICES[service]
    if service == "mpc":
        backs = [np.asarray(Image.open(out / f).convert("RGB"))
                 for f in sorted({r["back_file"] for r in m["cards"]})]
    else:
        pdf = next(out.glob("*.pdf")).read_bytes()
        images = render(pdf, 300)
        # dtc: a back page behind every front; one of each deck is enough.
        first = {r["deck"]: r["back_page"] for r in m["cards"]}
        backs = [images[p][..., None] for p in sorted(set(first.values()))]  # grey
    assert len(backs) == 2  # the player deck's and the Universe deck's
    for img in backs:
        w = img.shape[1]
        px_mm = w / svc.page[0]
        # Every pixel within 4.5 mm of the trim line, inside and out, is back colour: a
        # cut anywhere in the +-1.5 mm a cutter strays lands in colour.
        band = round(4.5 * px_mm)
        edges = [img[:band], img[-band:], img[:, :band], img[:, -band:]]
        for e in edges:
            white = (e.min(axis=2) > 235).mean()
            assert white < 0.01, f"{service}: {white:.1%} of the edge band is white"


def test_pod_honours_back_style_and_refuses_sheet_options_by_name(tmp_path: Path) -> None:
    """Issue 29 §13: --pod used to drop --card, --bleed and --back-style silently."""
    out = tmp_path / "saver"
    export("shrine", out, "mpc", PrintOptions(back_style="ink-saver"), None, random.Random(1))
    back = np.asarray(Image.open(next(out.rglob("back.png"))).convert("L"))
    assert (back > 235).mean() > 0.8  # outlines on white paper
    for opts, named in ((PrintOptions(card="bridge"), "--card bridge"),
                        (PrintOptions(bleed=3.0), "--bleed 3"),
                        (PrintOptions(backs="long-edge"), "--backs long-edge"),
                        (PrintOptions(back_offset=(1.0, 0.0)), "--back-offset")):
        with pytest.raises(PrintError, match=re.escape(named)):
            export("shrine", tmp_path / "no", "dtc", opts, None, random.Random(1))
    assert not (tmp_path / "no").exists()
