"""Decks for print-on-demand services: ``companion print GAME --pod mpc|dtc --out DIR``.

* ``mpc`` (MakePlayingCards' poker template): one PNG per card front, 300 dpi, 2.5 x 3.5 in
  with 0.12 in (3 mm) of bleed on every side: 822 x 1122 px, named by serial
  (``K2F9-000.png``), and one PNG per distinct back (``back-<deck>.png``).
* ``dtc`` (DriveThruCards): one PDF, one card per page, each front followed by its back,
  every page 2.75 x 3.75 in (1/8 in bleed) with its TrimBox on the card and its BleedBox
  on the page; in CMYK, black text and codes in black ink only, with an output intent
  (``document.to_cmyk``, ``document.add_output_intent``; issue 29 §12).

Both write ``manifest.json`` (which file or page holds which serial) and register the run
like any print job, so the referee accepts exactly these cards. A serial exists once:
ordering the same files twice makes duplicate cards the referee refuses as a second copy;
``--copies N`` makes N sets with distinct serials instead.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.cards import DeckData
from companion.errors import CompanionError
from companion.progress import Progress, Silent
from companion.registry import GAMES
from companion.runs import PrintRun, RunStore
from printables.cardsheets import back_tints
from printables.document import Document, Pen
from printables.faces import draw_back, draw_face
from printables.geometry import MM, PrintError, Rect
from printables.jobs import MANIFEST_FORMAT, _unlink, _write_temp, check_data_dir, plan_runs
from printables.options import PrintOptions

DPI = 300
INCH = 25.4


@dataclass(frozen=True)
class Service:
    """A print-on-demand service's card: trim size and bleed in mm, and what it takes."""

    name: str
    title: str
    trim: tuple[float, float]
    bleed: float
    files: str  # "png" or "pdf"
    cmyk: bool = False  # colours written as CMYK, black text and codes in black ink only

    @property
    def page(self) -> tuple[float, float]:
        return (self.trim[0] + 2 * self.bleed, self.trim[1] + 2 * self.bleed)

    @property
    def pixels(self) -> tuple[int, int]:
        return (round(self.page[0] / INCH * DPI), round(self.page[1] / INCH * DPI))


SERVICES = {
    "mpc": Service("mpc", "MakePlayingCards (poker, 822 x 1122 px)", (63.5, 88.9),
                   0.12 * INCH, "png"),
    "dtc": Service("dtc", "DriveThruCards (poker, PDF)", (63.5, 88.9), 0.125 * INCH, "pdf",
                   cmyk=True),
}
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class PodResult:
    folder: Path
    files: tuple[Path, ...]
    runs: tuple[PrintRun, ...]
    registered: tuple[Path, ...]
    warnings: tuple[str, ...]


def service_of(name: str) -> Service:
    try:
        return SERVICES[name]
    except KeyError:
        raise PrintError(f"unknown print-on-demand service {name!r}; choose one of "
                         f"{', '.join(SERVICES)}") from None


