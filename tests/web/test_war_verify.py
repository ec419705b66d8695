"""``POST /api/war/verify`` (issue 47 item 4): the server's replay of a pasted war log answers
what ``fuyuki war verify`` answers — its exit status and the first line it names — for every
forgery of tests/rpg/test_forgeries.py and the good logs; bounded, rate-limited, and no log
content in the server's log."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fuyuki.cli.main import app
from tests.rpg.test_forgeries import forgeries, logs  # noqa: F401 - logs is a fixture

MARK = "冬木の夜に三人が見ていた"           # free narration: never in the server's log


@pytest.fixture(scope="module")
def en_log(tmp_path_factory):
    p = tmp_path_factory.mktemp("en") / "en.log"
    res = CliRunner().invoke(app, ["war", "new", "--auto", "--seed", "7", "--turns", "2",
                                   "--lang", "en", "--log", str(p), "--quiet"])
    assert res.exit_code == 0, res.output
    return p.read_text("utf-8")


def war_verify(text: str, tmp_path) -> tuple[int, int | None]:
    """``war verify``'s exit status and the line its first output line names."""
    p = tmp_path / "log.txt"
    p.write_text(text, "utf-8", newline="")
    res = CliRunner().invoke(app, ["war", "verify", str(p), "--lang", "en"])
    first = res.output.split("\n")[0]
    line = int(first.split(":")[0][5:]) if first.startswith("line ") else None
    return res.exit_code, line


def test_the_servers_replay_agrees_with_war_verify_on_every_forgery_and_good_log(
        logs, en_log, app_factory, tmp_path):  # noqa: F811 - the imported fixture
    cases = {"good_ja": (logs["5"], None), "good_en": (en_log, None),
             **forgeries(logs["5"], logs["6"])}
    assert len(cases) >= 27
    with TestClient(app_factory()) as http:
        for name, (text, line) in cases.items():
            r = http.post("/api/war/verify", content=text.encode("utf-8"))
            assert r.status_code == 200, name
            got = r.json()
            assert (got["exit"], got["line"]) == war_verify(text, tmp_path), name
            if line is None:
                assert got["exit"] == 0 and got["code"] == "ok", name
            else:
                assert got["exit"] == 1 and got["line"] == line, name
            assert got["message"]["ja"] and got["message"]["en"], name


def test_the_answer_names_the_line_in_ja_and_en_and_exit_2_and_3(logs, tmp_path, http):  # noqa: F811
    text, line = forgeries(logs["5"], logs["6"])["generated_line_edited"]
    got = http.post("/api/war/verify", content=text.encode()).json()
    assert got["message"]["en"].startswith(f"line {line}:") and f"{line}行目" in got["message"]["ja"]
    old = "x\n#DICE COMMIT t1 " + "0" * 64 + "\n"
    got = http.post("/api/war/verify", content=old.encode()).json()
    assert got["exit"] == 2 == war_verify(old, tmp_path)[0] and "形式1" in got["message"]["ja"]
    lines = logs["5"].split("\n")
    mid = "\n".join(lines[:next(i for i, x in enumerate(lines) if x.startswith("#WAR RECORD"))])
    got = http.post("/api/war/verify", content=mid.encode()).json()
    assert got["exit"] == 3 == war_verify(mid, tmp_path)[0] and got["code"] == "no_record"


def test_a_log_over_the_limit_or_not_utf8_is_refused_and_logged_without_its_content(
        app_factory, caplog):
    caplog.set_level(logging.INFO, logger="fuyuki")
    with TestClient(app_factory(max_log=1000)) as http:
        r = http.post("/api/war/verify", content=(MARK * 100).encode())
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        r = http.post("/api/war/verify", content=MARK.encode() + b"\xff")
        assert r.status_code == 400 and r.json()["error"] == "bad_text"
        counts = http.app.state.refusals.counts
        assert counts["http 413 too_large"] == 1 and counts["http 400 bad_text"] == 1
    assert not any(MARK in r.getMessage() for r in caplog.records)


def test_verify_calls_are_rate_limited_like_the_other_api_calls(app_factory):
    with TestClient(app_factory(http_rate=0.001, http_burst=2)) as http:
        codes = [http.post("/api/war/verify", content=b"x").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
