"""The masters' abilities (§2.1): each registered once, under its kind, with its hooks.

A master card's ``ability = { kind = "...", ... }`` names one entry of :data:`ABILITIES`;
the card holds an instance (``Master.hooks``) made from its parameters. The engine never
tests an ability's or a card's name: at each point where an ability may act it asks the
seat's master through one hook, and every master that has nothing to say answers with the
default of :class:`Ability`. The hooks, in the order a round meets them:

- :meth:`~Ability.battle_offer` / :meth:`~Ability.battle_answer` — a decision before a
  battle's totals, and what the answer adds to the total (宝石魔術);
- :meth:`~Ability.total_bonus` — modify a total (蛇);
- :meth:`~Ability.wins_np_compare` — win a comparison of 宝具 totals (フラガラック);
- :meth:`~Ability.np_servant` — use another 宝具 effect than the servant's (無限の剣製);
- :meth:`~Ability.loss_offer` / :meth:`~Ability.replace_loss` — prevent or replace a loss
  (身代わり);
- :meth:`~Ability.returns_no_gems` / :meth:`~Ability.takes_returned_gems` — the gems a lost
  servant's player returns (延命, 監督役);
- :meth:`~Ability.after_servant_lost` / :meth:`~Ability.after_master_lost` — react after a
  loss (黒化, タイガー道場, 偽臣の書);
- :meth:`~Ability.starts_dark`, :meth:`~Ability.mana`, :meth:`~Ability.dark_power` — the
  master's state (黒桜);
- :meth:`~Ability.victory_target` / :meth:`~Ability.wins_at_once` — end-of-round checks
  (聖杯の器).

Adding an ability is one class here with its ``params`` (checked when cards load) and the
hooks it overrides; a card file then names its kind.
"""

from __future__ import annotations

import copyreg
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from fuyuki.core.protocol import Decision

if TYPE_CHECKING:
    from fuyuki.sbb.cards import Master, Servant
    from fuyuki.sbb.game import Game
    from fuyuki.sbb.rules import Rules

#: a loss: (victim seat, "servant" | "master", how, source seat) — see fuyuki.sbb.losses
Loss = tuple[int, str, str, int]
#: the loss replacement a seat's master asks for (身代わり)
SUBSTITUTE = "substitute"


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class Ability:
    """A master ability with no effect (``none``); the default answer of every hook."""

    kind: ClassVar[str] = "none"
    #: the parameters a card must give (``ability = { kind = ..., <param> = ... }``)
    params: ClassVar[tuple[str, ...]] = ()
    #: a mode value the ability needs when a mode gives it to a master (data/modes/*.toml)
    needs_mode: ClassVar[str] = ""
    #: whether its player wins every comparison of 宝具 totals
    wins_np_compare: ClassVar[bool] = False
    #: whether the master can turn dark at all (a scenario may set it dark)
    darkens: ClassVar[bool] = False

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    # -- a battle
    def battle_offer(self, g: Game, seat: int, land: str) -> Decision | None:
        """A decision for ``seat`` when its battle on ``land`` starts (after the reveal)."""
        return None

    def battle_answer(self, g: Game, seat: int, answer: Any) -> int:
        """Act on the answer to :meth:`battle_offer`; what it adds to the seat's total."""
        return 0

    def total_bonus(self, all_sortie: bool) -> int:
        """What this master adds to its player's battle total."""
        return 0

    def np_servant(self, g: Game, seat: int, parts: tuple[int, ...]) -> Servant | None:
        """The servant whose 宝具 effect its player uses instead of their own (None: their
        own). The keyword test of that effect may then count the player's own servant."""
        return None

    # -- losses
    def loss_offer(self, g: Game, loss: Loss) -> Decision | None:
        """A decision for the victim of ``loss`` before the batch is applied."""
        return None

    def replace_loss(self, g: Game, loss: Loss, answer: Any, first: bool) -> Loss | None:
        """What ``loss`` becomes, given the answer to :meth:`loss_offer` (None: unchanged);
        ``first``: the first of the batch's losses this master replaces (it logs once)."""
        return None

    def returns_no_gems(self, g: Game, seat: int) -> bool:
        """True if its player returns no gems when their servant is lost (it logs why)."""
        return False

    def takes_returned_gems(self, g: Game, seat: int, victim: int, due: int) -> int | None:
        """Gems of the ``due`` that ``victim`` returns which go to this master's player
        instead of the pool (None: this master takes no part; the first that does, from
        the parent to the left, acts)."""
        return None

    def after_servant_lost(self, g: Game, seat: int, card: Master, how: str,
                           fetched: dict[int, int | None]) -> None:
        """React after its player's servant is lost — this master ``card`` acts even if the
        same batch lost it too [R-32](a); the lost cards have left the table [R-32](b). A new
        master it brings goes into ``fetched``."""

    def after_master_lost(self, g: Game, seat: int, card: Master, how: str,
                          fetched: dict[int, int | None]) -> None:
        """React after this master ``card`` is lost (it has left the table). A new master it
        brings goes into ``fetched``."""

    # -- the master's state
    def starts_dark(self, rules: Rules) -> bool:
        """Whether the master enters play dark (桜 in the hf mode)."""
        return False

    def mana(self, card: Master, dark: bool) -> int:
        """The master's 魔力 (before a servant's penalty)."""
        return card.mana

    def dark_power(self) -> int:
        """What the master, dark, adds to its servant's power."""
        return 0

    # -- the end
    def victory_target(self, rules: Rules) -> int:
        """The gems with which its player meets their victory condition at a round's end."""
        return rules.victory_gems

    def wins_at_once(self, rules: Rules) -> int | None:
        """Gems with which its player wins at once, whenever that is checked (None: never)."""
        return None




