"""Text of the war's events (the battle's are in :mod:`fuyuki.rpg.text`)."""

from __future__ import annotations

from typing import Any

from fuyuki.core.events import Event
from fuyuki.core.i18n import pick


def _plain(r: Any, data: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in data.items():
        if isinstance(v, dict) and ("ja" in v or "en" in v):
            out[k] = pick(v, r.lang)
        else:
            out[k] = v
    return out


def render(r: Any, ev: Event) -> list[str]:
    kind, d = ev.kind, _plain(r, ev.data)
    tr = r.tr
    if kind == "war_start":
        out = [tr("war.start", roster=d["roster"], n=d["n"])]
        for p in ev.data["pairs"]:
            out.append(tr("war.pair", faction=pick(p["faction"], r.lang), servant=p["servant"],
                          lv=p["lv"], master=p["master"]))
        return out
    if kind == "dice_war":
        return [tr("dice.war", sha=d["sha"])] + ([d["head"]] if r.dice else [])
    if kind == "dice_end":
        if not r.dice:
            return []
        return [f"#WAR RECORD {c}" for c in d["record"]] + \
            [f"#DICE END {d['turns']} {d['seal']} {d['sha']}"]
    if kind == "turn_start":
        return [tr("war.turn", turn=d["turn"])]
    if kind in ("h_action", "h_comm", "h_mana"):
        return [tr("war." + kind)]
    if kind == "event":
        return [tr("war.event", slot=tr("war." + d["slot"]), who=d["who"], value=d["value"],
                   index=d["index"], text=d["text"])]
    if kind == "check":
        return [tr("war.check", faces_d=f"1D{d['faces']}", rate=d["rate"], value=d["value"],
                   result=tr("success" if d["success"] else "failure"))]
    if kind == "act_info":
        mods = "".join(f"＋{pick(n, r.lang)}{v}%" if r.lang == "ja" else f" + {pick(n, r.lang)} {v}%"
                       for n, v in ev.data["mods"])
        rate_text = tr("war.act_info_rate", base=d["base"], mods=mods, rate=d["rate"])
        return [tr("war.act_info", who=d["who"], target=d["target"], rate_text=rate_text)]
    if kind == "info_ok":
        return [tr("war.info_ok", target=d["target"])]
    if kind == "act_rest":
        site = tr("war.rest_site", site=d["site"], grade=d["grade"]) if d["site"] else ""
        ws = tr("war.rest_workshop", workshop=d["workshop"]) if d["workshop"] else ""
        return [tr("war.act_rest", who=d["who"], amount=d["amount"], magic=d["magic"], k=d["k"],
                   site=site, workshop=ws)]
    if kind == "act_soul":
        mode = tr("war.soul_mode_full") if d["full"] else tr("war.soul_mode_normal", gain=d["gain"])
        return [tr("war.act_soul", who=d["who"], mode=mode)]
    if kind == "mana_check":
        no_seal = tr("war.mana_no_seal", cost=d["cost"]) if d["cost"] else ""
        pen = tr("war.penalty", penalty=d["penalty"]) if d["penalty"] else ""
        return [tr("war.mana_check", who=d["who"], before=d["before"], magic=d["magic"],
                   no_seal=no_seal, after=d["after"], max=d["max"], penalty=pen)]
    if kind == "mana_rest":
        pen = tr("war.penalty", penalty=d["penalty"]) if d["penalty"] else ""
        return [tr("war.mana_rest", **{**d, "penalty": pen})]
    if kind == "offer":
        return [tr("war.offer", who=d["who"], target=d["target"],
                   result=tr("war.offer_yes" if d["accepted"] else "war.offer_no"))]
    if kind == "seal_gift":
        key = "war.gift_moved" if d["moved"] else "war.gift_full" if d["accepted"] else "war.gift_refused"
        return [tr(key, who=d["who"], target=d["target"])]
    if kind == "out":
        return [tr("war.out", who=d["who"], reason=tr("war.reason_" + d["reason"]))]
    if kind == "war_end":
        if d["reason"] == "faction":
            reason = tr("war.end_faction", faction=pick(ev.data["faction"], r.lang))
        elif d["reason"] == "last":
            reason = tr("war.end_last", who=d["who"])
        elif d["reason"] == "limit":
            reason = tr("war.end_limit", turns=d["turns"])
        else:
            reason = tr("war.end_none")
        out = [tr("war.end", reason=reason)]
        for n, row in enumerate(ev.data["ranking"], 1):
            out.append(tr("war.rank", n=n, who=row["who"], faction=pick(row["faction"], r.lang),
                          wins=row["wins"], losses=row["losses"], mana=row["mana"],
                          seals=row["seals"]))
        return out
    return [tr("war." + kind, **d)]
