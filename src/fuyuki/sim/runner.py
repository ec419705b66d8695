"""Running many games: in this process, in local worker processes, or on a Ray cluster.

Work is a list of *jobs* ``(stream, bots, index)``; each job is one game whose seed comes
from the master seed, the stream name and the index alone, and results come back in job
order — each game's summary (:func:`run_jobs`) or, for the study's main games, the chunk's
counts (:func:`count_jobs`: the worker counts what it played and the parent only merges the
chunks' counts in order). So the report is the same whatever the number of workers or the
backend. Jobs travel in chunks (a task costs about a millisecond of overhead, a game about
as much).
"""

from __future__ import annotations

import gc
import math
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from fuyuki.sim.config import SimConfig
from fuyuki.sim.tally import Tally

Job = tuple[str, tuple[str, ...] | None, int]
Progress = Callable[[int], None]
FULL_STATE = "heuristic-full-state"


def play_chunk(cfg: SimConfig, jobs: list[Job]) -> list[dict[str, Any]]:
    """Play a chunk of jobs (runs in a worker)."""
    from fuyuki.sim.play import play_game

    rules = cfg.rules()
    with cycle_collector_paused():
        return [play_game(cfg, i, bots=bots, stream=stream, rules=rules)
                for stream, bots, i in jobs]


def count_chunk(cfg: SimConfig, jobs: list[Job]) -> tuple[Any, ...]:
    """Play a chunk of jobs and count them (runs in a worker): the chunk's
    :meth:`Tally.state`, counted from each game's facts (no summary made)."""
    return count_games(cfg, jobs, Tally()).state()


