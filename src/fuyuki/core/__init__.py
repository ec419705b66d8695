"""What all three games share and nothing game-specific.

- :mod:`fuyuki.core.rng`      seeded random streams
- :mod:`fuyuki.core.events`   the event log, every event saying who may see it
- :mod:`fuyuki.core.protocol` the decision protocol (``pending`` / ``submit`` / ``view``)
- :mod:`fuyuki.core.record`   game records (seed + submissions) that replay a game exactly
- :mod:`fuyuki.core.errors`   typed errors
- :mod:`fuyuki.core.i18n`     ja/en message catalogs
- :mod:`fuyuki.core.data`     TOML loading with errors that name file, key and reason
"""

from fuyuki.core.errors import DataError, FuyukiError, IllegalAction, ScenarioError
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision

__all__ = ["DataError", "Decision", "Event", "FuyukiError", "IllegalAction", "ScenarioError"]
