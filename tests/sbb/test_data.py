"""Rules as data: the card file and edition files are validated on load, and every text a
user reads exists in ja and en."""

import pytest

from fuyuki.core import i18n
from fuyuki.core.errors import DataError
from fuyuki.sbb import text  # noqa: F401  (registers the catalog)
from fuyuki.sbb.cards import default_cards_path, load_cards
from fuyuki.sbb.rules import Rules


def test_builtin_cards_final_edition_counts():
    """seed 001: 10 masters, 10 servants, 5 lands, 53 actions (50 + 3 events)."""
    r = Rules.preset("final")
    cs = r.cards
    assert len(r.masters) == 10 and len(r.servants) == 10 and len(cs.lands) == 5
    actions = sum(len(cs.actions_of(l.colour)) for l in cs.lands.values())
    assert actions == 50 and len(r.events) == 3
    assert r.gem_pool == 50 and r.opening_hand == 3 and r.victory_gems == 12


def test_the_card_table_numbers_every_card_in_string_order_with_its_facts():
    """Cards as integer facts: one int per card id, in the ids' string order (so a sorted
    hand of ints is the sorted hand of ids), 0 for no card, and each card's facts by int."""
    from fuyuki.sbb.cards import (ACTION, COLOURS, EVENT, LAND, MASTER, NO_CARD, SERVANT,
                                  card_table, parse_action)

    r = Rules.preset("final")
    cs = r.cards
    t = card_table(cs)
    assert card_table(cs) is t                      # built once per card set
    assert t.names[NO_CARD] == "" and t.names == sorted(t.names)
    assert all(t.ids[c] == i for i, c in enumerate(t.names))
    for cid, m in cs.masters.items():
        assert t.kind[t.ids[cid]] == MASTER and t.masters[t.ids[cid]] is m
    for cid, sv in cs.servants.items():
        assert t.kind[t.ids[cid]] == SERVANT and t.servants[t.ids[cid]] is sv
    for cid, land in cs.lands.items():
        i = t.ids[cid]
        assert t.kind[i] == LAND and COLOURS[t.colour[i]] == land.colour
        assert t.names_of(t.actions[t.colour[i]]) == cs.actions_of(land.colour)
    for cid, ev in cs.events.items():
        assert t.kind[t.ids[cid]] == EVENT and t.event[t.ids[cid]] == ev.kind
    actions = [c for c in t.names if parse_action(c)]
    assert len(actions) == len({c for l in cs.lands.values() for c in cs.actions_of(l.colour)})
    for cid in actions:
        a, i = parse_action(cid), t.ids[cid]
        assert t.kind[i] == ACTION and COLOURS[t.colour[i]] == a.colour
        assert t.np[i] == (a.kind == "np") and t.value[i] == a.value
    hand = ["red-sortie-5", "blue-np-2", "luck", "blue-np-2", "green-sortie-1"]
    assert t.names_of(sorted(t.ids_of(hand))) == sorted(hand)
    lands = list(cs.lands)
    assert t.action_deck(t.ids_of(lands), r.events) == t.ids_of(cs.action_deck(lands, r.events))


def test_every_card_has_ja_and_en_text():
    cs = load_cards()
    for group in (cs.masters, cs.servants, cs.events):
        for card in group.values():
            assert card.name["ja"] and card.name["en"]
            assert card.text["ja"] and card.text["en"], card.id


def _texts(node, where=""):
    """Every {ja, en} text pair in a data file, with its key path."""
    if isinstance(node, dict):
        if set(node) == {"ja", "en"}:
            yield where, node
        for k, v in node.items():
            yield from _texts(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _texts(v, f"{where}[{i}]")


def test_card_texts_name_the_card_kinds_as_the_rules_do():
    """The rules name the action cards sortie / NP in English (宝具 is the servant's ability)
    and つばめ返し's threshold 「カードの数値」 in Japanese: the card texts say the same."""
    import re
    import tomllib
    from pathlib import Path

    data = Path(default_cards_path()).parent
    files = [data / "cards.toml", *sorted((data / "modes").glob("*.toml")),
             *sorted((data / "editions").glob("*.toml"))]
    kind_as_ja = re.compile(r"出撃|宝具 (card|totals|battle)|played 宝具|a 宝具 card")
    bad = []
    for f in files:
        for where, pair in _texts(tomllib.loads(f.read_text(encoding="utf-8"))):
            if kind_as_ja.search(pair["en"]):
                bad.append(f"{f.name}{where}.en: {pair['en']}")
            if "行動力" in pair["ja"]:
                bad.append(f"{f.name}{where}.ja: {pair['ja']}")
    assert len(files) > 3 and not bad, bad


def test_catalogs_have_the_same_keys():
    ja = {k for k in i18n.keys("ja") if k.startswith("sbb.")}
    en = {k for k in i18n.keys("en") if k.startswith("sbb.")}
    assert ja == en and len(ja) > 80


def test_every_event_kind_has_text():
    from fuyuki.sbb.game import new_game
    from tests.sbb.conftest import play_out
    kinds = set()
    for seed in range(80):
        kinds |= {e.kind for e in play_out(new_game(5, seed), rng_seed=seed).events}
    for kind in kinds:
        assert f"sbb.event.{kind}" in i18n.keys("ja"), kind


def _write(tmp_path, old, new):
    src = default_cards_path().read_text("utf-8")
    assert old in src
    p = tmp_path / "cards.toml"
    p.write_text(src.replace(old, new, 1), "utf-8")
    return p


@pytest.mark.parametrize("old, new, key, words", [
    ('power = 3', 'power = "3"', "servant[0].power", "must be an integer"),
    ('ability = { kind = "substitute" }', 'ability = { kind = "teleport" }', "master[0].ability.kind", "must be one of"),
    ('effect = { destroy = ["servant"] }', 'effect = { destroy = ["land"] }', "servant[0].effect.destroy[0]", "'servant' or 'master'"),
    ('colour = "blue"', 'colour = "red"', "land[1].colour", "two lands"),
    ('mana = 3', 'manna = 3', "master[0].manna", "unknown key"),
    ('sortie = [1, 2, 2, 3, 3, 4, 5]', 'sortie = [1, -2]', "actions.sortie[1]", "0 to 99"),
    ('ability = { kind = "vessel", victory = 10 }', 'ability = { kind = "vessel" }', "master[4].ability.victory", "missing"),
])
def test_bad_card_file_names_file_key_reason(tmp_path, old, new, key, words):
    p = _write(tmp_path, old, new)
    with pytest.raises(DataError) as exc:
        load_cards(p)
    assert exc.value.file == str(p) and exc.value.key == key and words in exc.value.reason


def test_users_card_file_changes_play(tmp_path):
    """A user's card file: セイバー power 9 wins a case 3 it would have lost."""
    p = _write(tmp_path, 'power = 3', 'power = 9')
    r = Rules.preset("final", cards=p)
    assert r.cards.servants["saber"].power == 9


def test_unknown_edition_and_option_refused():
    with pytest.raises(DataError) as exc:
        Rules.preset("v9")
    assert "unknown edition" in exc.value.reason
    with pytest.raises(DataError) as exc:
        Rules.preset("final", options=("turbo",))
    assert "unknown option" in exc.value.reason
