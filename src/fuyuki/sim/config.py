"""What a simulation plays: rules, bots per player, fixed pairings, seeds.

A *player* of the simulation (0..N-1, the index of ``--bots`` and ``--fix``) is not a seat:
players rotate round the table from game to game. In game ``i`` player ``k`` sits ``(k + i)
mod N`` seats to the left of the first parent (chosen at random by the engine), so over any N
consecutive games every player — and every fixed pairing — sits once in every position.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fuyuki.core.errors import DataError

BOTS = ("random", "heuristic", "hard")
_RULES_CACHE: dict[tuple, Any] = {}


@dataclass(frozen=True)
class SimConfig:
    games: int = 1000
    players: int = 4
    edition: str = "final"
    mode: str | None = None
    options: tuple[str, ...] = ()
    cards: str | None = None
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    fixed: tuple[tuple[int, str, str], ...] = ()
    assign: str | None = None          # None: as the rules deal (final: draft; v1.x: random)
    seconds_per_round: float = 60.0
    gap_games: int = 0
    #: the hard bot's search budget in iterations (None: its time budget, not reproducible)
    bot_iterations: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.games < 0:
            raise DataError("--games", "games", f"must be 0 or more, not {self.games}", "low",
                            lo=0, got=self.games)
        if len(self.bots) == 1 and self.players > 1:
            object.__setattr__(self, "bots", self.bots * self.players)
        if len(self.bots) != self.players:
            raise DataError("--bots", "bots", f"give one bot or one per player "
                            f"({self.players}), not {len(self.bots)}", "per_player",
                            players=self.players, got=len(self.bots))
        for i, b in enumerate(self.bots):
            if b not in BOTS:
                raise DataError("--bots", f"bots[{i}]", f"unknown bot {b!r} (known: {list(BOTS)})",
                                "choice", allowed=" | ".join(BOTS), got=repr(b))
        if self.assign not in (None, "draft", "random"):
            raise DataError("--assign", "assign", f"must be draft or random, not {self.assign!r}",
                            "choice", allowed="draft | random", got=repr(self.assign))
        for k, _, _ in self.fixed:
            if not 0 <= k < self.players:
                raise DataError("--fix", f"fix[{k}]", f"no player {k} in a {self.players}-player "
                                "simulation", "between", lo=0, hi=self.players - 1, got=k)
        if self.bot_iterations is not None and self.bot_iterations < 1:
            raise DataError("--bot-iterations", "bot_iterations",
                            f"must be 1 or more, not {self.bot_iterations}", "low", lo=1,
                            got=self.bot_iterations)
        if self.seconds_per_round <= 0:
            raise DataError("--seconds-per-round", "seconds_per_round", "must be positive",
                            "positive", got=self.seconds_per_round)

    # ------------------------------------------------------------------ derived
    def rules(self):
        """The rules (loaded once per process)."""
        key = (self.edition, self.mode, self.options, self.cards)
        if key not in _RULES_CACHE:
            from fuyuki.sbb.rules import load_rules

            _RULES_CACHE[key] = load_rules(self.edition, self.mode, self.options, self.cards)
        return _RULES_CACHE[key]

    def game_seed(self, index: int, stream: str = "game") -> int:
        """The seed of game ``index`` (:func:`fuyuki.sim.play.game_seed`)."""
        from fuyuki.sim.play import game_seed

        return game_seed(self.seed, index, stream)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "players": self.players, "edition": self.edition,
            "mode": self.mode or "standard", "options": list(self.options),
            "cards": self.cards, "bots": list(self.bots), "seed": self.seed,
            "fixed": [{"player": k, "master": m, "servant": s} for k, m, s in self.fixed],
            "assign": self.assign or self.rules().deal, "seconds_per_round": self.seconds_per_round,
            "gap_games": self.gap_games, "bot_iterations": self.bot_iterations,
        }


# ---------------------------------------------------------------------- parsing CLI values
def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``random`` / ``heuristic`` / ``hard`` for everyone, or a comma list, one per player."""
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    if not names:
        raise DataError("--bots", "bots", "empty", "missing")
    return names if len(names) > 1 else names * players


def parse_fix(values: list[str]) -> tuple[tuple[int, str, str], ...]:
    """``SEAT=MASTER+SERVANT`` items (``0=sakura+gilgamesh``)."""
    out = []
    for i, text in enumerate(values):
        seat, sep, pair = text.partition("=")
        master, plus, servant = pair.partition("+")
        if not sep or not plus or not seat.strip().isdigit() or not master or not servant:
            raise DataError("--fix", f"fix[{i}]", f"{text!r} is not SEAT=MASTER+SERVANT "
                            "(e.g. 0=sakura+gilgamesh)", "format",
                            want="SEAT=MASTER+SERVANT (0=sakura+gilgamesh)", got=repr(text))
        out.append((int(seat), master.strip(), servant.strip()))
    seats = [k for k, _, _ in out]
    if len(set(seats)) != len(seats):
        raise DataError("--fix", "fix", "a player is fixed twice", "fixed_twice")
    return tuple(out)


def parse_compare(value: str, base: SimConfig) -> tuple[SimConfig, str]:
    """The what-if configuration: a card file path, or ``edition=E,mode=M,option=O,cards=F``.
    Returns the config and a label for it."""
    if Path(value).is_file():
        return replace(base, cards=value), value
    changes: dict[str, Any] = {}
    options: list[str] = []
    for i, part in enumerate(x for x in value.split(",") if x.strip()):
        key, sep, val = part.partition("=")
        key, val = key.strip(), val.strip()
        if not sep or key not in ("edition", "mode", "option", "cards"):
            raise DataError("--compare", f"compare[{i}]", f"{value!r}: not a card file and not "
                            "edition=E,mode=M,option=O,cards=FILE", "format",
                            want="edition=E,mode=M,option=O,cards=FILE", got=repr(value))
        if key == "option":
            options.append(val)
        else:
            changes[key] = None if key == "mode" and val == "standard" else val
    if not changes and not options:
        raise DataError(value, "--compare", "no such file", "no_file")
    if options:
        changes["options"] = tuple(options)
    return replace(base, **changes), value
