"""Optional mypyc compilation of the simulator's hot path. Everything else is in pyproject.toml.

    pip install -e .                    compiles nothing and removes nothing: a compiled build
                                        already in src/ stays (import fuyuki runs it only while
                                        it matches the sources; else pure Python)
    FUYUKI_COMPILE=0 pip install -e .   pure Python: removes a compiled build from src/
    FUYUKI_COMPILE=1 pip install -e .   compile fuyuki._build.COMPILED with mypyc (needs a C
                                        compiler and the Python headers; ~1.5 min on 2 cores)

With FUYUKI_COMPILE=1 a failed compilation fails the install, loudly: a build asked to be
compiled must never quietly turn out pure (benchmarks would lie). ``./dev`` (which compiles by
default) falls back to a pure install itself, with a message, if the compiled one fails.

mypy is a build requirement only when compiling: setuptools' PEP 517 backend reports
``setup_requires`` from get_requires_for_build_wheel/editable, so pip installs mypy into the
isolated build environment only then.

A compiled build writes src/fuyuki/_compiled.json (SHA-256 of each compiled source); only
FUYUKI_COMPILE=0 deletes it and the in-place extension modules of a compiled editable install;
``import fuyuki`` refuses (falls back to pure Python, with a warning) a compiled build whose
sources have changed since — see fuyuki/_build.py.
"""

import glob
import json
import os
import runpy
import sys

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
MYPY = "mypy==2.4.1"   # pinned: mypyc's code generation changes between releases

build = runpy.run_path(os.path.join(SRC, "fuyuki", "_build.py"))
modules = build["COMPILED"]
manifest = os.path.join(SRC, "fuyuki", build["MANIFEST"])
sources = [build["source_path"](m, SRC) for m in modules]

mode = os.environ.get("FUYUKI_COMPILE", "keep").strip().lower()
if mode not in ("0", "1", "", "false", "true", "no", "yes", "keep"):
    sys.exit(f"FUYUKI_COMPILE must be 0, 1 or keep, not {mode!r}")
compile_ = mode in ("1", "true", "yes")
# keep (the default: a plain pip install, and ./dev when it only changes the extras): leave an
# in-place compiled build as it is — import fuyuki still refuses it if its sources changed
keep = mode in ("keep", "")


def clean_inplace() -> None:
    """Remove what a compiled editable install left in src/ (never tracked by git)."""
    for path in ([manifest] + glob.glob(os.path.join(SRC, "fuyuki__mypyc*"))
                 + glob.glob(os.path.join(SRC, "fuyuki", "**", "*.so"), recursive=True)):
        if os.path.exists(path):
            os.remove(path)


ext_modules = []
setup_requires = []
if keep:
    pass
elif not compile_:
    clean_inplace()
else:
    setup_requires = [MYPY]
    try:
        from mypyc.build import mypycify
    except ImportError:
        # first pass (get_requires_for_build_*): mypy is not installed yet, only reported
        mypycify = None
    # only the build commands compile (not egg_info/dist_info: metadata needs no C code)
    building = {"bdist_wheel", "editable_wheel", "build_ext", "build", "install", "develop"}
    if mypycify is not None and building & set(sys.argv[1:]):
        clean_inplace()
        old = os.getcwd()
        os.chdir(SRC)   # mypy names modules from their paths: fuyuki.sbb.game, not src.fuyuki...
        try:
            ext_modules = mypycify(
                ["--ignore-missing-imports", "--follow-imports=silent"]
                + [os.path.relpath(s, SRC) for s in sources],
                opt_level="3", group_name="fuyuki", target_dir=os.path.join(HERE, "build", "mypyc"))
        finally:
            os.chdir(old)
        for ext in ext_modules:   # mypycify's paths are relative to src/
            ext.sources = [s if os.path.isabs(s) else os.path.join(SRC, s) for s in ext.sources]
        with open(manifest, "w", encoding="utf-8") as f:
            json.dump({"mypy": MYPY, "python": sys.version.split()[0],
                       "modules": {m: build["digest"](s) for m, s in zip(modules, sources)}},
                      f, indent=1, sort_keys=True)

setup(ext_modules=ext_modules, setup_requires=setup_requires)
