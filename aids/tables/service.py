"""The table service: one live game = setup + keys + append-only event log; state = its fold.

Every write goes through the same checks in a fixed order (learned from boardgame.io's
master): table → key (→ role; wrong keys are limited per client, never the right key) →
expected sequence → parse → may this role act for the action's actor → the engine (game
over, turn, rule) → append. Nothing is written when any check fails. Every read goes through
the game's ``view`` for the reader's role, the log included. Undo and redo are events too, so
the log keeps the audit trail.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState
from aids.games.base import REFEREE, VIEWER, AnyGame, Role
from aids.store.base import EventRow, KeyRow, Store, TableBundle, TableRow
from aids.tables.attempts import LOCAL, KeyAttempts
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
class Access:
    """What a key makes its holder, and why (``TableService.access``): ``none`` (no key: the
    viewer), ``live`` (the role the key was issued for), ``replaced`` (a key the table once
    had, rotated or revoked since: the viewer, told so) or ``wrong`` (the viewer)."""

    role: Role
    status: Literal["none", "live", "replaced", "wrong"]
    digest: str | None = None  # the live key's hash, checked again inside a write


NO_KEY = Access(VIEWER, "none")


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """A key of a table as the referee's page lists it (never the key itself)."""

    role: Role
    created_at: str
    revoked_at: str | None


