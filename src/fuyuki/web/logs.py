"""The log lines of ``fuyuki serve``: readable text (the default) or one JSON object a line
(``--log-format json``), both scrubbed of e-mail addresses and URLs.

A JSON line holds ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and
``message``, then the fields a log call gives in ``extra=`` — only those named in
:data:`FIELDS` (a table's code, a seat, the event, a duration...), never a record's other
attributes — and ``error`` (the traceback) when the record has one.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timezone

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FIELDS = ("table", "game", "seat", "event", "step", "kind", "duration", "reason", "count")

# what must never reach a log line even if a message or an error's text carries it: an e-mail
# address (a notification's target) and a URL (a webhook's, whose path is its secret; a
# database URL with its password)
_SECRET = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)


def scrub(text: str) -> str:
    """``text`` with every e-mail address and URL replaced by ``<hidden>``."""
    return _SECRET.sub("<hidden>", text)


class TextFormatter(logging.Formatter):
    """time level logger: message (an error's traceback on the lines below), scrubbed."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring), scrubbed."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, timezone.utc)
                .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "level": record.levelname, "logger": record.name,
                "message": scrub(record.getMessage())}
        for key in FIELDS:
            value = record.__dict__.get(key)
            if value is not None:
                line[key] = scrub(value) if isinstance(value, str) else value
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)
