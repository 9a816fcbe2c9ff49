"""The compiled loops' disk cache follows the code it was compiled from.

Numba's own cache checks only the file of the function it caches, so a loop calling a helper
from another module would keep the helper's old machine code after an update, and the chances
would go on from code that is no longer the project's. ``aids.games.jit`` keeps the cache in a
folder named by a fingerprint of the sources (``cache_dir``); these tests change a helper in
another module and see the new code run, in fresh processes on a real disk cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aids.games import jit
from aids.paths import ROOT

pytestmark = pytest.mark.skipif(not jit.AVAILABLE, reason="Numba is a dependency")

HELPER = """
from aids.games.jit import compiled

STEP = {step}


@compiled
def step() -> int:
    return STEP
"""

LOOP = """
from aids.games.jit import compiled
from loops.helper import step


@compiled
def total(n: int) -> int:
    out = 0
    for _ in range(n):
        out += step()
    return out
"""

RUN = """
import json, sys
from pathlib import Path
import aids.games.jit as jit
jit.SOURCES = (Path(sys.argv[1]),)
jit.cache_dir.cache_clear()
from loops.main import total
print(json.dumps({"total": total(3), "hits": sum(total.stats.cache_hits.values()),
                  "dir": str(jit.cache_dir())}))
"""


def run(package: Path, cache: Path) -> dict[str, object]:
    """The loop run in a fresh process, its sources under ``package``, its cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": f"{package}:{ROOT}"}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(package / "loops")],
        env=env, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_helper_changed_in_another_module_is_compiled_afresh(tmp_path: Path) -> None:
    """A loop's cached machine code is used while its sources are unchanged, and compiled
    again once a helper it calls from another module changes (Numba alone would keep
    running the old helper: 3 × 1, not 3 × 2); the old fingerprint's folder is removed."""
    package, cache = tmp_path / "src", tmp_path / "cache"
    (package / "loops").mkdir(parents=True)
    (package / "loops" / "__init__.py").write_text("")
    (package / "loops" / "helper.py").write_text(textwrap.dedent(HELPER.format(step=1)))
    (package / "loops" / "main.py").write_text(textwrap.dedent(LOOP))
    first = run(package, cache)
    again = run(package, cache)
    assert (first["total"], first["hits"]) == (3, 0)  # compiled, and kept on disk
    assert (again["total"], again["hits"]) == (3, 1) and again["dir"] == first["dir"]
    (package / "loops" / "helper.py").write_text(textwrap.dedent(HELPER.format(step=2)))
    changed = run(package, cache)
    assert changed["total"] == 6 and changed["hits"] == 0
    assert changed["dir"] != first["dir"] and not Path(str(first["dir"])).exists()


def test_the_fingerprint_covers_every_source_and_data_file_but_caches(tmp_path: Path) -> None:
    """What the loops are compiled from: any file's bytes or name under the sources, and a
    new file, change the fingerprint; a cache folder's contents do not."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "fast.py").write_text("K = 1\n")
    (tmp_path / "data.toml").write_text("km = 20\n")
    base = jit.fingerprint([tmp_path])
    (tmp_path / "a" / "__pycache__").mkdir()
    (tmp_path / "a" / "__pycache__" / "fast.nbi").write_bytes(b"\0")
    assert jit.fingerprint([tmp_path]) == base
    (tmp_path / "data.toml").write_text("km = 25\n")
    assert jit.fingerprint([tmp_path]) != base
    (tmp_path / "data.toml").write_text("km = 20\n")
    assert jit.fingerprint([tmp_path]) == base
    (tmp_path / "a" / "fast_map.py").write_text("")
    assert jit.fingerprint([tmp_path]) != base


def test_the_projects_loops_are_cached_under_the_fingerprint_of_its_games_and_data() -> None:
    """The project's own loops: the modules of ``aids.games`` and the games' data in
    ``seeds/`` make the fingerprint, and the cache folder is named by it."""
    assert set(jit.SOURCES) == {ROOT / "aids" / "games", ROOT / "seeds"}
    assert jit.cache_dir().name.endswith("-" + jit.fingerprint(jit.SOURCES))
    assert jit.cache_dir().name.startswith(jit.PREFIX)
