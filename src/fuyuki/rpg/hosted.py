"""A war hosted for a GM, the players of some pairs and the readers (issue 18).

:class:`HostedWar` wraps a :class:`fuyuki.rpg.war.War` and speaks the same protocol
(``pending`` / ``submit`` / ``view`` / ``events``), so the table server stores it as its seed,
its configuration and its ordered submissions and replays it exactly after a restart. Three
kinds of submission reach it:

* a pair's seat answers the war's decision of that pair (only while the GM lets the war run);
* the GM's seat (``gm`` = the number of pairs) sends commands: ``pause``, ``resume``, ``next``
  (open the new turn's decisions), ``narrate`` (text into the log), ``ask`` (a 安価 question
  for a pair the readers drive), ``close`` (decide a question now), ``decide`` (the GM answers
  a 安価 pair's decision itself);
* the readers (:data:`READERS`) answer 安価 questions.

Every event carries its text in ja and en in its data (``contract.TEXTS``), rendered as it
happens; the readers' log (:meth:`public_log`) is those lines of the public events.

The pairs the readers drive never appear in :meth:`pending`: only a question's deciding answer
(or the GM) answers for them. No clock is read here: a vote's closing time is part of the GM's
``ask`` and the close itself is a submission made by the server when the time comes
(:meth:`due`).

Dice (log format 2, :mod:`fuyuki.core.dice`): the war's secret (hex) is the GM's master; the
head line with the war commitment (the start of the GM's hash chain) is published before
anything else. Before each turn the pages of the player pairs (``players``) commit to a random
contribution (``{"dice": "commit", "turn": t, "c": hex}``, made by the browser); the GM's
``next`` publishes the commitments and waits for the reveals (``{"dice": "reveal", "turn": t,
"r": hex}``); the turn starts when every committed page has revealed, or when the GM sends
``next`` again (the missing ones are dropped, and the log says so). The server stands in
(party ``server``, derived from the master secret) for the bots, the readers' pairs and any
player page that did not commit. When the war ends the record — settings, roster, every
submission — closes the log (``#WAR RECORD``, ``#DICE END``): ``fuyuki war verify`` replays it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fuyuki.core.contract import TEXTS, EventLog, Role, no_role, seat_sees
from fuyuki.core.dice import Party, commitment
from fuyuki.core.errors import IllegalAction
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.core.record import Record
from fuyuki.rpg.options import option_hint, option_label
from fuyuki.rpg.roster import Roster
from fuyuki.rpg.rules import Rules
from fuyuki.rpg.text import Renderer, t
from fuyuki.rpg.war import War

READERS = -1               # the seat of the readers' answers
LANGS = ("ja", "en")


@dataclass(frozen=True)
class Limits:
    narration: int = 600       # characters of one narration
    answer: int = 140          # characters of a reader's comment
    name: int = 24             # characters of a reader's name
    options: int = 9           # options of one question
    count: int = 50            # the deciding answer is at most the 50th
    answers: int = 500         # answers of one question


@dataclass
class Question:
    q: int
    seat: int
    kind: str
    options: list[str]
    mode: str                  # "count": the n-th answer decides; "vote": most votes at close_at
    n: int
    close_at: float
    answers: list[dict[str, Any]] = field(default_factory=list)
    open: bool = True
    decided: str | None = None

    def tally(self) -> str | None:
        """Most votes; a tie goes to the option answered first. None without answers."""
        counts: dict[str, int] = {}
        first: dict[str, int] = {}
        for k, a in enumerate(self.answers):
            counts[a["option"]] = counts.get(a["option"], 0) + 1
            first.setdefault(a["option"], k)
        if not counts:
            return None
        return min(counts, key=lambda o: (-counts[o], first[o]))

    def to_json(self) -> dict[str, Any]:
        return {"q": self.q, "seat": self.seat, "kind": self.kind, "options": self.options,
                "mode": self.mode, "n": self.n, "close_at": self.close_at, "open": self.open,
                "answers": len(self.answers), "decided": self.decided}


def _int(value: Any) -> int | None:
    """A whole number given in a command (not a bool), else None."""
    return value if type(value) is int else None


def _is_hex(text: str) -> bool:
    return bool(text) and len(text) % 2 == 0 and all(c in "0123456789abcdef" for c in text)


def _bad(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _text(value: Any, limit: int, what: str, *, empty: bool = False, lines: bool = False) -> str:
    if not isinstance(value, str):
        raise _bad("bad_text", f"{what} is text")
    value = value.strip()
    if not value and not empty:
        raise _bad("bad_text", f"{what} is empty")
    if len(value) > limit:
        raise _bad("too_long", f"{what} has at most {limit} characters")
    if any(not (c.isprintable() or (lines and c == "\n")) for c in value):
        raise _bad("bad_text", f"{what} has control characters")
    return value


class HostedWar(EventLog):
    def __init__(self, roster: Roster, rules: Rules, secret: str, *, max_turns: int | None = None,
                 anka: tuple[int, ...] | list[int] = (), limits: Limits = Limits(),
                 players: tuple[int, ...] | list[int] = (), roster_text: str | None = None,
                 dice: Any = None):
        """``secret``: the GM's master secret (hex); ``players``: the seats whose pages
        contribute to the dice; ``roster_text``: the roster file's text (None: the sample);
        ``dice``: the published dice of a log (``war verify``'s replay) instead."""
        from fuyuki.rpg.war_log import war_dice

        self.secret = secret
        self.gm = len(roster.pairs)
        #: the record's config (fuyuki.rpg.war_record.start_hosted rebuilds the war from it)
        self.config: dict[str, Any] = {
            "secret": secret, "roster_toml": roster_text, "turns": max_turns or rules.war["max_turns"],
            "anka": sorted(anka), "players": sorted(players)}
        turns = max_turns or rules.war["max_turns"]
        master = bytes.fromhex(secret) if _is_hex(secret) else secret.encode("utf-8")
        self.dice = dice or war_dice(master, turns, roster_text, self._parties)
        self.war = War(roster, rules, secret, max_turns=turns, gate=self.gm, dice=self.dice)
        self.roster_text = roster_text
        self.rules = rules
        self.anka = frozenset(anka)
        self.players = frozenset(players)
        #: contributions by turn: seat -> [commitment, revealed hex or None]
        self.contrib: dict[int, dict[int, list[Any]]] = {}
        self.opening: int | None = None     # the turn whose contributions are being revealed
        self.limits = limits
        self.paused = False
        self.questions: list[Question] = []
        self.events: list[Event] = []
        self.texts: list[dict[str, list[str]]] = []
        self.submissions: list[tuple[int, Any]] = []
        self._render = {lang: Renderer(lang, dice=True) for lang in LANGS}
        self._seen = 0
        self._revealed = False
        self._add(Event("dice_war", {"sha": self.dice.commit.hex() if hasattr(self.dice, "commit")
                                     else self.dice.commitment, "head": self.dice.head}))
        self._sync()

    # -- the protocol ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.war.over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.war.result

    @property
    def held(self) -> bool:
        """The next turn waits for the GM's ``next``."""
        return self.gm in self.war.pending()

    @property
    def record(self) -> Record:
        """``rpg-hosted``: the war's config and every submission (the GM's, the readers')."""
        return Record("rpg-hosted", 0, dict(self.config), list(self.submissions))

    def roles(self) -> list[Role]:
        """Each pair's seat, the GM, the readers and ``None`` (who holds no link: a reader)."""
        return [*range(self.gm), "gm", "reader", None]

    def seats(self) -> list[int]:
        """The pairs' seats (what the result ranks); the GM submits as seat :attr:`gm`, the
        readers as :data:`READERS`."""
        return list(range(self.gm))

    def sees(self, role: Role, event: Event) -> bool:
        """The GM sees every event; a reader (``None``) the public ones; a pair its own."""
        if role == "gm" or role == self.gm:
            return event.to is None or self.gm in event.to
        return seat_sees(None if role == "reader" else role, event)

    def pending(self) -> dict[int, Decision]:
        """The open decisions of the pairs players and the program drive and, when the war
        waits for the GM, the GM's (kind ``gm``): the commands that move it on — ``next``
        (open the turn), ``resume`` (after a pause), ``decide`` (a decision of a pair the
        readers drive that no question is deciding)."""
        if self.over:
            return {}
        if self.paused:
            return {self.gm: Decision("gm", ({"gm": "resume"},))}
        asks = self.war.pending()
        out = {s: d for s, d in asks.items() if s not in self.anka and s != self.gm}
        gm: list[dict[str, Any]] = [{"gm": "next"}] if self.gm in asks else []
        for s in sorted(self.anka):
            d = asks.get(s)
            if d is not None and self.question_of(s) is None:
                gm += [{"gm": "decide", "seat": s, "option": o} for o in d.options]
        if gm:
            out[self.gm] = Decision("gm", tuple(gm))
        return out

    def submit(self, seat: int, choice: Any) -> None:
        """A pair's answer, a GM command or a reader's answer; a refused one changes nothing."""
        if self.over:
            raise _bad("game_over", "the war is over")
        if isinstance(choice, dict) and "dice" in choice and 0 <= seat < self.gm:
            recorded = self._dice(seat, choice)
        elif seat == self.gm:
            recorded = self._gm(choice)
        elif seat == READERS:
            recorded = self._answer(choice)
        else:
            if seat not in self.pending() or seat == self.gm:
                raise _bad("not_your_turn", f"seat {seat} has no open decision")
            self.war.submit(seat, choice)
            recorded = self.war.submissions[-1][1]
        self.submissions.append((seat, recorded))
        self._sync()

    def view(self, role: Role) -> dict[str, Any]:
        """What ``role`` may know. Everyone: the turn, the pairs' public facts, the open
        questions, the sheets of the pairs the readers drive (theirs to see). A pair's seat:
        its own sheet (``me``), its open decision with each option's label and hint in ja/en,
        its part in the dice. The GM (``"gm"`` or seat :attr:`gm`): every sheet and every
        pair's open decision. A reader (``"reader"``, ``None``): nothing more."""
        seat: int | None = None
        if role == "gm" or role == self.gm:
            kind = "gm"
        elif role is None or role == "reader":
            kind = "reader"
        elif isinstance(role, int) and not isinstance(role, bool) and 0 <= role < self.gm:
            kind, seat = "player", role
        else:
            raise no_role(role)
        war = self.war
        base = war.view(seat)
        out: dict[str, Any] = {
            "role": kind, "gm_seat": self.gm, "turn": war.turn, "max_turns": war.max_turns,
            "over": self.over, "result": self.result, "paused": self.paused, "held": self.held,
            "questions": [q.to_json() for q in self.questions if q.open],
            "anka": sorted(self.anka),
            "item_names": {k: i.name for k, i in self.rules.items.items()},
            "anka_sheets": {str(i): war.pairs[i].sheet() for i in sorted(self.anka)},
            "pairs": base["pairs"],
        }
        if seat is not None:
            out["me"] = base["me"]
            if seat in self.players:
                out["dice"] = self.dice_state(seat)      # this page's contribution to the dice
            d = self.pending().get(seat)
            out["decision"] = self.decision_json(seat, d) if d else None
        elif kind == "gm":
            out["sheets"] = {str(p.seat): p.sheet() | {"alive": p.alive, "allies": sorted(p.allies),
                                                      "known": sorted(p.known),
                                                      "max_mana": p.max_mana(self.rules)}
                             for p in war.pairs}
            out["decisions"] = {str(s): self.decision_json(s, d) | {"anka": s in self.anka}
                                for s, d in war.pending().items() if s != self.gm}
        return out

    def decision_json(self, seat: int, d: Decision) -> dict[str, Any]:
        """A pair's decision as a page shows it: each option with its label and hint."""
        names = self.names()
        return {"kind": d.kind, "info": d.to_json()["info"],
                "options": [{"value": o,
                             "label": {lang: option_label(lang, d, o, names) for lang in LANGS},
                             "hint": {lang: option_hint(lang, self.war, seat, d, o)
                                      for lang in LANGS}}
                            for o in d.options]}

    def decision(self, seat: int) -> Decision | None:
        """The war's open decision of a pair (also of a pair the readers drive)."""
        return self.war.pending().get(seat) if seat != self.gm else None

    def question_of(self, seat: int) -> Question | None:
        return next((q for q in self.questions if q.open and q.seat == seat), None)

    # -- events and their text -----------------------------------------------------------------
    def emit(self, _kind: str, _to: tuple[int, ...] | None = None, **data: Any) -> None:
        self._add(Event(_kind, data, _to), own=True)

    def _add(self, e: Event, own: bool = False) -> None:
        """Log ``e`` with its lines in ja and en, rendered now (a battle's side names and the
        dice lines follow the stream): kept for the readers' log and given in the event's data
        (``contract.TEXTS``), which is how a door shows them."""
        texts = {lang: self._own_text(lang, e) if own else self._render[lang].lines([e])
                 for lang in LANGS}
        said = {lang: "\n".join(lines) for lang, lines in texts.items()}
        self.events.append(Event(e.kind, {**e.data, TEXTS: said}, e.to))
        self.texts.append(texts)

    def _sync(self) -> None:
        """Copy the war's new events (the GM sees the private ones too)."""
        for e in self.war.events[self._seen:]:
            self._add(Event(e.kind, e.data, None if e.to is None else tuple(e.to) + (self.gm,)))
        self._seen = len(self.war.events)
        if self.over and not self._revealed:
            from fuyuki.rpg.war_log import end_event, last_seal, roster_field
            self._revealed = True
            record = {"v": 2, "kind": "hosted", "roster": roster_field(self.roster_text),
                      "turns": self.war.max_turns, "anka": sorted(self.anka),
                      "players": sorted(self.players),
                      "submissions": [[s, c] for s, c in self.submissions]}
            self._add(end_event(record, *last_seal(self.war.events)))

    def public_log(self, lang: str) -> str:
        """The readers' log (with the ``#DICE`` lines): what ``fuyuki war verify`` checks."""
        return "\n".join(line for e, tx in zip(self.events, self.texts) if e.to is None
                         for line in tx[lang]) + "\n"

    def _own_text(self, lang: str, e: Event) -> list[str]:
        d = e.data
        k = e.kind
        if k == "narration":
            return [t(lang, "online.narration", text=line) for line in d["text"].split("\n")]
        if k == "anka_open":
            head = t(lang, f"online.ask_{d['mode']}", q=d["q"], who=d["who"],
                     kind=t(lang, f"kind.{d['kind']}"), n=d["n"],
                     close=time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(d["close_at"])))
            return [head] + [t(lang, "online.ask_option", i=i, label=lab[lang],
                               hint=f"（{h[lang]}）" if h[lang] and lang == "ja" else
                               f" ({h[lang]})" if h[lang] else "")
                             for i, (lab, h) in enumerate(zip(d["labels"], d["hints"]), 1)]
        if k == "anka_answer":
            return [t(lang, "online.answer", q=d["q"], k=d["k"],
                      name=d["name"] or t(lang, "online.anonymous"), i=d["i"],
                      label=d["label"][lang], text=d["text"]).rstrip()]
        if k == "anka_decided":
            by = t(lang, f"online.by_{d['by']}", k=d["k"], votes=d["votes"])
            return [t(lang, "online.decided", q=d["q"], who=d["who"], label=d["label"][lang], by=by)]
        if k == "dice_parties":
            return [t(lang, "dice.parties", turn=d["turn"],
                      names=("、" if lang == "ja" else ", ").join(d["names"]))]
        if k == "gm_decided":
            return [t(lang, "online.gm_decided", who=d["who"], label=d["label"][lang])]
        return [t(lang, f"online.{k}", **d)]

    # -- the GM ------------------------------------------------------------------------------------
    def names(self) -> dict[str, str]:
        """How pairs and characters are named in option labels (pair id: its servant)."""
        names: dict[str, str] = {}
        for p in self.war.pairs:
            names |= {p.id: p.servant.name, p.servant.id: p.servant.name, p.master.id: p.master.name}
        return names

    def _labels(self, seat: int, d: Decision, options: list[str]) -> list[dict[str, str]]:
        names = self.names()
        return [{lang: option_label(lang, d, o, names) for lang in LANGS} for o in options]

    def _gm(self, c: Any) -> dict[str, Any]:
        if not isinstance(c, dict) or not isinstance(c.get("gm"), str):
            raise _bad("bad_command", "a GM command is {\"gm\": name, ...}")
        act = c["gm"]
        if act == "pause":
            if self.paused:
                raise _bad("paused", "the war is already paused")
            self.paused = True
            self.emit("paused")
            return {"gm": act}
        if act == "resume":
            if not self.paused:
                raise _bad("not_paused", "the war is not paused")
            self.paused = False
            self.emit("resumed")
            return {"gm": act}
        if act == "next":
            if not self.held:
                raise _bad("not_held", "the turn has already begun")
            turn = self.war.turn + 1
            got = self.contrib.get(turn, {})
            if got and self.opening is None:
                # the commitments are closed and published; the pages reveal, then the turn starts
                self.opening = turn
                self.emit("dice_parties", turn=turn,
                          names=[self.war.pairs[s].label for s in sorted(got)])
                if all(v[1] is not None for v in got.values()):
                    self._start()
            else:
                self._start()             # again while opening: the missing reveals are dropped
            return {"gm": act}
        if act == "narrate":
            text = _text(c.get("text"), self.limits.narration, "narration", lines=True)
            self.emit("narration", text=text)
            return {"gm": act, "text": text}
        if act == "ask":
            return self._ask(c)
        if act == "close":
            q = self._open_question(c.get("q"))
            option = q.tally()
            by = "time" if c.get("by") == "time" else "gm"
            self._decide(q, option, by, votes=sum(a["option"] == option for a in q.answers))
            return {"gm": act, "q": q.q, "by": by}
        if act == "decide":
            # for a 安価 pair (its minor decisions), or for a player who keeps the war waiting
            seat = _int(c.get("seat"))
            d = self.decision(seat) if seat is not None else None
            if d is None or seat is None:
                raise _bad("no_decision", "that pair has no open decision")
            if self.question_of(seat) is not None:
                raise _bad("question_open", "a question decides this; close it first")
            option = c.get("option")
            if option not in d.options:
                raise _bad("not_an_option", f"{option!r} is not an option of {d.kind}")
            label = self._labels(seat, d, [str(option)])[0]
            # a player's choice stays between that pair and the GM
            self.emit("gm_decided", None if seat in self.anka else (seat, self.gm),
                      who=self.war.pairs[seat].label, label=label)
            self.war.submit(seat, option)
            return {"gm": act, "seat": seat, "option": option}
        raise _bad("bad_command", f"unknown GM command {act!r}")

    def _start(self) -> None:
        self.opening = None
        self.emit("released", turn=self.war.turn + 1)
        self.war.submit(self.gm, "start")

    def _parties(self, turn: int) -> list[Party]:
        """The turn's contributions: the players' pages that committed, in seat order, then the
        server's (which stands in for everyone else)."""
        got = self.contrib.get(turn, {})
        parties = [Party(self.war.pairs[s].id, c, bytes.fromhex(r) if r else None)
                   for s, (c, r) in sorted(got.items())]
        return parties + [self.dice.standin(turn, "server")]

    def _dice(self, seat: int, c: dict[str, Any]) -> dict[str, Any]:
        """A player page's contribution to the next turn's dice: commit, then reveal."""
        if seat not in self.players:
            raise _bad("not_a_player", "only a player pair's page contributes to the dice")
        turn = self.war.turn + 1
        if c.get("turn") != turn or not self.held:
            raise _bad("bad_turn", f"contributions are for turn {turn}, before it starts")
        got = self.contrib.setdefault(turn, {})
        value = c.get("c") if c["dice"] == "commit" else c.get("r")
        if not isinstance(value, str) or not _is_hex(value) or len(value) != 64:
            raise _bad("bad_dice", "a contribution is 64 hex digits")
        if c["dice"] == "commit":
            if self.opening is not None or seat in got:
                raise _bad("dice_closed", "the commitments of this turn are closed")
            got[seat] = [value, None]
        elif c["dice"] == "reveal":
            if self.opening != turn or seat not in got or got[seat][1] is not None:
                raise _bad("dice_closed", "nothing of yours to reveal now")
            if commitment(bytes.fromhex(value)) != got[seat][0]:
                raise _bad("bad_dice", "the contribution does not match its commitment")
            got[seat][1] = value
            if all(v[1] is not None for v in got.values()):
                self._start()
        else:
            raise _bad("bad_dice", "dice is commit or reveal")
        return {"dice": c["dice"], "turn": turn, "c" if c["dice"] == "commit" else "r": value}

    def dice_state(self, seat: int | None) -> dict[str, Any]:
        """What a page needs to contribute: the next turn, whether its commitments are closed,
        and this seat's part."""
        turn = self.war.turn + 1
        mine = self.contrib.get(turn, {}).get(seat) if seat is not None else None
        return {"turn": turn, "held": self.held and not self.over, "opening": self.opening == turn,
                "committed": mine is not None, "revealed": bool(mine and mine[1])}

    def _ask(self, c: dict[str, Any]) -> dict[str, Any]:
        lim = self.limits
        seat = _int(c.get("seat"))
        d = self.decision(seat) if seat is not None and seat in self.anka else None
        if d is None or seat is None:
            raise _bad("no_decision", "that pair is not one the readers drive, or has no open decision")
        if self.question_of(seat) is not None:
            raise _bad("question_open", "that pair already has an open question")
        options = c.get("options")
        if not isinstance(options, list) or not 2 <= len(options) <= lim.options \
                or len(set(map(str, options))) != len(options) or any(o not in d.options for o in options):
            raise _bad("bad_options", f"2 to {lim.options} different options of the pair's decision")
        mode = c.get("mode")
        n, close_at = 0, 0.0
        if mode == "count":
            got = _int(c.get("n"))
            if got is None or not 1 <= got <= lim.count:
                raise _bad("bad_count", f"the deciding answer is the 1st to the {lim.count}th")
            n = got
        elif mode == "vote":
            at = c.get("close_at")
            if not (isinstance(at, (int, float)) and not isinstance(at, bool) and 0 < at < 1e11):
                raise _bad("bad_close", "a vote closes at a time (seconds since 1970)")
            close_at = float(at)
        else:
            raise _bad("bad_mode", "mode is count (the n-th answer) or vote (closes at a time)")
        q = Question(len(self.questions) + 1, seat, d.kind, list(options), mode, n, close_at)
        self.questions.append(q)
        self.emit("anka_open", q=q.q, seat=seat, who=self.war.pairs[seat].label, kind=d.kind,
                  options=q.options, labels=self._labels(seat, d, q.options),
                  hints=[{lang: option_hint(lang, self.war, seat, d, o) for lang in LANGS}
                         for o in q.options], mode=mode, n=n, close_at=close_at)
        return {"gm": "ask", "seat": seat, "options": q.options, "mode": mode, "n": n,
                "close_at": close_at}

    def _open_question(self, q: Any) -> Question:
        if type(q) is not int or not 1 <= q <= len(self.questions) or not self.questions[q - 1].open:
            raise _bad("no_question", "no such open question")
        return self.questions[q - 1]

    def _decide(self, q: Question, option: str | None, by: str, k: int = 0, votes: int = 0) -> None:
        q.open = False
        q.decided = option
        who = self.war.pairs[q.seat].label
        if option is None:
            self.emit("anka_closed", q=q.q, who=who)
            return
        d = self.decision(q.seat)
        assert d is not None     # only a question answers a 安価 pair's decision while it is open
        self.emit("anka_decided", q=q.q, who=who, option=option, by=by, k=k, votes=votes,
                  label=self._labels(q.seat, d, [option])[0])
        self.war.submit(q.seat, option)

    # -- the readers ---------------------------------------------------------------------------------
    def _answer(self, c: Any) -> dict[str, Any]:
        lim = self.limits
        if not isinstance(c, dict):
            raise _bad("bad_answer", "an answer is {\"q\", \"option\", \"name\", \"text\"}")
        q = self._open_question(c.get("q"))
        option = c.get("option")
        if option not in q.options:
            raise _bad("not_an_option", "answer with one of the question's options")
        if len(q.answers) >= lim.answers:
            raise _bad("too_many", "this question has all the answers it takes")
        name = _text(c.get("name", ""), lim.name, "a name", empty=True)
        text = _text(c.get("text", ""), lim.answer, "an answer", empty=True)
        q.answers.append({"option": option, "name": name, "text": text})
        k = len(q.answers)
        i = q.options.index(option) + 1
        d = self.decision(q.seat)
        assert d is not None
        self.emit("anka_answer", q=q.q, k=k, name=name, i=i, text=text,
                  label=self._labels(q.seat, d, [option])[0])
        if q.mode == "count" and k == q.n:
            self._decide(q, option, "count", k=k)
        return {"q": q.q, "option": option, "name": name, "text": text}

    def due(self, now: float) -> tuple[list[tuple[int, Any]], float | None]:
        """The GM's submissions the clock makes due at ``now`` (votes whose time is up) and
        the seconds until the next one."""
        if self.over:
            return [], None
        votes = [q for q in self.questions if q.open and q.mode == "vote"]
        due = [(self.gm, {"gm": "close", "q": q.q, "by": "time"}) for q in votes if q.close_at <= now]
        later = [q.close_at - now for q in votes if q.close_at > now]
        return due, (min(later) if later else None)
