"""The report as one self-contained HTML page: tables and matplotlib plots embedded as
base64 PNG (no network). The same plots can be collected as PNG files to write beside it."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from fuyuki.sim.report_text import _names, pick_pairs
from fuyuki.sim.text import cause, event, flag, interval, pct, reveal_round, t

CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans CJK", "IPAexGothic", "TakaoGothic")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    fonts = _cjk_fonts(font_manager)
    plt.rcParams["font.family"] = fonts + ["DejaVu Sans"] if fonts else ["DejaVu Sans"]
    plt.rcParams["font.size"] = 11
    return plt


def _cjk_fonts(font_manager) -> list[str]:
    """The CJK fonts of :data:`CJK_FONTS` matplotlib can use. Its font list is a cache made
    once per matplotlib version: a font installed after it (``./dev test`` installs Noto
    CJK) is missing from it, and the plots' Japanese would come out as empty boxes. So when
    none is listed, the system's CJK font files are added to it."""
    have = {f.name for f in font_manager.fontManager.ttflist}
    if not any(f in have for f in CJK_FONTS):
        for path in font_manager.findSystemFonts(fontext="ttf"):
            if any(key in path for key in ("CJK", "IPAex", "Takao")):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue   # a file it cannot read: the others may do
        have = {f.name for f in font_manager.fontManager.ttflist}
    return [f for f in CJK_FONTS if f in have]


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def rate_plot(rows: list[dict], share: float, title: str, lang: str, label=None) -> str:
    plt = _pyplot()
    labels = [label(r) if label else str(r.get("name", r["id"])) for r in rows]
    rates = [r["rate"] for r in rows]
    err = [[max(0.0, r["rate"] - r["lo"]) for r in rows], [max(0.0, r["hi"] - r["rate"]) for r in rows]]
    colours = ["#2a9d3a" if r["flag"] == "high" else "#c0392b" if r["flag"] == "low"
               else "#5b7aa6" for r in rows]
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * len(rows) + 1.5), 3.6))
    ax.bar(range(len(rows)), rates, yerr=err, color=colours, capsize=3)
    ax.axhline(share, color="black", linestyle="--", linewidth=1, label=t(lang, "plot.fair"))
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=45, ha="right")
    ax.set_ylabel(t(lang, "plot.win_rate"))
    ax.set_title(title)
    ax.legend()
    return _png(fig)


def histogram_plot(hist: dict[str, int], xlabel: str, title: str, lang: str) -> str:
    plt = _pyplot()
    xs = [int(k) for k in hist]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.bar(xs, list(hist.values()), color="#5b7aa6")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(t(lang, "plot.games"))
    ax.set_title(title)
    return _png(fig)


def pair_heatmap(report: dict, lang: str) -> str:
    plt = _pyplot()
    masters = [r["id"] for r in report["masters"]]
    servants = [r["id"] for r in report["servants"]]
    names_m = {r["id"]: r["name"] for r in report["masters"]}
    names_s = {r["id"]: r["name"] for r in report["servants"]}
    grid = [[float("nan")] * len(servants) for _ in masters]
    counts = [[0] * len(servants) for _ in masters]
    for r in report["pairs"]:
        m, s = r["id"].split("+")
        if m in masters and s in servants:
            grid[masters.index(m)][servants.index(s)] = r["rate"]
            counts[masters.index(m)][servants.index(s)] = r["games"]
    fig, ax = plt.subplots(figsize=(1.0 + 0.75 * len(servants), 1.0 + 0.5 * len(masters)))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=max(0.5, 2 * report["fair_share"]))
    ax.set_xticks(range(len(servants)))
    ax.set_xticklabels([names_s[s] for s in servants], rotation=45, ha="right")
    ax.set_yticks(range(len(masters)))
    ax.set_yticklabels([names_m[m] for m in masters])
    for i in range(len(masters)):
        for j in range(len(servants)):
            if counts[i][j]:
                ax.text(j, i, f"{100 * grid[i][j]:.0f}\n({counts[i][j]})", ha="center",
                        va="center", fontsize=6)
    fig.colorbar(im, ax=ax, label=t(lang, "plot.win_rate"))
    ax.set_title(t(lang, "section.pairs"))
    return _png(fig)


def _table(headers: list[str], rows: list[list[Any]], classes: list[str] | None = None) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _rate_table(lang: str, rows: list[dict], first: str, label=None,
                absent: list[dict] | None = None) -> str:
    """A table of rate rows; ``absent``: cards without games, each a row saying why (those
    the rules leave out are said under the table)."""
    heads = [first] + [t(lang, f"col.{c}") for c in ("games", "wins", "rate", "interval", "flag")]
    body = [[label(r) if label else r.get("name", r["id"]), r["games"], r["wins"], pct(r["rate"]),
             interval(r), flag(lang, r["flag"])] for r in rows]
    missing = [c for c in absent or [] if c["why"] != "not_in_rules"]
    body += [[c["name"], 0, 0, "—", "—", t(lang, f"absent.{c['why']}")] for c in missing]
    return _table(heads, body, [r["flag"] for r in rows] + [""] * len(missing))


