"""``fuyuki simulate`` end to end: files, JSON, HTML with embedded plots, errors, ja/en."""

import base64
import json

from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core import i18n
from fuyuki.sim.aggregate import NOTE

runner = CliRunner()


def test_simulate_writes_json_and_html_reports(tmp_path):
    out = tmp_path / "rep"
    res = runner.invoke(app, ["simulate", "--games", "12", "--bots", "random,heuristic,random,random",
                              "--fix", "1=sakura+gilgamesh", "--seed", "4", "--workers", "1",
                              "--gap-games", "2", "--out", str(out), "--no-progress",
                              "--lang", "en"])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["games"] == 12 and report["config"]["fixed"] == [
        {"player": 1, "master": "sakura", "servant": "gilgamesh"}]
    assert report["note"] == NOTE
    pair = {r["id"]: r for r in report["pairs"]}["sakura+gilgamesh"]
    assert pair["games"] >= 12
    assert report["by_player"][1]["games"] == 12
    html = (out / "report.html").read_text("utf-8")
    assert NOTE["en"] in html
    b64 = html.split("data:image/png;base64,")[1].split('"')[0]
    assert base64.b64decode(b64)[:8] == b"\x89PNG\r\n\x1a\n"
    assert html.count("data:image/png;base64,") >= 5
    assert "bot play, not human play" in res.output


def test_simulate_json_on_stdout_is_the_report(tmp_path):
    res = runner.invoke(app, ["simulate", "-n", "6", "--json", "--no-progress", "-w", "1",
                              "--gap-games", "0", "--seed", "2"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["games"] == 6 and report["hidden"]["gap"] is None
    assert sum(r["games"] for r in report["offsets"]) == 24


def test_simulate_compare_reports_differences():
    res = runner.invoke(app, ["simulate", "-n", "8", "--json", "--no-progress", "-w", "1",
                              "--gap-games", "0", "--compare", "option=tie_dice"])
    assert res.exit_code == 0, res.output
    cmp = json.loads(res.stdout)["compare"]
    assert cmp["label"] == "option=tie_dice" and cmp["config"]["options"] == ["tie_dice"]
    assert all({"diff", "p", "significant"} <= set(r) for r in cmp["servants"])


def test_simulate_refuses_bad_input_with_exit_2():
    for args in (["--fix", "0=nobody+saber"], ["--fix", "0sakura"], ["--edition", "v9"],
                 ["--bots", "random,random"], ["--assign", "auction"], ["--option", "bogus"],
                 ["--cards", "/no/such/file.toml"], ["--compare", "nonsense"],
                 ["--players", "9"], ["--mode", "nope"], ["--compare", "mode=fate", "--fix",
                                                          "0=sakura+saber"]):
        res = runner.invoke(app, ["simulate", "-n", "2", "--no-progress", "-w", "2"] + args)
        assert res.exit_code == 2, (args, res.output)
        assert "Traceback" not in res.output


def test_every_report_text_exists_in_japanese_and_english():
    import fuyuki.sim.text  # noqa: F401  (registers the catalog)
    ja = {k for k in i18n.keys("ja") if k.startswith("sim.")}
    en = {k for k in i18n.keys("en") if k.startswith("sim.")}
    assert ja == en and len(ja) > 50


def test_every_counted_event_has_a_label():
    import fuyuki.sim.text  # noqa: F401
    from fuyuki.sim.play import ABILITY_EVENTS, BATTLE_KINDS
    for k in ABILITY_EVENTS:
        assert f"sim.event.{k}" in i18n.keys("en")
    for k in BATTLE_KINDS:
        assert f"sim.kind.{k}" in i18n.keys("ja")


def test_simulate_hard_bots_with_an_iteration_budget_is_reproducible():
    args = ["simulate", "-n", "2", "-p", "3", "--bots", "hard", "--bot-iterations", "5",
            "--workers", "1", "--json", "--no-progress", "--gap-games", "0"]
    a, b = CliRunner().invoke(app, args), CliRunner().invoke(app, args)
    assert a.exit_code == 0, a.output
    ra, rb = json.loads(a.stdout), json.loads(b.stdout)
    assert ra["config"]["bot_iterations"] == 5
    assert ra == rb


def test_the_plots_find_a_cjk_font_installed_after_matplotlibs_font_cache(monkeypatch):
    """matplotlib lists fonts once per version (a cache); a CJK font installed after it
    (``./dev test`` installs Noto CJK) is added from the system's font files, so the plots'
    Japanese is not drawn as empty boxes."""
    import pytest
    from matplotlib import font_manager

    from fuyuki.sim.report_html import CJK_FONTS, _pyplot

    if not any("CJK" in p for p in font_manager.findSystemFonts(fontext="ttf")):
        pytest.skip("no CJK font file on this machine")
    fm = font_manager.fontManager
    monkeypatch.setattr(fm, "ttflist", [f for f in fm.ttflist if f.name not in CJK_FONTS])
    plt = _pyplot()
    assert plt.rcParams["font.family"][0] in CJK_FONTS
    assert any(f.name in CJK_FONTS for f in fm.ttflist)
