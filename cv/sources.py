"""Frame sources: a webcam, a video file, a folder of images, the Raspberry Pi camera.

Each source captures on its own thread into a bounded queue and numbers its frames
(``Frame.seq``), so a slow consumer never mistakes an old frame for a new one (imutils
issues #35/#63). Live sources drop the oldest frame when the queue is full (the newest
view of the table matters); files never drop (every frame is processed). ``stop()`` joins
the thread and releases the device. A camera that stops delivering is reported once,
released and reopened every ``retry_s`` seconds; a file that cannot be read ends the
stream, counted in ``stats``. Nothing here raises out of the capture thread.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)
Image = np.ndarray[Any, Any]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class Frame:
    """One captured frame: sequence number (from 1), time in seconds, BGR or grey image,
    and its scale: image pixels per camera pixel (0.5 for a 4K MJPEG frame decoded at half
    size, ``decode_grey``)."""

    seq: int
    t: float
    image: Image
    name: str = ""
    scale: float = 1.0


# MJPEG frames wider than this are decoded at half size (``decode_grey``).
HALF_ABOVE = 2000
_SOF = frozenset((0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                  0xCF))


def jpeg_size(data: bytes | Image) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, without decoding; ``None`` if the bytes
    hold no frame header before the image data."""
    buf = data[:65536] if isinstance(data, bytes) else data.reshape(-1)[:65536].tobytes()
    i = 2 if buf[:2] == b"\xff\xd8" else -1
    while 0 <= i < len(buf) - 9:
        if buf[i] != 0xFF:
            return None
        marker = buf[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in _SOF:
            return (buf[i + 7] << 8 | buf[i + 8], buf[i + 5] << 8 | buf[i + 6])
        if marker == 0xDA:  # image data before any frame header
            return None
        i += 2 + (buf[i + 2] << 8 | buf[i + 3])
    return None


def decode_grey(data: bytes | Image, half_above: int | None = HALF_ABOVE
                ) -> tuple[Image | None, float]:
    """A camera's JPEG (MJPEG) frame decoded straight to grey, and its scale: a frame
    wider than ``half_above`` pixels (4K) is decoded at half size by libjpeg's scaled
    inverse DCT (``IMREAD_REDUCED_GRAYSCALE_2``), which leaves out most of the decoding
    work after the entropy decoding (docs/camera.md); ``None`` for bytes that are no
    image. The reader reads such a frame as it reads 1080p."""
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data.reshape(-1)
    size = jpeg_size(data) if half_above is not None else None
    if size is not None and half_above is not None and size[0] > half_above:
        half = cv2.imdecode(buf, cv2.IMREAD_REDUCED_GRAYSCALE_2)
        if half is not None:
            return half, 0.5
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE), 1.0


@dataclass
class SourceStats:
    frames: int = 0
    dropped: int = 0
    errors: int = 0
    reconnects: int = 0
    lost: bool = False
    messages: list[str] = field(default_factory=list)


