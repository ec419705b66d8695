"""`fuyuki war battle | new | verify` end to end (typer's runner, small wars)."""

import json

from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.data import package_file

runner = CliRunner()
SABER = str(package_file("fuyuki.rpg", "data", "sheets", "saber.toml"))
ASSASSIN = str(package_file("fuyuki.rpg", "data", "sheets", "assassin.toml"))


def run(*args, input=None):
    return runner.invoke(app, ["war", *args], input=input)


def test_battle_from_two_sheet_files_in_both_languages(tmp_path):
    ja = run("battle", SABER, ASSASSIN, "--seed", "7", "--attacker", "B")
    assert ja.exit_code == 0, ja.output
    assert "【ダイス公約】t1 SHA-256：" in ja.output and "気配遮断 ＞ B側が先制" in ja.output
    assert "(1D100<=" in ja.output and "【結果】" in ja.output
    en = run("battle", SABER, ASSASSIN, "--seed", "7", "--attacker", "B", "--lang", "en",
             "--log", str(tmp_path / "b.log"))
    assert en.exit_code == 0 and "[Result]" in en.output and "side B has initiative" in en.output
    ok = run("verify", str(tmp_path / "b.log"), "--lang", "en")
    assert ok.exit_code == 0 and "verified: 1 turn commitments," in ok.output


def test_battle_by_roster_ids_with_a_person_choosing_for_side_a():
    # lineup, prepare (pass), a stat pick, declarations (pass)...: answer "1" to everything
    res = run("battle", "red-saber", "black-lancer", "--seed", "1", "--human", "A",
              input="1\n" * 40)
    assert res.exit_code == 0, res.output
    assert "A側の選択（メイン・サブ）" in res.output


def test_battle_errors_exit_2_with_a_message(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[servant]\nname = "x"\nlv = 1\nstats = { str = "Q" }\n[master]\nname = "y"\n'
                   'stats = {}\n', "utf-8")
    res = run("battle", str(bad), SABER)
    assert res.exit_code == 2 and "servant.stats.str" in res.output
    res = run("battle", "nobody", "red-saber")
    assert res.exit_code == 2 and "nobody：このidか名前の組はありません" in res.output
    res = run("battle", "nobody", "red-saber", "--lang", "en")
    assert res.exit_code == 2 and "nobody: no pair with this id or name" in res.output
    res = run("battle", SABER, ASSASSIN, "--snipe", "--attacker", "A")
    assert res.exit_code == 2 and "千里眼" in res.output


def test_auto_war_log_verifies_and_a_tampered_roll_is_named(tmp_path):
    log = tmp_path / "x.log"
    res = run("new", "--auto", "--seed", "5", "--turns", "2", "--log", str(log), "--quiet")
    assert res.exit_code == 0, res.output
    assert "【聖杯戦争終結】" in res.output
    text = log.read_text("utf-8").splitlines()
    assert text[0].startswith("【ダイス公約】") and text[1].startswith("#DICE WAR 2 ")
    assert text[2].startswith("【聖杯戦争開始】")
    assert sum(1 for x in text if x.startswith("#DICE COMMIT")) == 2
    ok = run("verify", str(log))
    assert ok.exit_code == 0 and "検証OK：2ターンの公約" in ok.output
    i = next(n for n, x in enumerate(text) if x.startswith("#DICE ROLL ") and x.split()[3].startswith("t2/"))
    n, label, die, value = text[i].split()[2:6]
    faces = int(die[2:])
    text[i] = f"#DICE ROLL {n} {label} {die} {int(value) % faces + 1}"
    (tmp_path / "t.log").write_text("\n".join(text), "utf-8")
    bad = run("verify", str(tmp_path / "t.log"), "--lang", "en")
    assert bad.exit_code == 1
    assert f"line {i + 1}: {label} {die} published {int(value) % faces + 1} ≠ recomputed {value}" \
        in bad.output


def test_the_public_log_carries_no_private_event(tmp_path):
    # the GM console shows what 情報収集 and 礼装作成 yield; the publishable log does not
    log = tmp_path / "x.log"
    gm = run("new", "--auto", "--seed", "4", "--turns", "2", "--log", str(log)).output
    text = log.read_text("utf-8")
    for private in ("の情報を入手", "を作成（所持", "：情報収集 →", "：礼装作成（", "＋【魔】"):
        assert private in gm and private not in text


def test_save_and_resume(tmp_path):
    save = tmp_path / "war.json"
    res = run("new", "--human", "red-saber", "--seed", "3", "--turns", "2", "--save", str(save),
              input="1\n" * 3)
    assert res.exit_code != 0          # the input ran out mid-war
    rec = json.loads(save.read_text("utf-8"))
    assert rec["game"] == "rpg-war" and rec["config"]["humans"] == ["red-saber"]
    n = len(rec["submissions"])
    res = run("new", "--resume", str(save), "--auto", "--log", str(tmp_path / "r.log"))
    assert res.exit_code == 0, res.output
    assert f"{n}件の選択を再生" in res.output and "【聖杯戦争終結】" in res.output
    assert run("verify", str(tmp_path / "r.log")).exit_code == 0
    # the same war played straight through with the same answers gives the same log
    assert len(json.loads(save.read_text("utf-8"))["submissions"]) > n


