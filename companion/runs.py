"""Print runs and their manifests (C-1): the referee accepts exactly the serials printed.

A print run is one printing of some sets of a game's decks. Every card gets a serial
``RUN-COPY`` and a payload. ``RunBook`` resolves scanned payloads against the runs a
table plays with; ``RunStore`` keeps manifests on disk so every process agrees on them.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import codec
from companion.cards import CardFace, DeckData, load_deck
from companion.errors import (
    BadSetup,
    CompanionError,
    ForeignPayload,
    MalformedPayload,
    UnknownCard,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PrintedCard:
    """One physical card: its serial, its face, and which printed set of its deck it is in."""

    serial: str
    face: CardFace
    payload: str
    set_no: int = 1

    @property
    def deck(self) -> str:
        return self.face.deck


@dataclass(frozen=True)
class PrintRun:
    """One printing: run id, game, and every card printed, in print order."""

    run_id: str
    game: str
    cards: tuple[PrintedCard, ...]
    created: str = ""

    def by_serial(self) -> dict[str, PrintedCard]:
        return {c.serial: c for c in self.cards}

    def manifest(self) -> dict[str, Any]:
        """The run as JSON-ready data (printing adds page and position fields to it)."""
        return {
            "run": self.run_id,
            "game": self.game,
            "created": self.created,
            "cards": [
                {"serial": c.serial, "face": c.face.id, "deck": c.deck, "set": c.set_no,
                 "payload": c.payload}
                for c in self.cards
            ],
        }


def new_run_id(rng: random.Random | None = None) -> str:
    """A random run id of 4 base-36 characters (``secrets`` unless a test passes ``rng``)."""
    n = rng.randrange(36**codec.RUN_LENGTH) if rng else secrets.randbelow(36**codec.RUN_LENGTH)
    return codec.to_base36(n, codec.RUN_LENGTH)


def new_run(
    deck: DeckData,
    *,
    sets: int = 1,
    decks: Sequence[str] | None = None,
    sets_per_deck: Mapping[str, int] | None = None,
    run_id: str | None = None,
    rng: random.Random | None = None,
    created: str = "",
) -> PrintRun:
    """Number the cards of ``sets`` copies of a game's decks (all decks unless ``decks``).

    ``sets_per_deck`` overrides the number of sets for single decks (God Num prints one
    legion twice for six players, GN-2). Raises ``BadSetup`` on impossible counts.
    """
    if sets < 1:
        raise BadSetup(f"sets must be at least 1, got {sets}")
    wanted = list(decks) if decks is not None else list(deck.decks)
    for d in wanted:
        if d not in deck.decks:
            raise BadSetup(f"{deck.title} has no deck {d!r}; it has {sorted(deck.decks)}")
    rid = run_id or new_run_id(rng)
    if len(rid) != codec.RUN_LENGTH or not all(ch in codec.ALPHABET for ch in rid):
        raise BadSetup(f"run id {rid!r} must be {codec.RUN_LENGTH} of 0-9 A-Z")
    cards: list[PrintedCard] = []
    copy_no = 0
    for d in wanted:
        n_sets = (sets_per_deck or {}).get(d, sets)
        if n_sets < 0:
            raise BadSetup(f"sets for deck {d!r} must be >= 0, got {n_sets}")
        for set_no in range(1, n_sets + 1):
            for face in deck.faces_of(d):
                for _ in range(face.count):
                    copy = codec.to_base36(copy_no, codec.COPY_LENGTH)
                    copy_no += 1
                    payload = codec.encode(deck.code, face.code, rid, copy)
                    cards.append(PrintedCard(f"{rid}-{copy}", face, payload, set_no))
    if copy_no > 36**codec.COPY_LENGTH:
        raise BadSetup(f"{copy_no} cards do not fit one run (at most {36**codec.COPY_LENGTH})")
    return PrintRun(rid, deck.game, tuple(cards), created)


def run_from_manifest(data: Mapping[str, Any]) -> PrintRun:
    """Rebuild a run from its manifest; raises ``BadSetup`` if it does not check out."""
    try:
        rid = str(data["run"])
        deck = load_deck(str(data["game"]))
        cards = []
        for raw in data["cards"]:
            face = deck.face(str(raw["face"]))
            payload = codec.decode(str(raw["payload"]))
            if payload.serial != raw["serial"] or payload.face_code != face.code:
                raise BadSetup(f"manifest card {raw['serial']!r} does not match its payload")
            cards.append(PrintedCard(str(raw["serial"]), face, str(raw["payload"]),
                                     int(raw.get("set", 1))))
    except (KeyError, TypeError) as exc:
        raise BadSetup(f"manifest is missing or mistypes {exc}") from None
    except (UnknownCard, MalformedPayload) as exc:
        raise BadSetup(f"manifest of run {data.get('run')!r}: {exc}") from None
    return PrintRun(rid, deck.game, tuple(cards), str(data.get("created", "")))


class RunBook:
    """The print runs a table accepts; resolves payloads and serials to printed cards."""

    def __init__(self, runs: Iterable[PrintRun]) -> None:
        self.runs: dict[str, PrintRun] = {}
        self._cards: dict[str, PrintedCard] = {}
        for run in runs:
            if run.run_id in self.runs:
                raise BadSetup(f"run {run.run_id!r} is listed twice")
            self.runs[run.run_id] = run
            self._cards.update(run.by_serial())

    @property
    def cards(self) -> Mapping[str, PrintedCard]:
        return self._cards

    def card(self, serial: str) -> PrintedCard:
        """The printed card with this serial; raises ``UnknownCard``."""
        codec.parse_serial(serial)
        try:
            return self._cards[serial]
        except KeyError:
            raise UnknownCard(f"card {serial!r} was never printed for this table") from None

    def resolve(self, payload_text: str, game: str | None = None) -> PrintedCard:
        """The card a scanned payload names.

        Raises ``ForeignPayload`` (not ours, or another game's), ``MalformedPayload``, or
        ``UnknownCard`` (a run or serial this table never printed, or a face that does not
        match the printed serial: a forged or mis-made code).
        """
        p = codec.decode(payload_text)
        run = self.runs.get(p.run)
        if run is None:
            raise UnknownCard(f"{payload_text!r}: print run {p.run!r} is not registered here")
        card = self._cards.get(p.serial)
        if card is None:
            raise UnknownCard(f"{payload_text!r}: serial {p.serial!r} was never printed")
        if game is not None and card.face.game != game:
            raise ForeignPayload(f"{payload_text!r} is a {card.face.game} card, not {game}")
        if card.payload != payload_text:
            raise UnknownCard(
                f"{payload_text!r}: serial {p.serial!r} was printed as {card.face.id!r}; "
                "this code does not match it (forged or mis-made)"
            )
        return card

    def __iter__(self) -> Iterator[PrintRun]:
        return iter(self.runs.values())


class RunStore:
    """Manifests of print runs as JSON files in ``<root>/runs/``, written atomically."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.dir = Path(root) / "runs"

    def save(self, run: PrintRun, manifest: Mapping[str, Any] | None = None) -> Path:
        """Register a run (with its full manifest if given); returns the file written."""
        # Owner only (issue 19 §6): the data folder holds the tables' tokens beside the runs.
        self.dir.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.dir.mkdir(mode=0o700, exist_ok=True)
        data = dict(manifest) if manifest is not None else run.manifest()
        path = self.dir / f"{run.run_id}.json"
        fd, tmp = tempfile.mkstemp(dir=self.dir, suffix=".tmp")  # 0600 from its first byte
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(tmp, path)
        return path

    def load(self, run_id: str) -> PrintRun:
        """One registered run; raises ``UnknownCard`` if it is not registered."""
        path = self.dir / f"{run_id}.json"
        if not codec._B36.match(run_id) or not path.is_file():
            raise UnknownCard(f"print run {run_id!r} is not registered")
        return run_from_manifest(json.loads(path.read_text(encoding="utf-8")))

    def all(self) -> list[PrintRun]:
        """Every registered run that can still be read, oldest file first.

        A manifest of cards a deck no longer has (God Num's Cleanse became Burden, GN-3
        rev. 2) or a damaged file is passed over with a warning: one stale run must not
        keep the lobby, ``--demo`` or new tables from working.
        """
        if not self.dir.is_dir():
            return []
        paths = sorted(self.dir.glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))
        out = []
        for p in paths:
            try:
                out.append(run_from_manifest(json.loads(p.read_text(encoding="utf-8"))))
            except (CompanionError, ValueError, KeyError, TypeError, OSError) as exc:
                log.warning("print run %s cannot be used: %s", p.name, exc)
        return out

    def newest(self, game: str) -> PrintRun | None:
        """The most recently registered run of ``game``, if any."""
        runs = [r for r in self.all() if r.game == game]
        return runs[-1] if runs else None
