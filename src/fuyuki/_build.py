"""Optional mypyc build: which modules are compiled, and whether this process runs them.

``FUYUKI_COMPILE=1 pip install [-e] .`` compiles :data:`COMPILED` with mypyc (see setup.py);
``./dev`` does that by default; a plain ``pip install`` compiles nothing and leaves a compiled
build in place; ``FUYUKI_COMPILE=0 pip install`` removes it (pure Python). With gcc the build
is profile-guided (trained on :mod:`fuyuki._pgo`; ``FUYUKI_PGO=0``: one compilation), which
the manifest records (:func:`describe`). This module is never compiled and uses only the
standard library: setup.py reads :data:`COMPILED` from it.

The stale-code trap: an editable install puts the compiled ``.so`` files next to the ``.py``
sources, and Python imports an extension module in preference to the source beside it, so an
edit to a compiled module's ``.py`` would silently not run. So the build writes
:data:`MANIFEST` (the SHA-256 of every compiled source), and :func:`check` (run by
``import fuyuki``, before any compiled module is imported) compares it with the sources on
disk. If any differs — or ``FUYUKI_PURE=1`` asks for it — every compiled module is imported
from its ``.py`` instead (all of them: compiled modules call each other natively, so a mix
would still run old code), with a warning naming the edited files.

What compiled modules must respect (mypyc 2.4.1; the suite runs against the compiled build):

- a class that is pickled, copied or built with ``Cls.__new__(Cls)`` needs
  ``@mypyc_attr(allow_interpreted_subclasses=True)`` (mypyc's tp_new otherwise runs
  ``__init__``, which needs arguments). Not ``serializable=True``: in 2.4.1 it leaves
  ``__init__`` uncalled when the class is instantiated from interpreted code.
- frozen dataclasses cannot be restored attribute by attribute: cards.py registers copyreg
  reducers that rebuild them through ``__init__``.
- no positional-only parameter may share its name with a ``**kwargs`` key a caller passes
  (``emit(kind, /, **data)`` called with ``kind=``: mypyc drops the keyword).
- annotations are checked at run time: a ``tuple`` parameter given a list raises TypeError.
- compiled functions and classes cannot be monkeypatched from tests.
- a constant tuple passed around as an object is typed ``Final[tuple[str, ...]]`` (not a bare
  ``Final``): a fixed-length tuple type is a C struct in compiled code, and every use of the
  constant then makes a new tuple object.
- ``a[i] += x`` on a ``list[int]`` is a generic ``PyNumber_InPlaceAdd`` on boxed ints:
  write ``a[i] = a[i] + x`` (native tagged arithmetic).
- a function kept as an object (in a list, a dict) is called through a generic call; a
  method of a native class held in a typed variable is a native call (``game.Runner``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings

#: the modules mypyc compiles (the simulator's hot path); dotted names under ``fuyuki``
COMPILED = (
    "fuyuki.core.events",
    "fuyuki.core.protocol",
    "fuyuki.core.record",
    "fuyuki.core.rng",
    "fuyuki.sbb.abilities",
    "fuyuki.sbb.cards",
    "fuyuki.sbb.rules",
    "fuyuki.sbb.state",
    "fuyuki.sbb.game",
    "fuyuki.sbb.rounds",
    "fuyuki.sbb.battle",
    "fuyuki.sbb.losses",
    "fuyuki.sbb.steps",
    "fuyuki.sbb.setup",
    "fuyuki.sbb.setup_overrides",
    "fuyuki.sbb.view",
    "fuyuki.sbb.agents.random_bot",
    "fuyuki.sbb.agents.heuristic",
    "fuyuki.sim.play",
    "fuyuki.sim.tally",
)
#: written by setup.py next to this file when it compiles: {"modules": {name: sha256}, ...}
MANIFEST = "_compiled.json"

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_state: dict[str, object] = {"mode": "pure", "reason": "not compiled", "stale": []}


def source_path(name: str, root: str) -> str:
    """The ``.py`` of module ``name`` under ``root`` (the directory holding ``fuyuki/``)."""
    return os.path.join(root, *name.split(".")) + ".py"


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _extension_modules() -> set[str]:
    """Every module under ``fuyuki/`` that has an extension file (``.so``) on disk."""
    found = set()
    root = os.path.dirname(_PKG_DIR)
    for dirpath, _dirs, files in os.walk(_PKG_DIR):
        for f in files:
            for sfx in importlib.machinery.EXTENSION_SUFFIXES:
                if f.endswith(sfx):
                    rel = os.path.relpath(os.path.join(dirpath, f[:-len(sfx)]), root)
                    found.add(rel.replace(os.sep, "."))
                    break
    return found


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their ``.py`` sources, ignoring the ``.so``."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, name, path, target=None):
        if name not in self.names:
            return None
        py = source_path(name, os.path.dirname(_PKG_DIR))
        return importlib.util.spec_from_file_location(name, py) if os.path.exists(py) else None


def check() -> None:
    """Decide, once per process, whether the compiled modules may be imported."""
    present = _extension_modules()
    if not present:
        return
    # an extension module left over from a build with a different module list shadows its
    # source just the same: it counts as stale
    stale = sorted(present - set(COMPILED))
    try:
        with open(os.path.join(_PKG_DIR, MANIFEST), encoding="utf-8") as f:
            manifest = json.load(f)
        built = manifest["modules"]
        _state["profile_guided"] = manifest.get("profile_guided") is True
    except (OSError, ValueError, KeyError, AttributeError):
        built = {}
    root = os.path.dirname(_PKG_DIR)
    for name in COMPILED:
        py = source_path(name, root)
        if name not in present or built.get(name) != (digest(py) if os.path.exists(py) else None):
            stale.append(name)
    if os.environ.get("FUYUKI_PURE", "") not in ("", "0"):
        reason = "FUYUKI_PURE is set"
    elif stale:
        reason = "sources changed since the compiled build"
        warnings.warn(
            "fuyuki: the compiled build is stale (" + ", ".join(stale) + " changed or added since it "
            "was built); running ALL compiled modules as pure Python. Rebuild with "
            "any ./dev command (or FUYUKI_COMPILE=1 pip install -e .), or install pure Python "
            "with FUYUKI_COMPILE=0 pip install -e . to silence this.", RuntimeWarning,
            stacklevel=3)
    else:
        _state.update(mode="compiled", reason="mypyc build matches the sources")
        return
    _state.update(mode="pure", reason=reason, stale=stale)
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(present | set(COMPILED)))


def compiled() -> bool:
    """True if the hot path runs as mypyc-compiled code in this process."""
    if _state["mode"] != "compiled":
        return False
    mod = sys.modules.get("fuyuki.sbb.game")
    if mod is None:
        import fuyuki.sbb.game as mod  # noqa: F811
    return not (mod.__file__ or "").endswith(".py")


def describe() -> str:
    """One line for benchmark output: which build this process runs."""
    if compiled():
        guided = ", profile-guided" if _state.get("profile_guided") else ""
        return f"mypyc-compiled ({len(COMPILED)} modules{guided})"
    return f"pure Python ({_state['reason']})"
