"""``companion print``: files, manifest, registration, and bad input refused before writing."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import companion_cli
from companion.runs import RunBook, RunStore
from printables import qr
from printables.geometry import PrintError
from printables.jobs import build, make_job
from printables.options import PrintOptions


def _listing(*dirs: Path) -> list[str]:
    return sorted(str(p) for d in dirs if d.exists() for p in d.rglob("*"))


def test_print_writes_pdf_and_manifest_and_registers_the_run(tmp_path: Path) -> None:
    out = tmp_path / "wx.pdf"
    res = make_job("wuxing", out, PrintOptions(backs="long-edge"), tmp_path / "data",
                   random.Random(1))
    assert out.read_bytes().startswith(b"%PDF")
    manifest = json.loads((tmp_path / "wx.manifest.json").read_text())
    assert manifest["run"] == res.runs[0].run_id
    assert manifest["paper"] == "a4" and manifest["backs"] == "long-edge"
    # the web server reads the same <data-dir>/runs/: the referee accepts exactly these
    stored = RunStore(tmp_path / "data").load(res.runs[0].run_id)
    assert [c.serial for c in stored.cards] == [c["serial"] for c in manifest["cards"]]
    book = RunBook([stored])
    assert book.resolve(manifest["cards"][5]["payload"]).serial == manifest["cards"][5]["serial"]
    registered = json.loads(res.registered[0].read_text())
    assert registered["cards"][0]["page"] == 1 and registered["card_size_mm"] == [63.0, 88.0]
    # ordinary file permissions (not mkstemp's private 0600)
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    # no temporary files left beside the outputs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "wx.manifest.json", "wx.pdf"]


def test_a_new_run_never_reuses_a_registered_run_id(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = make_job("shrine", tmp_path / "a.pdf", PrintOptions(extras=False), data,
                     random.Random(9))
    # the same random stream would draw the same id again: it must be skipped
    second = make_job("shrine", tmp_path / "b.pdf", PrintOptions(extras=False), data,
                      random.Random(9))
    assert first.runs[0].run_id != second.runs[0].run_id
    assert len(RunStore(data).all()) == 2
    with pytest.raises(PrintError, match="already registered"):
        make_job("shrine", tmp_path / "c.pdf",
                 PrintOptions(extras=False, run_ids={"shrine": first.runs[0].run_id}), data)


def test_viewer_preferences_ask_for_actual_size_and_the_duplex_flip() -> None:
    pdf, _, _ = build("shrine", PrintOptions(backs="short-edge", extras=False),
                      random.Random(1))
    assert b"/PrintScaling /None" in pdf
    assert b"/Duplex /DuplexFlipShortEdge" in pdf


def test_players_prints_what_the_table_needs() -> None:
    # WX-2: 5-8 players need two player decks (and one universe deck)
    _, m, _runs = build("wuxing", PrintOptions(players=6, extras=False), random.Random(1))
    decks: dict[tuple[str, int], int] = {}
    for c in m["cards"]:
        decks[(c["deck"], c["set"])] = decks.get((c["deck"], c["set"]), 0) + 1
    assert decks == {("player", 1): 44, ("player", 2): 44, ("universe", 1): 24}
    _, m2, _ = build("wuxing", PrintOptions(players=3, copies=2, extras=False),
                     random.Random(1))
    assert len(m2["cards"]) == 2 * 68


def test_copies_and_players_are_checked() -> None:
    with pytest.raises(PrintError, match="copies"):
        build("wuxing", PrintOptions(copies=0))
    with pytest.raises(PrintError, match="2-8 players"):
        build("wuxing", PrintOptions(players=9))


def test_payloads_stay_at_qr_version_1() -> None:
    assert len(qr.matrix("T1:W:UWO:ZZZZ:ZZZ:Z")) == 21
    with pytest.raises(PrintError, match="version 2"):
        qr.matrix("T1:W:UWO:ZZZZ:ZZZ:ZZZZZZ")
    with pytest.raises(PrintError, match="version"):
        qr.matrix("t1:w:lowercase-is-byte-mode")


BAD = [
    (["nogame"], "unknown game or printable 'nogame'"),
    (["wuxing", "--paper", "a5"], "unknown paper 'a5'"),
    (["wuxing", "--paper", "a3"], "unknown paper 'a3'"),
    (["wuxing", "--card", "tarot"], "unknown card size 'tarot'"),
    (["wuxing", "--card", "250x220"], "does not fit on a4"),
    (["wuxing", "--backs", "long-edge", "--back-offset", "9,0"], "off the printable area"),
    (["wuxing", "--backs", "short-edge", "--back-offset", "0,-14"], "off the printable area"),
    (["wuxing", "--back-offset", "1;2"], "back offset"),
    (["wuxing", "--bleed", "9"], "bleed"),
    (["wuxing", "--copies", "0"], "copies"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "out" / "cards.pdf"
    out.parent.mkdir()
    data = tmp_path / "data"
    code = companion_cli.main(["print", *args, "--out", str(out), "--data-dir", str(data)])
    assert code == 2
    assert message in capsys.readouterr().err
    assert _listing(out.parent, data) == []


def test_unwritable_output_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with pytest.raises(PrintError, match="does not exist"):
        make_job("wuxing", tmp_path / "missing" / "x.pdf", PrintOptions(), data)
    with pytest.raises(PrintError, match=r"must be a \.pdf"):
        make_job("wuxing", tmp_path / "x.txt", PrintOptions(), data)
    (tmp_path / "dir.pdf").mkdir()
    with pytest.raises(PrintError, match="is a directory"):
        make_job("wuxing", tmp_path / "dir.pdf", PrintOptions(), data)
    if os.geteuid() != 0:  # root may write anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        with pytest.raises(PrintError, match="not writable"):
            make_job("wuxing", ro / "x.pdf", PrintOptions(), data)
    assert not data.exists()
    assert not list(tmp_path.glob("*.pdf")) or (tmp_path / "dir.pdf").is_dir()


def test_a_failure_while_writing_leaves_nothing_behind(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "x.pdf"
    data = tmp_path / "data"
    calls = {"n": 0}
    real = os.replace

    def flaky(src: str, dst: str) -> None:
        calls["n"] += 1
        if str(dst).endswith(".manifest.json"):
            raise OSError("disk full")
        real(src, dst)

    monkeypatch.setattr("printables.jobs.os.replace", flaky)
    with pytest.raises(PrintError, match="disk full"):
        make_job("godnum", out, PrintOptions(), data, random.Random(1))
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "data"]
    # the PDF had been renamed already: it is removed again with the rest
    assert leftovers == [] and RunStore(data).all() == []


def test_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with pytest.raises(PrintError, match="cannot register"):
        make_job("shrine", tmp_path / "s.pdf", PrintOptions(), blocker)
    assert not (tmp_path / "s.pdf").exists()


def test_cli_prints_and_defaults_the_data_dir_to_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "env-data"))
    out = tmp_path / "gems.pdf"
    assert companion_cli.main(["print", "gemcomplete", "--out", str(out), "--paper", "letter",
                               "--card", "poker", "--backs", "short-edge",
                               "--back-offset", "0.5,-0.5", "--bleed", "0"]) == 0
    text = capsys.readouterr().out
    assert "print run" in text and "100%" in text
    runs = RunStore(tmp_path / "env-data").all()
    assert len(runs) == 1 and len(runs[0].cards) == 80
    m = json.loads((tmp_path / "gems.manifest.json").read_text())
    assert m["card_size_mm"] == [63.5, 88.9] and m["back_offset_mm"] == [0.5, -0.5]


def test_no_register_writes_only_the_files(tmp_path: Path) -> None:
    assert companion_cli.main(["print", "shrine", "--out", str(tmp_path / "s.pdf"),
                               "--data-dir", str(tmp_path / "d"), "--no-register"]) == 0
    assert not (tmp_path / "d").exists()
    assert (tmp_path / "s.manifest.json").exists()


def test_bench_print_reports_every_game_on_both_papers(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert companion_cli.main(["bench", "print", "--repeat", "1", "--backs", "none"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    jobs = [x for x in lines if "game" in x]
    assert {(x["game"], x["paper"]) for x in jobs} == {
        (g, p) for g in ("wuxing", "godnum", "shrine", "mountains", "gemcomplete")
        for p in ("a4", "letter")}
    total = lines[-1]
    assert total["cards"] == sum(x["cards"] for x in jobs) and total["mib"] > 0
