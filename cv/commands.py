"""Subcommands of this package (registered by ``companion_cli``)."""

from __future__ import annotations

from typing import Any


def register(cli: Any) -> None:
    """Add this package's subcommands and benchmarks to ``cli``."""
