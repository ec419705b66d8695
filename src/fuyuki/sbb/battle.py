"""Battles on a land (§4.3): one bid takes or misfires; two or more fight.

- Case 1, 出撃 and 宝具 mixed: every 出撃 loses; one 宝具 wins, several fight as case 2.
- Case 2, all 宝具: highest total resolves its effect, then takes the gems; a tie: every tied
  player resolves their effect and the gems stay.
- Case 3, all 出撃: highest total takes the gems; a tie splits them, the rest stays.
"""

from __future__ import annotations

from typing import Any, Final

from fuyuki.core.protocol import Decision
from fuyuki.sbb.abilities import Loss
from fuyuki.sbb.cards import N_COLOURS
from fuyuki.sbb.game import Answers, Game
from fuyuki.sbb.state import Op, falses, insert_unique, zeros

#: the data keys of the most frequent battle events (Game.log)
UNCONTESTED: Final[tuple[str, ...]] = ("seat", "land", "gems")
MISFIRE: Final[tuple[str, ...]] = ("seat", "land")
BATTLE: Final[tuple[str, ...]] = ("land", "seats")
TAKE: Final[tuple[str, ...]] = ("seat", "land", "gems")
TOTALS: Final[tuple[str, ...]] = ("land", "totals", "kinds", "parts")
CASE1: Final[tuple[str, ...]] = ("land", "losers")
WIN: Final[tuple[str, ...]] = ("seat", "land")   # case2_win, case3_win
NP_RESOLVES: Final[tuple[str, ...]] = ("seat", "servant", "targets")
#: seats as event data keys (str(seat), made once)
SEAT_KEYS: Final = tuple(str(p) for p in range(16))


def step_battle(g: Game, li: int, parts: tuple[int, ...]) -> None:
    """The bids on land ``li``: ``parts``, its bidders from the parent to the left."""
    s = g.s
    land = g.t.names[s.lands[li]]
    if len(parts) == 1:
        seat = parts[0]
        if not g.t.np[s.bids[seat]]:
            gems = s.gems_on[li]
            s.gems_on[li] = 0
            s.gems[seat] = s.gems[seat] + gems
            g.log(("uncontested", None, UNCONTESTED, seat, land, gems))
        else:
            g.log(("misfire", None, MISFIRE, seat, land))
        return
    s.phase = "battle"
    if g.logs("battle"):
        g.log(("battle", None, BATTLE, land, list(parts)))
    asks = {}
    for seat in parts:
        offer = g.ab(seat).battle_offer(g, seat, land)
        if offer is not None:
            asks[seat] = offer
    if asks:
        g.ask(asks, ("battle_fight", li, parts))
    else:
        g.then(("battle_fight", li, parts, {}))


def bid_colours(g: Game) -> list[tuple[int, ...]]:
    """The seats that bid an action card of each colour (the list's index: CardTable.colour;
    ``()``: none), from the parent to the left. (A list, not a dict by colour: a list is
    indexed natively in the compiled build.)"""
    s, colour = g.s, g.t.colour
    colours: list[tuple[int, ...]] = [()] * N_COLOURS
    for seat in s.order():
        c = colour[s.bids[seat]]   # -1: no bid, or an event
        if c >= 0:
            seats = colours[c]
            colours[c] = seats + (seat,) if seats else (seat,)
    return colours


def battle_steps(g: Game, colours: list[tuple[int, ...]], first: int = 0) -> list[Op]:
    """The round's battle steps from land ``first`` on, in table order: one for each land
    with bids (``colours``: :func:`bid_colours`)."""
    s, colour = g.s, g.t.colour
    steps: list[Op] = []
    for li in range(first, len(s.lands)):
        parts = colours[colour[s.lands[li]]]
        if parts:
            steps.append(("battle", li, parts))
    return steps


def played_np(g: Game, seat: int) -> bool:
    """Whether ``seat`` bid a 宝具 card this round."""
    return g.t.np[g.s.bids[seat]]


def god_hand(g: Game, seat: int) -> bool:
    """Whether ``seat``'s servant cannot be destroyed (ゴッドハンド: automatic, or in v1.0 with
    a 宝具 card bid)."""
    sv = g.servant_card(seat)
    return sv.indestructible and (sv.id in g.rules.auto_np or played_np(g, seat))


