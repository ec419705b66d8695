"""A setup hook for studies: fixed pairings and random assignment instead of the drafts.

The balance simulator (and anyone studying a card) needs two setups the printed rules do
not have:

- **fixed pairings** — a seat is given a chosen master and servant (``--fix
  0=sakura+gilgamesh``); those two cards leave the decks and the seat takes no part in the
  drafts, which the other seats play as usual, passing over the fixed seats;
- **random assignment** — every seat without a fixed pairing is dealt one master and one
  servant at random (the v1.x deal), so every card gets the same exposure; no draft is asked.

Use it in two calls, so that a caller can place its pairings relative to the first parent
(chosen at random by the setup and public)::

    g = start(players, seed, rules)               # the setup step has run; nothing asked yet
    parent = g.view(None)["parent"]
    deal(g, fixed={parent: ("sakura", "gilgamesh")}, assign="draft")   # runs to the 1st decision

``new_game(...)`` does both at once. Everything after the deal is the unchanged engine: the
game replays from its record with :func:`replay` (the record's ``config["setup"]`` says what
was fixed). Each fixed seat learns its cards through a private ``dealt`` event, like a v1.x
deal; nobody else sees them.
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from fuyuki.core.errors import DataError, IllegalAction
from fuyuki.core.record import Record
from fuyuki.core.rng import Rng
from fuyuki.sbb.game import RNG_VERSION, Game, make_game, rng_version
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.setup import step_setup
from fuyuki.sbb.state import Op

ASSIGN: Final[tuple[str, ...]] = ("draft", "random")
_REPLACED: Final[tuple[str, ...]] = ("draft_start", "deal_random")


def start(players: int = 4, seed: int | None = None, rules: Rules | None = None,
          *, quiet: bool = False, rng: int = RNG_VERSION,
          keep: frozenset[str] | None = None, rng_stream: Rng | None = None) -> Game:
    """A new game where only the setup step has run (decks shuffled, first parent chosen).
    Call :func:`deal` on it before anything else. ``keep``: the kinds of event a quiet game
    keeps (:attr:`Game.keep <fuyuki.sbb.game.Game.keep>`), from the setup's on;
    ``rng_stream``: :func:`~fuyuki.sbb.game.game_stream` of ``seed``, if made ahead."""

    game = make_game(players, seed, rules, quiet, rng, rng_stream)
    game.keep = keep
    step_setup(game)
    return game


def deal(game: Game, fixed: Mapping[int, tuple[str, str]] | None = None,
         assign: str | None = None) -> Game:
    """Give each seat of ``fixed`` its (master id, servant id), deal the other seats their
    cards by ``assign`` — ``"draft"`` (§3), ``"random"`` (the v1.x deal) or ``None`` (as the
    rules say) — and run the game to its first decision.

    A DataError names the bad seat or card: an unknown id, a card the rules leave out, a card
    fixed twice, a seat out of range.
    """
    fixed = dict(fixed or {})
    assign = assign or game.rules.deal
    if assign not in ASSIGN:
        raise DataError("--assign", "assign", f"must be one of {list(ASSIGN)}, not {assign!r}")
    s, r = game.s, game.rules
    if s.phase != "setup" or s.asking or not _setup_pending(s.stack):
        raise IllegalAction("not_at_setup", "the setup hook works only right after start()")
    if fixed:
        _check_fixed(fixed, s.n, list(r.masters), list(r.servants), r.set_aside)
        ids = game.t.ids
        for seat, (master, servant) in sorted(fixed.items()):
            m, sv = ids[master], ids[servant]
            for deck in (s.mdeck, s.mdisc):
                if m in deck:
                    deck.remove(m)
            s.sdeck.remove(sv)
            s.master[seat], s.servant[seat] = m, sv
            game.emit("dealt", to=(seat,), seat=seat, master=master, servant=servant,
                      fixed=True)
    if fixed or assign != r.deal:   # (else the setup's own steps stay, as they are)
        free = tuple(seat for seat in s.order() if seat not in fixed)
        s.stack[:] = [new for op in s.stack for new in _replace(op, assign, free)]
    game.record.config["setup"] = {
        "assign": assign,
        "fixed": {str(k): list(v) for k, v in sorted(fixed.items())} if fixed else {}}
    game._run()
    return game


def _setup_pending(stack: list[Op]) -> bool:
    """Whether a step the hook replaces is still on the rule stack (a loop: a generator
    passed to ``any`` is a generic call per step in the compiled build)."""
    for op in stack:
        if op[0] in _REPLACED:
            return True
    return False


def _replace(op: Op, assign: str, free: tuple[int, ...]) -> list[Op]:
    """The steps (in stack order) that take the place of one setup step ``op``: each draft
    becomes the same draft among the free seats, the random deal a deal to the free seats;
    a draft becomes the random deal (the servant draft then goes) or the reverse."""
    if op[0] == "draft_start":
        if assign == "draft":
            return [("draft_start", op[1], free)]
        return [("deal_random", free)] if op[1] == "master" else []
    if op[0] == "deal_random":
        if assign == "random":
            return [("deal_random", free)]
        return [("draft_start", "servant", free), ("draft_start", "master", free)]
    return [op]


def new_game(players: int = 4, seed: int | None = None, rules: Rules | None = None, *,
             fixed: Mapping[int, tuple[str, str]] | None = None, assign: str | None = None,
             quiet: bool = False, rng: int = RNG_VERSION) -> Game:
    """:func:`start` then :func:`deal`."""
    return deal(start(players, seed, rules, quiet=quiet, rng=rng), fixed, assign)


def replay(record: Record, rules: Rules | None = None, *, quiet: bool = False) -> Game:
    """Replay a record made through this hook (or a plain one: no ``setup`` key = drafts)."""
    setup = record.config.get("setup", {"assign": None, "fixed": {}})
    fixed = {int(k): (v[0], v[1]) for k, v in setup.get("fixed", {}).items()}
    g = new_game(int(record.config["players"]), record.seed, rules, fixed=fixed,
                 assign=setup.get("assign"), quiet=quiet, rng=rng_version(record.config))
    for seat, choice in record.submissions:
        g.submit(seat, choice)
    return g


def _check_fixed(fixed: dict[int, Any], n: int, masters: list[str], servants: list[str],
                 set_aside: tuple[str, ...] = ()) -> None:
    seen_m: set[str] = set()
    seen_s: set[str] = set()
    for seat, pair in fixed.items():
        key = f"fix[{seat}]"
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise DataError("--fix", key, f"no seat {seat!r} in a {n}-player game")
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise DataError("--fix", key, "must be (master, servant)")
        master, servant = pair
        if master in set_aside:
            raise DataError("--fix", key, f"master {master!r} is set aside in this mode")
        if master not in masters:
            raise DataError("--fix", key, f"master {master!r} is not in these rules "
                            f"(known: {masters})", "choice", allowed=" | ".join(masters),
                            got=repr(master))
        if servant not in servants:
            raise DataError("--fix", key, f"servant {servant!r} is not in these rules "
                            f"(known: {servants})", "choice", allowed=" | ".join(servants),
                            got=repr(servant))
        if master in seen_m or servant in seen_s:
            raise DataError("--fix", key, f"{master}+{servant}: a card is fixed twice")
        seen_m.add(master)
        seen_s.add(servant)
