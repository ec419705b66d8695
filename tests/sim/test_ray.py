"""The same simulation on a local Ray instance gives the local run's report."""

import pytest

ray = pytest.importorskip("ray")

from fuyuki.sim import SimConfig, simulate  # noqa: E402


@pytest.mark.ray
def test_ray_results_equal_the_local_run(monkeypatch, tmp_path):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_TMPDIR", "/tmp/rt")
    cfg = SimConfig(games=60, bots=("random", "heuristic", "random", "random"), seed=11,
                    gap_games=3)
    local = simulate(cfg, workers=1)
    done, inits = [], []
    init = ray.init
    monkeypatch.setattr(ray, "init", lambda *a, **k: (inits.append(1), init(*a, **k))[1])
    on_ray = simulate(cfg, workers=2, ray="local", progress=done.append)
    assert on_ray == local
    assert sum(done) == 66 and len(done) > 1          # it went in several chunks
    assert len(inits) == 1    # one instance for the study's passes (counts, then the gap games)
    assert not ray.is_initialized()                   # the instance it started is shut down
