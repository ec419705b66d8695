"""The RPG war in the contract's registry: a war started from a record's seed and config.

Two games (:data:`fuyuki.core.contract.BUILTIN`):

``rpg-war`` (:func:`start`) — the war of ``war new``: one seat per pair of the roster, the
program standing in for every dice party. Config: ``roster_toml`` (the roster file's text),
``roster_path`` (its name, for messages), ``seed_text`` (the war's seed as given; the record's
``seed`` when absent), ``max_turns`` (null: the rules' limit), and what the terminal keeps for
itself: ``humans`` (pair ids people drive) and ``notes`` (``[event index, who, text]``).

``rpg-hosted`` (:func:`start_hosted`) — the war hosted for a GM, players and readers
(:class:`fuyuki.rpg.hosted.HostedWar`). Config: ``secret`` (the GM's master secret),
``roster_toml`` (absent or null: the sample roster), ``turns``, ``anka`` (the seats the readers
drive) and ``players`` (the seats whose pages contribute to the dice).

Every wrong key is a DataError naming ``config.<key>``.
"""

from __future__ import annotations

from typing import Any

from fuyuki.core.data import Table
from fuyuki.core.load import parse_toml
from fuyuki.rpg.hosted import HostedWar
from fuyuki.rpg.war import War


def start(seed: int, config: dict[str, Any], source: str) -> War:
    """``rpg-war``: the war of the record's config, run to its first decision."""
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.war_log import cli_dice

    cfg = Table(config, source, "config")
    cfg.check_keys(["roster_toml", "roster_path", "seed_text", "humans", "max_turns", "notes"])
    roster_text, roster_path = cfg.str("roster_toml"), cfg.str("roster_path")
    war_seed = cfg.get("seed_text", (str, int), seed)
    humans = cfg.list_of("humans", str, [])
    rules = default_rules()
    limit = rules.war["max_turns"]
    max_turns = cfg.get("max_turns", (int, type(None)), None)
    if max_turns is not None and not 1 <= max_turns <= limit * 10:
        raise cfg.fail("max_turns", f"must be 1 to {limit * 10}", "between", lo=1, hi=limit * 10,
                       got=max_turns)
    for i, n in enumerate(cfg.list("notes", [])):
        if not (isinstance(n, list) and len(n) == 3 and type(n[0]) is int and n[0] >= 0
                and isinstance(n[1], str) and isinstance(n[2], str)):
            raise cfg.fail(f"notes[{i}]", "must be [event index, who, text]")
    roster = _roster(cfg, roster_text, roster_path)
    ids = {p.id for p in roster.pairs}
    for i, h in enumerate(humans):
        if h not in ids:
            raise cfg.fail(f"humans[{i}]", f"no pair {h!r} in the saved roster")
    war = War(roster, rules, war_seed, max_turns=max_turns,
              dice=cli_dice(war_seed, max_turns or limit, roster_text))
    war.config = dict(config)
    return war


def start_hosted(seed: int, config: dict[str, Any], source: str) -> HostedWar:
    """``rpg-hosted``: the hosted war of the record's config."""
    from fuyuki.rpg.roster import load_roster
    from fuyuki.rpg.rules import default_rules

    cfg = Table(config, source, "config")
    cfg.check_keys(["secret", "roster_toml", "turns", "anka", "players"])
    secret = cfg.str("secret")
    text = cfg.get("roster_toml", (str, type(None)), None)
    rules = default_rules()
    roster = load_roster(None, rules) if text is None else _roster(cfg, text, "config.roster_toml")
    n = len(roster.pairs)
    seats = {key: cfg.list_of(key, int, [], lo=0, hi=n - 1) for key in ("anka", "players")}
    if set(seats["anka"]) & set(seats["players"]):
        raise cfg.fail("anka", "a pair is driven by a player or by the readers, not both")
    return HostedWar(roster, rules, secret, max_turns=cfg.int("turns", rules.war["max_turns"],
                                                              lo=1, hi=99),
                     anka=seats["anka"], players=seats["players"], roster_text=text)


def _roster(cfg: Table, text: str, name: str) -> Any:
    """The roster of a record's ``roster_toml``; anything wrong in it names that key (and,
    in its reason, the roster's own key)."""
    from fuyuki.core.errors import DataError
    from fuyuki.rpg.roster import parse_roster
    from fuyuki.rpg.rules import default_rules

    try:
        return parse_roster(parse_toml(text, name), name, default_rules())
    except DataError as exc:
        raise cfg.fail("roster_toml", f"{exc.key}: {exc.reason}") from None
