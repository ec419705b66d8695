"""The table chat (every game alike): short texts and stamps from the seated players, shown
to everyone at the table, stored with the table and part of its replay.

An entry is ``{"seat", "step", "at", "text"}`` or ``{"seat", "step", "at", "stamp"}`` —
``step`` is the number of moves played when it was posted (the replay shows it there). The
server keeps the text as typed (spaces collapsed, control and format characters removed); the
pages insert it as text, never as HTML.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from fuyuki.core.errors import IllegalAction

MAX_TEXT = 200            # characters of one chat line
MAX_ENTRIES = 1000        # lines a table keeps (then the chat is closed)
STAMPS = ("hello", "gg", "thanks", "sorry", "nice", "wow", "thinking", "oops")


def chat_entry(seat: int | None, data: dict[str, Any], step: int) -> dict[str, Any]:
    """The entry of a chat message ``{"type":"chat","text":T}`` or ``{"stamp":S}``, checked."""
    if seat is None:
        raise IllegalAction("spectator", "spectators read the chat; the players write in it")
    entry: dict[str, Any] = {"seat": seat, "step": step, "at": round(time.time(), 1)}
    stamp = data.get("stamp")
    if stamp is not None:
        if stamp not in STAMPS:
            raise IllegalAction("bad_chat", f"a stamp is one of {list(STAMPS)}")
        entry["stamp"] = stamp
        return entry
    text = data.get("text")
    if not isinstance(text, str) or len(text) > 4 * MAX_TEXT:
        raise IllegalAction("bad_chat", f"a chat line is text of 1 to {MAX_TEXT} characters")
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\t\n")
    text = " ".join(text.split())
    if not 1 <= len(text) <= MAX_TEXT:
        raise IllegalAction("bad_chat", f"a chat line is text of 1 to {MAX_TEXT} characters")
    entry["text"] = text
    return entry
