"""The Servant Big Battle engine: the decision protocol over a stack of rule steps.

The rules run as *steps* (plain tuples on ``state.stack``). A step may push more steps or
ask for decisions; asking stops the run until every asked seat has answered through
:meth:`Game.submit`, then the step's continuation runs with the answers. Because steps are
plain data, :meth:`Game.clone` is a copy of a few lists.

Where each rule lives: the protocol, decks, card facts and the end check here; setup and
drafts in :mod:`fuyuki.sbb.setup`; gems, bids, reveal, events, the draw step and the round's
end in :mod:`fuyuki.sbb.rounds`; battles in :mod:`fuyuki.sbb.battle`; losses, preventions
and reactions in :mod:`fuyuki.sbb.losses`; what a seat may see in :mod:`fuyuki.sbb.view`.
"""

from __future__ import annotations

import secrets
from typing import Any, Final, NoReturn

from mypy_extensions import mypyc_attr

from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.core.events import Event, Logged
from fuyuki.core.protocol import Decision, NativeBot, check_choice
from fuyuki.core.record import Record
from fuyuki.core.rng import Rng, shuffle, stream
from fuyuki.sbb.abilities import Ability
from fuyuki.sbb.cards import NO_CARD, Master, Servant, card_table
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.state import Op, State, falses, insert_sorted, insert_unique
from fuyuki.sbb.view import build_seen, build_view

#: what a step asked, answered: the choice of each asked seat
Answers = dict[int, Any]
#: the data keys of the most frequent events, logged compactly (Game.log). Typed
#: ``tuple[str, ...]``: the compiled build keeps one tuple object for it (a fixed-length tuple
#: type is a C struct there, made into a new tuple object at every use — see _build)
FLIP: Final[tuple[str, ...]] = ("seat", "what", "card")
DRAW: Final[tuple[str, ...]] = ("seat", "cards")
DRAWS: Final[tuple[str, ...]] = ("seats", "hands")
#: each seat's one-seat audience, made once (a private event's ``to``)
ONLY: Final[tuple[tuple[int, ...], ...]] = tuple([(p,) for p in range(16)])
#: the asking and answers of a state that asks nobody (after the last answer, at the end), and
#: the answers of an ask nobody has answered yet: one shared empty dict, never changed (ask puts
#: a new asking dict; the first answer to several seats a new answers dict)
NOBODY: Final[dict[int, Any]] = {}
#: the steps every game pushes, made once (a literal step tuple of constants is a new tuple at
#: each use in the compiled build: a fixed-length tuple type is a C struct there)
SETUP: Final[Op] = ("setup",)
ROUND_START: Final[Op] = ("round_start",)
#: the RNG version of a new game (fuyuki.core.rng); a record keeps its game's version in its
#: config ("rng", absent for version 1: the records made before version 2), and a replay
#: passes it back to new_game
RNG_VERSION: Final = 2


class Runner:
    """What runs the rule stack: :class:`fuyuki.sbb.steps.Steps`, which knows every step. A
    class, not a function in a list: the compiled build calls its method natively (a function
    kept as an object is called through a generic call)."""

    def run(self, g: Game) -> None:
        raise NotImplementedError

    def go_on(self, g: Game, cont: Op, answers: Answers) -> None:
        """Run the step ``cont + (answers,)`` (an answered question's continuation), then the
        rule stack."""
        raise NotImplementedError


