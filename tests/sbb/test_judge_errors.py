"""A bad scenario is refused with the file, the key and the reason."""

import pytest

from fuyuki.core.errors import ScenarioError
from fuyuki.sbb.judge import judge

BASE = """players = 3
pool = 10
[lands]
emiya = 1
school = 1
[[seat]]
master = "shirou"
servant = "saber"
{extra}
[[seat]]
master = "rin"
servant = "lancer"
[[seat]]
master = "kirei"
servant = "rider"
"""


@pytest.mark.parametrize("extra, key, words", [
    ('bid = "green-np-3"', "seat[0].bid", "no land of colour"),
    ('bid = "red-np-9"', "seat[0].bid", "more copies"),
    ('hand = ["red-np-3", "red-np-3"]', "seat[0].hand[1]", "more copies"),
    ('bid = "swap"', "seat[0].choices.swap", "must name a target"),
    ('gems = -1', "seat[0].gems", "at least 0"),
    ('dark = true', "seat[0].dark", "黒化"),
    ('colour = "red"', "seat[0].colour", "unknown key"),
    ('[seat.choices]\nluck = true', "seat[0].choices.luck", "no 強運"),
])
def test_bad_scenario_names_key(tmp_path, extra, key, words):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra=extra))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == key and words in exc.value.reason and str(p) in str(exc.value)


def test_duplicate_servant_refused(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra="").replace('servant = "lancer"', 'servant = "saber"'))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == "seat[1].servant" and "already" in exc.value.reason


def test_bad_toml_refused(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text("players = ")
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert "not valid TOML" in exc.value.reason
