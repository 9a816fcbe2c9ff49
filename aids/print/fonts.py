"""The embedded Japanese TrueType font, registered once per process.

IPAexGothic (``ipaexg.ttf``) comes with the ``japanize-matplotlib`` dependency; ReportLab embeds
TrueType subsets, so the PDF reads the same on any machine. ``AIDS_JP_FONT`` may point at another
TrueType file; Debian's ``fonts-ipaexfont-gothic`` is used if present.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "IPAexGothic"
DEBIAN_FONT = Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf")


class FontMissing(RuntimeError):
    """No TrueType Japanese font was found; the message says how to get one."""


def font_path() -> Path:
    configured = os.environ.get("AIDS_JP_FONT")
    if configured:
        return Path(configured)
    spec = importlib.util.find_spec("japanize_matplotlib")  # located, not imported
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "fonts" / "ipaexg.ttf"
        if candidate.exists():
            return candidate
    if DEBIAN_FONT.exists():
        return DEBIAN_FONT
    raise FontMissing(
        "No Japanese TrueType font: run `pip install -e .` (brings japanize-matplotlib) "
        "or set AIDS_JP_FONT to a .ttf file."
    )


@cache
def register() -> str:
    """Register the font with ReportLab (once) and return its name."""
    pdfmetrics.registerFont(TTFont(FONT, str(font_path())))
    return FONT