#: the one Runner (set when fuyuki.sbb is imported — game.py cannot import the step modules,
#: they import it)
RUNNER: Final[list[Runner]] = []


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class Game:
    """One game. Use :func:`new_game`."""

    def __init__(self, rules: Rules, state: State, record: Record, quiet: bool = False) -> None:
        self.rules = rules
        #: the card set's table: every card's int and facts (fuyuki.sbb.cards.CardTable)
        self.t = card_table(rules.cards)
        self.s = state
        self.record = record
        #: the record's submissions (the list itself: appended to at each submit)
        self.submissions = record.submissions
        self.quiet = quiet
        #: the kinds of event a quiet game still keeps, on :attr:`kept` (None: none) — for a
        #: reader that reads only these, such as the simulator's game summary: the game writes
        #: no log, and keeps these events as they would be on it, in its order
        self.keep: frozenset[str] | None = None
        self.kept: list[Logged] = []
        #: whether seed + record replay this game (a game begun by :func:`make_game` and its
        #: clones; not one built from a scenario): :meth:`play_bots` may leave its log unwritten
        self.replayable = False
        #: stop after each round's end check (phase "paused") until :meth:`resume`
        self.pause_at_round_end = False
        # the parent's extra-gem decision and the lands it was made for (:meth:`gem_decision`)
        self._gem_decision: Decision | None = None
        self._gem_lands: list[int] | None = None

    # ------------------------------------------------------------------ the public door
    @property
    def over(self) -> bool:
        return self.s.over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.s.result

    @property
    def events(self) -> list[Event]:
        return self.s.events

    @property
    def players(self) -> int:
        return self.s.n

    def pending(self) -> dict[int, Decision]:
        """Every open decision, by seat (already answered seats are left out). A seat's
        decision is that seat's private information: show it to nobody else."""
        s = self.s
        if s.over:
            return {}
        if not s.answers:
            return dict(s.asking)
        return {seat: d for seat, d in s.asking.items() if seat not in s.answers}

    def submit(self, seat: Any, choice: Any) -> None:
        """Answer ``seat``'s open decision. Raises :class:`IllegalAction` (and changes
        nothing) if the seat has no open decision or the choice is not an option. ``seat`` is
        typed Any so that the compiled build refuses ``"0"`` or ``None`` with
        IllegalAction("no_such_seat") rather than a TypeError."""
        s = self.s
        decision = s.asking.get(seat) if type(seat) is int else None
        if decision is None or seat in s.answers or s.over:
            self._refuse(seat)
        self._answer(seat, decision, choice)

    def _answer(self, seat: int, decision: Decision, choice: Any) -> None:
        """:meth:`submit` for a seat known to have ``decision`` open: ``choice`` checked
        (IllegalAction, nothing changed, if it is not an option), recorded, and the rules run
        on when it is the last answer asked for."""
        for option in decision.options:   # (a bot answers with the option itself: no compare)
            if option is choice:
                break
        else:
            choice = check_choice(decision, choice)
        s = self.s
        self.submissions.append((seat, choice))
        asking = s.asking
        if len(asking) == 1:
            # the one seat asked has answered: the answers are the ask's own dict, the answer
            # in its decision's place (the state's alone: asked with a new dict, copied by a
            # clone) — no answers dict made
            asking[seat] = choice
            self._go_on(asking)
            return
        answers = s.answers
        if answers is NOBODY:   # the first answer to a question to several seats
            answers = s.answers = {}
        answers[seat] = choice
        if len(answers) == len(asking):
            self._go_on(answers)

    def _go_on(self, answers: Answers) -> None:
        """Every seat asked has answered: run the ask's continuation with ``answers`` — at
        once, as the next step it is (not put on the stack to be taken off again)."""
        s = self.s
        cont = s.cont
        s.asking, s.answers, s.cont = NOBODY, NOBODY, ()
        RUNNER[0].go_on(self, cont, answers)

    def play_bots(self, bots: Any, limit: int = 0, keep_log: bool = False) -> int:
        """Play the game to its end, each open decision answered by ``bots[seat]`` from that
        seat's own view (built only for a bot whose ``needs_view`` is true); return how many
        decisions were answered. The bots-only fast path of
        :func:`fuyuki.sbb.agents.play_out`: the same submissions in the same order, each
        checked and written to the record as :meth:`submit` does. A bot whose
        ``reads_seen`` is true is given the compact :class:`~fuyuki.sbb.view.Seen` of its
        view instead of the view, or None for a decision with a single option or of a kind in
        its ``blind_kinds``. Past ``limit`` decisions (if > 0) a FuyukiError says the
        game did not end.

        The event log is not written meanwhile (the record is) when no bot reads a view built
        from it and the game replays from its record (:attr:`replayable`), unless
        ``keep_log``: a game that ends is given its log when someone first reads it
        (:attr:`fuyuki.sbb.state.State.log`, by replaying the record — the same events); one
        that stops before its end (a bot's illegal answer, ``limit``), at once."""
        s = self.s
        needs = [bool(bots[seat].needs_view) for seat in range(s.n)]
        # (getattr's default costs an exception: asked only of the bots that read a view)
        seen = [needs[seat] and bool(getattr(bots[seat], "reads_seen", False))
                for seat in range(s.n)]
        blind: list[Any] = [getattr(bots[seat], "blind_kinds", ()) if seen[seat] else ()
                            for seat in range(s.n)]
        # a compiled bot's choose is called natively; any other's bound choose is looked up
        # once (a method look-up per decision otherwise)
        native: list[NativeBot | None] = []
        choose: list[Any] = []
        for seat in range(s.n):
            bot = bots[seat]
            native.append(bot if isinstance(bot, NativeBot) else None)
            choose.append(bot.choose)
        skip_log = (not keep_log and not self.quiet and self.replayable
                    and not self.pause_at_round_end and s.unlogged is None
                    and not any(needs[seat] and not seen[seat] for seat in range(s.n)))
        if not skip_log:
            return self._play_bots(needs, seen, blind, native, choose, limit)
        start = len(self.submissions)
        self.quiet = True
        try:
            return self._play_bots(needs, seen, blind, native, choose, limit)
        finally:
            self.quiet = False
            if len(self.submissions) > start:
                s.unlogged = (self.record, self.rules, len(self.submissions), fingerprint(s))
                if not s.over:   # now: the game may go on through submit
                    try:
                        s.fill_log()
                    except FuyukiError:
                        pass   # a state changed outside submit: every read of the log says so

    def _play_bots(self, needs: list[bool], seen: list[bool], blind: list[Any],
                   native: list[NativeBot | None], choose: list[Any], limit: int) -> int:
        """:meth:`play_bots`' loop."""
        s = self.s
        count = 0
        while not s.over:
            # (the dicts themselves, no list of the items: an answer adds to ``answers`` and
            # never changes ``asking``, the last one replaces both — so the loop ends with the
            # answer that runs the rules on, every seat after it having answered before it)
            asking, answers = s.asking, s.answers
            early = len(answers) > 0   # a seat answered before play_out (no look-up otherwise)
            for seat, d in asking.items():
                if early and seat in answers:
                    continue
                view: Any = None
                if seen[seat]:
                    if len(d.options) > 1 and d.kind not in blind[seat]:
                        view = build_seen(self, seat)
                elif needs[seat]:
                    view = self.view(seat)
                # (not through submit: this seat's decision is known to be open)
                nb = native[seat]
                self._answer(seat, d, nb.choose(view, d) if nb is not None
                             else choose[seat](view, d))
                count += 1
            if 0 < limit <= count:
                from fuyuki.core.errors import FuyukiError
                raise FuyukiError(f"the game did not end within {limit} decisions")
        return count

    def _refuse(self, seat: Any) -> NoReturn:
        s = self.s
        if s.over:
            raise IllegalAction("game_over", "the game is over")
        if type(seat) is not int or not 0 <= seat < s.n:
            raise IllegalAction("no_such_seat", f"there is no seat {seat!r}", seat=seat)
        if seat in s.answers:
            raise IllegalAction("already_submitted", f"seat {seat} has already answered",
                                seat=seat)
        raise IllegalAction("not_your_turn", f"seat {seat} has no decision to make now",
                            seat=seat)

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). The only door out of the engine;
        IllegalAction("no_such_role") for any other role."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.s.n):
            raise IllegalAction("no_such_role", f"this game has no role {seat!r}", role=seat)
        return build_view(self, seat)

    def visible_events(self, seat: int | None, start: int = 0) -> list[Event]:
        """The events from index ``start`` that ``seat`` may see (part of the view door)."""
        return [e for e in self.s.events[start:] if e.to is None or (seat is not None and seat in e.to)]

    # ------------------------------------------------------------------ the contract's rest
    # (fuyuki.core.contract.Engine; none of it is on the play loop's path)
    def roles(self) -> list[Any]:
        """Every role :meth:`view` answers: each seat, then ``None`` (a spectator)."""
        out: list[Any] = list(range(self.s.n))
        out.append(None)
        return out

    def seats(self) -> list[int]:
        return list(range(self.s.n))

    @property
    def step(self) -> int:
        """Events logged so far (a position for :meth:`events_for`)."""
        return len(self.s.events)

    def events_for(self, role: Any, since: int = 0) -> list[Event]:
        """The events from step ``since`` on that ``role`` may see."""
        return self.visible_events(role if type(role) is int else None, max(since, 0))

    def clone(self) -> "Game":
        rec = Record(self.record.game, self.record.seed, self.record.config,
                     self.record.submissions.copy())
        game = Game(self.rules, self.s.clone(), rec, self.quiet)
        game.pause_at_round_end = self.pause_at_round_end
        game.replayable = self.replayable
        return game

    def resume(self) -> None:
        """Start the next round after a pause at a round's end."""
        if self.s.phase == "paused" and not self.s.over:
            self.then(ROUND_START)
            self._run()

    # ------------------------------------------------------------------ for the steps
    def emit(self, _kind: str, /, to: tuple[int, ...] | None = None, **data: Any) -> None:
        # ``_kind``, not ``kind``: events carry a ``kind=`` datum too, and mypyc (mypy 2.4)
        # drops a keyword argument that shares its name with a positional-only parameter.
        if not self.quiet:
            self.s._log.append((_kind, to, None, data))
        elif self.keep is not None and _kind in self.keep:
            self.kept.append((_kind, to, None, data))

    def logs(self, kind: str) -> bool:
        """Whether an event of ``kind`` is written (a game that logs, or a quiet one that
        keeps that kind): a step asks before it builds data only an event carries."""
        return not self.quiet or self.keep is not None and kind in self.keep

    def logs_draws(self) -> bool:
        """Whether draws are written (:meth:`log_draws`' public or private events)."""
        return self.logs("draws") or self.logs("draw")

    def log(self, event: tuple[Any, ...]) -> None:
        """:meth:`emit` for the most frequent events, given as one tuple ``(kind, to, keys,
        *values)``: the audience (None: everyone), the data's keys (a constant of the module
        that logs them) and their values, kept as they are on ``state.log``
        (fuyuki.core.events.Logged) until someone reads the event — the same event to every
        reader."""
        if not self.quiet:
            self.s._log.append(event)
        elif self.keep is not None and event[0] in self.keep:
            self.kept.append(event)

    def then(self, step: Op) -> None:
        """Run ``step`` next, before anything already scheduled (several: :meth:`then_all`).
        One step, not ``*steps``: packing the arguments into a tuple costs a generic call in
        the compiled build, more than the push."""
        self.s.stack.append(step)

    def then_all(self, steps: list[Op]) -> None:
        """:meth:`then` for a list of steps (a call with ``*steps`` costs a generic call in
        the compiled build; so does ``extend(reversed(...))``)."""
        stack = self.s.stack
        for i in range(len(steps) - 1, -1, -1):
            stack.append(steps[i])

    def ask(self, decisions: dict[int, Decision], cont: Op) -> None:
        """Ask every seat in ``decisions`` (a new dict: the state's from now on); when all have
        answered, run ``cont + (answers,)``. (The answers dict is made at the first answer to
        several seats: NOBODY until then.)"""
        s = self.s
        s.asking, s.answers, s.cont = decisions, NOBODY, cont

    def gem_decision(self) -> Decision:
        """The parent's extra-gem decision (a land among the table's), made once for the
        table's lands and given again each round (decisions are immutable; the lands change
        only at the setup)."""
        lands = self.s.lands
        d = self._gem_decision
        if d is None or self._gem_lands is not lands:
            d = self._gem_decision = Decision("place_gem", self.t.names_tuple(lands))
            self._gem_lands = lands
        return d

    def _run(self) -> None:
        """Run the rule stack until a decision is asked or the game ends."""
        RUNNER[0].run(self)

    def flip(self, seat: int, what: str) -> None:
        """Turn a seat's master or servant face up (a public event naming the card)."""
        s = self.s
        ups = s.m_up if what == "master" else s.s_up
        if not ups[seat]:
            ups[seat] = True
            card = s.master[seat] if what == "master" else s.servant[seat]
            self.log(("flip", None, FLIP, seat, what, self.t.names[card]))

    def fires(self, seat: int) -> None:
        """A master ability fires: a master still on the table turns face up first, so that
        its event never names a card face down [R-35]."""
        if self.s.master[seat]:
            self.flip(seat, "master")

    # ------------------------------------------------------------------ card facts
    def master_card(self, seat: int) -> Master:
        m = self.t.masters[self.s.master[seat]]
        assert m is not None, f"seat {seat} has no master"
        return m

    def servant_card(self, seat: int) -> Servant:
        sv = self.t.servants[self.s.servant[seat]]
        assert sv is not None, f"seat {seat} has no servant"
        return sv

    def ab(self, seat: int) -> Ability:
        """The seat's master's ability (its hooks: fuyuki.sbb.abilities)."""
        return self.master_card(seat).hooks

    def mana(self, seat: int) -> int:
        """The seat's 魔力 (hand limit): the master's (dark 桜 5), バーサーカー face up −1."""
        if not self.rules.hand_limit:
            return self.rules.hand_size  # v1.x: no 魔力, the same hand size for all
        m = self.master_card(seat)
        mana = m.hooks.mana(m, self.s.dark[seat])
        if self.rules.berserker_penalty and self.s.s_up[seat]:
            mana -= self.servant_card(seat).hand_penalty
        return max(mana, 0)

    def power(self, seat: int) -> int:
        sv = self.servant_card(seat)
        power = self.rules.power_override.get(sv.id, sv.power)
        if self.s.dark[seat]:
            power += self.ab(seat).dark_power()
        return power

    def victory_target(self, seat: int) -> int:
        return self.ab(seat).victory_target(self.rules)

    def check_end(self) -> bool:
        """End the game if an end condition is met now (a round's end, or after every step
        when ``end_timing`` is "immediate"); grail and pool are checked elsewhere."""
        s, r = self.s, self.rules
        if s.over:
            return True
        if r.coins:  # 聖杯大戦争: only one player holding every coin ends the game
            total = sum(s.coins)
            for i in range(s.n):
                if total and s.coins[i] == total:
                    self.end_game("coins", [i])
                    return True
            return False
        if r.vessel_ends_game:  # v1.x 聖杯の器: she wins at once, the others rank by gems
            for i in s.order():
                m = self.t.masters[s.master[i]]
                at = m.hooks.wins_at_once(r) if m else None
                if at is not None and s.gems[i] >= at:
                    self.flip(i, "master")
                    self.end_game("vessel", [i])
                    return True
        target = r.lowest_target
        for gems in s.gems:   # (a loop: max() is a generic call of a builtin when compiled)
            if gems >= target:
                break
        else:
            return False   # the fast path: nobody near a victory
        reached = [i for i in range(s.n)
                   if s.master[i] and 0 < self.victory_target(i) <= s.gems[i]]
        if reached:
            for i in reached:
                if self.victory_target(i) < r.victory_gems:  # a master's own condition fired
                    self.flip(i, "master")
            best = max(s.gems[i] for i in reached)
            self.end_game("victory", [i for i in reached if s.gems[i] == best])
            return True
        return False

    def luck_possible(self) -> bool:
        """強運 is offered while it could be in some hand: not face up in the discard, not
        on the table as a bid this round, and only in an edition that has it."""
        s = self.s
        for card in s.luck_cards:
            if not has_card(s.adisc, card) and not has_card(s.bids, card):
                return True
        return False

    def holds_luck(self, seat: int) -> int:
        """The 強運 card ``seat`` holds (NO_CARD: none)."""
        for card in self.s.luck_cards:
            if has_card(self.s.hand[seat], card):
                return card
        return NO_CARD

    # ------------------------------------------------------------------ decks
    def take_action_card(self, seat: int) -> int:
        """Move the top action card to ``seat``'s hand (reshuffling the discard into a new
        deck when it is empty), in its place in the hand's order; NO_CARD if there is none.
        Logs only the reshuffle."""
        s = self.s
        if not s.adeck:
            if self.rules.deck_out == "end" and not self.rules.unlimited_gems:
                self.end_game("deck_out")
                return NO_CARD
            if not s.adisc:
                return NO_CARD
            s.adeck = s.adisc
            s.adisc = []
            shuffle(s.rng, s.adeck)
            self.emit("reshuffle", deck="action", size=len(s.adeck))
        card = s.adeck.pop()
        insert_sorted(s.hand[seat], card)
        return card

    def draw_action(self, seat: int) -> bool:
        """Draw one action card, logged."""
        card = self.take_action_card(seat)
        if card:
            self.log_draws([seat], [[self.t.names[card]]])
        return card != NO_CARD

    def log_draws(self, seats: list[int], cards: list[list[str]]) -> None:
        """One public event with who drew (``seats``, in the order they drew) and their hand
        sizes, one private event per seat with the ids of the cards it drew (``cards[i]``:
        ``seats[i]``'s). Both lists become event data: the caller makes them for this call."""
        if not seats or not self.logs_draws():
            return
        hand = self.s.hand
        for i in range(len(seats)):
            seat = seats[i]
            self.log(("draw", only(seat), DRAW, seat, cards[i]))
        self.log(("draws", None, DRAWS, seats, [len(hand[seat]) for seat in seats]))

    def draw_card(self, kind: str) -> int:
        """Draw a master or servant (``kind``), reshuffling its discard when empty [R-20];
        NO_CARD if there is none."""
        s = self.s
        deck = s.mdeck if kind == "master" else s.sdeck
        if not deck:
            disc = s.mdisc if kind == "master" else s.sdisc
            if not disc:
                return NO_CARD
            deck.extend(disc)
            disc.clear()
            shuffle(s.rng, deck)
            self.emit("reshuffle", deck=kind, size=len(deck))
        return deck.pop()

    # ------------------------------------------------------------------ the end
    def ranking(self, winners: list[int]) -> list[list[int]]:
        """Places after the game: the winners first, then the others by gems (coins in
        聖杯大戦争), most first; equal counts share a place."""
        s = self.s
        key = s.coins if self.rules.coins else s.gems
        won = falses(s.n)
        for i in winners:
            won[i] = True
        # the others' counts, each once (no set, sort or ``in`` on a list: generic when
        # compiled), then their places from the most
        rest: list[int] = []
        for i in range(s.n):
            if not won[i]:
                insert_unique(rest, key[i])
        places = [list(winners)] if winners else []
        for k in range(len(rest) - 1, -1, -1):
            v = rest[k]
            places.append([i for i in range(s.n) if not won[i] and key[i] == v])
        return places

    def end_game(self, reason: str, winners: list[int] | None = None) -> None:
        s = self.s
        if s.over:
            return
        if winners is None:
            key = s.coins if self.rules.coins else s.gems
            best = max(key)
            winners = [i for i in range(s.n) if key[i] == best]
        s.over = True
        del s.stack[1:]   # (state.BOTTOM stays)
        s.asking, s.answers, s.cont = NOBODY, NOBODY, ()
        s.phase = "over"
        s.result = {"winners": winners, "draw": len(winners) != 1, "reason": reason,
                    "gems": list(s.gems), "rounds": s.round,
                    "ranking": self.ranking(winners)}
        if self.rules.coins:
            s.result["coins"] = list(s.coins)
        if self.logs("game_over"):
            self.emit("game_over", reason=reason, winners=winners, gems=list(s.gems))