def make_ability(kind: str, values: dict[str, Any]) -> Ability:
    return ABILITIES[kind](values)


# ---------------------------------------------------------------------- the entries
class Substitute(Ability):
    """身代わり [R-4]: when your servant would be destroyed, you may destroy this master
    instead (not against a contract cancellation nor アヴェンジャー's retaliation)."""

    kind: ClassVar[str] = SUBSTITUTE

    def loss_offer(self, g: Game, loss: Loss) -> Decision | None:
        victim, what, how, src = loss
        if what == "servant" and how in ("destroy", "sure"):
            return Decision("substitute", ("yes", "no"), {"source": src})
        return None

    def replace_loss(self, g: Game, loss: Loss, answer: Any, first: bool) -> Loss | None:
        victim, what, how, src = loss
        if what == "servant" and how in ("destroy", "sure") and answer == "yes":
            if first:
                g.fires(victim)
                g.emit("substitute", seat=victim, master=g.t.names[g.s.master[victim]])
            return (victim, "master", "destroy", src)
        return None


class Jewel(Ability):
    """宝石魔術 [R-5]: once per battle, after the reveal, discard an action card from your
    hand; its value is added to your total."""

    kind: ClassVar[str] = "jewel"

    def battle_offer(self, g: Game, seat: int, land: str) -> Decision | None:
        t = g.t
        cards = sorted({c for c in g.s.hand[seat] if t.colour[c] >= 0})   # action cards
        if not cards:
            return None
        return Decision("jewel", ("pass",) + tuple(t.names_of(cards)), {"land": land})

    def battle_answer(self, g: Game, seat: int, answer: Any) -> int:
        if answer == "pass":
            return 0
        s = g.s
        card = g.t.ids[answer]
        s.hand[seat].remove(card)
        s.adisc.append(card)
        value = g.t.value[card]
        g.emit("jewel", seat=seat, card=answer, value=value)
        return value


class Darken(Ability):
    """黒化 [R-6]: when your servant is lost, this master turns dark: 魔力 ``mana`` and the
    servant's power + ``power`` while she is dark."""

    kind: ClassVar[str] = "darken"
    params: ClassVar[tuple[str, ...]] = ("mana", "power")
    darkens: ClassVar[bool] = True

    def after_servant_lost(self, g: Game, seat: int, card: Master, how: str,
                           fetched: dict[int, int | None]) -> None:
        s = g.s
        if not s.dark[seat]:
            g.fires(seat)
            s.dark[seat] = True
            g.emit("darken", seat=seat)

    def starts_dark(self, rules: Rules) -> bool:
        return rules.start_dark

    def mana(self, card: Master, dark: bool) -> int:
        return int(self.values["mana"]) if dark else card.mana

    def dark_power(self) -> int:
        return int(self.values["power"])


class FetchMaster(Ability):
    """偽臣の書 [R-22]: on its trigger (the edition's ``fetch_trigger``: this master destroyed,
    lost, or its servant destroyed), take the master ``card`` from the deck or discard as the
    new master, face up."""

    kind: ClassVar[str] = "fetch_master"
    params: ClassVar[tuple[str, ...]] = ("card", "trigger")

    def after_servant_lost(self, g: Game, seat: int, card: Master, how: str,
                           fetched: dict[int, int | None]) -> None:
        r = g.rules
        if r.fetch_trigger == "servant_destroyed" and how != "cancel" and not r.fetch_ignored:
            g.fires(seat)
            fetched[seat] = self._fetch(g, seat, g.t.ids[card.id])

    def after_master_lost(self, g: Game, seat: int, card: Master, how: str,
                          fetched: dict[int, int | None]) -> None:
        r = g.rules
        if r.fetch_ignored:
            return
        trig = r.fetch_trigger
        if trig == "master_lost" or (trig == "master_destroyed" and how != "cancel"):
            fetched[seat] = self._fetch(g, seat, g.t.ids[card.id])

    def _fetch(self, g: Game, seat: int, own: int) -> int | None:
        """The named master from the deck or discard, face up. ``None`` when she is face up
        in play (nothing happens); SELF when someone holds her face down (``own``, this
        master, comes back). A master lost in the same batch is already off the table.
        Either card is taken now, as the reaction fires, before any replacement is drawn:
        a replacement draw that reshuffles the master discard never takes it [R-20]."""
        from fuyuki.sbb.cards import SELF

        s = g.s
        name = str(self.values["card"])
        target = g.t.ids[name]
        for k in range(s.n):
            if s.master[k] == target and k != seat:
                if s.m_up[k]:
                    g.emit("fetch_nothing", seat=seat, card=name)
                    return None
                g.emit("fetch_back", seat=seat, card=g.t.names[own])
                if own in s.mdisc:   # lost in this batch: he leaves the discard now
                    s.mdisc.remove(own)
                return SELF
        for pile in (s.mdeck, s.mdisc):
            if target in pile:
                pile.remove(target)
                g.emit("fetch", seat=seat, card=name)
                return target
        return None


