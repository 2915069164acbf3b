"""Progress of long commands on a terminal (issue 29 §14): done/total, rate and time left.

A command that takes more than a few seconds (``report``, ``simulate``, ``print all``,
``print --pod``, ``export``/``import``, ``bench film``) counts its steps through a
``Progress``. On a terminal it is a tqdm bar on stderr; when stdout is not a terminal (a
pipe, a file, CI) or the command prints JSON, it is silent, so the output stays what a
script reads. The engines never see it: only commands make one.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, Protocol


class Progress(Protocol):
    """What a long job calls as it goes."""

    def advance(self, steps: int = 1) -> None: ...

    def grow(self, steps: int) -> None: ...


class Silent:
    """The progress of a job nobody watches."""

    def advance(self, steps: int = 1) -> None:
        return None

    def grow(self, steps: int) -> None:
        return None

    def __enter__(self) -> Silent:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        return None


class Bar(Silent):
    """A tqdm bar on stderr: done/total, rate, time left."""

    def __init__(self, total: int | None, what: str, unit: str) -> None:
        from tqdm import tqdm  # only a terminal needs it

        self._bar: Any = tqdm(total=total, desc=what, unit=f" {unit}", file=sys.stderr,
                              leave=False, dynamic_ncols=True, mininterval=0.5)

    def advance(self, steps: int = 1) -> None:
        self._bar.update(steps)

    def grow(self, steps: int) -> None:
        self._bar.total = (self._bar.total or 0) + steps
        self._bar.refresh()

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._bar.close()


def watched(json_output: bool = False) -> bool:
    """Whether a person watches: stdout is a terminal and the output is not JSON."""
    return not json_output and sys.stdout.isatty()


def progress(total: int | None, what: str, unit: str = "steps", *, json_output: bool = False
             ) -> Bar | Silent:
    """A bar of ``total`` ``unit`` named ``what`` when a person watches, else silence
    (``None``: a count and its rate, when the total is not known beforehand)."""
    if not watched(json_output):
        return Silent()
    return Bar(total, what, unit)
