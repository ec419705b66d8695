"""Losing cards (§5, §5.1): preventions, gem returns, reactions, replacements.

A loss is ``(victim, what, how, source)``: ``what`` is "servant" or "master"; ``how`` is
"destroy", "sure" (必中), "cancel" (契約解除) or "retaliate" (アヴェンジャー). Losses caused by
one effect are decided together: preventions and replacements first (ゴッドハンド, 身代わり),
then gems are returned (延命, 監督役), then reactions (黒化, タイガー道場, 偽臣の書, アヴェンジャー),
then replacement cards are drawn.
"""

from __future__ import annotations

from typing import Final

from fuyuki.sbb.abilities import Loss
from fuyuki.sbb.battle import god_hand, luck_used, offer_luck, played_np
from fuyuki.sbb.cards import NO_CARD, SELF, Master, Servant
from fuyuki.sbb.game import Answers, Game, only

DESTROYS = ("destroy", "sure", "retaliate")
#: the data keys of a "lost" event (logged compactly: Game.log)
LOST: Final[tuple[str, ...]] = ("seat", "what", "card", "how", "source", "cause")
NEW_SERVANT: Final[tuple[str, ...]] = ("seat", "card")


def step_losses(g: Game, losses: tuple[Loss, ...], cause: str) -> None:
    s = g.s
    kept = []
    seen = set()
    for loss in losses:
        victim, what, how, src = loss
        key = (victim, what, src)
        if key in seen:
            continue
        seen.add(key)
        if what == "servant" and how == "destroy" and god_hand(g, victim):
            g.emit("prevented", seat=victim, servant=g.t.names[s.servant[victim]],
                   by="indestructible")
            continue
        kept.append(loss)
    # a replacement (身代わり) is not offered for a servant whose contract this batch cancels
    # anyway: there is nothing left to save [R-32](c)
    cancelled = {v for v, what, how, _ in kept if what == "servant" and how == "cancel"}
    asks = {}
    for loss in kept:
        if loss[0] not in cancelled:
            offer = g.ab(loss[0]).loss_offer(g, loss)
            if offer is not None:
                asks[loss[0]] = offer
    if asks:
        g.ask(asks, ("losses_apply", tuple(kept), cause))
    else:
        g.then(("losses_apply", tuple(kept), cause, {}))


def step_losses_apply(g: Game, losses: tuple[Loss, ...], cause: str,
                      answers: Answers) -> None:
    s, r = g.s, g.rules
    final: list[Loss] = []
    replaced: set[int] = set()
    for loss in losses:
        victim = loss[0]
        instead = g.ab(victim).replace_loss(g, loss, answers[victim], victim not in replaced) \
            if victim in answers else None
        if instead is not None:
            replaced.add(victim)
            if not any(v == victim and w == instead[1] for v, w, _, _ in final + list(losses)):
                final.append(instead)
            continue
        final.append(loss)
    by_seat_order(final, s.parent, s.n)
    servant_lost: dict[int, Loss] = {}
    master_lost: dict[int, Loss] = {}
    for loss in final:   # each seat's first servant loss and first master loss
        lost = servant_lost if loss[1] == "servant" else master_lost
        if loss[0] not in lost:
            lost[loss[0]] = loss
    names = g.t.names
    for lost in (servant_lost, master_lost):
        for victim, loss in lost.items():
            card = s.servant[victim] if loss[1] == "servant" else s.master[victim]
            g.log(("lost", None, LOST, victim, loss[1], names[card], loss[2], loss[3], cause))
    # gems returned (servant losses only): a master lost in the batch still acts [R-32](a)
    for victim in servant_lost:
        _return_gems(g, victim)
    # the lost cards leave the table: reactions read the table after the batch [R-32](b),
    # with the abilities of the masters who lost a servant, lost or not [R-32](a)
    masters: dict[int, Master] = {}
    servants: dict[int, Servant] = {}
    for v in servant_lost:
        masters[v] = g.master_card(v)
        servants[v] = g.servant_card(v)
    for v in master_lost:
        masters[v] = g.master_card(v)
    for victim in servant_lost:
        s.sdisc.append(s.servant[victim])
        s.servant[victim] = NO_CARD
        s.s_up[victim] = False
        s.lost_servant[victim] = True
    for victim in master_lost:
        s.mdisc.append(s.master[victim])
        s.master[victim] = NO_CARD
        s.m_up[victim] = False
        s.lost_master[victim] = True
    # reactions
    retaliations = []
    fetched: dict[int, int | None] = {}
    for victim, (_, _, how, _src) in servant_lost.items():
        m = masters[victim]
        m.hooks.after_servant_lost(g, victim, m, how, fetched)
        sv = servants[victim]
        if sv.retaliate and (sv.id in r.auto_np or played_np(g, victim)):
            # against every player whose effect destroyed it (several in a tie) — unless that
            # player's servant falls in this same batch: it is gone already, and the
            # retaliation never reaches the replacement drawn after it
            for v, what, how_, src_ in final:
                if v == victim and what == "servant" and how_ in ("destroy", "sure") \
                        and src_ != victim and src_ not in servant_lost \
                        and (victim, src_) not in retaliations:
                    retaliations.append((victim, src_))
    for victim, (_, _, how, _src) in master_lost.items():
        m = masters[victim]
        m.hooks.after_master_lost(g, victim, m, how, fetched)
    # replacements
    for victim in servant_lost:
        s.servant[victim] = g.draw_card("servant")
        g.log(("new_servant", only(victim), NEW_SERVANT, victim, names[s.servant[victim]]))
    for victim in master_lost:
        _replace_master(g, victim, g.t.ids[masters[victim].id], fetched.pop(victim, None))
    for victim, new in fetched.items():  # v1.0: 慎二's servant lost, 桜 replaces 慎二
        if new is not None:
            _replace_master(g, victim, s.master[victim], new)
    for victim, src in retaliations:
        g.then(("retaliate", victim, src))


