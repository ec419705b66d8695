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


# Test vectors: secret = bytes 00..1f; five rolls of one round, each chained to the one before:
# mac_n = HMAC-SHA256(secret, mac_{n-1} + ASCII(n) + 0x1E + UTF-8 label), die = 1 + x mod faces.
VECTORS = [
    (1, "t1/am/red-saber", 10, "a2ce9f8a78502cafe20a2e3fee8f2c08ff0d361a432f780505e9db08e1afa936", 3),
    (2, "t1/b1/d100", 100, "62407e7c5e83fd9bffdca7042bf0d1b58ddab2ca4e16db38edcbf9c5872139fd", 98),
    (3, "t1/b1/d4", 4, "ee78e06e34660ebee761073efbad9ff850e94646e0d7a4ed08c9677174536c64", 1),
    (4, "x", 2, "a3cceb0efb6c1874b0420657ec725279df54c9e61b036fb970e17a7e09a7cef9", 2),
    (5, "赤のセイバー", 6, "4989d74e12f7489557094ac61b35265e11ee65a22197e4567966b9a5164677d6", 5),
]


def test_hmac_roll_vectors():
    d = CommittedDice(SECRET)
    prev = b""
    for n, label, faces, mac, value in VECTORS:
        assert dice.roll_mac(SECRET, n, label, 0, prev).hex() == mac
        assert dice.roll_value(SECRET, n, label, faces, prev) == value
        assert d.roll(label, faces) == value
        # the documented function, written out independently
        msg = prev + str(n).encode() + b"\x1e" + label.encode()
        x = int.from_bytes(hmac.new(SECRET, msg, hashlib.sha256).digest(), "big")
        assert 1 + x % faces == value
        prev = bytes.fromhex(mac)


def test_derive_secret_vector():
    assert dice.derive_secret(7, "turn/1").hex() == \
        "4291003e6d86a0b621efb195eb54a99096e4a889772fbfff670674f6c206fcd4"


def test_rejection_sampling_takes_the_next_try(monkeypatch):
    calls = []
    real = dice.roll_mac

    def fake(secret, n, label, attempt=0, prev=b""):
        calls.append(attempt)
        if attempt == 0:
            return b"\xff" * 32          # 2**256 - 1 >= limit for 3 faces: rejected
        return real(secret, n, label, attempt, prev)

    monkeypatch.setattr(dice, "roll_mac", fake)
    v = dice.roll_value(SECRET, 1, "t1/x", 3)
    assert calls == [0, 1]
    x = int.from_bytes(real(SECRET, 1, "t1/x", 1), "big")
    assert v == 1 + x % 3
    # the retry message is n + 0x1E + label + 0x1F + "1"
    assert real(SECRET, 1, "t1/x", 1) == hmac.new(SECRET, b"1\x1et1/x\x1f1", hashlib.sha256).digest()


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.text(alphabet="abcdefgh/0123456789赤黒", min_size=1,
                                                  max_size=20), st.integers(1, 10**6))
def test_roll_is_in_range_and_repeatable(secret, label, faces):
    v = dice.roll_value(secret, 1, label, faces)
    assert 1 <= v <= faces
    assert v == dice.roll_value(secret, 1, label, faces)


def test_roughly_uniform_d10():
    counts = [0] * 10
    for i in range(5000):
        counts[dice.roll_value(SECRET, i + 1, "u", 10) - 1] += 1
    assert min(counts) > 400 and max(counts) < 600


@pytest.mark.parametrize("label", ["", "a b", "tab\there", "nl\n"])
def test_bad_labels_are_refused(label):
    with pytest.raises(DiceError):
        dice.roll_value(SECRET, 1, label, 6)


@pytest.mark.parametrize("faces", [0, -1, 10**6 + 1, True])
def test_bad_faces_are_refused(faces):
    with pytest.raises(DiceError):
        dice.roll_value(SECRET, 1, "x", faces)


def test_committed_dice_record_rolls_and_refuse_a_label_twice():
    d = CommittedDice(SECRET)
    assert d.roll("t1/a", 6) == dice.roll_value(SECRET, 1, "t1/a", 6)
    link = dice.roll_mac(SECRET, 1, "t1/a")
    assert d.roll("t1/b", 6) == dice.roll_value(SECRET, 2, "t1/b", 6, link)
    with pytest.raises(DiceError):
        d.roll("t1/a", 6)
    assert [(r.n, r.label, r.faces) for r in d.rolls] == [(1, "t1/a", 6), (2, "t1/b", 6)]
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


def _log(secret=SECRET, rolls=(("t1/a", 10), ("t1/b", 100), ("t1/c", 6)), scope="t1"):
    d = CommittedDice(secret)
    lines = ["text", f"#DICE COMMIT {scope} {d.commitment}"]
    for label, faces in rolls:
        value = d.roll(label, faces)
        lines.append(f"#DICE ROLL {len(d.rolls)} {label} 1D{faces} {value}")
    lines.append(f"#DICE REVEAL {scope} {secret.hex()} {len(d.rolls)}")
    return lines


