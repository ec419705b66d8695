"""The Servant Big Battle balance simulator: many bot games, one report.

    from fuyuki.sim import SimConfig, simulate
    report = simulate(SimConfig(games=1000, players=4, bots=("heuristic",) * 4, seed=1))

Modules: :mod:`~fuyuki.sim.config` (what to play), :mod:`~fuyuki.sim.play` (one game and its
summary), :mod:`~fuyuki.sim.analysis` (the full-state measuring bot), :mod:`~fuyuki.sim.runner`
(worker processes, Ray), :mod:`~fuyuki.sim.tally` (the report's counts, kept in the worker
that plays the games), :mod:`~fuyuki.sim.stats` (Wilson, two-proportion test),
:mod:`~fuyuki.sim.aggregate` (counts to report), :mod:`~fuyuki.sim.compare` (what-if),
:mod:`~fuyuki.sim.report_text` (rich tables), :mod:`~fuyuki.sim.report_html` (HTML + plots).

Every report describes bot play, not human play.
"""

from fuyuki.sim.config import SimConfig
from fuyuki.sim.runner import simulate

__all__ = ["SimConfig", "simulate"]
