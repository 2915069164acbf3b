"""``companion bench pages`` writes what people look at: each page of a game at five moments
(issue 11, "Done when"), at the sizes of a big screen and a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bench.pages import shoot


@pytest.mark.browser
def test_bench_pages_writes_each_page_at_each_moment(tmp_path: Path) -> None:
    # Run from the project root, --out's data/ would be ./scripts/run's tables (issue 19 §6).
    kept = tmp_path / "shots" / "data" / "companion.sqlite3"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"a player's tables")
    files = shoot(tmp_path / "shots", ["godnum"])
    names = sorted(p.name for p in files)
    moments = ["1-start", "2-mid", "3-refused", "4-undone", "5-end"]
    assert names == sorted(f"godnum-{m}-{page}.png" for m in moments
                           for page in ("big", "referee", "phone"))
    for path in files:
        with Image.open(path) as im:
            if path.name.endswith("-big.png"):
                assert im.size == (1280, 800)
            elif path.name.endswith("-phone.png"):
                assert im.width == 390 and im.height >= 844
            else:
                assert im.width == 1280
            # A page, not a blank: more than a handful of colours.
            assert len(im.convert("RGB").getcolors(1 << 16) or range(1 << 16)) > 20
    assert kept.read_bytes() == b"a player's tables"  # what it did not make is untouched
    assert sorted(p.name for p in (tmp_path / "shots").iterdir() if p.is_dir()) == ["data"]
