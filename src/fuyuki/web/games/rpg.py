"""The Grail War RPG at the table server (issue 18): a GM, the players of some pairs, the
program for the others, and readers who decide the 安価 pairs' moves.

Seats: one per pair of the roster (``i`` drives the ``i``-th pair), then the GM's. A pair is
driven by a player (a human seat whose link the GM hands out), by the readers ("crowd": only
安価 questions and the GM answer for it) or by the program (a bot seat). The GM is the
table's creator; the GM's seat token is the only way to command the war.

Settings: ``roster`` (null: the sample roster; or a roster file's TOML text, checked like the
CLI's), ``turns`` (the turn limit), ``lang`` (the language of the log the GM pastes), ``humans``
(pair ids players drive), ``anka`` (pair ids the readers drive), ``anka_minor`` (who answers
the small decisions of the readers' pairs — :data:`MINOR`, a battle's steps, a reroll, mana:
``"program"`` at once, ``"readers"`` by a question the first answer decides, or ``"gm"``
alone). The war's dice secret is made here and kept in the private configuration with the
roster.

The adapter reaches the war only through the engine contract (``view("gm")``,
``view("reader")``, a pair's ``view(seat)``, ``pending``, ``seats``; an event's text is the
one the war wrote into it, the base's ``event_text``) and the table's public API (``record``,
``reissue``, ``refresh``, ``wall``, ``now``, ``seed``, ``config``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import weakref
from functools import lru_cache
from typing import Any

from fuyuki.core import contract
from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.core.load import parse_toml
from fuyuki.core.protocol import Decision
from fuyuki.rpg.agents import program
from fuyuki.rpg.hosted import LANGS, READERS, Limits
from fuyuki.rpg.roster import Roster, load_roster, parse_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.web import security
from fuyuki.web.games import Adapter
from fuyuki.web.table import dumps

MAX_ROSTER = 60000               # characters of an uploaded roster
ANSWER_GAP = 3.0                 # seconds between two answers of one connection
ANSWER_RATE = (5.0, 20.0)        # answers a second on one table, and burst
VOTE_SECONDS = (10, 7 * 24 * 3600)
#: the small decisions of a pair (a battle's steps, a reroll, mana): the ``anka_minor`` setting
#: says who answers them for a pair the readers drive
MINOR = frozenset({"lineup", "prepare", "pick_stat", "redraw", "declare", "reroll", "mana"})
ANKA_MINOR = ("program", "readers", "gm")


@lru_cache(maxsize=32)
def roster_of(text: str | None) -> Roster:
    """The sample roster (``None``) or a roster file's text, checked (FuyukiError, naming the
    key and the reason, like the CLI)."""
    rules = default_rules()
    if text is None:
        return load_roster(None, rules)
    return parse_roster(parse_toml(text, "upload"), "upload", rules)


def war_secret(key: str, seed: int) -> str:
    """The war's dice secret (revealed when it ends): derived from the table's private key
    and its seed, so a table made again with the same settings and a new seed (a rematch)
    never replays — nor lets anyone foresee — a revealed war's dice."""
    return hmac.new(bytes.fromhex(key), f"war/{seed}".encode(), hashlib.sha256).hexdigest()


