"""PDF through headless Chromium's print-to-PDF (the HTML's @page rule sets A4, no margins)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from fuyuki.core.errors import FuyukiError

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome",
              "google-chrome-stable")
ENV = "FUYUKI_CHROMIUM"


class NoChromium(FuyukiError):
    """No Chromium to print with."""


class PdfFailed(FuyukiError):
    """Chromium ran but wrote no PDF."""


def find_chromium() -> str | None:
    """The Chromium to use: ``$FUYUKI_CHROMIUM`` if set (and nothing else then), else the
    first of :data:`CANDIDATES` found."""
    env = os.environ.get(ENV)
    if env is not None:
        return env if (Path(env).is_file() and os.access(env, os.X_OK)) else None
    for c in CANDIDATES:
        found = shutil.which(c)
        if found:
            return found
    return None


def html_to_pdf(html: Path, pdf: Path, chromium: str | None = None, timeout: float = 180) -> Path:
    exe = chromium or find_chromium()
    if exe is None:
        raise NoChromium("chromium not found")
    pdf = Path(pdf).resolve()
    if pdf.exists():
        pdf.unlink()
    with tempfile.TemporaryDirectory(prefix="fuyuki-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={profile}", "--no-pdf-header-footer",
               f"--print-to-pdf={pdf}", Path(html).resolve().as_uri()]
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise PdfFailed(f"timed out after {timeout:.0f} s") from None
        except OSError as exc:
            raise PdfFailed(str(exc)) from None
    if not pdf.is_file() or pdf.stat().st_size == 0:
        tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-3:]
        raise PdfFailed(f"exit status {proc.returncode}; " + " / ".join(tail))
    return pdf
