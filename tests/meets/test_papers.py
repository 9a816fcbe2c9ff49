"""Tables played on paper in an event (issue 21 §1): added like a table, their result entered
as the game's outcome, counted in the standings and the exports as a finished tracked table
is, marked "paper", with a log of who entered, corrected and confirmed it. Every test runs on
the SQLite file and on PostgreSQL (``tests/meets/conftest.py``)."""

from __future__ import annotations

import copy
import csv
import hashlib
import io

import pytest

from aids.core.errors import AidsError, Forbidden, StaleState
from aids.core.i18n import t
from aids.meets import MeetService, Scoring
from aids.meets.papers import PaperStatus
from aids.meets.spreadsheet import results_csv, standings_csv

NAMES = ["Aki", "Ben", "Chie"]


def add_paper(meets: MeetService, meet: tuple[str, str], kind: str = "derby",
              names: list[str] = NAMES) -> PaperStatus:  # fmt: skip
    game = meets.tables.game(kind)
    setup = game.setup_to_dict(game.default_setup(names, "en"))
    return meets.new_paper(meet[0], meet[1], kind, f"{kind} on paper", setup)


def test_a_paper_table_counts_once_its_result_is_entered(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    assert paper.seats == tuple(NAMES) and not paper.finished
    standing = {s.name: s for s in meets.standings(meet[0])}
    assert standing["Aki"].in_play == 1 and standing["Aki"].played == 0
    entered = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [2, 1, 3]},
                                 expected_seq=0)  # fmt: skip
    assert entered.finished and not entered.confirmed and entered.leaders == ("Ben",)
    standing = {s.name: s for s in meets.standings(meet[0])}
    assert (standing["Ben"].rank, standing["Ben"].points, standing["Ben"].wins) == (1, 10, 1)
    assert standing["Aki"].points == 6 and standing["Chie"].points == 4
    assert "paper" in entered.line("en").lower()


def test_entering_correcting_and_confirming_are_logged_with_who_and_the_photo(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    photo = hashlib.sha256(b"a phone photo").hexdigest()
    meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]},
                       expected_seq=0, photo=photo)  # fmt: skip
    meets.enter_result(meet[0], None, paper.public_id, {"places": [1, 1, 3]},
                       expected_seq=1, host=True)  # fmt: skip
    done = meets.confirm_result(meet[0], meet[1], paper.public_id, expected_seq=2)
    steps = [(e.seq, e.step, e.by, e.photo) for e in done.entries]
    assert steps == [(1, "entered", "organiser", photo), (2, "corrected", "host", None),
                     (3, "confirmed", "organiser", None)]  # fmt: skip
    assert done.confirmed and done.places() == (1, 1, 3)
    with pytest.raises(AidsError) as again:
        meets.confirm_result(meet[0], meet[1], paper.public_id, expected_seq=3)
    assert again.value.code == "paper/nothing_to_confirm"


def test_a_result_entered_with_its_confirmation_is_one_write(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    done = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [3, 2, 1]},
                              expected_seq=0, confirm=True)  # fmt: skip
    assert [e.step for e in done.entries] == ["entered", "confirmed"] and done.confirmed


def test_a_refused_result_changes_nothing_and_names_its_field(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    for bad, code, field in (
        ({"places": [1, 3, 3]}, "paper/places", None),
        ({"places": [1, 2, 9]}, "input/number", "places[2]"),
        ({"places": [1, 2]}, "paper/count", None),
        ("1,2,3", "paper/shape", None),
    ):
        with pytest.raises(AidsError) as refused:
            meets.enter_result(meet[0], meet[1], paper.public_id, bad, expected_seq=0)
        assert refused.value.code == code
        assert field is None or str(refused.value.params["field"]) == field
    with pytest.raises(AidsError) as photo:
        meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]},
                           expected_seq=0, photo="not-a-hash")  # fmt: skip
    assert photo.value.code == "paper/photo"
    assert meets.paper(meet[0], paper.public_id).entries == ()


