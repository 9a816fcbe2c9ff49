"""Issue 18 §1: a download is made when it is clicked, with the reader's key checked then, so
a tab kept open after its link was replaced downloads nothing it may no longer see.

Streamlit builds a download's file when the page is drawn unless ``data`` is a callable
(then it is called on the click). This reads every page module's source and checks each
``st.download_button`` hands it a callable (a ``lambda``, a ``partial``, or the name of a
function the module defines: ``data=standings_pdf``); the one file made
by a click of its own (the seat sheets with new private links: made by the button that
issues them, offered once, never stored) is named here.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "aids" / "ui"
#: (module, button key) of the downloads whose file a checked click of its own made
MADE_BY_A_CLICK = {("sharing.py", "download_seat_sheet")}


def downloads() -> list[tuple[str, ast.Call, set[str]]]:
    """Every ``download_button`` call of the page modules, with the names of the functions
    its module defines (at any depth: the local ``def`` a button is handed)."""
    found = []
    for path in sorted(UI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        for node in ast.walk(tree):
            func = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(func, "attr", "") == "download_button":
                found.append((path.name, node, defined))
    return found


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def test_every_download_is_made_on_click() -> None:
    """Rule "every read is filtered" at the moment of reading: each download's ``data`` is
    a callable, so its file is made (and its key checked) when it is clicked."""
    found = downloads()
    assert len(found) >= 10, "the page modules' downloads were not found"
    eager = []
    for module, call, defined in found:
        data = keyword(call, "data")
        key = keyword(call, "key")
        name = key.value if isinstance(key, ast.Constant) else None
        lazy = (
            isinstance(data, ast.Lambda)
            or (isinstance(data, ast.Call) and getattr(data.func, "id", "") == "partial")
            or (isinstance(data, ast.Name) and data.id in defined)
        )
        if not lazy and (module, name) not in MADE_BY_A_CLICK:
            eager.append(f"{module}:{call.lineno} ({name})")
    assert eager == [], "downloads built when the page is drawn: " + ", ".join(eager)
