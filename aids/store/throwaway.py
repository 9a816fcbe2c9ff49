"""A throwaway PostgreSQL server for the tests and benchmarks: Debian's ``postgresql``
binaries, a temporary data folder, a free port on 127.0.0.1, gone when stopped.

    with ThrowawayServer() as server:
        store = PostgresStore(server.url())

PostgreSQL refuses to run as root; as root the server runs as the ``postgres`` user the Debian
package creates. Durability is traded for speed (``fsync=off``): nothing here outlives the run.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

USER = "aids"  # the database superuser of the throwaway cluster
DATABASE = "aids"


class NoServer(RuntimeError):
    """The PostgreSQL server is not installed here (tests skip, naming what to install)."""


class ServerFailed(RuntimeError):
    """The server is installed but did not start (tests fail: something is wrong)."""


def server_binaries() -> Path:
    """The folder holding ``initdb`` and ``postgres``: the newest Debian version's."""
    versions = [Path(p).parent.parent for p in glob.glob("/usr/lib/postgresql/*/bin/postgres")]
    versions.sort(key=lambda folder: int(folder.name) if folder.name.isdigit() else 0)
    if versions:
        return versions[-1] / "bin"
    on_path = shutil.which("postgres")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    raise NoServer(
        "PostgreSQL server binaries not found (Debian's postgresql package: "
        "apt-get install postgresql; scripts/test.sh installs it)"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThrowawayServer:
    """Start with ``start()`` (or ``with``), read ``url()``, ``stop()`` removes everything."""

    def __init__(self) -> None:
        self.bin = server_binaries()
        self.port = 0
        self.folder: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._uid: int | None = None  # the user the server runs as, when we are root
        self._gid: int | None = None

    def start(self, timeout: float = 60.0) -> ThrowawayServer:
        self.folder = Path(tempfile.mkdtemp(prefix="aids-pg-"))
        data = self.folder / "data"
        if os.geteuid() == 0:  # initdb and postgres refuse root
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise NoServer("running as root and there is no 'postgres' user") from None
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self._uid, self._gid = owner.pw_uid, owner.pw_gid
        self._run(
            [
                str(self.bin / "initdb"),
                "-D", str(data),
                "-U", USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ]
        )  # fmt: skip
        self.port = free_port()
        log = open(self.folder / "server.log", "wb")  # noqa: SIM115 - the server's for its life
        server = [
            str(self.bin / "postgres"),
            "-D", str(data),
            "-p", str(self.port),
            "-k", str(self.folder),
            "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=off",
            "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off",
            "-c", "max_connections=200",
            "-c", "shared_buffers=64MB",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            server,
            stdout=log,
            stderr=subprocess.STDOUT,
            **self._user(),
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self._ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = (self.folder / "server.log").read_text(errors="replace")[-2000:]
                self.stop()
                raise ServerFailed(f"the PostgreSQL server did not start:\n{tail}")
            time.sleep(0.1)
        self._run(
            [str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER,
             DATABASE]
        )  # fmt: skip
        return self

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(command, capture_output=True, check=False, **self._user())
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace")
            raise ServerFailed(f"{Path(command[0]).name} failed: {why}")

    def _user(self) -> dict[str, Any]:
        if self._uid is None:
            return {}
        return {"user": self._uid, "group": self._gid, "extra_groups": []}

    def _ready(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
            return True
        return False

    def url(self, schema: str | None = None) -> str:
        """The database's address; with ``schema``, one whose tables live in that schema."""
        base = f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"
        return base if schema is None else with_schema(base, schema)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: clients are cut off
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> ThrowawayServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def with_schema(url: str, schema: str) -> str:
    """``url`` with its tables in ``schema`` (libpq's ``options``: a search path)."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"


def create_schema(url: str, schema: str) -> None:
    """A fresh, empty schema (dropped first if it exists) in the database at ``url``."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
