"""A paper table's result slip, printed from what its result asks and read back from a photo into
the event (issue 21 §2–3): the slip of every game's paper table fits; a filled slip's photo
proposes exactly the marked result, which the organiser's confirmation records with the
photo's hash; a flagged field is left empty and named, never guessed; a slip of another
event, of no paper table of this one, printed for other players, or of a confirmed table is
refused with its message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.errors import AidsError
from aids.meets import MeetService, Scoring
from aids.meets.papers import PaperStatus
from aids.print.meet_slips import event_slips, match, proposal, slip_spec
from aids.print.slips import SlipSpec
from aids.registry import engines
from aids.scan import read_slip
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.scan.photos import SMALL, marked

NAMES = {"derby": 3, "ekiden": 5, "gn": 6, "rally": 6}


@pytest.fixture
def meets(tmp_path: Path) -> MeetService:
    return MeetService(TableService(SqliteStore(tmp_path / "night.sqlite3"), engines()))


def paper(meets: MeetService, meet: tuple[str, str], kind: str, names: list[str]) -> PaperStatus:
    game = meets.tables.game(kind)
    setup = game.setup_to_dict(game.default_setup(names, "en"))
    return meets.new_paper(meet[0], meet[1], kind, f"{kind} slip", setup)


def photo_of(spec: SlipSpec, places: list[int], numbers: list[list[int]], seed: int = 1) -> bytes:
    """A photo of ``spec``'s slip with these places and numbers filled in (every digit)."""
    marks: dict[tuple[int, int | None, int | None], tuple[tuple[int, str], ...]] = {}
    for seat, place in enumerate(places):
        marks[(seat, None, None)] = ((place, "fill"),)
        for n, field in enumerate(spec.fields):
            digits = str(numbers[seat][n]).zfill(field.digits)
            for d, digit in enumerate(digits):
                marks[(seat, n, d)] = ((int(digit), "fill"),)
    return marked(spec, marks, seed=seed, size=SMALL)


@pytest.mark.parametrize("kind", sorted(NAMES))
def test_every_games_paper_table_has_a_slip_for_either_rule(meets: MeetService, kind: str) -> None:
    for scoring in (Scoring(), Scoring("score")):
        info, key = meets.create("Night", "2025-03-07", scoring)
        names = [f"P{i}" for i in range(NAMES[kind])]
        status = paper(meets, (info.public_id, key), kind, names)
        spec = slip_spec(info, status, "ja")
        assert spec.players == tuple(names) and spec.places == len(names)
        assert len(spec.fields) == len(status.form.fields)
    pdf = event_slips(info, meets.papers_of(info.public_id), "en")
    assert pdf.startswith(b"%PDF")


def test_a_slips_photo_proposes_the_marked_result_and_confirming_records_it(
    meets: MeetService,
) -> None:
    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    status = paper(meets, (info.public_id, key), "derby", ["Aki", "Ben", "Chie"])
    spec = slip_spec(info, status, "en")
    jpeg = photo_of(spec, [2, 1, 3], [[5], [12], [0]])
    reading = read_slip(jpeg)
    found = match(info, meets.papers_of(info.public_id), reading)
    assert found.public_id == status.public_id
    proposed = proposal(found, reading, "en")
    assert proposed.complete
    assert proposed.result == {"places": [2, 1, 3], "points": [5, 12, 0]}
    done = meets.enter_result(info.public_id, key, status.public_id, proposed.result,
                              expected_seq=found.seq, photo=proposed.photo_sha256,
                              confirm=True)  # fmt: skip
    assert done.confirmed and done.entries[0].photo == reading.photo_sha256
    with pytest.raises(AidsError) as again:  # the same slip once more: confirmed already
        match(info, meets.papers_of(info.public_id), read_slip(jpeg))
    assert again.value.code == "scan/confirmed"


def test_a_flagged_field_is_left_empty_and_named(meets: MeetService) -> None:
    info, key = meets.create("Night", "2025-03-07")
    status = paper(meets, (info.public_id, key), "rally", ["Aki", "Ben", "Chie"])
    spec = slip_spec(info, status, "en")
    marks: dict[Any, Any] = {
        (0, None, None): ((1, "fill"),),
        (1, None, None): ((2, "fill"), (3, "fill")),
    }
    reading = read_slip(marked(spec, marks, seed=4, size=SMALL))
    proposed = proposal(match(info, meets.papers_of(info.public_id), reading), reading, "en")
    assert proposed.result == {"places": [1, None, None]}
    assert proposed.flagged == ("Ben: Place — two circles marked", "Chie: Place — nothing marked")
    with pytest.raises(AidsError) as refused:  # the service never takes a flagged field
        meets.enter_result(info.public_id, key, status.public_id, proposed.result,
                           expected_seq=0)  # fmt: skip
    assert refused.value.code == "input/number" and refused.value.params["field"] == "places[1]"


def test_a_slip_of_another_event_or_table_or_players_is_refused(meets: MeetService) -> None:
    info, key = meets.create("Night", "2025-03-07")
    status = paper(meets, (info.public_id, key), "rally", ["Aki", "Ben"])
    other, other_key = meets.create("Other night", "2025-03-08")
    elsewhere = paper(meets, (other.public_id, other_key), "rally", ["Aki", "Ben"])
    papers = meets.papers_of(info.public_id)
    cases = {
        "scan/other_event": slip_spec(other, elsewhere, "en"),
        "scan/other_table": SlipSpec(info.public_id, "Night", "Z" * 24, "?", "rally", "en",
                                     ("Aki", "Ben"), 2),
        "scan/check": SlipSpec(info.public_id, "Night", status.public_id, "?", "rally", "en",
                               ("Aki", "Bea"), 2),
    }  # fmt: skip
    for code, spec in cases.items():
        reading = read_slip(photo_of(spec, [1, 2], [[], []]))
        with pytest.raises(AidsError) as refused:
            match(info, papers, reading)
        assert refused.value.code == code


def test_the_event_pack_ends_with_each_paper_tables_slip_that_reads_back(
    meets: MeetService,
) -> None:
    """The pack: every table's sheets, the standings, then one A5 slip per paper table, whose
    QR code (read from the rendered page) names its table."""
    import pypdfium2
    import zxingcpp

    from aids.print.meet_sheet import render_meet_pack
    from aids.print.slips import parse_payload

    info, key = meets.create("Night", "2025-03-07")
    made = [paper(meets, (info.public_id, key), "derby", ["Aki", "Ben", "Chie"]),
            paper(meets, (info.public_id, key), "rally", ["Dai", "Emi"])]  # fmt: skip
    papers = meets.papers_of(info.public_id)
    pdf = render_meet_pack(info, [], meets.standings(info.public_id), "http://x.test", "en",
                           "a4", papers)  # fmt: skip
    document = pypdfium2.PdfDocument(pdf)
    assert len(document) == 3  # the standings, then two slips
    for page, status in zip(list(document)[1:], made, strict=True):
        width, height = page.get_size()
        assert (round(width), round(height)) == (420, 595)  # A5 portrait, in points
        image = page.render(scale=3).to_pil()
        [code] = zxingcpp.read_barcodes(image)
        assert parse_payload(code.text).table_id == status.public_id
