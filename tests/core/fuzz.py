"""A seeded mutator over the valid files of the repository, and a harness that feeds the
mutants to :data:`fuyuki.cli.files.KINDS` — the loaders the commands use — recording every
exception that is not one of the project's typed errors (a traceback a user would see)."""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
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

#: every setting a save of some game may hold
CONFIG_KEYS = ["players", "edition", "mode", "options", "cards", "camps", "pack", "setup",
               "dice", "roster_toml", "roster_path", "seed_text", "humans", "max_turns", "notes"]

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
    if rng.random() < 0.15 and isinstance(data.get("config"), dict):
        # a setting the save did not have, of any type
        data["config"][rng.choice(CONFIG_KEYS)] = rng.choice(EVIL_JSON + [
            {"camps": {"0": {"hand": ["x"]}}}, {"turn": 99}, [1, 2, 3, 4, 5, 6] * 3])
        return json.dumps(data, ensure_ascii=False)
    path = pick_path(data, rng, 40)
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


def pick_path(data, rng: random.Random, width: int) -> list:
    """The key path of a node of a save (``[]``: the whole): half of the time one of the
    settings (few nodes), else any (mostly moves; the first ``width`` items of each list)."""
    paths: list[list] = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for k, v in enumerate(node[:width]):
                walk(v, path + [k])

    walk(data, [])
    config = [p for p in paths if p[:1] == ["config"]]
    return rng.choice(config if config and rng.random() < 0.5 else paths[1:] or paths)


def place(tmp: Path, kind: str, k: int, name: str, text: str) -> Path:
    """Write mutant ``k`` of a file ``name``: a board pack's file into a copy of the pack (the
    pack's directory is returned), any other as a file of its own."""
    if kind == "board_pack":
        target = tmp / f"pack{k}"
        shutil.copytree(package_file("fuyuki.board", "data"), target)
        write(target / name, text)
    else:
        target = tmp / f"{kind}{k}{Path(name).suffix or '.txt'}"
        write(target, text)
    return target


def remove(target: Path) -> None:
    if target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()


def write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


class Hang(Exception):
    """An input the program was still busy with after :data:`LIMIT` seconds."""


#: seconds one input may take (a file may not make the program loop for ever)
LIMIT = 30.0


def _alarm(signum, frame):
    raise Hang(f"still running after {LIMIT:g} s")


