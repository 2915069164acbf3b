"""One contract, two stores: SQLite (the embedded default) and PostgreSQL (many processes).

Every test runs against both, on a real SQLite file and a real throwaway PostgreSQL
cluster (scripts/pgcluster): appends, voids, scan ids, catching up by seq, two processes
racing for the same seq (exactly one wins), and a process killed right after its commit.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import StaleVersion
from web.store import Record, Store


def open_store(kind: str, where: str) -> Any:
    if kind == "sqlite":
        return Store(where, synchronous="NORMAL")
    from web.pgstore import PgStore

    return PgStore(where, max_connections=4)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if request.param == "sqlite":
        yield "sqlite", str(tmp_path / "companion.sqlite3")
    else:
        yield "postgresql", request.getfixturevalue("pg_url")


def rec(seq: int, kind: str = "event", body: dict[str, Any] | None = None) -> Record:
    return Record(seq, 1000.0 + seq, kind, "seat:1", body or {"type": "next", "n": seq},
                  f"ruling {seq}", public=f"public {seq}")


def test_create_append_load_and_catch_up(target: tuple[str, str]) -> None:
    store = open_store(*target)
    try:
        store.create_table("abc", "wuxing", {"players": ["Ana", "Ben"]}, 5.0, [rec(1)])
        store.append("abc", [rec(2), rec(3)])
        store.append("abc", [rec(4, "undo", {"voids": [3]})], void=[3], voided_by=4,
                     scan=(("camera", "scan-1"), 200, {"card": "K2F9-01A"}))
        st = store.load_table("abc")
        assert st is not None and st.game == "wuxing" and st.config["players"] == ["Ana", "Ben"]
        assert [r.seq for r in st.records] == [1, 2, 3, 4]
        assert st.records[2].voided_by == 4 and st.records[1].voided_by is None
        assert st.records[0].public == "public 1" and st.records[1].body == {"type": "next",
                                                                             "n": 2}
        assert [r.seq for r in store.records_after("abc", 2)] == [3, 4]
        assert store.records_after("abc", 4) == []
        assert store.scan("abc", ("camera", "scan-1")) == (200, {"card": "K2F9-01A"})
        assert store.scan("abc", ("seat:1", "scan-1")) is None  # scan ids are the sender's
        assert store.scan("abc", ("camera", "scan-2")) is None
        assert store.load_table("nope") is None
        assert store.table_ids() == ["abc"]
        store.delete_table("abc", 99.0)  # archived: kept, but no longer served
        assert store.load_table("abc") is None and store.table_ids() == []
        assert store.deleted_ids() == {"abc": 99.0}
        assert [r.seq for r in store.records_after("abc", 0)] == [1, 2, 3, 4]
    finally:
        store.close()


def test_a_taken_seq_is_stale_and_writes_nothing(target: tuple[str, str]) -> None:
    store = open_store(*target)
    try:
        store.create_table("abc", "wuxing", {}, 5.0, [rec(1), rec(2)])
        with pytest.raises(StaleVersion, match="changed meanwhile"):
            store.append("abc", [rec(3), rec(2)], scan=(("camera", "s"), 200, {}))
        # The whole append is refused: neither seq 3 nor the scan id was kept.
        assert [r.seq for r in store.records_after("abc", 0)] == [1, 2]
        assert store.scan("abc", ("camera", "s")) is None
        store.append("abc", [rec(3)])
        assert [r.seq for r in store.records_after("abc", 0)] == [1, 2, 3]
    finally:
        store.close()


def _racer(kind: str, where: str, name: str, go: Any, results: Any) -> None:
    store = open_store(kind, where)
    try:
        for seq in range(2, 22):
            go.wait()
            try:
                store.append("race", [Record(seq, time.time(), "event", name,
                                             {"type": "next", "by": name})])
                results.put((seq, name, "won"))
            except StaleVersion:
                results.put((seq, name, "stale"))
    finally:
        store.close()


def test_two_processes_racing_for_each_seq_exactly_one_wins(target: tuple[str, str]) -> None:
    store = open_store(*target)
    store.create_table("race", "wuxing", {}, 5.0, [rec(1)])
    ctx = mp.get_context("spawn")
    go = ctx.Barrier(2)
    results = ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(*target, name, go, results))
             for name in ("A", "B")]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=120) for _ in range(40)]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    by_seq: dict[int, list[str]] = {}
    for seq, _, what in outcomes:
        by_seq.setdefault(seq, []).append(what)
    assert all(sorted(v) == ["stale", "won"] for v in by_seq.values()), by_seq
    stored = store.records_after("race", 0)
    assert [r.seq for r in stored] == list(range(1, 22))
    winners = {seq: name for seq, name, what in outcomes if what == "won"}
    assert all(r.who == winners[r.seq] for r in stored[1:])
    store.close()


def _commit_then_die(kind: str, where: str) -> None:
    store = open_store(kind, where)
    store.append("crash", [rec(2)], scan=(("camera", "scan-9"), 200, {"card": "X"}))
    os._exit(0)  # killed between the commit and any acknowledgement


def test_a_commit_survives_a_process_killed_before_it_answered(
        target: tuple[str, str]) -> None:
    store = open_store(*target)
    store.create_table("crash", "wuxing", {}, 5.0, [rec(1)])
    ctx = mp.get_context("spawn")
    p = ctx.Process(target=_commit_then_die, args=target)
    p.start()
    p.join(timeout=120)
    assert p.exitcode == 0
    # Another process sees the write, and the scan id answers a retried scan the same way.
    assert [r.seq for r in store.records_after("crash", 0)] == [1, 2]
    assert store.scan("crash", ("camera", "scan-9")) == (200, {"card": "X"})
    store.close()