def _img(b64: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{b64}">'


def render_html(report: dict[str, Any], lang: str = "ja",
                plots: dict[str, bytes] | None = None) -> str:
    """The page; each plot is also put in ``plots`` (file name → PNG bytes) when given."""
    def _plot(name: str, b64: str, alt: str) -> str:
        if plots is not None:
            plots[f"plot-{name}.png"] = base64.b64decode(b64)
        return _img(b64, alt)

    sname = _names(report)
    cfg = report["config"]
    share = report["fair_share"]
    h: list[str] = []
    esc = html.escape
    h.append(f"<h1>{esc(t(lang, 'title'))}</h1>")
    h.append(f'<p class="note">{esc(t(lang, "note"))}</p>')
    h.append("<p>" + esc(t(lang, "summary", games=report["games"], players=report["players"],
                             bots=",".join(cfg["bots"]), assign=cfg["assign"],
                             draws=report["draws"], draw_rate=pct(report["draw_rate"]),
                             share=pct(share))) + "</p>")
    if cfg["fixed"]:
        h.append("<p>" + esc(t(lang, "fixed", pairs=", ".join(
            f"{f['player']}={f['master']}+{f['servant']}" for f in cfg["fixed"]))) + "</p>")
    h.append(f"<p>{esc(t(lang, 'fair_share_help'))}</p>")
    card = t(lang, "col.card")
    for section in ("masters", "servants"):
        title = t(lang, f"section.{section}")
        h.append(f"<h2>{esc(title)}</h2>")
        if report[section]:
            h.append(_plot(section, rate_plot(report[section], share, title, lang), title))
        h.append(_rate_table(lang, report[section], card,
                             absent=report.get("absent", {}).get(section, [])))
        left_out = [c["name"] for c in report.get("absent", {}).get(section, [])
                    if c["why"] == "not_in_rules"]
        if left_out:
            h.append(f"<p>{esc(t(lang, 'absent.not_in_rules', cards=', '.join(left_out)))}</p>")
    h.append(f"<h2>{esc(t(lang, 'section.pairs'))}</h2>")
    if report["pairs"]:
        h.append(_plot("pairs", pair_heatmap(report, lang), t(lang, "section.pairs")))
    h.append(f"<h3>{esc(t(lang, 'section.pairs_flagged'))}</h3>")
    h.append(_rate_table(lang, pick_pairs(report["pairs"], 20), card))
    h.append(f"<details><summary>{esc(t(lang, 'section.pairs'))}</summary>")
    h.append(_rate_table(lang, report["pairs"], card) + "</details>")
    if report.get("dark_with"):
        h.append(f"<h2>{esc(t(lang, 'section.dark_with'))}</h2>")
        h.append(_rate_table(lang, report["dark_with"], t(lang, "col.servants")))
    title = t(lang, "section.offsets")
    h.append(f"<h2>{esc(title)}</h2>")
    if report["offsets"]:
        h.append(_plot("offsets", rate_plot(report["offsets"], share, title, lang), title))
    h.append(_rate_table(lang, report["offsets"], t(lang, "col.offset")))
    h.append(f"<h2>{esc(t(lang, 'section.by_player'))}</h2>")
    h.append(_rate_table(lang, report["by_player"], t(lang, "col.player"),
                         label=lambda r: f"{r['id']} ({r['name']})"))
    ln = report["length"]
    title = t(lang, "section.length")
    h.append(f"<h2>{esc(title)}</h2>")
    h.append("<p>" + esc(t(lang, "length.rounds", mean=f"{ln['mean']:.2f}",
                           median=f"{ln['median']:g}", p90=f"{ln['p90']:g}", min=ln["min"],
                           max=ln["max"])) + "<br>")
    h.append(esc(t(lang, "length.time", spr=f"{ln['seconds_per_round']:g}",
                   mean=f"{ln['minutes_mean']:.1f}", median=f"{ln['minutes_median']:.1f}",
                   p90=f"{ln['minutes_p90']:.1f}")) + "</p>")
    if ln["histogram"]:
        h.append(_plot("length", histogram_plot(ln["histogram"], t(lang, "plot.rounds"),
                                                t(lang, "length.histogram"), lang), title))
    h.append(_table([t(lang, "col.reason"), t(lang, "col.games")],
                    [[t(lang, f"reason.{k}"), v] for k, v in report["reasons"].items()]))
    b = report["battles"]
    h.append(f"<h2>{esc(t(lang, 'section.battles'))}</h2>")
    per_game = format(b["per_game"], ".2f")
    h.append(f"<p>{esc(t(lang, 'length.battles', per_game=per_game))}</p>")
    h.append(_table([t(lang, "col.event"), t(lang, "col.count"), t(lang, "col.per_game")],
                    [[t(lang, f"kind.{k}"), v["count"], f"{v['per_game']:.3f}"]
                     for k, v in b["kinds"].items()]))
    h.append(f"<h2>{esc(t(lang, 'section.losses'))}</h2>")
    h.append(_table([t(lang, f"col.{c}") for c in ("cause", "servants", "masters", "per_game")],
                    [[cause(lang, r["cause"], sname), r["servants"], r["masters"],
                      f"{r['per_game']:.3f}"] for r in report["losses"]]))
    h.append(f"<h2>{esc(t(lang, 'section.abilities'))}</h2>")
    h.append(_table([t(lang, f"col.{c}") for c in ("event", "count", "per_game")],
                    [[event(lang, r["event"], sname), r["count"], f"{r['per_game']:.3f}"]
                     for r in report["abilities"]]))
    title = t(lang, "section.reveal")
    h.append(f"<h2>{esc(title)}</h2>")
    reveal = report["hidden"]["reveal"]
    label = lambda r: reveal_round(lang, r["id"])  # noqa: E731
    if reveal:
        h.append(_plot("reveal", rate_plot(reveal, share, title, lang, label=label), title))
    h.append(_rate_table(lang, reveal, t(lang, "col.round"), label=label))
    h.append(f"<h2>{esc(t(lang, 'section.gap'))}</h2>")
    gap = report["hidden"]["gap"]
    if gap:
        h.append("<p>" + esc(t(lang, "gap.line", games=gap["games"], plain=pct(gap["plain_rate"]),
                               full=pct(gap["full_rate"]), gap=f"{100 * gap['gap']:+.1f} pt",
                               p=f"{gap['p']:.3f}")) + "<br>" + esc(t(lang, "gap.help")) + "</p>")
    else:
        h.append(f"<p>{esc(t(lang, 'gap.none'))}</p>")
    cmp = report.get("compare")
    if cmp:
        h.append(f"<h2>{esc(t(lang, 'section.compare', label=cmp['label']))}</h2>")
        s = cmp["summary"]
        h.append(_table([t(lang, f"col.{c}") for c in ("value", "base", "other", "diff", "p")], [
            [t(lang, "compare.draw_rate"), pct(s["draw_rate"]["base"]), pct(s["draw_rate"]["other"]),
             f"{100 * s['draw_rate']['diff']:+.1f} pt", f"{s['draw_rate']['p']:.3f}"],
            [t(lang, "compare.rounds_mean"), f"{s['rounds_mean']['base']:.2f}", f"{s['rounds_mean']['other']:.2f}",
             f"{s['rounds_mean']['diff']:+.2f}", ""],
            [t(lang, "compare.battles_per_game"), f"{s['battles_per_game']['base']:.2f}",
             f"{s['battles_per_game']['other']:.2f}", f"{s['battles_per_game']['diff']:+.2f}", ""]]))
        for section in ("masters", "servants", "pairs", "offsets"):
            rows = [r for r in cmp[section] if r["diff"] is not None]
            h.append(f"<h3>{esc(t(lang, f'section.{section}'))}</h3>")
            h.append(_table(
                [card] + [t(lang, f"col.{c}") for c in ("base", "other", "diff", "p", "flag")],
                [[r["name"], f"{pct(r['base_rate'])} ({r['base_games']})",
                  f"{pct(r['other_rate'])} ({r['other_games']})", f"{100 * r['diff']:+.1f} pt",
                  f"{r['p']:.3f}", t(lang, "flag.significant") if r["significant"] else ""]
                 for r in rows], ["high" if r["significant"] else "" for r in rows]))
    h.append(f'<p class="note">{esc(t(lang, "note"))}</p>')
    body = "\n".join(h)
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{esc(t(lang, 'title'))}</title>
<style>
body {{ font-family: "Noto Sans CJK JP", sans-serif; margin: 2em; max-width: 72em; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
tr.high td {{ background: #e3f4e3; }} tr.low td {{ background: #f8e1df; }}
.note {{ background: #fff5d6; padding: 0.5em 1em; border-left: 4px solid #e0a800; }}
img {{ max-width: 100%; display: block; margin: 0.5em 0; }}
</style></head><body>
{body}
</body></html>
"""
