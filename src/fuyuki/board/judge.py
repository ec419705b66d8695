"""The board game's rules judge: a scenario file run with the real engine and explained.

A scenario (TOML, ``game = "board"``; format in docs/judge.md) gives the state a game starts
from (:mod:`fuyuki.board.setup`), every die by its roll label, the choices the seats make and
what must hold afterwards (``[expect]``). :func:`judge` runs it: ``.log`` explains each step in
ja or en, ``.result`` is the final state as JSON, ``.failures`` the unmet expectations (one line
each). A bad file — an unknown key, an impossible state, a choice that is not an option, a die
missing or never rolled — is a ScenarioError naming the file and the key. ``fuyuki judge FILE``
and the tests (``tests/board/scenarios``) both go through here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, read_toml
from fuyuki.core.errors import DataError, IllegalAction, ScenarioError
from fuyuki.core.i18n import pick

from fuyuki.board.game import Game, new_game
from fuyuki.board.setup import register_reasons
from fuyuki.board.text import Texts

TOP_KEYS = ["game", "rule", "pins", "camps", "seed", "pack", "setup", "dice", "steps", "expect"]
EXPECT_KEYS = ["chars", "camps", "events", "no_events", "event_data", "pending", "pending_seat",
               "pending_info", "options_include", "options_exclude", "winner", "round", "turn",
               "discard", "deck"]
CHAR_EXPECT = ["pos", "hp", "max_hp", "at", "df", "alive", "camp", "alone", "revives",
               "boost_at", "boost_df"]
CAMP_EXPECT = ["hand", "plotted", "spells", "out", "territory", "territory_done", "barrier"]
#: every kind of event the engine emits
EVENT_KINDS = {
    "ability", "action", "attack", "attack_cancelled", "attack_roll", "barrier_built",
    "barrier_destroyed", "barrier_hits", "battle", "battle_cancelled", "camp_out", "card_used",
    "cover", "damage", "death", "defence", "draw", "drew", "game_over", "heal", "hit",
    "instant_begin", "instant_end", "moved", "out_of_reach", "part", "plot", "plotted",
    "preempt", "recontract", "reshuffle", "revive", "solo", "spell", "stray",
    "territory_built", "territory_destroyed", "territory_done", "turn"}


@dataclass
class Scenario:
    path: str
    data: dict[str, Any]
    camps: list[str]
    seed: int
    pack: str | None
    setup: dict[str, Any]
    dice: dict[str, int]
    steps: list[tuple[int, str]]
    expect: dict[str, Any] = field(default_factory=dict)


@dataclass
class Judged:
    game: Game
    log: list[str]
    result: dict[str, Any]
    failures: list[str]


# ---------------------------------------------------------------------------- loading
def load(path: str | Path) -> Scenario:
    """A scenario file read and its form checked (the state is checked when the game is set
    up: :func:`start`)."""
    register_reasons()
    p = str(path)
    top = Table(read_toml(path, ScenarioError), p, error=ScenarioError)
    top.check_keys(TOP_KEYS)
    top.str("game", choices=["board"])
    if not isinstance(top.data.get("rule"), str):
        top.text("rule")             # a string, or a table of ja and en
    top.str("pins")
    camps = top.list_of("camps", str)
    pack = top.str("pack", "")
    if pack:
        pack = str(Path(p).parent / pack)
    return Scenario(p, top.data, camps, top.int("seed", 0), pack or None,
                    dict(top.table("setup", {}).data), _dice(top), _steps(top),
                    _expect(top))


def _dice(top: Table) -> dict[str, int]:
    """``[dice]`` (label = value) or ``dice = [{label = "…", value = n}, …]``."""
    if not top.has("dice"):
        return {}
    if isinstance(top.data["dice"], list):
        out: dict[str, int] = {}
        for d in top.tables("dice"):
            d.check_keys(["label", "value"])
            label = d.str("label")
            if label in out:
                raise d.fail("label", f"the die {label} is given twice", "board_die_twice",
                             label=label)
            out[label] = d.int("value", lo=1, hi=6)
        return out
    t = top.table("dice")
    return {label: t.int(label, lo=1, hi=6) for label in t.data}


def _steps(top: Table) -> list[tuple[int, str]]:
    out = []
    for i, step in enumerate(top.list("steps", [])):
        if not (isinstance(step, list) and len(step) == 2 and isinstance(step[0], int)
                and not isinstance(step[0], bool) and isinstance(step[1], str)):
            raise top.fail(f"steps[{i}]", 'a step is [seat, "choice"]', "board_step_form")
        out.append((step[0], step[1]))
    return out


def _expect(top: Table) -> dict[str, Any]:
    ex = top.table("expect", {})
    ex.check_keys(EXPECT_KEYS)
    for name in ("events", "no_events"):
        for i, kind in enumerate(ex.list_of(name, str, [])):
            if kind not in EVENT_KINDS:
                raise ex.fail(f"{name}[{i}]", f"no event kind {kind!r}", "board_no_event",
                              kind=kind)
    ed = ex.table("event_data", {})
    for kind in ed.data:
        if kind not in EVENT_KINDS:
            raise ed.fail(kind, f"no event kind {kind!r}", "board_no_event", kind=kind)
        ed.table(kind)
    ex.table("pending_info", {})
    for name in ("options_include", "options_exclude"):
        ex.list(name, [])
    for cid in ex.table("chars", {}).data:
        ex.table("chars").table(cid).check_keys(CHAR_EXPECT)
    for seat in ex.table("camps", {}).data:
        ex.table("camps").table(seat).check_keys(CAMP_EXPECT)
    return ex.data


def _relocate(exc: DataError, path: str) -> ScenarioError:
    """An error of the engine's config (``setup``, ``dice``, ``config``) as one of the file."""
    key = "" if exc.key == "-" else exc.key
    if exc.file == "setup":
        key = f"setup.{key}" if key else "setup"
    elif exc.file == "dice":
        key = f'dice."{key}"'
    elif exc.file.startswith("config"):
        key = exc.file.removeprefix("config").lstrip(".") + key
        key = "camps" if key in ("", "players") else key     # players = len(camps)
    else:
        key = f"{exc.file}: {key}"
    return ScenarioError(path, key, exc.reason, exc.code, **exc.params)


