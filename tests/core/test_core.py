import json

import pytest

from fuyuki.core import rng
from fuyuki.core.data import Table
from fuyuki.core.errors import DataError, IllegalAction
from fuyuki.core.events import Event, unlog, visible
from fuyuki.core.protocol import Decision, check_choice
from fuyuki.core.record import Record


def test_streams_are_deterministic_and_independent():
    a = [rng.stream(7, "deck").random() for _ in range(3)]
    b = [rng.stream(7, "deck").random() for _ in range(3)]
    c = [rng.stream(7, "dice").random() for _ in range(3)]
    assert a == b
    assert a != c
    assert rng.derive_seed(7, "deck") == rng.derive_seed("7", "deck")


def test_copy_stream_continues_identically():
    r = rng.stream(1, "x")
    r.random()
    c = rng.copy_stream(r)
    assert [r.random() for _ in range(5)] == [c.random() for _ in range(5)]


def test_event_visibility():
    pub = Event("a", {})
    priv = Event("b", {}, (1,))
    assert visible([pub, priv], None) == [pub]
    assert visible([pub, priv], 0) == [pub]
    assert visible([pub, priv], 1) == [pub, priv]


def test_a_compact_event_is_the_same_event_to_every_reader():
    import copy
    import pickle

    full = Event("take", {"seat": 2, "land": "ryudo", "gems": 3}, (2,))
    small = unlog(("take", (2,), ("seat", "land", "gems"), 2, "ryudo", 3))
    assert small.get("land") == "ryudo" and small.get("gems") == 3
    with pytest.raises(KeyError):
        small.get("card")
    for e in (small, pickle.loads(pickle.dumps(small)), copy.copy(small)):
        assert e == full and e.to_json() == full.to_json()
        assert list(e.data) == ["seat", "land", "gems"]   # the keys' order: JSON stays the same
        assert repr(e) == repr(full)
    assert small.data is small.data        # built once, then kept


def test_decisions_without_info_share_one_empty_dict():
    assert Decision("a", ("x",)).info is Decision("b", ("y",)).info == {}
    assert Decision("a", ("x",), {"k": 1}).info == {"k": 1}


def test_check_choice_accepts_options_and_text_forms():
    d = Decision("x", ("a", 2, True))
    assert check_choice(d, "a") == "a"
    assert check_choice(d, "2") == 2
    assert check_choice(d, "true") is True
    with pytest.raises(IllegalAction) as exc:
        check_choice(d, "zzz")
    assert exc.value.code == "not_an_option"


def test_record_roundtrip(tmp_path):
    r = Record("sbb", 5, {"players": 4}, [(0, "a"), (1, 2)])
    p = tmp_path / "r.json"
    r.save(p)
    assert Record.load(p) == r
    p.write_text(json.dumps({"game": "sbb"}))
    with pytest.raises(DataError) as exc:
        Record.load(p)
    assert exc.value.key == "seed"


def test_table_errors_name_file_and_key():
    t = Table({"a": {"b": "x"}}, "f.toml")
    with pytest.raises(DataError) as exc:
        t.table("a").int("b")
    assert (exc.value.file, exc.value.key) == ("f.toml", "a.b")
    with pytest.raises(DataError) as exc:
        t.table("a").check_keys(["c"])
    assert "unknown key" in exc.value.reason
