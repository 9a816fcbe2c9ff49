"""The SQLite file's schema and its migrations, one step per schema version.

A file carries our ``application_id`` and its schema version in ``user_version``; each step
in ``MIGRATIONS`` brings a file one version up inside one transaction. (PostgreSQL has its own
DDL and migration list in ``aids.store.postgres_schema``; the two describe the same rows.)
"""

from __future__ import annotations

APPLICATION_ID = 0x52_4E_41_49  # "RNAI": race-night aids
SCHEMA_VERSION = 6

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup TEXT NOT NULL,
    rules_version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL CHECK (seq > 0),
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    payload TEXT,
    created_at TEXT NOT NULL,
    actor TEXT NOT NULL DEFAULT 'referee',
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""
KEYS = """
CREATE TABLE IF NOT EXISTS keys (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    role TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    PRIMARY KEY (table_id, key_hash)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS keys_live ON keys (table_id, role) WHERE revoked_at IS NULL;
"""

MEETS = """
CREATE TABLE IF NOT EXISTS meets (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    date TEXT NOT NULL,
    created_at TEXT NOT NULL,
    scoring TEXT NOT NULL,
    organiser_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meet_tables (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    meet_id INTEGER NOT NULL REFERENCES meets(id),
    position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS meet_tables_meet ON meet_tables (meet_id, position);
"""

# The live chances of a table's positions, computed once for every tracker on the store: a
# claim (who computes, since when) and, once done, the figures (JSON; NULL if it failed).
FIGURES = """
CREATE TABLE IF NOT EXISTS figures (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    payload TEXT,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""

# An event remembers the organiser keys it replaced (a JSON list of hashes, newest first), so
# an old link is told so and spends nothing.
MEETS_REPLACED = """
ALTER TABLE meets ADD COLUMN replaced TEXT NOT NULL DEFAULT '[]';
"""

# Tables of a meet played on paper: no log of actions, only their result entries (entered,
# corrected, confirmed; the result as JSON, NULL for a confirmation; the photo's SHA-256).
# AUTOINCREMENT: a removed paper table's id is never given to another, so a page that still
# names it cannot write to a newer one.
PAPERS = """
CREATE TABLE IF NOT EXISTS papers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id TEXT NOT NULL UNIQUE,
    meet_id INTEGER NOT NULL REFERENCES meets(id),
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS papers_meet ON papers (meet_id, id);
CREATE TABLE IF NOT EXISTS paper_entries (
    paper_id INTEGER NOT NULL REFERENCES papers(id),
    seq INTEGER NOT NULL CHECK (seq > 0),
    step TEXT NOT NULL CHECK (step IN ('entered', 'corrected', 'confirmed')),
    result TEXT,
    photo TEXT,
    actor TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (paper_id, seq)
) WITHOUT ROWID;
"""

# Release 0.1 files: no application id, schema version 0, the referee key's hash on the table
# row and no actor on events. Each step brings a file one version up, inside one transaction.
MIGRATIONS: dict[int, str] = {
    1: """
ALTER TABLE events ADD COLUMN actor TEXT NOT NULL DEFAULT 'referee';
ALTER TABLE tables ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
"""
    + KEYS
    + """
INSERT INTO keys (table_id, role, key_hash, created_at)
    SELECT id, 'referee', referee_key_hash, created_at FROM tables;
ALTER TABLE tables DROP COLUMN referee_key_hash;
""",
    2: MEETS,  # events of many tables ("meets")
    3: FIGURES,  # live chances computed once per table position
    4: MEETS_REPLACED,  # an event's replaced organiser keys
    5: PAPERS,  # a meet's tables played on paper, with their result logs
}
# What a new file is made of: every step's tables as they are now.
NEW_FILE = SCHEMA + KEYS + MEETS + FIGURES + MEETS_REPLACED + PAPERS
RELEASE_0_1_TABLES = {"tables", "events"}