def start(sc: Scenario) -> Game:
    """The game the scenario sets up (a scenario's deck holds only its ``deck`` cards and a
    camp draws no hand unless the file says otherwise)."""
    setup = {"start_hand": 0, "clear_deck": True, **sc.setup}
    try:
        return new_game(players=len(sc.camps), seed=sc.seed, camps=sc.camps, pack=sc.pack,
                        setup=setup, dice=sc.dice)
    except DataError as exc:
        raise _relocate(exc, sc.path) from None


# ---------------------------------------------------------------------------- running
class _Log:
    """The explanation, event by event, with each die's label where it was rolled."""

    def __init__(self, g: Game, lang: str):
        self.g, self.lang = g, lang
        self.lines: list[str] = []
        self.events = 0
        self.rolls = 0

    def texts(self, seat: int | None = None) -> Texts:
        return Texts(self.g.pack, self.g.view(seat), self.lang)

    def t(self, key: str, **p: Any) -> str:
        return self.texts().t(f"judge.{key}", **p)

    def flush(self) -> None:
        g, tx = self.g, self.texts()
        while self.events < len(g.events) or self.rolls < len(g.rolls):
            if self.rolls < len(g.rolls) and g.rolls[self.rolls][2] <= self.events:
                label, value, _ = g.rolls[self.rolls]
                self.lines.append(self.t("die", label=label, value=value))
                self.rolls += 1
                continue
            self.lines.append(tx.event(g.events[self.events].to_json()))
            self.events += 1

    def state(self, sc: Scenario) -> None:
        g, tx = self.g, self.texts()
        self.lines.append(self.t("rule", rule=pick(sc.data["rule"], self.lang)))
        self.lines.append(self.t("pins", pins=sc.data["pins"]))
        order = " → ".join(tx.camp(s) for s in g.round_order(g.round))
        self.lines.append(self.t("round", round=g.round, order=order, camp=tx.camp(g.turn_seat)))
        for c in g.chars.values():
            where = tx.camp(c.camp) if c.camp is not None else tx.t("ui.stray")
            hp = f"HP {c.hp}/{c.max_hp}" if c.alive else tx.t("ui.dead")
            self.lines.append(self.t("char", char=c.name, camp=where, area=g.area(c.pos), hp=hp,
                                     at=c.at, df=c.df))
        none = tx.t("ui.none")
        for camp in g.camps:
            cards = "、".join(tx.card(g.card_type(k)) for k in camp.hand) or none
            plotted = "、".join(tx.card(g.card_type(k)) for k in camp.plotted) or none
            terr = none
            if camp.territory is not None:
                terr = ("◆" if camp.territory["done"] else "◇") + g.area(camp.territory["pos"])
            barrier = g.area(camp.barrier["pos"]) if camp.barrier is not None else none
            self.lines.append(self.t("camp", camp=pick(camp.name, self.lang), hand=cards,
                                     plotted=plotted, ch=camp.ch, spells=camp.spells,
                                     territory=terr, barrier=barrier,
                                     out=self.t("out") if camp.out else ""))
        discard = "、".join(tx.card(g.card_type(k)) for k in g.discard) or none
        deck = "、".join(tx.card(g.card_type(k)) for k in reversed(g.deck)) or none
        self.lines.append(self.t("cards", deck=deck, discard=discard))

    def step(self, seat: int, decision: Any, choice: str) -> None:
        tx = self.texts(seat)
        d = decision.to_json()
        self.lines.append(self.t("step", camp=tx.camp(seat), prompt=tx.prompt(d),
                                 choice=tx.option(d["kind"], choice)))

    def end(self) -> None:
        g = self.g
        for seat, d in g.pending().items():
            tx = self.texts(seat)
            dj = d.to_json()
            opts = " / ".join(f"{o} ({tx.option(dj['kind'], o)})" for o in dj["options"])
            self.lines.append(self.t("waiting", camp=tx.camp(seat), prompt=tx.prompt(dj),
                                     options=opts))


