"""Bad input at the command line and on the page: exit status 2 or a message, nothing stored.

The CLI runs in-process (``aids.cli.main``, the very function the ``aids`` command calls) so
hundreds of cases stay fast; ``tests/test_cli.py`` runs it as a real subprocess too.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from aids.cli import main
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.bad_input.cases import BAD_TEXT, LONG_NAME, LONG_TITLE
from tests.ui.conftest import new_app, open_sections

SURROGATE_ARG = b"\xff".decode("utf-8", "surrogateescape")  # what argv holds for a bad byte


def dump(db: Path) -> str:
    """The data file's tables, keys, logs and events as SQL. The live chances' figures are
    left out: they are a cache of what the log implies, which any reader's page may claim and
    fill for its position (issue 20, once per table), the read-only viewer's too."""
    with sqlite3.connect(db) as conn:
        return "\n".join(s for s in conn.iterdump() if not s.startswith('INSERT INTO "figures"'))


@pytest.fixture
def cli_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, str]:
    db = tmp_path / "cli.sqlite3"
    monkeypatch.setenv("AIDS_DB", str(db))
    monkeypatch.setenv("AIDS_PUBLIC_URL", "http://tracker.test:8501")
    monkeypatch.delenv("AIDS_GAME_PLUGINS", raising=False)
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("derby", "CLI", DerbySetup.default(["Aki", "Ben"]).to_dict())
    service.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    service.store.close()
    return db, info.public_id, key


def cli_case(name: str, argv: list[str], code: str) -> Any:
    return pytest.param(argv, code, id=name)


def bad_cli_cases(tmp: str = "{tmp}", pid: str = "{pid}", key: str = "{key}") -> list[Any]:
    """(argv, code) pairs; {tmp}, {pid} and {key} are filled in by the test."""
    cases = [
        cli_case("export to a missing folder", ["export", pid, "-o", f"{tmp}/no/such/x.json"],
                 "output/file"),
        cli_case("export to a folder", ["export", pid, "-o", tmp], "output/file"),
        cli_case("export unknown table", ["export", "A" * 24], "table/not_found"),
        cli_case("export malformed id", ["export", "../../etc"], "table/not_found"),
        cli_case("export surrogate id", ["export", SURROGATE_ARG * 24], "table/not_found"),
        cli_case("print out is a file", ["print", "derby", "--out", f"{tmp}/file.txt"],
                 "output/folder"),
        cli_case("print base url too long",
                 ["print", "derby", "--out", tmp, "--base-url", "http://x/" + "a" * 3000],
                 "input/url"),
        cli_case("print base url no scheme", ["print", "derby", "--out", tmp, "--base-url",
                                               "tracker:8501"], "input/url"),
        cli_case("print base url ftp", ["print", "derby", "--out", tmp, "--base-url",
                                         "ftp://host/"], "input/url"),
        cli_case("print base url query", ["print", "derby", "--out", tmp, "--base-url",
                                           "http://host/?x=1"], "input/url"),
        cli_case("print base url bad port", ["print", "derby", "--out", tmp, "--base-url",
                                              "http://host:99999"], "input/url"),
        cli_case("print base url unicode", ["print", "derby", "--out", tmp, "--base-url",
                                             "http://ホスト/"], "input/url"),
        cli_case("print base url space", ["print", "derby", "--out", tmp, "--base-url",
                                           "http://ho st/"], "input/url"),
        cli_case("print unknown table", ["print", "derby", "--out", tmp, "--table", "A" * 24],
                 "table/not_found"),
        cli_case("import missing file", ["import", f"{tmp}/missing.json"], "input/file"),
        cli_case("import a folder", ["import", tmp], "input/file"),
        cli_case("import /dev/zero", ["import", "/dev/zero"], "input/not_file"),
        cli_case("import not json", ["import", f"{tmp}/garbage.json"], "input/json"),
        cli_case("import deep json", ["import", f"{tmp}/deep.json"], "input/json_depth"),
        cli_case("import long number", ["import", f"{tmp}/number.json"], "input/json_number"),
        cli_case("record missing file", ["record", pid, f"{tmp}/none.jsonl", "--key", key],
                 "input/file"),
        cli_case("record /dev/zero", ["record", pid, "/dev/zero", "--key", key],
                 "input/not_file"),
        cli_case("record unknown table", ["record", "A" * 24, f"{tmp}/one.jsonl", "--key", key],
                 "table/not_found"),
        cli_case("record wrong key", ["record", pid, f"{tmp}/one.jsonl", "--key", "guess"],
                 "table/forbidden"),
        cli_case("record bad line", ["record", pid, f"{tmp}/bad.jsonl", "--key", key],
                 "input/json"),
        cli_case("record deep line", ["record", pid, f"{tmp}/deep.jsonl", "--key", key],
                 "input/json_depth"),
        cli_case("key rotate unknown table", ["key", "rotate", "A" * 24], "table/not_found"),
        cli_case("key rotate bad role", ["key", "rotate", pid, "--role", "boss"], "table/role"),
        cli_case("key rotate seat of derby", ["key", "rotate", pid, "--role", "seat:0"],
                 "table/no_seat_keys"),
        cli_case("key rotate role unicode digit", ["key", "rotate", pid, "--role", "seat:٣"],
                 "table/role"),
        cli_case("key revoke referee", ["key", "revoke", pid], "table/revoke_referee"),
        cli_case("new one player", ["new", "derby", "--title", "T", "--player", "A"],
                 "derby/setup_player_count"),
        cli_case("new six players", ["new", "derby", "--title", "T"]
                 + [x for n in "ABCDEF" for x in ("--player", n)], "derby/setup_player_count"),
        cli_case("new look-alike players", ["new", "derby", "--title", "T", "--player", "Aki",
                                            "--player", "Ａｋｉ"], "derby/setup_duplicate_player"),
        cli_case("new undecodable player", ["new", "derby", "--title", "T", "--player", "A",
                                            "--player", SURROGATE_ARG], "input/encoding"),
        cli_case("new title too long", ["new", "derby", "--title", LONG_TITLE, "--player", "A",
                                        "--player", "B"], "input/too_long"),
        cli_case("new name too long", ["new", "derby", "--title", "T", "--player", LONG_NAME,
                                       "--player", "B"], "input/too_long"),
    ]  # fmt: skip
    for label, value, code in BAD_TEXT:
        if isinstance(value, str) and "\x00" not in value:  # argv cannot hold NUL
            cases.append(cli_case(f"new title {label}", ["new", "derby", "--title", value,
                                  "--player", "A", "--player", "B"], code))  # fmt: skip
            cases.append(cli_case(f"new player {label}", ["new", "derby", "--title", "T",
                                  "--player", value, "--player", "B"], code))  # fmt: skip
    return cases


