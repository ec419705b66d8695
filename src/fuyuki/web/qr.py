"""The invite QR code, drawn on the server as SVG (segno: pure Python, no network)."""

from __future__ import annotations

import io
from functools import lru_cache


@lru_cache(maxsize=256)
def qr_svg(url: str) -> bytes:
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#000",
                                    light="#fff", xmldecl=False, svgclass="qr")
    return out.getvalue()
