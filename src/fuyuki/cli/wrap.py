"""Line breaking for the terminal that keeps Japanese punctuation in its place (禁則処理).

rich wraps Japanese at any character, so a line could begin with 。 or 」 or end with 「. A
paragraph holding Japanese is wrapped here instead, at spaces first as rich does; where a word
is longer than a line, a line never begins with a character of ``NO_START`` nor ends with one
of ``NO_END``, and a run of ASCII characters (a number, ``1d6+5``) is not split — the
characters that would break a rule move to the next line; only a line in which nothing may
break at all is broken at the width (a line is never longer than the width: rich would cut it).
Text without Japanese is left to rich.

Two kinds of run also stay whole where they fit a line: a parenthesised group of at most
:data:`GROUP_CELLS` columns (「衛宮士郎（魔力3）」 never breaks inside （魔力3）), and the spans
given to :func:`kept_whole` (the inline code of a Markdown text: ``fuyuki play --tutorial``
never breaks at its spaces); a text holding such a span is broken here even without
Japanese."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterable, Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text

NO_START = frozenset("、。，．・：；？！ー…‥）〕］｝〉》」』】〙〗”’ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                     "々ゝゞヽヾ)]},.:;!?%％")
NO_END = frozenset("（〔［｛〈《「『【〘〖“‘([{")
_WORD = re.compile(r"\s*\S+\s*")    # a word and the spaces after it, as rich reads one
#: the widest parenthesised group kept on one line (a wider one breaks inside, by the rules)
GROUP_CELLS = 20
_GROUP = re.compile(r"（[^（）\n]*）|\([^()\n]*\)")
_KEEP: ContextVar[tuple[str, ...]] = ContextVar("kept_whole", default=())


@contextmanager
def kept_whole(spans: Iterable[str]) -> Iterator[None]:
    """While the block runs, no line breaks inside any of ``spans`` (where one fits a line)."""
    token = _KEEP.set(tuple(sorted({s for s in spans if s.strip()}, key=len, reverse=True)))
    try:
        yield
    finally:
        _KEEP.reset(token)


def _kept(text: str) -> list[tuple[int, int]]:
    """The runs of ``text`` not to break inside: (start, end) offsets."""
    runs = [m.span() for m in _GROUP.finditer(text) if cell_len(m.group(0)) <= GROUP_CELLS]
    for span in _KEEP.get():
        start = text.find(span)
        while start >= 0:
            runs.append((start, start + len(span)))
            start = text.find(span, start + len(span))
    return runs


def _inside(runs: list[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether a break at an offset falls inside one of ``runs``."""
    return lambda offset: any(a < offset < b for a, b in runs)


def _joined(a: str, b: str) -> bool:
    """May a line not break between ``a`` and ``b``?"""
    return (b in NO_START or a in NO_END
            or (a.isascii() and b.isascii() and not a.isspace() and not b.isspace()))


def _fold(word: str, width: int, blocked: Callable[[int], bool] = lambda i: False) -> list[str]:
    """A word longer than a line, cut into lines by the rules above; ``blocked(i)``: a break
    before ``word[i]`` falls inside a run kept whole (given up when nothing else breaks)."""
    out: list[str] = []
    line, at = "", 0        # the line being filled and the offset in ``word`` where it starts
    for ch in word:
        if cell_len(line + ch) <= width or not line:
            line += ch
            continue
        cut = _cut(line, ch, at, blocked) or _cut(line, ch, at, lambda i: False)
        if not cut or cell_len(line[cut:] + ch) > width:
            # nothing may break in the whole line, or what would move on does not fit a line
            # of its own (「、、 after a number): at the width
            cut = len(line)
        out.append(line[:cut])
        line, at = line[cut:] + ch, at + cut
    return out + [line]


def _cut(line: str, ch: str, at: int, blocked: Callable[[int], bool]) -> int:
    """Where ``line`` (followed by ``ch``) may break, as late as possible: an offset in
    ``line`` (0: nowhere)."""
    nxt = ch
    for cut in range(len(line), 0, -1):
        if not _joined(line[cut - 1], nxt) and not blocked(at + cut):
            return cut
        nxt = line[cut - 1]
    return 0


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Where a line of ``text`` breaks to fit ``width`` columns: the offsets of the breaks.
    As rich does, a line breaks at a space when the next word does not fit, and a word longer
    than a line starts a new one; such a word is cut by the rules above (cropped instead when
    not ``fold``). Spaces inside a run kept whole do not part words. The same signature as
    rich's own ``divide_line``, which :func:`install` replaces with this."""
    breaks: list[int] = []
    offset = 0
    runs = _kept(text)
    blocked = _inside(runs)
    for start, word in _words(text, blocked):
        core = cell_len(word.rstrip())
        if width - offset >= core:
            offset += cell_len(word)
            continue
        if start and (offset or core > width):
            breaks.append(start)
        if core > width and fold:
            pieces = _fold(word.rstrip(), width, lambda i, s=start: blocked(s + i))
            for piece in pieces[:-1]:
                start += len(piece)
                breaks.append(start)
            offset = cell_len(pieces[-1]) + cell_len(word) - core
        else:
            offset = cell_len(word)
    return breaks


def _words(text: str, blocked: Callable[[int], bool]) -> list[tuple[int, str]]:
    """The words of ``text`` as rich reads them (with the spaces after each), those that
    meet inside a run kept whole joined into one: (offset, word)."""
    words: list[tuple[int, str]] = []
    for match in _WORD.finditer(text):
        if words and blocked(match.start()):
            start, word = words[-1]
            words[-1] = (start, word + match.group(0))
        else:
            words.append((match.start(), match.group(0)))
    return words


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
        mine = _japanese(text) or any(span in text for span in _KEEP.get())
        return (divide_line if mine else own)(text, width, fold)

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
