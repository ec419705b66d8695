"""What a printed copy holds: every card of the rules' decks, as many times as the decks hold
it, plus the gem tokens of the edition's pool.

The counts are the engine's own (see ``game.step_setup``): one card per master and servant of
the rules, every land of the card set (a 3-player game removes one at the table, not in print),
the action cards of every land's colour (``CardSet.actions_of``, repeats included) and the
events the rules put in the action deck.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from fuyuki.sbb.rules import Rules


@dataclass(frozen=True)
class PrintDeck:
    """The cards to print, grouped by the back they share. ``actions`` repeats an id as often
    as the deck holds it; ``events`` share the action cards' back (they are shuffled into the
    action deck)."""

    masters: tuple[str, ...]
    servants: tuple[str, ...]
    lands: tuple[str, ...]
    actions: tuple[str, ...]
    events: tuple[str, ...]
    gems: int
    coins: int

    def counts(self) -> dict[tuple[str, str], int]:
        """``{(kind, card id): copies}`` for every card to print."""
        c: Counter[tuple[str, str]] = Counter()
        for kind, ids in (("master", self.masters), ("servant", self.servants),
                          ("land", self.lands), ("action", self.actions),
                          ("event", self.events)):
            for cid in ids:
                c[(kind, cid)] += 1
        return dict(c)

    @property
    def total(self) -> int:
        return (len(self.masters) + len(self.servants) + len(self.lands) + len(self.actions)
                + len(self.events))


def print_deck(rules: Rules) -> PrintDeck:
    cs = rules.cards
    actions: list[str] = []
    for land in cs.lands.values():
        actions.extend(cs.actions_of(land.colour))
    events = tuple(e for e in rules.events if e in cs.events)
    coins = max(rules.players) if rules.coins else 0
    return PrintDeck(tuple(rules.masters), tuple(rules.servants), tuple(cs.lands),
                     tuple(actions), events, rules.gem_pool, coins)
