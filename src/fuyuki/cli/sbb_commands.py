"""Servant Big Battle commands: play, replay, judge."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    pass
