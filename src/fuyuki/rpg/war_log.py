"""A war's published log (format 2): its head, its record, and ``war verify``'s replay.

The log of a war starts with the head line (the war commitment, the turn limit, the SHA-256
of the roster and of the rules, see :mod:`fuyuki.core.dice`) and, once the war is over, ends
with its **record** — the settings, the roster (unless it is the sample, named by its hash)
and every decision, as ``#WAR RECORD <base64>`` lines of JSON — and ``#DICE END``. Verifying
is replaying: :func:`verify` checks the dice lines (:func:`fuyuki.core.dice.verify_lines`),
then plays the war again from the record with the published dice and renders its log; every
line but free narration must be the same, in the same order.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from fuyuki.core.contract import CAUGHT
from fuyuki.core.data import package_file
from fuyuki.core.dice import (FREE, Party, Problem, TurnDice, Verification, WarDice, derive_secret,
                              log_lines, verify_lines, war_id)
from fuyuki.core.errors import FuyukiError
from fuyuki.core.events import Event, visible

RECORD_WIDTH = 96          # base64 characters per #WAR RECORD line


def file_sha(*names: str) -> str:
    h = hashlib.sha256()
    for name in names:
        h.update(package_file("fuyuki.rpg", "data", name).read_bytes())
    return h.hexdigest()


def rules_sha() -> str:
    """The rules a log was made under: SHA-256 of rules.toml and events.toml."""
    return file_sha("rules.toml", "events.toml")


def sample_roster() -> str:
    return package_file("fuyuki.rpg", "data", "roster.toml").read_text("utf-8")


def roster_sha(text: str | None) -> str:
    return hashlib.sha256((sample_roster() if text is None else text).encode("utf-8")).hexdigest()


def roster_field(text: str | None) -> str | None:
    """How the record carries a roster: None for the sample (named by the head's hash)."""
    return None if text is None or text == sample_roster() else text


def war_dice(master: bytes, turns: int, roster_text: str | None, parties: Any = None) -> WarDice:
    return WarDice(master, turns, roster_sha(roster_text), rules_sha(), parties)


def cli_dice(seed: str, turns: int, roster_text: str | None) -> WarDice:
    """``war new``: the GM's master secret is derived from the war's seed; the program stands
    in for every party."""
    return war_dice(derive_secret(seed, "war"), turns, roster_text)


def head_event(dice: Any) -> Event:
    return Event("dice_war", {"sha": dice.commitment, "head": dice.head})


def end_event(record: dict[str, Any], turns: int, seal: str) -> Event:
    data = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    b64 = base64.b64encode(data).decode("ascii")
    chunks = [b64[i:i + RECORD_WIDTH] for i in range(0, len(b64), RECORD_WIDTH)]
    return Event("dice_end", {"record": chunks, "turns": turns, "seal": seal,
                              "sha": hashlib.sha256(data).hexdigest()})


def battle_log(r: Any, wd: Any, d: TurnDice, events: list[Event],
               record: dict[str, Any] | None) -> list[str]:
    """``war battle``'s log: a war of one turn (``t1``) that is one battle."""
    commit = Event("dice_commit", {"scope": "t1", "sha": d.commitment, **d.published()})
    reveal = Event("dice_reveal", {"scope": "t1", "secret": d.secret.hex(), "seal": d.seal().hex()})
    lines = r.lines([head_event(wd), commit] + events + [reveal])
    return lines + (r.lines([end_event(record, 1, d.seal().hex())]) if record else [])


def sheet_pair(src: dict[str, Any], roster: Any, rules: Any) -> Any:
    """A side of ``war battle`` as its record names it: a sheet file's text, or a roster pair."""
    from fuyuki.core.data import Table
    from fuyuki.core.load import parse_toml
    from fuyuki.rpg.roster import lookup_pair, parse_pair

    if "pair" in src:
        return lookup_pair(roster, src["pair"])
    data = parse_toml(src["sheet"], src["name"])
    if "pair" in data and isinstance(data["pair"], dict):
        data = data["pair"]
    if "id" not in data:
        data = dict(data, id=src["name"].rsplit(".", 1)[0].replace(" ", "_"))
    return parse_pair(Table(data, src["name"]), rules)


def last_seal(events: list[Event]) -> tuple[int, str]:
    reveals = [e for e in events if e.kind == "dice_reveal"]
    return (reveals[-1].data["turn"], reveals[-1].data["seal"]) if reveals else (0, "-")


def cli_lines(renderer: Any, events: list[Event], notes: list[list[Any]], lang: str) -> list[str]:
    """``war new``'s publishable log: the public events with the players' コミュ notes."""
    from fuyuki.rpg.text import t

    lines: list[str] = []
    done = 0
    for at, who, text in sorted(notes, key=lambda n: n[0]):
        lines += renderer.lines(visible(events[done:at], None))
        lines.append(t(lang, "prompt.note", who=who, text=text))
        done = at
    return lines + renderer.lines(visible(events[done:], None))


# -- replay -------------------------------------------------------------------------------------

class PublishedDice:
    """The dice of a war as its log published them (for the replay)."""

    def __init__(self, report: Verification):
        assert report.head is not None
        self.head = report.head["text"]
        self.war_id = war_id(self.head)
        self.turns = report.turns
        self.commit = bytes.fromhex(report.head["commit"])

    @property
    def commitment(self) -> str:
        return self.commit.hex()

    def secret(self, turn: int) -> bytes:
        return self.turns[turn]["secret"] if turn else self.commit

    def __call__(self, turn: int) -> TurnDice:
        if turn not in self.turns:
            raise FuyukiError(f"turn {turn} is not in the log")
        parties = [Party(n, c, r) for n, c, r in self.turns[turn]["parties"]]
        return TurnDice(self.secret(turn), turn=turn, prior=self.secret(turn - 1),
                        parties=parties, war_id=self.war_id)


def _submit_all(game: Any, subs: list[tuple[Any, Any]]) -> str | None:
    """Replay the record's decisions; the first one refused stops it (its reason returned):
    the log is still compared up to there, so the first line that differs is named."""
    for seat, choice in subs:
        try:
            game.submit(seat, choice)
        except CAUGHT as exc:
            return str(exc)[:200]
    return None


def _expected(record: dict[str, Any], report: Verification,
              first: str) -> tuple[list[str], str | None]:
    from fuyuki.core.load import parse_toml
    from fuyuki.rpg.roster import load_roster, parse_roster
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.text import Renderer

    rules = default_rules()
    dice = PublishedDice(report)
    roster_text = record.get("roster")
    roster = load_roster(None, rules) if roster_text is None else \
        parse_roster(parse_toml(roster_text, "record.roster"), "record.roster", rules)
    subs = [(s, c) for s, c in record["submissions"]]
    if record["kind"] == "hosted":
        from fuyuki.rpg.hosted import HostedWar
        war = HostedWar(roster, rules, "", max_turns=record["turns"], anka=record["anka"],
                        players=record.get("players", []), dice=dice, roster_text=roster_text)
        error = _submit_all(war, subs)
        # the hosted war publishes both languages: the log is the one whose first line it has
        logs = [war.public_log(lang).split("\n") for lang in ("ja", "en")]
        return next((x for x in logs if x and x[0] == first), logs[0]), error
    lang = record["lang"]
    if record["kind"] == "battle":
        from fuyuki.rpg.battle_game import BattleGame
        a, b = (sheet_pair(src, roster, rules) for src in record["sides"])
        d = dice(1)
        d.follow(None)
        game = BattleGame(rules, ([a], [b]), lambda: d, attacker=record["attacker"],
                          surprise=record["surprise"], snipe=record["snipe"],
                          lineups=tuple(record["lineups"]), label="t1/b1")
        error = _submit_all(game, subs)
        return battle_log(Renderer(lang, brief=record["brief"], dice=True), dice, d,
                          game.events, record if game.over else None), error
    from fuyuki.rpg.war import War
    w = War(roster, rules, "", max_turns=record["turns"], dice=dice)
    error = _submit_all(w, subs)
    r = Renderer(lang, brief=record.get("brief", False), dice=True)
    head = r.lines([head_event(dice)])
    turns, seal = last_seal(w.events)
    end = r.lines([end_event(record, turns, seal)]) if w.over else []
    return head + cli_lines(r, w.events, record.get("notes", []), lang) + end, error


def _content(lines: list[str]) -> list[tuple[int, str]]:
    out = []
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip(" ")
        if line and not line.startswith(FREE):
            out.append((n, line))
    return out


def verify(text: str) -> Verification:
    """``war verify``: the dice lines checked, then the war replayed from its record and
    compared line by line (free narration aside). A problem ``format`` or ``rules`` means the
    log cannot be replayed by this program (exit 2)."""
    lines = log_lines(text)
    report = verify_lines(lines)
    if report.problems or report.record is None:
        return report
    try:
        record = json.loads(report.record.decode("utf-8"))
        if not isinstance(record, dict) or record.get("v") != 2 \
                or not isinstance(record.get("roster"), (str, type(None))):
            raise ValueError("record")
    except (ValueError, RecursionError):
        report.problems.append(Problem("record", len(lines), {}))
        return report
    assert report.head is not None
    if report.head["rules"] != rules_sha():
        report.problems.append(Problem("rules", report.head["line"], {"sha": report.head["rules"]}))
        return report
    if report.head["roster"] != roster_sha(record.get("roster")):
        report.problems.append(Problem("roster", report.head["line"], {}))
        return report
    try:
        actual = _content(lines)
        made, error = _expected(record, report, actual[0][1] if actual else "")
        expected = _content(made)
    except CAUGHT as exc:
        report.problems.append(Problem("replay_failed", len(lines), {"error": str(exc)[:200]}))
        return report
    for k, (n, line) in enumerate(actual):
        if k >= len(expected):
            report.problems.append(Problem("replay_extra", n, {}) if error is None else
                                   Problem("replay_failed", n, {"error": error}))
            return report
        if line != expected[k][1]:
            report.problems.append(Problem("replay", n, {"expected": expected[k][1]}))
            return report
    if error is not None:
        report.problems.append(Problem("replay_failed", len(lines), {"error": error}))
    elif len(expected) > len(actual):
        report.problems.append(Problem("replay_missing", len(lines),
                                       {"expected": expected[len(actual)][1]}))
    return report


def exit_code(report: Verification) -> int:
    """``war verify``'s exit status: 0 all of it matches; 1 a line does not (or no dice);
    2 the log cannot be read or replayed by this version; 3 nothing mismatches but something
    is not published yet."""
    if report.problems and report.problems[0].code in ("format", "rules"):
        return 2
    if report.ok:
        return 0
    return 1 if report.problems else 3


def verdict(text: str) -> dict[str, Any]:
    """``POST /api/war/verify``'s answer: :func:`verify`'s exit status, the first line it names
    (the first problem, else the first thing not published yet) and its message in ja and en —
    the line ``war verify`` prints first."""
    from fuyuki.core.load import error_line
    from fuyuki.rpg.text import t

    try:
        report = verify(text)
    except FuyukiError as exc:             # as `war verify`'s one line on standard error
        return {"exit": 2, "line": None, "code": "error",
                "message": {lang: error_line(exc, lang) for lang in ("ja", "en")}}
    code = exit_code(report)
    first = (report.problems or report.pending)[0] if code else None
    if first is None:
        return {"exit": 0, "line": None, "code": "ok",
                "message": {lang: t(lang, "verify.ok", commits=report.commits,
                                    rolls=report.rolls) for lang in ("ja", "en")}}
    return {"exit": code, "line": first.line or None, "code": first.code,
            "message": {lang: t(lang, f"verify.{first.code}", line=first.line, **first.params)
                        for lang in ("ja", "en")}}
