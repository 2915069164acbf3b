"""Printable PDFs: card sheets, boards, table mat, calibration page, manifests."""
