"""Tokens, codes, the origin rule, the rate limiter and the connection cap."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fuyuki.web import security


def test_codes_and_tokens_are_random_and_tokens_are_kept_hashed():
    codes = {security.new_code() for _ in range(200)}
    tokens = {security.new_token() for _ in range(200)}
    assert len(codes) == 200 and len(tokens) == 200
    assert all(security.valid_code(c) and len(c) == 12 for c in codes)
    t = security.new_token()
    h = security.hash_token(t)
    assert t not in h and security.token_matches(t, h)
    assert not security.token_matches(t + "x", h) and not security.token_matches(t, "")


@pytest.mark.parametrize("origin,host,allowed,ok", [
    (None, "example.org", (), True),                       # not a browser: the token guards
    ("https://example.org", "example.org", (), True),
    ("http://example.org:8000", "example.org:8000", (), True),
    ("https://evil.example", "example.org", (), False),
    ("https://example.org.evil.example", "example.org", (), False),
    ("null", "example.org", (), False),
    ("file://", "example.org", (), False),
    ("https://friends.example", "example.org", ("https://friends.example",), True),
])
def test_origin_rule(origin, host, allowed, ok):
    assert security.origin_allowed(origin, host, allowed) is ok


def test_rate_limiter_refills_with_time():
    now = [0.0]
    lim = security.RateLimiter(rate=2, burst=3, clock=lambda: now[0])
    assert [lim.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert [lim.allow() for _ in range(3)] == [True, True, False]


def test_code_format_is_checked():
    for bad in ("", "short", "a" * 33, "../../etc", "abc def ghi", "ｱｲｳｴｵｶｷｸｹ"):
        assert not security.valid_code(bad)


def test_an_oversized_http_body_is_refused_before_it_is_read(app_factory):
    with TestClient(app_factory()) as http:
        r = http.post("/api/tables", content=b"{}", headers={"content-length": "999999"})
        assert r.status_code == 413 and r.json()["error"] == "too_large"
