"""Commit-reveal dice for a whole war: random numbers nobody can foresee or dispute.

The trip-code trick of forum games, made checkable and bound end to end (log format 2).

**The GM's hash chain.** The GM draws a master secret ``M`` and makes a chain of ``N + 1``
values (``N`` the turn limit): ``x_N = HMAC-SHA256(M, "fuyuki-dice/2/chain")`` and
``x_(t-1) = SHA-256(x_t)``. ``W = x_0`` is the **war commitment**, published first of all in
the log's head line::

    #DICE WAR 2 <W> <N> <roster SHA-256> <rules SHA-256>

``war_id = SHA-256(UTF-8("#DICE WAR 2 <W> <N>"))`` (the roster and the rules are bound by
the replay, which refuses a log whose record does not match them). Turn ``t``'s GM secret is ``x_t``: its commitment is
``x_(t-1)`` (``W`` or the secret the turn before revealed), so every turn's reveal is tied to
the war commitment and to the turn before, and nobody but the GM can reveal a turn that was
not played.

**The parties.** Before turn ``t`` every party ``p`` (a player's page, or whoever stands in)
commits ``C_p = SHA-256(R_p)`` to a 32-byte contribution ``R_p``; once every commitment is
published the parties reveal ``R_p`` (a party that does not is dropped, and its line says
so). The turn's key::

    K_t = SHA-256("fuyuki-dice/2/turn" 0x1E war_id 0x1E ASCII(t) 0x1E S_(t-1) 0x1E x_t
                  (0x1E UTF-8(p) 0x1F R_p)*)     parties in the order of their lines, dropped ones left out

with ``S_(t-1)`` the seal of the turn before (``war_id`` for turn 1).

**A roll.** Roll ``n`` of a turn (1, 2, 3, ...) named ``label`` with ``faces`` faces, chained
to the link ``L_(n-1)`` of the roll before (empty for roll 1)::

    mac_k = HMAC-SHA256(K_t, "R" L_(n-1) ASCII(n) 0x1E UTF-8(label) 0x1E ASCII(faces) [0x1F ASCII(k)])
    x = int.from_bytes(mac_k, "big"); limit = 2**256 - 2**256 % faces
    the die is 1 + x % faces for the first try k = 0, 1, 2, ... with x < limit (no modulo bias)
    L_n = HMAC-SHA256(K_t, "L" L_(n-1) ASCII(n) 0x1E UTF-8(label) 0x1E ASCII(faces) 0x1E ASCII(value))

and the turn's seal ``S_t = HMAC-SHA256(K_t, "E" L_last ASCII(count))``. So each roll's number,
label, faces and value are in the MAC input of every roll after it and of the seal, and the
seal goes into the next turn's key: a change anywhere changes everything after it.

The log's machine lines (one turn)::

    #DICE COMMIT t3 <x_2>
    #DICE PARTY t3 <party> <C_p>          one per party, before any reveal
    #DICE OPEN t3 <party> <R_p or ->      the reveals, same order ("-": dropped)
    #DICE ROLL 17 t3/b2/win 1D100 42      one per roll, numbered from 1
    #DICE REVEAL t3 <x_3> <rolls> <S_3>

and at the end of the war ``#WAR RECORD <base64>`` lines (the record: roster, settings, every
decision; see :mod:`fuyuki.rpg.war_log`) and ``#DICE END <turns> <S_last> <record SHA-256>``.
:func:`verify_lines` checks all of it except the replay; ``fuyuki war verify`` adds the replay.

Labels are printable text without spaces or control characters; ``faces`` is 1..10**6.
Nothing here touches files or the clock; a secret is created from ``os.urandom`` only by
:func:`fresh_secret`, or derived from a seed by :func:`derive_secret` (for reproducible games
and tests).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, Protocol

FORMAT = 2
MAX_FACES = 10**6
_SPACE = 2**256
ZERO = "0" * 64


class DiceError(ValueError):
    """A bad label, a bad number of faces, or fixed dice used wrongly."""


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


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


def _roll_msg(link: bytes, n: int, label: str, faces: int) -> bytes:
    return (link + str(check_index(n)).encode("ascii") + b"\x1e" + check_label(label).encode("utf-8")
            + b"\x1e" + str(check_faces(faces)).encode("ascii"))


def roll_mac(key: bytes, n: int, label: str, faces: int, attempt: int = 0, link: bytes = b"") -> bytes:
    """Try ``attempt`` of roll number ``n`` named ``label`` with ``faces`` faces, chained to
    ``link`` (the link of roll ``n - 1``), under the turn key ``key``."""
    msg = b"R" + _roll_msg(link, n, label, faces)
    if attempt:
        msg += b"\x1f" + str(attempt).encode("ascii")
    return hmac.new(key, msg, hashlib.sha256).digest()


def roll_value(key: bytes, n: int, label: str, faces: int, link: bytes = b"") -> int:
    """The die (1..faces) of roll ``n`` named ``label``, chained to ``link``; unbiased."""
    limit = _SPACE - (_SPACE % check_faces(faces))
    attempt = 0
    while True:
        x = int.from_bytes(roll_mac(key, n, label, faces, attempt, link), "big")
        if x < limit:
            return 1 + x % faces
        attempt += 1


def roll_link(key: bytes, n: int, label: str, faces: int, value: int, link: bytes = b"") -> bytes:
    """The link of roll ``n``: its number, label, faces and value, chained to ``link``."""
    msg = b"L" + _roll_msg(link, n, label, faces) + b"\x1e" + str(value).encode("ascii")
    return hmac.new(key, msg, hashlib.sha256).digest()


def turn_seal(key: bytes, link: bytes, count: int) -> bytes:
    """The seal of a turn: its last roll's link and the number of its rolls."""
    return hmac.new(key, b"E" + link + str(count).encode("ascii"), hashlib.sha256).digest()


