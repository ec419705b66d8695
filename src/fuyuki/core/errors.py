"""Typed errors. Every error a user can cause says what was wrong and where."""

from __future__ import annotations


class FuyukiError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalAction(FuyukiError):
    """A submission the engine refused. The game state is unchanged.

    ``code`` is a stable machine-readable reason (``not_your_turn``, ``not_an_option``...);
    ``params`` fill the ja/en message of that code.
    """

    def __init__(self, code: str, message: str | None = None, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(message or (f"{code}: {params}" if params else code))


class DataError(FuyukiError):
    """A file a user gave (cards, scenario, save, roster...) or a rules data file is invalid.

    ``reason`` is English; ``code`` and ``params`` (optional) name the reason for the ja/en
    catalog (``load.reason.<code>``, see :mod:`fuyuki.core.load`)."""

    def __init__(self, file: str, key: str, reason: str, code: str = "", **params: object) -> None:
        self.file = file
        self.key = key
        self.reason = reason
        self.code = code
        self.params = params
        super().__init__(f"{file}: {key}: {reason}")


class ScenarioError(DataError):
    """A judge scenario or test case file is invalid."""
