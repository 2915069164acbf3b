"""Frame sources: numbered frames, bounded queue, stop releases, bad input never crashes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from cv.sources import FrameSource, ImageFolderSource, VideoSource


def test_a_folder_gives_numbered_frames_and_skips_unreadable_files(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((40, 60, 3), 50 * i, np.uint8))
    (tmp_path / "1b.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "notes.txt").write_text("ignored")
    src = ImageFolderSource(tmp_path, hold=2, queue_size=1)
    frames = list(src.frames())
    assert [f.seq for f in frames] == [1, 2, 3, 4, 5, 6]
    assert [f.name for f in frames] == ["0.png", "0.png", "1.png", "1.png", "2.png", "2.png"]
    assert frames[1].t > frames[0].t
    assert src.stats.errors == 2 and src.ended
    assert "1b.jpg is not a readable image; skipped" in src.stats.messages[0]


def test_a_video_file_plays_every_frame(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    for i in range(12):
        out.write(np.full((48, 64, 3), 20 * i, np.uint8))
    out.release()
    src = VideoSource(path, queue_size=2)
    frames = list(src.frames())
    assert [f.seq for f in frames] == list(range(1, 13))
    assert src.fps == 15 and abs(frames[1].t - frames[0].t - 1 / 15) < 1e-9


def test_a_corrupted_video_ends_with_a_message_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "broken.mp4"
    path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 20)
    src = VideoSource(path)
    assert list(src.frames()) == []
    assert src.ended and src.stats.messages


class FlakyCamera(FrameSource):
    """A live camera that delivers, vanishes (unplugged), and comes back."""

    live = True

    def __init__(self) -> None:
        super().__init__(queue_size=2, retry_s=0.01)
        self.script = ["ok"] * 5 + ["fail"] * 12 + ["gone"] * 3 + ["ok"] * 500
        self.opens = 0
        self.released = 0
        self.lock = threading.Lock()

    def _open(self) -> bool:
        with self.lock:
            if self.script and self.script[0] == "gone":
                self.script.pop(0)
                return False
        self.opens += 1
        return True

    def _grab(self) -> Any:
        with self.lock:
            step = self.script.pop(0) if self.script else "ok"
        if step == "fail":
            return None
        return np.zeros((4, 4, 3), np.uint8), ""

    def _release(self) -> None:
        self.released += 1


def test_a_camera_that_disappears_is_reported_and_reopened() -> None:
    cam = FlakyCamera().start()
    seqs = []
    while len(seqs) < 40:
        f = cam.read(2.0)
        assert f is not None
        seqs.append(f.seq)
    cam.stop()
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)  # never the same frame twice
    assert cam.stats.reconnects == 1 and cam.opens == 2
    assert any("camera lost" in m for m in cam.stats.messages)
    assert cam.released >= 2  # on loss, and on stop
    assert cam._thread is None


def test_a_slow_consumer_gets_fresh_frames_from_a_live_camera() -> None:
    cam = FlakyCamera()
    cam.script = ["ok"] * 2000
    cam.start()
    first = cam.read(1.0)
    threading.Event().wait(0.2)  # the consumer is busy; the queue holds only 2
    later = cam.read(1.0)
    cam.stop()
    assert first is not None and later is not None
    assert later.seq > first.seq + 2 and cam.stats.dropped > 0
