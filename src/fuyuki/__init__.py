"""fuyuki — the fan-made Holy Grail War games as real software."""

__version__ = "0.1.0"