def run(sc: Scenario, lang: str = "ja") -> tuple[Game, list[str]]:
    """The scenario's game after its steps, and the explanation in ``lang``."""
    g = start(sc)
    log = _Log(g, lang)
    log.state(sc)
    # the set-up's own events (start hands) are the state above: the log starts at the turn
    log.events = next(i for i, e in enumerate(g.events) if e.kind == "turn")
    log.flush()
    for i, (seat, choice) in enumerate(sc.steps):
        pend = g.pending()
        if seat not in pend:
            waiting = ", ".join(f"seat {s}: {d.kind}" for s, d in pend.items()) or "nobody"
            raise ScenarioError(sc.path, f"steps[{i}]", f"seat {seat} has no decision to make "
                                f"here (the game waits for {waiting})", "board_step_waiting",
                                seat=seat, waiting=waiting)
        decision = pend[seat]
        try:
            g.submit(seat, choice)
        except IllegalAction:
            opts = ", ".join(map(str, decision.options))
            raise ScenarioError(sc.path, f"steps[{i}]", f"{choice!r} is not an option here "
                                f"(options: {opts})", "board_step_illegal", choice=repr(choice),
                                options=opts) from None
        except ScenarioError as exc:
            raise _relocate(exc, sc.path) from None
        log.step(seat, decision, choice)
        log.flush()
    unused = g.unused_dice()
    if unused:
        rolls = ", ".join(label for label, _, _ in g.rolls) or "-"
        raise ScenarioError(sc.path, f'dice."{unused[0]}"', f"this die was never rolled (the "
                            f"rolls made: {rolls})", "board_die_unused", rolls=rolls)
    log.end()
    return g, log.lines


