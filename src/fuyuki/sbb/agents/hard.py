"""The hard bot: searches each decision over worlds sampled from its own view only.

At each decision with a real choice the bot builds a :class:`fuyuki.sbb.sampling.Sampler`
from its view (and nothing else): every iteration plays in a fresh *determinization* — a
whole game whose hidden parts (the others' face-down masters and servants, their hands, the
deck orders) are drawn among those its view cannot rule out, the drafts included
(``draft_belief=True``: the others' drafted masters and servants drawn as the heuristic bot's
picks would have gone, :func:`.belief.draft_policy`). Then:

- **a sealed bid** is searched on common worlds (:mod:`.bids`): in each world the others
  bid from their own hand there (the heuristic bot's judgement; ``opponents="learned"``:
  the learned bid policy's chances, :mod:`.learned_policy`), every option of the bot is
  played on the same world with the same random numbers to the end of the next round
  (``bid_horizon``) and scored; the best mean wins. ``belief=True`` weighs each world by
  the likelihood of the bids the others were seen to make last round (:mod:`.belief`);
  at three players each world by how well its parent's hand explains where the parent put
  the round's extra gem (``gem_belief``); ``luck_belief=True`` by the others' silence at
  強運 (an effect aimed at them resolved: they held none); ``jewel_belief=True`` by a
  face-up 凛's use or non-use of 宝石魔術 (the cards her hand did not hold);
- **the drafts** like the heuristic bot (its tuned preferences) at three and four players,
  searched as below, to the end of the game, from five on (``search_drafts``);
- **any other searched decision** (the extra gem, 宝石魔術, a swap's target) by
  single-observer ISMCTS: one shared tree of decision points, a node being a batch of
  decisions the engine asks at once, **every seat asked in a batch selecting on its own
  statistics** (decoupled UCT, with availability counts since a hidden hand changes the
  options); the child is keyed by the joint answer as this seat would observe it (the
  others' draft picks are private and are merged). The other seats' selection has a prior
  toward what a sensible player would do with its own hand in that world (PUCT-style, it
  fades with visits); below the tree the game is played on with the same fast policy
  (``rollout="fast"``) or uniformly (``rollout="random"``); a searched draft pick to the end
  of the game (0.9 × its share of the win + 0.1 × its gems / the most gems). ``bids="tree"``
  searches bids this way too (the bot before issue 21).
- **against unknown players** (``opponents="unknown"``: no model of how the others bid) the
  bids too are searched in that tree, with no prior toward the heuristic's choice, every
  seat selecting by Smooth UCT (:mod:`.smooth_uct`: UCB1 or its own average strategy, so
  the seats' play converges to a mix rather than chasing each other); the bot answers with
  its most visited bid.

A world cut at the end of a round gives every seat its share of exp(k × score) (gems
scaled to its victory target + its hand).

強運, 身代わり and つばめ返し are asked in the middle of an effect, where the sampler cannot
rebuild the rule stack: for those the bot answers like the heuristic bot (they are rare:
fewer than one per game). Seeded: the same view, decision and seed give the same answer
when the budget is an iteration count (``iterations=``); a time budget (``seconds=``, the
default 1.0 s, of wall-clock or with ``clock="cpu"`` of CPU time) depends on the machine.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.sbb.agents import smooth_uct
from fuyuki.sbb.agents.belief import BidHistory, JewelHistory, LuckHistory, draft_policy
from fuyuki.sbb.agents.bids import BidSearch
from fuyuki.sbb.agents.heuristic import MASTER_PREF, SERVANT_PREF, HeuristicBot
from fuyuki.sbb.cards import parse_action
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.sampling import Sampler, SamplingError, Unsupported

_PRIVATE_KINDS = ("draft_master", "draft_servant")   # answers the others cannot see


class _Node:
    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        # seat -> option -> [visits, total reward, availability]
        self.stats: dict[int, dict[Any, list]] = {}
        self.children: dict[tuple, _Node] = {}


#: from this many players on, the drafts are searched (``search_drafts=None``)
SEARCH_DRAFTS_FROM = 5
#: up to this many players, the parent's extra gem weighs the worlds of a bid
#: (``gem_belief=None``): +0.041 over 1,200 paired games at three players, nothing shown at
#: four (+0.009, −0.007) or five (−0.011); docs/hard-bot.md, The beliefs, on and off
GEM_BELIEF_UP_TO = 3


class HardBot:
    name = "hard"
    needs_view = True

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float = 1.0,
                 rules: Rules | None = None, exploration: float = 0.7,
                 rollout: str = "fast", horizon: int | None = 0,
                 temperature: float = 0.35, model: bool = True,
                 prior_weight: float = 3.0, draft_horizon: int | None = None,
                 hand_value: float = 0.1, search_drafts: bool | None = None,
                 max_rounds: int = 40, bids: str = "common", bid_noise: float = 0.1,
                 belief: bool = False, clock: str = "wall",
                 evaluation: str = "hand", bid_horizon: int | None = 1,
                 gem_belief: int | None = None, draft_belief: bool = False,
                 opponents: str = "heuristic", luck_belief: bool = False,
                 jewel_belief: bool = False) -> None:
        if rollout not in ("fast", "random"):
            raise ValueError(f"rollout must be 'fast' or 'random', not {rollout!r}")
        if bids not in ("common", "tree"):
            raise ValueError(f"bids must be 'common' or 'tree', not {bids!r}")
        if gem_belief is not None and (type(gem_belief) is not int or gem_belief < 0):
            raise ValueError(f"gem_belief must be a whole number >= 0 or None, "
                             f"not {gem_belief!r}")
        for name, switch in (("luck_belief", luck_belief), ("jewel_belief", jewel_belief),
                             ("draft_belief", draft_belief)):
            if type(switch) is not bool:
                raise ValueError(f"{name} must be True or False, not {switch!r}")
        if opponents not in ("heuristic", "learned", "unknown"):
            raise ValueError(f"opponents must be 'heuristic', 'learned' or 'unknown', "
                             f"not {opponents!r}")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock must be 'wall' or 'cpu', not {clock!r}")
        if evaluation not in ("hand", "learned"):
            raise ValueError(f"evaluation must be 'hand' or 'learned', not {evaluation!r}")
        if bid_horizon is not None and (type(bid_horizon) is not int or bid_horizon < 0):
            raise ValueError(f"bid_horizon must be a whole number of rounds >= 0 or None, "
                             f"not {bid_horizon!r}")
        #: a world cut at the horizon is scored by the hand-set formula (``"hand"``) or by
        #: the learned evaluation (``"learned"``, :mod:`.learned_eval`; not for 聖杯大戦争)
        self.learned = None
        if evaluation == "learned":
            from fuyuki.sbb.agents.learned_eval import shipped
            self.learned = shipped()
        #: ``opponents="unknown"``: no model of the others at all — bids are searched in the
        #: tree, every seat selecting by Smooth UCT (:mod:`.smooth_uct`); off by default:
        #: −0.146 against heuristic bots, +0.080 against random ones (800 paired games),
        #: −0.055 against hard ones (docs/hard-bot.md, What does not help)
        self.smooth = opponents == "unknown"
        #: how a sealed bid is searched: on common worlds (:mod:`.bids`) or in the tree
        self.bids = "tree" if self.smooth else bids
        #: what ``seconds`` measures: wall-clock time, or this process's CPU time
        self.clock = time.perf_counter if clock == "wall" else time.process_time
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.rules = rules
        self.c = exploration
        self.rollout = rollout
        self.horizon = horizon
        self.draft_horizon = draft_horizon
        self.hand_value = hand_value
        #: drafts by ISMCTS (``True``) or by the heuristic bot's preferences (``False``);
        #: ``None``: searched from ``SEARCH_DRAFTS_FROM`` players on. Against heuristic bots
        #: the preferences took +0.037 at four players (1,000 paired games) and +0.047 at
        #: three (600); the search +0.022 at five (2,400); docs/hard-bot.md, What does not help
        if search_drafts is not None and type(search_drafts) is not bool:
            raise ValueError(f"search_drafts must be True, False or None, not {search_drafts!r}")
        self.search_drafts = search_drafts
        #: a playout "to the end of the game" stops after this many rounds (聖杯大戦争 can
        #: run to the round cap) and is then scored like a cut one
        self.max_rounds = max_rounds
        self.k = temperature
        self.model = model and not self.smooth
        self.prior_weight = prior_weight
        self.fallback = HeuristicBot(seed, cards=rules.cards if rules else None)
        # who the others are in a bid's worlds: the heuristic bot (``bid_noise`` of their
        # bids uniform), or the learned bid policy (``"learned"``, :mod:`.learned_policy`:
        # its chances, no more noise) — a model of unknown players
        policy = None
        if opponents == "learned":
            from fuyuki.sbb.agents.learned_policy import LearnedPolicy
            policy = LearnedPolicy(seed, cards=rules.cards if rules else None)
            bid_noise = 0.0
        #: a bid's playouts go on to the end of the round after the bid's (``bid_horizon``
        #: rounds after it; None: to the game's end): cut at the bid's own round the bot took
        #: 0.048 less, played to the game's end 0.014 more — not shown (docs/hard-bot.md)
        self.bid_search = BidSearch(HeuristicBot(seed, cards=rules.cards if rules else None),
                                    self._fast, self._value, noise=bid_noise,
                                    horizon=max_rounds if bid_horizon is None else bid_horizon,
                                    gem_belief=gem_belief or 0, policy=policy)
        #: ``gem_belief=None``: 1 up to ``GEM_BELIEF_UP_TO`` players, else 0 (see choose)
        self.gem_belief = gem_belief
        #: ``belief=True``: the others' last bids as this bot's own views showed them weigh
        #: the sampled worlds (:mod:`.belief`); off by default, as it measured no gain at
        #: 300 iterations (fewer effective worlds); otherwise every world counts the same.
        #: ``bids_seen``: the others' last bids read from my views, kept once for the bid
        #: belief and for 宝石魔術's evidence (``jewel_belief``)
        self.bids_seen = BidHistory() if belief or jewel_belief else None
        self.history = self.bids_seen if belief else None
        #: ``draft_belief=True``: the others' hidden drafted masters and servants drawn as
        #: the heuristic bot's picks would have gone (:func:`.belief.draft_policy`); off by
        #: default: +0.007 (−0.016 to +0.030) over 1,800 paired games at three players, the
        #: true masters and servants themselves worth +0.010 (docs/hard-bot.md, What does not help)
        self.draft_policy = draft_policy(self.fallback) if draft_belief else None
        #: ``luck_belief=True``: an effect that resolved with no 強運 played tells that its
        #: targets held none (:class:`.belief.LuckHistory`); the bid's worlds are weighed by it
        cards = self.fallback.cards
        luck_cards = frozenset(cards.luck_cards(list(cards.events)))
        self.luck = LuckHistory(luck_cards) if luck_belief else None
        #: ``jewel_belief=True``: a face-up 凛's use or non-use of 宝石魔術 tells which cards
        #: her hand did not hold (:class:`.belief.JewelHistory`); the bid's worlds weighed by it
        self.jewel = (JewelHistory(self.fallback, luck_cards, self.bids_seen)
                      if self.bids_seen is not None and jewel_belief else None)
        #: what weighs a bid's worlds besides the bids (:meth:`BidSearch.run`'s ``evidence``)
        self.evidence = tuple(e for e in (self.luck, self.jewel) if e is not None)
        self._parsed: dict[str, Any] = {}
        #: after each search: {"iterations": int, "seconds": float}
        self.last_search: dict[str, Any] = {}
        self._stop_after: int | None = horizon

    # ------------------------------------------------------------------ the bot
    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        options = decision.options
        if self.luck is not None:
            self.luck.observe(view)
            if decision.kind == "luck":
                self.luck.offered(view, decision.info)
        if len(options) == 1:
            return options[0]
        if decision.kind.startswith("draft") and not self.searches_drafts(len(view["seats"])):
            return self.fallback.choose(view, decision)
        self._t0 = self.clock()
        try:
            sampler = Sampler(view, self.rules, draft_policy=self.draft_policy)
        except (Unsupported, SamplingError):
            # mid-effect decisions (強運, 身代わり, つばめ返し), or rules the view does not
            # match (pass ``rules=``): answer like the heuristic bot
            return self.fallback.choose(view, decision)
        if decision.kind == "bid" and self.bids == "common":
            if self.bids_seen is not None:
                self.bids_seen.observe(view)
            if self.jewel is not None:
                self.jewel.observe(view)
            if self.gem_belief is None:
                self.bid_search.gem_belief = int(len(view["seats"]) <= GEM_BELIEF_UP_TO)
            choice = self.search_bid(sampler, view["seat"], decision, view)
            if self.bids_seen is not None:
                self.bids_seen.bid(choice)
            return choice
        return self.search(sampler, view["seat"], decision)

    def searches_drafts(self, players: int) -> bool:
        """Whether this bot searches its draft picks at a table of ``players``."""
        if self.search_drafts is None:
            return players >= SEARCH_DRAFTS_FROM
        return self.search_drafts

    def _value(self, g) -> list[float]:
        return self._reward(g) if g.over else self._evaluate(g)

    def search_bid(self, sampler: Sampler, me: int, decision: Decision,
                   view: dict[str, Any] | None = None) -> Any:
        """A sealed bid: every option scored on the same worlds (:mod:`.bids`)."""
        start = self._t0 or self.clock()
        self._t0 = None
        limit = self.iterations
        deadline = start + 0.95 * self.seconds
        clock = self.clock

        def more(done: int) -> bool:
            if limit is not None:
                return done < limit
            now = clock()
            per = (now - start) / done if done else 0.0
            return now + per * len(decision.options) < deadline

        choice, means, worlds, effective = self.bid_search.run(
            sampler, me, decision.options, self.rng, more, self.history, view, self.evidence)
        self.last_search = {"iterations": worlds * len(decision.options), "worlds": worlds,
                            "effective_worlds": effective, "values": means,
                            "seconds": clock() - start}
        return choice

    def search(self, sampler: Sampler, me: int, decision: Decision) -> Any:
        """Run ISMCTS over worlds from ``sampler``; return ``me``'s chosen option."""
        rng = self.rng
        root = _Node()
        self._stop_after = self.draft_horizon if decision.kind.startswith("draft") \
            else self.horizon
        start = min(self.clock(), getattr(self, "_t0", None) or 1e300)
        self._t0 = None
        limit = self.iterations
        deadline = start + 0.95 * self.seconds   # leave room for the caller
        done = 0
        clock = self.clock
        while True:
            if limit is not None:
                if done >= limit:
                    break
            elif done:
                # stop when one more iteration (at the mean cost so far) would overrun
                now = clock()
                if now + (now - start) / done >= deadline:
                    break
            world = sampler.sample(rng)
            self._iterate(root, world, rng, me)
            done += 1
        self.last_search = {"iterations": done, "seconds": clock() - start}
        stats = root.stats.get(me, {})
        return max(decision.options,
                   key=lambda o: (stats[o][0], stats[o][1]) if o in stats else (-1, 0.0))

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, g, rng: random.Random, me: int = -1) -> None:
        path: list[tuple[_Node, dict[int, Any]]] = []
        h = self._stop_after
        stop = max(g.s.round, 1) + (self.max_rounds if h is None else h)
        node: _Node | None = root
        c = self.c
        pb = self.prior_weight
        while node is not None and not g.over and g.s.round <= stop:
            pend = g.pending()
            joint: dict[int, Any] = {}
            for seat, d in pend.items():
                opts = d.options
                if len(opts) == 1:
                    joint[seat] = opts[0]
                    continue
                st = node.stats.get(seat)
                if st is None:
                    st = node.stats[seat] = {}
                for o in opts:
                    e = st.get(o)
                    if e is None:
                        e = st[o] = [0, 0.0, 0]
                    e[2] += 1
                if self.smooth:
                    joint[seat] = smooth_uct.select(st, opts, rng, c)
                elif seat != me and self.model:
                    # another seat: decoupled UCT biased toward what a sensible player
                    # would do (its own hand in this world; it never sees other bids)
                    guess = self._fast(g, seat, d, rng)
                    best, best_v = opts[0], -1e9
                    for o in opts:
                        n, w, avail = st[o]
                        prior = 0.8 if o == guess else 0.2 / len(opts)
                        v = (w / n if n else 0.0) + pb * prior * math.sqrt(avail) / (1 + n)
                        if v > best_v:
                            best, best_v = o, v
                    joint[seat] = best
                else:
                    joint[seat] = smooth_uct.ucb1(st, opts, rng, c)
            for seat in sorted(joint):
                g.submit(seat, joint[seat])
            path.append((node, joint))
            key = tuple((seat, "?" if pend[seat].kind in _PRIVATE_KINDS else joint[seat])
                        for seat in sorted(joint))
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                node = None     # expanded one node: play out from here
            else:
                node = child
        self._playout(g, rng, stop)
        reward = self._reward(g) if g.over else self._evaluate(g)
        for node, joint in path:
            for seat, o in joint.items():
                e = node.stats.get(seat, {}).get(o)
                if e is not None:
                    e[0] += 1
                    e[1] += reward[seat]

    @staticmethod
    def _reward(g) -> list[float]:
        res = g.result
        n = g.players
        winners = res["winners"]
        gems = res.get("coins") or res["gems"]
        top = max(max(gems), 1)
        share = 1.0 / len(winners) if winners else 0.0
        return [(0.9 * share if i in winners else 0.0) + 0.1 * gems[i] / top for i in range(n)]

    def _evaluate(self, g) -> list[float]:
        """A game cut at the horizon: each seat's share of exp(k × score), where the score
        is the gems scaled to the seat's victory target plus a little for cards in hand."""
        if self.learned is not None and not g.rules.coins:
            return self.learned(g)
        s = g.s
        target = g.rules.victory_gems
        scores = []
        for i in range(s.n):
            t = g.victory_target(i) if s.master[i] else target
            scale = target / t if t > 0 and target > 0 else 1.0
            if g.rules.coins:     # 聖杯大戦争: coins decide, gems are unlimited
                scores.append(3.0 * s.coins[i] + 0.25 * len(s.hand[i]))
                continue
            hand = 0.0
            if self.hand_value:
                for card in s.hand[i]:
                    a = self._card(g.t.names[card])
                    hand += 0.25 + (self.hand_value * a.value if a is not None else 0.3)
            else:
                hand = 0.25 * len(s.hand[i])
            scores.append(s.gems[i] * scale + hand)
        top = max(scores)
        ex = [math.exp(self.k * (x - top)) for x in scores]
        tot = sum(ex)
        return [x / tot for x in ex]

    # ------------------------------------------------------------------ playouts
    def _playout(self, g, rng: random.Random, stop: int | None = None) -> None:
        s = g.s
        if stop is None:
            stop = 1 << 30
        if self.rollout == "random":
            while not g.over and s.round <= stop:
                for seat, d in g.pending().items():
                    o = d.options
                    g.submit(seat, o[0] if len(o) == 1 else rng.choice(o))
            return
        while not g.over and s.round <= stop:
            # every seat of a batch chooses before any answer is submitted (sealed bids)
            answers = [(seat, d.options[0] if len(d.options) == 1
                        else self._fast(g, seat, d, rng)) for seat, d in g.pending().items()]
            for seat, choice in answers:
                g.submit(seat, choice)

    def _card(self, card: str):
        p = self._parsed.get(card, False)
        if p is False:
            p = self._parsed[card] = parse_action(card)
        return p

    def _fast(self, g, seat: int, d: Decision, rng: random.Random) -> Any:
        """The heuristic bot's rules of thumb, read straight from the (sampled) state
        instead of a view: cheap, and a fair model of a sensible player. 10 % of the time
        it plays at random."""
        opts = d.options
        kind = d.kind
        if kind == "luck":
            return "use" if seat in d.info.get("targets", ()) else "decline"
        if rng.random() < 0.1:
            return rng.choice(opts)
        s, names = g.s, g.t.names
        cs = g.rules.cards
        if kind == "bid":
            return self._fast_bid(g, seat, opts, rng)
        if kind == "draft_master":
            return max(opts, key=lambda m: (MASTER_PREF.get(m, 5), m))
        if kind == "draft_servant":
            return max(opts, key=lambda m: (SERVANT_PREF.get(m, 5), m))
        if kind == "place_gem":
            top: dict[str, int] = {}
            for card in s.hand[seat]:
                a = self._card(names[card])
                if a is not None and a.kind == "sortie":
                    top[a.colour] = max(top.get(a.colour, 0), a.value)
            return max(opts, key=lambda land: top.get(cs.lands[land].colour, 0) * 2
                       + s.gems_on[s.lands.index(g.t.ids[land])] * 0.1 + rng.random() * 0.01)
        if kind == "substitute":
            return "yes" if SERVANT_PREF.get(names[s.servant[seat]], 5) >= 4 else "no"
        if kind == "tsubame":
            return max(opts, key=lambda x: (s.gems[x], -x))
        if kind == "swap":
            return max(opts, key=lambda x: (SERVANT_PREF.get(names[s.servant[x]], 5)
                                            if s.s_up[x] else 5, -x))
        if kind == "jewel":
            return "pass"
        return rng.choice(opts)

    def _fast_bid(self, g, seat: int, opts: tuple, rng: random.Random) -> Any:
        s, names = g.s, g.t.names
        cs = g.rules.cards
        n = s.n
        land_gems = {}
        for li, land in enumerate(s.lands):
            land_gems[cs.lands[names[land]].colour] = s.gems_on[li]
        max_gems = max(land_gems.values()) or 1
        sv = cs.servants.get(names[s.servant[seat]]) if s.servant[seat] else None
        power = g.power(seat) if sv else 1
        lead = s.gems[seat] - max(s.gems[i] for i in range(n) if i != seat)
        spread = (n - 1) / 3
        best, best_v = opts[0], -1e9
        for card in opts:
            a = self._card(card)
            if a is None:
                ev = cs.events.get(card)
                k = ev.kind if ev else ""
                if k == "grail":
                    v = 50.0 if lead >= 2 else -5.0
                elif k == "swap":
                    mine = SERVANT_PREF.get(names[s.servant[seat]], 5)
                    other = max((SERVANT_PREF.get(names[s.servant[i]], 5) for i in range(n)
                                 if i != seat and s.s_up[i]), default=0)
                    v = 1.5 if other - mine >= 4 else -3.0
                else:
                    v = -4.0
            else:
                gm = land_gems.get(a.colour, 0)
                q = min(0.85, (0.15 + 0.55 * gm / max_gems) * spread)
                total = power + a.value
                if a.kind == "sortie":
                    p_win = 0.75 / (1.0 + math.exp(-(total - 4.8) / 1.2))
                    v = gm * ((1 - q) + q * p_win)
                elif sv is not None and sv.np_as_sortie_vs_np:
                    v = q * (gm * 0.7 + 0.5)
                else:
                    p_win = 0.6 + 0.4 / (1.0 + math.exp(-(total - 4.8) / 1.2))
                    v = q * (gm * p_win + (0.0 if sv is None or sv.effect.empty else 1.0))
                v -= 0.12 * a.value
            v += rng.random() * 0.3
            if v > best_v:
                best, best_v = card, v
        return best
