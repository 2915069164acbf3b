"""QR codes of join links: SVG for the pages, text blocks for the terminal."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def svg(text: str) -> str:
    """An inline SVG of a QR code (no Pillow needed; scales with CSS)."""
    img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = img.to_string(encoding="unicode")
    return out if isinstance(out, str) else out.decode("utf-8")


def ascii_art(text: str) -> str:
    """The QR code in half-block characters for a terminal (dark text on light works)."""
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    qr.add_data(text)
    qr.make(fit=True)
    buf = io.StringIO()
    qr.print_ascii(out=buf, invert=True)
    return buf.getvalue()
