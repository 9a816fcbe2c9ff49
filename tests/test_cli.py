"""The ``aids`` command in a real subprocess, against a real SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from aids.games.base import REFEREE, Role
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.conftest import FAKE_PLUGIN

ROOT = Path(__file__).resolve().parents[1]


def aids(
    *args: str, db: Path, check: bool = True, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        AIDS_DB=str(db),
        AIDS_PUBLIC_URL="http://tracker.test:8501",
        AIDS_GAME_PLUGINS=FAKE_PLUGIN,  # the fake game too: the CLI lists games from the registry
    )
    return subprocess.run(
        [sys.executable, "-m", "aids.cli", *args],
        capture_output=True, text=True, env=env, check=check, input=stdin, cwd=ROOT,
    )  # fmt: skip


def links(out: str) -> tuple[str, str]:
    """(public id, key) from the referee link ``aids new``/``aids key rotate`` prints."""
    line = next(line for line in out.splitlines() if "key=" in line)
    query = line.split("?", 1)[1]
    params = dict(part.split("=", 1) for part in query.split("&"))
    return params["table"], params["key"]


def test_print_blank_sheets_in_both_languages(tmp_path: Path) -> None:
    out = aids("print", "derby", "--out", str(tmp_path), db=tmp_path / "a.sqlite3")
    files = [Path(line) for line in out.stdout.split()]
    assert sorted(f.name for f in files) == [
        "derby-sheet-blank-en-a4.pdf",
        "derby-sheet-blank-ja-a4.pdf",
    ]
    assert (
        "第1柵"
        in PdfReader(files[1] if "ja" in files[1].name else files[0]).pages[0].extract_text()
    )


def test_new_export_import_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    out = aids("--lang", "en", "new", "derby", "--title", "CLI", "--player", "Aki",
               "--player", "Ben", db=db).stdout  # fmt: skip
    referee = next(line for line in out.splitlines() if "key=" in line)
    public_id = referee.split("table=")[1].split("&")[0]
    exported = tmp_path / "t.json"
    aids("export", public_id, "-o", str(exported), db=db)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["table"]["public_id"] == public_id and data["table"]["title"] == "CLI"

    # an import never overwrites: the same file into the same store is refused
    again = aids("--lang", "en", "import", str(exported), db=db, check=False)
    assert again.returncode == 2 and "already exists" in again.stderr
    fresh = aids("import", str(exported), db=tmp_path / "b.sqlite3")
    assert public_id in fresh.stdout

    out = aids("print", "derby", "--table", public_id, "--sheet-lang", "en", "--out",
               str(tmp_path), db=db).stdout  # fmt: skip
    assert "Aki" in PdfReader(out.strip()).pages[0].extract_text()


@pytest.mark.parametrize(
    ("content", "lang", "expect"),
    [
        ("{not json", "en", "not valid JSON"),
        ('{"format": "race-night-aids/table", "version": 1}', "ja", "「table」"),
    ],
)
def test_import_of_damaged_file_is_refused_clearly(
    tmp_path: Path, content: str, lang: str, expect: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = aids("--lang", lang, "import", str(bad), db=tmp_path / "a.sqlite3", check=False)
    assert result.returncode == 2
    assert expect in result.stderr


def test_new_lists_every_registered_game(tmp_path: Path, with_fake_game: None) -> None:
    db = tmp_path / "a.sqlite3"
    out = aids("--lang", "en", "new", "sprint", "--title", "Fake", "--player", "Aki",
               "--player", "Ben", db=db).stdout  # fmt: skip
    pid, key = links(out)
    service = TableService(SqliteStore(db), engines())
    assert service.snapshot(pid).info.kind == "sprint" and service.role_for(pid, key) == REFEREE
    bad = aids("--lang", "en", "new", "chess", "--title", "x", "--player", "A", db=db, check=False)
    assert bad.returncode == 2 and "derby" in bad.stderr and "sprint" in bad.stderr


def test_key_rotate_reissues_the_referee_link_and_the_old_one_stops(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    pid, old = links(aids("new", "derby", "--title", "T", "--player", "A", "--player", "B",
                          db=db).stdout)  # fmt: skip
    out = aids("--lang", "en", "key", "rotate", pid, db=db).stdout
    assert out.startswith("Referee link")
    pid_again, new = links(out)
    service = TableService(SqliteStore(db), engines())
    assert pid_again == pid and service.role_for(pid, new) == REFEREE
    assert service.role_for(pid, old).is_viewer
    listed = aids("key", "list", pid, db=db).stdout.splitlines()
    assert [line.split("\t")[0] for line in listed] == ["referee", "referee"]
    refused = aids("--lang", "en", "key", "revoke", pid, db=db, check=False)
    assert refused.returncode == 2 and "table/revoke_referee" in refused.stderr


def test_key_rotate_and_revoke_a_seat_link(tmp_path: Path, with_fake_game: None) -> None:
    db = tmp_path / "a.sqlite3"
    pid, _ = links(aids("new", "sprint", "--title", "T", "--player", "A", "--player", "B",
                        db=db).stdout)  # fmt: skip
    _, seat = links(aids("key", "rotate", pid, "--role", "seat:1", db=db).stdout)
    service = TableService(SqliteStore(db), engines())
    assert service.role_for(pid, seat) == Role.seat_of(1)
    aids("key", "revoke", pid, "--role", "seat:1", db=db)
    assert service.role_for(pid, seat).is_viewer
    bad = aids("--lang", "en", "key", "rotate", pid, "--role", "seat:9", db=db, check=False)
    assert bad.returncode == 2 and "table/role" in bad.stderr


def test_record_applies_lines_until_the_first_refused_one(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    pid, key = links(aids("new", "derby", "--title", "T", "--player", "A", "--player", "B",
                          db=db).stdout)  # fmt: skip
    lines = [
        {"type": "bet", "player": 0, "horse": 2},
        {"type": "play", "player": 0, "horse": 2, "card": "green:5"},
        {"type": "play", "player": 1, "horse": 2, "card": "green:5"},  # already played: refused
        {"type": "play", "player": 1, "horse": 0, "card": "red:1"},  # never reached
    ]
    script = tmp_path / "night.jsonl"
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = aids("--lang", "en", "record", pid, str(script), "--key", key, db=db, check=False)
    assert result.returncode == 2
    assert "Line 3" in result.stderr and "derby/card_already_played" in result.stderr
    service = TableService(SqliteStore(db), engines())
    assert [e.action.to_dict() for e in service.snapshot(pid).log] == lines[:2]
    ok = aids("--lang", "en", "record", pid, "-", "--key", key, db=db, stdin=json.dumps(lines[3]))
    assert "Recorded 1 action(s)" in ok.stdout and service.snapshot(pid).seq == 3


def test_record_with_a_viewer_key_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    pid, _ = links(aids("new", "derby", "--title", "T", "--player", "A", "--player", "B",
                        db=db).stdout)  # fmt: skip
    line = json.dumps({"type": "bet", "player": 0, "horse": 2})
    result = aids("--lang", "en", "record", pid, "-", "--key", "guess", db=db, stdin=line,
                  check=False)  # fmt: skip
    assert result.returncode == 2 and "table/forbidden" in result.stderr
    assert TableService(SqliteStore(db), engines()).snapshot(pid).seq == 0


def test_print_a_fake_game_sheet_through_the_print_frame(tmp_path: Path) -> None:
    out = aids("print", "sprint", "--sheet-lang", "en", "--out", str(tmp_path),
               db=tmp_path / "a.sqlite3").stdout  # fmt: skip
    text = PdfReader(out.strip()).pages[0].extract_text()
    assert "Sealed Sprint" in text and "Two seats with the same speed" in text


def test_serve_is_stopped_by_sigterm_and_the_cli_prints_its_real_port(tmp_path: Path) -> None:
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "serve.sqlite3"
    env = dict(os.environ, AIDS_DB=str(db))
    env.pop("AIDS_PUBLIC_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "aids.cli", "serve", "--port", str(port), "--address",
         "127.0.0.1"], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health") as r:
                    if r.status == 200:
                        break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "no tracker"
                time.sleep(0.3)
        plain = {k: v for k, v in env.items() if k != "AIDS_PUBLIC_URL"}
        out = subprocess.run(
            [sys.executable, "-m", "aids.cli", "--lang", "en", "new", "derby", "--title", "T",
             "--player", "A", "--player", "B"], env=plain, cwd=ROOT, capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        assert f":{port}/live/" in out.stdout and "a guess" not in out.stderr
        server.send_signal(signal.SIGTERM)  # as a service manager stops it
        assert server.wait(timeout=20) is not None
        with socket.socket() as again:  # nothing is left listening on the port
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as a server would
            again.bind(("127.0.0.1", port))
            again.listen()
    finally:
        if server.poll() is None:
            server.kill()


def test_cli_warns_when_it_has_to_guess_the_trackers_address(tmp_path: Path) -> None:
    env = dict(os.environ, AIDS_DB=str(tmp_path / "a.sqlite3"), AIDS_PORT="8611")
    env.pop("AIDS_PUBLIC_URL", None)
    out = subprocess.run(
        [sys.executable, "-m", "aids.cli", "--lang", "en", "new", "derby", "--title", "T",
         "--player", "A", "--player", "B"], env=env, cwd=ROOT, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    assert ":8611/live/" in out.stdout
    assert "a guess" in out.stderr and "AIDS_PUBLIC_URL" in out.stderr


def test_a_whole_relay_replays_from_a_file_with_aids_record(tmp_path: Path) -> None:
    import random

    from aids.games.ekiden import GAME as EKIDEN
    from aids.games.ekiden import engine as ekiden

    db = tmp_path / "a.sqlite3"
    pid, key = links(aids("new", "ekiden", "--title", "Relay", "--player", "Aki", "--player",
                          "Ben", "--player", "Chie", db=db).stdout)  # fmt: skip
    service = TableService(SqliteStore(db), engines())
    state = service.snapshot(pid).state
    rng = random.Random(11)
    lines = []
    while state.phase != "over":
        action = rng.choice(ekiden.legal_actions(state))
        lines.append(json.dumps(EKIDEN.action_to_dict(action)))
        state = ekiden.apply(state, action)
    script = tmp_path / "relay.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = aids("--lang", "en", "record", pid, str(script), "--key", key, db=db)
    assert f"Recorded {len(lines)} action(s)" in out.stdout
    service = TableService(SqliteStore(db), engines())
    assert service.replay(pid) == state and service.snapshot(pid).outcome is not None


@pytest.mark.parametrize(
    "content",
    ['{"pid": 1' + "0" * 30 + ', "port": 8600}', '{"pid": 1, "port": 99999}', "[]", "\x00", "{"],
)
def test_a_damaged_tracker_file_is_ignored_not_a_crash(tmp_path: Path, content: str) -> None:
    (tmp_path / "tracker.json").write_text(content)
    env = dict(os.environ, AIDS_DB=str(tmp_path / "a.sqlite3"), AIDS_PORT="8611")
    env.pop("AIDS_PUBLIC_URL", None)
    out = subprocess.run(
        [sys.executable, "-m", "aids.cli", "--lang", "en", "new", "derby", "--title", "T",
         "--player", "A", "--player", "B"], env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert ":8611/live/" in out.stdout and ":99999" not in out.stdout


def test_a_whole_rally_replays_from_a_file_with_aids_record(tmp_path: Path) -> None:
    """Tokyo → Sapporo, the sample map's first course: every car drives the proposed town
    nearest the goal with its longest movement, and takes the ferry at Aomori."""
    from aids.games.base import Role
    from aids.games.rally import GAME as RALLY
    from aids.games.rally import engine as rally
    from aids.games.rally.model import Ferry, Travel

    db = tmp_path / "a.sqlite3"
    pid, key = links(aids("new", "rally", "--title", "Rally", "--player", "Aki", "--player",
                          "Ben", "--player", "Chie", db=db).stdout)  # fmt: skip
    service = TableService(SqliteStore(db), engines())
    state = service.snapshot(pid).state
    lines = []
    while not RALLY.is_over(state) and len(lines) < 2000:
        options = RALLY.legal_actions(state, Role.seat_of(state.turn))
        here = rally.to_goal(state, state.towns[state.turn])
        ferry = [a for a in options if isinstance(a, Ferry) and rally.to_goal(state, a.to) < here]
        moves = [a for a in options if isinstance(a, Travel)]
        if ferry:
            action = ferry[0]
        elif moves:
            action = min(moves, key=lambda a: (rally.to_goal(state, a.to), -len(a.cards)))
        else:
            action = options[-1]  # the draw, or the end of the turn
        lines.append(json.dumps(RALLY.action_to_dict(action)))
        state = RALLY.apply(state, action, Role.seat_of(state.turn))
    assert state.arrived and len(lines) > 50
    script = tmp_path / "rally.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = aids("--lang", "en", "record", pid, str(script), "--key", key, db=db)
    assert f"Recorded {len(lines)} action(s)" in out.stdout
    service = TableService(SqliteStore(db), engines())
    assert service.replay(pid) == state and service.snapshot(pid).outcome is not None


def test_the_rally_script_in_the_docs_records_as_written(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "actions.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Japan Rally") :]
    block = section[
        section.index("```jsonl") + 8 : section.index("```", section.index("```jsonl") + 8)
    ]
    db = tmp_path / "a.sqlite3"
    service = TableService(SqliteStore(db), engines())
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in (("Aki", "red"), ("Ben", "blue"))]  # fmt: skip
    info, key = service.create(
        "rally", "Docs", {"players": players, "course": {"start": "koriyama", "goal": "aomori"}}
    )
    service.store.close()
    script = tmp_path / "docs.jsonl"
    script.write_text(block.strip() + "\n", encoding="utf-8")
    aids("--lang", "en", "record", info.public_id, str(script), "--key", key, db=db)
    state = TableService(SqliteStore(db), engines()).snapshot(info.public_id).state
    assert state.towns == ("fukushima-nishi", "nihonmatsu") and state.rain == (False, True)


def test_a_whole_grand_national_replays_from_a_file_with_aids_record(tmp_path: Path) -> None:
    """Blind bets from each seat's own link, then the referee's whole race from a file."""
    from aids.games.base import CHANCE, REFEREE, Role
    from aids.games.grand_national import GAME as GN
    from aids.games.grand_national import engine as gn
    from aids.games.grand_national.model import Boxed, Card, Move, PullUp

    db = tmp_path / "a.sqlite3"
    pid, key = links(aids("new", "gn", "--title", "Aintree", "--player", "Aki", "--player",
                          "Ben", db=db).stdout)  # fmt: skip
    service = TableService(SqliteStore(db), engines())
    for seat in range(2):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        bet = {"type": "blind_bet", "seat": seat, "horse": seat, "kind": "win", "stake": 1000}
        service.record(pid, own, service.snapshot(pid).seq, bet)
    state = service.replay(pid)
    lines = []
    while not GN.is_over(state):
        actor = sorted(GN.to_move(state))[0]
        options = GN.legal_actions(state, actor)
        moves = [a for a in options if isinstance(a, Move) and a.lane == state.lane[a.horse]]
        if moves:  # every horse runs straight, 4 speed points a turn, to last the distance
            action = min(moves, key=lambda a: abs(a.forward - state.handicap[a.horse] - 4))
        else:
            others = [a for a in options if not isinstance(a, Boxed | Card | PullUp)]
            action = others[0]
        lines.append(json.dumps(GN.action_to_dict(action)))
        state = GN.apply(state, action, REFEREE if actor == CHANCE else actor)
    assert len(state.placed) == 4 and state.settled
    script = tmp_path / "gn.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = aids("--lang", "en", "record", pid, str(script), "--key", key, db=db)
    assert f"Recorded {len(lines)} action(s)" in out.stdout
    final = TableService(SqliteStore(db), engines())
    assert final.replay(pid) == state and final.snapshot(pid).outcome is not None
    assert gn.balance(state.ledger, -2) == 0


def test_aids_print_gn_with_seat_links_puts_each_new_private_link_on_its_page(
    tmp_path: Path,
) -> None:
    import pypdfium2 as pdfium
    import zxingcpp

    from aids.games.base import Role

    db = tmp_path / "a.sqlite3"
    pid, key = links(aids("new", "gn", "--title", "Aintree", "--player", "Aki", "--player",
                          "Ben", db=db).stdout)  # fmt: skip
    service = TableService(SqliteStore(db), engines())
    old = service.rotate_key(pid, key, Role.seat_of(0))
    service.store.close()
    out = aids("--lang", "en", "print", "gn", "--table", pid, "--seat-links", "--sheet-lang",
               "en", "--out", str(tmp_path), db=db)  # fmt: skip
    assert "2 new private seat links" in out.stderr
    pdf = Path(out.stdout.strip().splitlines()[-1]).read_bytes()
    document = pdfium.PdfDocument(pdf)
    found = []
    for page in (0, 1):  # one stable page each
        image = document[page].render(scale=200 / 72).to_pil()
        found.append({r.text for r in zxingcpp.read_barcodes(image)})
    document.close()
    service = TableService(SqliteStore(db), engines())
    assert service.role_for(pid, old).is_viewer  # the old link stopped
    for seat, texts in enumerate(found):
        private = [t_ for t_ in texts if "key=" in t_]
        assert len(private) == 1
        seat_key = private[0].split("key=")[1].split("&")[0]
        assert service.role_for(pid, seat_key) == Role.seat_of(seat)


def test_seat_links_are_refused_for_a_blank_sheet(tmp_path: Path) -> None:
    out = aids("--lang", "en", "print", "gn", "--seat-links", db=tmp_path / "a.sqlite3",
               check=False)  # fmt: skip
    assert out.returncode == 2 and "table/seat_links" in out.stderr


def test_aids_cards_and_aids_pack_write_their_pdfs(tmp_path: Path) -> None:
    from pypdf import PdfReader

    db = tmp_path / "a.sqlite3"
    pid, _ = links(aids("new", "gn", "--title", "Aintree", "--player", "Aki", "--player",
                        "Ben", db=db).stdout)  # fmt: skip
    out = aids("cards", "gn", "--out", str(tmp_path), db=db)
    cards_pdf = Path(out.stdout.strip())
    assert cards_pdf.name == "gn-cards-both.pdf" and cards_pdf.read_bytes().startswith(b"%PDF")
    out = aids("cards", "gn", "--format", "summary", "--sheet-lang", "ja", "--out",
               str(tmp_path), db=db)  # fmt: skip
    assert len(PdfReader(Path(out.stdout.strip())).pages) == 1
    out = aids("pack", "gn", "--table", pid, "--paper", "a3", "--out", str(tmp_path), db=db)
    pack = PdfReader(Path(out.stdout.strip()))
    sizes = {tuple(round(float(v)) for v in page.mediabox[2:]) for page in pack.pages}
    assert (842, 1191) in sizes and (595, 842) in sizes  # A3 sheets, A4 cards
    assert "key=" not in "".join(page.extract_text() for page in pack.pages)


def test_duplex_needs_both_languages_and_marks_the_file(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    out = aids("--lang", "en", "cards", "ekiden", "--duplex", "--sheet-lang", "en", "--out",
               str(tmp_path), db=db, check=False)  # fmt: skip
    assert out.returncode == 2 and "output/duplex" in out.stderr
    assert "--sheet-lang both" in out.stderr  # the message says what to do
    assert not list(tmp_path.glob("*.pdf"))
    out = aids("pack", "ekiden", "--duplex", "--out", str(tmp_path), db=db)
    assert Path(out.stdout.strip()).name == "ekiden-pack-blank-duplex-both-a4.pdf"


def test_aids_report_writes_a_tables_report_and_needs_the_table(tmp_path: Path) -> None:
    from pypdf import PdfReader

    db = tmp_path / "a.sqlite3"
    pid, _ = links(aids("new", "derby", "--title", "Friday", "--player", "Aki", "--player",
                        "Ben", db=db).stdout)  # fmt: skip
    out = aids("report", "derby", "--table", pid, "--sheet-lang", "en", "--out", str(tmp_path),
               db=db)  # fmt: skip
    path = Path(out.stdout.strip())
    assert path.name == f"derby-report-{pid[:8]}-en-a4.pdf"
    text = "".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Post-game report" in text and "not over yet" in text
    refused = aids("--lang", "en", "report", "derby", "--out", str(tmp_path), db=db, check=False)
    assert refused.returncode == 2 and "report/needs_table" in refused.stderr


def test_the_tracker_refuses_an_upload_larger_than_the_slip_reader_takes() -> None:
    """Issue 26 §3: Streamlit's upload limit (200 MB by default) is the reader's, both when
    started by ``aids serve`` and by ``streamlit run`` from the checkout, so a bigger upload
    is refused while it streams, not read into memory first."""
    import tomllib

    from aids.cli.serve import streamlit_command
    from aids.core.inputs import MAX_PHOTO_BYTES, MAX_PHOTO_MB

    command = streamlit_command(8501, "0.0.0.0")
    assert command[command.index("--server.maxUploadSize") + 1] == str(MAX_PHOTO_MB)
    with open(ROOT / ".streamlit" / "config.toml", "rb") as fh:
        assert tomllib.load(fh)["server"]["maxUploadSize"] == MAX_PHOTO_MB
    assert MAX_PHOTO_BYTES == MAX_PHOTO_MB * 1024 * 1024
