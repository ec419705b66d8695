"""Every file a user hands a command, loaded the way that command loads it.

One function per kind of file: the commands call these, and the fuzz test
(``tests/core/test_fuzz_files.py``) feeds them thousands of mutated files — so what the test
proves is what a user gets. Each returns the loaded thing or raises one of the project's
typed errors (:class:`~fuyuki.core.errors.FuyukiError`); :func:`fail` prints that error as
one line in the user's language on standard error and exits with status 2.

Kinds: ``scenario`` (``fuyuki judge``), ``cards`` (``--cards``), ``edition`` (``--edition
FILE.toml``), ``sbb_save`` (``fuyuki replay``), ``board_save`` (``board replay``),
``board_pack`` (``board play --pack``), ``rpg_sheet`` and ``roster`` (``war battle``, ``war
new --roster``), ``war_save`` (``war new --resume``), ``war_log`` (``war verify``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import typer

from fuyuki.cli.records import load_record
from fuyuki.core.contract import replay
from fuyuki.core.errors import DataError
from fuyuki.core.load import error_line, parse_toml, read_text


def fail(exc: BaseException, lang: str = "ja") -> NoReturn:
    """Print ``exc`` as one line in ``lang`` on standard error; exit with status 2."""
    typer.echo(error_line(exc, lang if lang in ("ja", "en") else "ja"), err=True)
    raise typer.Exit(2)


def seat_option(seat: int | None, seats: int) -> int | None:
    """A replay's ``--seat``: ``None`` (the public view) or one of the game's ``seats``; any
    other number is a DataError naming the option."""
    if seat is not None and not 0 <= seat < seats:
        raise DataError("--seat", "seat", f"must be 0 to {seats - 1}, not {seat}", "between",
                        lo=0, hi=seats - 1, got=seat)
    return seat


# -- Servant Big Battle -----------------------------------------------------------------------

def sbb_rules(edition: str = "final", mode: str | None = None, options: tuple[str, ...] = (),
              cards: str | Path | None = None):
    """The rules a command plays: an edition (a name, or a user's edition file), a mode,
    options, and the built-in cards or a user's card file."""
    from fuyuki.sbb.rules import Rules

    return Rules.preset(edition, mode, tuple(options), str(cards) if cards else None)


def card_file(path: str | Path):
    """``--cards FILE``: the final edition over a user's card file, and a game dealt with it."""
    from fuyuki.sbb import new_game

    rules = sbb_rules(cards=path)
    new_game(min(rules.players), 0, rules)
    return rules


def edition_file(path: str | Path):
    """``--edition FILE.toml``: a user's edition, and a game dealt with it."""
    from fuyuki.sbb import new_game

    rules = sbb_rules(str(path))
    new_game(min(rules.players), 0, rules)
    return rules


def scenario(path: str | Path, lang: str = "en", cards: str | None = None,
             edition: str | None = None, mode: str | None = None,
             options: tuple[str, ...] | None = None):
    """``fuyuki judge FILE``: the scenario's round resolved (with the command line's
    overrides)."""
    from fuyuki.sbb.judge import judge

    return judge(path, lang, cards, edition, mode, options)


#: ``game = ...`` in a scenario file: which judge resolves it (absent: Servant Big Battle).
SCENARIO_JUDGES = {"board": "fuyuki.board.judge", "war": "fuyuki.rpg.judge"}


def scenario_game(path: str | Path) -> str:
    """The game a scenario file is about: its ``game`` key (``sbb`` when absent)."""
    from fuyuki.core.data import read_toml
    from fuyuki.core.errors import ScenarioError

    game = read_toml(path, ScenarioError).get("game", "sbb")
    if not isinstance(game, str) or (game != "sbb" and game not in SCENARIO_JUDGES):
        allowed = ", ".join(["sbb", *SCENARIO_JUDGES])
        raise ScenarioError(str(path), "game", f"must be one of {allowed}, not {game!r}", "choice",
                            allowed=allowed, got=repr(game))
    return str(game)


def game_judge(game: str, path: str | Path, lang: str):
    """``fuyuki judge FILE`` for the board game or the RPG war: the scenario run by its game's
    judge (``judge(path, lang)``): ``.log`` (the explanation in ``lang``), ``.result`` (JSON),
    ``.failures`` (expectations the run did not meet, one line each)."""
    from importlib import import_module

    return import_module(SCENARIO_JUDGES[game]).judge(str(path), lang)


def sbb_save(path: str | Path, lang: str = "en"):
    """``fuyuki replay FILE``: the saved game replayed (another game's record: a FuyukiError
    naming the command that replays it)."""
    return replay(load_record(Path(path), "sbb", lang), str(path))


# -- Grail War Board --------------------------------------------------------------------------

def board_save(path: str | Path, lang: str = "en"):
    """``board replay FILE``: the saved game replayed (another game's record: a FuyukiError
    naming the command that replays it)."""
    return replay(load_record(Path(path), "board", lang), str(path))


def board_pack(path: str | Path):
    """``board play --pack DIR``: the content pack, and a game set up with it."""
    from fuyuki.board import new_game
    from fuyuki.board.content import load_pack

    pack = load_pack(path)
    new_game(players=min(len(pack.camps), 4), seed=0, pack=str(path))
    return pack


# -- Grail War RPG ----------------------------------------------------------------------------

def rpg_sheet(path: str | Path):
    """``war battle SHEET.toml ...``: one pair's sheet."""
    from fuyuki.rpg.roster import load_pair_file
    from fuyuki.rpg.rules import default_rules

    return load_pair_file(path, default_rules())


def roster(path: str | Path | None):
    """``war new --roster FILE`` / ``war battle --roster FILE`` (``None``: the sample roster):
    the roster, the text it was read from (a war save keeps it) and its file name."""
    from fuyuki.core.data import package_file
    from fuyuki.rpg.roster import parse_roster
    from fuyuki.rpg.rules import default_rules

    p = str(path if path is not None else package_file("fuyuki.rpg", "data", "roster.toml"))
    text = read_text(p)
    return parse_roster(parse_toml(text, p), p, default_rules()), text, p


def war_save(path: str | Path, lang: str = "en") -> dict[str, Any]:
    """``war new --resume FILE``: the war replayed to where it was saved (key ``war``: through
    :func:`fuyuki.core.contract.replay`, which checks every config key) and the settings the
    terminal keeps in its config."""
    src = str(path)
    rec = load_record(Path(path), "rpg-war", lang)
    war = replay(rec, src)
    cfg = rec.config
    return {"war": war, "roster": war.roster, "roster_toml": cfg["roster_toml"],
            "roster_path": cfg["roster_path"], "seed": cfg.get("seed_text", rec.seed),
            "humans": cfg.get("humans", []), "max_turns": cfg.get("max_turns"),
            "notes": cfg.get("notes", []), "submissions": rec.submissions}


def war_log(path: str | Path):
    """``war verify LOG``: a published log checked and replayed (:mod:`fuyuki.rpg.war_log`)."""
    from fuyuki.rpg.war_log import verify

    return verify(read_text(path))


#: every kind of file, by name: what the fuzz test feeds
KINDS = {
    "scenario": scenario, "cards": card_file, "edition": edition_file, "sbb_save": sbb_save,
    "board_save": board_save, "board_pack": board_pack, "rpg_sheet": rpg_sheet,
    "roster": roster, "war_save": war_save, "war_log": war_log,
}
