"""The PostgreSQL schema, as numbered migrations run on start (``aids.store.postgres``).

Each migration runs once, in order, inside one transaction that holds an advisory lock, so
two trackers starting together on a new database do not race; ``aids_schema`` records which
have run. A database whose ``aids_schema`` knows a version beyond ``LATEST`` was written by a
newer release and is refused untouched. The rows are those of the SQLite file
(``aids.store.schema``): text times exactly as written (``COLLATE "C"``: ordered like
SQLite), JSON kept as the text it was written as (``json``, not ``jsonb``), so a table moves
between the two stores byte for byte.
"""

from __future__ import annotations

# pg_advisory_xact_lock key of our migrations: "RNAI" as in the SQLite application id.
LOCK_KEY = 0x52_4E_41_49

SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS aids_schema (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "tables, their logs and keys",
        """
CREATE TABLE tables (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    public_id text NOT NULL UNIQUE,
    kind text NOT NULL,
    title text NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    setup json NOT NULL,
    rules_version integer NOT NULL DEFAULT 1
);
CREATE TABLE events (
    table_id bigint NOT NULL REFERENCES tables(id),
    seq integer NOT NULL CHECK (seq > 0),
    kind text NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    payload json,
    created_at text COLLATE "C" NOT NULL,
    actor text NOT NULL DEFAULT 'referee',
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE keys (
    table_id bigint NOT NULL REFERENCES tables(id),
    role text NOT NULL,
    key_hash text NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    revoked_at text,
    PRIMARY KEY (table_id, key_hash)
);
CREATE INDEX keys_live ON keys (table_id, role) WHERE revoked_at IS NULL;
""",
    ),
    (
        2,
        "meets: events of many tables",
        """
CREATE TABLE meets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    public_id text NOT NULL UNIQUE,
    title text NOT NULL,
    date text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    scoring json NOT NULL,
    organiser_hash text NOT NULL
);
CREATE TABLE meet_tables (
    table_id bigint PRIMARY KEY REFERENCES tables(id),
    meet_id bigint NOT NULL REFERENCES meets(id),
    position integer NOT NULL
);
CREATE INDEX meet_tables_meet ON meet_tables (meet_id, position);
""",
    ),
    (
        3,
        "tell followers of new log entries (LISTEN/NOTIFY)",
        # One notice per table and statement, on the channel of the table's schema, sent when
        # the transaction commits: "<table id>:<newest seq>".
        """
CREATE FUNCTION aids_log_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('aids_log_' || TG_TABLE_SCHEMA, table_id || ':' || max(seq))
        FROM new_rows GROUP BY table_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION aids_log_notify();
""",
    ),
    (
        4,
        "live chances computed once per table position",
        """
CREATE TABLE figures (
    table_id bigint NOT NULL REFERENCES tables(id),
    seq integer NOT NULL,
    claimed_by text NOT NULL,
    claimed_at text COLLATE "C" NOT NULL,
    done integer NOT NULL DEFAULT 0,
    payload json,
    PRIMARY KEY (table_id, seq)
);
""",
    ),
    (
        5,
        "an event's replaced organiser keys",
        """
ALTER TABLE meets ADD COLUMN replaced json NOT NULL DEFAULT '[]'::json;
""",
    ),
    (
        6,
        "a meet's tables played on paper, with their result logs",
        """
CREATE TABLE papers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    public_id text NOT NULL UNIQUE,
    meet_id bigint NOT NULL REFERENCES meets(id),
    kind text NOT NULL,
    title text NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    setup json NOT NULL
);
CREATE INDEX papers_meet ON papers (meet_id, id);
CREATE TABLE paper_entries (
    paper_id bigint NOT NULL REFERENCES papers(id),
    seq integer NOT NULL CHECK (seq > 0),
    step text NOT NULL CHECK (step IN ('entered', 'corrected', 'confirmed')),
    result json,
    photo text,
    actor text NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    PRIMARY KEY (paper_id, seq)
);
""",
    ),
)
LATEST = MIGRATIONS[-1][0]


def channel(schema: str) -> str:
    """The notification channel of the tables in ``schema`` (as the trigger names it)."""
    return f"aids_log_{schema}"