def _codes(lines):
    rep = verify_lines(lines)
    assert not rep.ok
    return [(p.code, p.line) for p in rep.problems]


def test_verify_accepts_an_honest_log():
    rep = verify_lines(_log())
    assert rep.ok and rep.commits == 1 and rep.rolls == 3


def test_verify_names_the_tampered_roll():
    lines = _log()
    n, label, die, value = lines[3].split()[2:6]
    lines[3] = f"#DICE ROLL {n} {label} {die} {int(value) % 100 + 1}"
    rep = verify_lines(lines)
    assert not rep.ok
    assert [(p.code, p.line, p.params["label"]) for p in rep.problems] == [("mismatch", 4, "t1/b")]
    assert rep.problems[0].params["expected"] == int(value)


def test_verify_catches_a_secret_that_does_not_match_the_commitment():
    lines = _log()
    lines[-1] = f"#DICE REVEAL t1 {bytes(32).hex()} 3"
    codes = {p.code for p in verify_lines(lines).problems}
    assert "bad_commit" in codes


# -- tampered logs (issue 16): each forgery is found and named ------------------------------

def test_tampered_a_second_commit_of_the_same_scope_is_refused():
    """A second COMMIT for t1 with a fresh secret, and changed rolls under it, no longer pass:
    the first commitment is the one that counts."""
    other = bytes([7]) * 32
    forged = _log(other)
    lines = _log()[:3] + forged[1:]     # the honest first roll, then a fresh commit/reveal pair
    assert ("tamper.dup_commit", 4) in _codes(lines)


def test_tampered_a_relabelled_roll_no_longer_matches_nor_do_the_rolls_after_it():
    lines = _log()
    n, label, die, value = lines[3].split()[2:6]
    lines[3] = f"#DICE ROLL {n} t1/b-again {die} {value}"
    assert ("mismatch", 4) in _codes(lines)
    # even with the value recomputed for the new label, the chain moves every later roll
    link = dice.roll_mac(SECRET, 1, "t1/a")
    lines[3] = f"#DICE ROLL 2 t1/b-again 1D100 {dice.roll_value(SECRET, 2, 't1/b-again', 100, link)}"
    assert _codes(lines) == [("mismatch", 5)]


def test_tampered_a_roll_made_again_under_a_new_label_is_found():
    """The GM dislikes roll 2, makes it again as roll 3 "t1/b2" (the value honest dice give
    it) and deletes the original: the numbers show the gap."""
    d = CommittedDice(SECRET)
    d.roll("t1/a", 10)
    d.roll("t1/b", 100)
    new = d.roll("t1/b2", 100)
    lines = _log()
    lines[3] = f"#DICE ROLL 3 t1/b2 1D100 {new}"     # replaces roll 2
    assert ("tamper.number", 4) in _codes(lines)


@pytest.mark.parametrize("i", [2, 3, 4])
def test_tampered_a_removed_roll_line_is_found(i):
    lines = _log()
    del lines[i]
    codes = {c for c, _ in _codes(lines)}
    assert "tamper.count" in codes
    if i < 4:          # not the last roll: the numbers after it no longer follow
        assert "tamper.number" in codes


def test_tampered_an_inserted_roll_line_is_found():
    lines = _log()
    value = dice.roll_value(SECRET, 4, "t1/extra", 6, b"")
    lines.insert(4, f"#DICE ROLL 4 t1/extra 1D6 {value}")   # a correct value, wrong place
    codes = {c for c, _ in _codes(lines)}
    assert {"tamper.number", "tamper.count"} <= codes


def test_tampered_moved_roll_lines_are_found():
    lines = _log()
    lines[2], lines[3] = lines[3], lines[2]
    assert "tamper.number" in {c for c, _ in _codes(lines)}


def test_tampered_a_second_reveal_and_a_nested_commit_are_found():
    lines = _log()
    assert ("tamper.dup_reveal", 7) in _codes(lines + [lines[-1]])
    inner = _log(bytes([9]) * 32, scope="t1x")
    nested = lines[:3] + inner[1:] + lines[3:]
    assert ("tamper.nested", 4) in _codes(nested)


@pytest.mark.parametrize("line", [
    "#DICE ROLL t1/a 1D10 3",                  # the old unnumbered format
    "#DICE ROLL １ t1/a 1D10 3",               # a number in other digits
    "#DICE ROLL 1 t1/a 1D10 3 extra",
    "#DICE REVEAL t1 00",                      # a reveal without the count
    "#DICE COMMIT t1 not-hex",
])
def test_malformed_dice_lines_are_named(line):
    lines = _log()
    lines.insert(2, line)
    assert ("bad_line", 3) in _codes(lines)