def check_folder(out: str | os.PathLike[str]) -> Path:
    """The export folder (made if missing, its parent must exist); raises ``PrintError``."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise PrintError(f"--out {str(out)!r} must be a folder for a print-on-demand export")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise PrintError(f"cannot write {str(out)!r}: folder {str(parent)!r} does not exist")
    target = path if path.exists() else parent
    if not os.access(target, os.W_OK | os.X_OK):
        raise PrintError(f"cannot write {str(out)!r}: {str(target)!r} is not writable")
    return path


def render_deck(deck: DeckData, run: PrintRun, svc: Service, style: str = "full"
                ) -> tuple[bytes, list[dict[str, Any]], dict[str, int]]:
    """One card per page: the PDF, the cards' manifest rows, and the page of each deck's
    back (``mpc``: fronts, then one page per distinct back; ``dtc``: front, back, ...)."""
    doc = Document(f"{deck.title}: {svc.title}", cmyk=svc.cmyk)
    w, h = svc.page
    trim = Rect(svc.bleed, svc.bleed, *svc.trim)
    tints = back_tints(deck)
    base = run.manifest()["cards"]
    rows: list[dict[str, Any]] = []
    back_pages: dict[str, int] = {}

    def back(deck_id: str) -> int:
        # Each deck's back is drawn once as a PDF form and placed on every back page.
        name = f"pod-back-{deck_id}"
        c = doc.canvas
        if name not in doc.forms:
            info = deck.decks[deck_id]
            c.beginForm(name, 0, 0, w * MM, h * MM)
            draw_back(Pen(c, w, h), trim, info.back, info.name, tints[deck_id],
                      style=style, deck_id=deck_id, bleed=svc.bleed)
            c.endForm()
            doc.forms.add(name)
        doc.page(w, h, sided=True, trim=trim, bleed=svc.bleed)
        c.doForm(name)
        return doc.pages

    for i, card in enumerate(run.cards):
        pen = doc.page(w, h, sided=True, trim=trim, bleed=svc.bleed)
        draw_face(pen, trim, card.face, deck.decks.get(card.deck), card.payload, card.serial,
                  svc.bleed, tint=tints.get(card.deck), copy=card.set_no)
        row = dict(base[i])
        row["page"] = doc.pages
        if svc.files == "pdf":
            row["back_page"] = back(card.deck)
        else:
            # One folder per back design, as MakePlayingCards takes them: "different
            # fronts, same back" is one upload per folder (issue 29 §13).
            row["file"] = f"{card.deck}/{card.serial}.png"
            row["back_file"] = f"{card.deck}/back.png"
        rows.append(row)
    if svc.files == "png":
        for deck_id in dict.fromkeys(c.deck for c in run.cards):
            back_pages[deck_id] = back(deck_id)
    return doc.finish(), rows, back_pages


def rasterise(pdf: bytes, pages: list[int], svc: Service) -> list[bytes]:
    """PNG files (300 dpi, exactly ``svc.pixels``) of the given 1-based pages.

    pdfium renders one page at a time (it is not thread-safe); PNG encoding, most of the
    time, releases the GIL, so it runs on a few threads while the next page renders.
    """
    import pypdfium2 as pdfium

    def png(img: Any) -> bytes:
        buf = io.BytesIO()
        # 300 dpi in the file, so the service's tools read the size right; level 1:
        # the files are 5 % larger and written in half the time.
        img.save(buf, format="PNG", dpi=(DPI, DPI), compress_level=1)
        return buf.getvalue()

    futures = []
    doc = pdfium.PdfDocument(pdf)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        try:
            for p in pages:
                page = doc[p - 1]
                img = page.render(scale=DPI / 72).to_pil()
                page.close()
                if img.size != svc.pixels:  # pdfium rounds the page size to whole pixels
                    img = img.resize(svc.pixels)
                futures.append(pool.submit(png, img))
        finally:
            doc.close()
        return [f.result() for f in futures]


def _refuse_sheet_options(opts: PrintOptions, svc: Service) -> None:
    """Options of home-printed sheets that a print-on-demand card cannot honour are
    refused by name, never silently dropped (issue 29 §13); ``--back-style`` is honoured."""
    fixed = f"{svc.title} has its own card size and bleed"
    wrong = [f"--card {opts.card}" if opts.card != "standard" else "",
             f"--bleed {opts.bleed:g}" if opts.bleed else "",
             f"--backs {opts.backs}" if opts.backs != "none" else "",
             "--back-offset" if tuple(opts.back_offset) != (0.0, 0.0) else "",
             f"--paper {opts.paper}" if opts.paper != "a4" else ""]
    wrong = [w for w in wrong if w]
    if wrong:
        raise PrintError(f"--pod {svc.name} cannot take {', '.join(wrong)}: {fixed} (one card "
                         "per file, its back a file of its own); leave "
                         f"{'it' if len(wrong) == 1 else 'them'} out")


def export(what: str, out: str | os.PathLike[str], service: str, opts: PrintOptions,
           data_dir: str | os.PathLike[str] | None, rng: random.Random | None = None,
           progress: Progress | None = None) -> PodResult:
    """Export ``what`` (a game, or ``all``: one sub-folder per game) for ``service``.

    Everything is drawn in memory first; then files go to temporary names, the runs are
    registered and the files renamed. On failure nothing of this export is left behind.
    """
    svc = service_of(service)
    _refuse_sheet_options(opts, svc)
    if what != "all" and what not in GAMES:
        raise PrintError(f"a print-on-demand export takes a game ({', '.join(GAMES)}) or "
                         f"'all', not {what!r}")
    folder = check_folder(out)
    root = check_data_dir(data_dir) if data_dir is not None else None
    taken = frozenset(p.stem for p in (root / "runs").glob("*.json")) if root else frozenset()
    games = list(GAMES) if what == "all" else [what]
    warnings: list[str] = []
    created = datetime.now(UTC).isoformat(timespec="seconds")
    planned: list[tuple[Path, dict[str, bytes], PrintRun, dict[str, Any]]] = []
    stale: set[Path] = set()  # files of an earlier export here: gone once this one is in
    decks = list(plan_runs(games, opts, rng, taken))
    progress = progress or Silent()
    progress.grow(sum(len(run.cards) for _, run in decks))
    for deck, run in decks:
        sub = folder / deck.game if what == "all" else folder
        old = sub / MANIFEST
        if old.is_file():
            warnings.append(_repeat_warning(old, run.run_id))
            stale.update(sub / f for f in _old_files(old))
        pdf, rows, backs = render_deck(deck, run, svc, opts.back_style)
        files: dict[str, bytes] = {}
        if svc.files == "pdf":
            files[f"{deck.game}-{run.run_id}.pdf"] = pdf
        else:
            pngs = rasterise(pdf, [r["page"] for r in rows] + list(backs.values()), svc)
            names = [r["file"] for r in rows] + [f"{d}/back.png" for d in backs]
            files.update(zip(names, pngs, strict=True))
        m = run.manifest()
        m.update({"format": MANIFEST_FORMAT, "title": deck.title, "created": created,
                  "pod": svc.name, "service": svc.title, "card": "poker",
                  "card_size_mm": list(svc.trim), "bleed_mm": round(svc.bleed, 3),
                  "dpi": DPI, "pixels": list(svc.pixels) if svc.files == "png" else None,
                  "files": sorted(files), "cards": rows})
        files[MANIFEST] = json.dumps(m, indent=1).encode("utf-8")
        planned.append((sub, files, run, m))
        progress.advance(len(run.cards))
    result = _write(folder, planned, root, warnings)
    # An earlier export's cards must not be uploaded with this one (two runs, two decks).
    for p in stale - set(result.files):
        _unlink(p)
        if p.parent != folder and p.parent.is_dir() and not any(p.parent.iterdir()):
            p.parent.rmdir()  # an earlier export's back folder, now empty
    return result


def _old_files(manifest: Path) -> list[str]:
    """The files an earlier export's manifest lists (plain names in its folder only)."""
    try:
        names = json.loads(manifest.read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [n for n in names if isinstance(n, str) and _plain(n) and n != MANIFEST]


def _plain(name: str) -> bool:
    """A file name, or one folder and a file name, inside the export (never .. or /...)."""
    parts = Path(name).parts
    return (0 < len(parts) <= 2 and not Path(name).is_absolute()
            and all(p not in ("", ".", "..") for p in parts))


def _repeat_warning(old: Path, run_id: str) -> str:
    try:
        prev = json.loads(old.read_text(encoding="utf-8")).get("run", "?")
    except (OSError, ValueError):
        prev = "?"
    return (f"{old.parent} held the export of print run {prev}; it is replaced by run "
            f"{run_id} (its files are removed). Cards already ordered from run {prev} stay "
            "valid. Order each "
            "export once: the same files ordered twice give two cards with one serial, and "
            "the referee refuses the second as a copy. For more decks use --copies N "
            "(distinct serials).")


def _write(folder: Path, planned: list[tuple[Path, dict[str, bytes], PrintRun, dict[str, Any]]],
           root: Path | None, warnings: list[str]) -> PodResult:
    temps: list[tuple[str, Path]] = []
    placed: list[Path] = []
    registered: list[Path] = []
    made: list[Path] = []
    try:
        for sub, files, _run, _m in planned:
            for d in (folder, sub):
                if not d.exists():
                    d.mkdir()
                    made.append(d)
            for name, data in files.items():
                final = sub / name
                if not final.parent.exists():  # a back design's folder (mpc)
                    final.parent.mkdir()
                    made.append(final.parent)
                temps.append((_write_temp(final.parent, data), final))
        if root is not None:
            store = RunStore(root)
            for _sub, _files, run, m in planned:
                registered.append(store.save(run, m))
        for tmp, final in temps:
            os.replace(tmp, final)
            placed.append(final)
        temps.clear()
    except (OSError, CompanionError) as exc:
        leftovers: list[str | Path] = [t for t, _ in temps]
        for p in [*leftovers, *placed, *registered]:
            _unlink(p)
        for d in reversed(made):
            with contextlib.suppress(OSError):
                d.rmdir()
        if isinstance(exc, CompanionError):
            raise
        raise PrintError(f"could not write the export to {str(folder)!r}: {exc}") from None
    return PodResult(folder, tuple(placed), tuple(r for _, _, r, _ in planned),
                     tuple(registered), tuple(warnings))