CLI_CASES = bad_cli_cases()


def prepare_files(tmp: Path) -> None:
    (tmp / "file.txt").write_text("not a folder")
    (tmp / "garbage.json").write_bytes(b"\x00garbage")
    (tmp / "deep.json").write_text("[" * 50_000 + "]" * 50_000)
    (tmp / "number.json").write_text('{"version": ' + "7" * 6000 + "}")
    (tmp / "one.jsonl").write_text(json.dumps({"type": "play", "player": 0, "horse": 1,
                                               "card": "blue:2"}) + "\n")  # fmt: skip
    (tmp / "bad.jsonl").write_text("{broken\n")
    (tmp / "deep.jsonl").write_text("[" * 100_000 + "\n")


@pytest.mark.parametrize(("argv", "code"), CLI_CASES)
def test_cli_refuses_with_exit_status_2_and_changes_nothing(
    cli_table: tuple[Path, str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    code: str,
) -> None:
    db, pid, key = cli_table
    prepare_files(tmp_path)
    filled = [a.format(tmp=tmp_path, pid=pid, key=key) if "{" in a else a for a in argv]
    before = dump(db)
    assert main(["--lang", "en", *filled]) == 2
    err = capsys.readouterr().err
    assert code in err and "Traceback" not in err
    assert dump(db) == before


def test_cli_refuses_a_bad_environment(
    cli_table: tuple[Path, str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, pid, _ = cli_table
    for variable, value, code in [
        ("AIDS_PUBLIC_URL", "not a url", "input/url"),
        ("AIDS_PUBLIC_URL", "http://" + "h" * 400, "input/url"),
        ("AIDS_PORT", "８５０１", "input/number"),
        ("AIDS_PORT", "70000", "input/number"),
        ("AIDS_GAME_PLUGINS", "no.such.module", "table/plugin"),
        ("AIDS_DB", str(tmp_path), "store/open"),
        ("AIDS_DB", str(tmp_path / "file.txt" / "aids.sqlite3"), "store/open"),
    ]:
        (tmp_path / "file.txt").write_text("x")
        with monkeypatch.context() as env:
            env.setenv(variable, value)
            if variable == "AIDS_PORT":
                env.delenv("AIDS_PUBLIC_URL")
            assert main(["--lang", "en", "print", "derby", "--table", pid, "--out",
                         str(tmp_path / "out")]) == 2, variable  # fmt: skip
        err = capsys.readouterr().err
        assert code in err and "Traceback" not in err, (variable, value, err)
    assert (tmp_path / "out").exists() is False or not any((tmp_path / "out").iterdir())
    assert dump(db)


# --- page ----------------------------------------------------------------------------------

PAGE_URLS: list[tuple[str, dict[str, str]]] = [
    ("unknown table", {"table": "A" * 24}),
    ("short id", {"table": "abc"}),
    ("dash id", {"table": "-" * 24}),
    ("path id", {"table": "../../etc/passwd"}),
    ("long id", {"table": "a" * 5000}),
    ("unicode id", {"table": "表" * 24}),
    ("sql id", {"table": "x' OR '1'='1"}),
    ("empty id", {"table": " "}),
    ("html id", {"table": "<script>alert(1)</script>"}),
]
PAGE_KEYS = ["", " ", "guess", "k" * 5000, "<b>x</b>", "鍵", "%00"]
PAGE_LANGS = ["fr", "", "JA", "<x>", "ja" * 100]


@pytest.mark.parametrize(("label", "params"), PAGE_URLS, ids=[u[0] for u in PAGE_URLS])
def test_page_names_a_link_that_is_no_table(app_db: Path, label: str, params: dict) -> None:
    at = new_app(lang="en", **params)
    assert not at.exception
    assert any("No table with this link" in e.value for e in at.error)


@pytest.fixture
def page_table(app_db: Path) -> tuple[Path, str, str]:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Page", DerbySetup.default(["Aki", "Ben"]).to_dict())
    service.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    return app_db, info.public_id, key


@pytest.mark.parametrize("key", PAGE_KEYS)
def test_page_with_a_bad_key_is_the_read_only_viewer(page_table, key: str) -> None:
    db, pid, _ = page_table
    before = dump(db)
    at = open_sections(new_app(table=pid, key=key, lang="en"))
    assert not at.exception
    assert len(at.button) == 0 and len(at.pills) == 0
    assert not any(d.label.startswith("Export") for d in at.get("download_button"))
    assert dump(db) == before


@pytest.mark.parametrize("lang", PAGE_LANGS)
def test_page_with_an_unknown_language_falls_back_to_japanese(page_table, lang: str) -> None:
    _, pid, _ = page_table
    at = new_app(table=pid, lang=lang)
    assert not at.exception
    assert any("グランドナショナル" in c.value for c in at.caption)


def page_form_cases() -> list[Any]:
    # A browser sends UTF-8: lone surrogates cannot reach the page (the service tests them).
    texts = [
        (label, value, code)
        for label, value, code in BAD_TEXT
        if isinstance(value, str) and value.strip() and code != "input/encoding"
    ]
    cases = [pytest.param(v, ["Aki", "Ben"], c, id=f"title {lb}") for lb, v, c in texts]
    cases += [pytest.param("Night", [v, "Ben"], c, id=f"player {lb}") for lb, v, c in texts]
    cases += [
        pytest.param("Night", ["Aki", "Ａｋｉ"], "Two players have the same name", id="look-alike"),
        pytest.param("Night", ["Aki"], "2–5 players", id="one player"),
    ]  # fmt: skip
    return cases


@pytest.mark.parametrize(("title", "players", "code"), page_form_cases())
def test_page_create_form_refuses_bad_text_and_stores_nothing(
    app_db: Path, title: str, players: list[str], code: str
) -> None:
    at = new_app(lang="en")
    at.text_input(key="new_title").set_value(title)
    for i, name in enumerate(players):
        at.text_input(key=f"new_player_{i}").set_value(name)
    next(b for b in at.button if b.label == "Create table").click()
    at = at.run()
    assert not at.exception
    assert at.error, "a refusal is shown"
    assert "table" not in at.query_params
    assert TableService(SqliteStore(app_db), engines()).list_tables() == []