def gm_chain(master: bytes, turns: int) -> list[bytes]:
    """``[x_0 = W, x_1, ..., x_turns]``: ``x_(t-1) = SHA-256(x_t)``."""
    x = hmac.new(master, b"fuyuki-dice/2/chain", hashlib.sha256).digest()
    out = [x]
    for _ in range(turns):
        out.append(sha(out[-1]))
    return out[::-1]


def war_head(war_commit: str, turns: int, roster_sha: str = ZERO, rules_sha: str = ZERO) -> str:
    return f"#DICE WAR {FORMAT} {war_commit} {turns} {roster_sha} {rules_sha}"


def war_id(head: str) -> bytes:
    """SHA-256 of the head line's first five words: ``#DICE WAR 2 <W> <N>``."""
    return sha(" ".join(head.split(" ")[:5]).encode("utf-8"))


def turn_key(war_id: bytes, turn: int, prev_seal: bytes, secret: bytes,
             reveals: list[tuple[str, bytes]]) -> bytes:
    """``K_t`` (see above); ``reveals``: the revealed contributions in the order of the lines."""
    msg = (b"fuyuki-dice/2/turn\x1e" + war_id + b"\x1e" + str(turn).encode("ascii") + b"\x1e"
           + prev_seal + b"\x1e" + secret)
    for party, r in reveals:
        msg += b"\x1e" + check_label(party).encode("utf-8") + b"\x1f" + r
    return sha(msg)


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
    """Dice under one key (``secret``). Every roll is recorded, numbered from 1 and chained;
    a label can be used only once."""

    secret: bytes
    rolls: list[Roll] = field(default_factory=list)
    #: the link of the last roll: the next roll is chained to it
    link: bytes = b""

    @property
    def key(self) -> bytes:
        return self.secret

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def roll(self, label: str, faces: int) -> int:
        if any(r.label == label for r in self.rolls):
            raise DiceError(f"roll label used twice: {label}")
        n = len(self.rolls) + 1
        key = self.key
        value = roll_value(key, n, label, faces, self.link)
        self.link = roll_link(key, n, label, faces, value, self.link)
        self.rolls.append(Roll(n, label, faces, value))
        return value

    def seal(self) -> bytes:
        return turn_seal(self.key, self.link, len(self.rolls))


@dataclass
class Party:
    """One contribution to a turn's key: its commitment and (once revealed) its value."""
    name: str
    commit: str
    reveal: bytes | None


@dataclass
class TurnDice(CommittedDice):
    """A turn of a war: the GM's secret ``x_t`` (``secret``), its commitment ``x_(t-1)``, the
    parties' contributions, chained to the turn before (:meth:`follow`)."""

    turn: int = 0
    prior: bytes = b""                 # x_(t-1): this turn's commitment
    parties: list[Party] = field(default_factory=list)
    war_id: bytes = b""
    prev_seal: bytes = b""
    _key: bytes = b""

    def follow(self, before: Any) -> None:
        """Chain to the turn before (its dice; None or other dice: the war's first turn)."""
        seal = before.seal() if isinstance(before, TurnDice) else self.war_id
        self.prev_seal = seal
        self._key = turn_key(self.war_id, self.turn, seal, self.secret,
                             [(p.name, p.reveal) for p in self.parties if p.reveal is not None])

    @property
    def key(self) -> bytes:
        if not self._key:
            self.follow(None)
        return self._key

    @property
    def commitment(self) -> str:
        return self.prior.hex()

    def published(self) -> dict[str, Any]:
        """What the turn's commitment event carries besides the GM's commitment."""
        return {"parties": [[p.name, p.commit, p.reveal.hex() if p.reveal is not None else "-"]
                            for p in self.parties]}


