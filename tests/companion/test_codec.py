"""The QR payload codec (C-1, C-5): short, version-1 QR, precise errors."""

from __future__ import annotations

import pytest
import qrcode
from hypothesis import given
from hypothesis import strategies as st

from companion import codec
from companion.errors import ForeignPayload, MalformedPayload

B36 = st.text(alphabet=codec.ALPHABET, min_size=1, max_size=1)


def test_round_trip() -> None:
    text = codec.encode("W", "UWA", "K2F9", "01A")
    p = codec.decode(text)
    assert (p.game_code, p.face_code, p.run, p.copy) == ("W", "UWA", "K2F9", "01A")
    assert p.serial == "K2F9-01A"
    assert p.encode() == text


def test_longest_payload_fits_a_version_1_code_at_level_m() -> None:
    text = codec.encode("W", "ZZZ", "ZZZZ", "ZZZ")
    assert len(text) <= codec.MAX_LENGTH
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    assert qr.version == 1


@given(
    game=st.sampled_from("WGSMC"),
    face=st.text(alphabet=codec.ALPHABET, min_size=1, max_size=3),
    run=st.text(alphabet=codec.ALPHABET, min_size=4, max_size=4),
    copy=st.text(alphabet=codec.ALPHABET, min_size=3, max_size=3),
)
def test_any_valid_parts_round_trip(game: str, face: str, run: str, copy: str) -> None:
    p = codec.decode(codec.encode(game, face, run, copy))
    assert (p.game_code, p.face_code, p.run, p.copy) == (game, face, run, copy)


@given(pos=st.integers(min_value=0, max_value=17), ch=B36)
def test_any_single_wrong_character_is_refused(pos: int, ch: str) -> None:
    good = codec.encode("W", "WA", "K2F9", "01A")
    if good[pos] == ch or good[pos] == ":":
        return
    bad = good[:pos] + ch + good[pos + 1 :]
    with pytest.raises(MalformedPayload):
        codec.decode(bad)


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("https://example.test/x", ForeignPayload, "not a Table Companion card"),
        ("", ForeignPayload, "not a Table Companion card"),
        ("T1:W:WA:K2F9", MalformedPayload, "truncated"),
        ("T1:W:WAX:K2F9:01A:7:XX", MalformedPayload, "longer than"),
        ("T1:W:WA:K2F9:01A:7:X", MalformedPayload, "7 parts"),
        ("T1:w:WA:K2F9:01A:7", MalformedPayload, "game code"),
        ("T1:W:WAXX:K2F:01A:7", MalformedPayload, "face code"),
        ("T1:W:WA:K2F:01AB:7", MalformedPayload, "run"),
        ("T1:W:WA:K2F9:01:77", MalformedPayload, "copy"),
    ],
)
def test_bad_payloads_are_refused_precisely(text: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words) as info:
        codec.decode(text)
    assert repr(text[:40]) in str(info.value) or text == ""


def test_not_text_is_refused() -> None:
    with pytest.raises(MalformedPayload, match="must be text"):
        codec.decode(b"T1:W:WA:K2F9:01A:7")  # type: ignore[arg-type]


def test_encode_refuses_bad_parts() -> None:
    with pytest.raises(MalformedPayload, match="run"):
        codec.encode("W", "WA", "K2F", "01A")
    with pytest.raises(MalformedPayload, match="face code"):
        codec.encode("W", "wa", "K2F9", "01A")


def test_serials() -> None:
    assert codec.parse_serial("K2F9-01A") == ("K2F9", "01A")
    with pytest.raises(MalformedPayload, match="not a card serial"):
        codec.parse_serial("K2F9:01A")


def test_base36() -> None:
    assert codec.to_base36(0, 3) == "000"
    assert codec.to_base36(36 * 36 * 36 - 1, 3) == "ZZZ"
    with pytest.raises(ValueError):
        codec.to_base36(36**3, 3)
