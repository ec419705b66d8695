"""A command-line mistake as one line in the user's language (exit status 2).

The command-line parser (Typer's Click) raises its errors with English texts; here each kind
is said again from what the error holds — the option, the parameter, the value typed (from the
validation error under it) — through the ``cli.usage`` catalog, with the command whose
``--help`` explains it. Any other text is never shown in Japanese mode: its kind is said
instead."""

from __future__ import annotations

import re
from typing import Any

from fuyuki.cli.helptexts import param_key
from fuyuki.cli.prompt import t

try:
    from typer._click import exceptions as click_errors
except ImportError:        # a Typer that runs on Click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]

#: pydantic's error types (the validation under a bad value) → catalog key, and the limit
_VALUE_ERRORS = {
    "int_parsing": ("not_int", None), "int_from_float": ("not_int", None),
    "int_type": ("not_int", None), "float_parsing": ("not_number", None),
    "float_type": ("not_number", None), "bool_parsing": ("not_bool", None),
    "greater_than_equal": ("at_least", "ge"), "greater_than": ("above", "gt"),
    "less_than_equal": ("at_most", "le"), "less_than": ("below", "lt"),
    "literal_error": ("one_of", "expected"), "enum": ("one_of", "expected"),
}


def line(exc: Exception, lang: str) -> str:
    """The one line that says what is wrong with the command line, and where to read more."""
    ctx = getattr(exc, "ctx", None)
    command = ctx.command_path if ctx is not None else "fuyuki"
    return t(lang, "usage.line", what=what(exc, lang), command=command)


def bad_lang(value: str, lang: str) -> str:
    """An unknown ``--lang``: the line (said in ``lang``, the language found elsewhere)."""
    return t(lang, "usage.line", what=t(lang, "usage.bad_lang", value=repr(value)),
             command="fuyuki")


def what(exc: Exception, lang: str) -> str:
    """What is wrong, without the command."""
    def say(key: str, **params: Any) -> str:
        return t(lang, f"usage.{key}", **params)

    message = getattr(exc, "message", str(exc))
    if isinstance(exc, click_errors.NoSuchOption):
        if exc.possibilities:
            return say("did_you_mean", option=exc.option_name,
                       similar=", ".join(sorted(exc.possibilities)))
        return say("no_option", option=exc.option_name)
    if isinstance(exc, click_errors.BadOptionUsage):
        key = "no_value" if "does not take a value" in message else "needs_value"
        return say(key, option=exc.option_name)
    if isinstance(exc, click_errors.MissingParameter):
        param = param_key(exc.param) if exc.param is not None else ""
        kind = exc.param_type or getattr(exc.param, "param_type_name", "option")
        return say("missing_argument" if kind == "argument" else "missing_option", param=param)
    if isinstance(exc, click_errors.BadParameter):
        return _bad_value(exc, say, lang)
    ctx = getattr(exc, "ctx", None)
    names = ", ".join(getattr(getattr(ctx, "command", None), "commands", {}) or ())
    found = re.fullmatch(r"No such command '(.*)'\.", message)
    if found:
        return say("no_command", name=found.group(1), commands=names)
    if message == "Missing command.":
        return say("missing_command", commands=names)
    found = re.fullmatch(r"Got unexpected extra argument(?:\(s\)|s)? \((.*)\)", message)
    if found:
        return say("extra_args", args=found.group(1))
    return say("other") if lang == "ja" else f"{say('other')}: {message}"


def _bad_value(exc: Any, say: Any, lang: str) -> str:
    """A value the parameter's type refused: what the type wants, and the value typed."""
    param = param_key(exc.param) if exc.param is not None else "?"
    cause = exc.__cause__
    errors = cause.errors() if cause is not None and hasattr(cause, "errors") else []
    if errors:
        error = errors[0]
        value = repr(error.get("input"))
        key, limit = _VALUE_ERRORS.get(error.get("type", ""), ("bad_value", None))
        extra = error.get("ctx", {}) or {}
        if limit == "expected":
            return say(key, param=param, value=value, choices=str(extra.get("expected", "")))
        if limit:
            return say(key, param=param, value=value, limit=extra.get(limit))
        return say(key, param=param, value=value)
    if lang == "en" and getattr(exc, "message", ""):
        return f"{param}: {exc.message}"
    return say("bad_value", param=param, value="?")
