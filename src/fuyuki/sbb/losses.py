"""Losing cards (§5, §5.1): preventions, gem returns, reactions, replacements.

A loss is ``(victim, what, how, source)``: ``what`` is "servant" or "master"; ``how`` is
"destroy", "sure" (必中), "cancel" (契約解除) or "retaliate" (アヴェンジャー). Losses caused by
one effect are decided together: preventions and replacements first (ゴッドハンド, 身代わり),
then gems are returned (延命, 監督役), then reactions (黒化, タイガー道場, 偽臣の書, アヴェンジャー),
then replacement cards are drawn.
"""

from __future__ import annotations

from fuyuki.sbb.battle import luck_used, offer_luck
from fuyuki.sbb.game import Answers, Game, step

DESTROYS = ("destroy", "sure", "retaliate")


@step
def step_losses(g: Game, losses: tuple, cause: str) -> None:
    s = g.s
    kept = []
    seen = set()
    for loss in losses:
        victim, what, how, src = loss
        key = (victim, what, src)
        if key in seen:
            continue
        seen.add(key)
        sv = g.servant_card(victim)
        if what == "servant" and how == "destroy" and sv.indestructible and (
                sv.id in g.rules.auto_np or _played_np(g, victim)):  # v1.0: needs a 宝具 card
            g.emit("prevented", seat=victim, servant=s.servant[victim], by="indestructible")
            continue
        kept.append(loss)
    asks = {}
    for loss in kept:
        offer = g.ab(loss[0]).loss_offer(g, loss)
        if offer is not None:
            asks[loss[0]] = offer
    if asks:
        g.ask(asks, ("losses_apply", tuple(kept), cause))
    else:
        g.then(("losses_apply", tuple(kept), cause, {}))


@step
def step_losses_apply(g: Game, losses: tuple, cause: str, answers: Answers) -> None:
    s, r = g.s, g.rules
    final: list[tuple] = []
    for loss in losses:
        victim = loss[0]
        instead = g.ab(victim).replace_loss(g, loss, answers[victim]) \
            if victim in answers else None
        if instead is not None:
            if not any(v == victim and w == instead[1] for v, w, _, _ in final + list(losses)):
                final.append(instead)
            continue
        final.append(loss)
    order = {seat: i for i, seat in enumerate(s.order())}
    final.sort(key=lambda x: (order[x[0]], x[1] != "servant"))
    servant_lost: dict[int, tuple] = {}
    master_lost: dict[int, tuple] = {}
    for loss in final:
        (servant_lost if loss[1] == "servant" else master_lost).setdefault(loss[0], loss)
    for victim, (_, what, how, src) in list(servant_lost.items()) + list(master_lost.items()):
        card = s.servant[victim] if what == "servant" else s.master[victim]
        g.emit("lost", seat=victim, what=what, card=card, how=how, source=src, cause=cause)
    # gems returned (servant losses only)
    for victim in servant_lost:
        _return_gems(g, victim)
    # reactions
    retaliations = []
    fetched: dict[int, str | None] = {}
    for victim, (_, _, how, src) in servant_lost.items():
        g.ab(victim).after_servant_lost(g, victim, how, victim in master_lost, fetched)
        sv = g.servant_card(victim)
        if sv.retaliate and (sv.id in r.auto_np or _played_np(g, victim)):
            # against every player whose effect destroyed it (several in a tie) — unless that
            # player's servant falls in this same batch: it is gone already, and the
            # retaliation never reaches the replacement drawn after it
            for v, what, how_, src_ in final:
                if v == victim and what == "servant" and how_ in ("destroy", "sure") \
                        and src_ != victim and src_ not in servant_lost \
                        and (victim, src_) not in retaliations:
                    retaliations.append((victim, src_))
    for victim, (_, _, how, src) in master_lost.items():
        g.ab(victim).after_master_lost(g, victim, how, fetched)
    # replacements
    for victim in servant_lost:
        s.sdisc.append(s.servant[victim])
        s.servant[victim] = g.draw_card("servant") or ""
        s.s_up[victim] = False
        s.lost_servant[victim] = True
        g.emit("new_servant", to=(victim,), seat=victim, card=s.servant[victim])
    for victim in master_lost:
        _replace_master(g, victim, fetched.pop(victim, None))
    for victim, new in fetched.items():  # v1.0: 慎二's servant lost, 桜 replaces 慎二
        if new is not None:
            _replace_master(g, victim, new)
    for victim, src in retaliations:
        g.then(("retaliate", victim, src))


def _played_np(g: Game, seat: int) -> bool:
    bid = g.s.bids[seat]
    return bid is not None and bid.split("-")[1:2] == ["np"]


def _return_gems(g: Game, victim: int) -> None:
    s, r = g.s, g.rules
    if g.ab(victim).returns_no_gems(g, victim):
        return
    due = s.gems[victim] if r.servant_loss_gems < 0 else min(r.servant_loss_gems, s.gems[victim])
    if due <= 0:
        return
    s.gems[victim] -= due
    for k in s.seats_from(s.parent):
        give = g.ab(k).takes_returned_gems(g, k, victim, due)
        if give is not None:
            due -= give
            break
    s.pool += due
    if due:
        g.emit("return_gems", seat=victim, gems=due)


def _replace_master(g: Game, victim: int, new: str | None) -> None:
    s = g.s
    old = s.master[victim]
    s.dark[victim] = False
    s.lost_master[victim] = True
    if new == "@self":
        s.m_up[victim] = True
        g.emit("new_master_up", seat=victim, card=old)
        return
    s.mdisc.append(old)
    if new is not None:
        s.master[victim] = new
        s.m_up[victim] = True
        s.dark[victim] = g.ab(victim).starts_dark(g.rules)  # hf
        g.emit("new_master_up", seat=victim, card=new)
        return
    s.master[victim] = g.draw_card("master") or ""
    s.m_up[victim] = False
    s.dark[victim] = bool(s.master[victim]) and g.ab(victim).starts_dark(g.rules)
    g.emit("new_master", to=(victim,), seat=victim, card=s.master[victim])


@step
def step_retaliate(g: Game, avenger_seat: int, target: int) -> None:
    """アヴェンジャー: the servant of the player whose effect destroyed it is destroyed too;
    only 強運 stops it."""
    g.emit("retaliate", seat=avenger_seat, target=target, servant=g.s.servant[target])
    loss = ((target, "servant", "retaliate", avenger_seat),)
    if g.luck_possible():
        offer_luck(g, ("retaliate_luck", loss), source=avenger_seat, targets=(target,))
    else:
        g.then(("losses", loss, "retaliate"))


@step
def step_retaliate_luck(g: Game, loss: tuple, answers: Answers) -> None:
    if luck_used(g, answers) is None:
        g.then(("losses", loss, "retaliate"))
