"""Optional mypyc compilation of the simulator's hot path. Everything else is in pyproject.toml.

    pip install -e .                    compiles nothing and removes nothing: a compiled build
                                        already in src/ stays (import fuyuki runs it only while
                                        it matches the sources; else pure Python)
    FUYUKI_COMPILE=0 pip install -e .   pure Python: removes a compiled build from src/
    FUYUKI_COMPILE=1 pip install -e .   compile fuyuki._build.COMPILED with mypyc (needs a C
                                        compiler and the Python headers; with gcc, profile-
                                        guided: ~5 min on 2 cores, FUYUKI_PGO=0 ~3 min)

The C code is compiled with :data:`CFLAGS` and, with gcc, profile-guided (:class:`BuildExt`):
compiled once instrumented, trained on ``python -m fuyuki._pgo`` (bot games and the
simulator's worker path), compiled again using the counts. ``FUYUKI_PGO=0`` skips the
training (one compilation). A failed instrumented build or training falls back, with a
message, to one compilation without a profile — never to pure Python.

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
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
MYPY = "mypy==2.4.1"   # pinned: mypyc's code generation changes between releases

build = runpy.run_path(os.path.join(SRC, "fuyuki", "_build.py"))
modules = build["COMPILED"]
manifest = os.path.join(SRC, "fuyuki", build["MANIFEST"])
sources = [build["source_path"](m, SRC) for m in modules]

#: C flags for the compiled modules (gcc and clang). The modules are one shared library whose
#: functions call one another and mypyc's runtime helpers: without -fno-semantic-interposition
#: each such call goes through the PLT and is never inlined (a library's exported function may
#: be replaced at load time); -fno-plt calls libpython's functions through the GOT directly;
#: -fvisibility=hidden exports only the module init functions. −6.3 % instructions a random
#: game (benchmarks/sbb_instructions.py), about +15–20 % games a CPU second.
CFLAGS = ["-fno-semantic-interposition", "-fno-plt", "-fvisibility=hidden"]

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


class BuildExt(build_ext):
    """build_ext with :data:`CFLAGS` and, with gcc, a profile-guided second compilation."""

    def run(self) -> None:
        if os.name == "posix":   # gcc or clang
            for ext in self.extensions:
                ext.extra_compile_args = list(ext.extra_compile_args or []) + CFLAGS
        if not self.extensions or os.environ.get("FUYUKI_PGO", "1").strip().lower() in (
                "0", "false", "no") or not _gcc():
            super().run()
            return
        compiler = self.compiler   # run() replaces the option by a compiler object
        base = [list(ext.extra_compile_args) for ext in self.extensions]
        links = [list(ext.extra_link_args or []) for ext in self.extensions]
        profile = tempfile.mkdtemp(prefix="fuyuki-pgo-")
        try:
            gen = ["-fprofile-generate", f"-fprofile-dir={profile}", "-fprofile-update=single"]
            self._flags(base, links, gen, ["-fprofile-generate"])
            self.force = True   # recompile even if an earlier build's objects are newer
            try:
                super().run()
                trained = self._train(profile)
            except Exception as e:   # noqa: BLE001 - any failure: build without a profile
                trained = f"instrumented build failed: {e}"
            if trained:
                print(f"fuyuki: no profile-guided build ({trained}); compiling without one",
                      file=sys.stderr)
                self._flags(base, links, [], [])
            else:
                self._flags(base, links, ["-fprofile-use", f"-fprofile-dir={profile}",
                                          "-fprofile-partial-training", "-Wno-missing-profile"],
                            [])
            self.compiler = compiler
            super().run()   # the same sources again (force), with the new flags
            self._note_profile(not trained)
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def _flags(self, base: list, links: list, compile_: list, link: list) -> None:
        for ext, b, l in zip(self.extensions, base, links):
            ext.extra_compile_args = b + compile_
            ext.extra_link_args = l + link

    def _note_profile(self, guided: bool) -> None:
        """Record in the build's manifest whether it is profile-guided (fuyuki._build.describe)."""
        for root in (SRC, self.build_lib):
            path = os.path.join(root, "fuyuki", build["MANIFEST"])
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
                data["profile_guided"] = guided
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=1, sort_keys=True)

    def _train(self, profile: str) -> str:
        """Run the training workload on the instrumented build; "" or why it failed. It runs
        in a copy of the package with the instrumented extensions (built in build_lib)
        beside the sources, whatever kind of install this is."""
        with tempfile.TemporaryDirectory(prefix="fuyuki-train-") as root:
            shutil.copytree(os.path.join(SRC, "fuyuki"), os.path.join(root, "fuyuki"),
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
            for ext in self.extensions:
                rel = self.get_ext_filename(ext.name)
                shutil.copy2(os.path.join(self.build_lib, rel), os.path.join(root, rel))
            # -S: no site-packages, so no editable install's finder of this same package; the
            # one dependency the compiled modules import is mypy_extensions (mypy's, here)
            import mypy_extensions

            env = {k: v for k, v in os.environ.items() if k != "FUYUKI_PURE"}
            found = os.path.abspath(mypy_extensions.__file__)   # a module, or a package's init
            found = os.path.dirname(os.path.dirname(found) if found.endswith("__init__.py")
                                    else found)
            env["PYTHONPATH"] = os.pathsep.join([root, found])
            print("fuyuki: training the profile-guided build (python -m fuyuki._pgo)",
                  file=sys.stderr)
            done = subprocess.run([sys.executable, "-S", "-m", "fuyuki._pgo",
                                   os.path.join(root, "fuyuki")], env=env, cwd=root,
                                  capture_output=True, text=True)
        if done.returncode:
            return f"training exited {done.returncode}: {(done.stderr or done.stdout)[-500:]}"
        # (under the objects' own paths when those are absolute, as in pip's builds)
        if not any(f.endswith(".gcda") for _, _, files in os.walk(profile) for f in files):
            return "the training wrote no profile"
        return ""


def _gcc() -> bool:
    """Whether the C compiler is gcc (the profile flags are gcc's; clang's differ)."""
    import sysconfig

    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "Free Software Foundation" in out


setup(ext_modules=ext_modules, setup_requires=setup_requires, cmdclass={"build_ext": BuildExt})
