"""Odd bodies for every game: the server answers 4xx (or plays a legal event), never 500,
and a refusal changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import GAMES, bearer, config, make_table

from web import create_app, services

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["seat:1", "seat:2", "universe",
                                                           "locus:1", "pot", "void", "T1:W"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)


def bodies(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    keys = st.sampled_from(["seat", "card", "cards", "zone", "winner", "amount", "to",
                            "skill", "target", "count", "positions", "value", "override"])
    return st.builds(lambda t, extra: {"type": t, **extra},
                     st.one_of(st.sampled_from(types), st.text(max_size=8)),
                     st.dictionaries(keys, values, max_size=4))


@pytest.mark.parametrize("game", GAMES)
def test_no_body_gets_a_500(tmp_path_factory: pytest.TempPathFactory, game: str) -> None:
    data_dir = tmp_path_factory.mktemp(game)
    app = create_app(config(data_dir))
    client = app.test_client()
    t = make_table(client, data_dir, game)
    table = services(app).tables.get(t["table"])
    types = sorted({a["type"] for a in table.rules.actions(table.match.state, None)} |
                   {"scan", "play", "bid", "pass", "move", "skill", "declare"})
    who = [t["host_token"], t["seats"][0]["token"], t["seats"][1]["token"]]

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(body=bodies(types), token=st.sampled_from(who), path=st.sampled_from(
        ["/actions", "/scans"]))
    def check(body: dict[str, Any], token: str, path: str) -> None:
        before = table.version
        view = json.dumps(table.rules.referee_view(table.match.state), sort_keys=True)
        r = client.post(f"/api/tables/{t['table']}{path}", json=body, headers=bearer(token))
        assert r.status_code < 500, (body, r.json)
        assert r.is_json and "version" in r.json
        if r.status_code >= 400:
            assert r.json["code"] and r.json["error"]
            assert table.version == before
            assert json.dumps(table.rules.referee_view(table.match.state),
                              sort_keys=True) == view

    try:
        check()
    finally:
        services(app).close()