def test_only_the_organiser_writes_and_a_stale_write_is_refused(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    with pytest.raises(Forbidden):
        meets.enter_result(meet[0], "wrong", paper.public_id, {"places": [1, 2, 3]},
                           expected_seq=0)  # fmt: skip
    with pytest.raises(Forbidden):
        add_paper(meets, (meet[0], "wrong"))
    meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]}, expected_seq=0)
    with pytest.raises(StaleState) as stale:  # a second organiser tab that had not seen it
        meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [3, 2, 1]},
                           expected_seq=0)  # fmt: skip
    assert stale.value.code == "paper/stale"
    assert meets.paper(meet[0], paper.public_id).places() == (1, 2, 3)


def test_under_the_score_rule_a_result_asks_the_games_numbers(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    placed = add_paper(meets, meet)
    meets.enter_result(meet[0], meet[1], placed.public_id, {"places": [1, 2, 3]}, expected_seq=0)
    meets.update(meet[0], meet[1], scoring=Scoring("score"))
    waiting = meets.paper(meet[0], placed.public_id)
    assert waiting.needs_numbers and not waiting.finished  # never counted as zero points
    assert {s.name: s.in_play for s in meets.standings(meet[0])}["Aki"] == 1
    assert [f.key for f in waiting.form.fields] == ["points"]
    meets.enter_result(meet[0], meet[1], placed.public_id,
                       {"places": [1, 2, 3], "points": [12, 7, 2]}, expected_seq=1)  # fmt: skip
    points = {s.name: s.points for s in meets.standings(meet[0])}
    assert points == {"Aki": 12, "Ben": 7, "Chie": 2}


def test_grand_national_money_counts_net_of_the_start_cash(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    meets.update(meet[0], meet[1], scoring=Scoring("score"))
    paper = add_paper(meets, meet, "gn", ["Aki", "Ben"])
    meets.enter_result(meet[0], meet[1], paper.public_id,
                       {"places": [2, 1], "money": [200000, 310000], "prize": [150, 250]},
                       expected_seq=0)  # fmt: skip
    points = {s.name: s.points for s in meets.standings(meet[0])}
    assert points == {"Ben": 60000, "Aki": -50000}


def test_a_paper_table_counts_against_the_events_tables_and_can_be_removed(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet)
    assert [p.public_id for p in meets.papers_of(meet[0])] == [paper.public_id]
    meets.remove_paper(meet[0], meet[1], paper.public_id)
    assert meets.papers_of(meet[0]) == []
    with pytest.raises(AidsError) as gone:
        meets.paper(meet[0], paper.public_id)
    assert gone.value.code == "meet/paper_not_found"


def test_an_export_holds_the_paper_tables_and_imports_back_all_or_nothing(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet, "rally", ["Aki", "Ben", "Chie", "Dai"])
    meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 2, 4]},
                       expected_seq=0, confirm=True)  # fmt: skip
    doc = meets.export(meet[0])
    assert doc["version"] == 2 and len(doc["papers"]) == 1
    assert meets.organiser_export(meet[0], meet[1])["papers"] == doc["papers"]
    before = meets.standings(meet[0])
    store = meets.store
    clone = copy.deepcopy(doc)
    store_meet = store.get_meet(meet[0])
    meets.remove_paper(meet[0], meet[1], paper.public_id)
    # the same event cannot be imported twice: import into a fresh event id instead
    clone["meet"]["public_id"] = "Z" * 24
    clone["papers"][0]["public_id"] = "Y" * 24
    imported = meets.import_(clone)
    assert meets.standings(imported.public_id) == before
    assert [e.step for e in meets.papers_of(imported.public_id)[0].entries] == [
        "entered",
        "confirmed",
    ]
    bad = copy.deepcopy(clone)
    bad["meet"]["public_id"] = "X" * 24
    bad["papers"][0]["public_id"] = "W" * 24
    bad["papers"][0]["entries"][0]["result"] = {"places": [1, "x", 3, 3]}  # malformed
    with pytest.raises(AidsError) as refused:
        meets.import_(bad)
    assert refused.value.params["field"] == "papers[0].entries[0].result"
    assert [m.public_id for m in meets.list_meets()].count("X" * 24) == 0
    assert store.get_meet(meet[0]) == store_meet


