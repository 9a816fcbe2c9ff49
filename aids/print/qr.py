"""QR codes drawn as vector squares: crisp at any print size, no raster images."""

from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from reportlab.lib.colors import black, white
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks


@lru_cache(maxsize=256)  # a table's sheet is printed again and again with the same link
def matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix of ``data`` (error correction M), quiet zone included."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=QUIET_ZONE)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float) -> None:
    """Draw the code with its lower-left corner at (x, y), ``size`` points wide."""
    rows = matrix(data)
    n = len(rows)
    cell = size / n
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(black)
    path = canvas.beginPath()
    for r, row in enumerate(rows):
        c = 0
        while c < n:  # one rectangle per horizontal run of dark modules
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                path.rect(x + start * cell, y + size - (r + 1) * cell, (c - start) * cell, cell)
            else:
                c += 1
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
