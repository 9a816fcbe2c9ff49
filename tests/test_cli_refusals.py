"""The ``aids`` command checks every input before its first write, and never shows a traceback.

Each command runs as a real subprocess on a real SQLite file; a refused command exits 2 with
``code: message`` and the file's content (every row, as SQL text) is what it was before.
Commands used to store first and check the base URL after: ``aids key rotate --base-url
ftp://x`` stopped the referee's link and never showed the new one.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aids.games.base import REFEREE, Role
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService

ROOT = Path(__file__).resolve().parents[1]
GOOD_URL = "http://tracker.test:8501"
UNDECODABLE = os.fsencode("\udcff") * 24  # argv bytes that are no UTF-8


def run(*args: str | bytes, db: Path, stdin: str | None = None,
        **env: str | None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``aids`` in a subprocess; ``env`` overrides the environment (None removes a name)."""
    environ = dict(os.environ, AIDS_DB=str(db), AIDS_PUBLIC_URL=GOOD_URL, AIDS_LANG="en")
    environ.pop("AIDS_KEY", None)
    environ.pop("AIDS_GAME_PLUGINS", None)
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return subprocess.run(
        [sys.executable, "-m", "aids.cli", *args],
        capture_output=True, text=True, env=environ, input=stdin, cwd=ROOT, check=False,
    )  # fmt: skip


