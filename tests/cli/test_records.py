"""Which command replays which record (fuyuki.cli.records): every game of the contract's
registry has one, and a record given to another command names it, in ja and en."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.cli.records import REPLAY_COMMAND
from fuyuki.core import contract

runner = CliRunner()


def test_every_game_the_registry_knows_has_a_replay_command() -> None:
    assert set(contract.BUILTIN) <= set(REPLAY_COMMAND)


def test_a_hosted_wars_record_points_to_war_verify_of_its_published_log(tmp_path: Path) -> None:
    path = tmp_path / "hosted.json"
    contract.start("rpg-hosted", 0, {"secret": "ab" * 32, "turns": 1}).record.save(path)
    for command in (["replay"], ["board", "replay"], ["war", "new", "--resume"]):
        en = runner.invoke(app, [*command, str(path), "--lang", "en"])
        out = " ".join(en.output.split())
        assert en.exit_code == 2 and "hosted at the table server" in out, (command, out)
        assert "fuyuki war verify LOG" in out and "published log" in out
    ja = runner.invoke(app, ["replay", str(path)])
    out = "".join(ja.output.split())
    assert ja.exit_code == 2 and "卓サーバーで開いた" in out and "公開ログ" in out
    assert "fuyukiwarverifyログ" in out
