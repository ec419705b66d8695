"""A seeded mutator over the valid files of the repository, and a harness that feeds the
mutants to :data:`fuyuki.cli.files.KINDS` — the loaders the commands use — recording every
exception that is not one of the project's typed errors (a traceback a user would see)."""

from __future__ import annotations

import json
import random
import re
import shutil
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from fuyuki.core.data import package_file
from fuyuki.core.errors import FuyukiError
from fuyuki.core.record import Record

ROOT = Path(__file__).resolve().parents[2]

#: values a careless or hostile file puts where a value was
EVIL_TOML = ["100000000000000000000000000000000000000", "-1", "0", "-100000000000000000000",
             '"x"', '""', "true", "false", "[]", "{}", "[1, 2]", '["x"]', '"[/]"',
             '"[bold]x[/bold]"', '"red-np-²"', '"red-np-１"', "1.5", "nan", "inf", '"２"',
             '{ ja = "[/]", en = "[bold]" }', '"' + "あ" * 300 + '"', "9", "7", "3", "5", "12"]
EVIL_JSON = [10**38, -1, 0, -(10**20), "x", "", True, False, None, [], {}, [1, 2], ["x"],
             "[/]", "[bold]", "red-np-²", 1.5, "２", [[0, "x"]], {"a": 1}, "0", 6, 7, 3]

#: key = value lines of TOML (the value is what a mutation replaces)
_KV = re.compile(r"^(\s*[\w.\"-]+\s*=\s*)(.+)$")
_NUMBER = re.compile(r"(?<![\w.-])-?\d+(?![\w.-])")
_STRING = re.compile(r'"[^"\n]*"')


@dataclass
class Report:
    inputs: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def mutate_text(text: str, rng: random.Random, evil: list[str]) -> str:
    lines = text.splitlines()
    if not lines:
        return rng.choice(["", "\x00", "[", "a = "])
    op = rng.randrange(13)
    i = rng.randrange(len(lines))
    if op >= 10:  # replace a number, or a quoted string, anywhere (in lists, inline tables)
        pattern = _NUMBER if op == 10 else _STRING
        spots = [(k, m) for k, line in enumerate(lines) for m in pattern.finditer(line)]
        if spots:
            k, m = rng.choice(spots)
            lines[k] = lines[k][:m.start()] + rng.choice(evil) + lines[k][m.end():]
    elif op <= 3:  # replace a value
        kv = [k for k, line in enumerate(lines) if _KV.match(line)]
        if kv:
            i = rng.choice(kv)
            m = _KV.match(lines[i])
            assert m
            lines[i] = m.group(1) + rng.choice(evil)
    elif op == 4:
        del lines[i]
    elif op == 5:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 6:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 7:  # rename a key
        m = _KV.match(lines[i])
        if m:
            lines[i] = "x" + lines[i].lstrip()
    elif op == 8:
        return text[: rng.randrange(len(text) + 1)]
    else:  # bytes that are not UTF-8, or a NUL
        return text[: rng.randrange(len(text) + 1)] + rng.choice(["\udcff", "\x00", "\ufeff"])
    return "\n".join(lines) + "\n"


def mutate_json(text: str, rng: random.Random) -> str:
    if rng.random() < 0.2:
        return mutate_text(text, rng, [json.dumps(v) for v in EVIL_JSON])
    data = json.loads(text)
    paths: list[list] = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for k, v in enumerate(node[:40]):
                walk(v, path + [k])

    walk(data, [])
    path = rng.choice(paths[1:] or paths)
    if not path:
        return json.dumps(rng.choice(EVIL_JSON))
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if rng.random() < 0.15:
        del parent[key]
    else:
        parent[key] = rng.choice(EVIL_JSON)
    return json.dumps(data, ensure_ascii=False)


def write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def run_one(kinds, kind: str, path: Path, report: Report, label: str) -> None:
    report.inputs[kind] = report.inputs.get(kind, 0) + 1
    try:
        kinds[kind](path)
    except FuyukiError:
        report.refused[kind] = report.refused.get(kind, 0) + 1
    except Exception as exc:  # a traceback a user would see
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        report.failures.append(f"{kind} {label}: {type(exc).__name__}: {exc} "
                               f"at {Path(tb.filename).name}:{tb.lineno}")


# -- the valid files each kind starts from -----------------------------------------------------

def sbb_save_text(seed: int, moves: int) -> str:
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import make_bot

    g = new_game(4, seed)
    bots = [make_bot("random", seed + i) for i in range(4)]
    while not g.over and len(g.record.submissions) < moves:
        for seat, d in g.pending().items():
            g.submit(seat, bots[seat].choose(None, d))
    return json.dumps(g.record.to_json(), ensure_ascii=False)


