"""What a designer gets from ``fuyuki simulate`` without options: heuristic bots, a progress
bar over the games asked for, and the report's plots as PNG files beside the HTML."""

import json

from typer.testing import CliRunner

from fuyuki.cli.main import app

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def test_simulate_defaults_to_heuristic_bots_and_writes_the_plots_as_png(tmp_path):
    res = runner.invoke(app, ["simulate", "-n", "8", "-w", "1", "--gap-games", "0",
                              "--no-progress", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert report["config"]["bots"] == ["heuristic"] * 4
    pngs = sorted(p.name for p in tmp_path.glob("plot-*.png"))
    assert {"plot-masters.png", "plot-servants.png", "plot-length.png"} <= set(pngs)
    html = (tmp_path / "report.html").read_text("utf-8")
    assert html.count("data:image/png;base64,") == len(pngs)
    assert all((tmp_path / p).read_bytes()[:8] == PNG for p in pngs)


def test_progress_bar_counts_the_games_asked_for():
    """10 games asked, plus 4 seed pairs for the heuristic gap: the bar ends at 10/10."""
    res = runner.invoke(app, ["simulate", "-n", "10", "-w", "1", "--gap-games", "4",
                              "--bots", "random", "--json"])
    assert res.exit_code == 0
    assert "10/10" in res.output and "/18" not in res.output
