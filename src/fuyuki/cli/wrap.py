"""Line breaking for the terminal that keeps Japanese punctuation in its place (禁則処理).

rich wraps Japanese at any character, so a line could begin with 。 or 」 or end with 「. A
paragraph holding Japanese is wrapped here instead, at spaces first as rich does; where a word
is longer than a line, a line never begins with a character of ``NO_START`` nor ends with one
of ``NO_END``, and a run of ASCII characters (a number, ``1d6+5``) is never split — the
characters that would break a rule move to the next line.
Text without Japanese is left to rich."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text

NO_START = frozenset("、。，．・：；？！ー…‥）〕］｝〉》」』】〙〗”’ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                     "々ゝゞヽヾ)]},.:;!?%％")
NO_END = frozenset("（〔［｛〈《「『【〘〖“‘([{")


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
        carry = ch
        while len(line) > 1 and _joined(line[-1], carry[0]):
            line, carry = line[:-1], line[-1] + carry
        if _joined(line[-1], carry[0]):       # nothing may break here: a longer line
            line, carry = line + carry, ""
        out.append(line)
        line = carry
    return out + [line]


def wrap(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` columns. As rich does, a line breaks at a space
    when the next word does not fit and a word longer than a line starts a new one; such a
    word is cut by the rules above (a line is longer than ``width`` only when a run that must
    not break is)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            joined = f"{line} {word}" if line else word
            if cell_len(joined) <= width:
                line = joined
                continue
            if line:
                out.append(line)
            pieces = _fold(word, width) if cell_len(word) > width else [word]
            out += pieces[:-1]
            line = pieces[-1]
        out.append(line)
    return out


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
