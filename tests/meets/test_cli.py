"""``aids meet …`` in a real subprocess against a real SQLite file: create, add, show, set,
print, export and import into another file; a refusal exits 2 with a message."""

from __future__ import annotations

import json
from pathlib import Path

from pypdf import PdfReader

from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.meets.helpers import play_round, sprint_setup
from tests.test_cli import aids


def service_at(db: Path) -> MeetService:
    return MeetService(TableService(SqliteStore(db), engines()))


def test_meet_commands_create_add_show_print_export_and_import(
    tmp_path: Path, with_fake_game: None
) -> None:
    db = tmp_path / "night.sqlite3"
    out = aids("meet", "new", "--title", "Friday", "--date", "2025-03-07", "--points", "5,3,1",
               db=db).stdout  # fmt: skip
    organiser = next(line for line in out.splitlines() if "key=" in line)
    pid = organiser.split("meet=")[1].split("&")[0]
    service = service_at(db)
    assert service.role_for(pid, organiser.split("key=")[1]) == "organiser"
    info, key = service.tables.create("sprint", "Heat", sprint_setup(["Aki", "Ben"]))
    play_round(service.tables, info.public_id, key, [3, 1])
    link = f"http://tracker.test:8501/?table={info.public_id}&key={key}"
    assert "Heat" in aids("meet", "add", pid, link, db=db).stdout

    shown = aids("--lang", "en", "meet", "show", pid, db=db).stdout
    assert "Placing points per table: 5, 3, 1" in shown
    assert "1\tAki\t5\t1\t1\t0" in shown and "2\tBen\t3\t1\t0\t0" in shown
    aids("meet", "set", pid, "--rule", "score", db=db)
    assert "1\tAki\t3\t" in aids("meet", "show", pid, db=db).stdout

    pdfs = aids("meet", "pack", pid, "--out", str(tmp_path), db=db).stdout.split()
    assert [Path(p).name for p in pdfs] == [
        f"event-pack-{pid[:8]}-ja-a4.pdf", f"event-pack-{pid[:8]}-en-a4.pdf"
    ]  # fmt: skip
    assert len(PdfReader(pdfs[1]).pages) == 2  # the table's sheet, then the standings

    aids("meet", "export", pid, "-o", str(tmp_path / "night.json"), db=db)
    other = tmp_path / "other.sqlite3"
    assert pid in aids("meet", "import", str(tmp_path / "night.json"), db=other).stdout
    assert service_at(other).standings(pid) == service.standings(pid)
    listed = aids("meet", "list", db=other).stdout
    assert pid in listed and "Friday" in listed


def test_meet_command_refusals_exit_2_and_change_nothing(
    tmp_path: Path, with_fake_game: None
) -> None:
    db = tmp_path / "night.sqlite3"
    bad = aids("--lang", "en", "meet", "new", "--title", "X", "--date", "2025-02-30", db=db,
               check=False)  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.startswith("meet/date:")
    bad = aids("meet", "new", "--title", "X", "--date", "2025-03-01", "--points", "1,5", db=db,
               check=False)  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.startswith("meet/points_order:")
    assert service_at(db).list_meets() == []
    bad = aids("meet", "add", "A" * 24, "B" * 24, db=db, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("meet/not_found:")
    (tmp_path / "bad.json").write_text(json.dumps({"format": "race-night-aids/meet"}))
    bad = aids("meet", "import", str(tmp_path / "bad.json"), db=db, check=False)
    assert bad.returncode == 2 and "meet/version" in bad.stderr


def test_set_points_alone_never_switches_a_score_event_to_placing(tmp_path: Path) -> None:
    """Issue 26 §6: ``aids meet set --points`` on an event counting each game's score is
    refused, naming ``--rule``; on a placing event it changes the points; with ``--rule
    placing`` it switches, as asked."""
    db = tmp_path / "night.sqlite3"
    out = aids("meet", "new", "--title", "F", "--date", "2025-03-07", "--rule", "score",
               db=db).stdout  # fmt: skip
    pid = next(line for line in out.splitlines() if "key=" in line).split("meet=")[1][:24]
    bad = aids("--lang", "en", "meet", "set", pid, "--points", "5,3,1", db=db, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("meet/points_need_rule:")
    assert "--rule placing" in bad.stderr
    assert service_at(db).info(pid).scoring.rule == "score"
    aids("meet", "set", pid, "--rule", "placing", "--points", "5,3,1", db=db)
    assert service_at(db).info(pid).scoring.rule == "placing"
    aids("meet", "set", pid, "--points", "7,4", db=db)
    scoring = service_at(db).info(pid).scoring
    assert scoring.rule == "placing" and tuple(scoring.points) == (7, 4)
