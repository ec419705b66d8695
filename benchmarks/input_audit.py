"""The audit of issue 16, repeatable: fuzzed input files per kind and the tracebacks they
cause, and random games of each game played under invariant checks.

    PYTHONPATH=src:. python benchmarks/input_audit.py --per-kind 1000 --sbb 3 --board 100 --wars 20

- fuzz: ``--per-kind`` mutants of every kind of user file (tests/core/fuzz.py) fed to the
  loaders the commands use; a traceback is any exception that is not a FuyukiError.
- Servant Big Battle: ``--sbb`` random games (random and heuristic bots) for every edition ×
  mode × legal player count; after each game: gems and coins conserved, every card where it
  belongs, the record replays the same events, no event names a card face down for a seat
  that sees it (ja and en).
- Grail War Board: ``--board`` random games; each ends and its record replays the same events.
- Grail War RPG: ``--wars`` short wars; each ends, its record replays, its publishable log
  verifies.

Prints one JSON object (and exits 1 when anything failed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path


def fuzz_figures(per_kind: int, seed: int) -> dict:
    from tests.core.fuzz import fuzz

    with tempfile.TemporaryDirectory() as tmp:
        report = fuzz(Path(tmp), per_kind, seed)
    return {"inputs": report.inputs, "refused": report.refused,
            "tracebacks": len(report.failures), "examples": report.failures[:10]}


def sbb_figures(games: int) -> dict:
    from fuyuki.sbb.agents import make_bot
    from fuyuki.sbb.game import new_game
    from fuyuki.sbb.modes import modes
    from fuyuki.sbb.rules import Rules, editions
    from tests.sbb.leaks import leaks, play_watched

    played, failures, configs = 0, [], 0
    for edition in editions():
        for mode in ["standard"] + modes():
            rules = Rules.preset(edition, mode)
            for n in rules.players:
                configs += 1
                for k in range(games):
                    seed = 1000 * configs + k
                    bot = ("random", "heuristic")[k % 2]
                    try:
                        g = play_watched(n, seed, rules, bot)
                        problems = _sbb_invariants(g, rules, n, new_game, make_bot) + leaks(g)
                    except Exception as exc:  # noqa: BLE001 - the audit reports it
                        problems = [f"{type(exc).__name__}: {exc}"]
                    played += 1
                    if problems:
                        failures.append(f"{edition}/{mode}/{n}p seed {seed}: {problems[0]}")
    return {"configurations": configs, "games": played, "failures": len(failures),
            "examples": failures[:10]}


def _sbb_invariants(g, rules, n, new_game, make_bot) -> list[str]:
    s = g.s
    out = []
    if not g.over or not g.result["winners"]:
        out.append("the game did not end with a result")
    if not rules.unlimited_gems and s.pool + sum(s.gems_on) + sum(s.gems) != rules.gem_pool:
        out.append("gems not conserved")
    if rules.coins and sum(s.coins) != n:
        out.append("coins not conserved")
    held = sorted(g.t.names_of(s.mdeck + s.mdisc + [m for m in s.master if m]))
    if held != sorted(rules.masters):
        out.append("masters not conserved")
    held = sorted(g.t.names_of(s.sdeck + s.sdisc + [x for x in s.servant if x]))
    if held != sorted(rules.servants):
        out.append("servants not conserved")
    again = new_game(n, g.record.seed, rules)
    for seat, choice in g.record.submissions:
        again.submit(seat, choice)
    if [(e.kind, e.data, e.to) for e in again.events] != [(e.kind, e.data, e.to) for e in g.events]:
        out.append("the record does not replay the same game")
    for seat in range(n):
        json.dumps(g.view(seat))
    return out


def board_figures(games: int) -> dict:
    from fuyuki.board import new_game, replay
    from fuyuki.board.agents import make_bot

    failures = []
    for k in range(games):
        try:
            g = new_game(players=2 + k % 4, seed=k)
            bots = [make_bot(("random", "heuristic")[k % 2], k, s) for s in range(g.n)]
            while not g.over:
                for s, d in g.pending().items():
                    g.submit(s, bots[s].choose(g.view(s), d))
            again = replay(g.record)
            if again.result != g.result or len(again.events) != len(g.events):
                failures.append(f"seed {k}: the record does not replay the same game")
        except Exception as exc:  # noqa: BLE001
            failures.append(f"seed {k}: {type(exc).__name__}: {exc}")
    return {"games": games, "failures": len(failures), "examples": failures[:10]}


def war_figures(wars: int) -> dict:
    """Whole wars of the program (``war new --auto``), each log verified as a replay."""
    import tempfile
    from pathlib import Path

    from typer.testing import CliRunner

    from fuyuki.cli.main import app
    from fuyuki.rpg.war_log import verify

    runner = CliRunner()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(wars):
            log = Path(tmp) / f"war{k}.log"
            r = runner.invoke(app, ["war", "new", "--auto", "--quiet", "--seed", f"audit-{k}",
                                    "--turns", "3", "--log", str(log)])
            if r.exit_code != 0:
                failures.append(f"war {k}: war new exited {r.exit_code}: {r.output[-200:]}")
                continue
            report = verify(log.read_text("utf-8"))
            if not report.ok:
                failures.append(f"war {k}: its log does not verify: {report.problems[:1]}")
    return {"wars": wars, "failures": len(failures), "examples": failures[:10]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-kind", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--sbb", type=int, default=3, help="games per configuration")
    ap.add_argument("--board", type=int, default=100)
    ap.add_argument("--wars", type=int, default=20)
    a = ap.parse_args()
    out: dict = {}
    for name, fn, arg in (("fuzz", fuzz_figures, (a.per_kind, a.seed)),
                          ("sbb", sbb_figures, (a.sbb,)), ("board", board_figures, (a.board,)),
                          ("rpg", war_figures, (a.wars,))):
        t0 = time.perf_counter()
        out[name] = fn(*arg)
        out[name]["seconds"] = round(time.perf_counter() - t0, 1)
        print(name, json.dumps(out[name], ensure_ascii=False), file=sys.stderr, flush=True)
    print(json.dumps(out, ensure_ascii=False, indent=1))
    bad = out["fuzz"]["tracebacks"] + sum(out[k]["failures"] for k in ("sbb", "board", "rpg"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
