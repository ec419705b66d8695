"""Doors for game-playing research: Servant Big Battle in PettingZoo and OpenSpiel.

    from fuyuki.adapters.pettingzoo import parallel_env, env      # PettingZoo
    import fuyuki.adapters.openspiel                              # registers the games
    game = pyspiel.load_game("python_servant_big_battle")

Both need the ``rl`` extra (``pip install fuyuki[rl]``). Observations and action masks are
built by :mod:`fuyuki.adapters.encoding` from ``game.view(seat)`` only.
"""