def count_games(cfg: SimConfig, jobs: list[Job], counts: Tally) -> Tally:
    """Play ``jobs`` in this process and add them to ``counts`` (returned)."""
    from fuyuki.sim.play import count_played, game_seeds

    rules = cfg.rules()
    seeds = [game_seeds(cfg, i, stream) for stream, _, i in jobs]   # hashed ahead, caches warm
    with cycle_collector_paused():
        count_played(cfg, jobs, seeds, rules, counts)
    return counts


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """A game frees everything it made by reference counting — it makes no reference cycles
    (tests/sim checks it) — so while games play, the cycle collector's passes over their
    many short-lived containers are wasted work: pause it (about 3% of a random-bot game)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def chunked(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def chunk_size(total: int, workers: int, cap: int = 250) -> int:
    return max(1, min(cap, math.ceil(total / max(1, workers * 6))))


def run_jobs(cfg: SimConfig, jobs: list[Job], workers: int = 1, ray: str | None = None,
             progress: Progress | None = None) -> list[dict[str, Any]]:
    """Play every job; summaries in job order."""
    out: list[dict[str, Any]] = []
    for res in _chunks_played(play_chunk, cfg, jobs, workers, ray, progress, len):
        out.extend(res)
    return out


def count_jobs(cfg: SimConfig, jobs: list[Job], workers: int = 1, ray: str | None = None,
               progress: Progress | None = None) -> Tally:
    """Play every job and count them (the counts of each chunk made where it was played; in
    this process, every game counted straight into one tally: the same counts, no chunk's
    tally made and merged)."""
    total = Tally()
    if workers <= 1 and not ray:
        for _ in _chunks_played(lambda c, chunk: count_games(c, chunk, total), cfg, jobs, 1,
                                None, progress, len):
            pass
        return total
    for state in _chunks_played(count_chunk, cfg, jobs, workers, ray, progress,
                                lambda state: state[0]):
        total.merge(Tally.of_state(state))
    return total


def _chunks_played(play: Callable[[SimConfig, list[Job]], Any], cfg: SimConfig,
                   jobs: list[Job], workers: int, ray: str | None,
                   progress: Progress | None, games: Callable[[Any], int]) -> Iterator[Any]:
    """``play(cfg, chunk)`` for each chunk of ``jobs``, results in chunk order;
    ``games(result)``: the games a result holds (for the progress bar)."""
    if not jobs:
        return
    tick = progress or (lambda n: None)
    if ray:
        yield from _run_ray(play, cfg, jobs, ray, workers, tick, games)
        return
    if workers <= 1:
        for chunk in chunked(jobs, chunk_size(len(jobs), 1, cap=50)):
            res = play(cfg, chunk)
            tick(len(chunk))
            yield res
        return
    import multiprocessing as mp

    chunks = chunked(jobs, chunk_size(len(jobs), workers))
    with mp.get_context("fork").Pool(workers) as pool:
        for res in pool.imap(_play_star, [(play, cfg, c) for c in chunks]):
            tick(games(res))
            yield res


def _play_star(args: tuple[Callable[[SimConfig, list[Job]], Any], SimConfig, list[Job]]) -> Any:
    play, cfg, jobs = args
    return play(cfg, jobs)


def _run_ray(play: Callable[[SimConfig, list[Job]], Any], cfg: SimConfig, jobs: list[Job],
             address: str, workers: int, tick: Progress,
             games: Callable[[Any], int]) -> list[Any]:
    """The same chunks on Ray (see :func:`ray_session`)."""
    with ray_session(address, workers) as ray:
        task = ray.remote(play)
        cfg_ref = ray.put(cfg)
        chunks = chunked(jobs, chunk_size(len(jobs), max(1, workers), cap=500))
        refs = [task.remote(cfg_ref, c) for c in chunks]
        results: dict[Any, Any] = {}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                results[ref] = ray.get(ref)
                tick(games(results[ref]))
        return [results[ref] for ref in refs]


@contextmanager
def ray_session(address: str | None, workers: int) -> Iterator[Any]:
    """Ray, connected for the block (the ``ray`` module; None without ``address``):
    ``address`` is a cluster address or ``local`` (start a local instance with ``workers``
    CPUs). Every node needs fuyuki installed (``fuyuki[cluster]``). Inside a session already
    open, the same one: a study's passes share one instance, started and shut down once."""
    if not address:
        yield None
        return
    try:
        import ray
    except ImportError:
        from fuyuki.core.errors import DataError
        raise DataError("--ray", "ray", "needs the ray package: pip install 'fuyuki[cluster]'",
                        "needs_package", package="fuyuki[cluster]") from None
    if address == "local":
        # a private instance on this machine: no token, and a short socket path
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        os.environ.setdefault("RAY_TMPDIR", "/tmp/rt")
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False,
                                      configure_logging=False)
        try:
            if address == "local":
                ray.init(num_cpus=max(1, workers), **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except (ValueError, ConnectionError, RuntimeError) as exc:
            from fuyuki.core.errors import DataError
            raise DataError("--ray", "ray", f"cannot connect to {address!r}: {exc}",
                            "ray_connect", address=address, detail=str(exc)) from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


# ---------------------------------------------------------------------- the whole study
def plan(cfg: SimConfig) -> tuple[list[Job], list[Job]]:
    """The main games and the hidden-identity measurement (pairs of games on the same seeds:
    every player heuristic; then player 0 replaced by the full-state heuristic)."""
    main: list[Job] = [("game", None, i) for i in range(cfg.games)]
    gap: list[Job] = []
    if cfg.gap_games > 0:
        plain = ("heuristic",) * cfg.players
        oracle = (FULL_STATE,) + ("heuristic",) * (cfg.players - 1)
        for j in range(cfg.gap_games):
            gap.append(("gap", plain, j))
            gap.append(("gap", oracle, j))
    return main, gap


def preflight(cfg: SimConfig) -> None:
    """Load the rules and set up one game with the fixed pairings, so that every mistake
    (edition, mode, option, card file, player count, a fixed card) is reported clearly here
    rather than inside a worker."""
    from fuyuki.sbb import setup_overrides

    rules = cfg.rules()
    for name in set(cfg.bots):
        from fuyuki.sim.play import make_agent
        make_agent(name, 0, rules, cfg.bot_iterations)
    g = setup_overrides.start(cfg.players, cfg.game_seed(0), rules, quiet=True)
    setup_overrides.deal(g, {k: (m, s) for k, m, s in cfg.fixed}, cfg.assign)


def simulate(cfg: SimConfig, workers: int = 1, ray: str | None = None,
             compare: tuple[SimConfig, str] | None = None,
             progress: Progress | None = None, on_total: Callable[[int], None] | None = None
             ) -> dict[str, Any]:
    """Play the study of ``cfg`` (and of the what-if configuration on the same seeds) and
    return the report (a JSON-ready dict)."""
    from fuyuki.sim.aggregate import build_report
    from fuyuki.sim.compare import compare_reports

    preflight(cfg)  # bad rules, players or pairings fail here, in this process, before any work
    if compare:
        preflight(compare[0])
    main, gap = plan(cfg)
    total = len(main) + len(gap) + (len(main) if compare else 0)
    if on_total:
        on_total(total)
    with ray_session(ray, workers):   # (one Ray instance for every pass of the study)
        counts = count_jobs(cfg, main, workers, ray, progress)
        report = build_report(cfg, counts, run_jobs(cfg, gap, workers, ray, progress))
        if compare:
            other_cfg, label = compare
            other = count_jobs(other_cfg, main, workers, ray, progress)
            report["compare"] = compare_reports(report, build_report(other_cfg, other, []),
                                                label)
    return report


