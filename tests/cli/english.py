"""Finding English left in a Japanese-mode text: runs of English words that are not the
program's own words (command names, option values, option names, metavars)."""

from __future__ import annotations

import re

#: words of the program a Japanese text may hold: the command, its commands, option values
PROGRAM_WORDS = frozenset("""
fuyuki play replay judge print serve link simulate rules war board battle verify new
sbb random heuristic hard final fate ubw hf hollow draft local ja en true false
servant master main sub auto
""".split())
_TOKEN = re.compile(r"[\u3000-\u9fff\uff00-\uffef]+|[^\s\u3000-\u9fff\uff00-\uffef]+")
_WORD = re.compile(r"[(\[\"“]?([A-Za-z][a-z]*(?:'[a-z]+)?)[)\]\"”,.;:!?]*")


def _is_word(token: str) -> bool:
    """An English word of a sentence: lower case or capitalised letters (an all-capitals
    token is a metavar, a token with digits, ``_``, ``-``, ``/``, ``=`` is code or a path)."""
    m = _WORD.fullmatch(token)
    return bool(m) and m.group(1).lower() not in PROGRAM_WORDS and not m.group(1).isupper()


def english_runs(text: str, words: int = 3) -> list[str]:
    """The runs of at least ``words`` English words in a row, line by line."""
    found: list[str] = []
    for line in text.splitlines():
        run: list[str] = []
        for token in _TOKEN.findall(line) + [""]:
            if token and _is_word(token):
                run.append(token)
                continue
            if len(run) >= words:
                found.append(" ".join(run))
            run = []
    return found
