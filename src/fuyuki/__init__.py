"""fuyuki — the fan-made Holy Grail War games as real software."""

__version__ = "0.1.0"

from fuyuki import _build  # noqa: E402

_build.check()   # before any compiled module is imported: never run a stale compiled build
compiled = _build.compiled