class WarDice:
    """The dice of a war: the GM's hash chain (from ``master``) and each turn's parties.

    Called with a turn number it gives that turn's :class:`TurnDice` (a factory for
    :class:`fuyuki.rpg.war.War`). ``parties(turn)`` gives the turn's contributions; by default
    one party, ``program``, whose contribution is derived from the master secret (the program
    stands in for every party: nothing is gained against whoever holds the master)."""

    def __init__(self, master: bytes, turns: int, roster_sha: str = ZERO, rules_sha: str = ZERO,
                 parties: Callable[[int], list[Party]] | None = None):
        self.master = master
        self.turns = turns
        self.chain = gm_chain(master, turns)
        self.head = war_head(self.chain[0].hex(), turns, roster_sha, rules_sha)
        self.war_id = war_id(self.head)
        self.parties = parties

    @property
    def commitment(self) -> str:
        return self.chain[0].hex()

    def contribution(self, turn: int, name: str) -> bytes:
        """A stand-in's contribution (derived from the master secret)."""
        return hmac.new(self.master, f"fuyuki-dice/2/party/{turn}/{name}".encode(),
                        hashlib.sha256).digest()

    def standin(self, turn: int, name: str) -> Party:
        r = self.contribution(turn, name)
        return Party(name, commitment(r), r)

    def __call__(self, turn: int) -> TurnDice:
        if not 1 <= turn <= self.turns:
            raise DiceError(f"turn {turn} is outside the war's chain of {self.turns} turns")
        parties = self.parties(turn) if self.parties else [self.standin(turn, "program")]
        return TurnDice(self.chain[turn], turn=turn, prior=self.chain[turn - 1],
                        parties=parties, war_id=self.war_id)


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
# A log is read line by line (split at LF; a CRLF counts as LF and a BOM at the start is
# dropped; trailing spaces are ignored, blank lines skipped). A line with an invisible or
# control character (Unicode Cc, Cf, Zl, Zp, Co, Cs; a space other than U+0020 and U+3000)
# is refused, and so is a non-ASCII digit outside free narration: nothing can hide a change.
# Machine lines start with "#DICE" or "#WAR"; free narration lines start with one of FREE and
# are never compared. Everything else is text the replay (fuyuki.rpg.war_log) recomputes; here
# only the first text line after a roll is checked: a shown die "(1D100<=72) ＞ 42 ＞ 成功"
# must show the roll's value and the outcome value <= rate.

#: free narration: the GM's and the players' own words (ja and en)
FREE = ("【GM】", "[GM] ", "［コミュ］", "[comm] ")
_SHOWN = re.compile(r"\(1D([0-9]+)(?:<=([0-9]+))?\)\s*(?:＞|>)\s*([0-9]+)"
                    r"(?:\s*(?:＞|>)\s*(成功|失敗|Success|Failure))?")
_WIN_WORDS = ("成功", "Success")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")


@dataclass
class Problem:
    code: str              # see the rpg catalog's [verify] table
    line: int
    params: dict[str, Any]


@dataclass
class Verification:
    commits: int = 0                   # turns revealed and checked
    rolls: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: what cannot be checked yet: a turn not revealed ("no_reveal"), the record ("no_record")
    pending: list[Problem] = field(default_factory=list)
    head: dict[str, Any] | None = None
    record: bytes | None = None
    #: the published turns: number -> {"secret", "parties": [(name, commit, reveal|None)], "line"}
    turns: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.pending and self.commits > 0

    @property
    def format_error(self) -> bool:
        return bool(self.problems) and self.problems[0].code == "format"


def bad_char(line: str, free: bool = False) -> str | None:
    """The first character that may hide a change: invisible, control, an odd space, or (outside
    free narration) a digit other than 0-9."""
    for c in line:
        cat = unicodedata.category(c)
        if cat in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs") or (cat == "Zs" and c not in " \u3000"):
            return c
        if cat == "Nd" and not free and not "0" <= c <= "9":
            return c
    return None


