"""The Grail War RPG at the table server (issue 18): a GM, the players of some pairs, the
program for the others, and readers who decide the 安価 pairs' moves.

Seats: one per pair of the roster (``i`` drives the ``i``-th pair), then the GM's. A pair is
driven by a player (a human seat whose link the GM hands out), by the readers ("crowd": only
安価 questions and the GM answer for it) or by the program (a bot seat). The GM is the
table's creator; the GM's seat token is the only way to command the war.

Settings: ``roster`` (null: the sample roster; or a roster file's TOML text, checked like the
CLI's), ``turns`` (the turn limit), ``lang`` (the language of the log the GM pastes), ``humans``
(pair ids players drive), ``anka`` (pair ids the readers drive). The war's dice secret is made
here and kept in the private configuration with the roster.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import weakref
from functools import lru_cache
from typing import Any

from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.core.events import Event
from fuyuki.core.load import parse_toml
from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.hosted import LANGS, READERS, HostedWar
from fuyuki.rpg.options import option_hint, option_label
from fuyuki.rpg.roster import Roster, load_roster, parse_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.web import security
from fuyuki.web.games import Adapter
from fuyuki.web.table import dumps

MAX_ROSTER = 60000               # characters of an uploaded roster
ANSWER_GAP = 3.0                 # seconds between two answers of one connection
ANSWER_RATE = (5.0, 20.0)        # answers a second on one table, and burst
VOTE_SECONDS = (10, 7 * 24 * 3600)


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
    title = {"ja": "聖杯戦争RPG", "en": "Grail War RPG"}
    page = "war.html"
    takeover = None                  # a player who is away is waited for (the GM can pause)
    private_config = frozenset({"secret", "roster"})
    invite = True
    rematch = False                  # a war's links and dice belong to that war alone
    open_hands = False               # the GM console (every sheet, every decision) is the GM's

    def __init__(self) -> None:
        self._last_answer: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._table_rate: dict[str, security.RateLimiter] = {}

    # -- settings -----------------------------------------------------------------------------
    def levels(self) -> dict[str, str]:
        return {"normal": "simple"}

    def check_config(self, raw: dict[str, Any]) -> dict[str, Any]:
        bad = self.bad
        known = {"roster", "turns", "lang", "humans", "anka"}
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
                "pairs": ids, "secret": secrets.token_hex(32)}

    def seat_kinds(self, config: dict[str, Any]) -> list[str]:
        kinds = ["human" if p in config["humans"] else "crowd" if p in config["anka"] else "bot"
                 for p in config["pairs"]]
        return kinds + ["human"]

    def host_seat(self, config: dict[str, Any]) -> int:
        return len(config["pairs"])

    def seat_name(self, config: dict[str, Any], seat: int) -> str:
        return roster_of(config["roster"]).pairs[seat].servant.name[:24]

    def new_game(self, config: dict[str, Any], seed: int) -> HostedWar:
        roster = roster_of(config["roster"])
        anka = [i for i, p in enumerate(config["pairs"]) if p in config["anka"]]
        players = [i for i, p in enumerate(config["pairs"]) if p in config["humans"]]
        return HostedWar(roster, default_rules(), war_secret(config["secret"], seed),
                         max_turns=config["turns"], anka=anka, players=players,
                         roster_text=config["roster"])

    def submissions(self, game: HostedWar) -> list[tuple[int, Any]]:
        return game.submissions

    def make_bot(self, name: str, seed: int, seat: int, config: dict[str, Any], **kw: Any) -> Any:
        return SimpleAgent(seed, seat)

    def meta(self) -> dict[str, Any]:
        roster = roster_of(None)
        return {"pairs": [{"id": p.id, "servant": p.servant.name, "master": p.master.name,
                           "faction": roster.factions.get(p.faction, {})} for p in roster.pairs],
                "turns": default_rules().war["max_turns"], "langs": list(LANGS),
                "create": "/new/rpg"}          # the lobby sends a GM to the war's own form

    def data(self, query: dict[str, str]) -> dict[str, Any]:
        return self.meta()

    # -- what each page sees --------------------------------------------------------------------
    def event_text(self, game: HostedWar, event: Event) -> dict[str, str] | None:
        return game.text_of(event)

    def _decision(self, game: HostedWar, seat: int, d: Any) -> dict[str, Any]:
        names = game.names()
        return {"kind": d.kind, "info": d.to_json()["info"],
                "options": [{"value": o,
                             "label": {lang: option_label(lang, d, o, names) for lang in LANGS},
                             "hint": {lang: option_hint(lang, game.war, seat, d, o) for lang in LANGS}}
                            for o in d.options]}

    def page_view(self, game: HostedWar, seat: int | None) -> dict[str, Any]:
        war = game.war
        role = "gm" if seat == game.gm else "reader" if seat is None else "player"
        base = war.view(seat if role == "player" else None)
        pairs = base["pairs"]
        out: dict[str, Any] = {
            "role": role, "gm_seat": game.gm, "turn": war.turn, "max_turns": war.max_turns,
            "over": game.over, "result": game.result, "paused": game.paused, "held": game.held,
            "questions": [q.to_json() for q in game.questions if q.open],
            "anka": sorted(game.anka),
            "item_names": {k: i.name for k, i in game.rules.items.items()},
            # the readers drive the 安価 pairs: those pairs' own sheets are theirs to see
            "anka_sheets": {str(i): war.pairs[i].sheet() for i in sorted(game.anka)},
        }
        if role == "player" and seat is not None:
            out["me"] = base["me"]
            if seat in game.players:
                out["dice"] = game.dice_state(seat)      # this page's contribution to the dice
            d = game.pending().get(seat)
            out["decision"] = self._decision(game, seat, d) if d else None
        if role == "gm":
            out["sheets"] = {str(p.seat): p.sheet() | {"alive": p.alive, "allies": sorted(p.allies),
                                                      "known": sorted(p.known),
                                                      "max_mana": p.max_mana(game.rules)}
                             for p in war.pairs}
            out["decisions"] = {str(s): self._decision(game, s, d) | {"anka": s in game.anka}
                                for s, d in war.pending().items() if s != game.gm}
        out["pairs"] = pairs
        return out

    # -- the GM and the readers -------------------------------------------------------------------
    def message(self, table: Any, seat: int | None, data: dict[str, Any], conn: Any = None) -> None:
        kind = data.get("type")
        game: HostedWar = table.game
        if kind == "gm":
            if seat != game.gm:
                raise IllegalAction("not_gm", "only the GM's link commands the war")
            cmd = {k: v for k, v in data.items() if k != "type"}
            if cmd.get("gm") == "ask" and cmd.get("mode") == "vote":
                sec = cmd.pop("seconds", None)
                lo, hi = VOTE_SECONDS
                if type(sec) is not int or not lo <= sec <= hi:
                    raise IllegalAction("bad_close", f"a vote lasts {lo} to {hi} seconds")
                from fuyuki.web import table as _table
                cmd["close_at"] = round(_table._wall() + sec, 3)
            if cmd.get("gm") == "auto":
                # the program decides for a pair (a 安価 pair's minor decision, an absent player)
                s = cmd.get("seat")
                d = game.decision(s) if isinstance(s, int) else None
                if d is None or not isinstance(s, int):
                    raise IllegalAction("no_decision", "that pair has no open decision")
                cmd = {"gm": "decide", "seat": s,
                       "option": SimpleAgent(table.row.seed, s).choose(game.view(s), d)}
            table.record(game.gm, cmd)
        elif kind == "relink":
            # a new seat link for a player pair (the GM lost it, or it leaked)
            seat_ = data.get("seat")
            if seat != game.gm:
                raise IllegalAction("not_gm", "only the GM's link makes seat links")
            if type(seat_) is not int or not 0 <= seat_ < game.gm:
                raise IllegalAction("bad_seat", "a pair's seat")
            token = table.reissue(seat_)
            if conn is not None:
                conn.push(dumps({"type": "invite", "seat": seat_, "token": token}))
        elif kind == "dice":
            # a player's page contributes to the next turn's dice (commit, then reveal)
            if seat is None or seat == game.gm:
                raise IllegalAction("not_a_player", "only a player pair's page contributes")
            table.record(seat, {k: data.get(k) for k in ("dice", "turn", "c", "r") if k in data})
        elif kind == "answer":
            if seat == game.gm:
                raise IllegalAction("not_reader", "the GM does not answer 安価")
            self._answer(table, conn, data)
        else:
            raise IllegalAction("bad_message", "unknown message type")

    def _answer(self, table: Any, conn: Any, data: dict[str, Any]) -> None:
        from fuyuki.web import table as _table

        game: HostedWar = table.game
        q = data.get("q")
        question = next((x for x in game.questions if x.q == q and x.open), None)
        if question is None:
            raise IllegalAction("no_question", "no such open question")
        if question.mode == "vote" and _table._wall() >= question.close_at:
            table.refresh()                    # closes it
            raise IllegalAction("closed", "the vote is closed")
        now = _table._now()
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

    def due(self, game: HostedWar, now: float) -> tuple[list[tuple[int, Any]], float | None]:
        return game.due(now)