def only(seat: int) -> tuple[int, ...]:
    """The audience of an event only ``seat`` may see: ``(seat,)``, the same tuple each time
    (:data:`ONLY`) for all but very large tables."""
    return ONLY[seat] if seat < len(ONLY) else (seat,)


def has_card(cards: list[int], card: int) -> bool:
    """``card in cards``, as a loop over native ints (``in`` on a list is a generic containment
    test in the compiled build, several times dearer for a few cards)."""
    for c in cards:
        if c == card:
            return True
    return False


def remove_card(cards: list[int], card: int) -> None:
    """``cards.remove(card)`` (its first copy), found by a loop over native ints (``remove`` is
    a generic comparison per card in the compiled build). ValueError if it is not there."""
    for i in range(len(cards)):
        if cards[i] == card:
            cards.pop(i)
            return
    raise ValueError(f"card {card} is not in {cards}")


def flip(g: Game, seat: int, what: str) -> None:
    """Turn a seat's master or servant face up (a public event naming the card)."""
    g.flip(seat, what)


# ---------------------------------------------------------------------- construction
def new_game(players: int = 4, seed: int | None = None, rules: Rules | None = None,
             *, quiet: bool = False, rng: int = RNG_VERSION) -> Game:
    """A new game of ``players`` seats. ``rules`` default to the final edition; ``rng`` is
    the RNG version (a replay passes its record's: :func:`rng_version`)."""
    game = make_game(players, seed, rules, quiet, rng)
    game.s.stack.append(SETUP)
    game._run()
    return game


