"""Text from events (ja/en), in the "＞" chain style of Japanese dice bots.

Lines that start with two spaces are the detailed breakdown; ``brief=True`` drops them.
With ``dice=True`` every roll also gets a machine line that ``fuyuki war verify`` reads::

    #DICE COMMIT <scope> <sha256-hex>
    #DICE PARTY <scope> <party> <sha256-hex>     #DICE OPEN <scope> <party> <hex or ->
    #DICE ROLL <n> <label> 1D<faces> <value>
    #DICE REVEAL <scope> <secret-hex> <rolls> <seal-hex>

(the whole format: :mod:`fuyuki.core.dice`).
"""

from __future__ import annotations

from typing import Any, Iterable

from fuyuki.core import i18n
from fuyuki.core.data import package_file
from fuyuki.core.events import Event

_registered = False
_reasons: list[bool] = []


def _ensure() -> None:
    global _registered
    if not _registered:
        i18n.register("rpg", package_file("fuyuki.rpg", "data"))
        _registered = True


def t(lang: str, key: str, **params: Any) -> str:
    _ensure()
    return i18n.tr(lang, "rpg." + key, **params)


def war_reason(code: str, **params: Any) -> tuple[str, str, dict[str, Any]]:
    """An error reason that reads in the user's language: its English text, its code
    ``war_<code>`` (``load.reason.war_<code>``, src/fuyuki/rpg/data/reasons) and its params."""
    if not _reasons:
        i18n.register("load.reason", package_file("fuyuki.rpg", "data", "reasons"))
        _reasons.append(True)
    shown = {k: ", ".join(map(str, v)) if isinstance(v, (list, tuple, set)) else v
             for k, v in params.items()}
    return i18n.tr("en", f"load.reason.war_{code}", **shown), f"war_{code}", shown


def scenario_error(file: str, key: str, code: str, **params: Any) -> Exception:
    """A ScenarioError of ``file``'s ``key`` with the reason ``war_<code>``."""
    from fuyuki.core.errors import ScenarioError

    text, full, shown = war_reason(code, **params)
    return ScenarioError(file, key, text, full, **shown)


def table_error(t: Any, name: str, code: str, **params: Any) -> Exception:
    """The error (of the table's own kind) of the key ``name`` of a loaded table ``t``."""
    text, full, shown = war_reason(code, **params)
    return t.fail(name, text, full, **shown)


def texts(key: str, **params: Any) -> dict[str, str]:
    """A catalog text in both languages (for an event that carries its own text)."""
    return {lang: t(lang, key, **params) for lang in ("ja", "en")}


def side_name(lang: str, i: int | None) -> str:
    return t(lang, "side", x="AB"[i]) if i is not None else "-"


def stat_name(lang: str, stat: str) -> str:
    return t(lang, f"stat.{stat}")


def stats_line(lang: str, order: list[str], vals: list[int]) -> str:
    return " ".join(f"{stat_name(lang, s)}{v}" for s, v in zip(order, vals))


ORDER = ["str", "end", "agi", "mgi", "luk", "np"]