class FrameSource(ABC):
    """Capture on a thread; ``read`` or iterate to get frames; ``stop`` to finish."""

    live = False

    def __init__(self, queue_size: int = 4, retry_s: float = 1.0, fps: float = 30.0) -> None:
        self._queue: queue.Queue[Frame | None] = queue.Queue(maxsize=max(1, queue_size))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.retry_s = retry_s
        self.fps = fps  # files: frame times are seq / fps, so replays are deterministic
        self.stats = SourceStats()
        self.ended = False
        self.scale = 1.0  # of the last frame grabbed: image pixels per camera pixel

    # Subclasses: open the device or file (False if impossible), grab a frame (None if
    # none came), release.
    @abstractmethod
    def _open(self) -> bool: ...

    @abstractmethod
    def _grab(self) -> tuple[Image, str] | None: ...

    @abstractmethod
    def _release(self) -> None: ...

    def describe(self) -> str:
        return type(self).__name__

    def _note(self, msg: str) -> None:
        log.warning("%s: %s", self.describe(), msg)
        self.stats.messages.append(msg)
        del self.stats.messages[:-20]

    def _put(self, frame: Frame | None) -> None:
        while not self._stop.is_set():
            try:
                if self.live:
                    self._queue.put_nowait(frame)
                else:
                    self._queue.put(frame, timeout=0.1)
                return
            except queue.Full:
                if self.live:  # the newest view of the table matters: drop the oldest
                    try:
                        self._queue.get_nowait()
                        self.stats.dropped += 1
                    except queue.Empty:
                        pass

    def _run(self) -> None:
        seq = 0
        opened = False
        failures = 0
        try:
            while not self._stop.is_set():
                if not opened:
                    try:
                        opened = self._open()
                    except Exception as exc:
                        opened = False
                        self._note(f"cannot open: {exc}")
                    if not opened:
                        self.stats.errors += 1
                        if not self.live:
                            self._note("cannot be opened or read")
                            break
                        if not self.stats.lost:
                            self.stats.lost = True
                            self._note(f"camera unavailable; retrying every {self.retry_s:g} s")
                        self._stop.wait(self.retry_s)
                        continue
                    if self.stats.lost:
                        self.stats.lost = False
                        self.stats.reconnects += 1
                        self._note("camera back")
                try:
                    got = self._grab()
                except Exception as exc:
                    self._note(f"read failed: {exc}")
                    got = None
                if got is None:
                    if not self.live:
                        break  # end of the file or folder
                    failures += 1
                    self.stats.errors += 1
                    if failures >= 10:  # about a third of a second of nothing: lost
                        self._release()
                        opened = False
                        failures = 0
                        self.stats.lost = True
                        self._note(f"camera lost; retrying every {self.retry_s:g} s")
                        self._stop.wait(self.retry_s)
                    else:
                        self._stop.wait(0.03)
                    continue
                failures = 0
                seq += 1
                self.stats.frames += 1
                image, name = got
                t = time.monotonic() if self.live else seq / self.fps
                self._put(Frame(seq, t, image, name, self.scale))
        finally:
            self._release()
            self.ended = True
            self._put(None)

    def start(self) -> FrameSource:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.describe(), daemon=True)
            self._thread.start()
        return self

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The next frame, or ``None`` on timeout or at the end (check ``ended``)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def frames(self) -> Iterator[Frame]:
        """Every frame until the source ends or is stopped."""
        self.start()
        while not self._stop.is_set():
            f = self.read(0.5)
            if f is None:
                if self.ended and self._queue.empty():
                    return
                continue
            yield f

    def stop(self, timeout: float = 5.0) -> None:
        """Stop capturing, join the thread, release the device."""
        self._stop.set()
        while True:  # unblock a producer waiting on a full queue
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _quiet_opencv() -> None:
    with contextlib.suppress(AttributeError):  # a build without the logging utilities
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


class _CaptureSource(FrameSource):
    def __init__(self, target: int | str, **kw: Any) -> None:
        super().__init__(**kw)
        self.target = target
        self._cap: cv2.VideoCapture | None = None
        self.size: tuple[int, int] | None = None

    def _configure(self, cap: cv2.VideoCapture) -> None:
        pass

    def _open(self) -> bool:
        if self.stats.lost:  # OpenCV would warn on every retry; we report the loss once
            _quiet_opencv()
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            return False
        self._configure(cap)
        self._cap = cap
        return True

    def _grab(self) -> tuple[Image, str] | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        if not ok or image is None or image.size == 0:
            return None
        return image, ""

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class CameraSource(_CaptureSource):
    """A webcam by index (``/dev/videoN`` on Linux)."""

    live = True

    def __init__(self, index: int, size: tuple[int, int] | None = (1280, 720),
                 half_above: int | None = HALF_ABOVE, **kw: Any) -> None:
        kw.setdefault("queue_size", 2)
        super().__init__(index, **kw)
        self.size = size
        # MJPEG frames wider than this are decoded at half size (None: never).
        self.half_above = half_above

    def describe(self) -> str:
        return f"camera {self.target}"

    def _configure(self, cap: cv2.VideoCapture) -> None:
        if self.size:
            if self.size[0] > 1920:
                # Above 1080p a USB camera only keeps its frame rate in MJPEG; the JPEG is
                # decoded here, straight to grey and a 4K frame at half size (12 instead
                # of 14 ms median, 33 in colour, on one core; docs/camera.md), when the
                # backend hands the bytes over.
                cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
                cap.set(cv2.CAP_PROP_CONVERT_RGB, 0)
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def _grab(self) -> tuple[Image, str] | None:
        got = super()._grab()
        if got is None:
            return None
        image, name = got
        self.scale = 1.0
        if image.ndim <= 2 and (image.ndim == 1 or image.shape[0] == 1):
            # Raw MJPEG bytes (CONVERT_RGB off): decode to the grey image the reader uses,
            # a 4K frame at half size (``decode_grey``).
            grey, self.scale = decode_grey(image, self.half_above)
            if grey is None:
                self.stats.errors += 1
                return None
            return grey, name
        return image, name