def dump(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


class Night:
    """A data file with a Derby (one bet in), a Grand National with seat keys and an event."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.db = tmp / "night.sqlite3"
        service = TableService(SqliteStore(self.db), engines())
        info, self.key = service.create(
            "derby", "Derby", DerbySetup.default(["Aki", "Ben"]).to_dict()
        )
        self.pid = info.public_id
        service.record(self.pid, self.key, 0, {"type": "bet", "player": 0, "horse": 1})
        gn = service.game("gn")
        gn_setup = gn.setup_to_dict(gn.default_setup(["Aki", "Ben"], "en"))
        gn_info, gn_key = service.create("gn", "Aintree", gn_setup)
        self.gn = gn_info.public_id
        service.rotate_key(self.gn, gn_key, Role.seat_of(0))
        meets = MeetService(service)
        meet, _ = meets.create("Friday", "2026-11-27")
        self.meet = meet.public_id
        self.table_file = tmp / "table.json"
        self.table_file.write_text(json.dumps(service.export(self.pid)), encoding="utf-8")
        self.meet_file = tmp / "meet.json"
        self.meet_file.write_text(json.dumps(meets.export(self.meet)), encoding="utf-8")
        self.service = service

    def close(self) -> None:
        self.service.store.close()


@pytest.fixture
def night(tmp_path: Path) -> Night:
    made = Night(tmp_path)
    made.close()
    return made


def refuses(night: Night | Path, code: str, *args: str, stdin: str | None = None,
            **env: str | None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Exit 2 with ``code``, no traceback, and the data file (a night's, or this one) as it was."""
    db = night if isinstance(night, Path) else night.db
    before = dump(db)
    result = run(*args, db=db, stdin=stdin, **env)
    assert result.returncode == 2, (args, result.stdout, result.stderr)
    assert result.stderr.startswith(f"{code}:") or f"\n{code}:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert dump(db) == before, f"{args} changed the data file"
    return result


# --- every command that writes checks its inputs first -------------------------------------


def test_new_with_a_bad_base_url_stores_no_table(night: Night) -> None:
    new = ("new", "derby", "--title", "T", "--player", "A", "--player", "B")
    refuses(night, "input/url", *new, "--base-url", "ftp://x")
    refuses(night, "input/url", *new, AIDS_PUBLIC_URL="ftp://x")


def test_key_rotate_with_a_bad_base_url_keeps_the_working_referee_link(night: Night) -> None:
    refuses(night, "input/url", "key", "rotate", night.pid, "--base-url", "ftp://x")
    refuses(night, "input/url", "key", "rotate", night.pid, AIDS_PUBLIC_URL="ftp://x")
    refuses(night, "input/url", "key", "rotate", night.gn, "--role", "seat:0",
            "--base-url", "http://h/?q=1")  # fmt: skip
    service = TableService(SqliteStore(night.db), engines())
    assert service.role_for(night.pid, night.key) == REFEREE


def test_key_revoke_and_list_check_a_base_url_given_to_them(night: Night) -> None:
    refuses(night, "input/url", "key", "revoke", night.gn, "--role", "seat:0",
            "--base-url", "ftp://x")  # fmt: skip
    refuses(night, "input/url", "key", "list", night.gn, "--base-url", "ftp://x")


def test_imports_under_a_bad_public_url_store_nothing(night: Night, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    TableService(SqliteStore(other), engines()).store.close()
    refuses(other, "input/url", "import", str(night.table_file), AIDS_PUBLIC_URL="ftp://x")
    refuses(other, "input/url", "meet", "import", str(night.meet_file), AIDS_PUBLIC_URL="x")


def test_meet_new_and_meet_key_with_a_bad_base_url_change_nothing(night: Night) -> None:
    refuses(night, "input/url", "meet", "new", "--title", "X", "--date", "2026-11-28",
            "--base-url", "ftp://x")  # fmt: skip
    refuses(night, "input/url", "meet", "key", night.meet, "--base-url", "ftp://x")
    refuses(night, "input/url", "meet", "key", night.meet, AIDS_PUBLIC_URL="javascript:x")


def test_meet_add_remove_set_refusals_change_nothing(night: Night) -> None:
    refuses(night, "table/not_found", "meet", "add", night.meet, "B" * 24)
    refuses(night, "meet/not_in", "meet", "remove", night.meet, night.pid)
    refuses(night, "meet/date", "meet", "set", night.meet, "--date", "2026-02-30")
    refuses(night, "meet/points_order", "meet", "set", night.meet, "--points", "1,5")
    # points with the score rule were dropped without a word
    refuses(night, "meet/points_with_score", "meet", "set", night.meet, "--rule", "score",
            "--points", "10,6")  # fmt: skip
    refuses(night, "meet/points_with_score", "meet", "new", "--title", "X", "--date",
            "2026-11-28", "--rule", "score", "--points", "10,6")  # fmt: skip


def test_print_seat_links_that_cannot_be_written_stops_no_link(night: Night) -> None:
    out = night.tmp / "out"
    (out / f"gn-sheet-{night.gn[:8]}-private-en-a4.pdf").mkdir(parents=True)  # not a file
    refuses(night, "output/file", "print", "gn", "--table", night.gn, "--seat-links",
            "--sheet-lang", "en", "--out", str(out))  # fmt: skip
    refuses(night, "input/url", "print", "gn", "--table", night.gn, "--seat-links",
            "--out", str(out), "--base-url", "ftp://x")  # fmt: skip


def test_record_parses_every_line_before_recording_any(night: Night) -> None:
    typo = {"type": "play", "player": 1, "horse": 2, "card": "green:2", "discard_cont": 3}
    lines = [json.dumps({"type": "play", "player": 0, "horse": 1, "card": "blue:2"}),
             json.dumps(typo)]  # fmt: skip
    result = refuses(night, "input/unknown_field", "record", night.pid, "-", "--key", night.key,
                     stdin="\n".join(lines))  # fmt: skip
    assert "Line 2" in result.stderr and "discard_cont" in result.stderr
    refuses(night, "input/json", "record", night.pid, "-", "--key", night.key,
            stdin=lines[0] + "\n{broken")  # fmt: skip


def test_serve_with_bad_settings_makes_no_data_file(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh" / "aids.sqlite3"
    fresh.parent.mkdir()
    for args, env, code in [
        ((), {"AIDS_PUBLIC_URL": "ftp://x"}, "input/url"),
        (("--address", "0.0.0.0; rm -rf /"), {}, "input/address"),
        (("--address", "ｌｏｃａｌｈｏｓｔ"), {}, "input/address"),
        (("--port", "0"), {}, "input/number"),
    ]:
        result = run("serve", *args, db=fresh, **env)
        assert result.returncode == 2 and code in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
        assert not any(fresh.parent.iterdir()), args  # no data file, no tracker file


# --- the key kept out of the process list ---------------------------------------------------


def test_record_reads_the_key_from_aids_key_a_key_file_or_standard_input(night: Night) -> None:
    plays = [
        {"type": "play", "player": 0, "horse": 1, "card": "blue:2"},
        {"type": "play", "player": 1, "horse": 2, "card": "green:2"},
        {"type": "play", "player": 0, "horse": 3, "card": "yellow:2"},
    ]
    script = night.tmp / "plays.jsonl"
    script.write_text(json.dumps(plays[0]), encoding="utf-8")
    env_run = run("record", night.pid, str(script), db=night.db, AIDS_KEY=night.key)
    assert env_run.returncode == 0, env_run.stderr
    key_file = night.tmp / "referee.key"
    key_file.write_text(night.key + "\n", encoding="utf-8")
    file_run = run("record", night.pid, "-", "--key-file", str(key_file), db=night.db,
                   stdin=json.dumps(plays[1]))  # fmt: skip
    assert file_run.returncode == 0, file_run.stderr
    script.write_text(json.dumps(plays[2]), encoding="utf-8")
    stdin_run = run("record", night.pid, str(script), "--key-file", "-", db=night.db,
                    stdin=night.key + "\n")  # fmt: skip
    assert stdin_run.returncode == 0, stdin_run.stderr
    service = TableService(SqliteStore(night.db), engines())
    assert [e.action.to_dict() for e in service.snapshot(night.pid).log][1:] == plays


def test_record_refuses_a_missing_doubled_or_empty_key(night: Night) -> None:
    line = json.dumps({"type": "play", "player": 0, "horse": 1, "card": "blue:2"})
    result = refuses(night, "input/no_key", "record", night.pid, "-", stdin=line)
    assert "AIDS_KEY" in result.stderr and "--key-file" in result.stderr
    key_file = night.tmp / "k"
    key_file.write_text(night.key)
    refuses(night, "input/key_source", "record", night.pid, "-", "--key", night.key,
            "--key-file", str(key_file), stdin=line)  # fmt: skip
    refuses(night, "input/key_stdin", "record", night.pid, "-", "--key-file", "-", stdin=line)
    key_file.write_text("\n")
    refuses(night, "input/empty", "record", night.pid, "-", "--key-file", str(key_file),
            stdin=line)  # fmt: skip
    refuses(night, "input/file", "record", night.pid, "-", "--key-file",
            str(night.tmp / "none.key"), stdin=line)  # fmt: skip
    refuses(night, "input/not_file", "record", night.pid, "-", "--key-file", "/dev/zero",
            stdin=line)  # fmt: skip
    big = night.tmp / "big.key"
    big.write_bytes(b"k" * 100_000)
    refuses(night, "input/too_big", "record", night.pid, "-", "--key-file", str(big),
            stdin=line)  # fmt: skip
    refuses(night, "table/forbidden", "record", night.pid, "-", stdin=line, AIDS_KEY="guess")


def test_record_help_names_the_ways_to_give_a_key(tmp_path: Path) -> None:
    text = " ".join(run("record", "--help", db=tmp_path / "a.sqlite3").stdout.split())
    assert "AIDS_KEY" in text and "--key-file" in text
    assert "other users of this machine" in text


# --- no traceback ---------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["list", "revoke", "rotate"])
def test_key_with_an_undecodable_table_id_is_no_table(night: Night, action: str) -> None:
    result = run("key", action, UNDECODABLE, "--role", "seat:0", db=night.db)  # type: ignore[arg-type]
    assert result.returncode == 2 and result.stderr.startswith("table/not_found:")
    assert "Traceback" not in result.stderr


def test_a_path_too_long_for_the_file_system_is_refused(night: Night) -> None:
    long = str(night.tmp / ("x" * 300))
    refuses(night, "output/file", "print", "derby", "--out", long)
    refuses(night, "output/file", "export", night.pid, "-o", long)
    refuses(night, "output/file", "meet", "sheet", night.meet, "--out", str(Path(long) / "y"))
    refuses(night, "input/file", "import", long)


def test_a_terminal_that_cannot_show_a_path_or_a_name_gets_it_escaped(night: Night) -> None:
    out = night.tmp / "出力"
    printed = run("print", "derby", "--sheet-lang", "en", "--out", str(out), db=night.db,
                  PYTHONIOENCODING="ascii", LANG="C", LC_ALL="C")  # fmt: skip
    assert printed.returncode == 0, printed.stderr
    assert "\\u51fa\\u529b" in printed.stdout and list(out.iterdir())
    shown = run("--lang", "ja", "meet", "show", night.meet, db=night.db,
                PYTHONIOENCODING="ascii")  # fmt: skip
    assert shown.returncode == 0 and "Traceback" not in shown.stderr
    exported = run("export", night.pid, db=night.db, PYTHONIOENCODING="ascii")
    assert exported.returncode == 0
    assert json.loads(exported.stdout)["table"]["title"] == "Derby"
    missing = run("--lang", "ja", "import", str(out / "なし.json"), db=night.db,
                  PYTHONIOENCODING="ascii")  # fmt: skip
    assert missing.returncode == 2 and missing.stderr.startswith("input/file:")
    assert "Traceback" not in missing.stderr


def test_an_export_to_an_ascii_terminal_is_valid_json_of_the_same_text(night: Night) -> None:
    service = TableService(SqliteStore(night.db), engines())
    info, _ = service.create("derby", "夜のダービー é 😀",
                             DerbySetup.default(["明", "Ben"]).to_dict())  # fmt: skip
    service.store.close()
    exported = run("export", info.public_id, db=night.db, PYTHONIOENCODING="ascii")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["table"]["title"] == "夜のダービー é 😀"


def test_a_reader_that_goes_away_gets_no_traceback(night: Night) -> None:
    """``aids export ID | head -1``: the reading end is closed before the JSON is written."""
    environ = dict(os.environ, AIDS_DB=str(night.db), AIDS_PUBLIC_URL=GOOD_URL)
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write of the child's finds no reader
    try:
        result = subprocess.run(
            [sys.executable, "-m", "aids.cli", "export", night.pid],
            stdout=write_end, stderr=subprocess.PIPE, env=environ, cwd=ROOT, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert result.returncode == 1 and result.stderr == b""


def test_ctrl_c_while_reading_standard_input_gets_no_traceback(night: Night) -> None:
    environ = dict(os.environ, AIDS_DB=str(night.db), AIDS_KEY=night.key)
    with subprocess.Popen(
        [sys.executable, "-m", "aids.cli", "record", night.pid, "-"],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=environ, cwd=ROOT,
        preexec_fn=_interruptible,
    ) as proc:  # fmt: skip
        waited = 0.0  # until the data file is open and the command waits on standard input
        while waited < 60 and not (_holds(proc.pid, night.db) and _reading_stdin(proc.pid)):
            time.sleep(0.1)
            waited += 0.1
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err


def _interruptible() -> None:
    """In the child before it runs: Ctrl-C's signal back to its default. A parallel test
    worker runs with SIGINT ignored, and an ignored signal stays ignored in the processes it
    starts, as a terminal's never is."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _reading_stdin(pid: int) -> bool:
    """Whether process ``pid`` is blocked reading its standard input (Linux ``/proc``: the
    system call it waits in is read(2), number 0 on x86-64, from file descriptor 0). Where
    that cannot be told (another machine), the open data file alone is waited for."""
    try:
        call = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return True
    if not call or not call[0].isdigit() or os.uname().machine != "x86_64":
        return True
    return call[0] == "0" and int(call[1], 16) == 0


def _holds(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (Linux ``/proc``)."""
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(fd) == str(path):
                return True
        except OSError:
            continue
    return False


# --- the command's files: only regular files read; a private mode only on a file of ours -------
# (issue 26 §3)

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="a device node and another owner's "
                               "file can only be made as root")  # fmt: skip


@pytest.mark.parametrize("command", ["meet scan", "meet import", "import"])
def test_a_fifo_given_as_an_input_file_is_refused_at_once(night: Night, command: str) -> None:
    fifo = night.tmp / "photo.jpg"
    os.mkfifo(fifo)
    args = command.split() + ([night.meet] if command == "meet scan" else []) + [str(fifo)]
    started = time.monotonic()
    if command == "meet scan":  # each photo says what became of it, then the command refuses
        refused = refuses(night, "meet/scan_unread", *args)
        assert f"input/not_file: {fifo}" in refused.stdout
    else:
        refused = refuses(night, "input/not_file", *args)
        assert str(fifo) in refused.stderr
    assert time.monotonic() - started < 30  # it used to wait for a writer forever


def test_a_device_given_as_an_input_file_is_refused_unread(night: Night) -> None:
    refuses(night, "input/not_file", "import", "/dev/zero")
    scan = refuses(night, "meet/scan_unread", "meet", "scan", night.meet, "/dev/urandom")
    assert "input/not_file: /dev/urandom" in scan.stdout
    refuses(night, "input/file", "meet", "import", str(night.tmp))  # a folder: "Is a directory"


@ROOT_ONLY
def test_a_private_export_to_a_device_leaves_the_devices_mode_alone(night: Night) -> None:
    null = night.tmp / "null"  # a node of the machine's /dev/null (1, 3), not the real one
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    os.chmod(null, 0o666)
    exported = run("export", night.pid, "-o", str(null), db=night.db)
    assert exported.returncode == 0, exported.stderr
    assert stat.S_IMODE(os.stat(null).st_mode) == 0o666  # it was made 0600 before


@ROOT_ONLY
def test_a_private_export_onto_another_users_file_is_refused_untouched(night: Night) -> None:
    theirs = night.tmp / "theirs.json"
    theirs.write_text("their notes\n")
    os.chmod(theirs, 0o644)
    os.chown(theirs, 65534, 65534)
    refuses(night, "output/not_yours", "export", night.pid, "-o", str(theirs))
    assert theirs.read_text() == "their notes\n"
    assert stat.S_IMODE(os.stat(theirs).st_mode) == 0o644


def test_a_private_export_makes_a_new_or_own_file_0600(night: Night) -> None:
    mine = night.tmp / "mine.json"
    mine.write_text("x" * 100_000)
    os.chmod(mine, 0o644)
    for path in (mine, night.tmp / "new.json"):
        exported = run("export", night.pid, "-o", str(path), db=night.db)
        assert exported.returncode == 0, exported.stderr
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert json.loads(path.read_text())["table"]["title"] == "Derby"  # truncated first


@ROOT_ONLY
def test_an_output_through_a_link_another_user_planted_is_refused(night: Night) -> None:
    """Issue 26 §3 (found in review): in a shared folder another user can guess an output's
    name and plant a link there; the export and the sheets are refused, the link's target
    untouched (its content and its mode), and a dangling link creates nothing."""
    shared = night.tmp / "shared"
    shared.mkdir(mode=0o1777)
    victim = night.tmp / "victim.conf"
    victim.write_text("settings\n")
    os.chmod(victim, 0o644)
    planted = shared / "backup.json"
    planted.symlink_to(victim)
    os.lchown(planted, 65534, 65534)
    refuses(night, "output/link", "export", night.pid, "-o", str(planted))
    assert victim.read_text() == "settings\n" and stat.S_IMODE(victim.stat().st_mode) == 0o644
    dangling = shared / "night.json"
    dangling.symlink_to(night.tmp / "created-by-the-link")
    os.lchown(dangling, 65534, 65534)
    refuses(night, "output/link", "export", night.pid, "-o", str(dangling))
    assert not (night.tmp / "created-by-the-link").exists()
    sheet = shared / f"event-standings-{night.meet[:8]}-en-a4.pdf"
    sheet.symlink_to(victim)
    os.lchown(sheet, 65534, 65534)
    refuses(night, "output/link", "meet", "sheet", night.meet, "--sheet-lang", "en",
            "--out", str(shared))  # fmt: skip
    assert victim.read_text() == "settings\n"


def test_an_output_through_the_users_own_link_is_written(night: Night) -> None:
    target = night.tmp / "real.json"
    mine = night.tmp / "link.json"
    mine.symlink_to(target)
    exported = run("export", night.pid, "-o", str(mine), db=night.db)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(target.read_text())["table"]["title"] == "Derby"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_file_refusals_speak_the_users_language_and_sizes_in_mb(night: Night) -> None:
    """Issue 26 §6 (found in review): the system's reason and a size limit were English and
    raw bytes inside a Japanese message."""
    missing = run("--lang", "ja", "meet", "import", str(night.tmp / "none.json"), db=night.db)
    assert missing.returncode == 2 and "そのファイルやフォルダはありません" in missing.stderr
    assert "No such file" not in missing.stderr
    big = night.tmp / "big.json"
    big.write_bytes(b" " * (9 * 1024 * 1024))
    too_big = run("--lang", "ja", "import", str(big), db=night.db)
    assert too_big.returncode == 2 and "8メガバイト を超えています" in too_big.stderr


def test_serve_refuses_an_address_no_name_resolves_before_serving(tmp_path: Path) -> None:
    """Issue 26 (found in review): ``--address x`` ended in the server's own traceback."""
    done = run("--lang", "en", "serve", "--port", "8099", "--address", "no-such-host.invalid",
               db=tmp_path / "serve.sqlite3")  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("input/address_unknown:")
    assert "Traceback" not in done.stderr