class Vessel(Ability):
    """聖杯の器: your victory condition is ``victory`` gems (final [R-7]); v1.x: with
    ``victory`` gems you win at once."""

    kind: ClassVar[str] = "vessel"
    params: ClassVar[tuple[str, ...]] = ("victory",)

    def victory_target(self, rules: Rules) -> int:
        return rules.victory_gems if rules.vessel_ends_game else int(self.values["victory"])

    def wins_at_once(self, rules: Rules) -> int | None:
        return int(self.values["victory"]) if rules.vessel_ends_game else None


class Overseer(Ability):
    """監督役 [R-8]: when another player's servant is lost, the first ``gems`` that player
    returns go to you instead of the pool."""

    kind: ClassVar[str] = "overseer"
    params: ClassVar[tuple[str, ...]] = ("gems",)

    def takes_returned_gems(self, g: Game, seat: int, victim: int, due: int) -> int | None:
        if seat == victim:
            return None
        give = min(int(self.values["gems"]), due)
        g.s.gems[seat] = g.s.gems[seat] + give
        g.flip(seat, "master")
        g.emit("overseer", seat=seat, from_seat=victim, gems=give)
        return give


class LifeExtension(Ability):
    """延命 [R-9]: when your servant is lost you return no gems."""

    kind: ClassVar[str] = "life_extension"

    def returns_no_gems(self, g: Game, seat: int) -> bool:
        g.fires(seat)
        g.emit("life_extension", seat=seat)
        return True


class Fragarach(Ability):
    """フラガラック: whenever 宝具 totals are compared, you win whatever the totals [R-23]."""

    kind: ClassVar[str] = "fragarach"
    wins_np_compare: ClassVar[bool] = True


class Snake(Ability):
    """蛇 [R-10]: in a battle where every participant played 出撃, your total is + ``bonus``."""

    kind: ClassVar[str] = "snake"
    params: ClassVar[tuple[str, ...]] = ("bonus",)

    def total_bonus(self, all_sortie: bool) -> int:
        return int(self.values["bonus"]) if all_sortie else 0


class Dojo(Ability):
    """タイガー道場 [R-11]: when your servant is lost, draw action cards up to your hand
    limit at once."""

    kind: ClassVar[str] = "dojo"

    def after_servant_lost(self, g: Game, seat: int, card: Master, how: str,
                           fetched: dict[int, int | None]) -> None:
        s, r = g.s, g.rules
        g.fires(seat)
        limit = card.mana if r.hand_limit else r.hand_size
        while len(s.hand[seat]) < limit and not s.over:
            if not g.draw_action(seat):
                break
        g.emit("dojo", seat=seat, hand=len(s.hand[seat]))


class InfiniteBlades(Ability):
    """無限の剣製 (the ubw and hf modes): against the servants or masters the mode names
    (``Rules.shirou_blades_vs``), this master's 宝具 is used instead of his servant's: the
    effect of the mode's ``blades_as`` servant, whose keyword test may count his own."""

    kind: ClassVar[str] = "infinite_blades"
    needs_mode: ClassVar[str] = "blades_as"

    def np_servant(self, g: Game, seat: int, parts: tuple[int, ...]) -> Servant | None:
        s, r, names = g.s, g.rules, g.t.names
        if not r.blades_as:
            return None
        vs = r.shirou_blades_vs
        if any(q != seat and (names[s.servant[q]] in vs or names[s.master[q]] in vs)
               for q in parts):
            sv = r.cards.servants[r.blades_as]
            g.emit("infinite_blades", seat=seat)   # the mode's servant, never named: someone may hold it face down
            return sv
        return None


#: every ability by its kind (the ``kind`` a card file names)
ABILITIES: dict[str, type[Ability]] = {cls.kind: cls for cls in (
    Ability, Substitute, Jewel, Darken, FetchMaster, Vessel, Overseer, LifeExtension, Fragarach,
    Snake, Dojo, InfiniteBlades)}


def _reduce(ab: Ability) -> tuple[Any, ...]:
    return type(ab), (ab.values,)


# compiled classes are pickled and copied through __init__ (see fuyuki._build)
for _cls in ABILITIES.values():
    copyreg.pickle(_cls, _reduce)
