"""A folder for the compiled loops' disk cache that only the tracker's user can write.

Numba's cache files are pickles, loaded and run as the tracker: a cache folder another local
user can write, or replace (a link in its place, a folder above it they can write), would let
them run code as the tracker. ``private_folder(root, name)`` makes or checks ``root / name``
and raises ``UnsafeFolder`` (the reason) for one that cannot be trusted:

- ``root`` is resolved (a link there is followed: ``/tmp`` may be one); then every folder
  from ``/`` down to it must be owned by this process's user (``os.geteuid()``) or root, and
  not writable by group or others unless sticky (as ``/tmp``: there only an entry's owner
  may rename it). A group-writable folder is refused even where the group is the user's own.
- ``root / name`` must be a real folder (a link in its place is not followed:
  ``O_NOFOLLOW``) owned by this user; it is made 0700 whatever the umask.
- Folders are made one at a time with ``os.mkdir(…, 0o700)`` (``mkdir(parents=True)``
  follows the umask: 0775 under umask 002), then checked through their own descriptor.

Modes change only on folders this user owns: the cache folder is set to 0700, and one that
others could write is replaced by a fresh one (anyone may have left a file in it: it is
moved aside, then removed); ``root`` loses the write bits of group and others (it holds
only caches). Nothing above ``root`` is changed.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from aids.core.errors import AidsError

PRIVATE = 0o700
OPEN = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


class UnsafeFolder(AidsError):
    """A folder another user could write or swap (``cache/link``, ``cache/not_folder``,
    ``cache/owner``, ``cache/writable``, naming it): ``aids.games.jit.cache_dir`` passes it
    over and logs why."""


def private_folder(root: Path, name: str, notes: list[str]) -> Path:
    """``root / name`` (``root`` resolved), made or checked as the module says; what was
    changed on the way is added to ``notes``.

    Raises ``UnsafeFolder`` where a folder fails the check, ``OSError`` where one cannot be
    made (a read-only checkout)."""
    base = Path(os.path.realpath(root))
    missing = [p for p in (base, *base.parents) if not os.path.lexists(p)]
    for above in reversed(base.parents):
        if above not in missing:
            _check_above(above)
    if base in missing:
        for folder in reversed(missing):
            _make(folder)
    else:
        _own_root(base, notes)
    return _cache_folder(base / name, notes)


def _check_above(folder: Path) -> None:
    """A folder above the cache: owned by us or root, writable by no one else unless sticky."""
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolder("cache/not_folder", folder=str(folder))
    if info.st_uid not in (os.geteuid(), 0):
        raise UnsafeFolder("cache/owner", folder=str(folder), uid=info.st_uid)
    if _open_to_others(info):
        raise UnsafeFolder("cache/writable", folder=str(folder), mode=_mode(info))


def _own_root(root: Path, notes: list[str]) -> None:
    """The cache's place as found: checked as a folder above, but one of ours writable by
    others is closed to their writing first (it holds only caches)."""
    with _opened(root) as fd:
        info = os.fstat(fd)
        if info.st_uid == os.geteuid() and _open_to_others(info):
            os.fchmod(fd, stat.S_IMODE(info.st_mode) & ~0o022)
            notes.append(f"{root} was writable by others ({_mode(info)}): no longer.")
    _check_above(root)


def _make(folder: Path) -> None:
    """Make ``folder`` 0700 (one made meanwhile by someone else is checked as found)."""
    try:
        os.mkdir(folder, PRIVATE)
    except FileExistsError:
        _check_above(folder)
        return
    with _opened(folder) as fd:
        _private(folder, fd)


def _cache_folder(folder: Path, notes: list[str]) -> Path:
    """The cache folder itself: ours, no link, 0700; a new one if others could write it."""
    with suppress(FileExistsError):
        os.mkdir(folder, PRIVATE)
    with _opened(folder) as fd:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise UnsafeFolder("cache/owner", folder=str(folder), uid=info.st_uid)
        if not info.st_mode & 0o022:
            _private(folder, fd)
            return folder
    # Anyone may have written into it: nothing in it is surely ours. Moved aside before it
    # is removed, so that a file that cannot be removed is never under the name we use
    # (the leftover is removed with the older fingerprints' folders, ``jit._remove_older``).
    os.rename(folder, folder.with_name(f"{folder.name}-open-{secrets.token_hex(4)}"))
    notes.append(f"{folder} was writable by others ({_mode(info)}): replaced by a new one.")
    os.mkdir(folder, PRIVATE)
    with _opened(folder) as fd:
        _private(folder, fd)
    return folder


def _private(folder: Path, fd: int) -> None:
    """Make the folder open at ``fd`` (ours) 0700, and see that it took: a disk that keeps
    no modes (FAT) shows every folder writable by all, and cannot hold the cache."""
    if os.fstat(fd).st_uid != os.geteuid():
        raise UnsafeFolder("cache/owner", folder=str(folder), uid=os.fstat(fd).st_uid)
    os.fchmod(fd, PRIVATE)
    info = os.fstat(fd)
    if info.st_mode & 0o022:
        raise UnsafeFolder("cache/writable", folder=str(folder), mode=_mode(info))


@contextmanager
def _opened(folder: Path) -> Iterator[int]:
    """A folder's descriptor, never through a link at its name (``UnsafeFolder`` then)."""
    try:
        fd = os.open(folder, OPEN)
    except OSError:
        if os.path.islink(folder):
            raise UnsafeFolder("cache/link", folder=str(folder)) from None
        if os.path.lexists(folder) and not os.path.isdir(folder):
            raise UnsafeFolder("cache/not_folder", folder=str(folder)) from None
        raise
    try:
        yield fd
    finally:
        os.close(fd)


def _mode(info: os.stat_result) -> str:
    return f"{stat.S_IMODE(info.st_mode):o}"


def _open_to_others(info: os.stat_result) -> bool:
    """Writable by group or others, and not sticky (in a sticky folder, as ``/tmp``, only
    an entry's owner may rename or remove it)."""
    return bool(info.st_mode & 0o022) and not info.st_mode & stat.S_ISVTX
