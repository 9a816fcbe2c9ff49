"""What one process has heard of each table's log from PostgreSQL's notices (LISTEN/NOTIFY).

The log's trigger (``aids.store.postgres_schema``, migration 3) sends ``<table id>:<seq>`` on
the schema's channel when an append commits; ``Heard`` listens on one connection of its own
and answers ``PostgresStore.seen_seq`` from what it heard, so a page following a table asks
the database nothing until the table changes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)


class Heard:
    """What one listening connection has heard of each table's log: ``<table id>:<seq>``
    notices from the trigger, kept as the newest sequence number per table.

    The listener starts with the first question, and while it is not connected (starting, or
    after the server went away) every answer is read from the database instead. A table not
    heard of yet is read once, then followed by notices. Reconnecting forgets everything
    heard: notices sent while nobody listened are lost, so each table is read afresh.
    """

    RETRY_SECONDS = 1.0

    def __init__(self, url: str, channel_name: str, where: str) -> None:
        self.url, self.channel, self.where = url, channel_name, where
        self._lock = threading.Lock()
        self._seqs: dict[int, int] = {}
        self._generation = 0  # bumped on every (re)connection
        self._connected = False
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._listeners: list[Callable[[], None]] = []

    def on_notice(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (from the listening thread: it must be quick) whenever a
        table's log moves on by a notice (the live view looks at once)."""
        with self._lock:
            self._listeners.append(listener)

    def seq(self, table_id: int, read: Callable[[int], int]) -> int:
        with self._lock:
            self._start()
            if not self._connected:
                known, generation = None, -1
            else:
                known, generation = self._seqs.get(table_id), self._generation
        if known is not None:
            return known
        seq = int(read(table_id))
        with self._lock:
            if self._connected and self._generation == generation:
                seq = max(seq, self._seqs.get(table_id, 0))
                self._seqs[table_id] = seq
        return seq

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._connected

    def tell(self, table_id: int, seq: int) -> None:
        """This process's own write: known at once, before its notice comes back."""
        with self._lock:
            if self._connected and seq > self._seqs.get(table_id, -1):
                self._seqs[table_id] = seq

    def _start(self) -> None:
        if self._thread is None and not self._stopping.is_set():
            self._thread = threading.Thread(target=self._listen, name="aids-listen", daemon=True)
            self._thread.start()

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    with self._lock:
                        self._seqs.clear()
                        self._generation += 1
                        self._connected = True
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._note(note.payload)
            except psycopg.Error as exc:
                log.warning("listening on %s: %s; pages read the log meanwhile", self.where, exc)
            with self._lock:
                self._connected = False
                self._seqs.clear()
            self._stopping.wait(self.RETRY_SECONDS)

    def _note(self, payload: str) -> None:
        table, _, seq = payload.partition(":")
        try:
            table_id, newest = int(table), int(seq)
        except ValueError:
            return  # not ours
        with self._lock:
            if newest > self._seqs.get(table_id, -1):
                self._seqs[table_id] = newest
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