def make_game(players: int, seed: int | None, rules: Rules | None, quiet: bool,
              rng: int = RNG_VERSION, rng_stream: Rng | None = None) -> Game:
    """A game before its first step (:func:`new_game` and the setup hook of
    :mod:`fuyuki.sbb.setup_overrides` start from here): the seat count checked, a seed drawn
    if none is given, the state and the record made. ``rng_stream``: the game's random stream
    made ahead by :func:`game_stream` (the simulator hashes a chunk's seeds before playing
    it), else made here."""
    rules = rules or default_rules()
    check_player_count(rules, players)
    if seed is None:
        seed = secrets.randbelow(2**31)
    state = State(players, rng_stream or game_stream(seed, rng))
    config: dict[str, Any] = {"players": players, "edition": rules.edition, "mode": rules.mode,
                              "options": list(rules.options)}
    if rng != 1:
        config["rng"] = rng
    game = Game(rules, state, Record("sbb", seed, config), quiet)
    game.replayable = True
    return game


def game_stream(seed: int | str, rng: int = RNG_VERSION) -> Rng:
    """The random stream of the game of ``seed`` (RNG version ``rng``; the seed as an int or
    as its decimal digits: the same stream)."""
    return stream(seed, "sbb", rng)


def fingerprint(s: State) -> tuple[Any, ...]:
    """What a replay of a game's record must reproduce for the log it writes to be this
    game's (:func:`replayed_log`)."""
    return (s.round, s.over, s.phase, s.result, s.gems.copy(), s.gems_on.copy(), s.lands.copy(),
            s.master.copy(), s.servant.copy(), [h.copy() for h in s.hand], s.adisc.copy())


