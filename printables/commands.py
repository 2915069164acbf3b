"""Subcommands of this package: ``companion print``."""

from __future__ import annotations

import argparse
import os
from typing import Any

from companion.progress import progress
from companion.registry import GAMES


def register(cli: Any) -> None:
    """Add ``print`` to ``cli``."""
    p = cli.command(
        "print",
        "make a printable PDF (cards of a game, all games, the board, the table mat or the "
        "calibration page) with its manifest, and register the print run",
        _print,
    )
    p.add_argument("what", metavar="WHAT",
                   help=f"a game ({', '.join(GAMES)}), 'all', 'board', 'mat', 'calibration' or "
                   "'guide' (the one-page build guide)")
    p.add_argument("--out", required=True, metavar="FILE.pdf|DIR",
                   help="the PDF to write (the manifest goes to FILE.manifest.json); with "
                   "--pod, the folder for the export")
    p.add_argument("--pod", default=None, choices=["mpc", "dtc"],
                   help="export for a print-on-demand service instead: mpc (MakePlayingCards: "
                   "a 300 dpi PNG per card, 822x1122 px with bleed) or dtc (DriveThruCards: a "
                   "one-card-per-page PDF with trim and bleed boxes)")
    p.add_argument("--paper", default="a4", metavar="a4|letter",
                   help="paper size (board and mat also take a3); default a4")
    p.add_argument("--card", default="standard", metavar="SIZE",
                   help="standard (63x88 mm, default), poker (63.5x88.9), bridge (57.15x88.9) "
                   "or WIDTHxHEIGHT in mm")
    p.add_argument("--copies", type=int, default=1,
                   help="print this many times what is asked (default 1)")
    p.add_argument("--players", type=int, default=None,
                   help="print the sets a table of N players needs (e.g. two WuXing player "
                   "decks for 5-8 players); also sizes token and tracker sheets and the mat")
    p.add_argument("--bleed", type=float, default=0.0, metavar="MM",
                   help="colour runs this far past the cut line; cards are spaced 2 x bleed "
                   "apart (default 0: cards touch, a thin cut line is printed)")
    p.add_argument("--no-crop-marks", dest="crop_marks", action="store_false",
                   help="leave out the crop marks in the margins")
    p.add_argument("--backs", default="none",
                   choices=["none", "long-edge", "short-edge", "fold"],
                   help="card backs: none, or a back page after each sheet, mirrored for a "
                   "duplex printer flipping on the long or the short edge, or fold: each "
                   "back beside its front on one side of the paper, to fold and glue")
    p.add_argument("--back-style", default="full", choices=["full", "ink-saver"],
                   help="full colour backs (default) or ink-saver: outlines and coloured "
                   "words on white paper")
    p.add_argument("--back-offset", default="0,0", metavar="X,Y",
                   help="move the backs X mm right and Y mm up (as seen on the back); read "
                   "it off the calibration page")
    p.add_argument("--no-extras", dest="extras", action="store_false",
                   help="cards only: no token sheets, trackers or board")
    p.add_argument("--game", default="wuxing", choices=list(GAMES),
                   help="for 'mat': whose zones to print (default wuxing)")
    p.add_argument("--names", default=None, metavar="ANA,BEN,...",
                   help="for 'mat': the players in seat order, comma-separated, as the table "
                   "lists them; each place then says whose it is (\"Ana's place\"); "
                   "without --players the mat is for this many")
    p.add_argument("--data-dir", default=None,
                   help="where print runs are registered (<data-dir>/runs/); default: "
                   "$COMPANION_DATA_DIR, else ./data")
    p.add_argument("--no-register", dest="register", action="store_false",
                   help="write the files but do not register the runs")


def _print(args: argparse.Namespace) -> int:
    from printables.geometry import parse_offset
    from printables.jobs import make_job
    from printables.options import PrintOptions

    opts = PrintOptions(
        paper=args.paper.lower(), card=args.card, bleed=args.bleed, crop_marks=args.crop_marks,
        backs=args.backs, back_style=args.back_style,
        back_offset=parse_offset(args.back_offset), copies=args.copies,
        players=args.players, extras=args.extras, mat_game=args.game,
        names=tuple(n.strip() for n in args.names.split(",")) if args.names else (),
    )
    data_dir = None
    if args.register:
        data_dir = args.data_dir or os.environ.get("COMPANION_DATA_DIR") or "data"
    if args.pod:
        return _pod(args, opts, data_dir)
    with progress(0, "printing", "decks") as bar:
        result = make_job(args.what, args.out, opts, data_dir, progress=bar)
    print(f"wrote {result.pdf} ({result.pages} pages, {result.size_bytes / 1024:.0f} KiB) "
          f"and {result.manifest}")
    for run in result.runs:
        print(f"print run {run.run_id}: {run.game}, {len(run.cards)} cards"
              + (f", registered in {data_dir}" if data_dir else " (not registered)"))
    print("print at 100% / actual size; check the 50 mm bar on any page")
    return 0



def _pod(args: argparse.Namespace, opts: Any, data_dir: str | None) -> int:
    from printables.pod import export

    with progress(0, "rendering", "cards") as bar:
        result = export(args.what, args.out, args.pod, opts, data_dir, progress=bar)
    for warning in result.warnings:
        print(f"warning: {warning}")
    print(f"wrote {len(result.files)} files to {result.folder}")
    for run in result.runs:
        print(f"print run {run.run_id}: {run.game}, {len(run.cards)} cards"
              + (f", registered in {data_dir}" if data_dir else " (not registered)"))
    print("Order these files once: each serial exists once, and the referee refuses a second "
          "card with the same serial. For more decks export with --copies N (distinct "
          "serials).")
    return 0
