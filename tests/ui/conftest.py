"""The tracker pages under Streamlit's AppTest, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def new_app(**params: str) -> AppTest:
    """A fresh session of the app (as a new browser tab) with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def lazy_boxes(at: AppTest) -> set[str]:
    """The keys of the boxes the page draws only while open (``lazy_expander``, a popover
    with ``on_change="rerun"``): the stateful expanders and popovers of its element tree,
    whose id ends with their key (``$$ID-<hash>-<key>``)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if getattr(node, "type", "") in ("expandable", "expander", "popover"):
            ident = getattr(node.proto, "id", "")
            if ident.startswith("$$ID-"):
                found.add(ident.split("-", 2)[2])
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def open_sections(at: AppTest) -> AppTest:
    """The page again with every box it draws only while open opened (``lazy_boxes``: the
    players' QR, share and print, the keys, a game's long grids and tables), as a reader
    who opens each one: what the page can show."""
    opened: set[str] = set()
    while closed := lazy_boxes(at) - opened:
        for key in closed:
            at.session_state[key] = True
        opened |= closed
        at = at.run()
    return at


def page_html(at: AppTest) -> str:
    """Everything the page drew as HTML (boards, tables, the map)."""
    return "\n".join(h.proto.body for h in at.html)


def ok(at: AppTest) -> AppTest:
    """The run raised nothing and showed no error."""
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at
