"""A game set up in mid-play: the ``setup`` table of a game's config (scenarios, the judge).

The game starts at the beginning of a camp's turn (before its draw) in the state the table
gives; what it leaves out is as a new game has it. Every key sets one part of that state, and a
state the rules cannot reach is refused with the key that makes it so — a ScenarioError whose
file is ``setup`` (:func:`fuyuki.board.game.replay` and the judge say where the table was):

- ``round``, ``turn`` (the seat whose turn starts), ``order`` (checked: the round's order is
  the pack's ``turn_order`` [R-7], never free);
- ``chars.<id>``: ``pos``, ``hp``, ``dead``, ``stray``, ``camp`` (a re-contracted servant's
  seat), ``alone``, ``revives``, and the numbers ``max_hp``, ``at``, ``df``, ``skills``, ``ch``
  and ``hand_limit`` (masters);
- ``camps.<seat>``: ``hand``, ``plotted``, ``spells``, ``territory``, ``barrier`` (結界);
- ``deck`` (the top of the deck, first drawn first), ``discard`` (the discard pile),
  ``clear_deck`` (the deck holds only ``deck``), ``start_hand`` (cards drawn by a camp whose
  ``hand`` is not given).

Refused: HP above the maximum, a living character at 0 HP or less, a dead character with
十二の試練 left, a dead master whose servant stays contracted, a servant away from its camp while
its master lives, fewer than two camps in play, 単独行動 without the skill, 山門 away from its
area, more plotted cards than CH, a card in two places (more copies than the deck holds), cards
or a 陣地 for a camp that is out, two completed 陣地 in one area, a turn order the rules do not
give.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from fuyuki.core import i18n
from fuyuki.core.data import Table
from fuyuki.core.errors import ScenarioError

if TYPE_CHECKING:
    from fuyuki.board.game import Game

SETUP_KEYS = ["round", "turn", "order", "chars", "camps", "deck", "discard", "clear_deck",
              "start_hand"]
CHAR_KEYS = ["pos", "hp", "max_hp", "at", "df", "ch", "hand_limit", "skills", "revives",
             "alone", "dead", "stray", "camp"]
CAMP_KEYS = ["hand", "plotted", "spells", "territory", "barrier"]

_REASONS: list[bool] = []


def register_reasons() -> None:
    """The ja/en texts of the setup's and the judge's error codes (``load.reason.board_*``),
    so that an error prints in the user's language (:func:`fuyuki.core.load.error_line`)."""
    if not _REASONS:
        i18n.register("load.reason", Path(__file__).parent / "reasons")
        _REASONS.append(True)


def apply_setup(g: "Game", setup: Any, start_hand: int) -> int:
    """Set ``g`` up as ``setup`` says; returns the number of cards a camp without a ``hand``
    draws before the first turn."""
    register_reasons()
    top = Table(setup, "setup", error=ScenarioError)
    top.check_keys(SETUP_KEYS)
    pack = g.pack
    where = {pack.areas[r][c]: (r, c) for r in range(pack.height) for c in range(pack.width)}

    def area(t: Table, name: str) -> tuple[int, int]:
        v = t.str(name)
        if v not in where:
            raise t.fail(name, f"no area named {v!r} on the map", "board_no_area", area=v)
        return where[v]

    def take(t: Table, name: str) -> list[str]:
        out = []
        for i, ctype in enumerate(t.list_of(name, str, [])):
            if ctype not in pack.cards:
                raise t.fail(f"{name}[{i}]", f"no card {ctype!r} (known: {', '.join(pack.cards)})",
                             "board_no_card", card=ctype, known=", ".join(pack.cards))
            k = next((j for j in range(len(g.deck) - 1, -1, -1)
                      if g.card_type(g.deck[j]) == ctype), None)
            if k is None:
                n = pack.cards[ctype].count
                raise t.fail(f"{name}[{i}]", f"more {ctype!r} cards than the deck holds ({n}): a "
                             "card cannot be in two places", "board_card_twice", card=ctype,
                             count=n)
            out.append(g.deck.pop(k))
        return out

    moved = _chars(g, top.table("chars", {}), area)
    for camp in g.camps:
        if not g.chars[camp.master].alive:
            camp.out = True
            g.out_order.append(camp.seat)
    _check_camps_in_play(g, top.table("chars", {}), moved)
    camps_t = top.table("camps", {})
    for key in camps_t.data:
        if not (key.isascii() and key.isdigit() and int(key) < g.n):
            raise camps_t.fail(key, f"no seat {key!r} (seats 0 to {g.n - 1})", "board_no_seat",
                               seat=key, last=g.n - 1)
        _camp(g, camps_t.table(key), g.camps[int(key)], area, take)
    _check_territories(g, camps_t)
    top_cards = take(top, "deck")
    g.discard.extend(take(top, "discard"))
    if top.bool("clear_deck", False):
        g.deck = []                     # only the listed cards are in the deck
    g.deck.extend(reversed(top_cards))  # the first listed is drawn first
    _turn(g, top)
    return top.int("start_hand", start_hand, lo=0, hi=20)


