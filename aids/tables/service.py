"""The table service: one live game = setup + keys + append-only event log; state = its fold.

Every write goes through the same checks in a fixed order (learned from boardgame.io's
master): table → key (→ role; wrong keys are rate-limited per table) → expected sequence →
parse → may this role act for the action's actor → the engine (game over, turn, rule) →
append. Nothing is written when any check fails. Every read goes through the game's ``view``
for the reader's role, the log included. Undo and redo are events too, so the log keeps the
audit trail.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aids.core import inputs
from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState
from aids.games.base import REFEREE, VIEWER, AnyGame, Role
from aids.store.base import EventRow, KeyRow, Store, TableBundle, TableRow
from aids.tables.attempts import KeyAttempts
from aids.tables.export import MAX_TITLE, export_document, parse_export
from aids.tables.fold import Fold, fold_events, start
from aids.tables.keys import (
    MAX_KEY_LENGTH,
    PUBLIC_ID_RE,
    hash_key,
    new_key,
    new_public_id,
    now,
    same_hash,
)
from aids.tables.snapshot import Snapshot, TableInfo, snapshot_of, table_info


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """A key of a table as the referee's page lists it (never the key itself)."""

    role: Role
    created_at: str
    revoked_at: str | None


class TableService:
    """Create, read and write tables. Thread-safe; shareable across Streamlit sessions.

    ``games`` maps each game's kind to its engine: the service never imports a game.
    ``key_attempts`` limits wrong keys per table (``aids.tables.attempts``: a burst of 10,
    then one per 3 s); tests pass one with a fake clock.
    """

    def __init__(
        self,
        store: Store,
        games: Mapping[str, AnyGame],
        *,
        key_attempts: KeyAttempts | None = None,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.key_attempts = key_attempts or KeyAttempts()
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[TableRow, Fold]] = {}
        self._live_keys: dict[int, list[KeyRow]] = {}  # by table id; writes re-check in the store

    def game(self, kind: str) -> AnyGame:
        try:
            return self.games[kind]
        except (KeyError, TypeError):
            raise InvalidAction("table/unknown_game", kind=str(kind)[:40]) from None

    # --- create / read --------------------------------------------------------------------

    def create(
        self,
        kind: str,
        title: object,
        setup: object,
        *,
        meet_id: int | None = None,
        organiser_hash: str | None = None,
    ) -> tuple[TableInfo, str]:
        """A new table; returns its info and the referee key (shown once, never stored).

        Given ``meet_id`` the table is created inside that event, in the same write, which
        checks ``organiser_hash`` (``None``: the host's own tool): both or neither."""
        game = self.game(kind)
        clean_title = inputs.text(title, "title", max_len=MAX_TITLE)
        parsed = game.setup_from_dict(setup)
        game.initial_state(parsed)  # a setup the engine cannot start is refused here
        key = new_key()
        created = now()
        row = TableRow(
            0,
            new_public_id(),
            kind,
            clean_title,
            created,
            game.setup_to_dict(parsed),
            game.info.rules_version,
        )
        stored = self.store.insert_table(
            row, [KeyRow("referee", hash_key(key), created)], meet_id=meet_id, by=organiser_hash
        )
        return table_info(stored), key

    def list_tables(self) -> list[tuple[TableInfo, int]]:
        return [(table_info(row), seq) for row, seq in self.store.list_tables()]

    def role_for(self, public_id: str, key: object) -> Role:
        """The one place that decides who a key makes you: an empty, missing, malformed, wrong
        or revoked key is a viewer; a live key is the role it was issued for.

        Raises:
            Forbidden: ``table/key_attempts`` while the table's budget of wrong keys is spent
                (any key, the right one too; no key is never refused).
        """
        if key is None or key == "":
            return VIEWER  # a plain viewer: not even the table is looked up
        return self._role(self._row(public_id), key, fresh=True)[0]

    def _role(self, row: TableRow, key: object, *, fresh: bool) -> tuple[Role, str | None]:
        """The key's role and hash. Reads ask the store each time (a revoked key stops at
        once); a write may use the keys this process last saw, because the store's append
        checks the key again in the write's own transaction.

        A key given (any but ``None`` or ``""``) spends an attempt of the table's budget
        before it is looked at; a live key gives it back, so only wrong keys count.
        """
        if key is None or key == "":
            return VIEWER, None
        self.key_attempts.take(row.id)  # refused here, unchecked, while the budget is spent
        try:
            role, digest = self._match(row, key, fresh=fresh)
        except BaseException:
            self.key_attempts.give_back(row.id)  # the store failed: no attempt was made
            raise
        if digest is not None:
            self.key_attempts.give_back(row.id)
        return role, digest

    def _match(self, row: TableRow, key: object, *, fresh: bool) -> tuple[Role, str | None]:
        """The role of a live key matching ``key`` and its hash, else the viewer's."""
        if not isinstance(key, str) or len(key) > MAX_KEY_LENGTH:
            return VIEWER, None
        digest = hash_key(key)
        for attempt in ("cached", "fresh"):
            with self._lock:
                keys = None if fresh or attempt == "fresh" else self._live_keys.get(row.id)
            if keys is None:
                keys = self.store.keys(row.id)
                with self._lock:
                    self._live_keys[row.id] = keys
            for stored in keys:
                if same_hash(stored.key_hash, digest):
                    return Role.parse(stored.role), digest
            if fresh:
                break
        return VIEWER, None

    def _forget_keys(self, row: TableRow) -> None:
        with self._lock:
            self._live_keys.pop(row.id, None)

    def _table(self, public_id: object) -> TableRow:
        """The stored row of a table; an id that cannot be one is not looked up at all."""
        return self.store.get_table(_check_id(public_id))

    def _row(self, public_id: str) -> TableRow:
        """The table's row (immutable once created): from the cache, else the store."""
        _check_id(public_id)
        with self._lock:
            cached = self._cache.get(public_id)
        return cached[0] if cached else self._table(public_id)

    def snapshot(self, public_id: str, role: Role = VIEWER) -> Snapshot:
        """The table as ``role`` may see it (the viewer's by default), as far as this process
        knows: on PostgreSQL a write of another process shows once its notice arrives."""
        row, fold = self._fold(public_id, exact=False)
        return snapshot_of(row, fold, role)

    def seq(self, public_id: str) -> int:
        """The table's log position as far as this process knows (as ``snapshot``), without
        building a view: what a page asks every second to learn whether to redraw."""
        return self._fold(public_id, exact=False)[1].seq

    def replay(self, public_id: str) -> Any:
        """A fresh fold of the whole stored log, bypassing the cache (for checks and tests)."""
        row = self._table(public_id)
        return fold_events(self.game(row.kind), row, self.store.events(row.id)).state

    # --- write ----------------------------------------------------------------------------

    def record(self, public_id: str, key: object, expected_seq: int, action: Any) -> Snapshot:
        """Validate ``action`` (an action object or its dict) and append it."""
        return self._write(public_id, key, expected_seq, "action", action)

    def undo(self, public_id: str, key: object, expected_seq: int) -> Snapshot:
        return self._write(public_id, key, expected_seq, "undo", None)

    def redo(self, public_id: str, key: object, expected_seq: int) -> Snapshot:
        return self._write(public_id, key, expected_seq, "redo", None)

    def _write(
        self, public_id: str, key: object, expected_seq: int, kind: str, action: Any
    ) -> Snapshot:
        row, fold = self._fold(public_id, refresh=False)
        role, key_hash = self._role(row, key, fresh=False)
        if role.is_viewer or (kind != "action" and not role.is_referee):
            raise Forbidden("table/forbidden")
        if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
            raise InvalidAction("table/seq")
        if fold.seq != expected_seq:  # maybe another process wrote: look before refusing
            row, fold = self._fold(public_id)
        if fold.seq != expected_seq:
            raise StaleState("table/stale", expected=expected_seq, actual=fold.seq)
        payload = parsed = None
        if kind == "action":
            game = fold.game
            # A dict is parsed; an object is normalised through its dict form (same checks).
            raw = action if isinstance(action, dict) else _to_dict(action)
            parsed = game.action_from_dict(raw)
            if not game.may_act(fold.state, parsed, role):
                expected = game.actor_of(parsed)
                raise Forbidden("table/wrong_actor", actor=str(role), expected=str(expected))
            payload = game.action_to_dict(parsed)
        event = EventRow(expected_seq + 1, kind, payload, now(), str(role))
        trial = fold.copy()
        trial.step(event, parsed)  # the engine validates before anything is written
        try:  # StaleState if the log moved on, Forbidden if the key was revoked meanwhile
            self.store.append(row.id, expected_seq, event, key_hash=key_hash)
        except Forbidden:
            self._forget_keys(row)
            raise
        except StaleState:
            self._fold(public_id)  # the page redrawn after the refusal shows the newer log
            raise
        with self._lock:
            cached = self._cache.get(public_id)
            if cached is None or cached[1].seq <= expected_seq:
                self._cache[public_id] = (row, trial)
        return snapshot_of(row, trial, role, lazy=True)

    def _fold(
        self, public_id: str, *, refresh: bool = True, exact: bool = True
    ) -> tuple[TableRow, Fold]:
        """The cached fold brought up to date with any events written since (by anyone).

        A write may skip the refresh when its expected sequence matches the cache: the append
        checks the sequence again inside its transaction, so a stale cache cannot slip through.
        A reader (``exact=False``) asks the store's ``seen_seq``: no query per page tick where
        the database tells of new writes itself.
        """
        _check_id(public_id)
        with self._lock:
            cached = self._cache.get(public_id)
        if cached is None:
            row = self._table(public_id)
            fold = start(self.game(row.kind), row)
        else:
            row, fold = cached
            if not refresh:
                return row, fold
        latest = self.store.last_seq(row.id) if exact else self.store.seen_seq(row.id)
        if latest != fold.seq:
            fold = fold.copy()
            for event in self.store.events(row.id, after=fold.seq):
                fold.step(event)
        with self._lock:
            current = self._cache.get(public_id)
            if current is None or current[1].seq <= fold.seq:
                self._cache[public_id] = (row, fold)
        return row, fold

    # --- keys -----------------------------------------------------------------------------

    def keys(self, public_id: str, key: object) -> list[KeyInfo]:
        """Every key of the table, live and revoked (the referee's page lists them)."""
        row = self._referee_row(public_id, key)
        return [
            KeyInfo(Role.parse(k.role), k.created_at, k.revoked_at)
            for k in self.store.keys(row.id, include_revoked=True)
        ]

    def rotate_key(self, public_id: str, key: object, role: Role) -> str:
        """A new key for ``role`` (referee or a seat); the old one stops working at once.

        The referee's key is checked again inside the store's transaction, so a key revoked
        a moment ago cannot mint a new one.
        """
        row = self._referee_row(public_id, key)
        return self._issue(row, role, by=hash_key(str(key)))

    def revoke_key(self, public_id: str, key: object, role: Role) -> int:
        """Revoke a seat's key (its link stops working). The referee key can only be rotated."""
        row = self._referee_row(public_id, key)
        self._check_role(row, role)
        if role.is_referee:
            raise InvalidAction("table/revoke_referee")
        self._forget_keys(row)
        return self.store.revoke_keys(row.id, str(role), now(), by=hash_key(str(key)))

    def reissue_key(self, public_id: str, role: Role = REFEREE) -> str:
        """The host's way back in (``aids key rotate``): whoever runs the command holds the
        data file, so no key is asked. The old key of ``role`` stops working."""
        return self._issue(self._table(public_id), role, by=None)

    def _issue(self, row: TableRow, role: Role, *, by: str | None) -> str:
        self._check_role(row, role)
        self._forget_keys(row)
        key = new_key()
        stamp = now()
        self.store.replace_key(row.id, KeyRow(str(role), hash_key(key), stamp), stamp, by=by)
        return key

    def _check_role(self, row: TableRow, role: Role) -> None:
        game = self.game(row.kind)
        seats = len(game.seat_names(game.setup_from_dict(row.setup)))
        if role.is_referee:
            return
        if not game.info.seat_keys:
            raise InvalidAction("table/no_seat_keys")
        if role.kind != "seat" or role.seat is None or not 0 <= role.seat < seats:
            raise InvalidAction("table/role", role=str(role))

    def _referee_row(self, public_id: str, key: object) -> TableRow:
        if not self.role_for(public_id, key).is_referee:  # always a fresh look at the keys
            raise Forbidden("table/forbidden")
        return self._table(public_id)

    # --- export / import ------------------------------------------------------------------

    def export(self, public_id: str) -> dict[str, Any]:
        """The whole table as a JSON-ready document: the host's backup (``aids export``).

        Whoever runs the command holds the data file itself, secrets and all.
        """
        row = self._table(public_id)
        keys = self.store.keys(row.id, include_revoked=True)
        return export_document(row, keys, self.store.events(row.id))

    def referee_export(self, public_id: str, key: object) -> dict[str, Any]:
        """The backup the referee downloads from the page: the key is checked at the moment
        of the download (a rotated link gets nothing), and while a secret choice is still
        sealed from the referee the export is refused, since it would reveal it."""
        role = self.role_for(public_id, key)
        if not role.is_referee:
            raise Forbidden("table/forbidden")
        if any(entry.sealed for entry in self.snapshot(public_id, role).log):
            raise Forbidden("table/export_sealed")
        return self.export(public_id)

    def check_import(self, data: object) -> TableBundle:
        """Validate an exported table completely (its shape, then a replay of its whole log)
        and return it ready to insert; nothing is written. An event's import checks each of
        its tables with this, then inserts them all at once.

        Raises ``InvalidAction("import/exists")`` if a table with its public id is stored.
        """
        row, keys, events = parse_export(data, self.games)
        if self.store.exists(row.public_id):
            raise InvalidAction("import/exists", public_id=row.public_id)
        fold_events(self.game(row.kind), row, events)
        return row, keys, events

    def import_(self, data: object) -> TableInfo:
        """Validate an exported table completely (replaying its log), then add it.

        An import never overwrites: a table with the same public id is refused.
        """
        row, keys, events = self.check_import(data)
        return table_info(self.store.insert_table(row, keys, events))


def _check_id(public_id: object) -> str:
    if not isinstance(public_id, str) or not PUBLIC_ID_RE.match(public_id):
        raise NotFound("table/not_found")
    return public_id


def _to_dict(action: Any) -> Any:
    to_dict = getattr(action, "to_dict", None)
    if not callable(to_dict):
        return action  # the game's parser refuses it, naming the field
    return to_dict()
