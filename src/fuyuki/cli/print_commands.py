"""``fuyuki print``: print-and-play card sheets (HTML, and a PDF through headless Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from fuyuki.core.errors import FuyukiError


def _t(lang: str, key: str, **params: object) -> str:
    from fuyuki.sbb.printing.sheets import t

    return t(lang, key, **params)


def print_cards(
    out: Path = typer.Option(..., "--out", help="folder to write cards.html (and cards.pdf) into"),
    edition: str = typer.Option("final", "--edition", help="v1.0, v1.1 or final"),
    mode: Optional[str] = typer.Option(None, "--mode", help="fate, ubw, hf, hollow, big_battle"),
    option: Optional[List[str]] = typer.Option(None, "--option",
                                               help="tie_dice, land_modifiers, no_berserker_penalty (repeatable)"),
    cards: Optional[Path] = typer.Option(None, "--cards", help="your own card file (TOML)"),
    lang: str = typer.Option("ja", "--lang", help="ja (default) or en: card text language"),
    pdf: bool = typer.Option(False, "--pdf", help="also write cards.pdf with headless Chromium"),
    backs: bool = typer.Option(True, "--backs/--no-backs",
                               help="add a page of card backs after each page of fronts"),
) -> None:
    """Print-and-play sheets: poker-size cards, nine to an A4 page with cut marks, backs for
    double-sided printing, and a page of gem tokens."""
    err = Console(stderr=True, soft_wrap=True)
    console = Console(soft_wrap=True)
    if lang not in ("ja", "en"):
        err.print(_t("en", "cli.bad_lang", value=lang))
        raise typer.Exit(2)
    from fuyuki.cli.files import fail
    from fuyuki.core.load import check_output_dir
    from fuyuki.sbb.printing import NoChromium, PdfFailed, write_sheets
    from fuyuki.sbb.rules import load_rules

    try:
        check_output_dir(out, "--out")
        rules = load_rules(edition, mode, tuple(option or ()), str(cards) if cards else None)
    except ImportError as exc:
        if (exc.name or "").startswith("fuyuki.sbb.modes"):
            err.print(_t(lang, "cli.no_modes", mode=mode))
            raise typer.Exit(2) from None
        raise
    except FuyukiError as exc:
        fail(exc, lang)
    try:
        written = write_sheets(rules, out, lang, backs=backs, pdf=False)
    except OSError as exc:
        err.print(_t(lang, "cli.error", message=exc), markup=False)
        raise typer.Exit(2) from None
    console.print(_t(lang, "cli.wrote", path=written.html, cards=written.sheets.cards,
                     pages=written.sheets.pages), markup=False, highlight=False)
    if not pdf:
        return
    from fuyuki.sbb.printing import PDF_NAME, html_to_pdf

    try:
        path = html_to_pdf(written.html, Path(out) / PDF_NAME)
    except NoChromium:
        err.print(_t(lang, "cli.no_chromium"), markup=False)
        raise typer.Exit(1) from None
    except PdfFailed as exc:
        err.print(_t(lang, "cli.pdf_failed", reason=exc), markup=False)
        raise typer.Exit(1) from None
    console.print(_t(lang, "cli.wrote_pdf", path=path), markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("print")(print_cards)
