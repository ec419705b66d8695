"""Commit-reveal dice: random numbers anyone can check after the fact.

The trip-code trick of forum games, made checkable. Before a round of play the game master
publishes ``commitment(secret)`` — the SHA-256 of a secret nobody else knows. Every roll of the
round is then a fixed function of the secret, its *number* in the round (1, 2, 3, ...), a
*label* naming it and the roll before it (a chain)::

    dice = CommittedDice(secret)
    dice.roll("t3/pm/red-saber", 10)     # roll 1: roll_value(secret, 1, label, 10)
    dice.roll("t3/b1/win", 100)          # roll 2: chained to roll 1

and after the round the secret is revealed. Anyone can then check that the secret matches
the commitment and recompute every published roll: the GM could not have chosen a value after
seeing the players' moves; could not re-roll, because a number names one roll only; and
changing one roll of a published log (its value, its label, or the roll made again under a
new label) changes every roll after it, while a removed, inserted or moved roll line breaks
the numbering (see :func:`verify_lines`).

The function (stable, documented, language-independent):

1. ``mac = HMAC-SHA256(key=secret, msg=prev + ASCII(str(n)) + 0x1E + UTF-8(label))`` for the
   first try, ``n`` the roll's number in its round (from 1) and ``prev`` the first-try ``mac``
   of roll ``n - 1`` (empty for roll 1); for try ``k >= 1`` the message gets
   ``0x1F + ASCII(str(k))`` appended.
2. ``x = int.from_bytes(mac, "big")`` (a 256-bit integer).
3. Let ``limit = 2**256 - (2**256 % faces)``. If ``x < limit`` the die shows
   ``1 + x % faces``; otherwise take the next try (rejection sampling: no modulo bias; a
   retry has probability below ``faces / 2**256``, so in practice never happens).

Labels are printable text without spaces or control characters (they are written into logs
as single tokens); ``faces`` is 1..10**6.

Nothing here touches files or the clock; a secret is created from ``os.urandom`` only by
:func:`fresh_secret`, or derived from a seed by :func:`derive_secret` (for reproducible games
and tests).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

MAX_FACES = 10**6
_SPACE = 2**256


class DiceError(ValueError):
    """A bad label, a bad number of faces, or fixed dice used wrongly."""


def commitment(secret: bytes) -> str:
    """The public commitment to ``secret``: SHA-256, lower-case hex."""
    return hashlib.sha256(secret).hexdigest()


def check_label(label: str) -> str:
    if not label or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in label):
        raise DiceError(f"bad roll label {label!r}: must be non-empty, no spaces or control chars")
    return label


def check_faces(faces: int) -> int:
    if not isinstance(faces, int) or isinstance(faces, bool) or not 1 <= faces <= MAX_FACES:
        raise DiceError(f"bad number of faces {faces!r}: must be 1..{MAX_FACES}")
    return faces


def check_index(n: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise DiceError(f"bad roll number {n!r}: rolls are numbered from 1")
    return n


def roll_mac(secret: bytes, n: int, label: str, attempt: int = 0, prev: bytes = b"") -> bytes:
    """HMAC-SHA256 of roll number ``n`` named ``label`` (try ``attempt``), chained to the
    first-try mac ``prev`` of roll ``n - 1``, under ``secret``."""
    msg = prev + str(check_index(n)).encode("ascii") + b"\x1e" + check_label(label).encode("utf-8")
    if attempt:
        msg += b"\x1f" + str(attempt).encode("ascii")
    return hmac.new(secret, msg, hashlib.sha256).digest()


def roll_value(secret: bytes, n: int, label: str, faces: int, prev: bytes = b"") -> int:
    """The die (1..faces) of roll number ``n``, named ``label``, chained to ``prev`` (the
    first-try mac of roll ``n - 1``), under ``secret``; unbiased (rejection sampling)."""
    check_faces(faces)
    limit = _SPACE - (_SPACE % faces)
    attempt = 0
    while True:
        x = int.from_bytes(roll_mac(secret, n, label, attempt, prev), "big")
        if x < limit:
            return 1 + x % faces
        attempt += 1


def derive_secret(seed: int | str, name: str) -> bytes:
    """A 32-byte secret derived from a seed and a name (reproducible games, tests)."""
    key = hashlib.sha256(f"fuyuki-dice\x1f{seed}".encode()).digest()
    return hmac.new(key, name.encode("utf-8"), hashlib.sha256).digest()


def fresh_secret() -> bytes:
    """A new unpredictable 32-byte secret."""
    return os.urandom(32)


@dataclass(frozen=True, slots=True)
class Roll:
    n: int
    label: str
    faces: int
    value: int


class Dice(Protocol):
    """What a game asks of its dice: one labelled roll at a time."""

    def roll(self, label: str, faces: int) -> int: ...


@dataclass
class CommittedDice:
    """Dice bound to one secret. Every roll is recorded and numbered from 1; a label can be
    used only once."""

    secret: bytes
    rolls: list[Roll] = field(default_factory=list)
    #: the first-try mac of the last roll: the next roll is chained to it
    link: bytes = b""

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def roll(self, label: str, faces: int) -> int:
        if any(r.label == label for r in self.rolls):
            raise DiceError(f"roll label used twice: {label}")
        n = len(self.rolls) + 1
        value = roll_value(self.secret, n, label, faces, self.link)
        self.link = roll_mac(self.secret, n, label, 0, self.link)
        self.rolls.append(Roll(n, label, faces, value))
        return value


class FixedDice:
    """Test dice: values given in advance, consumed in order.

    A roll asked for when none are left fails; a value outside 1..faces fails; and
    :meth:`check_all_used` fails when a case leaves rolls unused (BCDice-style cases).
    Values may be given as ints or as ``"faces:value"`` / ``"dN=V"`` strings, which also check
    that the die asked for has that many faces.
    """

    def __init__(self, values: list[int | str]):
        self._values = list(values)
        self.used: list[Roll] = []

    def roll(self, label: str, faces: int) -> int:
        check_label(label)
        check_faces(faces)
        if not self._values:
            raise DiceError(f"no fixed roll left for {label} (1D{faces})")
        raw = self._values.pop(0)
        want_faces = None
        if isinstance(raw, str):
            text = raw.lower().lstrip("d")
            sep = "=" if "=" in text else ":"
            try:
                f, v = text.split(sep)
                want_faces, value = int(f), int(v)
            except ValueError:
                raise DiceError(f"bad fixed roll {raw!r}: use N, 'dF=V' or 'F:V'") from None
        else:
            value = raw
        if want_faces is not None and want_faces != faces:
            raise DiceError(f"fixed roll {raw!r} given for {label}, which is 1D{faces}")
        if not 1 <= value <= faces:
            raise DiceError(f"fixed roll {value} out of range for {label} (1D{faces})")
        self.used.append(Roll(len(self.used) + 1, label, faces, value))
        return value

    @property
    def left(self) -> list[int | str]:
        return list(self._values)

    def check_all_used(self) -> None:
        if self._values:
            raise DiceError(f"{len(self._values)} fixed roll(s) left unused: {self._values}")


# -- published logs ---------------------------------------------------------------------------
#
# A log carries three kinds of machine lines (anything else is text for people):
#
#     #DICE COMMIT <scope> <sha256-hex>                published before the scope's rolls
#     #DICE ROLL <n> <label> 1D<faces> <value>         one per roll, numbered 1, 2, 3, ...
#     #DICE REVEAL <scope> <secret-hex> <rolls>        published after them, with their count
#
# A roll belongs to the scope committed last, which must still be open (scopes do not nest;
# a scope is committed and revealed once). The numbers of a scope's rolls run 1, 2, 3, ...
# in the order of the lines, and the reveal states how many there were, so a removed,
# inserted or moved roll line is found; a roll's value depends on its number, its label and
# the rolls before it, so a relabelled roll (or one made again under a new label) no longer
# matches its recomputation, nor does any roll after it.
# When the line right after a ROLL line shows that die in dice-bot style — "(1D100<=65) ＞ 42"
# — the value shown must be the one published (a GM cannot edit only the text people read).


@dataclass
class Problem:
    code: str              # see the rpg catalog's [verify] table
    line: int
    params: dict[str, Any]


@dataclass
class Verification:
    commits: int = 0
    rolls: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.commits > 0


_SHOWN = re.compile(r"\(1D(\d+)[^)]*\)\s*(?:＞|>)\s*(-?\d+)")
_HEX = re.compile(r"[0-9a-f]+")


@dataclass
class _Scope:
    sha: str
    line: int
    rolls: list[tuple[int, str, int, int, int]] = field(default_factory=list)  # n label faces value line
    revealed: bool = False


def _number(text: str) -> int:
    """A plain ASCII decimal number (``int()`` also takes "１２" and "1_2")."""
    if not text.isascii() or not text.isdigit():
        raise ValueError(text)
    return int(text)


def verify_lines(lines: list[str]) -> Verification:
    """Check every #DICE line of a published log (see above)."""
    out = Verification()
    scopes: dict[str, _Scope] = {}
    open_scope: str | None = None

    def problem(code: str, n: int, **params: object) -> None:
        out.problems.append(Problem(code, n, dict(params)))

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line.startswith("#DICE"):
            continue
        parts = line.split()
        try:
            kind = parts[1]
            if kind == "COMMIT":
                if len(parts) != 4 or not _HEX.fullmatch(parts[3].lower()):
                    raise ValueError(line)
                scope, sha = parts[2], parts[3].lower()
                out.commits += 1
                if scope in scopes:
                    problem("tamper.dup_commit", n, scope=scope, first=scopes[scope].line)
                    continue
                if open_scope is not None:
                    problem("tamper.nested", n, scope=scope, open=open_scope)
                scopes[scope] = _Scope(sha, n)
                open_scope = scope
            elif kind == "ROLL":
                if len(parts) != 6:
                    raise ValueError(line)
                num, label, die, value = _number(parts[2]), parts[3], parts[4], int(parts[5])
                if not die.upper().startswith("1D"):
                    raise ValueError(die)
                faces = _number(die[2:])
                out.rolls += 1
                if open_scope is None:
                    problem("no_commit", n, label=label)
                    continue
                sc = scopes[open_scope]
                want = len(sc.rolls) + 1
                if num != want:
                    problem("tamper.number", n, label=label, number=num, expected=want)
                if any(r[1] == label for r in sc.rolls):
                    problem("dup", n, label=label)
                sc.rolls.append((num, label, faces, value, n))
                if n < len(lines):
                    m = _SHOWN.search(lines[n])
                    if m and int(m.group(1)) == faces and int(m.group(2)) != value:
                        problem("shown", n + 1, label=label, value=value, shown=int(m.group(2)))
            elif kind == "REVEAL":
                if len(parts) != 5 or not _HEX.fullmatch(parts[3].lower()):
                    raise ValueError(line)
                scope, secret, count = parts[2], bytes.fromhex(parts[3]), _number(parts[4])
                sc2 = scopes.get(scope)
                if sc2 is None:
                    problem("bad_line", n)
                    continue
                if sc2.revealed:
                    problem("tamper.dup_reveal", n, scope=scope)
                    continue
                sc2.revealed = True
                if open_scope == scope:
                    open_scope = None
                if commitment(secret) != sc2.sha:
                    problem("bad_commit", n, scope=scope)
                if count != len(sc2.rolls):
                    problem("tamper.count", n, scope=scope, count=count, found=len(sc2.rolls))
                link = b""
                for num, label, faces, value, ln in sc2.rolls:
                    try:
                        expected = roll_value(secret, num, label, faces, link)
                        link = roll_mac(secret, num, label, 0, link)
                    except DiceError:
                        problem("bad_line", ln)
                        continue
                    if expected != value:
                        problem("mismatch", ln, label=label, faces=faces, value=value,
                                expected=expected)
            else:
                raise ValueError(kind)
        except (IndexError, ValueError):
            problem("bad_line", n)
    for scope, sc in scopes.items():
        if not sc.revealed:
            problem("no_reveal", sc.line, scope=scope, rolls=len(sc.rolls))
    out.problems.sort(key=lambda p: p.line)
    return out