def by_seat_order(losses: list[Loss], parent: int, n: int) -> None:
    """Sort ``losses`` in place, stably, by victim from the parent to the left, a servant's
    before a master's: ``sort(key=(seat order, not servant))`` as an insertion sort on one
    native rank (a batch holds a few losses; a key function is a generic call per loss)."""
    for j in range(1, len(losses)):
        loss = losses[j]
        rank = loss_rank(loss, parent, n)
        i = j
        while i > 0 and loss_rank(losses[i - 1], parent, n) > rank:
            losses[i] = losses[i - 1]
            i -= 1
        losses[i] = loss


def loss_rank(loss: Loss, parent: int, n: int) -> int:
    """Where ``loss`` goes in a batch: its victim's place from the parent, then servant
    (even) before master (odd)."""
    return (loss[0] - parent) % n * 2 + (0 if loss[1] == "servant" else 1)


def _return_gems(g: Game, victim: int) -> None:
    s, r = g.s, g.rules
    if g.ab(victim).returns_no_gems(g, victim):
        return
    due = s.gems[victim] if r.servant_loss_gems < 0 else min(r.servant_loss_gems, s.gems[victim])
    if due <= 0:
        return
    s.gems[victim] = s.gems[victim] - due
    for k in s.seats_from(s.parent):
        give = g.ab(k).takes_returned_gems(g, k, victim, due)
        if give is not None:
            due -= give
            break
    s.pool += due
    if due:
        g.emit("return_gems", seat=victim, gems=due)


def _replace_master(g: Game, victim: int, old: int, new: int | None) -> None:
    """The seat's new master: ``new`` face up (fetched), its own ``old`` card back face up
    (SELF; 偽臣の書 took it back from the discard when it fired), or a card drawn face down
    (``None``). A master lost in the batch is already in the discard; one that was not lost
    (v1.0 偽臣の書) goes there now."""
    s, names = g.s, g.t.names
    s.dark[victim] = False
    s.lost_master[victim] = True
    if new == SELF:
        s.master[victim] = old
        s.m_up[victim] = True
        g.emit("new_master_up", seat=victim, card=names[old])
        return
    if s.master[victim]:
        s.mdisc.append(old)
    if new is not None:
        s.master[victim] = new
        s.m_up[victim] = True
        s.dark[victim] = g.ab(victim).starts_dark(g.rules)  # hf
        g.emit("new_master_up", seat=victim, card=names[new])
        return
    s.master[victim] = g.draw_card("master")
    s.m_up[victim] = False
    s.dark[victim] = bool(s.master[victim]) and g.ab(victim).starts_dark(g.rules)
    g.emit("new_master", to=only(victim), seat=victim, card=names[s.master[victim]])


def step_retaliate(g: Game, avenger_seat: int, target: int) -> None:
    """アヴェンジャー: the servant of the player whose effect destroyed it is destroyed too;
    only 強運 stops it."""
    g.emit("retaliate", seat=avenger_seat, target=target,
           servant=g.t.names[g.s.servant[target]])
    loss = ((target, "servant", "retaliate", avenger_seat),)
    if g.luck_possible():
        offer_luck(g, ("retaliate_luck", loss), source=avenger_seat, targets=(target,))
    else:
        g.then(("losses", loss, "retaliate"))


def step_retaliate_luck(g: Game, loss: tuple[Loss, ...], answers: Answers) -> None:
    if luck_used(g, answers) is None:
        g.then(("losses", loss, "retaliate"))
