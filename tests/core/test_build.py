"""The optional mypyc build never runs stale compiled code (fuyuki._build)."""

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import fuyuki

SRC = Path(fuyuki.__file__).parent
PROBE = ("import warnings, fuyuki, fuyuki.sbb.game as g, fuyuki._build as b; "
         "print(g.__file__.endswith('.py'), fuyuki.compiled(), b.describe())")


def _run(root: Path, **env: str) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k != "FUYUKI_PURE"}
    e.update(env, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-W", "always", "-c", PROBE], cwd=root, env=e,
                          capture_output=True, text=True, timeout=120)


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(SRC, tmp_path / "fuyuki", ignore=shutil.ignore_patterns(
        "*.so", "_compiled.json", "__pycache__"))
    return tmp_path


def test_pure_tree_runs_pure(tmp_path):
    out = _run(_copy(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["True", "False"]
    assert "stale" not in out.stderr


def test_an_extension_without_a_matching_manifest_is_never_imported(tmp_path):
    """A (here fake) compiled game module beside its source, built from other sources: the
    source runs, with a warning. Without the check Python would import the .so first."""
    root = _copy(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (root / "fuyuki" / "sbb" / f"game{suffix}").write_bytes(b"not a real extension")
    out = _run(root)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["True", "False"]
    assert "compiled build is stale" in out.stderr and "fuyuki.sbb.game" in out.stderr


def test_fuyuki_pure_forces_the_sources(tmp_path):
    root = _copy(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (root / "fuyuki" / "sbb" / f"game{suffix}").write_bytes(b"not a real extension")
    out = _run(root, FUYUKI_PURE="1")
    assert out.stdout.split()[:2] == ["True", "False"]
    assert "FUYUKI_PURE" in out.stdout and "stale" not in out.stderr


def games_digest(games: int = 40) -> str:
    """SHA-256 over the full event logs and results of fixed-seed games at 3–5 players, with
    random and heuristic bots (a fingerprint of everything the engine does)."""
    import hashlib
    import json

    from fuyuki.sbb.agents import play_out
    from fuyuki.sbb.agents.heuristic import HeuristicBot
    from fuyuki.sbb.agents.random_bot import RandomBot
    from fuyuki.sbb.game import new_game

    h = hashlib.sha256()
    for seed in range(games):
        n = 3 + seed % 3
        g = new_game(n, seed)
        bots = [RandomBot(seed * 10 + i) if seed % 2 else
                HeuristicBot(seed * 10 + i, cards=g.rules.cards) for i in range(n)]
        play_out(g, bots)
        for e in g.events:
            h.update(json.dumps([e.kind, e.data, e.to], sort_keys=True, default=list).encode())
        h.update(json.dumps(g.result, sort_keys=True).encode())
    return h.hexdigest()


def test_the_suite_runs_the_build_that_dev_made():
    """./dev test says which build it installed (FUYUKI_EXPECT_BUILD): a compiled build that
    went stale, or failed to load, would otherwise pass the suite unnoticed as pure Python."""
    expect = os.environ.get("FUYUKI_EXPECT_BUILD")
    if not expect:
        import pytest
        pytest.skip("not run through ./dev test")
    assert fuyuki.compiled() == (expect == "compiled"), fuyuki._build.describe()


def test_compiled_and_pure_python_play_the_same_games():
    if not fuyuki.compiled():
        import pytest
        pytest.skip("this process runs pure Python: nothing to compare")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "FUYUKI_PURE": "1", "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", "import fuyuki; assert not fuyuki.compiled(); "
         "from tests.core.test_build import games_digest; print(games_digest())"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == games_digest()


def _setup(tmp: Path, **env: str) -> None:
    """Run the project's setup.py (metadata only: nothing is built) in a copy at ``tmp``."""
    e = {k: v for k, v in os.environ.items() if k != "FUYUKI_COMPILE"}
    e.update(env)
    subprocess.run([sys.executable, "setup.py", "--name"], cwd=tmp, env=e, check=True,
                   capture_output=True, text=True, timeout=120)


def test_plain_install_keeps_a_compiled_build_only_compile_0_removes_it(tmp_path):
    root = SRC.parent.parent
    shutil.copy(root / "setup.py", tmp_path)
    shutil.copy(root / "pyproject.toml", tmp_path)
    (tmp_path / "src" / "fuyuki" / "sbb").mkdir(parents=True)
    shutil.copy(SRC / "_build.py", tmp_path / "src" / "fuyuki")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    built = [tmp_path / "src" / "fuyuki" / "_compiled.json",
             tmp_path / "src" / "fuyuki" / "sbb" / f"game{suffix}",
             tmp_path / "src" / f"fuyuki__mypyc{suffix}"]
    for f in built:
        f.write_text("built")
    _setup(tmp_path)                       # a plain `pip install -e .`
    assert all(f.exists() for f in built)
    _setup(tmp_path, FUYUKI_COMPILE="keep")
    assert all(f.exists() for f in built)
    _setup(tmp_path, FUYUKI_COMPILE="0")   # asked for pure Python
    assert not any(f.exists() for f in built)


def _train(root: Path, *args: str) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k != "FUYUKI_PURE"}
    e["PYTHONPATH"] = str(root)
    return subprocess.run([sys.executable, "-m", "fuyuki._pgo", *args], cwd=root, env=e,
                          capture_output=True, text=True, timeout=300)


def test_profile_training_refuses_a_fuyuki_imported_from_elsewhere(tmp_path):
    """setup.py trains the instrumented build in a copy of the package: a fuyuki found
    elsewhere (an editable install's finder) would leave the profile empty."""
    out = _train(SRC.parent, str(tmp_path))
    assert out.returncode == 3
    assert f"not {tmp_path}" in out.stderr


def test_profile_training_refuses_a_pure_build(tmp_path):
    root = _copy(tmp_path)
    out = _train(root, str(root / "fuyuki"))
    assert out.returncode == 3
    assert "compiled build is not the one imported" in out.stderr


def test_profile_training_plays_every_edition_and_mode():
    if not fuyuki.compiled():
        import pytest
        pytest.skip("this process runs pure Python: the training refuses it (above)")
    from fuyuki import _pgo
    from fuyuki.core.errors import FuyukiError
    from fuyuki.sbb.modes import modes
    from fuyuki.sbb.rules import editions, load_rules

    plays = 0
    for edition in editions():
        for mode in (None, *modes()):
            try:
                load_rules(edition, mode)
            except FuyukiError:
                continue
            plays += _pgo.RANDOM_GAMES
        plays += _pgo.HEURISTIC_GAMES
    assert plays > 3 * (_pgo.RANDOM_GAMES + _pgo.HEURISTIC_GAMES)   # some modes too
    out = _train(SRC.parent, str(SRC))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"fuyuki._pgo: {plays + 10 * _pgo.SIM_CHUNKS} training games played"


def test_describe_says_whether_the_build_is_profile_guided(tmp_path):
    if not fuyuki.compiled():
        import pytest
        pytest.skip("this process runs pure Python")
    import json

    shutil.copytree(SRC, tmp_path / "fuyuki", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in SRC.parent.glob("fuyuki__mypyc*"):
        shutil.copy(lib, tmp_path)
    manifest = tmp_path / "fuyuki" / "_compiled.json"
    count = len(fuyuki._build.COMPILED)
    for guided, shown in ((True, f"{count} modules, profile-guided)"), (False, f"{count} modules)")):
        data = json.loads(manifest.read_text())
        data["profile_guided"] = guided
        manifest.write_text(json.dumps(data))
        out = _run(tmp_path)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split()[:2] == ["False", "True"]
        assert out.stdout.strip().endswith(shown)