def prepare_lines(lang: str, info: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The numbers of a 令呪 decision before the comparisons (``Battle.prepare_info``): both
    sides' 基礎勝率, what each option would change, and a 令呪's win rate after them."""
    a, b = info["base"]
    out = [t(lang, "prompt.prepare_base", a=a, b=b)]
    for opt, eff in info["effects"].items():
        who = names.get(opt.partition(":")[2], opt)
        side, stats = "AB"[info["side"]], stats_line(lang, ORDER, eff["totals"])
        if "mana" not in eff:
            out.append(t(lang, "prompt.prepare_boost", who=who, value=eff["value"], side=side,
                         stats=stats))
            continue
        out.append(t(lang, "prompt.prepare_mana", who=who, value=eff["value"],
                     before=eff["mana"][0], after=eff["mana"][1]))
        if eff["totals"] != info["totals"][info["side"]]:
            out.append(t(lang, "prompt.prepare_then", side=side, stats=stats))
    main, sub = info["seal_rate"]
    out.append(t(lang, "prompt.prepare_rate", main=main, sub=sub))
    return out


class Renderer:
    """Renders a stream of events; remembers the side names of the current battle."""

    def __init__(self, lang: str = "ja", brief: bool = False, dice: bool = False):
        self.lang, self.brief, self.dice = lang, brief, dice
        self.sides: list[str] = ["A", "B"]
        #: rolls since the last commitment: every roll of a scope is numbered from 1
        self.rolled = 0

    def lines(self, events: Iterable[Event]) -> list[str]:
        out: list[str] = []
        for ev in events:
            for line in self.event(ev):
                if self.brief and line.startswith("  ") and not line.startswith("  #"):
                    continue
                out.append(line)
        return out

    def text(self, events: Iterable[Event]) -> str:
        return "\n".join(self.lines(events))

    def event(self, ev: Event) -> list[str]:
        fn = getattr(self, "ev_" + ev.kind, None)
        if fn is None:
            from fuyuki.rpg import war_text
            return war_text.render(self, ev)
        return fn(**ev.data)

    # -- helpers --------------------------------------------------------------------------
    def tr(self, key: str, **p: Any) -> str:
        return t(self.lang, key, **p)

    def sd(self, i: int | None) -> str:
        return side_name(self.lang, i)

    def sdn(self, i: int) -> str:
        """Side with its name: 'A側（赤のセイバー）'."""
        paren = "（{}）" if self.lang == "ja" else " ({})"
        return self.sd(i) + paren.format(self.sides[i])

    def chain(self, *parts: Any) -> str:
        return self.tr("chain").join(str(p) for p in parts)

    # -- dice -------------------------------------------------------------------------------
    def ev_roll(self, label: str, faces: int, value: int) -> list[str]:
        self.rolled += 1
        return [f"#DICE ROLL {self.rolled} {label} 1D{faces} {value}"] if self.dice else []

    def ev_dice_commit(self, scope: str, sha: str, turn: Any = None,
                       parties: Any = ()) -> list[str]:
        self.rolled = 0
        out = [self.tr("dice.commit", turn=turn, sha=sha) if turn is not None
               else self.tr("dice.commit_scope", scope=scope, sha=sha)]
        if self.dice:
            out.append(f"#DICE COMMIT {scope} {sha}")
            out += [f"#DICE PARTY {scope} {name} {c}" for name, c, _ in parties]
            out += [f"#DICE OPEN {scope} {name} {r}" for name, _, r in parties]
        return out

    def ev_dice_reveal(self, scope: str, secret: str, turn: Any = None, seal: str = "-") -> list[str]:
        out = [self.tr("dice.reveal", turn=turn, secret=secret) if turn is not None
               else self.tr("dice.reveal_scope", scope=scope, secret=secret)]
        if self.dice:
            out.append(f"#DICE REVEAL {scope} {secret} {self.rolled} {seal}")
        return out

    # -- battle -------------------------------------------------------------------------------
    def ev_battle_start(self, label: str, sides: list[str], attacker: Any, snipe: bool,
                        surprise: bool) -> list[str]:
        self.sides = list(sides)
        how = ""
        if attacker is not None:
            key = "battle.how_snipe" if snipe else "battle.how_surprise" if surprise \
                else "battle.how_attack"
            how = self.tr(key, x="AB"[attacker])
        return [self.tr("battle.start", a="A:" + sides[0], b="B:" + sides[1], how=how),
                self.tr("battle.h1")]

    def ev_lineup(self, side: int, main: str | None, sub: str, others: list[str]) -> list[str]:
        sep = self.tr("sep")
        oth = self.tr("battle.others", sep=sep, names="・".join(others)) if others else ""
        out = [self.tr("battle.lineup", side=self.sd(side), main=main or self.tr("battle.none"),
                       sub=sub, sep=sep, others=oth)]
        if side == 1:
            out.append(self.tr("battle.h2"))
        return out

    def ev_seal_boost(self, side: int, who: str, value: int, seals: int) -> list[str]:
        return [self.tr("battle.seal_boost", side=self.sd(side), who=who, value=value, seals=seals)]

    def ev_seal_mana(self, side: int, who: str, before: int, after: int, seals: int) -> list[str]:
        return [self.tr("battle.seal_mana", side=self.sd(side), who=who, before=before,
                        after=after, seals=seals)]

    def ev_base_rate(self, side: int, value: int, parts: list[list[Any]]) -> list[str]:
        self._base = getattr(self, "_base", {})
        self._base[side] = (value, parts)
        return []

    def ev_totals(self, side: int, rows: list[dict[str, Any]], totals: list[int],
                  halved: bool) -> list[str]:
        out = [self.tr("battle.totals", side=self.sd(side), stats=stats_line(self.lang, ORDER, totals))]
        for row in rows:
            steps = []
            for i, (key, vals) in enumerate(row["steps"]):
                v = "/".join(str(x) for x in vals)
                steps.append(v if i == 0 else f"→{self.tr('step.' + key)}→ {v}")
            out.append(self.tr("battle.row", name=row["name"], role=self.tr("role." + row["role"]),
                               steps=" ".join(steps)))
        base = getattr(self, "_base", {}).get(side)
        if base is not None:
            value, parts = base
            ptxt = ""
            if parts:
                ptxt = "（" if self.lang == "ja" else " ("
                ptxt += "、".join(self.tr("battle.base_part", who=w, name=n, value=v)
                                  for w, n, v in parts) if self.lang == "ja" else \
                    ", ".join(self.tr("battle.base_part", who=w, name=n, value=v)
                              for w, n, v in parts)
                ptxt += "）" if self.lang == "ja" else ")"
            out.append(self.tr("battle.base_rate", side=self.sd(side), value=value, parts=ptxt))
            del self._base[side]
        return out

    def ev_initiative(self, agi: list[int], exceptions: list[Any], side: int, reason: str,
                      die: int | None) -> list[str]:
        head = self.tr("battle.h3")
        sd = self.sd(side)
        if reason == "exception":
            why = exceptions[side]
            why = self.tr("battle.surprise") if why == "surprise" else why
            line = self.tr("battle.init_exception", why=why, side=sd)
        elif reason == "agi":
            line = self.tr("battle.init_agi", a=agi[0], b=agi[1], side=sd)
            if exceptions[0] and exceptions[1]:
                names = [self.tr("battle.surprise") if e == "surprise" else e for e in exceptions]
                line += self.tr("battle.init_both", a=names[0], b=names[1])
        elif reason == "defender":
            line = self.tr("battle.init_defender", a=agi[0], b=agi[1], side=sd)
        else:
            line = self.tr("battle.init_die", a=agi[0], b=agi[1], die=die, side=sd)
        return [head, line, self.tr("battle.h4")]

    def ev_compare(self, n: int, by: Any, stat: str, a: int, b: int, res: list[str],
                   die: int | None, halved: bool, snipe: bool) -> list[str]:
        num = "①②③"[n - 1] if self.lang == "ja" else f"({n})"
        if res[0] == "draw":
            result = self.tr("battle.cmp_draw")
        else:
            win = 0 if res[0] == "adv" else 1
            result = self.tr("battle.cmp_adv", side=self.sd(win), diff=abs(a - b))
        half = self.tr("battle.halved") if halved else ""
        if by == "random":
            return [self.tr("battle.cmp_random", n=num, die=die, stat=stat_name(self.lang, stat),
                            a=a, b=b, result=result, half=half)]
        return [self.tr("battle.cmp_pick", n=num, by=self.sd(by), stat=stat_name(self.lang, stat),
                        a=a, b=b, result=result, half=half)]

    def ev_halving_over(self, side: int) -> list[str]:
        return [self.tr("battle.halving_over", side=self.sd(side))]

    def ev_seal_redraw(self, side: int, who: str, seals: int) -> list[str]:
        return [self.tr("battle.seal_redraw", side=self.sd(side), who=who, seals=seals)]

    def ev_declare(self, side: int, kind: str, who: str, name: str, value: int,
                   **rest: Any) -> list[str]:
        sd = self.sd(side)
        if not getattr(self, "_h5", False):
            pre = [self.tr("battle.h5")]
            self._h5 = True
        else:
            pre = []
        if kind == "seal":
            return pre + [self.tr("battle.declare_seal", side=sd, who=who, value=value,
                                  seals=rest["seals"], role=self.tr("role." + rest["role"]))]
        if kind == "ability":
            return pre + [self.tr("battle.declare_ability", side=sd, who=who, name=name,
                                  value=value, cost=rest.get("cost", 0))]
        return pre + [self.tr("battle.declare_item", side=sd, name=name, value=value)]

    def ev_rate(self, side: int, adv: int, draw: int, dis: int, table: int, diffs: list[int],
                factor: int, diff: int, base_own: int, base_other: int, bonus_own: int,
                bonus_other: int, raw: int, rate: int, bonuses: Any) -> list[str]:
        pre = [] if getattr(self, "_h5", False) else [self.tr("battle.h5")]
        self._h5 = False
        terms = "(" + " ".join(f"{d:+d}" for d in diffs) + ")"
        clamp = self.tr("battle.clamp", rate=rate) if raw != rate else ""
        return pre + [
            self.tr("battle.rate", side=self.sd(side), adv=adv, draw=draw, dis=dis, table=table),
            self.tr("battle.rate_diff", terms=terms, sum=sum(diffs), factor=factor, diff=diff),
            self.tr("battle.rate_base", own=base_own, other=base_other),
            self.tr("battle.rate_bonus", own=bonus_own, other=bonus_other),
            self.tr("battle.rate_total", table=table, diff=diff, base=base_own - base_other,
                    bonus=bonus_own - bonus_other, raw=raw, clamp=clamp),
        ]

    def ev_win(self, side: int, rate: int, value: int, success: bool, winner: int,
               faces: int) -> list[str]:
        return [self.tr("battle.win", faces_d=f"1D{faces}", rate=rate, value=value,
                        result=self.tr("success" if success else "failure"),
                        winner=self.sdn(winner)),
                self.tr("battle.h6")]

    def ev_mana_cost(self, side: int, who: str, lv: int, lv_cost: int, extra: int, no_seal: int,
                     before: int, after: int, penalty: int) -> list[str]:
        return [self.tr("battle.mana_cost", who=who, lv=lv, lv_cost=lv_cost,
                        extra=self.tr("battle.mana_extra", extra=extra) if extra else "",
                        no_seal=self.tr("battle.mana_no_seal", no_seal=no_seal) if no_seal else "",
                        before=before, after=after,
                        penalty=self.tr("battle.mana_penalty", penalty=penalty) if penalty else "")]

    def ev_retreat_cost(self, side: int, advantages: int, cost: int, base: int) -> list[str]:
        return [self.tr("battle.h7"),
                self.tr("battle.retreat_cost", side=self.sd(side), advantages=advantages,
                        cost=cost, base=base)]

    def ev_abandon(self, side: int, choices: dict[str, str], joint: bool) -> list[str]:
        marks = self.tr("sep").join(
            f"{k}{'：' if self.lang == 'ja' else ': '}"
            f"{self.tr('battle.together') if v == 'together' else self.tr('battle.abandon_mark')}"
            for k, v in choices.items())
        return [self.tr("battle.abandon", side=self.sd(side), marks=marks,
                        result=self.tr("battle.abandon_joint" if joint else "battle.abandon_each"))]

    def ev_retreat(self, side: int, who: list[str], seals: int, mana: int, cost: int,
                   paid: list[Any]) -> list[str]:
        names = "・".join(who)
        if cost == 0:
            return [self.tr("battle.retreat_free", who=names)]
        detail = ""
        mana_parts = [p for p in paid if p[0] == "mana"]
        if mana_parts:
            detail = "（" if self.lang == "ja" else " ("
            detail += ", ".join(f"{p[1]} {p[3]}→{p[4]}" for p in mana_parts)
            detail += "）" if self.lang == "ja" else ")"
        return [self.tr("battle.retreat", who=names, seals=seals, mana=mana, paid=detail)]

    def ev_no_retreat(self, side: int, who: list[str], out: bool) -> list[str]:
        key = "battle.no_retreat" if out else "battle.no_retreat_stay"
        return [self.tr(key, who="・".join(who))]

    def ev_battle_end(self, winner: int, out: list[str], retreated: list[str]) -> list[str]:
        return [self.tr("battle.end", winner=self.sdn(winner))]
