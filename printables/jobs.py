"""Print jobs: check everything, draw the PDF in memory, then write and register atomically.

``make_job`` is what ``companion print`` runs. Order matters for the user's files:

1. every input is checked (game, paper, card size, bleed, back mode and offset, copies,
   players, output path, data directory) and the PDF is drawn in memory; any error here is
   raised before a byte is written;
2. the PDF and the manifest are written to temporary files beside their targets;
3. the runs are registered in ``<data-dir>/runs/`` (the referee then accepts exactly these
   serials, C-1);
4. the temporary files are renamed onto ``FILE.pdf`` and ``FILE.manifest.json``.

A failure in 2-4 removes the temporary files and any run registered by this job, so no
half-written PDF or manifest and no orphan run is left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.cards import DeckData, load_deck
from companion.errors import CompanionError
from companion.progress import Progress, Silent
from companion.registry import GAMES
from companion.runs import PrintRun, RunStore, new_run
from printables import extras, mat, qr
from printables.board import board_pages
from printables.cardsheets import draw_run
from printables.document import Document
from printables.faces import BACK_STYLES, face_layout
from printables.geometry import (
    BACK_MODES,
    CARD_PAPERS,
    PAPERS,
    PrintError,
    Sheet,
    card_size,
    paper_size,
    sheet_layout,
)
from printables.guide import guide_pages, page_plan, plan_rows
from printables.options import PrintOptions

MANIFEST_FORMAT = "table-companion-print/1"
OTHER_TARGETS = ("board", "mat", "calibration", "guide")


@dataclass(frozen=True)
class JobResult:
    pdf: Path
    manifest: Path
    pages: int
    runs: tuple[PrintRun, ...]
    registered: tuple[Path, ...]
    size_bytes: int


def targets_of(what: str) -> list[str]:
    """The games or other printables named by ``what``; raises ``PrintError``."""
    if what == "all":
        return list(GAMES)
    if what in GAMES or what in OTHER_TARGETS:
        return [what]
    raise PrintError(
        f"unknown game or printable {what!r}; choose one of "
        f"{', '.join([*GAMES, 'all', *OTHER_TARGETS])}"
    )


def manifest_path(pdf: Path) -> Path:
    return pdf.with_name(pdf.name[: -len(".pdf")] + ".manifest.json")


def check_output(out: str | os.PathLike[str]) -> Path:
    """The output path if a PDF can be written there; raises ``PrintError`` otherwise."""
    path = Path(out)
    if path.suffix.lower() != ".pdf":
        raise PrintError(f"output {str(out)!r} must be a .pdf file")
    if path.is_dir():
        raise PrintError(f"output {str(out)!r} is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise PrintError(f"cannot write {str(out)!r}: folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise PrintError(f"cannot write {str(out)!r}: folder {str(parent)!r} is not writable")
    for p in (path, manifest_path(path)):
        if p.exists() and not os.access(p, os.W_OK):
            raise PrintError(f"cannot overwrite {str(p)!r}: it is read-only")
    return path


def check_data_dir(data_dir: str | os.PathLike[str]) -> Path:
    """The data directory if runs can be registered there; raises ``PrintError``."""
    root = Path(data_dir)
    probe = root / "runs"
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise PrintError(f"cannot register print runs in {str(root)!r}: "
                         f"{str(probe)!r} is not a writable folder")
    return root


def sets_for(game: str, players: int | None, copies: int) -> dict[str, int]:
    """Printed sets per deck: what ``players`` need (``Rules.sets_needed``), times copies."""
    if copies < 1 or copies > 20:
        raise PrintError(f"--copies must be 1-20, got {copies}")
    deck = load_deck(game)
    if players is None:
        return {d: copies for d in deck.decks}
    from companion.registry import find_rules

    rules = find_rules(game)
    if not rules.min_players <= players <= rules.max_players:
        raise PrintError(f"{rules.title} takes {rules.min_players}-{rules.max_players} players, "
                         f"not {players}")
    return {d: n * copies for d, n in rules.sets_needed(players).items()}


def table_for(game: str, players: int | None, several: bool) -> int | None:
    """The table size to print ``game`` for: ``players``, brought into the game's range
    when several games print at once (``all --players 7``: Gem Complete is for 2, God Num
    takes 6). A single game keeps the number, so ``sets_for`` refuses it by name."""
    if players is None or not several:
        return players
    from companion.registry import find_rules

    rules = find_rules(game)
    return min(max(players, rules.min_players), rules.max_players)


def plan_runs(games: Sequence[str], opts: PrintOptions, rng: random.Random | None = None,
              taken: frozenset[str] = frozenset()) -> list[tuple[DeckData, PrintRun]]:
    """Number the cards of each game; run ids avoid ``taken`` (runs already registered:
    reusing one would overwrite its manifest and orphan cards already printed, C-1)."""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    out = []
    used: set[str] = set(taken)
    for game in games:
        deck = load_deck(game)
        sets = sets_for(game, table_for(game, opts.players, len(games) > 1), opts.copies)
        run_id = opts.run_ids.get(game)
        if run_id is not None and run_id in used:
            raise PrintError(f"print run {run_id!r} is already registered")
        run = new_run(deck, decks=list(sets), sets_per_deck=sets, run_id=run_id, rng=rng,
                      created=created)
        while run.run_id in used:  # never an id of this job or of a registered run
            run = new_run(deck, decks=list(sets), sets_per_deck=sets, rng=rng, created=created)
        used.add(run.run_id)
        out.append((deck, run))
    return out


def job_info(opts: PrintOptions, sheet: Sheet | None) -> dict[str, Any]:
    info: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "origin": "mm from the top-left corner of the page, x right, y down",
        "paper": opts.paper,
        "page_size_mm": list(PAPERS[opts.paper]) if sheet is None
        else [sheet.page_w, sheet.page_h],
    }
    if sheet is not None:
        lay = face_layout(sheet.card_w, sheet.card_h)
        info.update({
            "card": opts.card,
            "card_size_mm": [sheet.card_w, sheet.card_h],
            "bleed_mm": sheet.bleed,
            "crop_marks": opts.crop_marks,
            "cards_per_page": sheet.per_page,
            "grid": [sheet.cols, sheet.rows],
            "backs": opts.backs,
            "back_style": opts.back_style,
            "back_offset_mm": list(opts.back_offset),
            "qr": {"version": qr.VERSION, "error_correction": "M", "size_mm": round(lay.qr.w, 3),
                   "module_mm": round(lay.module, 3), "modules": qr.MODULES},
        })
    return info


Extra = Callable[[Document], list[dict[str, Any]]]


def build(what: str, opts: PrintOptions, rng: random.Random | None = None,
          taken: frozenset[str] = frozenset(), progress: Progress | None = None
          ) -> tuple[bytes, dict[str, Any], list[tuple[PrintRun, dict[str, Any]]]]:
    """Draw a job in memory: PDF bytes, the file manifest, and (run, run manifest) pairs.

    Raises ``PrintError`` (or another ``CompanionError``) for any bad input; writes nothing.
    """

    targets = targets_of(what)
    games = [t for t in targets if t in GAMES]
    if opts.back_style not in BACK_STYLES:
        raise PrintError(f"unknown back style {opts.back_style!r}; choose one of "
                         f"{', '.join(BACK_STYLES)}")
    if opts.backs not in BACK_MODES:
        raise PrintError(f"unknown back mode {opts.backs!r}; choose one of {', '.join(BACK_MODES)}")
    sheet: Sheet | None = None
    if games:
        paper_size(opts.paper, CARD_PAPERS)
        card_size(opts.card)
        sheet = sheet_layout(opts.paper, opts.card, bleed=opts.bleed, back_mode=opts.backs,
                             back_offset=opts.back_offset, with_marks=opts.crop_marks)
    else:
        paper_size(opts.paper, tuple(PAPERS))
    title = "Table Companion: " + ", ".join(load_deck(g).title if g in GAMES else g
                                             for g in targets)
    calibration_flip = opts.backs if opts.backs != "none" else "long-edge"
    duplex = opts.backs if games else ("none" if "calibration" not in targets
                                       else calibration_flip)
    if duplex == "fold":  # fold-and-glue sheets print on one side
        duplex = "none"
        calibration_flip = "long-edge"
    doc = Document(title, duplex=duplex)
    info = job_info(opts, sheet)
    runs: list[tuple[PrintRun, dict[str, Any]]] = []
    extra_pages: list[dict[str, Any]] = []
    whole_set = what == "all" and opts.extras
    if whole_set:  # the whole set: the build guide comes first, with room for its page plan
        ahead = 1 + sum(1 + len(extras.extra_kinds(load_deck(g))) for g in games)
        extra_pages += guide_pages(doc, opts.paper, plan_rows=ahead)
    planned = list(plan_runs(games, opts, rng, taken))
    progress = progress or Silent()
    progress.grow(len(planned))
    for deck, run in planned:
        assert sheet is not None
        rows = draw_run(doc, deck, run, sheet, opts.back_style)
        m = run.manifest()
        m.update(info)
        m["title"] = deck.title
        m["cards"] = rows
        players = table_for(deck.game, opts.players, len(games) > 1)
        m["players"] = players
        runs.append((run, m))
        if opts.extras:
            extra_pages += extras.game_extras(doc, deck, replace(opts, players=players), sheet)
        progress.advance()
    for t in targets:
        if t == "board":
            extra_pages += board_pages(doc, opts.paper)
        elif t == "mat":
            extra_pages += mat.mat_pages(doc, opts.paper, opts.mat_game, opts.players,
                                          opts.names)
        elif t == "guide":
            extra_pages += guide_pages(doc, opts.paper)
        elif t == "calibration":
            extra_pages += extras.calibration_pages(doc, opts.paper, calibration_flip,
                                                    opts.back_offset)
    if whole_set:  # now that every page is laid out: which page goes on which paper
        page_plan(doc, opts.paper, plan_rows([m for _, m in runs], extra_pages,
                                             doc.blank_backs, fold=opts.backs == "fold"))
    pdf = doc.finish()
    manifest: dict[str, Any] = dict(info)
    manifest["pages"] = doc.pages
    manifest["runs"] = [m for _, m in runs]
    manifest["extras"] = extra_pages
    if len(runs) == 1:  # a one-game file is itself a run manifest (companion.runs reads it)
        manifest.update({k: v for k, v in runs[0][1].items() if k not in manifest})
    return pdf, manifest, runs


def make_job(what: str, out: str | os.PathLike[str], opts: PrintOptions,
             data_dir: str | os.PathLike[str] | None, rng: random.Random | None = None,
             progress: Progress | None = None) -> JobResult:
    """Build and write ``out`` and its manifest, and register the runs (see module doc).

    ``data_dir=None`` writes the files without registering (``--no-register``). Raises
    ``PrintError``/``CompanionError`` before writing anything on bad input.
    """
    pdf_path = check_output(out)
    root = check_data_dir(data_dir) if data_dir is not None else None
    taken = frozenset(p.stem for p in (root / "runs").glob("*.json")) if root else frozenset()
    pdf, manifest, runs = build(what, opts, rng, taken, progress)
    man_path = manifest_path(pdf_path)
    temps: list[str] = []
    placed: list[Path] = []
    registered: list[Path] = []
    try:
        tmp_pdf = _write_temp(pdf_path.parent, pdf)
        temps.append(tmp_pdf)
        tmp_man = _write_temp(man_path.parent,
                              json.dumps(manifest, indent=1).encode("utf-8"))
        temps.append(tmp_man)
        if root is not None:
            store = RunStore(root)
            for run, m in runs:
                registered.append(store.save(run, m))
        for tmp, final in ((tmp_pdf, pdf_path), (tmp_man, man_path)):
            os.replace(tmp, final)
            temps.remove(tmp)
            placed.append(final)
    except (OSError, CompanionError) as exc:
        # Leave nothing of this job: no temporary file, no lone PDF without its manifest,
        # no registered run whose PDF was never written.
        leftovers: list[str | Path] = [*temps, *placed, *registered]
        for p in leftovers:
            _unlink(p)
        if isinstance(exc, CompanionError):
            raise
        raise PrintError(f"could not write {str(pdf_path)!r}: {exc}") from None
    return JobResult(pdf_path, man_path, int(manifest["pages"]), tuple(r for r, _ in runs),
                     tuple(registered), len(pdf))


def _write_temp(folder: Path, data: bytes) -> str:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".print-", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); a printout is an ordinary file (umask).
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: str | os.PathLike[str]) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
