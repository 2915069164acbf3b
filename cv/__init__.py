"""The camera: capture, QR decoding, zones, tracking, sending scans to the referee."""
