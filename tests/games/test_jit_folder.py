"""The compiled loops' disk cache is used only from a folder no one but the tracker's user
can write.

Numba's cache files are pickles, loaded and run as the tracker: a cache folder another local
user can write (or swap for a link, or rename from a folder above it) would let them run code
as the tracker. These tests set up such folders on a real disk where ``aids.games.jit`` looks
(``NUMBA_CACHE_DIR``, the sources' ``__pycache__``, ``XDG_CACHE_HOME``) and see which one it
uses; the cases with a folder of another user need root (``os.chown``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from aids.core.i18n import catalogue
from aids.games import jit
from aids.games.jit_folder import UnsafeFolder
from aids.paths import ROOT
from tests.games.test_jit_cache import LOOP, RUN  # the same loop over a helper

pytestmark = pytest.mark.skipif(not jit.AVAILABLE, reason="Numba is a dependency")
as_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="a folder of another user can be made only by root (os.chown)"
)
NOBODY = 65534
WARNED = "AIDS_JIT_CACHE_WARNED"  # set by the first process that warned, for its children


@dataclass(frozen=True)
class Places:
    """Where ``cache_dir`` looks, in its order, and the name of the sources' folder."""

    given: Path  # NUMBA_CACHE_DIR
    tree: Path  # the sources' __pycache__
    home: Path  # XDG_CACHE_HOME/aids
    name: str


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "aids.games.jit" and r.levelno >= 30]


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Places]:
    """Sources of their own in ``tmp_path`` and every place of the cache in it; the name of
    their cache folder learnt from a first ``cache_dir`` (then removed again)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "loop.py").write_text("K = 1\n")
    monkeypatch.setattr(jit, "SOURCES", (src,))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "given"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(WARNED, "")
    jit.cache_dir.cache_clear()
    first = jit.cache_dir()
    assert first is not None
    shutil.rmtree(tmp_path / "given")
    jit.cache_dir.cache_clear()
    yield Places(tmp_path / "given", src / "__pycache__", tmp_path / "xdg" / "aids", first.name)
    jit.cache_dir.cache_clear()


@as_root
def test_a_cache_folder_of_another_user_open_to_all_is_not_used(
    places: Places, caplog: pytest.LogCaptureFixture
) -> None:
    """The predictable name taken first by another user, 0777: the loops are cached in the
    next place instead (a folder made 0700 for us), with one warning naming the folder."""
    theirs = places.given / places.name
    theirs.mkdir(parents=True)
    theirs.chmod(0o777)
    os.chown(theirs, NOBODY, NOBODY)
    chosen = jit.cache_dir()
    assert chosen == places.tree.resolve() / places.name
    assert mode(chosen) == 0o700 and os.lstat(chosen).st_uid == os.geteuid()
    [warning] = warnings_of(caplog)
    assert str(theirs) in warning.getMessage() and str(chosen) in warning.getMessage()


@as_root
def test_a_folder_above_it_another_user_can_write_is_not_used_a_sticky_one_is(
    places: Places, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder above the cache that another user owns and anyone may write (they could
    rename ours and put theirs in its place) is passed over; one that is sticky and root's,
    as ``/tmp``, is used (there only an entry's owner may rename it)."""
    places.given.mkdir()
    places.given.chmod(0o777)
    os.chown(places.given, NOBODY, NOBODY)
    assert jit.cache_dir() == places.tree.resolve() / places.name
    assert not (places.given / places.name).exists() and len(warnings_of(caplog)) == 1
    places.given.rmdir()
    places.given.mkdir()
    places.given.chmod(0o1777)
    jit.cache_dir.cache_clear()
    assert jit.cache_dir() == places.given.resolve() / places.name


def test_a_cache_folder_of_ours_left_open_to_others_is_made_private_and_emptied(
    places: Places, caplog: pytest.LogCaptureFixture
) -> None:
    """Our own folder found 0777 (made by an older release under a loose umask): anyone
    may have written a file into it, so it is emptied, and made 0700, before it is used."""
    ours = places.given / places.name
    ours.mkdir(parents=True)
    ours.chmod(0o777)
    (ours / "planted.nbi").write_bytes(b"\x80\x04")
    assert jit.cache_dir() == ours.resolve()
    assert mode(ours) == 0o700 and list(ours.iterdir()) == []
    assert [p.name for p in places.given.iterdir()] == [places.name]  # the old one removed
    assert len(warnings_of(caplog)) == 1


