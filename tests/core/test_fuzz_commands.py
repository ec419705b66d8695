"""Issue 47 item 6: structural mutations (deep nesting, other types, sneaky Unicode, files cut
short, CRLF/BOM, huge numbers, keys given twice, tampered saves; :func:`tests.core.fuzz.
structural_toml` / :func:`structural_json`) of every kind of file the suite reads, each run
through the real command (``CliRunner``): it ends with status 0, 1, 2 or 3, an error is one
line on standard error, and nothing is ever a traceback.

Seeded: ``FUYUKI_FUZZ_COMMANDS`` mutants per kind (default 24, a few seconds a kind), with
``FUYUKI_FUZZ_SEED`` (default 47) — raise both for a longer hunt."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.errors import FuyukiError
from tests.core.fuzz import (LIMIT, ROOT, Hang, _alarm, bases, place, remove, structural_json,
                             structural_lines, structural_toml)

PER_KIND = int(os.environ.get("FUYUKI_FUZZ_COMMANDS", "24"))
SEED = int(os.environ.get("FUYUKI_FUZZ_SEED", "47"))
SCENARIO = ROOT / "tests" / "sbb" / "scenarios" / "final" / "case1_np_beats_sorties.toml"

#: every kind of file, the command that reads it ({f}: the mutant; a pack is a directory)
COMMANDS: dict[str, list[str]] = {
    "scenario": ["judge", "{f}"],
    "cards": ["judge", str(SCENARIO), "--cards", "{f}"],
    "edition": ["play", "--edition", "{f}", "--bots-only", "--seed", "1", "--bots", "random"],
    "board_pack": ["board", "play", "--bots-only", "--seed", "1", "--bots", "random",
                   "--players", "2", "--pack", "{f}"],
    "board_scenario": ["judge", "{f}"],
    "rpg_sheet": ["war", "battle", "{f}", "{f}", "--seed", "fuzz"],
    "roster": ["war", "new", "--roster", "{f}", "--auto", "--turns", "1", "--seed", "fuzz",
               "--quiet"],
    "rpg_scenario": ["judge", "{f}"],
    "sbb_save": ["replay", "{f}"],
    "board_save": ["board", "replay", "{f}"],
    "war_save": ["war", "new", "--resume", "{f}", "--auto", "--quiet"],
    "war_log": ["war", "verify", "{f}"],
}


def rpg_cases(path: Path) -> None:
    """The RPG's battle cases (no command reads them; the suite runs them so)."""
    from fuyuki.rpg.cases import load_cases, run_case
    from fuyuki.rpg.rules import default_rules

    cases, sheets = load_cases(path)
    for case in cases:
        run_case(case, default_rules(), sheets)


#: kinds no command reads: the function the suite reads them with
FUNCTIONS = {"rpg_case": rpg_cases}
KINDS = list(COMMANDS) + list(FUNCTIONS)


def files() -> dict[str, list[tuple[str, str]]]:
    """The valid files each kind starts from: those of :func:`tests.core.fuzz.bases`, the
    board's rule scenarios and the RPG's battle cases."""
    out = bases()
    out["board_scenario"] = [(p.name, p.read_text("utf-8")) for p in
                             sorted((ROOT / "tests" / "board" / "scenarios").glob("*.toml"))]
    for kind, folder in (("rpg_scenario", "scenarios"), ("rpg_case", "cases")):
        out[kind] = [(p.name, p.read_text("utf-8")) for p in
                     sorted((ROOT / "tests" / "rpg" / folder).glob("*.toml"))]
    return out


#: kinds whose refusals may be several lines (``war verify`` names every bad line of a log)
MANY_LINES = {"war_log"}


def verdict(res, kind: str = "") -> str | None:
    """What is wrong with a command's run (``None``: nothing)."""
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        exc = res.exception
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f"{Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}" if tb else "?"
        return f"{type(exc).__name__}: {str(exc)[:200]} at {where}"
    if res.exit_code not in (0, 1, 2, 3):
        return f"exit {res.exit_code}"
    if "Traceback" in res.output:
        return "a traceback in the output"
    if res.exit_code == 2 and kind not in MANY_LINES and \
            len(res.stderr.strip().splitlines()) != 1:
        return f"exit 2 with {len(res.stderr.strip().splitlines())} lines on stderr: " \
               f"{res.stderr[:300]!r}"
    return None


def _limited(call, *args):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        return call(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_command(args: list[str]):
    return _limited(CliRunner().invoke, app, args + ["--lang", "en"])


def run_function(function, path: Path) -> tuple[int, str | None]:
    """(0, None) when ``function`` reads the file, (2, None) when it refuses it with one of
    the project's errors, (1, what) for anything else."""
    try:
        _limited(function, path)
    except FuyukiError:
        return 2, None
    except Hang:
        raise
    except Exception as exc:  # noqa: BLE001 - a traceback a user would see
        return 1, f"{type(exc).__name__}: {str(exc)[:200]}"
    return 0, None


def fuzz_kind(kind: str, base: list[tuple[str, str]], tmp: Path, n: int, seed: int):
    """``n`` structural mutants of ``kind`` through its command: (runs, exit codes, failures)."""
    rng = random.Random(f"{seed}/{kind}")
    codes: dict[int, int] = {}
    failures = []
    for k in range(n):
        name, text = base[k % len(base)]
        mutant = (structural_json(text, rng) if name.endswith(".json")
                  else structural_lines(text, rng) if name.endswith(".log")
                  else structural_toml(text, rng))
        target = place(tmp, kind, k, name, mutant)
        try:
            if kind in FUNCTIONS:
                code, wrong = run_function(FUNCTIONS[kind], target)
            else:
                res = run_command([a.replace("{f}", str(target)) for a in COMMANDS[kind]])
                code, wrong = res.exit_code, verdict(res, kind)
            codes[code] = codes.get(code, 0) + 1
        except Hang as exc:
            wrong = str(exc)
        if wrong:
            failures.append(f"{kind} #{k} from {name}: {wrong}")
        remove(target)
    return codes, failures


@pytest.fixture(scope="module")
def base_files():
    return files()


@pytest.mark.parametrize("kind", KINDS)
def test_structural_mutants_end_in_one_line_never_a_traceback(kind, base_files, tmp_path):
    codes, failures = fuzz_kind(kind, base_files[kind], tmp_path, PER_KIND, SEED)
    assert failures == [], "\n".join(failures[:20])
    assert sum(codes.values()) == PER_KIND
    assert codes.get(2, 0) + codes.get(1, 0) > 0, codes    # the mutator reaches the refusals
