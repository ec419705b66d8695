"""From game summaries to the report (a JSON-ready dict).

Counting conventions (also in docs/simulator.md):

- a *win* is a sole win; a drawn game (several winners) is a win for nobody and counts in
  ``draws``;
- the *fair share* is ``1/N`` of the decided games: ``(1 − draw rate) / N``, the rate every
  seat would have if the game were perfectly fair — with no draws it is exactly ``1/N``;
- a player's master and servant are the ones they held after the drafts (or the deal), the
  pairing they chose or were given, whatever happened to them later;
- ``dark_with``: players whose master turned dark (黒化) in the game, by the servant they drew
  right after — the servant she is dark with (a darkness from the start, in the hf mode, is
  not counted here: there every 桜 is dark from her first round);
- rows whose Wilson 95 % interval lies wholly above (below) the fair share are flagged
  ``high`` (``low``);
- every master and servant of the card set has a row or a line in ``absent`` saying why it
  has none: ``not_in_rules`` (the edition or mode leaves it out), ``not_drafted`` (no bot
  kept it in a draft), ``not_dealt`` (the random deal never gave it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from fuyuki.sim.config import SimConfig
from fuyuki.sim.stats import flag, int_mean, quantile, two_proportion, wilson
from fuyuki.sim.tally import NEVER, TABLES, Tally

NOTE = {
    "ja": "この報告はボット同士の対戦を数えたもので、人間のプレイではありません。",
    "en": "This report describes bot play, not human play.",
}


def rate_row(key: Any, wins: int, games: int, share: float, **extra: Any) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"id": key, **extra, "games": games, "wins": wins,
            "rate": wins / games if games else 0.0, "lo": lo, "hi": hi,
            "flag": flag(lo, hi, share)}


def rate_rows(table: dict[Any, list[int]], share: float,
              name: Callable[[Any], str] | None = None) -> list[dict[str, Any]]:
    """One :func:`rate_row` per key of a table of :meth:`Tally.tables`."""
    rows = []
    for k, (count, wins) in table.items():
        extra = {"name": name(k)} if name else {}
        rows.append(rate_row(k, wins, count, share, **extra))
    return rows


def build_report(cfg: SimConfig, counts: Tally, gap_games: list[dict]) -> dict[str, Any]:
    """The report of the games counted in ``counts`` (and of the hidden-identity games'
    summaries ``gap_games``, in pairs)."""
    rules = cfg.rules()
    cs = rules.cards
    n = cfg.players
    total = counts.games
    draws = counts.draws
    share = (total - draws) / (total * n) if total else 1 / n

    def mname(m: str) -> str:
        return cs.masters[m].name["ja"] if m in cs.masters else m

    def sname(s: str) -> str:
        return cs.servants[s].name["ja"] if s in cs.servants else s

    by_rate = lambda rows: sorted(rows, key=lambda r: (-r["rate"], str(r["id"])))  # noqa: E731
    by_id = lambda rows: sorted(rows, key=lambda r: r["id"])  # noqa: E731
    t = dict(zip(TABLES, counts.tables()))
    masters = by_rate(rate_rows(t["masters"], share, mname))
    servants = by_rate(rate_rows(t["servants"], share, sname))
    pairs = by_rate(rate_rows(t["pairs"], share,
                              lambda k: "+".join((mname(k.split("+")[0]), sname(k.split("+")[1])))))
    offsets = by_id(rate_rows(t["offsets"], share))
    players = by_id(rate_rows(t["by_player"], share, lambda k: cfg.bots[k]))
    bots = by_rate(rate_rows(t["by_bot"], share))
    dark = by_rate(rate_rows(t["dark_with"], share, sname))
    absent = {"masters": absent_cards(cs.masters, rules.masters, masters, rules.deal),
              "servants": absent_cards(cs.servants, rules.servants, servants, rules.deal)}
    reveal = by_id(rate_rows(t["reveal"], share))
    for r in reveal:
        if r["id"] == NEVER:
            r["id"] = "never"

    rounds = sorted(counts.rounds)
    spr = cfg.seconds_per_round
    mean = int_mean(rounds)
    length = {
        "mean": mean,
        "median": quantile(rounds, 0.5),
        "p90": quantile(rounds, 0.9),
        "min": rounds[0] if rounds else 0,
        "max": rounds[-1] if rounds else 0,
        "histogram": {str(k): v for k, v in sorted(Counter(rounds).items())},
        "seconds_per_round": spr,
        "minutes_mean": mean * spr / 60,
        "minutes_median": quantile(rounds, 0.5) * spr / 60,
        "minutes_p90": quantile(rounds, 0.9) * spr / 60,
    }
    per = (lambda c: c / total) if total else (lambda c: 0.0)
    battles = {
        "per_game": per(counts.battle_total),
        "histogram": {str(k): v for k, v in sorted(counts.battles.items())},
        "kinds": {k: {"count": v, "per_game": per(v)} for k, v in sorted(counts.kinds.items())},
    }
    loss_rows = sorted(({"cause": label, "servants": c.get("servant", 0),
                         "masters": c.get("master", 0),
                         "per_game": per(c.get("servant", 0) + c.get("master", 0))}
                        for label, c in counts.losses.items()), key=lambda r: -r["per_game"])
    ability_rows = sorted(({"event": k, "count": v, "per_game": per(v)}
                           for k, v in counts.abilities.items()), key=lambda r: -r["count"])
    return {
        "note": NOTE,
        "config": cfg.to_json(),
        "games": total,
        "players": n,
        "draws": draws,
        "draw_rate": draws / total if total else 0.0,
        "fair_share": share,
        "reasons": dict(sorted(counts.reasons.items())),
        "masters": masters,
        "servants": servants,
        "absent": absent,
        "pairs": pairs,
        "offsets": offsets,
        "by_player": players,
        "by_bot": bots,
        "dark_with": dark,
        "length": length,
        "battles": battles,
        "losses": loss_rows,
        "abilities": ability_rows,
        "hidden": {"reveal": reveal, "gap": hidden_gap(gap_games)},
    }


def absent_cards(cards: dict[str, Any], in_rules: Any, rows: list[dict[str, Any]],
                 deal: str) -> list[dict[str, str]]:
    """The cards of ``cards`` without a row in ``rows``, each with why: ``not_in_rules`` (not
    among ``in_rules``, the edition's and mode's), else ``not_drafted`` / ``not_dealt``."""
    seen = {r["id"] for r in rows}
    kept = set(in_rules)
    never = "not_drafted" if deal == "draft" else "not_dealt"
    return [{"id": c, "name": card.name["ja"], "why": never if c in kept else "not_in_rules"}
            for c, card in cards.items() if c not in seen]


def hidden_gap(gap_games: list[dict]) -> dict[str, Any] | None:
    """Player 0's win rate as the plain heuristic bot and as the full-state variant, on the
    same seeds and seats (games come in pairs: plain, then full state)."""
    if not gap_games:
        return None
    plain = gap_games[0::2]
    full = gap_games[1::2]

    def wins(games: list[dict]) -> int:
        return sum(seat["win"] for g in games for seat in g["seats"] if seat["player"] == 0)

    k1, k2, m = wins(plain), wins(full), len(plain)
    z, p = two_proportion(k1, m, k2, m)
    lo1, hi1 = wilson(k1, m)
    lo2, hi2 = wilson(k2, m)
    return {"games": m, "plain_wins": k1, "plain_rate": k1 / m, "plain_lo": lo1,
            "plain_hi": hi1, "full_wins": k2, "full_rate": k2 / m, "full_lo": lo2,
            "full_hi": hi2, "gap": (k2 - k1) / m, "z": z, "p": p}