def _chars(g: "Game", chars_t: Table, area: Any) -> dict[str, tuple[int | None, str]]:
    """Each character's keys; returns the servants set away from their camp (their old seat
    and the key that moved them)."""
    moved: dict[str, tuple[int | None, str]] = {}
    for cid in chars_t.data:
        if cid not in g.chars:
            raise chars_t.fail(cid, "no such character in this game", "board_no_char", char=cid)
        t = chars_t.table(cid)
        t.check_keys(CHAR_KEYS)
        ch = g.chars[cid]
        if t.has("skills"):
            sk = t.table("skills")
            for k in sk.data:
                if k not in g.pack.skills:
                    raise sk.fail(k, f"unknown skill (known: {', '.join(g.pack.skills)})",
                                  "board_no_skill", known=", ".join(g.pack.skills))
            ch.skills = {**ch.skills, **{k: sk.int(k, lo=0, hi=20) for k in sk.data}}
        if t.has("max_hp"):
            ch.max_hp = ch.hp = t.int("max_hp", lo=1, hi=999)
        for stat in ("at", "df"):
            if t.has(stat):
                setattr(ch, stat, t.int(stat, lo=0, hi=99))
        for stat, hi in (("ch", 10), ("hand_limit", 30)):
            if t.has(stat):
                if ch.role != "master":
                    raise t.fail(stat, "only a master has CH and a hand limit",
                                 "board_master_only")
                camp = next(c for c in g.camps if c.master == cid)
                setattr(camp, stat, t.int(stat, lo=0, hi=hi))
        dead = t.bool("dead", False)
        if t.has("hp"):
            hp = t.int("hp", lo=-999, hi=999)
            if hp > ch.max_hp:
                raise t.fail("hp", f"HP {hp} is above the maximum {ch.max_hp}",
                             "board_hp_over_max", hp=hp, max=ch.max_hp)
            if hp <= 0 and not dead:
                raise t.fail("hp", "a character at 0 HP or less is dead (dead = true)",
                             "board_hp_dead")
            if hp > 0 and dead:
                raise t.fail("hp", "a dead character has 0 HP or less", "board_dead_hp")
            ch.hp = hp
        if dead:
            ch.alive = False
            ch.hp = min(ch.hp, 0)
        if t.has("revives"):
            ch.revives = t.int("revives", lo=0, hi=ch.skill("revive"))
        if dead and ch.revives:
            raise t.fail("revives" if t.has("revives") else "dead",
                         f"a character with 十二の試練 left ({ch.revives}) comes back instead of "
                         "dying (revives = 0)", "board_dead_revives", left=ch.revives)
        home = ch.pos
        if t.has("pos"):
            ch.pos = area(t, "pos")
            if ch.skill("gatekeeper") and ch.pos != home:
                raise t.fail("pos", f"山門 cannot leave its area ({g.area(home)})",
                             "board_gatekeeper", area=g.area(home))
        for key in ("stray", "camp"):
            if t.has(key) and ch.role == "master":
                raise t.fail(key, "a master always belongs to its own camp", "board_master_camp")
        stray = t.bool("stray", False)
        if stray and t.has("camp"):
            raise t.fail("camp", "a はぐれ servant belongs to no camp: give stray or camp, not both",
                         "board_stray_and_camp")
        owner = None if stray else t.int("camp", ch.camp, lo=0, hi=g.n - 1)
        if owner != ch.camp:
            moved[cid] = (ch.camp, "stray" if stray else "camp")
            ch.camp = owner
        if t.bool("alone", False):
            if not ch.skill("solo"):
                raise t.fail("alone", "only a character with 単独行動 (solo) acts alone",
                             "board_alone_skill")
            if not ch.alive or ch.camp is None:
                raise t.fail("alone", "a dead or はぐれ character does not act alone",
                             "board_alone_state")
            ch.alone = True
    return moved


