"""``companion bench film``: whole games filmed and refereed by the camera (issue 26)."""
