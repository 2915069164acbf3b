"""Odd query strings on every route never make a 500 (issue 19 §6): ``camera/frames?seq=
[[[[...`` answered ``500 RecursionError``. Bodies are fuzzed in test_web_fuzz.py; here every
query field any view reads (found in the source, so a new one is fuzzed too) gets deep
brackets, huge numbers, NUL bytes, lone surrogates' escapes and repeated fields, on every
route and method, with and without a token."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import bearer, make_table

from web.guard import query_number

WEB = Path(__file__).resolve().parents[2] / "web"


def query_fields() -> list[str]:
    """Every ``request.args`` field the views read (and the camera's numbers)."""
    text = "\n".join(p.read_text() for p in WEB.glob("*.py"))
    found = set(re.findall(r"""args\.get\(\s*["'](\w+)["']""", text))
    found |= set(re.findall(r"""_number\(\s*["'](\w+)["']\)""", text))
    return sorted(found | {"seq", "t", "zone", "token", "last"})


HOSTILE = ["[" * 5000, "{" * 3000, '{"a":' * 2000, "9" * 5000, "1e999", "-1e999", "NaN",
           "Infinity", "-0", "0x10", "1" * 19, "\x00", "%00", "a\x00b", "\\ud800", "seat:1",
           "seat:99", "seat:-1", "universe", " ", "", "true", "null", "[]", "{}", "1.5",
           "é" * 400, "x" * 70_000, "../../etc/passwd", "%", "%zz", "\r\nX-A: b"]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40),
                   st.integers().map(str), st.floats().map(str))


def tiny_jpeg() -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((32, 32), 200, np.uint8))
    assert ok
    return bytes(buf)


def routes(app: Flask, t: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/static"):
            continue
        path = (rule.rule.replace("<table_id>", t["table"]).replace("<int:seat>", "1")
                .replace("<game>", "wuxing"))
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, path))
    return out


def send(client: FlaskClient, method: str, path: str, query: list[tuple[str, str]],
         headers: dict[str, str]) -> int:
    kwargs: dict[str, Any] = {"query_string": query, "headers": headers}
    if method == "POST":
        if path.endswith(("/photos", "/camera/frames")):
            kwargs.update(data=tiny_jpeg(), content_type="image/jpeg")
        else:
            kwargs["json"] = {}
    if path.endswith("/events"):
        kwargs["buffered"] = False
    r = client.open(path, method=method, **kwargs)
    status = r.status_code
    r.close()
    return status


def test_the_query_fields_found_include_the_cameras() -> None:
    assert {"seq", "t", "zone", "scan_id", "token", "last"} <= set(query_fields())


def test_the_reported_deep_seq_is_a_400_not_a_500(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir)
    r = client.post(f"/api/tables/{t['table']}/camera/frames?seq={'[' * 5000}&t=0",
                    data=tiny_jpeg(), content_type="image/jpeg",
                    headers=bearer(t["camera_token"]))
    assert r.status_code == 400 and r.json["code"] == "bad_frame", r.json
    assert "seq must be a whole number" in r.json["error"]


@pytest.mark.parametrize(("raw", "value"), [
    (None, None), ("7", 7), ("-3", -3), ("1.25", 1.25), ("2e3", 2000.0), ("1e999", "1e999"),
    ("[" * 50, "[" * 50), ("true", "true"), ("NaN", "NaN"), ("0x10", "0x10"),
    ("9" * 41, "9" * 41)])
def test_query_numbers_are_numbers_or_the_text_sent(raw: str | None, value: Any) -> None:
    assert query_number(raw) == value


def test_no_query_string_gets_a_500(app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir)
    tokens = [{}, bearer(t["host_token"]), bearer(t["camera_token"]),
              bearer(t["seats"][0]["token"])]
    fields = query_fields()
    every = routes(app, t)

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(route=st.sampled_from(every), who=st.sampled_from(range(len(tokens))),
           query=st.lists(st.tuples(st.sampled_from(fields), values), min_size=1,
                          max_size=4))
    def check(route: tuple[str, str], who: int, query: list[tuple[str, str]]) -> None:
        status = send(client, *route, query, tokens[who])
        assert status < 500, (route, query, status)

    check()
    # And each hostile value in each field once, on every route.
    for method, path in every:
        for field in fields:
            for raw in HOSTILE:
                status = send(client, method, path, [(field, raw)], tokens[1])
                assert status < 500, (method, path, field, raw[:40], status)