def _check_camps_in_play(g: "Game", chars_t: Table,
                         moved: dict[str, tuple[int | None, str]]) -> None:
    """A dead master's camp is out and its servants are はぐれ; a servant leaves its camp only
    when its master dies; at least two camps are in play."""
    for cid, (home, key) in moved.items():
        ch = g.chars[cid]
        if home is not None and not g.camps[home].out:
            raise chars_t.table(cid).fail(
                key, f"a servant leaves its camp only when its master dies "
                f"({g.chars[g.camps[home].master].name} is alive)", "board_servant_left",
                master=g.chars[g.camps[home].master].name)
        if ch.camp is not None and g.camps[ch.camp].out:
            raise chars_t.table(cid).fail("camp", f"camp {ch.camp} is out (its master is dead)",
                                          "board_camp_out", seat=ch.camp)
    for camp in g.camps:
        if not camp.out:
            continue
        for s in g.chars.values():
            if s.alive and s.camp == camp.seat:
                raise chars_t.table(camp.master).fail(
                    "dead", f"a dead master's camp is out: its servant {s.name} must be はぐれ "
                    f"(chars.{s.id}.stray = true) or dead", "board_out_servant",
                    servant=s.name, id=s.id)
    left = [c for c in g.camps if not c.out]
    if len(left) < 2:
        last = next(c for c in reversed(g.camps) if c.out)
        raise chars_t.table(last.master).fail(
            "dead", "fewer than two camps would have a living master: the game would be over",
            "board_game_over")


def _camp(g: "Game", t: Table, camp: Any, area: Any, take: Any) -> None:
    t.check_keys(CAMP_KEYS)
    if camp.out:
        for key in ("hand", "plotted", "territory", "barrier"):
            if t.has(key):
                raise t.fail(key, "this camp is out (its master is dead): its cards and 陣地 "
                             "went with it", "board_out_camp_cards")
    camp.hand.extend(take(t, "hand"))
    plotted = take(t, "plotted")
    if len(plotted) > camp.ch:
        raise t.fail("plotted", f"{len(plotted)} plotted cards: more than CH {camp.ch}",
                     "board_plotted_over_ch", count=len(plotted), ch=camp.ch)
    camp.plotted.extend(plotted)
    if t.has("spells"):
        camp.spells = t.int("spells", lo=0, hi=g.pack.rules["command_spells"])
    if t.has("territory"):
        tt = t.table("territory")
        tt.check_keys(["pos", "done"])
        camp.territory = {"pos": area(tt, "pos"), "done": tt.bool("done", False)}
    if t.has("barrier"):
        bt = t.table("barrier")
        bt.check_keys(["pos", "ability"])
        aid = bt.str("ability")
        a = g.pack.abilities.get(aid)
        if a is None or a.effect != "barrier":
            known = [k for k, v in g.pack.abilities.items() if v.effect == "barrier"]
            raise bt.fail("ability", f"{aid!r} makes no 結界 (known: {', '.join(known)})",
                          "board_no_barrier", known=", ".join(known))
        camp.barrier = {"pos": area(bt, "pos"), "ability": aid}


def _check_territories(g: "Game", camps_t: Table) -> None:
    """A completed 陣地 destroys any other completed one in its area: two never share one."""
    done: dict[tuple[int, int], int] = {}
    for camp in g.camps:
        t = camp.territory
        if t is None or not t["done"]:
            continue
        if t["pos"] in done:
            raise camps_t.table(str(camp.seat)).fail(
                "territory", f"camp {done[t['pos']]}'s completed 陣地 is already at "
                f"{g.area(t['pos'])}", "board_territory_twice", seat=done[t["pos"]],
                area=g.area(t["pos"]))
        done[t["pos"]] = camp.seat


def _turn(g: "Game", top: Table) -> None:
    """``round``, ``turn`` and ``order``: the round's order is the rules' [R-7]."""
    g.round = top.int("round", 1, lo=1, hi=g.pack.rules["max_rounds"])
    order = g.round_order(g.round)
    if top.has("order"):
        given = top.list_of("order", int)
        if given != order:
            raise top.fail("order", f"round {g.round} is played in the order {order} "
                           f"(turn_order = {g.pack.rules['turn_order']!r}), not {given}",
                           "board_order", round=g.round, order=str(order),
                           how=g.pack.rules["turn_order"], got=str(given))
    if top.has("turn"):
        seat = top.int("turn", lo=0, hi=g.n - 1)
        if g.camps[seat].out:
            raise top.fail("turn", f"camp {seat} is out (its master is dead)", "board_camp_out",
                           seat=seat)
    else:
        seat = next(s for s in order if not g.camps[s].out)
    g.turn_seat = seat
