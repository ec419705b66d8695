"""The workload a profile-guided build of the compiled hot path trains on (setup.py).

    python -m fuyuki._pgo [PACKAGE_DIR]

A profile-guided build (gcc's ``-fprofile-generate`` / ``-fprofile-use``, what CPython's own
``--enable-optimizations`` does) compiles the mypyc modules twice: once counting which
branches and calls run, then again laying the code out and inlining by those counts. The
counts come from this run, so it plays what the compiled modules are used for — bot games
of every edition and mode at each seat count it allows, random and heuristic bots, and the
simulator's worker path — and nothing else (no I/O beyond stdout, the standard library and
fuyuki only: it runs inside pip's build environment). The profile changes only speed: every
game is the same, move for move, as in any other build.

Exits with status 3 if the compiled build is not the one imported (a stale or missing
build would train nothing), or fuyuki was imported from elsewhere than ``PACKAGE_DIR``.
"""

from __future__ import annotations

import sys

#: games a random-bot round of the training plays per edition and mode
RANDOM_GAMES = 40
#: heuristic-bot games per edition (its own rules, no mode)
HEURISTIC_GAMES = 30
#: simulator chunks of 10 games, random bots, final rules
SIM_CHUNKS = 20


def main(argv: list[str]) -> int:
    import os

    import fuyuki
    from fuyuki.core.errors import FuyukiError
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import make_bot, play_out
    from fuyuki.sbb.modes import modes
    from fuyuki.sbb.rules import editions, load_rules
    from fuyuki.sim.config import SimConfig
    from fuyuki.sim.runner import count_jobs

    here = os.path.dirname(os.path.abspath(fuyuki.__file__))
    if argv and here != os.path.abspath(argv[0]):
        print(f"fuyuki._pgo: fuyuki imported from {here}, not {argv[0]}", file=sys.stderr)
        return 3
    if not fuyuki.compiled():
        print("fuyuki._pgo: the compiled build is not the one imported", file=sys.stderr)
        return 3
    games = 0
    for edition in editions():
        for mode in (None, *modes()):
            try:
                rules = load_rules(edition, mode)
            except FuyukiError:   # a mode an edition does not have
                continue
            seats = sorted(rules.players)
            for i in range(RANDOM_GAMES):
                n = seats[i % len(seats)]
                play_out(new_game(n, i, rules), [make_bot("random", i * 5 + k) for k in range(n)])
                games += 1
        for i in range(HEURISTIC_GAMES):
            n = 3 + i % 3
            play_out(new_game(n, i, load_rules(edition)),
                     [make_bot("heuristic", i * 5 + k) for k in range(n)])
            games += 1
    cfg = SimConfig(games=0, players=4, bots=("random",), seed=1)
    for c in range(SIM_CHUNKS):
        count_jobs(cfg, [("game", None, c * 10 + k) for k in range(10)])
        games += 10
    print(f"fuyuki._pgo: {games} training games played")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
