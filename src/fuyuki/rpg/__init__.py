"""Grail War RPG (seed 002): the forum-run Holy Grail War.

- :mod:`fuyuki.rpg.rules`      the rule numbers (data/rules.toml, data/events.toml), validated
- :mod:`fuyuki.rpg.roster`     characters, pairs, rosters and single sheets (TOML), validated
- :mod:`fuyuki.rpg.state`      a pair's changing state: mana, 令呪, items, allies
- :mod:`fuyuki.rpg.battle`     a battle, steps 1–7 of the seed, as a decision generator
- :mod:`fuyuki.rpg.battle_game` one battle as an engine (``fuyuki war battle``, rule cases)
- :mod:`fuyuki.rpg.war`        the war: turns, events, actions, コミュ, mana check, dice
- :mod:`fuyuki.rpg.flow`       generator → ``pending`` / ``submit`` protocol
- :mod:`fuyuki.rpg.text`, :mod:`fuyuki.rpg.war_text`  ja/en text from events
- :mod:`fuyuki.rpg.cases`      BCDice-style battle case files
- :mod:`fuyuki.rpg.agents`     program players
"""
