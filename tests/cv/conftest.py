"""Shared fixtures: a seeded print run and a scene renderer using the printed card faces."""

from __future__ import annotations

import random

import pytest

from bench import scenes
from companion.cards import load_deck
from companion.runs import PrintRun, new_run


@pytest.fixture(scope="session")
def run() -> PrintRun:
    return new_run(load_deck("wuxing"), sets=2, run_id="T3ST", rng=random.Random(7))


@pytest.fixture(scope="session")
def other_run() -> PrintRun:
    return new_run(load_deck("wuxing"), run_id="0THR", rng=random.Random(8))


@pytest.fixture(scope="session")
def renderer(run: PrintRun, other_run: PrintRun) -> scenes.SceneRenderer:
    return scenes.SceneRenderer("wuxing", 8, face=scenes.default_face_renderer([run, other_run]))
