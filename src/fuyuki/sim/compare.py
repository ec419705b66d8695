"""What-if: the same seeds under a second card file, edition, mode or option set.

Each win rate of the base report is set against the same row of the other report, with the
difference and a pooled two-proportion z-test (two-sided). The games of both runs share
their seeds, which makes them positively correlated: the test treats them as independent
and is therefore conservative.
"""

from __future__ import annotations

from typing import Any

from fuyuki.sim.stats import two_proportion

SECTIONS = ("masters", "servants", "pairs", "offsets", "by_bot", "dark_with")
ALPHA = 0.05


def compare_rows(base: list[dict], other: list[dict]) -> list[dict[str, Any]]:
    b = {r["id"]: r for r in base}
    o = {r["id"]: r for r in other}
    rows = []
    for key in list(b) + [k for k in o if k not in b]:
        rb, ro = b.get(key), o.get(key)
        row: dict[str, Any] = {"id": key, "name": (rb or ro).get("name", str(key))}
        row["base_games"] = rb["games"] if rb else 0
        row["base_rate"] = rb["rate"] if rb else None
        row["other_games"] = ro["games"] if ro else 0
        row["other_rate"] = ro["rate"] if ro else None
        if rb and ro:
            z, p = two_proportion(rb["wins"], rb["games"], ro["wins"], ro["games"])
            row.update(diff=ro["rate"] - rb["rate"], z=z, p=p, significant=p < ALPHA)
        else:
            row.update(diff=None, z=None, p=None, significant=False)
        rows.append(row)
    rows.sort(key=lambda r: (r["p"] if r["p"] is not None else 2.0, str(r["id"])))
    return rows


def compare_reports(base: dict, other: dict, label: str) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "config": other["config"]}
    for section in SECTIONS:
        out[section] = compare_rows(base[section], other[section])
    n1, n2 = base["games"], other["games"]
    z, p = two_proportion(base["draws"], n1, other["draws"], n2)
    out["summary"] = {
        "draw_rate": {"base": base["draw_rate"], "other": other["draw_rate"],
                      "diff": other["draw_rate"] - base["draw_rate"], "z": z, "p": p},
        "rounds_mean": {"base": base["length"]["mean"], "other": other["length"]["mean"],
                        "diff": other["length"]["mean"] - base["length"]["mean"]},
        "battles_per_game": {"base": base["battles"]["per_game"],
                             "other": other["battles"]["per_game"],
                             "diff": other["battles"]["per_game"] - base["battles"]["per_game"]},
    }
    out["significant"] = sum(r["significant"] for s in SECTIONS for r in out[s])
    return out