def log_lines(text: str) -> list[str]:
    """A published log's lines: a BOM at the start dropped, CRLF read as LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").split("\n")


def _num(text: str, lo: int = 0, hi: int = 10**9) -> int:
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise ValueError(text)
    v = int(text)
    if not lo <= v <= hi:
        raise ValueError(text)
    return v


def _hex(text: str) -> bytes:
    if not _HEX64.fullmatch(text):
        raise ValueError(text)
    return bytes.fromhex(text)


class _Stop(Exception):
    pass


@dataclass
class _Turn:
    n: int
    scope: str
    line: int
    prior: bytes
    parties: list[tuple[str, str, bytes | None]] = field(default_factory=list)
    opened: int = 0
    rolls: list[tuple[int, str, int, int, int]] = field(default_factory=list)  # n label faces value line


def verify_lines(lines: list[str]) -> Verification:
    """Check the machine lines of a published log (format 2, see the module's docstring):
    structure, chain, parties, every roll, the seals and the record's hash. Stops at the first
    break of structure; a wrong value is listed and the check goes on."""
    out = Verification()
    state: dict[str, Any] = {"turn": None, "last": 0, "prior": b"", "seal": b"", "ended": False,
                             "record": [], "text": None, "war_id": b""}

    def problem(code: str, n: int, **params: object) -> None:
        out.problems.append(Problem(code, n, dict(params)))

    def stop(code: str, n: int, **params: object) -> NoReturn:
        problem(code, n, **params)
        raise _Stop

    try:
        for n, raw in enumerate(lines, 1):
            line = raw.rstrip(" ")
            if not line:
                continue
            free = line.startswith(FREE)
            c = bad_char(line, free)
            if c is not None:
                stop("char", n, char=f"U+{ord(c):04X}")
            machine = line.startswith(("#DICE", "#WAR"))
            if state["ended"] and not free:
                stop("after_end", n)
            if free:
                continue
            if not machine:
                pending = state["text"]
                state["text"] = None
                if pending is not None:
                    _check_shown(line, n, pending, problem)
                continue
            state["text"] = None
            _machine(line, n, out, state, stop, problem)
        turn = state["turn"]
        if out.head is None:
            if not out.problems:
                out.problems.append(Problem("empty", 0, {}))
        elif turn is not None:
            out.rolls += len(turn.rolls)
            out.pending.append(Problem("no_reveal", turn.line,
                                       {"scope": turn.scope, "rolls": len(turn.rolls)}))
        elif not state["ended"]:
            out.pending.append(Problem("no_record", len(lines), {}))
    except _Stop:
        pass
    out.problems.sort(key=lambda p: p.line)
    return out


def _check_shown(line: str, n: int, roll: tuple[int, str, int, int, int], problem: Any) -> None:
    _, label, faces, value, _ = roll
    m = _SHOWN.search(line)
    if not m or int(m.group(1)) != faces:
        return
    shown = int(m.group(3))
    if shown != value:
        problem("shown", n, label=label, value=value, shown=shown)
    elif m.group(2) is not None and m.group(4) is not None:
        rate = int(m.group(2))
        if (m.group(4) in _WIN_WORDS) != (value <= rate):
            problem("outcome", n, label=label, value=value, rate=rate, result=m.group(4))


def _machine(line: str, n: int, out: Verification, st: dict[str, Any],
             stop: Callable[..., NoReturn], problem: Callable[..., None]) -> None:
    parts = line.split(" ")
    if "" in parts or len(parts) < 2:
        stop("bad_line", n)
    kind = parts[0] + " " + parts[1]
    try:
        if out.head is None:
            if kind != "#DICE WAR":
                stop("format", n, version=1 if parts[0] == "#DICE" else "?")
            if len(parts) != 7:
                stop("bad_line", n)
            if parts[2] != str(FORMAT):
                stop("format", n, version=parts[2])
            w, turns = _hex(parts[3]), _num(parts[4], 1, 999)
            _hex(parts[5]), _hex(parts[6])
            out.head = {"line": n, "commit": parts[3], "turns": turns, "roster": parts[5],
                        "rules": parts[6], "text": line}
            st["war_id"] = war_id(line)
            st["prior"], st["seal"] = w, st["war_id"]
            return
        turn: _Turn | None = st["turn"]
        if kind == "#DICE COMMIT":
            if len(parts) != 4:
                stop("bad_line", n)
            want = st["last"] + 1
            if turn is not None:
                stop("tamper.nested", n, scope=parts[2], open=turn.scope)
            if parts[2] != f"t{want}" or want > out.head["turns"]:
                stop("tamper.scope", n, scope=parts[2], expected=f"t{want}")
            if _hex(parts[3]) != st["prior"]:
                stop("tamper.chain", n, scope=parts[2])
            st["turn"] = _Turn(want, parts[2], n, st["prior"])
            out.turns[want] = {"line": n, "parties": [], "secret": None}
        elif kind in ("#DICE PARTY", "#DICE OPEN"):
            if len(parts) != 5:
                stop("bad_line", n)
            if turn is None or parts[2] != turn.scope:
                stop("tamper.order", n, scope=parts[2])
            name = parts[3]
            if kind == "#DICE PARTY":
                if turn.opened or any(p[0] == name for p in turn.parties):
                    stop("tamper.order", n, scope=parts[2])
                check_label(name)
                _hex(parts[4])
                turn.parties.append((name, parts[4], None))
            else:
                if turn.opened >= len(turn.parties) or turn.parties[turn.opened][0] != name \
                        or turn.rolls:
                    stop("tamper.order", n, scope=parts[2])
                reveal = None if parts[4] == "-" else _hex(parts[4])
                if reveal is not None and commitment(reveal) != turn.parties[turn.opened][1]:
                    stop("party", n, scope=turn.scope, party=name)
                turn.parties[turn.opened] = (name, turn.parties[turn.opened][1], reveal)
                turn.opened += 1
        elif kind == "#DICE ROLL":
            if len(parts) != 6:
                stop("bad_line", n)
            num, label, die = _num(parts[2], 1), parts[3], parts[4]
            if not die.startswith("1D"):
                stop("bad_line", n)
            faces, value = _num(die[2:], 1, MAX_FACES), _num(parts[5], 1)
            check_label(label)
            if turn is None:
                stop("no_commit", n, label=label)
            if turn.opened != len(turn.parties):
                stop("tamper.order", n, scope=turn.scope)
            if num != len(turn.rolls) + 1:
                stop("tamper.number", n, label=label, number=num, expected=len(turn.rolls) + 1)
            if not label.startswith(turn.scope + "/"):
                stop("tamper.label", n, label=label, scope=turn.scope)
            if any(r[1] == label for r in turn.rolls):
                stop("dup", n, label=label)
            if value > faces:
                stop("mismatch", n, label=label, faces=faces, value=value, expected="1..%d" % faces)
            roll = (num, label, faces, value, n)
            turn.rolls.append(roll)
            st["text"] = roll
        elif kind == "#DICE REVEAL":
            if len(parts) != 6:
                stop("bad_line", n)
            if turn is None or parts[2] != turn.scope or turn.opened != len(turn.parties):
                stop("tamper.order", n, scope=parts[2])
            secret, count, seal = _hex(parts[3]), _num(parts[4]), _hex(parts[5])
            if sha(secret) != turn.prior:
                stop("bad_commit", n, scope=turn.scope)
            if count != len(turn.rolls):
                stop("tamper.count", n, scope=turn.scope, count=count, found=len(turn.rolls))
            key = turn_key(st["war_id"], turn.n, st["seal"], secret,
                           [(p, r) for p, _, r in turn.parties if r is not None])
            link = b""
            for num, label, faces, value, ln in turn.rolls:
                expected = roll_value(key, num, label, faces, link)
                if expected != value:
                    problem("mismatch", ln, label=label, faces=faces, value=value,
                            expected=expected)
                link = roll_link(key, num, label, faces, expected, link)
            if turn_seal(key, link, count) != seal:
                stop("seal", n, scope=turn.scope)
            out.commits += 1
            out.rolls += count
            out.turns[turn.n].update(secret=secret, parties=list(turn.parties))
            st.update(turn=None, last=turn.n, prior=secret, seal=seal)
        elif kind == "#WAR RECORD":
            if len(parts) != 3 or not _B64.fullmatch(parts[2]) or turn is not None:
                stop("bad_line", n)
            st["record"].append(parts[2])
        elif kind == "#DICE END":
            if len(parts) != 5:
                stop("bad_line", n)
            if turn is not None or _num(parts[2]) != st["last"]:
                stop("tamper.end", n, turns=parts[2], expected=st["last"])
            if _hex(parts[3]) != st["seal"]:
                stop("seal", n, scope="end")
            try:
                record = base64.b64decode("".join(st["record"]), validate=True)
            except (binascii.Error, ValueError):
                stop("record", n)
            if commitment(record) != parts[4]:
                stop("record", n)
            out.record = record
            st["ended"] = True
        else:
            stop("bad_line", n)
    except (ValueError, DiceError):
        stop("bad_line", n)


def verify_text(text: str) -> Verification:
    """:func:`verify_lines` of a whole published log."""
    return verify_lines(log_lines(text))
