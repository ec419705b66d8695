"""``--help`` in the user's language.

The English help of each command lives in its code; ``help.ja.toml`` holds the Japanese help of
every command and option (and ``help.en.toml`` the English texts that replace the code's: the
root's "where to start", one-line summaries). :func:`localize` applies them to the command tree
Typer built, and gives it a plain layout: a flag is shown as ``--tutorial`` (no type), a value
option with a short metavar (``--seed N``), the headings and Typer's own words ("Usage:",
"[default: …]") in the language, and Japanese lines broken by their rules
(:mod:`fuyuki.cli.wrap`) at the terminal's width.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Iterator

from rich.cells import cell_len

from fuyuki.cli.wrap import wrap

try:
    from typer._click.core import Context
    from typer._click.formatting import HelpFormatter
except ImportError:        # a Typer that runs on Click itself
    from click import Context, HelpFormatter  # type: ignore[assignment]

_HERE = Path(__file__).parent
_CATALOGS: dict[str, dict[str, dict[str, str]]] = {}

#: metavars by option name (else by the value's type: :data:`TYPE_METAVARS`)
METAVARS = {"--lang": "ja|en", "--save": "FILE", "--resume": "FILE", "--log": "FILE",
            "--cards": "FILE", "--roster": "FILE", "--out": "DIR", "--data": "DIR",
            "--pack": "DIR", "--edition": "NAME", "--mode": "NAME", "--option": "NAME",
            "--bots": "BOT", "--human": "WHO", "--fix": "SEAT=M+S", "--compare": "WHAT",
            "--ray": "ADDRESS", "--db": "URL", "--url": "URL", "--host": "ADDRESS",
            "--camps": "IDS", "--attacker": "A|B", "--assign": "HOW", "--allow-origin": "ORIGIN",
            "--forwarded-allow-ips": "IPS", "--lineup-a": "MAIN|SUB", "--lineup-b": "MAIN|SUB"}
TYPE_METAVARS = {int: "N", float: "SEC", str: "TEXT", Path: "PATH"}


def catalog(lang: str) -> dict[str, dict[str, str]]:
    """The help catalog of ``lang``: {command path ("board play"; "fuyuki": the root):
    {"help" | "short" | option name | ARGUMENT: text}}."""
    if lang not in _CATALOGS:
        from fuyuki.core.data import read_toml

        _CATALOGS[lang] = {k: dict(v) for k, v in read_toml(_HERE / f"help.{lang}.toml").items()}
    return _CATALOGS[lang]


def commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Every command of the tree under ``command``: (its catalog key, the command)."""
    yield (" ".join(path) or "fuyuki"), command
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, (*path, name))


def param_key(param: Any) -> str:
    """A parameter's key in a catalog: its long option name, or an argument's metavar."""
    if param.param_type_name == "argument":
        return (param.metavar or param.name).upper()
    longs = [o for o in param.opts if o.startswith("--")]
    return longs[0] if longs else param.opts[0]


def localize(root: Any, lang: str) -> None:
    """Give every command under ``root`` its help in ``lang``, the plain layout, and ``lang``
    as the default of its ``--lang``."""
    texts = catalog(lang)
    for key, command in commands(root):
        own = texts.get(key, {})
        command.rich_markup_mode = None
        command.context_class = _context_class(lang)
        if "help" in own:
            command.help = own["help"]
        if "short" in own:
            command.short_help = own["short"]
        if lang == "ja":
            command.options_metavar = "[オプション]"
            if hasattr(command, "subcommand_metavar"):
                command.subcommand_metavar = "コマンド [引数]..."
        for param in command.params:
            name = param_key(param)
            if name in own:
                param.help = own[name]
            if param.param_type_name == "option" and not param.is_flag and param.metavar is None:
                annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
                base = getattr(annotation, "__args__", (annotation,))[0]
                param.metavar = METAVARS.get(name, TYPE_METAVARS.get(base, "VALUE"))
            if param.param_type_name == "option" and param.is_flag and not param.default:
                param.show_default = False          # off unless given: no "[default: no-auto]"
            if param.param_type_name == "argument":
                param.metavar = name                # FILE, not "file <path>" nor {FILE}
                param.display_type_rich = _no_type
                param._usage_display_name = (lambda n=name, p=param:
                                             n if p.required else f"[{n}]")
            if param.name == "lang" and param.param_type_name == "option" and key != "fuyuki":
                param.default = lang