def test_a_symbolic_link_in_place_of_the_cache_folder_is_not_followed(
    places: Places, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A link at the folder's name is not followed, even to a private folder of ours: the
    next place is used and the link's target is left alone."""
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    places.given.mkdir()
    (places.given / places.name).symlink_to(target)
    chosen = jit.cache_dir()
    assert chosen == places.tree.resolve() / places.name
    assert (places.given / places.name).is_symlink() and list(target.iterdir()) == []
    assert len(warnings_of(caplog)) == 1


def test_under_umask_002_the_folders_made_for_the_cache_are_0700(places: Places) -> None:
    """The folders made for the cache (the place and the cache folder in it) are 0700
    whatever the umask: under umask 002 a plain ``mkdir`` makes them 0775."""
    before = os.umask(0o002)
    try:
        chosen = jit.cache_dir()
    finally:
        os.umask(before)
    assert chosen == places.given.resolve() / places.name
    assert (mode(places.given), mode(chosen)) == (0o700, 0o700)


def test_a_place_of_ours_its_group_can_write_is_closed_to_their_writing(
    places: Places, caplog: pytest.LogCaptureFixture
) -> None:
    """The place the cache folder goes in, ours but 0775 (``__pycache__`` made by Python
    under umask 002): the group could rename our folder and put theirs in its place, so
    their write bit is taken away (it holds only caches) before it is used, with a warning."""
    places.given.mkdir(mode=0o775)
    places.given.chmod(0o775)
    assert jit.cache_dir() == places.given.resolve() / places.name
    assert mode(places.given) == 0o755 and len(warnings_of(caplog)) == 1


def test_with_no_safe_place_the_loops_are_compiled_in_memory_with_one_warning(
    places: Places, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every place refused (each a link): no disk cache at all, and one warning for them
    all, which a child process of this one (a chances worker) does not repeat."""
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    for place in (places.given, places.tree, places.home):
        place.mkdir(parents=True, exist_ok=True)
        (place / places.name).symlink_to(target)
    assert jit.cache_dir() is None
    jit.cache_dir.cache_clear()
    assert jit.cache_dir() is None  # asked again in this process (the cache cleared)
    [warning] = warnings_of(caplog)
    assert all(str(p / places.name) in warning.getMessage() for p in (places.given, places.home))
    assert os.environ.get(WARNED)


HELPER = """
from aids.games.jit import compiled


@compiled
def step() -> int:
    return 2
"""


def test_loops_compiled_in_memory_give_the_same_results_and_leave_no_file(
    tmp_path: Path,
) -> None:
    """The fallback computes: with every place refused, fresh processes compile the loops
    in memory and get the right result, and no cache file is written anywhere — not in the
    linked folder, nor where Numba would look by itself (the sources' ``__pycache__``)."""
    package = tmp_path / "src"
    (package / "loops").mkdir(parents=True)
    (package / "loops" / "__init__.py").write_text("")
    (package / "loops" / "helper.py").write_text(textwrap.dedent(HELPER))
    (package / "loops" / "main.py").write_text(textwrap.dedent(LOOP))
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    (tmp_path / "given").symlink_to(target)  # a link for NUMBA_CACHE_DIR itself is resolved:
    (tmp_path / "xdg").mkdir()  # so each place's cache folder is a link
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "given"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "PYTHONPATH": f"{package}:{ROOT}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.pop(WARNED, None)
    name = subprocess.run(
        [sys.executable, "-c", RUN, str(package / "loops")],
        env=env, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    folder = Path(json.loads(name.stdout.strip().splitlines()[-1])["dir"]).name
    shutil.rmtree(target)
    target.mkdir(mode=0o700)
    for place in (target, package / "loops" / "__pycache__", tmp_path / "xdg" / "aids"):
        shutil.rmtree(place / folder, ignore_errors=True)
        place.mkdir(parents=True, exist_ok=True)
        (place / folder).symlink_to(tmp_path / "nowhere")
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", RUN, str(package / "loops")],
            env=env, capture_output=True, text=True, timeout=300, check=True,
        )  # fmt: skip
        out = json.loads(done.stdout.strip().splitlines()[-1])
        assert (out["total"], out["hits"], out["dir"]) == (6, 0, "None")
        assert done.stderr.count("compiled in memory") == 1
    written = [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert written == [] and not (tmp_path / "nowhere").exists()


def test_numbas_own_fallback_cache_is_not_used_where_our_folder_takes_no_file(
    tmp_path: Path,
) -> None:
    """Where the chosen folder cannot take Numba's files (here a file stands where Numba
    makes its subfolder), Numba would cache in a folder of its own choosing, the module's
    ``__pycache__``, unchecked and blind to the helpers' changes: the loops are compiled in
    memory instead, and still right."""
    from numba.core.caching import UserProvidedCacheLocator

    package = tmp_path / "src"
    (package / "loops").mkdir(parents=True)
    (package / "loops" / "__init__.py").write_text("")
    (package / "loops" / "helper.py").write_text(textwrap.dedent(HELPER))
    (package / "loops" / "main.py").write_text(textwrap.dedent(LOOP))
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "given"),
        "PYTHONPATH": f"{package}:{ROOT}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.pop(WARNED, None)
    run = [sys.executable, "-c", RUN, str(package / "loops")]
    first = subprocess.run(run, env=env, capture_output=True, text=True, timeout=300, check=True)
    folder = Path(json.loads(first.stdout.strip().splitlines()[-1])["dir"])
    shutil.rmtree(folder)
    folder.mkdir(mode=0o700)
    sub = UserProvidedCacheLocator.get_suitable_cache_subpath(str(package / "loops" / "main.py"))
    (folder / sub).write_text("not a folder")
    for _ in range(2):
        done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=300)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        assert (out["total"], out["hits"], out["dir"]) == (6, 0, str(folder))
    assert [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")] == []


def test_every_reason_a_folder_is_refused_has_its_words_in_japanese_and_english() -> None:
    """Errors speak both languages: each ``UnsafeFolder`` code raised in
    ``aids/games/jit_folder.py`` is in both catalogues, naming the folder."""
    source = (ROOT / "aids" / "games" / "jit_folder.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'UnsafeFolder\(\s*"([^"]+)"', source))
    assert codes == {"cache/link", "cache/not_folder", "cache/owner", "cache/writable"}
    for code in codes:
        error = UnsafeFolder(code, folder="/x/jit-1", uid=65534, mode="777")
        for lang in ("ja", "en"):
            assert f"errors.{code}" in catalogue(lang)
            assert "/x/jit-1" in error.message(lang)
