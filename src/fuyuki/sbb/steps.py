"""Every rule step of the engine by its name, and the loop that runs the rule stack.

A step on ``state.stack`` is a plain tuple: its name, then its arguments (``("battle", 2,
(0, 3))``). The steps themselves live with their rules — setup and drafts in
:mod:`fuyuki.sbb.setup`, a round in :mod:`fuyuki.sbb.rounds`, battles and 宝具 effects in
:mod:`fuyuki.sbb.battle`, losses in :mod:`fuyuki.sbb.losses` — as ``step_<name>`` functions;
this module is their one table. :func:`run` calls each step's function directly (in the
compiled build a C call, not a Python call through a table of functions); :data:`STEPS`
finds a step's function by its name.

Adding a step: write ``step_<name>`` with its rule, add it to :data:`STEPS` and to
:func:`call` (a test checks that both list the same steps).
"""

from __future__ import annotations

from typing import Callable

from fuyuki.sbb import battle, game, losses, rounds, setup
from fuyuki.sbb.game import Answers, Game
from fuyuki.sbb.state import Op

#: every step's function by the step's name
STEPS: dict[str, Callable[..., None]] = {
    # setup and drafts (§3)
    "setup": setup.step_setup,
    "return_set_aside": setup.step_return_set_aside,
    "deal_random": setup.step_deal_random,
    "draft_start": setup.step_draft_start,
    "draft_pick": setup.step_draft_pick,
    "draft_picked": setup.step_draft_picked,
    "deal": setup.step_deal,
    # a round (§4)
    "round_start": rounds.step_round_start,
    "place_extra": rounds.step_place_extra,
    "bids_open": rounds.step_bids_open,
    "reveal": rounds.step_reveal,
    "events_resolve": rounds.step_events_resolve,
    "swap_ask": rounds.step_swap_ask,
    "swap_do": rounds.step_swap_do,
    "grail": rounds.step_grail,
    "cleanup": rounds.step_cleanup,
    "draw_step": rounds.step_draw_step,
    "round_end": rounds.step_round_end,
    # battles and 宝具 effects (§4.3, §5.1)
    "battle": battle.step_battle,
    "battle_fight": battle.step_battle_fight,
    "tsubame_cut": battle.step_tsubame_cut,
    "win_gems": battle.step_win_gems,
    "effects": battle.step_effects,
    "effects_luck": battle.step_effects_luck,
    "pool_gems": battle.step_pool_gems,
    # losses (§5)
    "losses": losses.step_losses,
    "losses_apply": losses.step_losses_apply,
    "retaliate": losses.step_retaliate,
    "retaliate_luck": losses.step_retaliate_luck,
}


def run(g: Game) -> None:
    """Run the rule stack until a decision is asked or the game ends (v1.x, whose end
    conditions act at once, checks them after every step)."""
    s = g.s
    stack = s.stack
    immediate = g.rules.end_timing == "immediate"
    while len(stack) > 1 and not s.asking and not s.over:   # (stack[0]: state.BOTTOM)
        call(g, stack.pop())
        if immediate:
            g.check_end()


def go_on(g: Game, cont: Op, answers: Answers) -> None:
    """Run an answered question's continuation ``cont`` with its ``answers``, then the rule
    stack: what :func:`run` does with the step ``cont + (answers,)`` on top of the stack,
    without making that step (the most frequent called here, the others through
    :func:`call`)."""
    name: str = cont[0]
    if name == "draft_picked":
        setup.step_draft_picked(g, cont[1], cont[2], cont[3], cont[4], answers)
    elif name == "reveal":
        rounds.step_reveal(g, answers)
    elif name == "place_extra":
        rounds.step_place_extra(g, answers)
    elif name == "battle_fight":
        battle.step_battle_fight(g, cont[1], cont[2], answers)
    else:
        call(g, cont + (answers,))
    if g.rules.end_timing == "immediate":
        g.check_end()
    run(g)


def call(g: Game, op: Op) -> None:
    """Run one step (the most frequent first)."""
    name: str = op[0]
    if name == "battle":
        battle.step_battle(g, op[1], op[2])
    elif name == "draft_pick":
        setup.step_draft_pick(g, op[1], op[2], op[3], op[4])
    elif name == "draft_picked":
        setup.step_draft_picked(g, op[1], op[2], op[3], op[4], op[5])
    elif name == "round_start":
        rounds.step_round_start(g)
    elif name == "bids_open":
        rounds.step_bids_open(g)
    elif name == "reveal":
        rounds.step_reveal(g, op[1])
    elif name == "events_resolve":
        rounds.step_events_resolve(g)
    elif name == "cleanup":
        rounds.step_cleanup(g)
    elif name == "draw_step":
        rounds.step_draw_step(g)
    elif name == "round_end":
        rounds.step_round_end(g)
    elif name == "place_extra":
        rounds.step_place_extra(g, op[1])
    elif name == "battle_fight":
        battle.step_battle_fight(g, op[1], op[2], op[3])
    elif name == "effects":
        battle.step_effects(g, op[1], op[2], op[3], op[4])
    elif name == "win_gems":
        battle.step_win_gems(g, op[1], op[2], op[3])
    elif name == "draft_start":
        setup.step_draft_start(g, op[1], op[2] if len(op) > 2 else None)
    elif name == "losses":
        losses.step_losses(g, op[1], op[2])
    elif name == "losses_apply":
        losses.step_losses_apply(g, op[1], op[2], op[3])
    elif name == "effects_luck":
        battle.step_effects_luck(g, op[1], op[2], op[3], op[4], op[5])
    elif name == "setup":
        setup.step_setup(g)
    elif name == "deal":
        setup.step_deal(g)
    elif name == "grail":
        rounds.step_grail(g, op[1])
    elif name == "swap_ask":
        rounds.step_swap_ask(g, op[1], op[2])
    elif name == "swap_do":
        rounds.step_swap_do(g, op[1], op[2])
    elif name == "pool_gems":
        battle.step_pool_gems(g, op[1], op[2])
    elif name == "tsubame_cut":
        battle.step_tsubame_cut(g, op[1], op[2], op[3], op[4])
    elif name == "retaliate":
        losses.step_retaliate(g, op[1], op[2])
    elif name == "retaliate_luck":
        losses.step_retaliate_luck(g, op[1], op[2])
    elif name == "return_set_aside":
        setup.step_return_set_aside(g)
    elif name == "deal_random":
        setup.step_deal_random(g, op[1] if len(op) > 1 else None)
    else:
        STEPS[name](g, *op[1:])   # unknown: a KeyError names it


class Steps(game.Runner):
    """The engine's :class:`~fuyuki.sbb.game.Runner`: :func:`run` and :func:`go_on`."""

    def run(self, g: Game) -> None:
        run(g)

    def go_on(self, g: Game, cont: Op, answers: Answers) -> None:
        go_on(g, cont, answers)


game.RUNNER[:] = [Steps()]
