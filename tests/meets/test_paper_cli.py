"""``aids meet paper|result|confirm`` and ``aids meet export --csv`` in a real subprocess against
a real SQLite file: a table played on paper added, its result entered and confirmed, the
standings sheet listing it, the CSV files holding it; a refused result exits 2 and changes
nothing (issue 21 §1)."""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path

from pypdf import PdfReader

from aids.print.meet_slips import slip_spec
from tests.meets.test_cli import service_at
from tests.scan.photos import SMALL, marked
from tests.scan.test_meet_slips import photo_of
from tests.test_cli import aids


def paper_night(db: Path, game: str, title: str, players: str) -> tuple[str, str]:
    """An event made with ``aids meet new`` and one paper table added with ``aids meet
    paper``: (event id, paper table id), as the commands print them."""
    out = aids("meet", "new", "--title", "Friday", "--date", "2025-03-07", db=db).stdout
    pid = next(line for line in out.splitlines() if "key=" in line).split("meet=")[1][:24]
    added = aids("--lang", "en", "meet", "paper", pid, "--game", game, "--title", title,
                 "--players", players, db=db).stdout  # fmt: skip
    return pid, added.strip().rsplit("(", 1)[1].rstrip(")")


def test_a_paper_table_from_the_command_line_counts_in_the_standings_sheet_and_csv(
    tmp_path: Path,
) -> None:
    db = tmp_path / "night.sqlite3"
    pid, paper = paper_night(db, "derby", "Table 4", "Aki, Ben, 千恵")
    bad = aids("--lang", "en", "meet", "result", pid, paper, "--places", "1,3,3", db=db,
               check=False)  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.startswith("paper/places:")
    assert service_at(db).paper(pid, paper).entries == ()
    done = aids("--lang", "en", "meet", "result", pid, paper, "--places", "2，1，3",
                "--confirm", db=db).stdout  # fmt: skip
    assert "won by Ben" in done and "confirmed" in done
    status = service_at(db).paper(pid, paper)
    assert [(e.step, e.by) for e in status.entries] == [("entered", "host"), ("confirmed", "host")]

    shown = aids("--lang", "en", "meet", "show", pid, db=db).stdout
    assert "1\tBen\t10\t1\t1\t0" in shown and "Played on paper" in shown

    pdfs = aids("--lang", "en", "meet", "sheet", pid, "--sheet-lang", "en", "--out",
                str(tmp_path), db=db).stdout.split()  # fmt: skip
    text = PdfReader(pdfs[0]).pages[0].extract_text()
    assert "Table 4" in text and "Played on paper" in text

    results = aids("--lang", "en", "meet", "export", pid, "--csv", "results", db=db).stdout
    rows = list(csv.reader(io.StringIO(results.lstrip("\ufeff"))))
    assert [r[7] for r in rows[1:]] == ["Aki", "Ben", "千恵"]
    assert [r[4] for r in rows[1:]] == ["on paper"] * 3 and [r[10] for r in rows[1:]] == [
        "6", "10", "4"
    ]  # fmt: skip
    target = tmp_path / "standings.csv"
    aids("meet", "export", pid, "--csv", "standings", "-o", str(target), db=db)
    assert target.read_bytes().startswith("\ufeff".encode())