def test_the_csv_downloads_hold_every_seat_marked_paper_and_no_formula(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet, "derby", ["=SUM(A1)", "Ben", "千恵"])
    meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]}, expected_seq=0)
    text = results_csv(meets.tables_of(meet[0]), meets.papers_of(meet[0]),
                       meets.info(meet[0]).scoring, "ja")  # fmt: skip
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][0] == t("meet.col.number", "ja")  # headers in the reader's language
    body = rows[1:]
    assert [r[7] for r in body] == ["'=SUM(A1)", "Ben", "千恵"]
    assert {r[4] for r in body} == {"紙"} and [r[8] for r in body] == ["1", "2", "3"]
    standings = list(csv.reader(io.StringIO(standings_csv(meets.standings(meet[0]), "en"))))
    assert standings[1][1] == "'=SUM(A1)" and standings[1][2] == "10"


# --- one table never takes an event down (issue 26 §1) -----------------------------------------


def stored_as_is(meets: MeetService, meet: tuple[str, str], paper: PaperStatus,
                 result: dict[str, object]) -> None:  # fmt: skip
    """``result`` written into the store as an older release or a hand-edited store could
    have it, without today's checks."""
    from aids.store.base import PaperEntry

    row = meets.store.get_meet(meet[0])
    entry = PaperEntry(paper.seq + 1, "entered" if paper.seq == 0 else "corrected", result,
                       None, "organiser", "2026-01-01T20:00:00.000000+00:00")  # fmt: skip
    meets.store.append_paper(row.id, paper.row.id, paper.seq, [entry], by=None)


