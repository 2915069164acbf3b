"""The QR payload codec shared by printing and the camera.

A payload names the game, the card face, the print run and the copy's serial, plus a
check character, in QR alphanumeric characters so it fits a version 1 code at error
correction M (20 characters at most; ours are at most 19)::

    T1:W:UWA:K2F9:01A:7
    |  | |   |    |   +-- check character over everything before it
    |  | |   |    +------ copy serial within the run (3 x base 36)
    |  | |   +----------- print run id (4 x base 36)
    |  | +--------------- face code from the game's deck file (1-3 of 0-9 A-Z)
    |  +----------------- game code (one capital letter)
    +-------------------- format: Table Companion payload, version 1

A card's identity at the table is its *serial* ``RUN-COPY`` (``K2F9-01A``): unique over
every print run. ``decode`` checks only the form; ``runs.RunBook.resolve`` checks that the
serial was printed and that its face matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import ForeignPayload, MalformedPayload

PREFIX = "T1"
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LENGTH = 20  # alphanumeric capacity of a version 1 QR code at level M
RUN_LENGTH = 4
COPY_LENGTH = 3
# Weights coprime to 36, so any single wrong character changes the check character.
_WEIGHTS = (1, 5, 7, 11, 13, 17, 19, 23, 25, 29, 31, 35)
_SERIAL = re.compile(r"^([0-9A-Z]{4})-([0-9A-Z]{3})$")
_B36 = re.compile(r"^[0-9A-Z]+$")


@dataclass(frozen=True)
class Payload:
    """A decoded payload; ``serial`` is the card's identity at the table."""

    game_code: str
    face_code: str
    run: str
    copy: str

    @property
    def serial(self) -> str:
        return f"{self.run}-{self.copy}"

    def encode(self) -> str:
        return encode(self.game_code, self.face_code, self.run, self.copy)


def check_char(body: str) -> str:
    """The check character of a payload body (everything before the last ``:``)."""
    total = 0
    for i, ch in enumerate(body):
        total += _WEIGHTS[i % len(_WEIGHTS)] * (ALPHABET.index(ch) if ch in ALPHABET else 36)
    return ALPHABET[total % 36]


def encode(game_code: str, face_code: str, run: str, copy: str) -> str:
    """The payload text for one card; raises ``MalformedPayload`` on a bad part."""
    parts = {"game code": (game_code, 1, 1), "face code": (face_code, 1, 3),
             "run": (run, RUN_LENGTH, RUN_LENGTH), "copy": (copy, COPY_LENGTH, COPY_LENGTH)}
    for name, (value, lo, hi) in parts.items():
        if not (lo <= len(value) <= hi) or not _B36.match(value):
            raise MalformedPayload(f"{name} {value!r} must be {lo}-{hi} of 0-9 A-Z")
    if not game_code.isalpha():
        raise MalformedPayload(f"game code {game_code!r} must be a letter")
    body = f"{PREFIX}:{game_code}:{face_code}:{run}:{copy}"
    return f"{body}:{check_char(body)}"


def decode(text: str) -> Payload:
    """Parse a payload; raises ``ForeignPayload`` or ``MalformedPayload`` quoting the text."""
    if not isinstance(text, str):
        raise MalformedPayload(f"a payload must be text, got {type(text).__name__}")
    if not text.startswith(PREFIX + ":"):
        raise ForeignPayload(f"{text[:40]!r} is not a Table Companion card")
    if len(text) > MAX_LENGTH:
        raise MalformedPayload(f"{text[:40]!r} is longer than {MAX_LENGTH} characters")
    parts = text.split(":")
    if len(parts) != 6:
        raise MalformedPayload(f"{text!r} has {len(parts)} parts, expected 6 (truncated?)")
    _, game_code, face_code, run, copy, check = parts
    if not (len(game_code) == 1 and game_code.isalpha() and game_code.isupper()):
        raise MalformedPayload(f"{text!r}: game code {game_code!r} is not one capital letter")
    if not (1 <= len(face_code) <= 3 and _B36.match(face_code)):
        raise MalformedPayload(f"{text!r}: face code {face_code!r} is not 1-3 of 0-9 A-Z")
    if not (len(run) == RUN_LENGTH and _B36.match(run)):
        raise MalformedPayload(f"{text!r}: run {run!r} is not {RUN_LENGTH} of 0-9 A-Z")
    if not (len(copy) == COPY_LENGTH and _B36.match(copy)):
        raise MalformedPayload(f"{text!r}: copy {copy!r} is not {COPY_LENGTH} of 0-9 A-Z")
    body = text.rsplit(":", 1)[0]
    if check != check_char(body):
        raise MalformedPayload(f"{text!r}: check character {check!r} is wrong (misread?)")
    return Payload(game_code, face_code, run, copy)


def parse_serial(text: str) -> tuple[str, str]:
    """Split a serial ``RUN-COPY`` into its parts; raises ``MalformedPayload``."""
    m = _SERIAL.match(text) if isinstance(text, str) else None
    if not m:
        raise MalformedPayload(f"{text!r} is not a card serial like 'K2F9-01A'")
    return m.group(1), m.group(2)


def to_base36(n: int, width: int) -> str:
    """``n`` in base 36, zero-padded to ``width``; raises ``ValueError`` if it does not fit."""
    if n < 0:
        raise ValueError(f"{n} is negative")
    digits = ""
    while n:
        n, r = divmod(n, 36)
        digits = ALPHABET[r] + digits
    digits = digits or "0"
    if len(digits) > width:
        raise ValueError(f"{n} does not fit in {width} base-36 digits")
    return digits.rjust(width, "0")
