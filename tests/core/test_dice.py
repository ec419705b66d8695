"""Commit-reveal dice (log format 2): test vectors, the chain, no modulo bias, fixed dice for
cases, and the dice lines of a log checked (tests/rpg/test_forgeries.py: whole wars)."""

import hashlib
import hmac

import pytest
from hypothesis import given, settings, strategies as st

from fuyuki.core import dice
from fuyuki.core.dice import CommittedDice, DiceError, FixedDice, WarDice, verify_lines

SECRET = bytes(range(32))


def _h(key, msg):
    return hmac.new(key, msg, hashlib.sha256).digest()


def test_commitment_is_sha256_of_the_secret():
    assert dice.commitment(SECRET) == \
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert dice.commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()


# Test vectors: key = bytes 00..1f; five rolls of one turn, each chained to the one before:
# mac = HMAC(key, "R" link ASCII(n) 0x1E label 0x1E ASCII(faces)), die = 1 + x mod faces,
# link = HMAC(key, "L" link ASCII(n) 0x1E label 0x1E ASCII(faces) 0x1E ASCII(value)).
VECTORS = [
    (1, "t1/am/red-saber", 10, "85ac39c8cf54ca58cf5e2229ac8c7089463662a3c07d24f078685edfb2b98c00", 3),
    (2, "t1/b1/d100", 100, "08e691d464b2e3edd4ae07d15ad3456e217b7dd9739e9c2c9edbe43628fc7149", 38),
    (3, "t1/b1/d4", 4, "63e06a07ad578500e04ee1e68d691b7c27bdc3d92f4f215db1c6a2afef19cf9e", 3),
    (4, "x", 2, "ab3aedab153a19354fd91cbc2d8e2b2cb7f4a51d0b921a2b9556402af5c7f089", 2),
    (5, "赤のセイバー", 6, "3034b4fd94c30f2a8a1230f337f495f800dace3c2cf5cf8ca5d5362f484ee310", 1),
]
SEAL = "81db46b3eec5271fc6e71d7c87a38de8af9eedd4b3a85564da19394c7f2e31a0"


def test_hmac_roll_vectors_bind_number_label_faces_and_value():
    d = CommittedDice(SECRET)
    link = b""
    for n, label, faces, mac, value in VECTORS:
        assert dice.roll_mac(SECRET, n, label, faces, 0, link).hex() == mac
        assert d.roll(label, faces) == value
        # the documented function, written out independently
        body = link + str(n).encode() + b"\x1e" + label.encode() + b"\x1e" + str(faces).encode()
        x = int.from_bytes(_h(SECRET, b"R" + body), "big")
        assert 1 + x % faces == value
        link = _h(SECRET, b"L" + body + b"\x1e" + str(value).encode())
        assert d.link == link
    assert d.seal().hex() == SEAL == _h(SECRET, b"E" + link + b"5").hex()
    # the faces are in the MAC: the same roll with other faces is another number
    assert dice.roll_mac(SECRET, 2, "t1/b1/d100", 229, 0, b"") != dice.roll_mac(SECRET, 2, "t1/b1/d100", 100, 0, b"")


def test_the_gm_chain_and_the_turn_key_are_the_documented_functions():
    chain = dice.gm_chain(SECRET, 3)
    assert chain[3] == _h(SECRET, b"fuyuki-dice/2/chain")
    assert all(hashlib.sha256(chain[t]).digest() == chain[t - 1] for t in (1, 2, 3))
    head = dice.war_head(chain[0].hex(), 3)
    wid = hashlib.sha256(f"#DICE WAR 2 {chain[0].hex()} 3".encode()).digest()
    assert dice.war_id(head) == wid
    key = dice.turn_key(wid, 1, wid, chain[1], [("program", bytes(32))])
    assert key == hashlib.sha256(b"fuyuki-dice/2/turn\x1e" + wid + b"\x1e1\x1e" + wid + b"\x1e"
                                 + chain[1] + b"\x1eprogram\x1f" + bytes(32)).digest()
    assert key.hex() == "62aa794119df508369345dcc3067a6265c54703842cf178f43dde687c8a09ebc"


def test_derive_secret_vector():
    assert dice.derive_secret(7, "turn/1").hex() == \
        "4291003e6d86a0b621efb195eb54a99096e4a889772fbfff670674f6c206fcd4"


