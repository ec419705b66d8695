"""What a person sees of a decision: each option's label and what it does (its effect and its
odds, as the terminal breakdown shows them). Shared by the terminal prompts and the web page."""

from __future__ import annotations

from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.rpg.text import ORDER, stat_name, t


def option_label(lang: str, d: Decision, opt: Any, names: dict[str, str]) -> str:
    from fuyuki.rpg.rules import default_rules

    s = str(opt)
    info_names = d.info.get("names", {})
    allnames = {**names, **info_names}

    def nm(x: str) -> str:
        return allnames.get(x, x)

    if d.kind == "pick_stat":
        return stat_name(lang, s)
    if d.kind == "lineup":
        main, sub = s.split("|")
        return t(lang, "opt.lineup", x=nm(main) if main != "-" else "-", y=nm(sub))
    if d.kind == "engage" and s in ("attack", "surprise"):
        return t(lang, f"opt.{s}_yes")
    if d.kind == "mana" and s == "seal":
        return t(lang, "opt.seal_mana")
    kind, _, arg = s.partition(":")
    if kind == "contact" and arg == "random":
        return t(lang, "opt.contact_random")
    if kind in ("craft", "item", "use"):
        item_id = arg.split(":")[-1]
        item = default_rules().items.get(item_id)
        return t(lang, f"opt.{kind}", x=item.name[lang] if item else item_id)
    if kind == "ability":
        cid, _, k = arg.rpartition(":")
        return t(lang, "opt.ability", x=f"{nm(cid)}「{info_names.get(arg, k)}」")
    key = f"opt.{kind}"
    text = t(lang, key, x=nm(arg) if arg else "")
    return text if not text.startswith(key) else s


def option_hint(lang: str, war: Any, seat: int, d: Decision, opt: Any) -> str:
    """The effect and odds of ``opt`` for the pair at ``seat`` ("" when there is nothing to
    add), computed from what that pair may know: its own sheet and the decision's public info."""
    r = war.rules
    ps = war.pairs[seat]
    s = str(opt)
    kind, _, arg = s.partition(":")
    a = r.actions
    if s == "seal_mana":
        return t(lang, "hint.mana", value=r.seals["mana"])
    if s == "cut_supply":
        return t(lang, "hint.cut_supply")
    if d.kind == "engage" and s == "surprise":
        return t(lang, "hint.surprise")
    if d.kind == "action":
        if kind == "info":
            rate = a["info_base"] + sum(i.value * ps.item_count(i.id) for i in war.set_items(ps)
                                        if i.kind == "info")
            rate += sum(x.value_of("info") or 0 for c in (ps.servant, ps.master) for x in c.abilities)
            known = t(lang, "hint.known") if arg in ps.known else ""
            return t(lang, "hint.info", rate=rate) + known
        if kind == "craft":
            return t(lang, "hint.rate", rate=ps.master.stats["mgi"] * a["craft_per_magic"])
        if kind == "rest":
            return t(lang, "hint.rest", amount=war.rest_amount(ps)[0])
        if kind in ("soul", "soul_full"):
            gain = "max" if kind == "soul_full" else a["soul_gain"]
            return t(lang, "hint.soul", gain=gain, detect=a["soul_detect"])
        if kind in ("attack", "snipe"):
            return t(lang, "hint.battle")
        if kind == "surprise":
            return t(lang, "hint.surprise")
        if kind == "contact":
            return t(lang, "hint.contact")
        return ""
    if d.kind in ("pick_stat", "redraw") and d.info.get("totals"):
        side = int(d.info.get("side", 0))
        tot = d.info["totals"]
        if d.kind == "pick_stat":
            i = ORDER.index(s)
            mine, theirs = tot[side][i], tot[1 - side][i]
            return t(lang, "hint.compare", mine=mine, theirs=theirs, diff=f"{mine - theirs:+d}")
        if kind == "redraw":
            return t(lang, "hint.redraw", n=len(d.info.get("four", [])))
        return ""
    if d.kind == "declare":
        if kind == "seal":
            return t(lang, "hint.plus", value=f"{r.seals['rate_main']}/{r.seals['rate_sub']}")
        if kind == "item":
            item = r.items.get(arg.split(":")[-1])
            return t(lang, "hint.plus", value=item.value) if item else ""
        if kind == "ability":
            cid, _, k = arg.rpartition(":")
            for c in (ps.servant, ps.master):
                if c.id == cid and k.isdigit() and int(k) < len(c.abilities):
                    return t(lang, "hint.plus", value=c.abilities[int(k)].value_of("win_rate"))
        return ""
    if d.kind == "prepare":
        if kind == "boost":
            return t(lang, "hint.boost", value=r.seals["stat_boost"])
        if kind == "mana":
            return t(lang, "hint.mana", value=r.seals["mana"])
        return ""
    if d.kind == "retreat" and kind == "pay":
        rest = max(0, int(d.info.get("cost", 0)) - int(arg))
        return t(lang, "hint.pay", seals=arg, mana=rest * int(d.info.get("mana_per_seal", 100)))
    if d.kind == "reroll" and s != "keep":
        return t(lang, "hint.rate", rate=d.info.get("rate"))
    if d.kind == "mana":
        if s == "seal":
            return t(lang, "hint.mana", value=r.seals["mana"])
        if kind == "item":
            item = r.items.get(arg)
            return t(lang, "hint.mana", value=item.value) if item else ""
    return ""
