"""What the ``aids`` commands share: the sheet languages asked, the base URL printed into
links (the running tracker's port, or a warning that it is a guess), the output folder, and
writing a file (a private one 0600) or a JSON export, every failure a refusal naming the
path."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path

from aids.core import inputs
from aids.core.errors import AidsError, InvalidAction, OsReason, Size
from aids.core.i18n import LANGS, t
from aids.core.links import configured_base_url, public_base_url
from aids.paths import OUTPUT, tracker_file


def sheet_langs(args: argparse.Namespace) -> list[str]:
    langs = list(LANGS) if args.sheet_lang == "both" else [args.sheet_lang]
    if getattr(args, "duplex", False) and len(langs) < 2:
        raise InvalidAction("output/duplex")
    return langs


def tracker_port() -> tuple[int, str | None] | None:
    """The port and listen address of the tracker running on this data folder, if one is
    (the file is checked like any other input: a damaged one is ignored, never a crash)."""
    try:
        info = inputs.json_document(tracker_file().read_bytes(), max_bytes=1024)
        pid = inputs.whole_number(info.get("pid"), "tracker.json pid", low=1, high=2**22)
        port = inputs.whole_number(info.get("port"), "tracker.json port", low=1, high=65535)
        raw = info.get("address")
        address = None if raw is None else inputs.listen_address(raw, "tracker.json address")
        os.kill(pid, 0)
    except (OSError, AidsError, AttributeError):
        return None
    return port, address


def base_url_for(override: str | None, lang: str) -> str:
    """The base URL printed into links and QR codes, by the page's rule; warn on a guess."""
    if configured_base_url(override):
        return public_base_url(override)
    running = tracker_port()
    port, address = running if running else (None, None)
    base = public_base_url(port=port, address=address)
    if running is None:
        print(t("table.base_url_guess", lang, url=base), file=sys.stderr)
    return base


def output_folder(args: argparse.Namespace) -> Path:
    out_dir: Path = args.out or OUTPUT
    try:  # a name too long for the file system fails even to look at
        if out_dir.exists() and not out_dir.is_dir():
            raise InvalidAction("output/folder", path=str(out_dir))
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidAction("output/file", path=str(out_dir), detail=os_reason(exc)) from None
    return out_dir


def check_writable(paths: list[Path]) -> None:
    """Each file can be written, found out before anything is stored: an existing file is
    opened without truncating it, a new one is made and removed again."""
    for path in paths:
        try:
            _own_link(path)  # a link another user put there is refused before any write
            existed = path.exists()
            with open(path, "ab"):
                pass
            if not existed:
                path.unlink()
        except OSError as exc:
            raise InvalidAction("output/file", path=str(path), detail=os_reason(exc)) from None


def os_reason(exc: OSError) -> OsReason:
    return OsReason.of(exc)


def write_output(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path``. A ``private`` file holds what only the host may read (a
    complete backup: key hashes, sealed choices, seeds; a sheet with live seat links): a
    regular file this user creates or owns is made readable by this user alone (0600, as the
    data file is) before a byte is in it. A device or a pipe (``/dev/null``, ``/dev/stdout``)
    is written as it is, its mode untouched (it is the machine's, not ours); a regular file
    of another user is refused (``output/not_yours``) before anything is changed in it.

    A symbolic link at ``path`` is followed only when it is this user's own: one another
    user put there (in a shared folder such as ``/tmp``, where an output's name can be
    guessed) is refused (``output/link``), whatever the machine's ``protected_symlinks``;
    where there is no link, none may appear before the file is opened (``O_NOFOLLOW``)."""
    try:
        flags = os.O_CREAT | os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC
        flags |= 0 if _own_link(path) else os.O_NOFOLLOW
        fd = os.open(path, flags, 0o600 if private else 0o666)
        with os.fdopen(fd, "wb") as out:
            found = os.fstat(fd)
            if stat.S_ISREG(found.st_mode):
                if private and found.st_uid != os.geteuid():
                    raise InvalidAction("output/not_yours", path=str(path))
                if private:
                    os.fchmod(fd, 0o600)  # a file that was there keeps no wider mode
                os.ftruncate(fd, 0)  # only now: a refused file keeps what it held
            os.set_blocking(fd, True)
            out.write(data)
    except OSError as exc:
        raise InvalidAction("output/file", path=str(path), detail=os_reason(exc)) from None


def _own_link(path: Path) -> bool:
    """Whether ``path`` is a symbolic link of this user's (to be followed); a link of
    another user's is refused (``output/link``); False where there is no link."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISLNK(found.st_mode):
        return False
    if found.st_uid != os.geteuid():
        raise InvalidAction("output/link", path=str(path))
    return True


def emit_json(document: object, output: Path | None) -> int:
    """An export: to ``output`` (its path is printed), or to standard output (all ASCII,
    with \\u escapes, where that is not UTF-8: the JSON stays valid, never mangled)."""
    if output:
        text = json.dumps(document, ensure_ascii=False, indent=2)
        write_output(output, (text + "\n").encode("utf-8"), private=True)
        print(output)
    else:
        encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
        print(json.dumps(document, ensure_ascii=encoding != "utf8", indent=2))
    return 0


def read_input(path: Path, field: str, max_bytes: int) -> bytes:
    """A file's bytes, or standard input's for ``-``, at most ``max_bytes``."""
    if str(path) != "-":
        return inputs.read_file(path, field, max_bytes=max_bytes)
    raw = sys.stdin.buffer.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise InvalidAction("input/too_big", field=field, max=Size(max_bytes))
    return raw