def _no_type(ctx: Any = None) -> None:
    return None


def _context_class(lang: str) -> type:
    formatter = type("Formatter", (Formatter,), {"lang": lang})
    return type("FuyukiContext", (Context,), {"formatter_class": formatter})


def _tr(lang: str, key: str, **params: Any) -> str:
    from fuyuki.cli.prompt import t

    return t(lang, f"help.{key}", **params)


def _lines(text: str, width: int, indent: int) -> list[str]:
    """``text`` wrapped to ``width``: a line starting with spaces keeps its own breaks and
    indentation (a list of commands), the lines of a paragraph are joined (without a space
    between Japanese)."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            joined = ""
            for piece in paragraph:
                glue = "" if not joined or _cjk(joined[-1]) and _cjk(piece[0]) else " "
                joined += ("" if not joined else glue) + piece
            out.extend(" " * indent + line for line in wrap(joined, width - indent))
            paragraph.clear()

    for raw in text.strip("\n").splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
            out.append("")
        elif line.startswith(" "):        # a line of a list: its own, the text hanging
            flush()
            lead = len(line) - len(line.lstrip())
            column = re.search(r"\S {2,}(?=\S)", line)
            hang = column.end() if column else lead
            pieces = wrap(line[hang:], max(10, width - indent - hang))
            out.append(" " * indent + line[:hang] + pieces[0])
            out.extend(" " * (indent + hang) + p for p in pieces[1:])
        else:
            paragraph.append(line.strip())
    flush()
    return out


def _cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


class Formatter(HelpFormatter):
    """Typer's plain help layout, in the formatter's language, lines by their rules."""

    lang = "en"

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        prefix = _tr(self.lang, "usage") if prefix is None else prefix
        lines = _lines(f"{prog} {args}".strip(), self.width - cell_len(prefix), 0)
        self.write(prefix + lines[0] + "\n")
        for line in lines[1:]:
            self.write(" " * cell_len(prefix) + line + "\n")

    def write_heading(self, heading: str) -> None:
        words = {"Options": "options", "Commands": "commands", "Arguments": "arguments"}
        name = _tr(self.lang, words[heading]) if heading in words else heading
        self.write(f"{'':>{self.current_indent}}{name}:\n")

    def write_text(self, text: str) -> None:
        for line in _lines(inspect.cleandoc(text), self.width, self.current_indent):
            self.write(line + "\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [(a, self._translated(b)) for a, b in rows]
        first = min(max((cell_len(a) for a, _ in rows), default=0), col_max) + col_spacing
        for term, text in rows:
            self.write(" " * self.current_indent + term)
            lines = _lines(text, max(self.width - first - self.current_indent, 20), 0)
            if not lines or not text:
                self.write("\n")
                continue
            if cell_len(term) <= first - col_spacing:
                self.write(" " * (first - cell_len(term)))
            else:
                self.write("\n" + " " * (first + self.current_indent))
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(" " * (first + self.current_indent) + line + "\n")

    def _translated(self, text: str) -> str:
        """Typer's own words in an option's text: "[default: 4]", "[required]", the
        help option's text."""
        if self.lang == "en":
            return text
        if text == "Show this message and exit.":
            return _tr(self.lang, "help_option")
        text = re.sub(r"\bdefault: ", _tr(self.lang, "default"), text)
        return text.replace("[required]", f"[{_tr(self.lang, 'required')}]")
