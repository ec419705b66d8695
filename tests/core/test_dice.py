"""Commit-reveal dice: test vectors, no modulo bias, fixed dice for cases, log verification."""

import hashlib
import hmac

import pytest
from hypothesis import given, settings, strategies as st

from fuyuki.core import dice
from fuyuki.core.dice import CommittedDice, DiceError, FixedDice, verify_lines

SECRET = bytes(range(32))


def test_commitment_is_sha256_of_the_secret():
    assert dice.commitment(SECRET) == \
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert dice.commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()


# Test vectors: secret = bytes 00..1f, HMAC-SHA256(secret, UTF-8 label), die = 1 + x mod faces.
VECTORS = [
    ("t1/am/red-saber", 10, "fe35c43c901b9d61b9c22b3831b4d6f334113bb7b77b11dd41d2b338ad19420e", 1),
    ("t1/b1/d100", 100, "da9dd3e8ba2c67b7488b450ae76036ba9be748d1b37363b76b2dd74e9b1d0cfa", 91),
    ("t1/b1/d4", 4, "5955eaa579af9d9770980c462d7e8039cd32a28604d5dffb9194931d56244fc7", 4),
    ("x", 2, "b3fb46c7f2e3cc97b59aa0d9eeb0fbc8185c9845b7a41de32ad6dc83fce56324", 1),
    ("赤のセイバー", 6, "c29cc07a7830d7a2d20fe15986176b8d24c0d01d3c6547c256e6cd9b93904b89", 6),
]


@pytest.mark.parametrize("label,faces,mac,value", [v for v in VECTORS if v[2]])
def test_hmac_roll_vectors(label, faces, mac, value):
    assert dice.roll_mac(SECRET, label).hex() == mac
    assert dice.roll_value(SECRET, label, faces) == value
    # the documented function, written out independently
    x = int.from_bytes(hmac.new(SECRET, label.encode(), hashlib.sha256).digest(), "big")
    assert 1 + x % faces == value


def test_derive_secret_vector():
    assert dice.derive_secret(7, "turn/1").hex() == \
        "4291003e6d86a0b621efb195eb54a99096e4a889772fbfff670674f6c206fcd4"


def test_rejection_sampling_takes_the_next_try(monkeypatch):
    calls = []
    real = dice.roll_mac

    def fake(secret, label, attempt=0):
        calls.append(attempt)
        if attempt == 0:
            return b"\xff" * 32          # 2**256 - 1 >= limit for 3 faces: rejected
        return real(secret, label, attempt)

    monkeypatch.setattr(dice, "roll_mac", fake)
    v = dice.roll_value(SECRET, "t1/x", 3)
    assert calls == [0, 1]
    x = int.from_bytes(real(SECRET, "t1/x", 1), "big")
    assert v == 1 + x % 3
    # the retry message is label + 0x1F + "1"
    assert real(SECRET, "t1/x", 1) == hmac.new(SECRET, b"t1/x\x1f1", hashlib.sha256).digest()


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.text(alphabet="abcdefgh/0123456789赤黒", min_size=1,
                                                  max_size=20), st.integers(1, 10**6))
def test_roll_is_in_range_and_repeatable(secret, label, faces):
    v = dice.roll_value(secret, label, faces)
    assert 1 <= v <= faces
    assert v == dice.roll_value(secret, label, faces)


def test_roughly_uniform_d10():
    counts = [0] * 10
    for i in range(5000):
        counts[dice.roll_value(SECRET, f"u/{i}", 10) - 1] += 1
    assert min(counts) > 400 and max(counts) < 600


@pytest.mark.parametrize("label", ["", "a b", "tab\there", "nl\n"])
def test_bad_labels_are_refused(label):
    with pytest.raises(DiceError):
        dice.roll_value(SECRET, label, 6)


@pytest.mark.parametrize("faces", [0, -1, 10**6 + 1, True])
def test_bad_faces_are_refused(faces):
    with pytest.raises(DiceError):
        dice.roll_value(SECRET, "x", faces)


def test_committed_dice_record_rolls_and_refuse_a_label_twice():
    d = CommittedDice(SECRET)
    assert d.roll("t1/a", 6) == dice.roll_value(SECRET, "t1/a", 6)
    with pytest.raises(DiceError):
        d.roll("t1/a", 6)
    assert [(r.label, r.faces) for r in d.rolls] == [("t1/a", 6)]
    assert d.commitment == dice.commitment(SECRET)


def test_fixed_dice_fail_when_rolls_are_left_unused():
    f = FixedDice([3, "d100=42", "4:2"])
    assert f.roll("a", 6) == 3
    assert f.roll("b", 100) == 42
    with pytest.raises(DiceError, match="left unused"):
        f.check_all_used()
    assert f.roll("c", 4) == 2
    f.check_all_used()
    with pytest.raises(DiceError, match="no fixed roll left"):
        f.roll("d", 6)


def test_fixed_dice_check_range_and_faces():
    with pytest.raises(DiceError, match="out of range"):
        FixedDice([7]).roll("a", 6)
    with pytest.raises(DiceError, match="1D10"):
        FixedDice(["d100=5"]).roll("a", 10)


def _log(secret=SECRET, rolls=(("t1/a", 10), ("t1/b", 100))):
    d = CommittedDice(secret)
    lines = ["text", f"#DICE COMMIT t1 {d.commitment}"]
    for label, faces in rolls:
        lines.append(f"#DICE ROLL {label} 1D{faces} {d.roll(label, faces)}")
    lines.append(f"#DICE REVEAL t1 {secret.hex()}")
    return lines


def test_verify_accepts_an_honest_log():
    rep = verify_lines(_log())
    assert rep.ok and rep.commits == 1 and rep.rolls == 2


def test_verify_names_the_tampered_roll():
    lines = _log()
    label, die, value = lines[3].split()[2:5]
    lines[3] = f"#DICE ROLL {label} {die} {int(value) % 100 + 1}"
    rep = verify_lines(lines)
    assert not rep.ok
    assert [(p.code, p.line, p.params["label"]) for p in rep.problems] == [("mismatch", 4, "t1/b")]
    assert rep.problems[0].params["expected"] == int(value)


def test_verify_catches_a_secret_that_does_not_match_the_commitment():
    lines = _log()
    lines[-1] = "#DICE REVEAL t1 " + bytes(32).hex()
    codes = {p.code for p in verify_lines(lines).problems}
    assert "bad_commit" in codes


def test_verify_catches_missing_reveal_duplicates_and_bad_lines():
    lines = _log(rolls=(("t1/a", 10),))
    dup = lines[2]
    lines.insert(3, dup)
    lines.insert(1, "#DICE ROLL early 1D6 3")
    lines.append("#DICE COMMIT t2 " + "0" * 64)
    lines.append("#DICE nonsense")
    codes = [p.code for p in verify_lines(lines).problems]
    assert codes == ["no_commit", "dup", "no_reveal", "bad_line"]


def test_verify_catches_a_text_line_edited_without_its_dice_line():
    lines = _log()
    value = int(lines[3].split()[4])
    lines.insert(4, f"(1D100<=50) ＞ {value % 100 + 1} ＞ 成功")
    lines.insert(3, f"(1D10) ＞ {lines[2].split()[4]} ＞ ok")   # a line before is not checked
    probs = verify_lines(lines).problems
    assert [(p.code, p.line) for p in probs] == [("shown", 6)]
    lines[5] = f"(1D100<=50) > {value} > Success"
    assert verify_lines(lines).ok
