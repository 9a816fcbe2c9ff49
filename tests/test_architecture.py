"""Layers flow one way, and only a game's own files name it.

core (errors, i18n, links) → games (pure engines) → tables (the service) → store interface
→ meets (events of many tables) → print and ui frames → each game's page and sheet module
→ registry, cli, streamlit_app.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aids.registry import BUILT_IN

ROOT = Path(__file__).resolve().parents[1]
AIDS = ROOT / "aids"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            # ``from aids.core import inputs`` imports aids.core.inputs
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def module_file(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".py")


def game_folders() -> set[Path]:
    """Each game's page folder and sheet folder: ``aids/ui/<kind>/`` and ``aids/print/<kind>/``,
    its page or sheet module and the modules they are split into."""
    return {AIDS / layer / entry.kind for entry in BUILT_IN for layer in ("ui", "print")}


def in_game_folder(path: Path) -> bool:
    return any(path.is_relative_to(folder) for folder in game_folders())


def game_files() -> set[Path]:
    """The files allowed to name a game: its engine folder, its page and sheet folders, the
    registry (the one place games are listed) and the benchmarks (which measure named games)."""
    files = {AIDS / "registry.py", *(AIDS / "bench").glob("*.py")}
    for entry in BUILT_IN:
        engine_package = type(entry.game).__module__.rsplit(".", 1)[0]  # aids.games.<folder>
        files |= set(module_file(engine_package + ".__init__").parent.rglob("*.py"))
        files |= {module_file(entry.page), module_file(entry.sheet)}
    for folder in game_folders():
        files |= set(folder.rglob("*.py"))
    return files


def test_games_do_not_import_streamlit_reportlab_or_storage() -> None:
    """An engine is pure: importing one pulls in no Streamlit, ReportLab, storage, page, sheet,
    table service or registry."""
    code = (
        "import sys\n"
        "import aids.games.base, aids.games.derby, aids.games.derby.simulate\n"
        "bad = [m for m in ('streamlit', 'reportlab', 'sqlite3', 'aids.store', 'aids.ui',"
        " 'aids.print', 'aids.tables', 'aids.registry') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


ALLOWED = {
    # layer: the aids modules (prefixes) its files may import
    "core": ("aids.core", "aids.paths"),
    "games": ("aids.games", "aids.core.errors", "aids.core.i18n", "aids.core.inputs", "aids.paths"),
    "store": ("aids.store", "aids.core.errors", "aids.paths"),
    "tables": (
        "aids.tables",
        "aids.core",
        "aids.games.base",
        "aids.games.chances",
        "aids.store.base",
    ),
    # events of many tables: above the table service, below the print and ui frames
    "meets": (
        "aids.meets",
        "aids.core",
        "aids.games.base",
        "aids.games.paper",
        "aids.games.series",
        "aids.store.base",
        "aids.tables",
    ),
}


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_from_below(layer: str) -> None:
    """Each layer imports only from itself and the layers below it (``ALLOWED``)."""
    for path in (AIDS / layer).rglob("*.py"):
        for module in imports_of(path):
            if module.startswith("aids"):
                assert module.startswith(ALLOWED[layer]), f"{path.relative_to(ROOT)}: {module}"


# what every game shares: the seam, the palette, the chances framework, the chart series
SHARED = (
    "aids.games.base", "aids.games.palette", "aids.games.chances", "aids.games.paper",
    "aids.games.series",
)  # fmt: skip


def test_frames_import_no_game_module() -> None:
    """The shared ui and print files (every file outside a game's folder, subfolders included)
    import no game's page or sheet folder and, of the engines, only what every game shares."""
    folders = tuple(f"aids.{layer}.{entry.kind}" for entry in BUILT_IN for layer in ("ui", "print"))
    shared = [
        path
        for path in [*(AIDS / "ui").rglob("*.py"), *(AIDS / "print").rglob("*.py")]
        if not in_game_folder(path) and path not in game_files()
    ]
    assert len(shared) > 15
    for path in shared:
        where = path.relative_to(ROOT)
        for module in imports_of(path):
            assert not any(module == f or module.startswith(f + ".") for f in folders), (
                f"{where} imports {module}"
            )
            assert not module.startswith("aids.games.") or module.startswith(SHARED), (
                f"{where} imports {module}"
            )


def test_no_game_module_left_at_the_top_of_ui_or_print() -> None:
    """A game's page and sheet modules live in its folder (``aids/ui/<kind>/``,
    ``aids/print/<kind>/``), never beside the frames named by a prefix (``<kind>_board.py``)."""
    left = [
        str(path.relative_to(ROOT))
        for entry in BUILT_IN
        for layer in ("ui", "print")
        for pattern in (f"{entry.kind}_*.py", f"{entry.kind}.py")
        for path in (AIDS / layer).glob(pattern)
    ]
    assert left == []


def test_registry_names_modules_in_their_game_folder() -> None:
    """The registry's page and sheet modules of a game are in that game's folders, each folder
    a package whose ``__init__`` is a docstring only (importing the page pulls in nothing more)."""
    for entry in BUILT_IN:
        assert entry.page.startswith(f"aids.ui.{entry.kind}."), entry.page
        assert entry.sheet.startswith(f"aids.print.{entry.kind}."), entry.sheet
        assert module_file(entry.page).is_file() and module_file(entry.sheet).is_file()
    for folder in game_folders():
        body = ast.parse((folder / "__init__.py").read_text(encoding="utf-8")).body
        assert len(body) == 1 and ast.get_docstring(ast.Module(body, [])), folder


def test_no_shared_file_names_a_game() -> None:
    """Adding a game never edits core, store, tables, the frames, the CLI or the app entry."""
    kinds = [entry.kind for entry in BUILT_IN] + ["sprint"]  # + the tests' fake game
    pattern = re.compile(r"\b(" + "|".join(kinds) + r")\b", re.IGNORECASE)
    shared = [p for p in AIDS.rglob("*.py") if p not in game_files()]
    shared.append(ROOT / "streamlit_app.py")
    assert len(shared) > 15
    offenders = {
        str(p.relative_to(ROOT)): pattern.findall(p.read_text(encoding="utf-8"))
        for p in shared
        if pattern.search(p.read_text(encoding="utf-8"))
    }
    assert offenders == {}


def _module_graph() -> dict[str, set[str]]:
    """Each aids module → the aids modules it imports anywhere in its file (a deferred import
    inside a function counts: it is still a dependency), its own package excepted."""
    modules = {}
    for path in AIDS.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path

    def resolve(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {resolve(m) for m in imports_of(path) if m.startswith("aids")}
        graph[name] = {m for m in targets if m and m != name and not name.startswith(m + ".")}
    return graph


def test_no_two_modules_import_each_other() -> None:
    """The import graph has no cycle, deferred imports included: a module that needs another's
    part and is needed by it shares that part from a third module instead."""
    graph = _module_graph()
    cycles = []
    for start in graph:
        seen, stack = {start}, [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(" → ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert cycles == []


def test_printing_never_imports_the_reader_or_the_pages() -> None:
    """Printing is below reading a slip back and below the pages: a result's proposal from a
    photo lives with the reader (``aids.scan.proposal``), not in the slips' printer."""
    for path in (AIDS / "print").rglob("*.py"):
        for module in imports_of(path):
            assert not module.startswith(("aids.scan", "aids.ui", "aids.live", "aids.cli")), (
                f"{path.relative_to(ROOT)}: {module}"
            )
