"""Print runs, manifests and the run book (C-1): only printed serials are accepted."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion import codec
from companion.cards import load_deck
from companion.errors import BadSetup, ForeignPayload, MalformedPayload, UnknownCard
from companion.registry import demo_run
from companion.runs import RunBook, RunStore, new_run, run_from_manifest


@pytest.fixture
def run():  # type: ignore[no-untyped-def]
    return new_run(load_deck("wuxing"), rng=random.Random(3), run_id="AB12")


def test_a_run_numbers_every_card_once(run) -> None:  # type: ignore[no-untyped-def]
    assert len(run.cards) == 44 + 24  # WX-2: player deck and universe deck
    serials = [c.serial for c in run.cards]
    assert len(set(serials)) == len(serials)
    assert all(s.startswith("AB12-") for s in serials)
    faces = {c.face.id for c in run.cards}
    assert {"wood", "dragon", "star", "universe-water", "universe-dragon"} <= faces


def test_sets_per_deck_prints_extra_sets() -> None:
    deck = load_deck("wuxing")
    run = new_run(deck, sets_per_deck={"player": 2, "universe": 1}, run_id="AB13")
    assert len(run.cards) == 88 + 24
    assert {c.set_no for c in run.cards if c.deck == "player"} == {1, 2}


def test_resolve_accepts_printed_cards(run) -> None:  # type: ignore[no-untyped-def]
    book = RunBook([run])
    card = run.cards[10]
    assert book.resolve(card.payload, "wuxing") is card
    assert book.card(card.serial) is card


def test_resolve_refuses_unprinted_and_forged(run) -> None:  # type: ignore[no-untyped-def]
    book = RunBook([run])
    other_run = codec.encode("W", "WO", "ZZZZ", "000")
    with pytest.raises(UnknownCard, match="'ZZZZ' is not registered"):
        book.resolve(other_run)
    never = codec.encode("W", "WO", "AB12", "ZZZ")
    with pytest.raises(UnknownCard, match="never printed"):
        book.resolve(never)
    wood = next(c for c in run.cards if c.face.id == "wood")
    forged = codec.encode("W", "ST", "AB12", wood.serial[-3:])  # a wood card relabelled Star
    with pytest.raises(UnknownCard, match="printed as 'wood'"):
        book.resolve(forged)
    with pytest.raises(ForeignPayload, match="not godnum"):
        book.resolve(wood.payload, "godnum")
    with pytest.raises(MalformedPayload):
        book.resolve("T1:W:WO:AB12:000")
    with pytest.raises(UnknownCard, match="never printed"):
        book.card("AB12-ZZZ")


def test_store_round_trip(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path)
    path = store.save(run)
    # The data folder holds tokens too: owner only (issue 19 §6).
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    again = store.load(run.run_id)
    assert [c.payload for c in again.cards] == [c.payload for c in run.cards]
    assert store.newest("wuxing") == again
    assert store.newest("shrine") is None
    with pytest.raises(UnknownCard, match="not registered"):
        store.load("ZZZZ")
    with pytest.raises(UnknownCard):
        store.load("../x")


def test_tampered_manifest_is_refused(run) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(json.dumps(run.manifest()))
    data["cards"][0]["face"] = "star"
    with pytest.raises(BadSetup, match="does not match"):
        run_from_manifest(data)
    del data["cards"]
    with pytest.raises(BadSetup, match="missing"):
        run_from_manifest(data)


def test_bad_runs_are_refused() -> None:
    deck = load_deck("wuxing")
    with pytest.raises(BadSetup, match="sets must be"):
        new_run(deck, sets=0)
    with pytest.raises(BadSetup, match="no deck 'hand'"):
        new_run(deck, decks=["hand"])
    with pytest.raises(BadSetup, match="run id"):
        new_run(deck, run_id="ab")
    with pytest.raises(BadSetup, match="listed twice"):
        r = new_run(deck, run_id="AB14")
        RunBook([r, r])


def test_a_run_of_cards_a_deck_no_longer_has_is_passed_over(tmp_path: Path) -> None:
    """God Num's Cleanse became Burden (GN-3 rev. 2): an old manifest must not break the
    lobby or new tables; the runs that can be read are still found."""
    store = RunStore(tmp_path)
    good = demo_run("godnum", 2, random.Random(3))
    store.save(good)
    old = good.manifest()
    old["run"] = "OLD1"
    for card in old["cards"]:
        card["face"] = card["face"].replace("burden", "cleanse")
    (tmp_path / "runs" / "OLD1.json").write_text(json.dumps(old))
    assert [r.run_id for r in store.all()] == [good.run_id]
    assert store.newest("godnum") is not None and store.newest("godnum").run_id == good.run_id
    with pytest.raises(BadSetup, match="cleanse"):
        store.load("OLD1")  # a table made with it is reported unavailable, not rebuilt
