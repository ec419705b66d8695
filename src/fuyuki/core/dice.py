"""Commit-reveal dice: random numbers anyone can check after the fact.

The trip-code trick of forum games, made checkable. Before a round of play the game master
publishes ``commitment(secret)`` — the SHA-256 of a secret nobody else knows. Every roll of the
round is then a fixed function of the secret and a *label* naming the roll::

    value = roll_value(secret, "t3/pm/red-saber", 10)      # 1..10

and after the round the secret is revealed. Anyone can then check that the secret matches
the commitment and recompute every published roll: the GM could not have chosen a value after
seeing the players' moves, and could not re-roll, because a label names one roll only.

The function (stable, documented, language-independent):

1. ``mac = HMAC-SHA256(key=secret, msg=UTF-8(label))`` for the first try; for try ``k >= 1``
   the message is ``UTF-8(label) + 0x1F + ASCII(str(k))``.
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


def roll_mac(secret: bytes, label: str, attempt: int = 0) -> bytes:
    """HMAC-SHA256 of the label (try ``attempt``) under ``secret``."""
    msg = check_label(label).encode("utf-8")
    if attempt:
        msg += b"\x1f" + str(attempt).encode("ascii")
    return hmac.new(secret, msg, hashlib.sha256).digest()


def roll_value(secret: bytes, label: str, faces: int) -> int:
    """The die (1..faces) named ``label`` under ``secret``; unbiased (rejection sampling)."""
    check_faces(faces)
    limit = _SPACE - (_SPACE % faces)
    attempt = 0
    while True:
        x = int.from_bytes(roll_mac(secret, label, attempt), "big")
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
    label: str
    faces: int
    value: int


class Dice(Protocol):
    """What a game asks of its dice: one labelled roll at a time."""

    def roll(self, label: str, faces: int) -> int: ...


@dataclass
class CommittedDice:
    """Dice bound to one secret. Every roll is recorded; a label can be used only once."""

    secret: bytes
    rolls: list[Roll] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def roll(self, label: str, faces: int) -> int:
        if any(r.label == label for r in self.rolls):
            raise DiceError(f"roll label used twice: {label}")
        value = roll_value(self.secret, label, faces)
        self.rolls.append(Roll(label, faces, value))
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
        self.used.append(Roll(label, faces, value))
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
#     #DICE COMMIT <scope> <sha256-hex>        published before the scope's rolls
#     #DICE ROLL <label> 1D<faces> <value>     one per roll, in order
#     #DICE REVEAL <scope> <secret-hex>        published after them
#
# A roll belongs to the latest commitment before it that is not yet revealed. When the line
# right after a ROLL line shows that die in dice-bot style — "(1D100<=65) ＞ 42" — the value
# shown must be the one published (a GM cannot edit only the text people read).


@dataclass
class Problem:
    code: str              # bad_commit, no_commit, no_reveal, mismatch, dup, bad_line
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


def verify_lines(lines: list[str]) -> Verification:
    """Check every #DICE line of a published log (see above)."""
    out = Verification()
    scopes: dict[str, dict[str, Any]] = {}
    open_scope: str | None = None
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line.startswith("#DICE"):
            continue
        parts = line.split()
        try:
            kind = parts[1]
            if kind == "COMMIT":
                scope, sha = parts[2], parts[3].lower()
                scopes[scope] = {"sha": sha, "rolls": [], "line": n, "revealed": False}
                open_scope = scope
                out.commits += 1
            elif kind == "ROLL":
                label, die, value = parts[2], parts[3], int(parts[4])
                if not die.upper().startswith("1D"):
                    raise ValueError(die)
                faces = int(die[2:])
                out.rolls += 1
                if open_scope is None:
                    out.problems.append(Problem("no_commit", n, {"label": label}))
                    continue
                sc = scopes[open_scope]
                if any(r[0] == label for r in sc["rolls"]):
                    out.problems.append(Problem("dup", n, {"label": label}))
                sc["rolls"].append((label, faces, value, n))
                if n < len(lines):
                    m = _SHOWN.search(lines[n])
                    if m and int(m.group(1)) == faces and int(m.group(2)) != value:
                        out.problems.append(Problem("shown", n + 1, {
                            "label": label, "value": value, "shown": int(m.group(2))}))
            elif kind == "REVEAL":
                scope, secret_hex = parts[2], parts[3]
                if scope not in scopes:
                    out.problems.append(Problem("bad_line", n, {}))
                    continue
                sc = scopes[scope]
                secret = bytes.fromhex(secret_hex)
                sc["revealed"] = True
                if commitment(secret) != sc["sha"]:
                    out.problems.append(Problem("bad_commit", n, {"scope": scope}))
                for label, faces, value, ln in sc["rolls"]:
                    try:
                        expected = roll_value(secret, label, faces)
                    except DiceError:
                        out.problems.append(Problem("bad_line", ln, {}))
                        continue
                    if expected != value:
                        out.problems.append(Problem("mismatch", ln, {
                            "label": label, "faces": faces, "value": value,
                            "expected": expected}))
                if open_scope == scope:
                    open_scope = None
            else:
                raise ValueError(kind)
        except (IndexError, ValueError):
            out.problems.append(Problem("bad_line", n, {}))
    for scope, sc in scopes.items():
        if not sc["revealed"]:
            out.problems.append(Problem("no_reveal", sc["line"],
                                        {"scope": scope, "rolls": len(sc["rolls"])}))
    out.problems.sort(key=lambda p: p.line)
    return out