def board_save_text(seed: int, moves: int) -> str:
    from fuyuki.board import new_game
    from fuyuki.board.agents import make_bot

    g = new_game(players=3, seed=seed)
    bots = [make_bot("random", seed, s) for s in range(g.n)]
    while not g.over and len(g.record.submissions) < moves:
        for s, d in g.pending().items():
            g.submit(s, bots[s].choose(g.view(s), d))
    return json.dumps(g.record.to_json(), ensure_ascii=False)


def war_save_text(moves: int) -> str:
    from fuyuki.rpg.agents.simple import SimpleAgent
    from fuyuki.rpg.roster import parse_roster
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.war import War
    from fuyuki.core.load import parse_toml

    path = package_file("fuyuki.rpg", "data", "roster.toml")
    text = path.read_text("utf-8")
    rules = default_rules()
    war = War(parse_roster(parse_toml(text, str(path)), str(path), rules), rules, "fuzz",
              max_turns=2)
    agents = [SimpleAgent("fuzz", i) for i in range(len(war.pairs))]
    while not war.over and len(war.submissions) < moves:
        for seat, d in sorted(war.pending().items()):
            war.submit(seat, agents[seat].choose(war.view(seat), d))
    rec = Record("rpg-war", 0, {"roster_toml": text, "roster_path": str(path),
                                "seed_text": "fuzz", "humans": ["red-saber"], "max_turns": 2,
                                "notes": [[3, "赤のセイバー", "[bold]hi[/]"]]},
                 list(war.submissions))
    return json.dumps(rec.to_json(), ensure_ascii=False)


def war_log_text() -> str:
    from fuyuki.core.dice import CommittedDice, derive_secret

    lines = ["【聖杯戦争開始】"]
    for turn in (1, 2):
        d = CommittedDice(derive_secret("fuzz", f"turn/{turn}"))
        lines.append(f"#DICE COMMIT t{turn} {d.commitment}")
        for k in range(6):
            v = d.roll(f"t{turn}/r{k}", 100)
            lines += [f"#DICE ROLL {k + 1} t{turn}/r{k} 1D100 {v}", f"(1D100<=50) ＞ {v}"]
        lines.append(f"#DICE REVEAL t{turn} {d.secret.hex()} 6")
    return "\n".join(lines) + "\n"


def bases() -> dict[str, list[tuple[str, str]]]:
    """Every kind's valid files: (name, text)."""
    sbb_data = package_file("fuyuki.sbb", "data")
    scenarios = sorted((ROOT / "tests" / "sbb" / "scenarios").rglob("*.toml"))
    return {
        "scenario": [(p.name, p.read_text("utf-8")) for p in scenarios],
        "cards": [("cards.toml", (sbb_data / "cards.toml").read_text("utf-8"))],
        "edition": [(p.name, p.read_text("utf-8"))
                    for p in sorted((sbb_data / "editions").glob("*.toml"))],
        "sbb_save": [(f"sbb{s}.json", sbb_save_text(s, 40 + 20 * s)) for s in range(3)],
        "board_save": [(f"board{s}.json", board_save_text(s, 30 + 30 * s)) for s in range(3)],
        "board_pack": [(p.name, p.read_text("utf-8"))
                       for p in sorted(package_file("fuyuki.board", "data").glob("*.toml"))],
        "rpg_sheet": [(p.name, p.read_text("utf-8")) for p in
                      sorted(package_file("fuyuki.rpg", "data", "sheets").glob("*.toml"))],
        "roster": [("roster.toml", package_file("fuyuki.rpg", "data", "roster.toml")
                    .read_text("utf-8"))],
        "war_save": [("war.json", war_save_text(60))],
        "war_log": [("war.log", war_log_text())],
    }


def fuzz(tmp: Path, per_kind: int, seed: int = 0) -> Report:
    """``per_kind`` mutants of every kind (plus a missing file and a directory), fed to the
    loaders the commands use."""
    from fuyuki.cli.files import KINDS

    report = Report()
    rng = random.Random(seed)
    pack_dir = package_file("fuyuki.board", "data")
    for kind, files in bases().items():
        for label, special in (("missing", tmp / "no-such-file"), ("directory", tmp)):
            run_one(KINDS, kind, special, report, label)
        for k in range(per_kind):
            name, text = files[k % len(files)]
            is_json = name.endswith(".json")
            mutant = (mutate_json(text, rng) if is_json
                      else mutate_text(text, rng, EVIL_TOML))
            if kind == "board_pack":
                target = tmp / f"pack{k}"
                shutil.copytree(pack_dir, target)
                write(target / name, mutant)
            else:
                target = tmp / f"{kind}{k}{Path(name).suffix or '.txt'}"
                write(target, mutant)
            run_one(KINDS, kind, target, report, f"#{k} from {name}")
            if kind == "board_pack":
                shutil.rmtree(target)
            else:
                target.unlink()
    return report
