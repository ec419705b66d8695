"""A web adapter holds no rule and touches no engine internal and no private of the table
(issue 50, item 1); the server (table, manager, app) reaches a game only through the engine
contract (fuyuki.core.contract). Read from the source: a new access fails here, with no
allowance — a piece of an engine an adapter needs is offered by the engine (docs/contract.md),
never read past it."""

from __future__ import annotations

import ast
from pathlib import Path

from fuyuki.core import contract

WEB = Path(__file__).resolve().parents[2] / "src" / "fuyuki" / "web"

#: what the engine contract names (docs/contract.md)
CONTRACT = {"over", "result", "record", "step", "roles", "seats", "pending", "submit", "view",
            "events_for"}
#: what adapters import from the games' own packages: settings, content, bots and texts —
#: never a piece of the rules (a move's geometry, a rule table); a new name fails here
GAME_IMPORTS = {
    "fuyuki.board": {"default_pack"},                     # the map and the printed texts
    "fuyuki.board.agents": {"make_bot"},
    "fuyuki.board.text": {"Texts"},                       # option and event texts from a view
    "fuyuki.rpg.agents": {"program"},
    "fuyuki.rpg.hosted": {"LANGS", "READERS", "Limits"},  # the war's languages, seat, limits
    "fuyuki.rpg.roster": {"Roster", "load_roster", "parse_roster"},   # the roster setting
    "fuyuki.rpg.rules": {"default_rules"},                # the turn limit offered
    "fuyuki.sbb.game": {"RNG_VERSION", "rng_version"},    # the dice version setting
    "fuyuki.sbb": {"text"},
    "fuyuki.sbb.agents": {"bot_names", "make_bot"},
    "fuyuki.sbb.rules": {"OPTIONS", "Rules", "editions"},  # the edition and options settings
}
GAMES = ("fuyuki.board", "fuyuki.rpg", "fuyuki.sbb")
#: the table's public API an adapter uses
TABLE = {"game", "record", "reissue", "refresh", "wall", "now", "seed", "config", "code"}


def _games_files() -> list[Path]:
    return sorted((WEB / "games").glob("*.py"))


def _server_files() -> list[Path]:
    return sorted(WEB.glob("*.py"))


def _is_game(node: ast.AST) -> bool:
    """``game``, ``g`` or ``<anything>.game``: an engine."""
    return (isinstance(node, ast.Name) and node.id in ("game", "g")) or \
        (isinstance(node, ast.Attribute) and node.attr == "game")


def _accesses(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            yield node


def test_the_contract_names_what_this_test_allows():
    assert CONTRACT <= set(dir(contract.Engine))


def test_no_adapter_touches_a_private_of_another_object():
    found = [f"{p.name}:{a.lineno}: .{a.attr}" for p in _games_files() for a in _accesses(p)
             if a.attr.startswith("_") and not a.attr.startswith("__")
             and not (isinstance(a.value, ast.Name) and a.value.id in ("self", "cls"))]
    assert not found, "\n".join(found)


def test_no_adapter_touches_an_engine_outside_the_contract():
    found = [f"{p.name}:{a.lineno}: game.{a.attr}" for p in _games_files() for a in _accesses(p)
             if _is_game(a.value) and a.attr not in CONTRACT]
    assert not found, "\n".join(found)


def test_an_adapter_uses_only_the_tables_public_api():
    found = [f"{p.name}:{a.lineno}: table.{a.attr}" for p in _games_files() for a in _accesses(p)
             if isinstance(a.value, ast.Name) and a.value.id == "table" and a.attr not in TABLE]
    assert not found, "\n".join(found)


def test_the_server_reaches_a_game_only_through_the_contract_and_no_private_of_another_module():
    found = []
    for p in _server_files():
        for a in _accesses(p):
            if _is_game(a.value) and a.attr not in CONTRACT:
                found.append(f"{p.name}:{a.lineno}: game.{a.attr}")
            elif a.attr.startswith("_") and not a.attr.startswith("__") and \
                    not (isinstance(a.value, ast.Name) and a.value.id in ("self", "cls")):
                found.append(f"{p.name}:{a.lineno}: .{a.attr}")
    assert not found, "\n".join(found)


def test_an_adapter_imports_from_a_game_only_its_settings_bots_and_texts():
    found = []
    for p in _games_files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith(GAMES) and node.level == 0:
                found += [f"{p.name}:{node.lineno}: {node.module}.{n.name}" for n in node.names
                          if n.name not in GAME_IMPORTS.get(node.module, set())]
            elif isinstance(node, ast.Import):
                found += [f"{p.name}:{node.lineno}: import {n.name}" for n in node.names
                          if n.name.startswith(GAMES)]
    assert not found, "\n".join(found)


def test_no_shim_is_left_in_the_server_or_its_doc():
    """A piece of an engine kept in an adapter for a while is marked SHIM; none is left."""
    docs = WEB.parents[2] / "docs"
    texts = [*_games_files(), *_server_files(), docs / "web.md", docs / "contract.md"]
    found = [f"{p.name}:{i}" for p in texts
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "SHIM" in line]
    assert not found, "\n".join(found)
