"""``fuyuki simulate``: the Servant Big Battle balance simulator (see docs/simulator.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

HELP = ("Play many Servant Big Battle bot games and report win rates (per master, servant, "
        "pair, seat), game length, battles, losses and what hiding your identity is worth. / "
        "ボット同士の対戦を大量に行い、バランスの報告を作ります。")


def simulate(
    games: int = typer.Option(1000, "--games", "-n", help="games to play / 対戦数"),
    players: int = typer.Option(4, "--players", "-p", help="players per game / 人数"),
    edition: str = typer.Option("final", "--edition", help="edition / 版"),
    mode: Optional[str] = typer.Option(None, "--mode", help="mode (fate, ubw, hf, hollow...)"),
    option: list[str] = typer.Option([], "--option", help="rule option, repeatable / オプション"),
    cards: Optional[Path] = typer.Option(None, "--cards", help="your own card file (TOML)"),
    bots: str = typer.Option("heuristic", "--bots",
                             help="heuristic (default) | random | hard, or a comma list, one "
                                  "per player (random play ends most games by 聖杯出現 early)"),
    seed: int = typer.Option(0, "--seed", help="master seed / 乱数の種"),
    workers: int = typer.Option(0, "--workers", "-w",
                                help="worker processes (0 = one per core) / プロセス数"),
    fix: list[str] = typer.Option([], "--fix",
                                  help="force a pairing on a player: SEAT=MASTER+SERVANT, "
                                       "e.g. 0=sakura+gilgamesh (repeatable)"),
    assign: Optional[str] = typer.Option(None, "--assign",
                                         help="draft or random (equal exposure); default: as "
                                              "the edition deals"),
    out: Optional[Path] = typer.Option(None, "--out", help="write report.json, report.html and "
                                                          "the plots (plot-*.png) here"),
    as_json: bool = typer.Option(False, "--json", help="print the report as JSON"),
    compare: Optional[str] = typer.Option(None, "--compare",
                                          help="what-if on the same seeds: a card file, or "
                                               "edition=E,mode=M,option=O"),
    ray: Optional[str] = typer.Option(None, "--ray", help="Ray cluster ADDRESS, or 'local'"),
    seconds_per_round: float = typer.Option(60.0, "--seconds-per-round",
                                            help="table time per round, for the time estimate"),
    gap_games: int = typer.Option(-1, "--gap-games",
                                  help="seed pairs for the full-state heuristic gap "
                                       "(-1 = games/10, 0 = off)"),
    bot_iterations: Optional[int] = typer.Option(
        None, "--bot-iterations", help="the hard bot's search budget in iterations: the same "
                                       "seed gives the same report on any machine "
                                       "(default: its time budget)"),
    lang: str = typer.Option("ja", "--lang", help="ja or en"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    from rich.console import Console

    from fuyuki.cli.files import fail
    from fuyuki.cli.outputs import writable_dir
    from fuyuki.core.errors import DataError, FuyukiError
    from fuyuki.sim.config import SimConfig, parse_bots, parse_compare, parse_fix
    from fuyuki.sim.text import t

    err = Console(stderr=True)
    lang = lang if lang in ("ja", "en") else "ja"      # (main refuses another --lang)
    try:
        if games < 1:
            raise DataError("--games", "games", f"must be at least 1, not {games}", "low",
                            lo=1, got=games)
        if out:
            writable_dir(out, "--out")    # before any game: a study is never lost at the end
        cfg = SimConfig(games=games, players=players, edition=edition, mode=mode,
                        options=tuple(option), cards=str(cards) if cards else None,
                        bots=parse_bots(bots, players), seed=seed, fixed=parse_fix(fix),
                        assign=assign, seconds_per_round=seconds_per_round,
                        gap_games=max(0, games // 10 if gap_games < 0 else gap_games),
                        bot_iterations=bot_iterations)
        if players not in cfg.rules().players:
            allowed = " | ".join(map(str, cfg.rules().players))
            raise DataError("--players", "players", f"must be one of {allowed}, not {players}",
                            "choice", allowed=allowed, got=players)
        other = parse_compare(compare, cfg) if compare else None
        report = _run(cfg, workers or (os.cpu_count() or 1), ray, other, progress, err, lang)
    except FuyukiError as exc:
        fail(exc, lang)
    if out:
        from fuyuki.sim.report_html import render_html

        out.mkdir(parents=True, exist_ok=True)
        (out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")
        plots: dict[str, bytes] = {}
        (out / "report.html").write_text(render_html(report, lang, plots), "utf-8")
        for name, png in plots.items():
            (out / name).write_bytes(png)
        err.print(t(lang, "written", path=str(out)))
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        from fuyuki.sim.report_text import render

        render(report, Console(), lang)


def _run(cfg, workers, ray, other, show, err, lang):
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                               TextColumn, TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    from fuyuki.sim.runner import simulate as run
    from fuyuki.sim.text import t

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(t(lang, "games_per_second", rate=f"{speed:,.0f}" if speed else "?"))

    if not show:
        return run(cfg, workers, ray, other)
    with Progress(TextColumn(t(lang, "playing")), BarColumn(), MofNCompleteColumn(), Rate(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                  transient=False) as bar:
        # The bar counts the games asked for; the extra games of the study (the heuristic gap,
        # a what-if run) advance it in proportion.
        task = bar.add_task("games", total=cfg.games)
        done = [0, cfg.games]   # games played, games in the study

        def on_total(total: int) -> None:
            done[1] = total or cfg.games

        def advance(n: int) -> None:
            done[0] += n   # (the bar ends exactly at cfg.games when every game is played)
            bar.update(task, completed=done[0] * cfg.games / done[1])

        return run(cfg, workers, ray, other, progress=advance, on_total=on_total)


def register(app: typer.Typer) -> None:
    app.command("simulate", help=HELP)(simulate)
