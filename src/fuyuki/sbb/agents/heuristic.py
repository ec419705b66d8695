"""The heuristic bot: plays sensibly from its own view only.

A bid is rated by a small model of the table: each other seat with cards bids one of the
action cards this seat cannot see (counted from the view: the lands' cards less its hand and
the discard), on a land drawn toward the gems (``GEM_PULL``), and adds it to its servant's
power — the power its view shows when the servant is face up, else the mean power of the
servants this seat cannot see. From that, a 出撃 is worth the gems times the chance nobody
beats it, a 宝具 the gems (and its effect, unless a visible アヴェンジャー or ゴッドハンド
spoils it) times the chance somebody meets it and loses; a bid that a rival's 宝具 may beat
costs the gem and the servant that battle would take; gems that would meet the victory
condition count extra, and spending a strong card costs a little. As the parent it puts
its extra gem where its best bid then gains most (rivals drawn to the gems may be lured
away from its land). It protects a lead (聖杯出現 when ahead by the richest land's gems)
and uses its abilities (宝石魔術 when the battle's outcome it buys — a win or a share of a
tie, 蛇 and フラガラック counted — is worth the card, 強運 against an effect aimed at it,
身代わり, つばめ返し on the richest victim). Its numbers are the bot's judgement, not rules;
they were tuned with ``benchmarks/bot_paired.py`` against random and earlier heuristic bots.

Speed: this module is compiled with the engine (``fuyuki._build.COMPILED``) and typed for it.
It reads a view through :class:`~fuyuki.sbb.view.Seen` (typed fields of the view; in
``Game.play_bots`` the engine builds it without building the view's dicts: ``reads_seen``).
The rating reads its cards as ints of the bot's card table (the game's ints when the game's
table is the bot's own; a view's or another table's names are numbered once,
:func:`~fuyuki.sbb.view.seen_in_table`; a name the card set lacks reads as no card), so its
look-ups are list indexings, not dict look-ups by name. A bid's rating reads it once
(:class:`BidTable`: what does not change with the lands' gems; the unseen cards as copies
left by card int, :class:`Unseen`), so the parent's extra gem rates its bids on each land
from one reading; the card facts come from the card set's
:class:`~fuyuki.sbb.cards.CardTable` and :class:`CardFacts`, built once per card set. The
arithmetic is the same, operation for operation (or, for the chances, sums of 1s and halves,
exact in any order): ``tests/sbb/test_bot_choices.py`` checks that the bot makes the choices
and gives the bid scores, bit for bit, that it did before (recorded again once, when its
noise moved from a Mersenne Twister to RNG version 2's stream: its choices, not its rating,
changed).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from fuyuki.core.protocol import Decision, NativeBot
from fuyuki.core.rng import Rng, stream
from fuyuki.sbb.cards import (ACTION, COLOURS, N_COLOURS, CardSet, CardTable, Servant,
                               card_table, card_value)
from fuyuki.sbb.state import falses, zeros
from fuyuki.sbb.view import Seen, seen_in_table, seen_of_view

# 綺礼 before 臓硯: against three random bots the heuristic took 0.599 with 綺礼, 0.566 with 臓硯
# (40,000 games from seed 1200000, each the best master left in its pack). 葛木 (蛇) right after
# 凛, before イリヤ: +0.005 against three random bots (paired, 20,000 games from seeds 600000
# and 1000000 each; 葛木 at 5 before), +0.019 against three heuristic bots (8,000 games); 葛木
# first, before 凛, gained only +0.002, and 葛木 between イリヤ and 綺礼 the same as after 凛
# (Final, the three tables: compiled code reads them as constants, not from the module's dict)
MASTER_PREF: Final = {"rin": 9.5, "kuzuki": 9.2, "illya": 9, "kirei": 8.5, "zouken": 8,
                      "sakura": 6, "bazett": 6, "taiga": 4, "shinji": 3, "shirou": 3}
SERVANT_PREF: Final = {"gilgamesh": 10, "saber": 9, "berserker": 8, "lancer": 7, "rider": 7,
                       "caster": 6, "archer": 4, "true_assassin": 4, "assassin": 3, "avenger": 2}
# the servant draft's order: バーサーカー and ライダー before セイバー (against three random bots the
# heuristic took 0.594 with バーサーカー, 0.593 with ライダー and 0.578 with セイバー, 20,000 games);
# SERVANT_PREF still rates a servant in play (とりかえっこプリーズ, 身代わり, the hard bot's model)
DRAFT_SERVANT_PREF: Final = {"gilgamesh": 10, "berserker": 9, "rider": 8.5, "saber": 8,
                             "lancer": 7, "caster": 6, "archer": 4, "true_assassin": 4,
                             "assassin": 3, "avenger": 2}
# (Final: compiled code reads them as constants, not from the module's dict)
GEM_PULL: Final = 0.5   # how much a rival's choice of land follows the gems (0: a random colour)
EFFECT: Final = 1.0     # resolving my 宝具 against someone, beyond the gems
REACH: Final = 3.0      # the bonus of gems that would meet my victory condition
KEEP: Final = 0.12      # the cost of spending a card of value 1 (keep strong cards for later)
LOSS: Final = 1.0       # losing my servant in a battle: the gem I return
SERVANT_WORTH: Final = 0.3  # ... and per point of power my servant has above a fresh one's mean
JEWEL: Final = 0.5      # the cost of a card given up to 宝石魔術, beyond KEEP (the hand it leaves)


class Unseen:
    """The action cards a seat cannot see: how many copies of each action card (by its int)
    are left; how many sorties and 宝具 that leaves of the lands' colours (``has_land``, by
    the colour's index in ``COLOURS``), ``n_left[2 * colour]`` and ``n_left[2 * colour + 1]``
    (0 for a colour without a land); and how many cards are unseen in all (events included:
    the deck and the others' hands); and what the rating reads of them whatever the gems
    (:meth:`HeuristicBot._gem_totals`): ``n_actions``, the unseen action cards of the lands'
    colours, and ``pool``, the cards a rival may bid from (the unseen cards, at least those,
    at least 1)."""

    def __init__(self, left: list[int], n_left: list[int], has_land: list[bool],
                 count: int) -> None:
        # (read by the HeuristicBot that made it, valid until its next reading: the bot's
        # own list, :meth:`HeuristicBot._unseen_actions`)
        self.left = left
        self.n_left = n_left
        self.has_land = has_land
        self.count = count
        self.n_actions = 0
        self.pool = 1


class CardFacts:
    """What the bid's rating reads of a card set beyond its :class:`CardTable`: by colour
    (the index in ``COLOURS``), its action cards (:attr:`CardTable.actions`), its sortie cards
    and its 宝具 cards (each card once); by card int, the copies of each action card and its
    place in :attr:`Unseen.n_left`; how many sortie and 宝具 cards a colour has (also as
    ``n_left`` of every colour); how many servants there are and their total power, and by
    a servant's int a bit of its own (0 for other cards; ``servant_powers``: the power of
    each bit's servant, lowest bit first); by a master's int, the power its darkness adds
    and the gems that win its seat the game. Built once per card table
    (:func:`card_facts`)."""

    def __init__(self, cs: CardSet, t: CardTable) -> None:
        self.actions_of: list[list[int]] = [t.actions.get(ci, []) for ci in range(N_COLOURS)]
        self.sortie_cards: list[list[int]] = [[] for _ in range(N_COLOURS)]
        self.np_cards: list[list[int]] = [[] for _ in range(N_COLOURS)]
        self.copies = [0] * len(t.names)
        for ci, actions in enumerate(self.actions_of):
            for c in actions:
                if not self.copies[c]:
                    (self.np_cards if t.np[c] else self.sortie_cards)[ci].append(c)
                self.copies[c] += 1
        self.slot = [2 * t.colour[c] + (1 if t.np[c] else 0) if self.copies[c] else 0
                     for c in range(len(t.names))]
        # (a colour's cards: a sortie of each sortie value, a 宝具 of each 宝具 value)
        self.n_all_sorties = len(cs.sortie_values)
        self.n_all_nps = len(cs.np_values)
        self.full = [self.n_all_sorties, self.n_all_nps] * N_COLOURS
        self.n_servants = len(cs.servants)
        self.servant_power = sum([sv.power for sv in cs.servants.values()])
        self.servant_bit = [0] * len(t.names)
        self.servant_powers: list[int] = []
        for c, servant in enumerate(t.servants):
            if servant is not None:
                self.servant_bit[c] = 1 << len(self.servant_powers)
                self.servant_powers.append(servant.power)
        self.dark_power = [int(m.params.get("power", 0)) if m is not None else 0
                           for m in t.masters]
        # (final edition; イリヤ's 聖杯の器: 10)
        self.victory = [int(m.params.get("victory", 12))
                        if m is not None and m.ability == "vessel" else 12 for m in t.masters]


def card_facts(cs: CardSet, t: CardTable) -> CardFacts:
    """The :class:`CardFacts` of ``cs`` (whose table is ``t``), built once per table (kept in
    :attr:`CardTable.derived`, which lives as long as the table's own cache keeps it)."""
    facts = t.derived.get("heuristic")
    if facts is None:
        facts = t.derived["heuristic"] = CardFacts(cs, t)
    return facts


class BidTable:
    """What rating a bid reads from a view, apart from the lands' gems: read once per view."""

    def __init__(self, seen: Seen, land_colours: list[int], power: int,
                 servant: Servant | None, rivals: list[float], target: float, effect: float,
                 lands: Unseen, loss: float, lead: int) -> None:
        self.seen = seen
        self.land_colours = land_colours   # each of seen.lands's colour (its index in COLOURS)
        self.power = power            # my servant's power (1 if I have none)
        self.servant = servant
        self.rivals = rivals          # each bidding rival's power as I know it
        self.target = target          # the gems that meet my victory condition
        self.effect = effect          # what my 宝具's effect is worth beyond the gems
        self.lands = lands            # the unseen action cards of the lands' colours
        self.loss = loss              # what losing my servant in a battle costs
        self.lead = lead


@mypyc_attr(allow_interpreted_subclasses=True)   # the simulator's full-state variant
class HeuristicBot(NativeBot):
    name: ClassVar[str] = "heuristic"
    needs_view: ClassVar[bool] = True
    #: Game.play_bots may give it a Seen instead of the view — or None for a decision it
    #: answers without reading its view: one of ``blind_kinds``, or one with a single option
    reads_seen: ClassVar[bool] = True
    blind_kinds: ClassVar[frozenset[str]] = frozenset({"draft_master", "draft_servant"})

    def __init__(self, seed: int = 0, cards: CardSet | None = None) -> None:
        # RNG version 2 (fuyuki.core.rng.Stream): seeding a Mersenne Twister cost each bot
        # about 31,000 instructions, near a tenth of a heuristic game for its four bots, for
        # a few dozen draws (the noise on its bids and its extra gem)
        self._rng: Rng = stream(seed, "heuristic", 2)
        self._random = self._rng.random
        self._cards = cards
        self._table: CardTable | None = None
        self._facts: CardFacts | None = None
        # the action discard (card ints) last read, and the unseen cards' ``left`` and
        # ``n_left`` of :class:`Unseen` less that discard (:meth:`_less_discard`)
        self._disc: list[int] = []
        self._disc_left: list[int] = []
        self._disc_n_left: list[int] = []
        # the hand's cards taken off ``_disc_left`` itself at the last reading (the Unseen's
        # ``left`` until the next one: :meth:`_unseen_actions`)
        self._held: list[int] = []
        # the lands (card ints) last read and their colours (:meth:`_land_colours`)
        self._lands_read: list[int] = []
        self._land_cols: list[int] = []
        # the colours with a land (Unseen.has_land), and the lands' colours they were made of
        self._has_land: list[bool] = []
        self._has_land_of: list[int] | None = None

    @property
    def rng(self) -> Rng:
        """The bot's random numbers (the noise on its bids and its extra gem; the hard bot's
        search and the learned policy set their own)."""
        return self._rng

    @rng.setter
    def rng(self, rng: Rng) -> None:
        # (its ``random`` bound once: looked up by name, it is a new bound method each time)
        self._rng = rng
        self._random = rng.random

    @property
    def cards(self) -> CardSet:
        if self._cards is None:
            from fuyuki.sbb.game import default_rules
            self._cards = default_rules().cards
        return self._cards

    def _t(self) -> CardTable:
        """The card set's facts by card int."""
        if self._table is None:
            self._table = card_table(self.cards)
        return self._table

    def _f(self) -> CardFacts:
        """What the rating reads of the card set, by card int and by colour."""
        if self._facts is None:
            self._facts = card_facts(self.cards, self._t())
        return self._facts

    def choose(self, view: dict[str, Any] | Seen | None, decision: Decision) -> Any:
        """The choice for ``decision`` from this seat's view (or its :class:`Seen`; None will
        do for a decision with a single option or of a kind in :attr:`blind_kinds`)."""
        opts = decision.options
        if len(opts) == 1:
            return opts[0]
        kind = decision.kind
        if kind == "draft_master":
            return self._draft_master(decision)
        if kind == "draft_servant":
            return self._draft_servant(decision)
        assert view is not None, f"a {kind} decision needs the view"
        t = self._t()
        seen = view if isinstance(view, Seen) else seen_of_view(view, t)
        if seen.table is not t:   # (the ints of another card table, or none)
            seen = seen_in_table(seen, t)
        if kind == "bid":
            return self._bid(seen, decision)
        if kind == "place_gem":
            return self._place_gem(seen, decision)
        if kind == "luck":
            return self._luck(seen, decision)
        if kind == "substitute":
            return self._substitute(seen)
        if kind == "tsubame":
            return self._tsubame(seen, decision)
        if kind == "swap":
            return self._swap(seen, decision)
        if kind == "jewel":
            return self._jewel(seen, decision)
        return self.rng.choice(opts)

    # ------------------------------------------------------------ drafts and gems
    # (explicit loops rather than max(key=lambda ...): a closure in compiled code makes a
    # reference cycle, and the simulator pauses the cycle collector while games play)
    def _draft_master(self, d: Decision) -> Any:
        best: Any = None
        best_value = 0.0
        for c in d.options:   # max() by (value, id), the first of the best
            value = self.master_value(c)
            if best is None or value > best_value or (value == best_value and c > best):
                best, best_value = c, value
        return best

    def _draft_servant(self, d: Decision) -> Any:
        best: Any = None
        best_value = 0.0
        for c in d.options:   # max() by (value, id), the first of the best
            value = self.servant_value(c)
            if best is None or value > best_value or (value == best_value and c > best):
                best, best_value = c, value
        return best

    def master_value(self, c: str) -> float:
        """How much this bot wants master ``c`` in the master draft (:mod:`.belief` reads
        it as an opponent's draft preference)."""
        return MASTER_PREF.get(c, 5)

    def servant_value(self, c: str) -> float:
        """How much this bot wants servant ``c`` in the servant draft (:mod:`.belief` reads
        it as an opponent's draft preference)."""
        pref = DRAFT_SERVANT_PREF.get(c)   # (one look-up, not ``in`` and then another)
        if pref is not None:
            return pref
        sv = self.cards.servants.get(c)
        return sv.power * 2 if sv else 0

    def _place_gem(self, seen: Seen, d: Decision) -> Any:
        """The extra gem goes where my best bid would then be worth the most (the rivals
        are drawn toward the gems: a gem may also lure them away from my best land)."""
        if not seen.hand_ids:
            return d.options[0]
        values = self.place_scores(seen, d.options)
        best, best_score = d.options[0], -math.inf
        rand = self._random
        for land_id in d.options:
            score = values[land_id] + rand() * 0.01
            if score > best_score:
                best, best_score = land_id, score
        return best

    def place_scores(self, seen: Seen, options: Any) -> dict[str, float]:
        """What the extra gem on each land of ``options`` is worth to this seat: its best
        bid's score with the gem there (the hand must not be empty); :mod:`.belief` reads
        them as the parent's likelihoods."""
        cards = self._t()
        seen = seen_in_table(seen, cards)
        table = self.bid_table(seen)
        cols = table.land_colours
        # each option's gems on each colour's land and in all
        base = _gems_of(cols, seen.land_gems)
        opt_gems: list[list[int]] = []
        opt_total: list[int] = []
        best: list[float] = []   # each option's max() of the hand's scores
        n_actions = unseen = 0
        for land_id in options:
            gems = base.copy()   # (the lands' colours differ: the card set says so)
            land_c = cards.ids.get(land_id, -1)
            for k, land in enumerate(seen.land_ids):
                if land == land_c:
                    ci = cols[k]
                    gems[ci] = gems[ci] + 1   # (not +=: a generic in-place add when compiled)
            total_gems, n_actions, unseen = self._gem_totals(table, gems)
            opt_gems.append(gems)
            opt_total.append(total_gems)
            best.append(-math.inf)
        # (:meth:`_scores` of the hand on each land, card by card: an event card's score
        # does not depend on the gems; an action card's depends on the gems of its land and
        # in all, the same on most lands — each pair of them rated once, found in the short
        # lists ``done_*`` rather than a dict)
        n = len(opt_total)
        first = True
        for c in seen.hand_ids:
            if cards.kind[c] != ACTION:
                score = self._event_score(seen, c, table.lead)
                for o in range(n):
                    if first or score > best[o]:
                        best[o] = score
            else:
                ci = cards.colour[c]
                done_g: list[int] = []
                done_total: list[int] = []
                done_score: list[float] = []
                for o in range(n):
                    g = opt_gems[o][ci]
                    total_gems = opt_total[o]
                    j = 0
                    while j < len(done_g) and not (done_g[j] == g
                                                   and done_total[j] == total_gems):
                        j += 1
                    if j == len(done_g):
                        done_g.append(g)
                        done_total.append(total_gems)
                        done_score.append(self._action_score(table, c, g, total_gems,
                                                             n_actions, unseen))
                    score = done_score[j]
                    if first or score > best[o]:
                        best[o] = score
            first = False
        values: dict[str, float] = {}
        for o, land_id in enumerate(options):
            values[land_id] = best[o]
        return values

    # ------------------------------------------------------------ the bid
    def _power_of_card(self, servant: int, master: int, dark: bool, unknown: int = 0) -> int:
        """The power of the servant ``servant`` (its int of :meth:`_t`; ``unknown`` if none),
        with the dark master's bonus (``master``: its int)."""
        sv = self._t().servants[servant]
        power = sv.power if sv is not None else unknown
        if dark:
            power += self._f().dark_power[master]
        return power

    def _unseen_power(self, seen: Seen) -> float:
        """The mean power of the servants this seat cannot see: neither its own, nor face
        up, nor discarded."""
        f = self._f()
        # the servants seen, each once: a set of bits (CardFacts.servant_bit), no list of
        # them searched for each
        bit = f.servant_bit
        seen_bits = bit[seen.my_servant_id]
        for c in seen.servant_ids:   # (0: face down, no bit)
            seen_bits |= bit[c]
        for c in seen.disc_servant_ids:
            seen_bits |= bit[c]
        total = f.servant_power   # (ints: the sum is the same in any order)
        count = f.n_servants
        powers = f.servant_powers
        k = 0
        while seen_bits:
            if seen_bits & 1:
                total -= powers[k]
                count -= 1
            seen_bits >>= 1
            k += 1
        return total / count if count else 2.0

    def _rivals(self, seen: Seen, unseen: float) -> list[float]:
        """The other seats that will bid (cards in hand), each with its servant's power as
        this seat knows it (face up: exact; face down: ``unseen``, the mean of the unseen)."""
        rivals: list[float] = []
        for i, servant in enumerate(seen.servant_ids):
            if i != seen.seat and seen.hand_size[i] > 0:
                rivals.append(float(self._power_of_card(servant, seen.master_ids[i],
                                                        seen.dark[i]))
                              if servant else unseen)
        return rivals

    def _bid(self, seen: Seen, d: Decision) -> Any:
        table = self.bid_table(seen)
        gems = _gems_of(table.land_colours, seen.land_gems)
        total_gems, n_actions, unseen = self._gem_totals(table, gems)
        best: Any = None
        best_key = 0.0
        rand = self._random
        # max() of :meth:`_scores` (the engine's options are distinct cards), no dict of them
        for c in d.options:   # the first of the best
            key = self._score(table, c, gems, total_gems, n_actions, unseen) + rand() * 0.05
            if best is None or key > best_key:
                best, best_key = c, key
        return best

    def unseen_actions(self, view: dict[str, Any]
                       ) -> tuple[dict[str, list[int]], dict[str, list[int]], int]:
        """The action cards this seat cannot see (in the deck or the others' hands), counted
        from the view: every card of the lands' colours less my hand and the action discard.
        Returns the sortie values and the 宝具 values left per colour, and how many unseen
        cards there are in all (events included: the deck and the others' hands)."""
        seen = seen_of_view(view, self._t())
        u = self._unseen_actions(seen, self._land_colours(seen))
        t = self._t()
        f = self._f()
        gone = [n - k for n, k in zip(f.copies, u.left)]
        sorties: dict[str, list[int]] = {}
        nps: dict[str, list[int]] = {}
        for ci, colour in enumerate(COLOURS):
            if u.has_land[ci]:
                sorties[colour], nps[colour] = [], []
                for c in f.actions_of[ci]:   # the card set's order, the gone ones first
                    if gone[c]:
                        gone[c] -= 1
                    else:
                        (nps if t.np[c] else sorties)[colour].append(t.value[c])
        return sorties, nps, u.count

    def _unseen_actions(self, seen: Seen, land_colours: list[int]) -> Unseen:
        """:meth:`unseen_actions` of ``seen`` (``land_colours``: its lands' colours)."""
        f = self._f()
        unseen = seen.deck_action
        for i, size in enumerate(seen.hand_size):
            if i != seen.seat:
                unseen += size
        # every card of the lands' colours, less those of the discard and my hand (a card
        # is taken while copies of it are left: the order does not matter)
        self._less_discard(seen.disc_action_ids)
        # (the hand taken off ``_disc_left`` itself, and put back at the next reading: no
        # copy of a list of every card made and freed at each reading)
        # (the colours with a land made again only for other lands' colours: the same list
        # while the lands are, :meth:`_land_colours`; never changed by its readers)
        if land_colours is not self._has_land_of:
            has_land = falses(N_COLOURS)
            for ci in land_colours:
                has_land[ci] = True
            self._has_land, self._has_land_of = has_land, land_colours
        u = Unseen(self._disc_left, self._disc_n_left.copy(), self._has_land, unseen)
        held: list[int] = []
        _take(seen.hand_ids, u.left, u.n_left, f.slot, 0, held)
        self._held = held
        # (counted once per reading, not once per gem count rated)
        n_left = u.n_left
        n_actions = 0
        for ci in range(N_COLOURS):
            if u.has_land[ci]:
                n_actions += n_left[2 * ci] + n_left[2 * ci + 1]
            else:
                n_left[2 * ci] = n_left[2 * ci + 1] = 0
        pool = u.count   # max(u.count, n_actions, 1)
        if n_actions > pool:
            pool = n_actions
        if pool < 1:
            pool = 1
        u.n_actions, u.pool = n_actions, pool
        return u

    def _less_discard(self, disc: list[int]) -> None:
        """Make ``_disc_left`` and ``_disc_n_left`` every card less the action discard
        ``disc`` (card ints). The discard only grows until it is shuffled into the deck: the
        cards it had at the last reading were taken then, only the new ones are taken now
        (the hand taken at the last reading is put back first)."""
        f = self._f()
        left = self._disc_left
        for c in self._held:
            left[c] = left[c] + 1   # (not +=: a generic in-place add when compiled)
        self._held = []
        n = len(self._disc)
        # (first, reshuffled; the lists compared and the new cards read in place, no slices)
        if not self._disc_left or not _starts_with(disc, self._disc):
            self._disc_left, self._disc_n_left, n = f.copies.copy(), f.full.copy(), 0
        _take(disc, self._disc_left, self._disc_n_left, f.slot, n)
        self._disc = disc

    def bid_table(self, seen: Seen) -> BidTable:
        """What rating a bid reads from ``seen``, apart from the lands' gems."""
        t = self._t()
        seen = seen_in_table(seen, t)
        seat, gems = seen.seat, seen.gems
        other = gems[1 if seat == 0 else 0]   # the most gems of another seat (max())
        for i, g in enumerate(gems):
            if i != seat and g > other:
                other = g
        lead = gems[seat] - other
        power = self._power_of_card(seen.my_servant_id, seen.my_master_id, seen.my_dark,
                                    unknown=1)
        sv = t.servants[seen.my_servant_id]
        unseen_power = self._unseen_power(seen)
        rivals = self._rivals(seen, unseen_power)
        target = self._victory_target(seen)
        effect = self._np_effect_worth(seen, sv)
        loss = self._loss_cost(seen, power, unseen_power)
        cols = self._land_colours(seen)
        return BidTable(seen, cols, power, sv, rivals, target, effect,
                        self._unseen_actions(seen, cols), loss, lead)

    def _land_colours(self, seen: Seen) -> list[int]:
        """The colour (its index in ``COLOURS``) of each land of ``seen``."""
        t = self._t()
        lands = seen_in_table(seen, t).land_ids
        # (the lands rarely change: the last reading's colours again when they have not — a
        # list compare, cheaper than a new list; the list is never changed by its readers)
        if lands != self._lands_read:
            self._lands_read = lands.copy()
            self._land_cols = [t.colour[c] for c in lands]
        return self._land_cols

    def _colour_gems(self, seen: Seen) -> list[int]:
        """The gems on each colour's land (by the colour's index; 0 for no land)."""
        return _gems_of(self._land_colours(seen), seen.land_gems)

    def bid_scores(self, view: dict[str, Any], options: Any) -> dict[str, float]:
        """What each card of ``options`` is worth as this seat's bid (the bot bids the best,
        with a little noise); :mod:`.belief` reads them as an opponent's likelihoods.

        A rival's bid is one of the cards this seat cannot see (counted from the view), its
        land drawn toward the gems by ``GEM_PULL``."""
        seen = seen_of_view(view, self._t())
        table = self.bid_table(seen)
        return self._scores(table, _gems_of(table.land_colours, seen.land_gems), options)

    def _scores(self, t: BidTable, gems: list[int], options: Any) -> dict[str, float]:
        """:meth:`bid_scores` of ``options`` on the table ``t`` with ``gems`` on each colour's
        land."""
        total_gems, n_actions, unseen = self._gem_totals(t, gems)
        scores: dict[str, float] = {}
        for card in options:
            scores[card] = self._score(t, card, gems, total_gems, n_actions, unseen)
        return scores

    def _score(self, t: BidTable, card: str, gems: list[int], total_gems: int, n_actions: int,
               unseen: int) -> float:
        """The score of ``card`` as my bid on the table ``t`` with ``gems`` on each colour's
        land (:meth:`_gem_totals`: ``total_gems``, ``n_actions``, ``unseen``)."""
        cards = self._t()
        c = cards.ids.get(card, 0)
        if cards.kind[c] != ACTION:
            return self._event_score(t.seen, c, t.lead)
        return self._action_score(t, c, gems[cards.colour[c]], total_gems, n_actions, unseen)

    def _gem_totals(self, t: BidTable, gems: list[int]) -> tuple[int, int, int]:
        """With ``gems`` on each colour's land: the gems on the lands in all (1 if none), the
        unseen action cards of the lands' colours, and the cards a rival may bid from (the
        unseen cards, at least those, at least 1)."""
        u = t.lands   # (the last two do not depend on the gems: counted by _unseen_actions)
        has_land = u.has_land
        total_gems = 0
        for ci in range(N_COLOURS):
            if has_land[ci]:
                total_gems += gems[ci]
        if total_gems == 0:
            total_gems = 1
        return total_gems, u.n_actions, u.pool

    def _action_score(self, t: BidTable, c: int, g: int, total_gems: int, n_actions: int,
                      unseen: int) -> float:
        """The score of the action card ``c`` (its int) on the table ``t``, ``g`` gems on its
        land (:meth:`_gem_totals`: ``total_gems``, ``n_actions``, ``unseen``)."""
        u = t.lands
        left = u.left
        power, sv, rivals, mine = t.power, t.servant, t.rivals, t.seen.gems[t.seen.seat]
        cards = self._t()
        f = self._f()
        values, copies = cards.value, f.copies
        ci = cards.colour[c]
        # the sorties and 宝具 left of this colour (none left: every one of the card set)
        s_cards, n_cards = f.sortie_cards[ci], f.np_cards[ci]
        n_s, n_n = u.n_left[2 * ci], u.n_left[2 * ci + 1]
        s_left, s_size = left, n_s
        if s_size == 0:
            s_left, s_size = copies, f.n_all_sorties
        n_left, n_size = left, n_n
        if n_size == 0:
            n_left, n_size = copies, f.n_all_nps
        n_c = n_s + n_n
        # a rival bids on this land: an unseen card of its colour, drawn toward the gems
        pi = (1 - GEM_PULL) * n_c / unseen + GEM_PULL * g / total_gems * n_actions / unseen
        p_np = n_size / (n_size + s_size)
        value = values[c]
        total = power + value
        is_sortie = not cards.np[c]
        alone = clear = beaten = safe = 1.0
        last = 0.0   # the rivals face down share one power: their chances once
        first = True
        s_lt = n_lt = 0.0
        n_ge = 1.0   # a rival's 宝具 that wins this land destroys my servant
        for rp in rivals:
            if first or rp != last:
                # P(rival's sortie total < mine), ties half; P(rival's 宝具 total < mine)
                # (a 出撃 reads neither the 宝具 below it nor ``beaten``)
                s_lt = _below(rp, s_cards, s_left, s_size, values, total)
                if not is_sortie:
                    n_lt = _below(rp, n_cards, n_left, n_size, values, total)
                    n_ge = _above(rp, n_cards, n_left, n_size, values, total)
                last, first = rp, False
            alone *= 1 - pi
            clear *= 1 - pi + pi * (1 - p_np) * s_lt
            beaten *= 1 - pi + pi * ((1 - p_np) + p_np * n_lt)
            safe *= 1 - pi * p_np * n_ge
        gain = float(g)
        if mine + g >= t.target:
            gain += REACH            # these gems would meet my victory condition
        if is_sortie:
            ev = gain * clear
        elif sv is not None and sv.np_as_sortie_vs_np:
            no_np = 1.0
            for _ in rivals:
                no_np *= 1 - pi * p_np
            ev = (no_np - alone) * (gain + 0.5)   # つばめ返し beats 出撃 only
        else:
            ev = (beaten - alone) * (gain + t.effect)
        ev -= KEEP * value            # keep strong cards for later
        ev -= (1 - safe) * t.loss
        return ev

    def _loss_cost(self, seen: Seen, power: int, unseen_power: float) -> float:
        """What losing my servant in a battle costs: the gem I return (if I hold one) and
        the power my servant has above what a fresh one would bring (``unseen_power``)."""
        gem = LOSS if seen.gems[seen.seat] > 0 else 0.0
        return gem + SERVANT_WORTH * (power - unseen_power)

    def _victory_target(self, seen: Seen) -> float:
        """The gems that win me the game at the end of a round (final edition; イリヤ's
        聖杯の器: 10); infinite when no gem count wins."""
        if seen.edition != "final" or seen.mode == "big_battle":
            return math.inf
        return self._f().victory[seen.my_master_id]

    def _np_effect_worth(self, seen: Seen, sv: Servant | None) -> float:
        """What resolving my 宝具 is worth beyond the gems: nothing against a visible
        アヴェンジャー (it takes mine down with it), nor when every rival is visibly safe from
        it (ゴッドハンド against a plain destruction); a face-down rival may suffer it."""
        if sv is None or sv.effect.empty:
            return 0.0
        eff = sv.effect
        hurt = bool(eff.pool_gems)
        servants = self._t().servants
        # a plain destruction: destroy == ("servant",), compared item by item (a tuple made
        # and compared generically otherwise)
        destroy = eff.destroy
        plain = len(destroy) == 1 and destroy[0] == "servant" and not eff.sure_hit
        for i, servant in enumerate(seen.servant_ids):
            if i == seen.seat:
                continue
            rsv = servants[servant]
            if rsv is None:
                hurt = True
                continue
            if destroy and rsv.retaliate:
                return 0.0
            if not (plain and rsv.indestructible):
                hurt = True
        return EFFECT if hurt else 0.0

    def _event_score(self, seen: Seen, c: int, lead: int) -> float:
        """The score of the event card ``c`` (its int; any other card: as 強運) as my bid."""
        kind = self._t().event[c]
        if kind == "grail":
            # the game ends at this round's end, most gems winning, and this card is my bid:
            # play it when no rival can catch up this round, a lead of the richest land's gems
            richest = 1   # max(max(seen.land_gems, default=0), 1)
            for g in seen.land_gems:
                if g > richest:
                    richest = g
            return 50.0 if lead >= richest else -5.0
        if kind == "swap":
            mine = SERVANT_PREF.get(seen.my_servant, 5)
            best = 0   # the best servant face up, as max(..., default=0)
            first = True
            for i, servant in enumerate(seen.servant):
                if servant and i != seen.seat:
                    pref = SERVANT_PREF.get(servant, 5)
                    if first or pref > best:
                        best, first = pref, False
            return 1.5 if best - mine >= 4 else -3.0
        return -4.0  # 強運: keep it for a reaction

    # ------------------------------------------------------------ abilities
    def _luck(self, seen: Seen, d: Decision) -> Any:
        if "use" in d.options and seen.seat in d.info.get("targets", ()):
            return "use"
        return "decline"

    def _substitute(self, seen: Seen) -> Any:
        sv = self.cards.servants.get(seen.my_servant)
        return "yes" if sv is not None and SERVANT_PREF.get(sv.id, 5) >= 4 else "no"

    def _tsubame(self, seen: Seen, d: Decision) -> Any:
        best: Any = None
        best_key = (0, 0)
        for s in d.options:   # max(): the first of the best
            key = (seen.gems[s], -s)
            if best is None or key > best_key:
                best, best_key = s, key
        return best

    def _swap(self, seen: Seen, d: Decision) -> Any:
        best: Any = None
        best_key = (0.0, 0)
        for s in d.options:
            servant = seen.servant[s]
            key = (SERVANT_PREF.get(servant, 5) if servant else 5.0, -s)
            if best is None or key > best_key:
                best, best_key = s, key
        return best

    def _jewel(self, seen: Seen, d: Decision) -> Any:
        """Pass, or discard the card whose value buys the best outcome of my battle: each
        option's outcome is worked out from the revealed bids (the kinds, the totals with
        蛇's bonus, フラガラック, a tie's split) and rated like a bid — the gems I take (and
        ``REACH`` when they meet my victory condition), my 宝具's effect when it fires, the
        loss of my servant to a 宝具 that beats mine — less ``JEWEL`` and ``KEEP`` for the
        card. Equal ratings keep the pass, then the smallest card. (The bids, servants and
        masters read as card ints: :attr:`CardTable.kind`, ``colour``, ``np``, ``value``.)"""
        seat = seen.seat
        t = self._t()
        bids = seen.bid_ids
        my_bid = bids[seat]
        if t.kind[my_bid] != ACTION:   # (no bid, or an event)
            return "pass"
        colour, np = t.colour[my_bid], t.np[my_bid]
        parts: list[int] = []   # the seats whose revealed action card is of my bid's colour
        for i, bid in enumerate(bids):
            if t.kind[bid] == ACTION and t.colour[bid] == colour:
                parts.append(i)
        g = 0
        for k, land in enumerate(seen.land_ids):
            if t.colour[land] == colour:
                g = seen.land_gems[k]
        sv = t.servants[seen.my_servant_id]
        power = self._power_of_card(seen.my_servant_id, seen.my_master_id, seen.my_dark,
                                    unknown=1)
        effect = self._np_effect_worth(seen, sv)
        loss = self._loss_cost(seen, power, self._unseen_power(seen))
        target = self._victory_target(seen)
        best: Any = "pass"
        best_value = self._jewel_value(seen, parts, g, 0, np, effect, loss, target)
        for c in sorted([c for c in d.options if c != "pass"], key=card_value):
            v = card_value(c)
            value = (self._jewel_value(seen, parts, g, v, np, effect, loss, target)
                     - JEWEL - KEEP * v)
            if value > best_value + 1e-9:
                best, best_value = c, value
        return best

    def _jewel_value(self, seen: Seen, parts: list[int], g: int, bonus: int, np: bool,
                     effect: float, loss: float, target: float) -> float:
        """What my battle of ``parts`` (the seats with their revealed bids) on a land of ``g``
        gems is worth to me with ``bonus`` added to my total."""
        winners, fired = self._battle_outcome(seen, parts, bonus)
        seat = seen.seat
        if seat not in winners:
            # beaten by a single 宝具 winner: its effect takes my servant
            return -loss if np and len(winners) == 1 and fired else 0.0
        mine = g // len(winners) if not fired or len(winners) == 1 else 0
        value = float(mine)
        if mine and seen.gems[seat] + mine >= target:
            value += REACH
        if fired and np:
            value += effect
        return value

    def _battle_outcome(self, seen: Seen, parts: list[int], bonus: int
                        ) -> tuple[list[int], bool]:
        """The seats that win the battle of ``parts`` (the seats with their revealed bids;
        several: a tie — 出撃 split the gems, 宝具 all fire and take none) and whether 宝具
        decide it; ``bonus`` is added to my total (宝石魔術). The powers are the revealed ones
        (a battle shows its servants)."""
        t = self._t()
        seat = seen.seat
        bids = seen.bid_ids
        n_np = 0
        for i in parts:
            if t.np[bids[i]]:
                n_np += 1
        nps: list[int] = []
        totals: list[int] = []
        for i in parts:
            mine = i == seat
            servant = seen.my_servant_id if mine else seen.servant_ids[i]
            master = seen.my_master_id if mine else seen.master_ids[i]
            sv = t.servants[servant]
            b = bids[i]
            # アサシン's 宝具 card fights as 出撃 when another 宝具 card is in the battle
            if t.np[b] and not (n_np > 1 and sv is not None and sv.np_as_sortie_vs_np):
                nps.append(i)
            totals.append(self._power_of_card(servant, master,
                                              seen.my_dark if mine else seen.dark[i],
                                              unknown=1 if mine else 2)
                          + t.value[b] + (bonus if mine else 0))
        all_sortie = not nps
        fragarach: list[int] = []
        for k, i in enumerate(parts):
            m = t.masters[seen.my_master_id if i == seat else seen.master_ids[i]]
            if m is not None:
                totals[k] = totals[k] + m.hooks.total_bonus(all_sortie)     # 蛇
                if i in nps and m.hooks.wins_np_compare:
                    fragarach.append(i)
        if len(nps) == 1:
            return nps, True
        if fragarach:
            return fragarach, True
        best = -1
        for k, i in enumerate(parts):
            if (all_sortie or i in nps) and totals[k] > best:
                best = totals[k]
        winners: list[int] = []
        for k, i in enumerate(parts):
            if (all_sortie or i in nps) and totals[k] == best:
                winners.append(i)
        return winners, not all_sortie

def _gems_of(land_colours: list[int], land_gems: list[int]) -> list[int]:
    """The gems on each colour's land (by the colour's index; 0 for no land), from each
    land's colour and gems."""
    gems = zeros(N_COLOURS)
    for k, ci in enumerate(land_colours):
        gems[ci] = land_gems[k]
    return gems


def _starts_with(cards: list[int], prefix: list[int]) -> bool:
    """Whether ``cards`` begins with ``prefix`` (``cards[:len(prefix)] == prefix`` without
    the slice, compared as native ints)."""
    if len(prefix) > len(cards):
        return False
    for i in range(len(prefix)):
        if cards[i] != prefix[i]:
            return False
    return True


def _take(cards: list[int], left: list[int], n_left: list[int], slot: list[int],
          start: int = 0, held: list[int] | None = None) -> None:
    """Take each card of ``cards`` from index ``start`` (card ints; -1: none) off the unseen
    cards (``left`` and ``n_left`` of :class:`Unseen`; ``slot``: :attr:`CardFacts.slot`), if
    any of its copies are left there; each card taken is appended to ``held`` if given (to be
    put back into ``left`` later)."""
    for i in range(start, len(cards)):
        c = cards[i]
        if c >= 0:
            k = left[c]
            if k > 0:
                left[c] = k - 1
                s = slot[c]
                n_left[s] = n_left[s] - 1
                if held is not None:
                    held.append(c)


def _below(rp: float, cards: list[int], left: list[int], size: int, values: list[int],
           total: float) -> float:
    """The chance that ``rp`` plus the value of one of ``size`` cards — ``left[c]`` copies of
    each card ``c`` of ``cards`` — stays below ``total`` (ties count half). (Counted by card:
    the sum of 1s and halves is exact in any order. ``total`` is an int as a float: the
    float compares with it as with the int, without converting it for each card.)"""
    n = 0.0
    for c in cards:
        k = left[c]
        if k:
            x = rp + values[c]
            if x < total:
                n += k
            elif x == total:
                n += 0.5 * k
    return n / size


def _above(rp: float, cards: list[int], left: list[int], size: int, values: list[int],
           total: float) -> float:
    """The chance that ``rp`` plus the value of one of ``size`` cards (as for :func:`_below`)
    exceeds ``total``."""
    n = 0
    for c in cards:
        k = left[c]
        if k and rp + values[c] > total:
            n += k
    return n / size
