"""A web adapter holds no rule and touches no engine internal and no private of the table
(issue 50, item 1); the server (table, manager, app) reaches a game only through the engine
contract (fuyuki.core.contract). Read from the source: a new access fails here."""

from __future__ import annotations

import ast
from pathlib import Path

from fuyuki.core import contract

WEB = Path(__file__).resolve().parents[2] / "src" / "fuyuki" / "web"

#: what the engine contract names (docs/contract.md)
CONTRACT = {"over", "result", "record", "step", "roles", "seats", "pending", "submit", "view",
            "events_for"}
#: engine members an adapter still reads outside the contract, each a named shim to drop when
#: the engine offers it (see the adapter's comment)
SHIMS = {"text_of"}
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
             if _is_game(a.value) and a.attr not in CONTRACT | SHIMS]
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
