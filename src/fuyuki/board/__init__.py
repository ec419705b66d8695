"""Grail War Board (seed 003): the 聖杯戦争BBS board game.

    game = board.new_game(players=4, seed=7)
    while not game.over:
        for seat, decision in game.pending().items():
            game.submit(seat, bots[seat].choose(game.view(seat), decision))
"""

from fuyuki.board.content import Pack, default_pack, load_pack
from fuyuki.board.game import Game, new_game

__all__ = ["Game", "Pack", "default_pack", "load_pack", "new_game"]
