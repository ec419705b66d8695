"""Reading the files a user hands the program, and saying what is wrong with them.

Every file a command reads from a user — a judge scenario, a card file, a saved game of each
game, a board pack, an RPG sheet or roster, a war save, a war log — is read here
(:func:`read_text`, and :func:`fuyuki.core.data.read_toml` / :func:`read_json` over it), and
every failure is a :class:`~fuyuki.core.errors.DataError` naming the file, the key and what is
wrong: a missing file, a directory, an unreadable or binary file, bad UTF-8, bad TOML or JSON,
lists and tables nested deeper than :data:`MAX_DEPTH` or a lone surrogate (:func:`check_tree`,
on every TOML and JSON file), a value of the wrong type or out of the rules' range. :func:`error_line` turns any of the
project's errors into the one line a command prints (in ja or en) before it exits with status
2; :func:`check_output` checks an output path before a game starts, so that a game is never
played to be lost at the end. The catalog is ``load`` (``core/messages.<lang>.toml``).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from fuyuki.core import i18n
from fuyuki.core.errors import DataError, FuyukiError, IllegalAction

_CATALOG: list[bool] = []


def _catalog() -> None:
    if not _CATALOG:
        i18n.register("load", Path(__file__).parent)
        _CATALOG.append(True)

#: the largest file a user may hand the program (saves of long games are a few MB)
MAX_BYTES = 64 * 1024 * 1024


def read_text(path: str | Path, error: type[DataError] = DataError) -> str:
    """The text of a user's file (UTF-8, a BOM allowed), or ``error`` saying why not."""
    p = str(path)
    try:
        with open(p, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise error(p, "-", "no such file", "no_file") from None
    except IsADirectoryError:
        raise error(p, "-", "is a directory, not a file", "is_dir") from None
    except NotADirectoryError:
        raise error(p, "-", "a part of the path is a file, not a directory", "not_dir") from None
    except PermissionError:
        raise error(p, "-", "no permission to read it", "no_permission") from None
    except OSError as exc:
        raise error(p, "-", f"cannot be read: {exc.strerror or exc}", "unreadable",
                    detail=str(exc.strerror or exc)) from None
    if len(raw) > MAX_BYTES:
        raise error(p, "-", f"larger than {MAX_BYTES // 2**20} MB", "too_big",
                    mb=MAX_BYTES // 2**20)
    if b"\x00" in raw:
        raise error(p, "-", "a binary file, not text", "binary")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(p, f"byte {exc.start}", "not UTF-8 text", "not_utf8") from None


#: the deepest nesting of lists and tables a user's TOML or JSON file may have: the project's
#: own files need 8 (a roster: pair, servant, skills, effects...); a file nested deeper is refused
#: before anything walks it, so that no loader, check or error message recurses without end
MAX_DEPTH = 48


def parse_toml(text: str, source: str, error: type[DataError] = DataError) -> dict[str, Any]:
    """TOML text (read from ``source``) as a dict, or ``error`` naming the source."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(source, "-", f"not valid TOML: {exc}", "bad_toml", detail=str(exc)) from None
    except RecursionError:          # the parser recurses once per level of ``[[[...`` / ``{a={``
        raise _too_deep(source, "-", error) from None
    check_tree(data, source, error)
    return data


def check_tree(value: Any, source: str, error: type[DataError] = DataError) -> None:
    """``error`` naming the top-level key under which ``value`` (a file's data) nests lists
    and tables deeper than :data:`MAX_DEPTH`, or holds a lone surrogate (JSON may escape half
    a UTF-16 pair, ``"\\ud800"``: no such character can be printed or written as UTF-8).
    Walked without recursion."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "-")]
    while stack:
        node, level, top = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                raise error(source, top, "a lone surrogate (U+D800-U+DFFF) is not text",
                            "surrogate")
        elif isinstance(node, dict):
            if level >= MAX_DEPTH:
                raise _too_deep(source, top, error)
            for k, v in node.items():
                key = str(k) if level == 0 else top
                stack += [(k, level + 1, key), (v, level + 1, key)]     # a key is text too
        elif isinstance(node, list):
            if level >= MAX_DEPTH:
                raise _too_deep(source, top, error)
            stack.extend((v, level + 1, f"[{i}]" if level == 0 else top)
                         for i, v in enumerate(node))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep(source: str, key: str, error: type[DataError]) -> DataError:
    return error(source, key, f"lists and tables nested deeper than {MAX_DEPTH} levels",
                 "too_deep", depth=MAX_DEPTH)


def read_json(path: str | Path, error: type[DataError] = DataError) -> Any:
    """A JSON file (a save): its value, or ``error`` naming the line of a syntax error."""
    text = read_text(path, error)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise error(str(path), f"line {exc.lineno}", f"not valid JSON: {exc.msg}", "bad_json",
                    detail=exc.msg) from None
    except RecursionError:
        raise _too_deep(str(path), "-", error) from None
    except ValueError as exc:
        raise error(str(path), "-", f"not valid JSON: {exc}", "bad_json", detail=str(exc)) from None
    check_tree(data, str(path), error)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def check_output(path: str | Path, option: str) -> None:
    """Fail now (DataError) unless ``path`` can be written: not a directory, in an existing
    directory we may write in, and writable itself if it exists. Nothing is created."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise DataError(str(p), option, "is a directory; give a file name", "out_is_dir")
    if not parent.is_dir():
        raise DataError(str(p), option, f"the directory {str(parent)!r} does not exist",
                        "out_no_dir", dir=str(parent))
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise DataError(str(p), option, "no permission to write here", "out_no_permission")


def unfinished_line(lang: str) -> str:
    """What a replay says when the saved game stops before its end."""
    _catalog()
    return i18n.tr(lang, "load.unfinished")


def check_output_dir(path: str | Path, option: str) -> None:
    """Fail now (DataError) unless ``path`` is, or can be made as, a directory we may write
    in. Nothing is created."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise DataError(str(p), option, "is a file, not a directory", "out_not_dir")
    existing = p
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise DataError(str(p), option, f"{str(existing)!r} is a file, not a directory",
                        "out_not_dir")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise DataError(str(p), option, "no permission to write here", "out_no_permission")


def error_line(exc: BaseException, lang: str) -> str:
    """One line for a command's standard error: what went wrong, where, in ``lang``."""
    _catalog()
    if isinstance(exc, DataError):
        reason = exc.reason
        if exc.code:
            params = {k: v for k, v in exc.params.items()}
            if lang == "ja" and "want_ja" in params:
                params["want"] = params["want_ja"]
            reason = i18n.tr(lang, f"load.reason.{exc.code}", **params)
            if reason.startswith("load.reason."):
                reason = exc.reason
        text = i18n.tr(lang, "load.data", file=exc.file, where=exc.key, reason=reason)
    elif isinstance(exc, IllegalAction):
        text = i18n.tr(lang, "load.illegal", reason=str(exc))
    elif isinstance(exc, FuyukiError):
        text = i18n.tr(lang, "load.other", reason=str(exc))
    else:
        text = i18n.tr(lang, "load.other", reason=f"{type(exc).__name__}: {exc}")
    return " ".join(text.split())  # one line, whatever the file's text held
