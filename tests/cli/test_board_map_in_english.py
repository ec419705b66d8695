"""The English board names its areas in English (issue 48: the map showed Japanese names
only): the map's cells by their short English names, the events by the English name with the
Japanese one; the Japanese board keeps the pack's names."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from fuyuki.cli.main import app

runner = CliRunner()


def test_the_english_map_and_events_name_the_areas_in_english() -> None:
    en = runner.invoke(app, ["board", "play", "--seed", "2", "--players", "3", "--lang", "en"],
                       input="1\n" * 12, env={"COLUMNS": "80"}).output
    rows = [line for line in en.splitlines() if line.startswith(("Ryuudou", "Einz. Castle"))]
    assert rows and all(not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", row) for row in rows)
    assert "Mt. Enzou" in en and "Kotomine Ch." in en
    assert re.search(r"moves to [A-Z][\w .]+ \([^)]+\)\.", en), en[-1500:]
    ja = runner.invoke(app, ["board", "play", "--seed", "2", "--players", "3"],
                       input="1\n" * 12, env={"COLUMNS": "80"}).output
    assert "柳洞寺" in ja and "Ryuudou" not in ja
