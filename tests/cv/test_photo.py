"""One phone photo -> this table's cards (issue 13, "Scan my card"): photos made from the
project's own printed cards; bytes that are no photo (truncated, bombs, huge headers, 1x1,
noise) are a ``BadPhoto`` or no card, never anything else."""

from __future__ import annotations

import random
import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import scenes
from bench.photos import make_photo
from companion.runs import PrintRun, RunBook
from cv import photo
from cv.photo import BadPhoto, no_card_hint, read_header, read_photo


@pytest.fixture(scope="module")
def faces(run: PrintRun, other_run: PrintRun) -> scenes.FaceRenderer:
    return scenes.default_face_renderer([run, other_run])


def _png(width: int, height: int, rows: bytes | None = None) -> bytes:
    """A greyscale PNG whose IHDR says ``width`` x ``height`` (``rows``: the raw rows)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = rows if rows is not None else b"\x00" * 64
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                              0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("size", [(1600, 1200), (4032, 3024)])
def test_a_photo_of_one_printed_card_gives_that_card_only(
        run: PrintRun, faces: scenes.FaceRenderer, size: tuple[int, int]) -> None:
    rng = random.Random(size[0])
    book = RunBook([run])
    # 12 MP photos take a second each to make: two of them, four at 1,600 px.
    for card in rng.sample(list(run.cards), 4 if size[0] == 1600 else 2):
        data, shot = make_photo(faces(card.payload), card.payload, size, rng)
        got = read_photo(data, book)
        assert got.serials == [card.serial], shot
        assert (got.header.width, got.header.height) == size
    # A 12 MP photo is located shrunk (a quarter a side), a 1,600 px one as it is.
    assert got.factor == (1 if size[0] == 1600 else 4)


def test_corners_come_back_in_the_photos_own_pixels(run: PrintRun,
                                                     faces: scenes.FaceRenderer) -> None:
    card = run.cards[3]
    rng = random.Random(11)
    data, _ = make_photo(faces(card.payload), card.payload, (4032, 3024), rng)
    got = read_photo(data, RunBook([run]))
    xs = [p[0] for p in got.cards[0].corners]
    ys = [p[1] for p in got.cards[0].corners]
    grey = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    x0, x1, y0, y1 = int(min(xs)), int(max(xs)), int(min(ys)), int(max(ys))
    assert x1 - x0 > 200  # a 12 MP photo's code, not a quarter of it
    # The code is there: dark modules inside its outline, in the full-size photo.
    assert grey[y0:y1, x0:x1].min() < 90


def test_a_card_of_another_print_run_is_no_card_and_the_hint_says_so(
        run: PrintRun, other_run: PrintRun, faces: scenes.FaceRenderer) -> None:
    card = other_run.cards[0]
    data, _ = make_photo(faces(card.payload), card.payload, (1600, 1200), random.Random(2))
    got = read_photo(data, RunBook([run]))
    assert got.serials == []
    assert "not from this table" in no_card_hint(got)


def test_two_cards_come_in_reading_order(run: PrintRun, faces: scenes.FaceRenderer) -> None:
    a, b = run.cards[0], run.cards[1]
    img = np.full((1200, 1600, 3), 70, np.uint8)
    for card, x in ((b, 900), (a, 100)):  # drawn right first: the order is the photo's
        face = cv2.resize(faces(card.payload), (504, 704))
        img[250:954, x:x + 504] = face
    _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    got = read_photo(bytes(buf), RunBook([run]))
    assert got.serials == [a.serial, b.serial]


def test_an_empty_table_is_no_card_with_a_plain_hint() -> None:
    img = np.full((1200, 1600, 3), 90, np.uint8)
    _ok, buf = cv2.imencode(".jpg", img)
    got = read_photo(bytes(buf))
    assert got.cards == ()
    assert "closer" in no_card_hint(got) and "light" in no_card_hint(got)


@pytest.mark.parametrize("data, words", [
    (b"", "not a JPEG or PNG"),
    (b"GIF89a" + b"\x00" * 100, "not a JPEG or PNG"),
    (b"%PDF-1.4\n", "not a JPEG or PNG"),
    (_png(1, 1), "1x1 pixels"),
    (_png(20000, 20000), "20000x20000"),
    (_png(8000, 4000), "8000x4000"),  # 32 MP: over the 24 MP a photo may have
    (b"\x89PNG\r\n\x1a\n\x00\x00", "cut short"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "cut short"),
    (b"\xff\xd8\x00\x00\x00\x00", "damaged"),
])
def test_bytes_that_are_no_photo_are_refused_by_name(data: bytes, words: str) -> None:
    with pytest.raises(BadPhoto, match=words):
        read_photo(data)


def test_a_jpeg_header_claiming_20000_pixels_is_refused_before_decoding() -> None:
    img = np.full((64, 64), 128, np.uint8)
    _ok, buf = cv2.imencode(".jpg", img)
    data = bytearray(buf)
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 20000, 20000)
    with pytest.raises(BadPhoto, match="20000x20000"):
        read_header(bytes(data))


def test_a_png_bomb_within_the_size_limit_decodes_to_no_card() -> None:
    # 4000 x 4000 zeros: 16 MB of pixels from about 16 KB of file.
    rows = (b"\x00" + b"\x00" * 4000) * 4000
    data = _png(4000, 4000, rows)
    assert len(data) < 64 * 1024
    got = read_photo(data)
    assert got.cards == ()


def test_a_truncated_jpeg_is_bad_or_empty_never_a_crash(run: PrintRun,
                                                        faces: scenes.FaceRenderer) -> None:
    card = run.cards[5]
    data, _ = make_photo(faces(card.payload), card.payload, (1600, 1200), random.Random(4))
    for cut in (3, 20, 200, len(data) // 3, len(data) // 2, len(data) - 10):
        try:
            got = read_photo(data[:cut], RunBook([run]))
        except BadPhoto:
            continue
        assert got.serials in ([], [card.serial])


def test_over_8_mb_is_refused_unread() -> None:
    with pytest.raises(BadPhoto, match=str(photo.MAX_BYTES)):
        read_photo(b"\xff\xd8" + b"\x00" * photo.MAX_BYTES)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048), st.sampled_from([b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n"]))
def test_any_bytes_are_a_bad_photo_or_a_result(noise: bytes, magic: bytes) -> None:
    try:
        got = read_photo(magic + noise)
    except BadPhoto as exc:
        assert str(exc)
    else:
        assert got.cards == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 255), st.integers(1, 40))
def test_a_damaged_jpeg_is_a_bad_photo_or_a_result(seed: int, value: int, count: int) -> None:
    rng = random.Random(seed)
    img = np.full((240, 320, 3), 120, np.uint8)
    cv2.circle(img, (160, 120), 60, (30, 30, 30), -1)
    _ok, buf = cv2.imencode(".jpg", img)
    data = bytearray(buf)
    for _ in range(count):
        data[rng.randrange(len(data))] = value
    try:
        got = read_photo(bytes(data))
    except BadPhoto:
        return
    assert got.cards == ()
