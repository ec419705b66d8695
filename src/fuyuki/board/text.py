"""Text of events, decisions and options in ja/en, rendered from a view (never from the engine's
state), so a front end shows only what its seat may know. Names stay in Japanese."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fuyuki.core import i18n
from fuyuki.core.i18n import pick, tr

from fuyuki.board.content import Pack

_registered = False


def register() -> None:
    global _registered
    if not _registered:
        i18n.register("board", Path(__file__).parent)
        _registered = True


class Texts:
    def __init__(self, pack: Pack, view: dict[str, Any], lang: str = "ja"):
        register()
        self.pack, self.view, self.lang = pack, view, lang
        self.chars = {c["id"]: c for c in view["chars"]}

    def t(self, key: str, **p: Any) -> str:
        return tr(self.lang, f"board.{key}", **p)

    def camp(self, seat: Any) -> str:
        if seat is None:
            return "-"
        return pick(self.view["camps"][seat]["name"], self.lang)

    def char(self, cid: Any) -> str:
        c = self.chars.get(cid)
        return c["name"] if c else str(cid)

    def area(self, name: str, short: bool = False) -> str:
        """An area's name: in Japanese the pack's; in English the catalog's English name
        with the Japanese one (``short``: the map's English name alone, 13 columns at
        most). An area without an English name (a user's pack) keeps the pack's name."""
        if self.lang != "en":
            return self.pack.short_area(name) if short else name
        key = f"board.{'area_short' if short else 'area'}.{name}"
        english = tr("en", key)
        if english == key:
            return self.pack.short_area(name) if short else name
        return english if short else f"{english} ({name})"

    def card(self, ctype: str) -> str:
        c = self.pack.cards.get(ctype)
        return c.name if c else ctype

    def card_type_of(self, kid: str) -> str | None:
        """The card type of a card id in this seat's hand or plot (None: not a card)."""
        for h in self.view.get("hand", []) + self.view.get("plotted", []):
            if h["id"] == kid:
                return h["card"]
        return None

    def card_of(self, kid: str) -> str:
        ctype = self.card_type_of(kid)
        return self.card(ctype) if ctype is not None else kid

    def means(self, label: str) -> str:
        if label == "normal":
            return self.t("opt.normal")
        if label in self.pack.abilities:
            return self.pack.abilities[label].name
        return self.card(label)

    # ------------------------------------------------------------------ events
    def event(self, ev: dict[str, Any]) -> str:
        k, d = ev["kind"], ev["data"]
        t = self.t
        if k == "turn":
            return t("ev.turn", round=d["round"], camp=self.camp(d["seat"]))
        if k == "draw":
            return t("ev.draw", camp=self.camp(d["seat"]), count=d["count"])
        if k == "drew":
            return t("ev.drew", cards="、".join(self.card(x) for x in d["types"]))
        if k == "card_used" and d["why"] == "hand_limit":
            return t("ev.hand_limit_discard", camp=self.camp(d["seat"]), card=self.card(d["card"]))
        if k == "card_used":
            if d["why"] in ("play", "magic", "attack_bonus", "defence", "hand_limit"):
                why = t(f"why.{d['why']}")
            else:
                why = t("why.other") + ("：" if self.lang == "ja" else ": ") + self.means(d["why"])
            return t("ev.card_used", camp=self.camp(d["seat"]), card=self.card(d["card"]),
                     why=why)
        if k == "plot":
            return t("ev.plot", camp=self.camp(d["seat"]), count=d["count"])
        if k == "plotted":
            return t("ev.plotted", card=self.card(d["type"]))
        if k == "solo":
            return t("ev.solo_on" if d["alone"] else "ev.solo_off", char=self.char(d["char"]))
        if k == "part":
            return t("ev.part", camp=self.camp(d["seat"]), part=t(f"part.{d['part']}"))
        if k == "action":
            return t("ev.action", camp=self.camp(d["seat"]), action=t(f"act.{d['action']}"))
        if k in ("heal", "damage", "revive", "death", "stray", "out_of_reach"):
            hp = {"hp": max(0, d["hp"])} if "hp" in d else {}     # the dead show HP 0, not -9
            return t(f"ev.{k}", **{**d, "char": self.char(d["char"]), **hp})
        if k == "ability":
            return t("ev.ability", char=self.char(d["char"]), ability=self.means(d["ability"]))
        if k == "moved":
            return t("ev.moved", char=self.char(d["char"]), area=self.area(d["area"]))
        if k == "recontract":
            return t("ev.recontract_ok" if d["ok"] else "ev.recontract_ng",
                     char=self.char(d["char"]), dice="・".join(map(str, d["dice"])),
                     camp=self.camp(d["seat"]))
        if k in ("territory_built", "territory_destroyed", "territory_done"):
            return t(f"ev.{k}", camp=self.camp(d["seat"]), area=self.area(d["area"]),
                     char=self.char(d.get("char")))
        if k in ("barrier_built", "barrier_destroyed"):
            return t(f"ev.{k}", camp=self.camp(d["seat"]), area=self.area(d["area"]),
                     char=self.char(d.get("char")))
        if k == "barrier_hits":
            return t("ev.barrier_hits", camp=self.camp(d["seat"]), area=self.area(d["area"]),
                     chars="・".join(self.char(x) for x in d["chars"]))
        if k == "battle":
            return t("ev.battle", attacker=self.char(d["attacker"]),
                     targets="・".join(self.char(x) for x in d["targets"]))
        if k == "preempt":
            return t("ev.preempt", char=self.char(d["char"]), attacker=self.char(d["attacker"]))
        if k in ("battle_cancelled", "attack_cancelled"):
            return t(f"ev.{k}", attacker=self.char(d["attacker"]))
        if k == "attack":
            targets = " / ".join("・".join(self.char(x) for x in inst) for inst in d["targets"])
            bonus = f" +{d['bonus']}" if d["bonus"] else ""
            return t("ev.attack", attacker=self.char(d["attacker"]), means=self.means(d["means"]),
                     bonus=bonus, targets=targets)
        if k == "cover":
            return t("ev.cover", char=self.char(d["char"]), covered=self.char(d["covered"]))
        if k == "defence":
            choice = t(f"choice.{d['choice']}")
            if d.get("ability"):
                choice += f"【{self.means(d['ability'])}】"
            return t("ev.defence", char=self.char(d["char"]), attack=d["attack"], choice=choice,
                     bonus=f" +{d['bonus']}" if d["bonus"] else "")
        if k in ("instant_begin", "instant_end"):
            return t(f"ev.{k}")
        if k == "attack_roll":
            parts = []
            if d["dice"]:
                parts.append("🎲" + "+".join(map(str, d["dice"])))
            if d["at"]:
                parts.append(f"AT {d['at']}")
            if d["base"]:
                parts.append(str(d["base"]))
            if d["bonus"]:
                parts.append(str(d["bonus"]))
            return t("ev.attack_roll", attack=d["attack"], detail=" + ".join(parts) or "0",
                     value=d["value"])
        if k == "hit":
            extra = t("ev.resist", resist=d["resist"]) if d.get("resist") else ""
            c = self.char(d["char"])
            if d["choice"] == "guard":
                return t("ev.hit_guard", char=c, attack_value=d["attack_value"], df=d["df"],
                         damage=d["damage"]) + extra
            if d["choice"] == "evade":
                return t("ev.hit_evade_ok" if d["ok"] else "ev.hit_evade_ng", char=c,
                         die=d["die"], total=d["total"], damage=d["damage"]) + extra
            return t("ev.hit_offset", char=c, dice="+".join(map(str, d["dice"])),
                     value=d["value"], damage=d["damage"], back=d["back"])
        if k == "camp_out":
            return t("ev.camp_out", camp=self.camp(d["seat"]))
        if k == "reshuffle":
            return t("ev.reshuffle", count=d["count"])
        if k == "spell":
            s = t(f"spell.{d['spell']}")
            if d.get("char"):
                s += f"（{self.char(d['char'])}）" if self.lang == "ja" else f" ({self.char(d['char'])})"
            return t("ev.spell", camp=self.camp(d["seat"]), spell=s, left=d["left"])
        if k == "game_over":
            if d["winner"] is None:
                return t("ev.game_over_draw", reason=t(f"reason.{d['reason']}"))
            return t("ev.game_over_win", camp=self.camp(d["winner"]))
        return f"{k} {d}"

    # ------------------------------------------------------------------ decisions
    def prompt(self, decision: dict[str, Any]) -> str:
        info = dict(decision.get("info", {}))
        for key in ("char", "attacker"):
            if key in info:
                info[key] = self.char(info[key])
        if "means" in info:
            info["means"] = self.means(info["means"])
        if decision["kind"] == "defence":
            parts = [f"{info.get('dice', 0)}d6"] if info.get("dice") else []
            for k in ("at", "value", "bonus"):
                if info.get(k):
                    parts.append(str(info[k]))
            info["formula"] = " + ".join(parts) or "0"
        return self.t(f"dec.{decision['kind']}", **info)

    def option(self, kind: str, o: Any) -> str:
        t = self.t
        s = str(o)
        if s == "令呪":
            return t("opt.spell")
        if kind in ("plot", "pay", "discard", "boost") and s.startswith("k") and s[1:].isdigit():
            return self.card_of(s)
        if kind == "part":
            return t(f"part.{s}") if s != "end" else t("opt.end")
        if kind == "group":
            if s == "together":
                return t("opt.group_together")
            return t("opt.group_alone", char=self.char(s.split(":", 1)[1]))
        if kind in ("target", "aim", "heal_target", "order") and s in self.chars:
            c = self.chars[s]
            return f"{c['name']} (HP {c['hp']}/{c['max_hp']})"
        head, _, rest = s.partition(":")
        if kind == "action":
            if head == "concentrate":
                return t("act.concentrate")
            if head == "first_aid":
                return t("opt.first_aid", char=self.char(rest))
            if head == "recontract":
                return t("opt.recontract", char=self.char(rest))
            if head == "ability":
                aid, cid = rest.split(":")
                return t("opt.ability", ability=self.means(aid), char=self.char(cid))
            if head == "card":
                return self.card_of(rest)
        if kind == "move":
            if head == "move":
                return t("opt.move", dir=t(f"opt.{rest}"))
            if head == "build":
                return t("opt.build", char=self.char(rest))
        if kind == "dash":
            cid, d = s.split(":")
            return t("opt.dash", char=self.char(cid), dir=t(f"opt.{d}"))
        if kind == "battle" and head == "fight":
            return t("opt.fight", char=self.char(rest))
        if kind == "means":
            if s == "normal":
                return t("opt.normal")
            if head == "ability":
                a = self.pack.abilities[rest]
                return f"{a.name} — {pick(a.text, self.lang)}"
            if head == "card":
                kid_name = self.card_of(rest)
                return kid_name
        if kind == "cover" and s == "none":
            return t("opt.no_cover")
        if kind == "cover" and head == "cover":
            return t("opt.cover", char=self.char(rest))
        if kind == "defence":
            if head == "offset":
                return t("opt.offset", ability=self.means(rest))
            k, _, kid = s.partition("+")
            if kid:
                return t(f"opt.{k}_card", card=self.card_of(kid))
            return t(f"choice.{s}")
        if kind == "spell":
            if head in ("boost_at", "boost_df", "summon", "suicide"):
                return t("opt.spell_target", spell=t(f"spell.{head}"), char=self.char(rest))
            if head == "mana":
                return t("spell.mana")
        if kind == "unit":
            return t(f"opt.{s}")
        key = f"board.opt.{s}"
        if key in i18n.keys(self.lang):
            return t(f"opt.{s}")
        return s
