"""Print-and-play card sheets for Servant Big Battle, made from the same card data and rules
the engine plays: :func:`render` gives the HTML, :func:`write_sheets` writes it (and a PDF
through headless Chromium)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fuyuki.sbb.printing.deck import PrintDeck, print_deck
from fuyuki.sbb.printing.pdf import NoChromium, PdfFailed, find_chromium, html_to_pdf
from fuyuki.sbb.printing.sheets import Sheets, render
from fuyuki.sbb.rules import Rules

HTML_NAME = "cards.html"
PDF_NAME = "cards.pdf"

__all__ = ["HTML_NAME", "PDF_NAME", "PrintDeck", "print_deck", "Sheets", "render", "write_sheets", "Written",
           "find_chromium", "html_to_pdf", "NoChromium", "PdfFailed"]


@dataclass(frozen=True)
class Written:
    html: Path
    sheets: Sheets
    pdf: Path | None = None


def write_sheets(rules: Rules, out: str | Path, lang: str = "ja", backs: bool = True,
                 pdf: bool = False, chromium: str | None = None) -> Written:
    """Write ``cards.html`` (and with ``pdf`` ``cards.pdf``) into the folder ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    sheets = render(rules, lang, backs)
    html = folder / HTML_NAME
    html.write_text(sheets.html, encoding="utf-8")
    pdf_path = html_to_pdf(html, folder / PDF_NAME, chromium) if pdf else None
    return Written(html, sheets, pdf_path)
