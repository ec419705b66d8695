"""The Grail War Board engine: the turn procedure of seed 003 as one deterministic state machine.

The procedure is written as a generator (``_run``) that yields ``(seat, Decision)`` and receives
the choice: the rules read top to bottom like the seed. ``submit`` checks the choice against the
decision's options before the generator sees it, so an illegal move changes nothing.
``clone()`` replays the record (seed + submissions) into a new game.

Turn (seed): draw (陣地 completion) → plot → unit (単独行動) → action phase per group (its
action / move-or-build / battle parts in any order) → end (discard to the hand limit).
《戦闘》 and 《攻撃》 live in :mod:`fuyuki.board.combat`.
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Iterable

from fuyuki.core import rng
from fuyuki.core.contract import EventLog, no_role, seat_sees
from fuyuki.core.data import Table
from fuyuki.core.errors import DataError, IllegalAction, ScenarioError
from fuyuki.core.events import Event
from fuyuki.core.outcome import outcome
from fuyuki.core.protocol import Decision, check_choice
from fuyuki.core.record import Record

from fuyuki.board.content import Pack, check_camp_ids, default_pack, load_pack
from fuyuki.board.state import Camp, Char

GAME_ID = "board"
DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
SPELL = "令呪"

Flow = Generator[tuple[int, Decision], Any, Any]


class _GameOver(Exception):
    pass


def new_game(players: int = 4, seed: int = 0, camps: list[str] | None = None,
             pack: str | None = None, setup: dict | None = None,
             dice: dict[str, int] | None = None) -> "Game":
    """A new game. ``camps`` (camp ids in seat order) defaults to the pack's default camps,
    as many as ``players``. ``setup`` (scenarios, :mod:`fuyuki.board.setup`) sets the state
    the game starts from; ``dice`` fixes every die by its roll label (scenarios)."""
    config: dict[str, Any] = {"players": players}
    if camps is not None:
        config["camps"] = list(camps)
    if pack is not None:
        config["pack"] = str(pack)
    if setup is not None:
        config["setup"] = setup
    if dice is not None:
        config["dice"] = dict(dice)
    return Game(seed, config)


def start(seed: int, config: dict[str, Any], source: str) -> "Game":
    """A new game of a record's seed and ``config`` (registered as ``board`` in
    :data:`fuyuki.core.contract.BUILTIN`: the contract maps its DataErrors to
    ``config.<key>`` of ``source``)."""
    return Game(seed, config)


class Game(EventLog):
    def __init__(self, seed: int, config: dict[str, Any]):
        self.seed = seed
        self.config = dict(config)
        cfg = Table(self.config, "config")
        cfg.check_keys(["players", "camps", "pack", "setup", "dice"])
        pack = cfg.str("pack", "")
        self.pack: Pack = load_pack(pack) if pack else default_pack()
        players = config.get("players", 4)
        if not isinstance(players, int) or not 2 <= players <= len(self.pack.camps):
            raise DataError("config", "players",
                            f"must be 2 to {len(self.pack.camps)}, not {players!r}")
        camps = cfg.list_of("camps", str, None)
        dice: dict[str, int] | None = None
        if cfg.has("dice"):
            dt = cfg.table("dice")
            dice = {label: dt.int(label, lo=1, hi=6) for label in dt.data}
        if cfg.has("setup"):
            cfg.table("setup")
        camp_ids = list(camps or self.pack.rules["default_camps"][:players])
        if len(camp_ids) < players:
            extra = [k for k in self.pack.camps if k not in camp_ids]
            rng.stream(seed, "camps").shuffle(extra)
            camp_ids += extra[:players - len(camp_ids)]
        if len(camp_ids) != players:
            raise DataError("config", "camps", f"needs {players} camps, got {len(camp_ids)}")
        check_camp_ids(self.pack, camp_ids, "config.camps")
        self.n = players
        self.events: list[Event] = []
        self._seen: dict[int | None, tuple[int, list[int]]] = {}
        self._json: dict[int, dict[str, Any]] = {}
        self.submissions: list[tuple[int, Any]] = []
        self.round = 1
        self.turn_seat = 0
        self.turn_no = 1              # the turn's place in the round's order (roll labels)
        self.attacks = 0              # 《攻撃》 made so far in this turn (roll labels)
        self.rolls: list[tuple[str, int, int]] = []   # every die: (label, value, events before)
        self.phase = "setup"
        self.instant = False          # 《刹那の時間》: no 令呪
        self.result: dict[str, Any] | None = None
        self.out_order: list[int] = []    # seats in the order their masters died
        self._deck_rng = rng.stream(seed, "deck")
        self._dice_rng = rng.stream(seed, "dice")
        self._fixed_dice: dict[str, int] | None = dict(dice) if dice is not None else None
        self.chars: dict[str, Char] = {}
        self.camps: list[Camp] = []
        R = self.pack.rules
        for seat, kid in enumerate(camp_ids):
            cd = self.pack.camps[kid]
            md = self.pack.chars[cd.master].for_camps(players)
            self.camps.append(Camp(seat, kid, cd.name, cd.master, md.ch, md.hand_limit,
                                   R["command_spells"]))
            for cid in (cd.master, *cd.servants):
                d = self.pack.chars[cid].for_camps(players)
                self.chars[cid] = Char(cid, d.name, d.role, seat, d.hp, d.hp, d.at, d.df,
                                       dict(d.skills), d.abilities, cd.start,
                                       short=d.short, revives=d.skills.get("revive", 0))
        self.deck = [f"k{i:02d}" for i in range(len(self.pack.deck))]
        self._deck_rng.shuffle(self.deck)
        self.discard: list[str] = []
        setup = config.get("setup")
        start_hand = R["start_hand"]
        if setup is not None:
            from fuyuki.board.setup import apply_setup

            start_hand = apply_setup(self, setup, start_hand)
        self.phase = "start"
        for camp in self.camps:
            if setup is None:
                self._draw(camp.seat, start_hand)
                self._plot_from_deck(camp, min(camp.ch, self.seat_bonus("plotted", camp.seat)))
            elif not camp.out and "hand" not in setup.get("camps", {}).get(str(camp.seat), {}):
                self._draw(camp.seat, start_hand)
        self._gen = self._run()
        self._current: tuple[int, Decision] | None = None
        self._advance(None, first=True)

    # ------------------------------------------------------------------ protocol
    @property
    def over(self) -> bool:
        return self.result is not None

    def pending(self) -> dict[int, Decision]:
        if self._current is None:
            return {}
        seat, decision = self._current
        return {seat: decision}

    def submit(self, seat: int, choice: Any) -> None:
        if self._current is None:
            raise IllegalAction("game_over", "the game is over")
        want, decision = self._current
        if seat != want:
            raise IllegalAction("not_your_turn", f"seat {seat} has no decision to make (seat {want} has)",
                                seat=seat)
        option = check_choice(decision, choice)
        self.submissions.append((seat, option))
        self._advance(option)

    def _advance(self, choice: Any, first: bool = False) -> None:
        try:
            self._current = next(self._gen) if first else self._gen.send(choice)
        except StopIteration:
            self._current = None

    @property
    def record(self) -> Record:
        return Record(GAME_ID, self.seed, dict(self.config), list(self.submissions))

    def clone(self) -> "Game":
        g = Game(self.seed, self.config)
        for seat, choice in self.submissions:
            g.submit(seat, choice)
        return g

    def roles(self) -> list[int | None]:
        """Every role :meth:`view` answers: each seat, then ``None`` (a spectator)."""
        return [*range(self.n), None]

    def seats(self) -> list[int]:
        return list(range(self.n))

    def view(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know (``None``: a spectator). Other seats' hands and plotted
        cards appear only as counts. Events: the last 40 visible ones, or with ``since`` every
        visible event from that index on (``event_count`` is the total)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.n):
            raise no_role(seat)
        out: dict[str, Any] = {
            "game": GAME_ID, "pack": self.config.get("pack"), "seat": seat, "players": self.n, "round": self.round,
            "turn": self.turn_seat, "phase": self.phase, "instant": self.instant,
            "map": {"width": self.pack.width, "height": self.pack.height,
                    "areas": [list(r) for r in self.pack.areas]},
            "chars": [c.public() for c in self.chars.values()],
            "camps": [c.public() for c in self.camps],
            "deck_count": len(self.deck),
            "discard": [self.card_type(k) for k in self.discard],
            "over": self.over, "result": self.result,
        }
        if seat is not None:
            camp = self.camps[seat]
            out["hand"] = [{"id": k, "card": self.card_type(k)} for k in camp.hand]
            out["plotted"] = [{"id": k, "card": self.card_type(k)} for k in camp.plotted]
        mine = self._visible(seat)
        out["event_count"] = len(mine)
        start = max(0, len(mine) - 40) if since is None else since
        out["events_from"] = start
        out["recent_events"] = [self._event_json(i) for i in mine[start:]]
        p = self.pending()
        if seat is not None and seat in p:
            out["decision"] = p[seat].to_json()
        return out

    def _visible(self, seat: int | None) -> list[int]:
        """The indices of the events ``seat`` may see, each event tested once (events are only
        ever appended)."""
        done, mine = self._seen.setdefault(seat, (0, []))
        if done < len(self.events):
            events = self.events
            mine.extend(i for i in range(done, len(events)) if seat_sees(seat, events[i]))
            self._seen[seat] = (len(events), mine)
        return mine

    def _event_json(self, i: int) -> dict[str, Any]:
        """Event ``i`` as JSON, made once: every view shares it (nobody changes it)."""
        js = self._json.get(i)
        if js is None:
            js = self._json[i] = self.events[i].to_json()
        return js

    # ------------------------------------------------------------------ helpers
    def card_type(self, kid: str) -> str:
        return self.pack.deck[int(kid[1:])]

    def card(self, kid: str):
        return self.pack.cards[self.card_type(kid)]

    def emit(self, _kind: str, /, to: Iterable[int] | None = None, **data: Any) -> None:
        self.events.append(Event(_kind, data, tuple(to) if to is not None else None))

    def roll(self, *what: str) -> int:
        """One six-sided die. Its label, ``r<round>/t<turn>/<what…>`` (``t``: the turn's place
        in the round's order, from 1), names it: with fixed dice (scenarios) the die of that
        label, a missing one a ScenarioError naming it."""
        label = f"r{self.round}/t{self.turn_no}/" + "/".join(what)
        if self._fixed_dice is not None:
            if label not in self._fixed_dice:
                raise ScenarioError("dice", label, "no die is given for this roll",
                                    "board_die_missing", label=label)
            v = self._fixed_dice.pop(label)
        else:
            v = self._dice_rng.randint(1, 6)
        self.rolls.append((label, v, len(self.events)))
        return v

    def unused_dice(self) -> list[str]:
        """The labels of fixed dice no roll has used (scenarios)."""
        return list(self._fixed_dice or {})

    @staticmethod
    def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def area(self, pos: tuple[int, int]) -> str:
        return self.pack.area_name(pos)

    def live_chars(self, seat: int | None = ..., ) -> list[Char]:  # type: ignore[assignment]
        if seat is ...:
            return [c for c in self.chars.values() if c.alive]
        return [c for c in self.chars.values() if c.alive and c.camp == seat]

    def master(self, seat: int) -> Char:
        return self.chars[self.camps[seat].master]

    def turn_rank(self, from_seat: int | None, seat: int | None) -> int:
        """How soon ``seat``'s turn comes counting from ``from_seat`` (seed 003 《攻撃》:
        「攻撃プレイヤーから数えてより早く手番が来るプレイヤー」): ``from_seat`` itself 0, then
        the seats after it in this round's order, then the next round's order [R-7]; strays
        last."""
        if seat is None:
            return self.n + 1
        if from_seat is None or seat == from_seat:
            return 0
        now = self.round_order(self.round)
        later = now[now.index(from_seat) + 1:] + self.round_order(self.round + 1)
        return list(dict.fromkeys(s for s in later if s != from_seat)).index(seat) + 1

    def _ask(self, seat: int, kind: str, options: Callable[[], list[Any]] | list[Any],
             spells: bool = False, **info: Any) -> Flow:
        """Ask ``seat`` to choose; a single option is taken without asking. With ``spells``
        the seat may first use 令呪 (between phases / before 《刹那の時間》)."""
        while True:
            opts = list(options() if callable(options) else options)
            if spells and self._can_spell(seat):
                opts.append(SPELL)
            if not opts:
                raise AssertionError(f"no option for {kind}")
            if len(opts) == 1:
                return opts[0]
            choice = yield seat, Decision(kind, tuple(opts), info)
            if choice == SPELL:
                yield from self._spell(seat)
                continue
            return choice

    # ------------------------------------------------------------------ cards
    def _draw(self, seat: int, n: int) -> int:
        camp = self.camps[seat]
        got: list[str] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck, self.discard = self.discard, []
                self._deck_rng.shuffle(self.deck)
                self.emit("reshuffle", count=len(self.deck))
            got.append(self.deck.pop())
        camp.hand.extend(got)
        self.emit("draw", seat=seat, count=len(got))
        if got:
            self.emit("drew", to=(seat,), seat=seat, types=[self.card_type(k) for k in got])
        return len(got)

    def _plot_from_deck(self, camp: Camp, n: int) -> None:
        """[R-7] ``n`` cards from the top of the deck go face down as ``camp``'s plotted cards."""
        for _ in range(min(n, len(self.deck))):
            kid = self.deck.pop()
            camp.plotted.append(kid)
            self.emit("plot", seat=camp.seat, count=len(camp.plotted))
            self.emit("plotted", to=(camp.seat,), seat=camp.seat, type=self.card_type(kid))

    def _discard(self, seat: int, kid: str, why: str) -> None:
        camp = self.camps[seat]
        if kid in camp.hand:
            camp.hand.remove(kid)
        elif kid in camp.plotted:
            camp.plotted.remove(kid)
        self.discard.append(kid)
        self.emit("card_used", seat=seat, card=self.card_type(kid), why=why)

    def _pay(self, seat: int, pool: str, n: int, why: str) -> Flow:
        """Pay ``n`` cards from the hand or the plotted cards, chosen one at a time."""
        camp = self.camps[seat]
        for i in range(n):
            cards = camp.hand if pool == "hand" else camp.plotted
            if len(cards) <= n - i:      # every card must go: nothing to choose
                kid = cards[0]
            else:
                kid = yield from self._ask(seat, "pay", sorted(cards), pool=pool, left=n - i,
                                           why=why)
            self._discard(seat, kid, why)

    # ------------------------------------------------------------------ damage and death
    def heal(self, ch: Char, n: int) -> int:
        before = ch.hp
        ch.hp = min(ch.max_hp, ch.hp + n)
        self.emit("heal", char=ch.id, amount=ch.hp - before, hp=ch.hp)
        return ch.hp - before

    def damage(self, ch: Char, n: int, cause: str) -> None:
        if n <= 0 or not ch.alive:
            return
        ch.hp -= n
        self.emit("damage", char=ch.id, amount=n, hp=ch.hp, cause=cause)
        if ch.hp <= 0:
            if ch.revives > 0:
                ch.revives -= 1
                ch.hp = self.pack.rules["revive_hp"]
                self.emit("revive", char=ch.id, hp=ch.hp)
            else:
                self._kill(ch, cause)

    def _kill(self, ch: Char, cause: str) -> None:
        ch.alive = False
        ch.hp = min(ch.hp, 0)
        ch.alone = False
        self.emit("death", char=ch.id, cause=cause)
        if ch.role == "master" and ch.camp is not None:
            camp = self.camps[ch.camp]
            camp.out = True
            self.out_order.append(camp.seat)
            for kid in camp.hand + camp.plotted:
                self.discard.append(kid)
            camp.hand.clear()
            camp.plotted.clear()
            camp.territory = None
            camp.barrier = None
            self.emit("camp_out", seat=camp.seat)
            for s in self.chars.values():
                if s.alive and s.role == "servant" and s.camp == camp.seat:
                    s.camp = None
                    s.alone = False
                    self.emit("stray", char=s.id)

    def check_end(self) -> None:
        left = [c for c in self.camps if not c.out]
        if len(left) <= 1:
            winner = left[0].seat if left else None
            self.result = self._outcome("last_master" if left else "all_masters_dead")
            self.phase = "over"
            self.emit("game_over", winner=winner, reason=self.result["reason"])
            raise _GameOver

    def _outcome(self, reason: str) -> dict[str, Any]:
        """The result (:mod:`fuyuki.core.outcome`): a last camp standing wins; the places
        after it go to the camps still in, then to the others, the last out first. Also
        ``winner`` (a seat or None) and ``camp`` (its camp id)."""
        left = [c.seat for c in self.camps if not c.out]
        gone = [s for s in reversed(self.out_order)]
        gone += [c.seat for c in self.camps if c.out and c.seat not in gone]
        winner = left[0] if reason == "last_master" else None
        ranking = ([left] if left else []) + [[s] for s in gone]
        return outcome([winner] if winner is not None else [], reason, ranking, self.round,
                       winner=winner, camp=self.camps[winner].id if winner is not None else None)

    # ------------------------------------------------------------------ 令呪
    def _can_spell(self, seat: int) -> bool:
        camp = self.camps[seat]
        return not self.instant and not camp.out and camp.spells > 0

    def servant_count_for_suicide(self, seat: int) -> int:
        """Servants of the camp; a dead 山門 counts as alive if that suits its owner [R-4]."""
        return sum(1 for c in self.chars.values() if c.role == "servant" and c.camp == seat
                   and (c.alive or c.skill("gatekeeper")))

    def spell_options(self, seat: int) -> list[str]:
        opts = ["mana"]
        master = self.master(seat)
        servants = [c for c in self.live_chars(seat) if c.role == "servant"]
        for s in servants:
            opts += [f"boost_at:{s.id}", f"boost_df:{s.id}"]
        for s in servants:
            if s.pos != master.pos and not s.skill("gatekeeper"):
                opts.append(f"summon:{s.id}")
        if self.servant_count_for_suicide(seat) >= 2:
            opts += [f"suicide:{s.id}" for s in servants]
        return opts + ["cancel"]

    def _spell(self, seat: int) -> Flow:
        choice = yield from self._ask(seat, "spell", lambda: self.spell_options(seat))
        if choice == "cancel":
            return
        camp = self.camps[seat]
        camp.spells -= 1
        kind, _, cid = choice.partition(":")
        self.emit("spell", seat=seat, spell=kind, char=cid or None, left=camp.spells)
        R = self.pack.rules
        if kind == "mana":
            self._draw(seat, R["spell_mana_draw"])
        elif kind == "boost_at":
            self.chars[cid].boost_at += R["spell_boost"]
        elif kind == "boost_df":
            self.chars[cid].boost_df += R["spell_boost"]
        elif kind == "summon":
            ch = self.chars[cid]
            ch.pos = self.master(seat).pos
            self.emit("moved", char=cid, pos=list(ch.pos), area=self.area(ch.pos))
        elif kind == "suicide":
            self._kill(self.chars[cid], "suicide")

    def seat_bonus(self, kind: str, seat: int) -> int:
        """What ``seat`` gets at the start on top of the rest [R-7] (scenarios state their own
        hands and 令呪, so a game set up by a scenario gets none)."""
        values = self.pack.rules["seat_bonus"][kind]
        return values[seat] if seat < len(values) else 0

    # ------------------------------------------------------------------ the game
    def round_order(self, round_: int) -> list[int]:
        """The seats in the order they play round ``round_`` [R-7]: ``fixed``: seat 0 first
        every round; ``rotate``: the first seat moves one seat on each round; ``snake``: the
        order reverses every round (…, the last seat of a round plays first in the next)."""
        how = self.pack.rules["turn_order"]
        seats = list(range(self.n))
        if how == "rotate":
            k = (round_ - 1) % self.n
            return seats[k:] + seats[:k]
        if how == "snake" and round_ % 2 == 0:
            return seats[::-1]
        return seats

    def _run(self) -> Flow:
        from fuyuki.board import phases

        order = self.round_order(self.round)
        start = order.index(self.turn_seat)      # a set-up game may start in mid-round
        try:
            while True:
                for i, seat in enumerate(order):
                    if i < start or self.camps[seat].out:
                        continue
                    self.turn_no = i + 1
                    yield from phases.turn(self, seat)
                order, start = self.round_order(self.round + 1), 0
                if self.round >= self.pack.rules["max_rounds"]:
                    self.result = self._outcome("round_limit")
                    self.phase = "over"
                    self.emit("game_over", winner=None, reason="round_limit")
                    return
                self.round += 1
        except _GameOver:
            return