class TableService:
    """Create, read and write tables. Thread-safe; shareable across Streamlit sessions.

    ``games`` maps each game's kind to its engine: the service never imports a game.
    ``key_attempts`` limits wrong keys per client (``aids.tables.attempts``: a burst of 10,
    then one per 3 s; the right key is never refused); tests pass one with a fake clock.
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
        # by table id: every key (live and revoked) and when it was read; writes re-check
        self._known_keys: dict[int, tuple[list[KeyRow], float]] = {}
        self._listeners: list[Callable[[str, int], None]] = []

    def on_write(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(public_id, seq)`` after each write through this service commits
        (the live view wakes at once instead of at its next look). A listener must be quick
        and must not raise."""
        with self._lock:
            self._listeners.append(listener)

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

    def role_for(self, public_id: str, key: object, *, client: str = LOCAL) -> Role:
        """The one place that decides who a key makes you (``access`` says why)."""
        return self.access(public_id, key, client=client).role

    def access(self, public_id: str, key: object, *, client: str = LOCAL) -> Access:
        """Who a key makes you, and why: a live key is the role it was issued for; an empty
        or missing key is the viewer; a key the table once had (rotated or revoked) is the
        viewer, told its link was replaced; any other key is the viewer, and spends one of
        ``client``'s wrong keys (``aids.tables.attempts``). The right key is never refused.

        Raises:
            Forbidden: ``table/key_attempts`` for a wrong key while ``client`` has spent its
                budget of wrong keys (no key, a live key or a replaced key never is).
        """
        if key is None or key == "":
            return NO_KEY  # a plain viewer: not even the table is looked up
        return self._access(self._row(public_id), key, fresh=True, client=client)

    def _access(self, row: TableRow, key: object, *, fresh: bool, client: str) -> Access:
        """The key's access. Reads look at the store's keys each time (a revoked key stops
        at once); a write may use the keys this process last read, because the store's
        append checks the key again in the write's own transaction. A client past its
        budget of wrong keys is answered from the keys last read where they know the key
        (read again at most once a second, and always to confirm a live key); a key they do
        not know is looked up before it is refused, so a key issued a moment ago by another
        process works at once whoever else shares the client's budget."""
        if key is None or key == "":
            return NO_KEY
        if isinstance(key, str) and len(key) <= MAX_KEY_LENGTH:
            digest = hash_key(key)
            stored = self._lookup(row, digest, fresh=fresh, over=self.key_attempts.over(client))
            if stored is not None and stored.revoked_at is None:
                role = Role.parse(stored.role)
                if not self._allows(row, role):  # a stray key an older import let in
                    return Access(VIEWER, "wrong")
                return Access(role, "live", digest)
            if stored is not None:
                return Access(VIEWER, "replaced")
        self.key_attempts.take(client)  # Forbidden while this client's budget is spent
        return Access(VIEWER, "wrong")

    def _lookup(self, row: TableRow, digest: str, *, fresh: bool, over: bool) -> KeyRow | None:
        """The stored key (live or revoked) whose hash is ``digest``, if any."""
        with self._lock:
            cached = self._known_keys.get(row.id)
        read = False
        if (
            cached is None
            or (fresh and not over)
            or (over and cached[1] < self.key_attempts.now() - 1.0)
        ):
            cached, read = self._read_keys(row), True
        found = _find(cached[0], digest)
        if read:
            return found
        if found is not None and found.revoked_at is None and fresh:
            return _find(self._read_keys(row)[0], digest)  # confirm a live key: never stale
        if found is None:
            # a key issued meanwhile by another process (the CLI, a second tracker) is
            # looked for before it is called wrong, even for a client past its budget (behind
            # a proxy every visitor may share one): the right key is never refused
            return _find(self._read_keys(row)[0], digest)
        return found

    def _read_keys(self, row: TableRow) -> tuple[list[KeyRow], float]:
        keys = (self.store.keys(row.id, include_revoked=True), self.key_attempts.now())
        with self._lock:
            self._known_keys[row.id] = keys
        return keys

    def _forget_keys(self, row: TableRow) -> None:
        with self._lock:
            self._known_keys.pop(row.id, None)

    def _table(self, public_id: object) -> TableRow:
        """The stored row of a table; an id that cannot be one is not looked up at all."""
        return self.store.get_table(_check_id(public_id))

    def _row(self, public_id: str) -> TableRow:
        """The table's row (immutable once created): from the cache, else the store."""
        _check_id(public_id)
        with self._lock:
            cached = self._cache.get(public_id)
        return cached[0] if cached else self._table(public_id)

    def table_id(self, public_id: str) -> int:
        """The store's own id of a table, for a service on the same store (the chances)."""
        return self._row(public_id).id

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
        access = self._access(row, key, fresh=False, client=LOCAL)
        role, key_hash = access.role, access.digest
        if access.status == "replaced":
            raise Forbidden("table/key_replaced")
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
            listeners = list(self._listeners)
        for listener in listeners:
            listener(public_id, event.seq)
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
        return self._issue(row, _role(role), by=hash_key(str(key)))

    def revoke_key(self, public_id: str, key: object, role: Role) -> int:
        """Revoke a seat's key (its link stops working). The referee key can only be rotated."""
        row = self._referee_row(public_id, key)
        role = _role(role)
        if role.is_referee:
            raise InvalidAction("table/revoke_referee")
        live = {k.role for k in self.store.keys(row.id)}
        if str(role) not in live:  # a live key is always revocable, even a stray one
            self._check_role(row, role)
        self._forget_keys(row)
        return self.store.revoke_keys(row.id, str(role), now(), by=hash_key(str(key)))

    def reissue_key(self, public_id: str, role: Role = REFEREE) -> str:
        """The host's way back in (``aids key rotate``): whoever runs the command holds the
        data file, so no key is asked. The old key of ``role`` stops working."""
        return self._issue(self._table(public_id), _role(role), by=None)

    def _issue(self, row: TableRow, role: Role, *, by: str | None) -> str:
        self._check_role(row, role)
        self._forget_keys(row)
        key = new_key()
        stamp = now()
        self.store.replace_key(row.id, KeyRow(str(role), hash_key(key), stamp), stamp, by=by)
        return key

    def _allows(self, row: TableRow, role: Role) -> bool:
        """Whether the table's game gives ``role`` a key (the referee; a seat of its own
        where the game has seat keys)."""
        try:
            self._check_role(row, role)
        except InvalidAction:
            return False
        return True

    def _check_role(self, row: TableRow, role: Role) -> None:
        if role.is_referee:
            return
        game = self.game(row.kind)
        seats = len(game.seat_names(game.setup_from_dict(row.setup)))
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

    def referee_export(self, public_id: str, key: object, *, client: str = LOCAL) -> dict[str, Any]:
        """The backup the referee downloads from the page. The key is checked when the file
        is made (a rotated-out tab gets nothing), and the export is refused while it would
        show the referee anything its page does not: a secret choice still sealed (a blind
        bet, a roster) or state the game hides from the referee."""
        role = self.role_for(public_id, key, client=client)
        if not role.is_referee:
            raise Forbidden("table/forbidden")
        document = self.export(public_id)
        if self.hides_from(public_id, document, role):
            raise Forbidden("table/export_sealed")
        return document

    def hides_from(self, public_id: str, document: dict[str, Any], role: Role) -> bool:
        """Whether an export ``document`` of the table holds anything ``role`` may not see:
        state its ``view`` hides (a seed, hands, a pile) or a log entry sealed from it, or
        shown to it otherwise than stored. Checked on the very document to be handed out;
        a log this process has not read to its end is refused, never guessed."""
        role = _role(role)
        row, _keys, events = parse_export(document, self.games)
        game = self.game(row.kind)
        full = fold_events(game, row, events).state
        if game.view(full, role) != full:
            return True
        seen = self.snapshot(public_id, role).log
        if len(seen) < len(events):
            return True
        for entry, event in zip(seen, events, strict=False):
            if event.kind != "action":
                continue
            if entry.sealed or entry.action != game.action_from_dict(event.payload):
                return True
        return False

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


def _find(keys: list[KeyRow], digest: str) -> KeyRow | None:
    """The key whose hash is ``digest``: a live one before a revoked one (a hash is unique)."""
    hits = [k for k in keys if same_hash(k.key_hash, digest)]
    return min(hits, key=lambda k: k.revoked_at is not None, default=None)


def _check_id(public_id: object) -> str:
    if not isinstance(public_id, str) or not PUBLIC_ID_RE.match(public_id):
        raise NotFound("table/not_found")
    return public_id


def _to_dict(action: Any) -> Any:
    to_dict = getattr(action, "to_dict", None)
    if not callable(to_dict):
        return action  # the game's parser refuses it, naming the field
    try:  # a class, or a value object holding the wrong types, fails in its own to_dict
        return to_dict() if not isinstance(action, type) else None
    except (AttributeError, TypeError, ValueError, KeyError):
        return None  # the game's parser refuses it as malformed


def _role(role: object) -> Role:
    """A role given by a Python caller: a ``Role`` value, never guessed from a string."""
    if not isinstance(role, Role):
        raise InvalidAction("table/role_type", type=type(role).__name__[:40])
    return role
