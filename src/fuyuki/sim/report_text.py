"""The report as terminal tables (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fuyuki.sim.text import cause, event, flag, interval, pct, reveal_round, t


def _names(report: dict):
    from fuyuki.sim.config import SimConfig

    cfg = report["config"]
    try:
        cs = SimConfig(players=cfg["players"], edition=cfg["edition"],
                       mode=None if cfg["mode"] == "standard" else cfg["mode"],
                       options=tuple(cfg["options"]), cards=cfg["cards"]).rules().cards
        return lambda s: cs.servants[s].name["ja"] if s in cs.servants else s
    except Exception:  # noqa: BLE001 - names are cosmetic
        return lambda s: s


def rate_table(lang: str, title: str, rows: list[dict], first: str, show_name: bool = True,
               label=None) -> Table:
    tab = Table(title=title, title_justify="left")
    tab.add_column(first)
    for col in ("games", "wins", "rate", "interval", "flag"):
        tab.add_column(t(lang, f"col.{col}"), justify="right" if col != "flag" else "left")
    for r in rows:
        name = label(r) if label else (r.get("name", str(r["id"])) if show_name else str(r["id"]))
        style = {"high": "bold green", "low": "bold red"}.get(r["flag"])
        tab.add_row(Text(name), str(r["games"]), str(r["wins"]), pct(r["rate"]), interval(r),
                    flag(lang, r["flag"]), style=style)
    return tab


def pick_pairs(rows: list[dict], limit: int) -> list[dict]:
    """Flagged pairs, then the best and the worst, at most ``limit`` unflagged extra rows."""
    flagged = [r for r in rows if r["flag"]]
    rest = [r for r in rows if not r["flag"]]
    half = max(1, limit // 2)
    extra = rest[:half] + [r for r in rest[-half:] if r not in rest[:half]]
    chosen = flagged + extra
    return sorted(chosen, key=lambda r: -r["rate"])


def render(report: dict[str, Any], console: Console, lang: str = "ja", pairs: int = 12) -> None:
    sname = _names(report)
    cfg = report["config"]
    console.print(f"[bold]{t(lang, 'title')}[/bold]")
    console.print(f"[yellow]{t(lang, 'note')}[/yellow]")
    console.print(t(lang, "summary", games=report["games"], players=report["players"],
                    bots=",".join(cfg["bots"]), assign=cfg["assign"], draws=report["draws"],
                    draw_rate=pct(report["draw_rate"]), share=pct(report["fair_share"])))
    if cfg["fixed"]:
        console.print(t(lang, "fixed", pairs=", ".join(
            f"{f['player']}={f['master']}+{f['servant']}" for f in cfg["fixed"])), markup=False)
    console.print(t(lang, "fair_share_help"))
    for section in ("masters", "servants"):
        absent = report.get("absent", {}).get(section, [])
        tab = rate_table(lang, t(lang, f"section.{section}"), report[section], t(lang, "col.card"))
        for card in absent:
            if card["why"] != "not_in_rules":
                tab.add_row(Text(card["name"]), "0", "0", "—", "—", t(lang, f"absent.{card['why']}"),
                            style="dim")
        console.print(tab)
        left_out = [card["name"] for card in absent if card["why"] == "not_in_rules"]
        if left_out:
            console.print(t(lang, "absent.not_in_rules", cards="、".join(left_out) if lang == "ja"
                            else ", ".join(left_out)), markup=False)
    console.print(rate_table(lang, t(lang, "section.pairs_flagged"),
                             pick_pairs(report["pairs"], pairs), t(lang, "col.card")))
    if report.get("dark_with"):
        console.print(rate_table(lang, t(lang, "section.dark_with"), report["dark_with"],
                                 t(lang, "col.servants")))
    console.print(rate_table(lang, t(lang, "section.offsets"), report["offsets"],
                             t(lang, "col.offset"), show_name=False))
    if len(set(cfg["bots"])) > 1 or cfg["fixed"]:
        console.print(rate_table(lang, t(lang, "section.by_player"), report["by_player"],
                                 t(lang, "col.player"), label=lambda r: f"{r['id']} ({r['name']})"))
    if len(set(cfg["bots"])) > 1:
        console.print(rate_table(lang, t(lang, "section.by_bot"), report["by_bot"],
                                 t(lang, "col.bot"), show_name=False))
    ln = report["length"]
    console.print(f"[bold]{t(lang, 'section.length')}[/bold]")
    console.print(t(lang, "length.rounds", mean=f"{ln['mean']:.2f}", median=f"{ln['median']:g}",
                    p90=f"{ln['p90']:g}", min=ln["min"], max=ln["max"]))
    console.print(t(lang, "length.time", spr=f"{ln['seconds_per_round']:g}",
                    mean=f"{ln['minutes_mean']:.1f}", median=f"{ln['minutes_median']:.1f}",
                    p90=f"{ln['minutes_p90']:.1f}"))
    reasons = Table(title=t(lang, "section.reasons"), title_justify="left")
    reasons.add_column(t(lang, "col.reason"))
    reasons.add_column(t(lang, "col.games"), justify="right")
    for k, v in report["reasons"].items():
        reasons.add_row(t(lang, f"reason.{k}"), str(v))
    console.print(reasons)
    bt = Table(title=t(lang, "section.battles") + " — " +
               t(lang, "length.battles", per_game=f"{report['battles']['per_game']:.2f}"),
               title_justify="left")
    bt.add_column(t(lang, "col.event"))
    bt.add_column(t(lang, "col.count"), justify="right")
    bt.add_column(t(lang, "col.per_game"), justify="right")
    for k, v in report["battles"]["kinds"].items():
        bt.add_row(t(lang, f"kind.{k}"), str(v["count"]), f"{v['per_game']:.3f}")
    console.print(bt)
    lt = Table(title=t(lang, "section.losses"), title_justify="left")
    for col in ("cause", "servants", "masters", "per_game"):
        lt.add_column(t(lang, f"col.{col}"), justify="left" if col == "cause" else "right")
    for r in report["losses"]:
        lt.add_row(Text(cause(lang, r["cause"], sname)), str(r["servants"]), str(r["masters"]),
                   f"{r['per_game']:.3f}")
    console.print(lt)
    at = Table(title=t(lang, "section.abilities"), title_justify="left")
    for col in ("event", "count", "per_game"):
        at.add_column(t(lang, f"col.{col}"), justify="left" if col == "event" else "right")
    for r in report["abilities"]:
        at.add_row(Text(event(lang, r["event"], sname)), str(r["count"]), f"{r['per_game']:.3f}")
    console.print(at)
    console.print(rate_table(lang, t(lang, "section.reveal"), report["hidden"]["reveal"],
                             t(lang, "col.round"), label=lambda r: reveal_round(lang, r["id"])))
    console.print(f"[bold]{t(lang, 'section.gap')}[/bold]")
    gap = report["hidden"]["gap"]
    if gap:
        console.print(t(lang, "gap.line", games=gap["games"], plain=pct(gap["plain_rate"]),
                        full=pct(gap["full_rate"]), gap=f"{100 * gap['gap']:+.1f} pt",
                        p=f"{gap['p']:.3f}"))
        console.print(t(lang, "gap.help"))
    else:
        console.print(t(lang, "gap.none"))
    if report.get("compare"):
        render_compare(report["compare"], console, lang)
    console.print(f"[yellow]{t(lang, 'note')}[/yellow]")


def render_compare(cmp: dict[str, Any], console: Console, lang: str, limit: int = 15) -> None:
    console.print(f"[bold]{escape(t(lang, 'section.compare', label=cmp['label']))}[/bold]")
    sm = Table(title=t(lang, "section.compare_summary"), title_justify="left")
    for col in ("value", "base", "other", "diff", "p"):
        sm.add_column(t(lang, f"col.{col}"), justify="left" if col == "value" else "right")
    s = cmp["summary"]
    sm.add_row(t(lang, "compare.draw_rate"), pct(s["draw_rate"]["base"]), pct(s["draw_rate"]["other"]),
               f"{100 * s['draw_rate']['diff']:+.1f} pt", f"{s['draw_rate']['p']:.3f}")
    for key in ("rounds_mean", "battles_per_game"):
        sm.add_row(t(lang, f"compare.{key}"), f"{s[key]['base']:.2f}", f"{s[key]['other']:.2f}",
                   f"{s[key]['diff']:+.2f}", "")
    console.print(sm)
    for section in ("masters", "servants", "pairs"):
        rows = [r for r in cmp[section] if r["diff"] is not None][:limit]
        tab = Table(title=t(lang, f"section.{section}"), title_justify="left")
        tab.add_column(t(lang, "col.card"))
        for col in ("base", "other", "diff", "p", "flag"):
            tab.add_column(t(lang, f"col.{col}"), justify="right" if col != "flag" else "left")
        for r in rows:
            tab.add_row(Text(r["name"]), f"{pct(r['base_rate'])} ({r['base_games']})",
                        f"{pct(r['other_rate'])} ({r['other_games']})",
                        f"{100 * r['diff']:+.1f} pt", f"{r['p']:.3f}",
                        t(lang, "flag.significant") if r["significant"] else "",
                        style="bold" if r["significant"] else None)
        console.print(tab)