class VideoSource(_CaptureSource):
    """A video file; frame times are ``seq / fps`` of the file."""

    def __init__(self, path: str | Path, **kw: Any) -> None:
        super().__init__(str(path), **kw)

    def describe(self) -> str:
        return f"video {Path(str(self.target)).name}"

    def _configure(self, cap: cv2.VideoCapture) -> None:
        fps = cap.get(cv2.CAP_PROP_FPS)
        if fps and 1 <= fps <= 240:
            self.fps = float(fps)


class ImageFolderSource(FrameSource):
    """Every image of a folder in name order, each ``hold`` times (a still table)."""

    def __init__(self, folder: str | Path, hold: int = 1, **kw: Any) -> None:
        super().__init__(**kw)
        self.folder = Path(folder)
        self.hold = max(1, hold)
        self._paths: list[Path] = []
        self._i = 0

    def describe(self) -> str:
        return f"images {self.folder.name}"

    def _open(self) -> bool:
        if not self.folder.is_dir():
            return False
        self._paths = sorted(p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES)
        self._i = 0
        return True

    def _grab(self) -> tuple[Image, str] | None:
        while self._i < len(self._paths) * self.hold:
            path = self._paths[self._i // self.hold]
            self._i += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.stats.errors += 1
                if (self._i - 1) % self.hold == 0:
                    self._note(f"{path.name} is not a readable image; skipped")
                continue
            return image, path.name
        return None

    def _release(self) -> None:
        pass


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2 (imported only when this source opens).

    By default it asks for YUV420 and hands on the Y plane: the greyscale image the
    decoder wants, with no colour conversion or JPEG decoding on the Pi's slow cores
    (``colour=True`` gives BGR frames instead, for a colour preview). ``size=None`` is
    the sensor's full resolution (4608x2592 on the Camera Module 3): the whole table of an
    8-player game at 130-180 px a card.
    """

    live = True

    def __init__(self, size: tuple[int, int] | None = (1280, 720), colour: bool = False,
                 **kw: Any) -> None:
        kw.setdefault("queue_size", 2)
        super().__init__(**kw)
        self.size = size
        self.colour = colour
        self._cam: Any = None

    def describe(self) -> str:
        return "Pi camera"

    def _open(self) -> bool:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise RuntimeError("picamera2 is not installed (apt install python3-picamera2)"
                               ) from exc
        cam = Picamera2()
        if self.size is None:
            w, h = cam.sensor_resolution
            self.size = (int(w), int(h))
        # "RGB888" in picamera2 is B, G, R byte order in memory: what OpenCV expects.
        fmt = "RGB888" if self.colour else "YUV420"
        config = cam.create_video_configuration(main={"size": self.size, "format": fmt})
        cam.configure(config)
        cam.start()
        self._cam = cam
        return True

    def _grab(self) -> tuple[Image, str] | None:
        if self._cam is None:
            return None
        image = self._cam.capture_array("main")
        if image is None:
            return None
        if not self.colour and self.size is not None:
            # YUV420 planes stacked: the first height rows are Y
            image = np.ascontiguousarray(image[:self.size[1], :self.size[0]])
        return image, ""

    def _release(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception as exc:  # releasing must not raise out of the thread
                log.warning("Pi camera did not close cleanly: %s", exc)
            self._cam = None
