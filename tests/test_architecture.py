"""Imports flow one way: ui, print, cli → core → games; engines import nothing of the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_games_do_not_import_streamlit_reportlab_or_storage() -> None:
    code = (
        "import sys\n"
        "import aids.games.registry, aids.games.derby.engine, aids.games.derby.simulate\n"
        "bad = [m for m in ('streamlit', 'reportlab', 'sqlite3', 'aids.store', 'aids.ui',"
        " 'aids.print') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_games_import_only_errors_i18n_and_paths_from_the_app() -> None:
    allowed = {"aids.core.errors", "aids.core.i18n", "aids.paths"}
    for path in (ROOT / "aids" / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aids"):
                assert node.module.startswith("aids.games") or node.module in allowed, (
                    f"{path.name} imports {node.module}"
                )


def test_core_does_not_import_ui_or_print() -> None:
    for path in (ROOT / "aids" / "core").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "aids.ui" not in source and "aids.print" not in source, path.name
        assert "import streamlit" not in source and "reportlab" not in source, path.name
