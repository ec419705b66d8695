"""The language a command line speaks: the last ``--lang`` on it (before or after the command,
``--lang en`` or ``--lang=en``), else the environment variable ``FUYUKI_LANG``, else Japanese.

The system locale (``LANG``, ``LC_ALL``) is not read: a shared machine's locale (often
``en_US.UTF-8`` on a server, ``C.UTF-8`` in a container) says little about the player, and the
games are Japanese first. The language found here is the language of ``--help``, of the
command-line parser's messages and the default of every command's ``--lang``."""

from __future__ import annotations

from typing import Mapping, Sequence

LANGS = ("ja", "en")
DEFAULT = "ja"
ENV = "FUYUKI_LANG"


def given(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``args`` (None: none; "" when it has no value)."""
    value = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang":
            value = args[i + 1] if i + 1 < len(args) else ""
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
    return value


def from_environment(environ: Mapping[str, str]) -> str:
    """``FUYUKI_LANG`` when it names a language (``en``, ``en_US``, ``ja``), else ja."""
    value = environ.get(ENV, "").strip().lower()[:2]
    return value if value in LANGS else DEFAULT


def detect(args: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of a command line (see the module's text)."""
    value = given(args)
    return value if value in LANGS else from_environment(environ)


def without(args: Sequence[str]) -> list[str]:
    """``args`` less every ``--lang`` and its value: the language found is every command's
    default instead, so that ``--lang`` may stand anywhere, even where a group has none."""
    out: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            return out + list(args[i:])
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("--lang="):
            out.append(arg)
    return out