def test_slips_print_and_a_photo_scanned_from_the_command_line_is_recorded_confirmed(
    tmp_path: Path,
) -> None:
    """``aids meet slips`` prints each paper table's slip; ``aids meet scan`` shows what a
    photo says and, given ``--confirm``, records a result read in full with the photo's hash;
    a photo with a flagged field records nothing and exits 2."""
    db = tmp_path / "night.sqlite3"
    pid, paper = paper_night(db, "rally", "T5", "Aki,Ben,Chie")
    pdfs = aids("meet", "slips", pid, "--sheet-lang", "ja", "--out", str(tmp_path),
                db=db).stdout.split()  # fmt: skip
    assert len(pdfs) == 1 and len(PdfReader(pdfs[0]).pages) == 1
    service = service_at(db)
    spec = slip_spec(service.info(pid), service.paper(pid, paper), "en")
    good, half = tmp_path / "good.jpg", tmp_path / "half.jpg"
    good.write_bytes(photo_of(spec, [3, 1, 2], [[], [], []]))
    half.write_bytes(marked(spec, {(0, None, None): ((1, "fill"),)}, seed=2, size=SMALL))
    shown = aids("--lang", "en", "meet", "scan", pid, str(good), db=db).stdout
    assert "Place: 3,1,2" in shown and service_at(db).paper(pid, paper).entries == ()
    bad = aids("--lang", "en", "meet", "scan", pid, str(half), "--confirm", db=db, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("meet/scan_none_recorded:")
    assert "Ben: Place — nothing marked" in bad.stdout and "a field is flagged" in bad.stdout
    assert service_at(db).paper(pid, paper).entries == ()
    aids("--lang", "en", "meet", "scan", pid, str(good), "--confirm", db=db)
    done = service_at(db).paper(pid, paper)
    assert done.confirmed and done.places() == (3, 1, 2)
    assert done.entries[0].photo == hashlib.sha256(good.read_bytes()).hexdigest()


def test_a_stored_result_a_rule_refuses_never_breaks_show_csv_or_sheet_and_is_removed(
    tmp_path: Path,
) -> None:
    """Issue 26 §1: a Derby result of 20 + 20 points stored before the points check made
    ``show``, ``export --csv`` and ``sheet`` exit 2; now the table needs a look, and the
    organiser removes it from the command line. ``list`` counts paper tables (§6)."""
    from aids.meets import Scoring
    from tests.meets.test_papers import stored_as_is

    db = tmp_path / "night.sqlite3"
    pid, paper = paper_night(db, "derby", "Table 4", "Aki, Ben")
    service = service_at(db)
    service.update(pid, None, scoring=Scoring("score"), host=True)
    stored_as_is(service, (pid, ""), service.paper(pid, paper),
                 {"places": [1, 1], "points": [20, 20]})  # fmt: skip
    shown = aids("--lang", "en", "meet", "show", pid, db=db).stdout
    assert "needs a look" in shown and "Stored: places 1, 1 · points 20, 20" in shown
    assert "left out of the standings" in shown and "aids meet remove" in shown
    results = aids("--lang", "en", "meet", "export", pid, "--csv", "results", db=db).stdout
    assert "needs a look" in results
    pdfs = aids("--lang", "en", "meet", "sheet", pid, "--sheet-lang", "en", "--out",
                str(tmp_path), db=db).stdout.split()  # fmt: skip
    text = PdfReader(pdfs[0]).pages[0].extract_text()
    assert "needs a look" in text and "Points rule" in text
    listed = aids("--lang", "en", "meet", "list", db=db).stdout
    assert "1 table" in listed and "0 tables" not in listed
    removed = aids("--lang", "en", "meet", "remove", pid, paper, db=db).stdout
    assert "Paper table removed" in removed and service_at(db).papers_of(pid) == []


def test_scan_confirm_checks_every_photo_first_and_records_all_or_none(tmp_path: Path) -> None:
    """Issue 26 §2: a second photo breaking the game's rules (places 2, 2) used to leave the
    first table recorded and exit 2; the same photo given twice recorded it once and then
    failed ``paper/stale``. Now each photo says what happened, and all are recorded or none."""
    db = tmp_path / "night.sqlite3"
    pid, one = paper_night(db, "rally", "T1", "Aki,Ben")
    added = aids("--lang", "en", "meet", "paper", pid, "--game", "rally", "--title", "T2",
                 "--players", "Chie,Dai", db=db).stdout  # fmt: skip
    two = added.strip().rsplit("(", 1)[1].rstrip(")")
    service = service_at(db)
    info = service.info(pid)
    first, bad, second = tmp_path / "one.jpg", tmp_path / "bad.jpg", tmp_path / "two.jpg"
    first.write_bytes(photo_of(slip_spec(info, service.paper(pid, one), "en"), [2, 1], [[], []]))
    spec_two = slip_spec(info, service.paper(pid, two), "en")
    bad.write_bytes(photo_of(spec_two, [2, 2], [[], []], seed=3))
    second.write_bytes(photo_of(spec_two, [1, 2], [[], []], seed=4))

    refused = aids("--lang", "en", "meet", "scan", pid, str(first), str(bad), "--confirm",
                   db=db, check=False)  # fmt: skip
    assert refused.returncode == 2 and refused.stderr.startswith("meet/scan_none_recorded:")
    assert "1 of 2 photos" in refused.stderr
    assert "cannot be recorded: paper/places:" in refused.stdout  # said of the bad photo alone
    assert refused.stdout.count("cannot be recorded") == 1
    assert [service_at(db).paper(pid, p).entries for p in (one, two)] == [(), ()]

    twice = aids("--lang", "en", "meet", "scan", pid, str(first), str(first), "--confirm",
                 db=db, check=False)  # fmt: skip
    assert twice.returncode == 2 and "a second photo of this table" in twice.stdout
    assert service_at(db).paper(pid, one).entries == ()

    done = aids("--lang", "en", "meet", "scan", pid, str(first), str(second), "--confirm", db=db)
    assert done.stdout.count("confirmed") == 2
    assert [service_at(db).paper(pid, p).places() for p in (one, two)] == [(2, 1), (1, 2)]
    again = aids("--lang", "en", "meet", "scan", pid, str(first), "--confirm", db=db, check=False)
    assert again.returncode == 2 and "scan/confirmed" in again.stdout  # nothing twice


def test_a_stored_row_no_json_reader_takes_needs_a_look_and_is_removed(tmp_path: Path) -> None:
    """Issue 26 §1 (found in review): a data file edited by hand (a result that is no JSON,
    or a number past Python's 4,300 digits) took every page and command of the event down."""
    import sqlite3

    db = tmp_path / "night.sqlite3"
    pid, paper = paper_night(db, "derby", "Table 4", "Aki, Ben")
    aids("meet", "result", pid, paper, "--places", "1,2", db=db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE paper_entries SET result = ?",
                     ('{"places": [' + "1" * 5000 + ", 1]}",))  # fmt: skip
    shown = aids("--lang", "en", "meet", "show", pid, db=db).stdout
    assert "needs a look" in shown and "Stored: unreadable data" in shown
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE paper_entries SET result = ?", ("{not json",))
    assert "needs a look" in aids("--lang", "ja", "meet", "show", pid, db=db).stdout.replace(
        "要確認", "needs a look"
    )
    aids("meet", "result", pid, paper, "--places", "2,1", db=db)  # corrected
    assert service_at(db).paper(pid, paper).places() == (2, 1)
    aids("meet", "remove", pid, paper, db=db)
    assert service_at(db).papers_of(pid) == []