def take_gems(g: Game, li: int, seat: int) -> None:
    s = g.s
    n = s.gems_on[li]
    s.gems_on[li] = 0
    s.gems[seat] = s.gems[seat] + n
    if g.logs("take"):
        g.log(("take", None, TAKE, seat, g.t.names[s.lands[li]], n))


def seat_key(p: int) -> str:
    """A seat as an event's dict key (``"2"``: event data are JSON-ready)."""
    return SEAT_KEYS[p] if p < len(SEAT_KEYS) else str(p)


def step_battle_fight(g: Game, li: int, parts: tuple[int, ...], offers: Answers) -> None:
    s, r, t = g.s, g.rules, g.t
    land_card = t.lands[s.lands[li]]
    assert land_card is not None
    bonus = zeros(s.n)
    for seat, answer in offers.items():
        bonus[seat] = bonus[seat] + g.ab(seat).battle_answer(g, seat, answer)
    np_count = 0
    for p in parts:
        if t.np[s.bids[p]]:
            np_count += 1
    as_np = falses(s.n)   # by seat: whether its bid fights as a 宝具 (else as a 出撃)
    nps: list[int] = []
    sorties: list[int] = []
    for p in parts:
        if not t.np[s.bids[p]]:
            sorties.append(p)
        elif np_count > 1 and g.servant_card(p).np_as_sortie_vs_np:
            sorties.append(p)   # only when another 宝具 card is in the battle
            g.emit("np_as_sortie", seat=p)
        else:
            as_np[p] = True
            nps.append(p)
    all_sortie = not nps
    totals = zeros(s.n)   # by seat: each participant's total (lists: indexed natively)
    # what each total is made of, and the totals and kinds by seat, for the event (made only
    # when it is written)
    shown = g.logs("totals")
    terms: dict[str, list[list[Any]]] = {}
    shown_totals: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for p in parts:
        sv = g.servant_card(p)
        bid = s.bids[p]
        power = g.power(p)
        term: list[list[Any]] = [[t.names[bid], t.value[bid]], [sv.id, power]] if shown else []
        total = t.value[bid] + power
        if bonus[p]:
            term.append(["jewel", bonus[p]])
            total += bonus[p]
        if r.land_modifiers and land_card.mod_servant == sv.id:
            term.append(["land", land_card.mod_bonus])
            total += land_card.mod_bonus
        ab = g.ab(p)
        extra = ab.total_bonus(all_sortie)
        if extra:
            term.append([ab.kind, extra])
            total += extra
        totals[p] = total
        if shown:
            key = seat_key(p)
            terms[key] = term
            shown_totals[key] = total
            kinds[key] = "np" if as_np[p] else "sortie"
    if shown:
        g.log(("totals", None, TOTALS, land_card.id, shown_totals, kinds, terms))
    if nps and sorties:
        g.log(("case1", None, CASE1, land_card.id, sorties))
        if len(nps) == 1:
            w = nps[0]
            if r.tsubame and g.servant_card(w).tsubame:
                _tsubame(g, li, parts, w, totals[w], sorties)
                return
            _resolve_winners(g, li, parts, [w], single=True)
            return
        _compare_nps(g, li, parts, nps, totals)
    elif nps:
        _compare_nps(g, li, parts, nps, totals)
    else:
        _compare_sorties(g, li, parts, totals)


def _compare_nps(g: Game, li: int, parts: tuple[int, ...], nps: list[int],
                 totals: list[int]) -> None:
    """Case 2 among the 宝具 players (フラガラック wins whatever the totals; ``totals``: by
    seat)."""
    fr = [p for p in nps if g.ab(p).wins_np_compare]
    if fr:
        g.emit("fragarach", seats=fr)
        winners = fr
    else:
        best = max(totals[p] for p in nps)
        winners = [p for p in nps if totals[p] == best]
    if len(winners) == 1:
        g.log(("case2_win", None, WIN, winners[0], g.t.names[g.s.lands[li]]))
        _resolve_winners(g, li, parts, winners, single=True)
    else:
        g.emit("case2_tie", seats=winners, land=g.t.names[g.s.lands[li]])
        _resolve_winners(g, li, parts, winners, single=False)