def test_a_stored_result_a_rule_now_refuses_needs_a_look_and_is_left_out_by_one_rule(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    meets.update(meet[0], meet[1], scoring=Scoring("score"))
    good = add_paper(meets, meet, "derby", ["Aki", "Ben"])
    meets.enter_result(meet[0], meet[1], good.public_id, {"places": [1, 2], "points": [9, 4]},
                       expected_seq=0)  # fmt: skip
    bad = add_paper(meets, meet, "derby", ["Aki", "Ben"])
    stored_as_is(meets, meet, bad, {"places": [1, 1], "points": [20, 20]})  # before the check

    looked = meets.paper(meet[0], bad.public_id)
    assert looked.problem is not None and looked.problem.code == "derby/paper_points"
    assert looked.outcome is None and not looked.finished
    assert "needs a look" in looked.line("en") and "要確認" in looked.line("ja")
    assert looked.look("en").startswith("Stored: places 1, 1 · points 20, 20. Points rule:")
    # left out by one rule: its seats count it as in play, the good table alone counts
    standing = {s.name: s for s in meets.standings(meet[0])}
    assert (standing["Aki"].points, standing["Aki"].played, standing["Aki"].in_play) == (9, 1, 1)
    info = meets.info(meet[0])
    rows = list(csv.reader(io.StringIO(results_csv(meets.tables_of(meet[0]),
                                                   meets.papers_of(meet[0]), info.scoring,
                                                   "en").lstrip("\ufeff"))))  # fmt: skip
    assert [r[5] for r in rows[1:]] == ["finished", "finished", "needs a look", "needs a look"]
    # the organiser corrects it, and it counts
    fixed = meets.enter_result(meet[0], meet[1], bad.public_id,
                               {"places": [1, 2], "points": [12, 3]}, expected_seq=1)  # fmt: skip
    assert fixed.problem is None and fixed.finished
    assert {s.name: s.points for s in meets.standings(meet[0])} == {"Aki": 21, "Ben": 7}


def test_a_stored_result_with_string_numbers_reads_as_numbers_on_every_path(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    paper = add_paper(meets, meet, "derby", ["Aki", "Ben"])
    stored_as_is(meets, meet, paper, {"places": ["2", "1"]})
    read = meets.paper(meet[0], paper.public_id)
    assert read.problem is None and read.places() == (2, 1)
    assert read.stored_values() == {"places": [2, 1]}
    stored_as_is(meets, meet, read, {"places": ["x", 1.5]})  # nothing a place can be
    odd = meets.paper(meet[0], paper.public_id)
    assert odd.problem is not None and odd.places() == ()
    assert odd.stored_values() == {"places": [None, None]}


def test_an_import_stores_a_result_in_the_form_the_service_stores(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    meets.update(meet[0], meet[1], scoring=Scoring("score"))
    paper = add_paper(meets, meet, "gn", ["Aki", "Ben"])
    result = {"places": [2, 1], "money": [120000, 610000], "prize": [0, 250]}
    meets.enter_result(meet[0], meet[1], paper.public_id, result, expected_seq=0)
    doc = meets.export(meet[0])
    doc["meet"]["public_id"], doc["papers"][0]["public_id"] = "Z" * 24, "Y" * 24
    doc["papers"][0]["entries"][0]["result"] = {"places": ["2", "1"],
                                                "money": ["120000", "610000"],
                                                "prize": ["0", "250"]}  # fmt: skip
    imported = meets.import_(doc)
    [entry] = meets.papers_of(imported.public_id)[0].entries
    assert entry.result == result  # numbers as numbers, as the service stores them


def test_several_results_are_entered_in_one_write_or_none(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    """Issue 26 §2: every result checked first, a table named twice refused, then one write."""
    from aids.meets.paper_tables import ResultEntry

    one, two = add_paper(meets, meet), add_paper(meets, meet)
    good = ResultEntry(one.public_id, {"places": [1, 2, 3]}, 0)
    with pytest.raises(AidsError) as refused:
        bad = ResultEntry(two.public_id, {"places": [2, 2, 3]}, 0)
        meets.enter_results(meet[0], meet[1], [good, bad])
    assert refused.value.code == "paper/places"
    with pytest.raises(AidsError) as twice:
        meets.enter_results(meet[0], meet[1], [good, good])
    assert twice.value.code == "paper/twice"
    assert [p.entries for p in meets.papers_of(meet[0])] == [(), ()]
    done = meets.enter_results(meet[0], meet[1],
                               [good, ResultEntry(two.public_id, {"places": [3, 1, 2]}, 0)],
                               confirm=True)  # fmt: skip
    assert [(p.places(), p.confirmed) for p in done] == [((1, 2, 3), True), ((3, 1, 2), True)]


def test_the_same_result_entered_again_is_not_logged_as_a_correction(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    """Issue 26 §6: entering the result in force again adds nothing (asked to confirm, only
    the confirmation); a real change is a correction."""
    paper = add_paper(meets, meet)
    meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]}, expected_seq=0)
    again = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": ["1", "2", "3"]},
                               expected_seq=1)  # fmt: skip
    assert [e.step for e in again.entries] == ["entered"]
    confirmed = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]},
                                   expected_seq=1, confirm=True)  # fmt: skip
    assert [e.step for e in confirmed.entries] == ["entered", "confirmed"]
    same = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 2, 3]},
                              expected_seq=2, confirm=True)  # fmt: skip
    assert same.entries == confirmed.entries
    changed = meets.enter_result(meet[0], meet[1], paper.public_id, {"places": [1, 3, 2]},
                                 expected_seq=2)  # fmt: skip
    assert [e.step for e in changed.entries] == ["entered", "confirmed", "corrected"]


def test_an_event_whose_stored_result_needs_a_look_moves_by_its_own_export(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    """Issue 26 §1 (found in review): an event's own backup always restores. A result that
    breaks only a game's rule (stored before the rule was checked) is kept, its numbers as
    numbers, and needs a look in the new event too; a malformed one is still refused."""
    meets.update(meet[0], meet[1], scoring=Scoring("score"))
    paper = add_paper(meets, meet, "derby", ["Aki", "Ben"])
    stored_as_is(meets, meet, paper, {"places": ["1", 1], "points": [20, "20"]})
    doc = meets.export(meet[0])
    doc["meet"]["public_id"], doc["papers"][0]["public_id"] = "Z" * 24, "Y" * 24
    moved = meets.papers_of(meets.import_(doc).public_id)[0]
    assert moved.entries[0].result == {"places": [1, 1], "points": [20, 20]}
    assert moved.problem is not None and moved.problem.code == "derby/paper_points"
    doc["meet"]["public_id"], doc["papers"][0]["public_id"] = "X" * 24, "W" * 24
    doc["papers"][0]["entries"][0]["result"] = {"places": [1, 1], "points": [20, "twenty"]}
    with pytest.raises(AidsError) as refused:
        meets.import_(doc)
    assert refused.value.params["field"] == "papers[0].entries[0].result"