def test_bad_save_and_roster_files_exit_2(tmp_path):
    p = tmp_path / "s.json"
    p.write_text('{"game": "sbb", "seed": 1, "submissions": []}', "utf-8")
    res = run("new", "--resume", str(p))
    assert res.exit_code == 2 and "サーヴァント大戦の棋譜です" in res.output and "fuyuki replay" in res.output
    r = tmp_path / "r.toml"
    r.write_text("[[pair]]\nid = 3\n", "utf-8")
    res = run("new", "--roster", str(r), "--auto")
    assert res.exit_code == 2 and "pair[0].id" in res.output


def test_the_english_war_heads_its_battle_steps_as_the_japanese_does() -> None:
    """The English text heads a battle's steps "■1 Main and sub" like 「■1 メイン・サブの決定」:
    no line reads as a literal Markdown heading ("## 1 Main and sub", issue 48)."""
    from typer.testing import CliRunner

    from fuyuki.cli.main import app

    out = CliRunner().invoke(app, ["war", "new", "--auto", "--seed", "1", "--turns", "3",
                                   "--lang", "en"]).output
    assert "■1 Main and sub" in out and "■Actions" in out
    assert not [line for line in out.splitlines() if line.startswith("## ")]


def test_no_odds_before_spending_seals_the_prepare_prompt_shows_base_rates_and_each_seals_effect():
    # issue 48: 「■2 戦力値・基礎勝率」 asked about 令呪 before any number
    args = ("battle", SABER, ASSASSIN, "--seed", "3", "--human", "AB")
    ja = run(*args, input="1\n" * 40).output
    prompt = ja.split("B側の選択（戦闘準備）")[1].split("番号か名前")[0]
    assert "  B 黒のアサシン: 筋力20 耐久20 敏捷40 魔力20 幸運5 宝具20" in prompt
    assert "基礎勝率：A 5%／B 0%" in prompt
    assert "令呪で黒のアサシン＋10 → B 筋力30 耐久30 敏捷50 魔力30 幸運15 宝具30" in prompt
    assert "令呪で黒のアサシンに魔力＋100：-25 → 75" in prompt
    assert "令呪1画で勝率＋30%（サブなら＋15%）" in prompt
    en = run(*args, "--lang", "en", input="1\n" * 40).output
    prompt = en.split("side B decides (battle preparation)")[1].split("Number or name")[0]
    assert "base win rate: A 5%, B 0%" in prompt
    assert "a seal on 黒のアサシン: +10 → B STR30 END30 AGI50 MGI30 LUK15 NP30" in prompt
    assert "a seal on 黒のアサシン: mana +100, -25 → 75" in prompt
    assert "a seal gives +30% win rate (+15% as sub)" in prompt


def test_war_new_saves_the_contracts_record_and_a_save_written_before_still_resumes(tmp_path):
    # war new builds its war with contract.start("rpg-war") (fuyuki.rpg.war_record.start) and
    # saves war.record: the same file the terminal wrote itself before, which resumes as it did
    from fuyuki.cli.files import roster
    from fuyuki.core import contract
    from fuyuki.core.record import Record

    save = tmp_path / "war.json"
    res = run("new", "--human", "red-saber", "--seed", "3", "--turns", "2", "--save", str(save),
              input="1\n" * 3)
    saved = Record.from_json(json.loads(save.read_text("utf-8")))
    _, text, name = roster(None)
    config = {"roster_toml": text, "roster_path": name, "seed_text": "3",
              "humans": ["red-saber"], "max_turns": 2, "notes": []}
    assert (saved.game, saved.seed, saved.config) == ("rpg-war", 0, config)
    n = len(saved.submissions)
    assert contract.replay(saved).record.to_json() == saved.to_json()
    # a save as the terminal wrote it before (its own Record, humans sorted), resumed
    old = tmp_path / "old.json"
    Record("rpg-war", 0, dict(config), list(saved.submissions)).save(old)
    res = run("new", "--resume", str(old), "--auto", "--log", str(tmp_path / "r.log"))
    assert res.exit_code == 0, res.output
    assert f"{n}件の選択を再生" in res.output and "【聖杯戦争終結】" in res.output
    assert run("verify", str(tmp_path / "r.log")).exit_code == 0
    assert json.loads(old.read_text("utf-8"))["config"]["humans"] == []     # --auto: nobody


def test_a_turn_limit_whose_save_could_not_resume_is_refused_before_the_war(tmp_path):
    # the contract's rpg-war takes 1 to ten times the rules' limit: beyond it a save would be
    # refused at --resume, so war new refuses it first, in one line naming --turns
    from fuyuki.rpg.rules import default_rules

    limit = default_rules().war["max_turns"] * 10
    save = tmp_path / "war.json"
    res = run("new", "--auto", "--quiet", "--turns", str(limit + 1), "--save", str(save))
    assert res.exit_code == 2 and "--turns" in res.output and str(limit) in res.output
    assert not save.exists()
    res = run("new", "--auto", "--quiet", "--turns", str(limit + 1), "--lang", "en")
    assert res.exit_code == 2 and f"must be 1 to {limit}" in res.output