def _compare_sorties(g: Game, li: int, parts: tuple[int, ...], totals: list[int]) -> None:
    """Case 3: highest 出撃 total (``totals``: by seat) takes the gems; a tie splits (or tie
    dice)."""
    s = g.s
    best = totals[parts[0]]
    for p in parts:   # (a loop: max() is a generic call of a builtin when compiled)
        if totals[p] > best:
            best = totals[p]
    tied = [p for p in parts if totals[p] == best]
    land = g.t.names[s.lands[li]]
    if len(tied) == 1:
        g.log(("case3_win", None, WIN, tied[0], land))
        take_gems(g, li, tied[0])
        _coins(g, parts, tied[0])
        return
    if g.rules.tie_dice:
        rolls: dict[int, int] = {}
        group = tied
        while len(group) > 1:
            rolls = {p: s.rng.randint(1, 6) for p in group}
            g.emit("tie_dice", rolls={str(p): v for p, v in rolls.items()})
            top = max(rolls.values())
            group = [p for p in group if rolls[p] == top]
        take_gems(g, li, group[0])
        _coins(g, parts, group[0])
        return
    share = s.gems_on[li] // len(tied)
    for p in tied:
        s.gems[p] = s.gems[p] + share
    s.gems_on[li] = s.gems_on[li] - share * len(tied)
    g.emit("case3_split", seats=tied, land=land, each=share, left=s.gems_on[li])


def _coins(g: Game, parts: tuple[int, ...], winner: int) -> None:
    """聖杯大戦争: a battle with exactly one winner moves a coin from every other participant."""
    if not g.rules.coins:
        return
    s = g.s
    for p in parts:
        if p != winner and s.coins[p] > 0:
            s.coins[p] = s.coins[p] - 1
            s.coins[winner] = s.coins[winner] + 1
            g.emit("coin", seat=p, to_seat=winner)


def _tsubame(g: Game, li: int, parts: tuple[int, ...], w: int, total: int,
             sorties: list[int]) -> None:
    """つばめ返し: アサシン's 宝具 card against only 出撃 wins; with a total at least an
    opponent's card value it destroys one such opponent's servant, its player choosing.
    The candidates it can destroy come first, from the parent to the left: the first is the
    choice when none is given [R-33] (a cut at ゴッドハンド is wasted)."""
    s = g.s
    land = g.t.names[s.lands[li]]
    reach = [q for q in sorties if total >= g.t.value[s.bids[q]]]
    cands = tuple([q for q in reach if not god_hand(g, q)] + [q for q in reach if god_hand(g, q)])
    g.emit("tsubame", seat=w, land=land, candidates=list(cands))
    if not cands:
        g.then(("win_gems", li, w, parts))
    elif len(cands) == 1:
        g.then(("tsubame_cut", li, w, parts, {w: cands[0]}))
    else:
        g.ask({w: Decision("tsubame", cands, {"land": land})},
              ("tsubame_cut", li, w, parts))


def step_tsubame_cut(g: Game, li: int, w: int, parts: tuple[int, ...],
                     answers: Answers) -> None:
    target = answers[w]
    g.then_all([("losses", ((target, "servant", "destroy", w),), "tsubame"),
                ("win_gems", li, w, parts)])


def step_win_gems(g: Game, li: int, w: int, parts: tuple[int, ...]) -> None:
    take_gems(g, li, w)
    _coins(g, parts, w)