def test_rejection_sampling_takes_the_next_try(monkeypatch):
    calls = []
    real = dice.roll_mac

    def fake(key, n, label, faces, attempt=0, link=b""):
        calls.append(attempt)
        if attempt == 0:
            return b"\xff" * 32          # 2**256 - 1 >= limit for 3 faces: rejected
        return real(key, n, label, faces, attempt, link)

    monkeypatch.setattr(dice, "roll_mac", fake)
    v = dice.roll_value(SECRET, 1, "t1/x", 3)
    assert calls == [0, 1]
    x = int.from_bytes(real(SECRET, 1, "t1/x", 3, 1), "big")
    assert v == 1 + x % 3
    assert real(SECRET, 1, "t1/x", 3, 1) == _h(SECRET, b"R1\x1et1/x\x1e3\x1f1")


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


def test_committed_dice_record_rolls_and_refuse_a_label_twice():
    d = CommittedDice(SECRET)
    assert d.roll("t1/a", 6) == dice.roll_value(SECRET, 1, "t1/a", 6)
    with pytest.raises(DiceError):
        d.roll("t1/a", 6)
    assert [(r.n, r.label, r.faces) for r in d.rolls] == [(1, "t1/a", 6)]


def _log(turns=2, rolls=(("a", 10), ("b", 100), ("c", 6))):
    """A small format-2 log made the way a war makes it (text lines show each die)."""
    wd = WarDice(SECRET, turns)
    lines = ["text", wd.head]
    before = None
    for t in range(1, turns + 1):
        d = wd(t)
        d.follow(before)
        lines.append(f"#DICE COMMIT t{t} {d.commitment}")
        lines += [f"#DICE PARTY t{t} {n} {c}" for n, c, _ in d.published()["parties"]]
        lines += [f"#DICE OPEN t{t} {n} {r}" for n, _, r in d.published()["parties"]]
        for label, faces in rolls:
            v = d.roll(f"t{t}/{label}", faces)
            lines += [f"#DICE ROLL {len(d.rolls)} t{t}/{label} 1D{faces} {v}",
                      f"(1D{faces}<=5) ＞ {v} ＞ {'成功' if v <= 5 else '失敗'}"]
        lines.append(f"#DICE REVEAL t{t} {d.secret.hex()} {len(d.rolls)} {d.seal().hex()}")
        before = d
    return lines


def _first(lines):
    rep = verify_lines(lines)
    assert rep.problems, "accepted"
    return rep.problems[0].code, rep.problems[0].line


def test_verify_accepts_an_honest_log_and_waits_for_the_record():
    rep = verify_lines(_log())
    assert not rep.problems and rep.commits == 2 and rep.rolls == 6
    assert [p.code for p in rep.pending] == ["no_record"] and not rep.ok


def test_an_unrevealed_turn_is_pending_not_wrong():
    lines = _log()[:-1]
    rep = verify_lines(lines)
    assert not rep.problems and [p.code for p in rep.pending] == ["no_reveal"]


def test_verify_names_the_tampered_roll():
    lines = _log()
    i = next(k for k, x in enumerate(lines) if x.startswith("#DICE ROLL 2 t2/"))
    parts = lines[i].split()
    parts[5] = str(int(parts[5]) % 100 + 1)
    lines[i] = " ".join(parts)
    lines[i + 1] = f"(1D100<=5) ＞ {parts[5]} ＞ {'成功' if int(parts[5]) <= 5 else '失敗'}"
    assert _first(lines) == ("mismatch", i + 1)


@pytest.mark.parametrize("line", ["#DICE ROLL t1/a 1D10 3", "#DICE ROLL \uff11 t1/a 1D10 3",
                                  "#DICE ROLL 1 t1/a 1D10 3 extra", "#DICE REVEAL t1 00",
                                  "#DICE COMMIT t1 not-hex", "#DICE  ROLL 1 t1/a 1D10 3"])
def test_malformed_dice_lines_are_named(line):
    lines = _log()
    i = lines.index(next(x for x in lines if x.startswith("#DICE ROLL 1 t1/")))
    lines.insert(i, line)
    code, at = _first(lines)
    assert at == i + 1 and code in ("bad_line", "char", "tamper.nested")


def test_an_old_format_log_is_refused_naming_its_version():
    assert _first(["text", "#DICE COMMIT t1 " + "0" * 64]) == ("format", 2)
    assert _first(["#DICE WAR 1 " + "0" * 64 + " 3 " + "0" * 64 + " " + "0" * 64]) == ("format", 1)