def run_one(kinds, kind: str, path: Path, report: Report, label: str) -> None:
    report.inputs[kind] = report.inputs.get(kind, 0) + 1
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        kinds[kind](path)
    except FuyukiError:
        report.refused[kind] = report.refused.get(kind, 0) + 1
    except Exception as exc:  # a traceback a user would see, or a hang
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        report.failures.append(f"{kind} {label}: {type(exc).__name__}: {exc} "
                               f"at {Path(tb.filename).name}:{tb.lineno}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


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
    """A published log as ``war new --log`` writes it today (a one-turn war)."""
    import tempfile

    from typer.testing import CliRunner

    from fuyuki.cli.main import app

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "war.log"
        res = CliRunner().invoke(app, ["war", "new", "--auto", "--turns", "1", "--seed", "fuzz",
                                       "--quiet", "--log", str(path)])
        assert res.exit_code == 0, res.output
        return path.read_text("utf-8")


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
    for kind, files in bases().items():
        for label, special in (("missing", tmp / "no-such-file"), ("directory", tmp)):
            run_one(KINDS, kind, special, report, label)
        for k in range(per_kind):
            name, text = files[k % len(files)]
            is_json = name.endswith(".json")
            mutant = (mutate_json(text, rng) if is_json
                      else mutate_text(text, rng, EVIL_TOML))
            target = place(tmp, kind, k, name, mutant)
            run_one(KINDS, kind, target, report, f"#{k} from {name}")
            remove(target)
    return report


# -- structural mutations (issue 47 item 6) -----------------------------------------------------
# Beyond replacing one value: nesting hundreds of levels deep, a value of another type (a table,
# a date, an array of tables), Unicode that looks like text but is not what it seems (a lone
# surrogate, zero-width and right-to-left marks, full-width digits, U+2028), a file cut short
# (in the middle of a character too), CRLF / CR / BOM, numbers far beyond any range, keys
# given twice, and saves whose moves are shuffled, cut, duplicated or given to other seats.

#: invisible or look-alike characters a file may hide in a string
SNEAKY = ["\u200b", "\u200d", "\u202e", "\u200f", "\u2066", "\ufeff", "\u0301", "\u2028",
          "\u00a0", "\u3000", "\u0085"]
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
#: values of another type (TOML)
TOML_TYPES = ["{}", "[{}]", "[[1], [2]]", "1979-05-27T07:32:00Z", "07:32:00", "1979-05-27",
              '"""a\nb"""', "{ ja = 1, en = [] }", "true", "-0.0", "nan", "-inf", "1e400",
              "0x7fffffffffffffff", "9223372036854775808", "-9223372036854775809", "1" + "0" * 400,
              "[]", '""', "'''x'''", '"\\u202e"', '"\\ud800"', "３", "１２"]
#: values of another type (JSON text)
JSON_TYPES = ["1e400", "-1e400", "1" + "0" * 400, "1" + "0" * 5000, "-0", "1.0", "0.5", "true",
              "null", "[]", "{}", '"\\ud800"', '"\\udfff x"', '"x\\u200b"', '"\\u202e"', '"３"',
              "[[[[[]]]]]", '{"": {}}', "[0, 0, 0]", "-1", "99", "4294967296"]

_DEEP = "\x00deep\x00"


def _deep(rng: random.Random, json_text: bool) -> str:
    n = rng.choice([40, 49, 120, 600, 3000])
    if rng.random() < 0.5:
        return "[" * n + "1" + "]" * n
    if json_text:
        return '{"a":' * n + "1" + "}" * n
    return "{ a = " * n + "1" + " }" * n


def _cut(text: str, rng: random.Random) -> str:
    """``text`` cut at a random byte (in the middle of a character too: not UTF-8)."""
    raw = text.encode("utf-8", "surrogateescape")
    return raw[:rng.randrange(len(raw) + 1)].decode("utf-8", "surrogateescape")


def _line_ends(text: str, rng: random.Random) -> str:
    op = rng.randrange(6)
    if op == 0:
        return text.replace("\n", "\r\n")
    if op == 1:
        return text.replace("\n", "\r")
    if op == 2:
        return "\ufeff" + text.replace("\n", "\r\n")
    if op == 3:
        return "\ufeff\ufeff" + text
    if op == 4:   # a BOM, a NEL or a line separator in the middle
        k = rng.randrange(len(text) + 1)
        return text[:k] + rng.choice(["\ufeff", "\u0085", "\u2028", "\r", "\x0c"]) + text[k:]
    lines = text.split("\n")
    return "\n".join(line + ("\r" if rng.random() < 0.5 else "") for line in lines)


def _sneak(s: str, rng: random.Random) -> str:
    """A string with a sneaky character inside, or its digits full-width."""
    if rng.random() < 0.3 and any(c.isdigit() for c in s):
        return s.translate(FULL_WIDTH)
    k = rng.randrange(len(s) + 1)
    return s[:k] + rng.choice(SNEAKY) + s[k:]


def structural_toml(text: str, rng: random.Random) -> str:
    """One structural mutation of a TOML file."""
    lines = text.splitlines()
    if not lines:
        return _deep(rng, False)
    kv = [k for k, line in enumerate(lines) if _KV.match(line)]
    op = rng.randrange(10)
    if op == 0 and kv:                       # a value nested hundreds of levels deep
        k = rng.choice(kv)
        m = _KV.match(lines[k])
        assert m
        lines[k] = m.group(1) + _deep(rng, False)
    elif op == 1:                            # a deep key of its own, at the top or in a table
        lines.insert(rng.choice([0, rng.randrange(len(lines) + 1)]),
                     "deep = " + _deep(rng, False))
    elif op == 2 and kv:                     # a value of another type
        k = rng.choice(kv)
        m = _KV.match(lines[k])
        assert m
        lines[k] = m.group(1) + rng.choice(TOML_TYPES)
    elif op == 3:                            # a table becomes a value, an array of tables a table
        heads = [k for k, line in enumerate(lines) if line.startswith("[")]
        if heads:
            k = rng.choice(heads)
            name = lines[k].strip("[] ")
            lines[k] = rng.choice([f"{name} = 1", f"[{name}]", f"[[{name}]]", f"[{name}.x]",
                                   f"[{name}]\n[{name}]"])
    elif op == 4:                            # Unicode inside a string (ids, names, values)
        spots = [(k, m) for k, line in enumerate(lines) for m in _STRING.finditer(line)]
        if spots:
            k, m = rng.choice(spots)
            lines[k] = lines[k][:m.start() + 1] + _sneak(m.group()[1:-1], rng) + \
                lines[k][m.end() - 1:]
    elif op == 5:                            # a number far out of range, or full-width
        spots = [(k, m) for k, line in enumerate(lines) for m in _NUMBER.finditer(line)]
        if spots:
            k, m = rng.choice(spots)
            new = rng.choice(["1" + "0" * 400, "-" + "9" * 30, "1e400", "9223372036854775808",
                              m.group().translate(FULL_WIDTH), "0x10", "1_000", "+1", "0o7"])
            lines[k] = lines[k][:m.start()] + new + lines[k][m.end():]
    elif op == 6 and kv:                     # a key given twice (in the same table)
        k = rng.choice(kv)
        lines.insert(k + 1, lines[k])
    elif op == 7:
        return _cut(text, rng)
    elif op == 8:
        return _line_ends(text, rng)
    else:                                    # a key's name in invisible or look-alike letters
        if kv:
            k = rng.choice(kv)
            lines[k] = _sneak(lines[k].lstrip(), rng) if rng.random() < 0.5 else \
                lines[k].lstrip().translate(str.maketrans("aeio", "аеіо"))  # Cyrillic
    return "\n".join(lines) + "\n"


def structural_json(text: str, rng: random.Random) -> str:
    """One structural mutation of a JSON save."""
    op = rng.randrange(9)
    if op == 7:
        return _cut(text, rng)
    if op == 8:
        return _line_ends(json.dumps(json.loads(text), ensure_ascii=False, indent=1), rng)
    data = json.loads(text)
    subs = data.get("submissions") if isinstance(data, dict) else None
    if op == 6 and isinstance(subs, list) and subs:   # a bad save: the moves tampered with
        how = rng.randrange(6)
        if how == 0:
            rng.shuffle(subs)
        elif how == 1:
            del subs[rng.randrange(len(subs))]
        elif how == 2:
            k = rng.randrange(len(subs))
            subs.insert(k, subs[k])
        elif how == 3:
            subs[rng.randrange(len(subs))][0] = rng.choice([-1, 99, 2**70, 1.0, "0", None])
        elif how == 4:
            data["seed"] = rng.choice([-1, 2**70, 1.5, True, "1", [1]])
        else:
            data["game"] = rng.choice(["sbb", "board", "rpg-war", "sbb-judge", "", "ＳＢＢ"])
        return json.dumps(data, ensure_ascii=rng.random() < 0.5)
    path = pick_path(data, rng, 60)
    parent, key = None, None
    node = data
    for k in path:
        parent, key, node = node, k, node[k]
    if parent is None:
        return rng.choice(JSON_TYPES)
    if op <= 1:                               # nested hundreds of levels deep
        parent[key] = _DEEP
        return json.dumps(data).replace(json.dumps(_DEEP), _deep(rng, True))
    if op == 2:                               # a value of another type
        parent[key] = _DEEP
        return json.dumps(data).replace(json.dumps(_DEEP), rng.choice(JSON_TYPES))
    if op == 3:                               # Unicode in a string or a key
        if isinstance(node, str):
            parent[key] = _sneak(node, rng)
        elif isinstance(parent, dict):
            parent[_sneak(str(key), rng)] = parent.pop(key)
        else:
            parent[key] = _sneak(json.dumps(node), rng)
        return json.dumps(data, ensure_ascii=rng.random() < 0.5)
    if op == 4 and isinstance(parent, dict):  # a key given twice: the last one counts
        parent[key] = _DEEP
        dup = f"{json.dumps(str(key))}: {rng.choice(JSON_TYPES)}, {json.dumps(str(key))}: "
        return json.dumps(data).replace(f"{json.dumps(str(key))}: {json.dumps(_DEEP)}",
                                        dup + json.dumps(node), 1)
    parent[key] = _DEEP                       # a lone surrogate where a value was
    return json.dumps(data).replace(json.dumps(_DEEP), rng.choice(['"\\ud800"', '"a\\udc00b"']))


def structural_lines(text: str, rng: random.Random) -> str:
    """One structural mutation of a text of lines (a published log): a sneaky character or
    full-width digits in a line, a line swapped, doubled or dropped, a number far out of
    range, the file cut short, other line ends."""
    lines = text.split("\n")
    op = rng.randrange(7)
    k = rng.randrange(len(lines))
    if op == 0:
        lines[k] = _sneak(lines[k], rng)
    elif op == 1:
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif op == 2:
        lines.insert(k, lines[rng.randrange(len(lines))])
    elif op == 3:
        del lines[k]
    elif op == 4:
        spots = [(i, m) for i, line in enumerate(lines) for m in _NUMBER.finditer(line)]
        if spots:
            i, m = rng.choice(spots)
            lines[i] = lines[i][:m.start()] + rng.choice(
                ["1" + "0" * 400, "-1", m.group().translate(FULL_WIDTH)]) + lines[i][m.end():]
    elif op == 5:
        return _cut(text, rng)
    else:
        return _line_ends(text, rng)
    return "\n".join(lines)