# ---------------------------------------------------------------------- 宝具 effects
def effect_losses(g: Game, w: int, parts: tuple[int, ...]) -> tuple[tuple[Loss, ...], int]:
    """The losses the 宝具 of ``w`` would cause against the other participants, and the pool
    gems it would take, decided against the battle as it stands."""
    s = g.s
    # a master may use another 宝具 than the servant's (無限の剣製); its keyword test may
    # then count the resolving player's own servant
    sv = g.ab(w).np_servant(g, w, parts)
    own = sv is not None
    if sv is None:
        sv = g.servant_card(w)
    eff = sv.effect
    if eff.empty:
        return (), 0
    if eff.needs_faceup_keyword:
        kw = eff.needs_faceup_keyword
        if not any(s.s_up[q] and (q != w or own) and g.servant_card(q).keyword == kw
                   for q in range(s.n)):
            # 無限の剣製 names no servant: another seat may hold the mode's one face down
            if own:
                g.emit("blades_fizzle", seat=w, keyword=kw)
            else:
                g.emit("np_fizzle", seat=w, servant=sv.id, keyword=kw)
            return (), 0
    how = "sure" if eff.sure_hit else "destroy"
    losses = []
    for q in parts:
        if q == w:
            continue
        for what in eff.destroy:
            losses.append((q, what, how, w))
        if eff.cancel:
            losses.append((q, "servant", "cancel", w))
    return tuple(losses), eff.pool_gems


def _resolve_winners(g: Game, li: int, parts: tuple[int, ...], winners: list[int],
                     single: bool) -> None:
    items = []
    for w in winners:
        losses, pool_gems = effect_losses(g, w, parts)
        if losses or pool_gems:
            items.append((w, losses, pool_gems))
    after = ("win_gems", li, winners[0], parts) if single else None
    g.then(("effects", tuple(items), 0, (), after))


def step_effects(g: Game, items: tuple[Any, ...], idx: int, kept: tuple[Any, ...],
                 after: Op | None) -> None:
    """Offer 強運 against each effect in turn, then apply what was not negated together."""
    if idx == len(items):
        every: list[Loss] = []
        steps: list[Op] = []
        for item in kept:   # (w, its losses, its pool gems)
            every.extend(item[1])
        if every:
            steps.append(("losses", tuple(every), "np"))
        for item in kept:
            if item[2]:
                steps.append(("pool_gems", item[0], item[2]))
        if after:
            steps.append(after)
        g.then_all(steps)
        return
    w: int = items[idx][0]
    targets = loss_targets(items[idx][1])
    g.log(("np_resolves", None, NP_RESOLVES, w, g.t.names[g.s.servant[w]], targets))
    if g.luck_possible():
        offer_luck(g, ("effects_luck", items, idx, kept, after), source=w,
                   targets=tuple(targets))
    else:
        g.then(("effects", items, idx + 1, kept + (items[idx],), after))


def loss_targets(losses: tuple[Loss, ...]) -> list[int]:
    """The seats ``losses`` fall on, each once, lowest first: ``sorted({q for q, *_ in
    losses})`` as a loop (a set, star-unpacking and a sort are generic in the compiled
    build)."""
    out: list[int] = []
    for loss in losses:
        insert_unique(out, loss[0])
    return out


def offer_luck(g: Game, cont: Op, source: int, targets: tuple[int, ...]) -> None:
    """強運 is offered to every player at once, so nobody learns who holds it."""
    s = g.s
    asks = {}
    info = {"source": source, "targets": list(targets)}
    for seat in range(s.n):
        opts = ("use", "decline") if g.holds_luck(seat) else ("decline",)
        asks[seat] = Decision("luck", opts, info)
    g.ask(asks, cont)


def luck_used(g: Game, answers: Answers) -> int | None:
    """The first seat from the parent that used 強運 (its card goes to the discard)."""
    s = g.s
    for seat in s.order():
        if answers.get(seat) == "use":
            card = g.holds_luck(seat)
            assert card, f"seat {seat} used 強運 without holding it"
            s.hand[seat].remove(card)
            s.adisc.append(card)
            g.emit("luck", seat=seat, card=g.t.names[card])
            return seat
    return None


def step_effects_luck(g: Game, items: tuple[Any, ...], idx: int, kept: tuple[Any, ...],
                      after: Op | None, answers: Answers) -> None:
    if luck_used(g, answers) is None:
        kept = kept + (items[idx],)
    g.then(("effects", items, idx + 1, kept, after))


def step_pool_gems(g: Game, seat: int, n: int) -> None:
    s = g.s
    take = n if g.rules.unlimited_gems else min(n, s.pool)
    s.pool -= 0 if g.rules.unlimited_gems else take
    s.gems[seat] = s.gems[seat] + take
    g.emit("pool_take", seat=seat, gems=take)
