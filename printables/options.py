"""What the user asked ``companion print`` for, as one value."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PrintOptions:
    """What the user asked for (``companion print`` flags)."""

    paper: str = "a4"
    card: str = "standard"
    bleed: float = 0.0
    crop_marks: bool = True
    backs: str = "none"
    back_style: str = "full"  # or "ink-saver": outlines and coloured words on white
    back_offset: tuple[float, float] = (0.0, 0.0)
    copies: int = 1
    players: int | None = None
    extras: bool = True
    mat_game: str = "wuxing"
    names: tuple[str, ...] = ()  # the mat's players in seat order ("Ana's place")
    run_ids: dict[str, str] = field(default_factory=dict)  # tests: fixed run ids per game
