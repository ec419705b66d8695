"""Servant Big Battle (seeds 000, 001).

    from fuyuki import sbb
    game = sbb.new_game(players=4, seed=7)                 # final edition by default
    game = sbb.new_game(players=4, seed=7, rules=sbb.Rules.preset("v1.1", mode="ubw"))
"""

from fuyuki.sbb.game import Game, new_game
from fuyuki.sbb.rules import Rules
from fuyuki.sbb import steps  # noqa: E402,F401  (sets the loop that runs the rule steps)

__all__ = ["Game", "Rules", "new_game"]