# ---------------------------------------------------------------------------- checking
def result(g: Game) -> dict[str, Any]:
    """The final state as JSON: what ``[expect]`` can check, and more."""
    def types(kids: list[str]) -> list[str]:
        return [g.card_type(k) for k in kids]

    pend = [{"seat": s, **d.to_json()} for s, d in g.pending().items()]
    return {
        "game": "board", "round": g.round, "turn": g.turn_seat,
        "order": g.round_order(g.round),
        "chars": {c.id: {"pos": g.area(c.pos), "hp": c.hp, "max_hp": c.max_hp, "at": c.at,
                         "df": c.df, "alive": c.alive, "camp": -1 if c.camp is None else c.camp,
                         "alone": c.alone, "revives": c.revives, "boost_at": c.boost_at,
                         "boost_df": c.boost_df} for c in g.chars.values()},
        "camps": [{"seat": c.seat, "id": c.id, "out": c.out, "spells": c.spells,
                   "hand": types(c.hand), "plotted": types(c.plotted),
                   "territory": g.area(c.territory["pos"]) if c.territory else "none",
                   "territory_done": bool(c.territory and c.territory["done"]),
                   "barrier": g.area(c.barrier["pos"]) if c.barrier else "none"}
                  for c in g.camps],
        "deck": len(g.deck), "discard": types(g.discard),
        "pending": pend[0] if pend else None,
        "winner": None if g.result is None else (-1 if g.result["winner"] is None
                                                 else g.result["winner"]),
        "events": [e.kind for e in g.events],
        "dice": [{"label": label, "value": v} for label, v, _ in g.rolls],
    }


def check(g: Game, expect: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """Every unmet expectation: (key, expected, got)."""
    res = result(g)
    out: list[tuple[str, Any, Any]] = []

    def want(key: str, expected: Any, got: Any) -> None:
        if expected != got:
            out.append((key, expected, got))

    for cid, spec in expect.get("chars", {}).items():
        if cid not in res["chars"]:
            out.append((f"chars.{cid}", "a character of this game", None))
            continue
        for k, v in spec.items():
            want(f"chars.{cid}.{k}", v, res["chars"][cid][k])
    for seat, spec in expect.get("camps", {}).items():
        if not (seat.isdigit() and int(seat) < g.n):
            out.append((f"camps.{seat}", "a seat of this game", None))
            continue
        camp = res["camps"][int(seat)]
        for k, v in spec.items():
            got = camp[k]
            if k in ("hand", "plotted") and isinstance(v, int):
                got = len(got)
            elif k in ("hand", "plotted"):
                v, got = sorted(v), sorted(got)
            want(f"camps.{seat}.{k}", v, got)
    kinds = res["events"]
    it = iter(kinds)
    if any(k not in it for k in expect.get("events", [])):
        out.append(("events", expect["events"], kinds))
    for k in expect.get("no_events", []):
        if k in kinds:
            out.append(("no_events", k, kinds))
    for k, fields in expect.get("event_data", {}).items():
        evs = [e.data for e in g.events if e.kind == k]
        for f, value in fields.items():
            got = [e.get(f) for e in evs]
            if value not in got:
                out.append((f"event_data.{k}.{f}", value, got))
    p = res["pending"]
    if "pending" in expect:
        want("pending", expect["pending"], p["kind"] if p else "none")
    if "pending_seat" in expect:
        want("pending_seat", expect["pending_seat"], p["seat"] if p else None)
    for k, v in expect.get("pending_info", {}).items():
        want(f"pending_info.{k}", v, p["info"].get(k) if p else None)
    opts = p["options"] if p else []
    for o in expect.get("options_include", []):
        if o not in opts:
            out.append(("options_include", o, opts))
    for o in expect.get("options_exclude", []):
        if o in opts:
            out.append(("options_exclude", o, opts))
    for k in ("winner", "round", "turn"):
        if k in expect:
            want(k, expect[k], res[k])
    for k in ("discard", "deck"):
        if k in expect:
            got = res[k]
            v = expect[k]
            if isinstance(v, list):
                v, got = sorted(v), sorted(got)
            elif k == "discard":
                got = len(got)
            want(k, v, got)
    return out


def judge(path: str | Path, lang: str = "ja") -> Judged:
    """Run the scenario at ``path``, explain it in ``lang`` and check its ``[expect]``."""
    sc = load(path)
    g, log = run(sc, lang)
    tx = Texts(g.pack, g.view(None), lang)
    failures = [tx.t("judge.fail", file=sc.path, where=k, want=_show(v), got=_show(got))
                for k, v, got in check(g, sc.expect)]
    if sc.expect:
        log += failures or [tx.t("judge.ok")]
    res = result(g)
    res["log"] = log
    res["failures"] = failures
    return Judged(g, log, res, failures)


def _show(v: Any) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)