def replayed_log(unlogged: tuple[Any, ...]) -> list[Logged]:
    """The event log of a game that bots played without writing it (``State.unlogged``: its
    record, rules, submission count and :func:`fingerprint`): the same game replayed from the
    record, its log kept. A
    FuyukiError if the replay does not end where the game did (its state was changed other
    than through ``submit`` while it was kept: the log cannot be known)."""
    from fuyuki.sbb.setup_overrides import replay

    record, rules, count, then = unlogged
    g = replay(Record(record.game, record.seed, record.config, record.submissions[:count]), rules)
    if fingerprint(g.s) != then:
        raise FuyukiError("this game's event log was not written while bots played it, and its "
                          "record does not replay to the same game (was its state changed "
                          "other than through submit?): the log cannot be made")
    return g.s.log


def rng_version(config: dict[str, Any]) -> int:
    """The RNG version a record's ``config`` was played with (1 when it names none)."""
    version = config.get("rng", 1)
    return version if type(version) is int else 1


def check_player_count(rules: Rules, players: int) -> None:
    """IllegalAction("bad_players"), saying why, unless ``rules`` seat ``players``."""
    if players not in rules.players:
        from fuyuki.sbb.modes import player_limit_reason

        raise IllegalAction("bad_players", f"{players} players is not allowed in this game: "
                            f"{player_limit_reason(rules, players)} "
                            f"(allowed: {list(rules.players)})", players=players)


_DEFAULT: list[Rules] = []


def default_rules() -> Rules:
    if not _DEFAULT:
        _DEFAULT.append(Rules.preset("final"))
    return _DEFAULT[0]
