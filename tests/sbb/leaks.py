"""Event leak checks: a game that remembers, for every event it emits, which masters and
servants were face down at that moment, and a check that no event's text (ja and en) names a
card face down for a seat that can see the event — by the card's name or its ability's name
(§5.1 [R-35], §8)."""

from __future__ import annotations

from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.game import RNG_VERSION, Game, make_game
from fuyuki.sbb.text import render


class Watched(Game):
    """A game that notes the face-down masters and servants of every seat at each event."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.rules, game.s, game.record, game.quiet)
        self.hidden_at: list[dict[int, tuple[str, ...]]] = []

    def _hidden(self) -> dict[int, tuple[str, ...]]:
        s = self.s
        hidden = {}
        for seat in range(s.n):
            cards = []
            if s.master[seat] and not s.m_up[seat]:
                cards.append(self.t.names[s.master[seat]])
            if s.servant[seat] and not s.s_up[seat]:
                cards.append(self.t.names[s.servant[seat]])
            if cards:
                hidden[seat] = tuple(cards)
        return hidden

    def emit(self, _kind, /, to=None, **data):
        hidden = self._hidden()
        before = len(self.s.events)
        super().emit(_kind, to=to, **data)
        if len(self.s.events) > before:
            self.hidden_at.append(hidden)

    def log(self, event):
        hidden = self._hidden()
        before = len(self.s.events)
        super().log(event)
        if len(self.s.events) > before:
            self.hidden_at.append(hidden)


def watched_game(players: int, seed: int, rules=None, rng: int = RNG_VERSION) -> Watched:
    g = Watched(make_game(players, seed, rules, False, rng))
    g.s.stack.append(("setup",))
    g._run()
    return g


def _names(rules, card: str) -> list[str]:
    cs = rules.cards
    if card in cs.masters:
        m = cs.masters[card]
        return [*m.name.values(), *m.ability_name.values()]
    return list(cs.servants[card].name.values())


def leaks(g: Watched) -> list[str]:
    """Every (event, language, hidden card) where the event's text names a card face down
    for a seat that can see the event. A card publicly lost this round is left out: it may
    be redrawn face down from a reshuffled discard while a later event of the round (アヴェンジャー's
    retaliation) still names the lost one."""
    cs = g.rules.cards
    every = [n for c in (*cs.masters, *cs.servants) for n in _names(g.rules, c)]
    found = []
    lost: set[str] = set()
    for event, hidden in zip(g.events, g.hidden_at):
        if event.kind == "round":
            lost.clear()
        for seat, cards in hidden.items():
            if event.to is not None and seat in event.to:
                continue  # an event the owner sees (its own, or a swap both sides see)
            for card in cards:
                if card in lost:
                    continue
                names = _names(g.rules, card)
                for lang in ("ja", "en"):
                    text = render(event, lang, cards=cs)
                    for other in every:  # 真アサシン is not アサシン
                        if other not in names and any(n in other for n in names):
                            text = text.replace(other, "")
                    hit = [n for n in names if n in text]
                    if hit:
                        found.append(f"{event.kind} [{lang}] {text!r} names {hit} of seat "
                                     f"{seat}'s face-down {card}")
        if event.kind == "lost" and event.to is None:
            lost.add(event.data["card"])
    return found


def play_watched(players: int, seed: int, rules=None, bot: str = "random",
                 rng: int = RNG_VERSION) -> Watched:
    g = watched_game(players, seed, rules, rng)
    play_out(g, [make_bot(bot, seed * 10 + i, rules=rules) for i in range(players)],
             limit=200000)
    return g