class RpgAdapter(Adapter):
    name = "rpg"
    engine = "rpg-hosted"
    title = {"ja": "聖杯戦争RPG", "en": "Grail War RPG"}
    page = "war.html"
    takeover = None                  # a player who is away is waited for (the GM can pause)
    private_config = frozenset({"secret", "roster"})
    invite = True
    rematch = False                  # a war's links and dice belong to that war alone
    open_hands = False               # the GM console (every sheet, every decision) is the GM's
    news = True                      # readers follow a war's turns and 安価 questions

    def __init__(self) -> None:
        self._last_answer: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._table_rate: dict[str, security.RateLimiter] = {}

    # -- settings -----------------------------------------------------------------------------
    def levels(self) -> dict[str, str]:
        return {"normal": "simple"}

    def check_config(self, raw: dict[str, Any]) -> dict[str, Any]:
        bad = self.bad
        known = {"roster", "turns", "lang", "humans", "anka", "anka_minor"}
        self.check_fields(raw, known)
        for k in ("players", "bots", "bot_level", "timer"):
            if k in raw:
                raise bad(k, "set by the roster and the pairs' drivers")
        text = raw.get("roster")
        if text is not None and (not isinstance(text, str) or len(text) > MAX_ROSTER):
            raise bad("roster", f"a roster file's text of at most {MAX_ROSTER} characters, or null")
        try:
            roster = roster_of(text)
        except FuyukiError as exc:
            raise bad("roster", str(exc)) from None
        ids = [p.id for p in roster.pairs]
        limit = default_rules().war["max_turns"]
        turns = raw.get("turns", limit)
        if type(turns) is not int or not 1 <= turns <= 99:
            raise bad("turns", "a whole number from 1 to 99")
        lang = raw.get("lang", "ja")
        if lang not in LANGS:
            raise bad("lang", "ja or en")
        minor = raw.get("anka_minor", ANKA_MINOR[0])
        if minor not in ANKA_MINOR:
            raise bad("anka_minor", f"one of {list(ANKA_MINOR)}")
        picked = {}
        for key in ("humans", "anka"):
            got = raw.get(key, [])
            if not isinstance(got, list) or any(g not in ids for g in got) or len(set(got)) != len(got):
                raise bad(key, f"a list of different pair ids of the roster (known: {ids})")
            picked[key] = [i for i in ids if i in got]
        if set(picked["humans"]) & set(picked["anka"]):
            raise bad("anka", "a pair is driven by a player or by the readers, not both")
        drivers = len(picked["humans"]) + len(picked["anka"])
        return {"players": len(ids) + 1, "bots": len(ids) - drivers, "bot_level": "normal",
                "timer": 0, "roster": text, "turns": turns, "lang": lang, **picked,
                "anka_minor": minor, "pairs": ids, "secret": secrets.token_hex(32)}

    def seat_kinds(self, config: dict[str, Any]) -> list[str]:
        kinds = ["human" if p in config["humans"] else "crowd" if p in config["anka"] else "bot"
                 for p in config["pairs"]]
        return kinds + ["human"]

    def host_seat(self, config: dict[str, Any]) -> int:
        return len(config["pairs"])

    def seat_name(self, config: dict[str, Any], seat: int) -> str:
        return roster_of(config["roster"]).pairs[seat].servant.name[:24]

    def new_game(self, config: dict[str, Any], seed: int) -> Any:
        pairs = config["pairs"]
        return contract.start(self.engine, seed, {
            "secret": war_secret(config["secret"], seed), "roster_toml": config["roster"],
            "turns": config["turns"],
            "anka": [i for i, p in enumerate(pairs) if p in config["anka"]],
            "players": [i for i, p in enumerate(pairs) if p in config["humans"]]}, "table config")

    def make_bot(self, name: str, seed: int, seat: int, config: dict[str, Any], **kw: Any) -> Any:
        return program(seed, seat)

    def meta(self) -> dict[str, Any]:
        roster = roster_of(None)
        return {"pairs": [{"id": p.id, "servant": p.servant.name, "master": p.master.name,
                           "faction": roster.factions.get(p.faction, {})} for p in roster.pairs],
                "turns": default_rules().war["max_turns"], "langs": list(LANGS),
                "anka_minor": list(ANKA_MINOR),
                "create": "/new/rpg"}          # the lobby sends a GM to the war's own form

    def data(self, query: dict[str, str]) -> dict[str, Any]:
        return self.meta()

    # -- what each page sees --------------------------------------------------------------------
    def role(self, game: Any, seat: int | None) -> Any:
        """The GM's seat sees the war as ``"gm"``; a page with no seat as a ``"reader"``."""
        return "gm" if seat == len(game.seats()) else "reader" if seat is None else seat

    def page_view(self, game: Any, seat: int | None) -> dict[str, Any]:
        return game.view(self.role(game, seat))     # a pair's decision is in its view

    def notices(self, game: Any, since: int) -> list[tuple[str, dict[str, str]]]:
        """A new turn (``released``) and a 安価 question (``anka_open``): public events, told in
        the war's own words."""
        found = []
        for e in game.events_for("reader", since):
            if e.kind == "released":
                key = f"turn:{e.data.get('turn')}"
            elif e.kind == "anka_open":
                key = f"q:{e.data.get('q')}"
            else:
                continue
            text = contract.event_text(e)
            if text:
                found.append((key, text))
        return found

    # -- the GM and the readers -------------------------------------------------------------------
    def message(self, table: Any, seat: int | None, data: dict[str, Any], conn: Any = None) -> None:
        kind = data.get("type")
        game = table.game
        gm = len(game.seats())
        if kind == "gm":
            if seat != gm:
                raise IllegalAction("not_gm", "only the GM's link commands the war")
            cmd = {k: v for k, v in data.items() if k != "type"}
            if cmd.get("gm") == "ask" and cmd.get("mode") == "vote":
                sec = cmd.pop("seconds", None)
                lo, hi = VOTE_SECONDS
                if type(sec) is not int or not lo <= sec <= hi:
                    raise IllegalAction("bad_close", f"a vote lasts {lo} to {hi} seconds")
                cmd["close_at"] = round(table.wall() + sec, 3)
            if cmd.get("gm") == "auto":
                # the program decides for a pair (a 安価 pair's minor decision, an absent player)
                s = cmd.get("seat")
                cmd = {"gm": "decide", "seat": s, "option": self._program(table, s)}
            table.record(gm, cmd)
        elif kind == "relink":
            # a new seat link for a player pair (the GM lost it, or it leaked)
            seat_ = data.get("seat")
            if seat != gm:
                raise IllegalAction("not_gm", "only the GM's link makes seat links")
            if type(seat_) is not int or not 0 <= seat_ < gm:
                raise IllegalAction("bad_seat", "a pair's seat")
            token = table.reissue(seat_)
            if conn is not None:
                conn.push(dumps({"type": "invite", "seat": seat_, "token": token}))
        elif kind == "dice":
            # a player's page contributes to the next turn's dice (commit, then reveal)
            if seat is None or seat == gm:
                raise IllegalAction("not_a_player", "only a player pair's page contributes")
            table.record(seat, {k: data.get(k) for k in ("dice", "turn", "c", "r") if k in data})
        elif kind == "answer":
            if seat == gm:
                raise IllegalAction("not_reader", "the GM does not answer 安価")
            self._answer(table, conn, data)
        else:
            raise IllegalAction("bad_message", "unknown message type")

    def _program(self, table: Any, seat: Any, found: dict[str, Any] | None = None) -> Any:
        """What the program answers for pair ``seat``'s open decision (its own view only)."""
        game = table.game
        if found is None:
            found = game.view("gm")["decisions"]
        d = found.get(str(seat)) if type(seat) is int else None
        if d is None:
            raise IllegalAction("no_decision", "that pair has no open decision")
        decision = Decision(d["kind"], tuple(o["value"] for o in d["options"]), d["info"])
        return program(table.seed, seat).choose(game.view(seat), decision)

    def _answer(self, table: Any, conn: Any, data: dict[str, Any]) -> None:
        q = data.get("q")
        question = next((x for x in table.game.view("reader")["questions"] if x["q"] == q), None)
        if question is None:
            raise IllegalAction("no_question", "no such open question")
        if question["mode"] == "vote" and table.wall() >= question["close_at"]:
            table.refresh()                    # closes it
            raise IllegalAction("closed", "the vote is closed")
        now = table.now()
        if conn is not None:
            last = self._last_answer.get(conn)
            if last is not None and now - last < ANSWER_GAP:
                raise IllegalAction("rate_limited", f"one answer every {ANSWER_GAP:g} seconds")
        limiter = self._table_rate.get(table.code)
        if limiter is None:
            limiter = self._table_rate[table.code] = security.RateLimiter(*ANSWER_RATE)
        if not limiter.allow():
            raise IllegalAction("rate_limited", "many answers right now; try again in a moment")
        answer = {k: data.get(k, "") for k in ("q", "option", "name", "text")}
        table.record(READERS, answer)
        if conn is not None:
            self._last_answer[conn] = now

    def due(self, table: Any, now: float) -> tuple[list[tuple[int, Any]], float | None]:
        """Votes whose time is up (closed by the GM's seat), and — by ``anka_minor`` — the
        small decisions of the readers' pairs nobody asked about: answered by the program, or
        put to the readers (the first answer decides)."""
        game = table.game
        if game.over:
            return [], None
        gm = len(game.seats())
        votes = [q for q in game.view("reader")["questions"] if q["mode"] == "vote"]
        due: list[tuple[int, Any]] = [(gm, {"gm": "close", "q": q["q"], "by": "time"})
                                      for q in votes if q["close_at"] <= now]
        later = [q["close_at"] - now for q in votes if q["close_at"] > now]
        minor = table.config.get("anka_minor", "gm")
        asks = game.pending().get(gm)
        if minor != "gm" and asks is not None and any(o.get("gm") == "decide" for o in asks.options):
            found = game.view("gm")["decisions"]
            for s in sorted({o["seat"] for o in asks.options if o.get("gm") == "decide"}):
                d = found[str(s)]
                if d["kind"] not in MINOR:
                    continue
                options = [o["value"] for o in d["options"]]
                if minor == "readers" and 2 <= len(options) <= Limits.options:
                    due.append((gm, {"gm": "ask", "seat": s, "options": options,
                                     "mode": "count", "n": 1}))
                else:
                    due.append((gm, {"gm": "decide", "seat": s,
                                     "option": self._program(table, s, found)}))
        return due, (min(later) if later else None)
