"""Line breaking for the terminal that keeps Japanese punctuation in its place (禁則処理).

rich wraps Japanese at any character, so a line could begin with 。 or 」 or end with 「. A
paragraph holding Japanese is wrapped here instead, at spaces first as rich does; where a word
is longer than a line, a line never begins with a character of ``NO_START`` nor ends with one
of ``NO_END``, and a run of ASCII characters (a number, ``1d6+5``) is not split — the
characters that would break a rule move to the next line; only a line in which nothing may
break at all is broken at the width (a line is never longer than the width: rich would cut it).
Text without Japanese is left to rich."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text

NO_START = frozenset("、。，．・：；？！ー…‥）〕］｝〉》」』】〙〗”’ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                     "々ゝゞヽヾ)]},.:;!?%％")
NO_END = frozenset("（〔［｛〈《「『【〘〖“‘([{")
_WORD = re.compile(r"\s*\S+\s*")    # a word and the spaces after it, as rich reads one


def _joined(a: str, b: str) -> bool:
    """May a line not break between ``a`` and ``b``?"""
    return (b in NO_START or a in NO_END
            or (a.isascii() and b.isascii() and not a.isspace() and not b.isspace()))


def _fold(word: str, width: int) -> list[str]:
    """A word longer than a line, cut into lines by the rules above."""
    out: list[str] = []
    line = ""
    for ch in word:
        if cell_len(line + ch) <= width or not line:
            line += ch
            continue
        full, carry = line, ch
        while len(line) > 1 and _joined(line[-1], carry[0]):
            line, carry = line[:-1], line[-1] + carry
        if _joined(line[-1], carry[0]) or cell_len(carry) > width:
            # nothing may break in the whole line, or what would move on does not fit a line
            # of its own (「、、 after a number): at the width
            line, carry = full, ch
        out.append(line)
        line = carry
    return out + [line]


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Where a line of ``text`` breaks to fit ``width`` columns: the offsets of the breaks.
    As rich does, a line breaks at a space when the next word does not fit, and a word longer
    than a line starts a new one; such a word is cut by the rules above (cropped instead when
    not ``fold``). The same signature as rich's own ``divide_line``, which :func:`install`
    replaces with this."""
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group(0)
        core = cell_len(word.rstrip())
        if width - offset >= core:
            offset += cell_len(word)
            continue
        if start and (offset or core > width):
            breaks.append(start)
        if core > width and fold:
            pieces = _fold(word.rstrip(), width)
            for piece in pieces[:-1]:
                start += len(piece)
                breaks.append(start)
            offset = cell_len(pieces[-1]) + cell_len(word) - core
        else:
            offset = cell_len(word)
    return breaks


def wrap(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken by :func:`divide_line`."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        cuts = [0, *divide_line(paragraph, width), len(paragraph)]
        out += [paragraph[a:b].rstrip(" ") for a, b in zip(cuts, cuts[1:])]
    return out


def install() -> None:
    """Make rich break every line holding Japanese by these rules — a paragraph of Markdown
    (``fuyuki rules``), a table cell, a panel; a line without Japanese rich still breaks its
    own way. rich's ``Text.wrap`` takes its break offsets from the ``divide_line`` its module
    imported; that name is replaced (a test checks that rich still has it and that its
    output keeps the rules)."""
    import rich.text

    own = getattr(rich.text, "divide_line", None)
    if own is None or getattr(own, "kinsoku", False):
        return

    def either(text: str, width: int, fold: bool = True) -> list[int]:
        return (divide_line if _japanese(text) else own)(text, width, fold)

    either.kinsoku = True  # type: ignore[attr-defined]
    rich.text.divide_line = either  # type: ignore[attr-defined]


def _japanese(text: str) -> bool:
    return any("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text)


class Paragraph:
    """``text`` indented by ``indent`` columns and wrapped at the width it is drawn in."""

    def __init__(self, text: str, style: str = "", indent: int = 0) -> None:
        self.text, self.style, self.indent = text, style, indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not _japanese(self.text):
            yield Padding(Text(self.text, style=self.style), (0, 0, 0, self.indent))
            return
        for line in wrap(self.text, max(1, options.max_width - self.indent)):
            yield Text(" " * self.indent) + Text(line, style=self.style)
