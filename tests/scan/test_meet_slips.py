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

from aids.bench.slip_photos import SMALL, marked
from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.meets import MeetService, Scoring
from aids.meets.papers import PaperStatus
from aids.print.meet_slips import event_slips, slip_spec
from aids.print.slips import SlipSpec, slip_check
from aids.registry import engines
from aids.scan import read_slip
from aids.scan.proposal import match, proposal
from aids.store.sqlite import SqliteStore
from aids.tables import TableService

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
            digits = str(abs(numbers[seat][n])).zfill(field.digits)
            if field.signed:  # its sign row: + or −
                marks[(seat, n, None)] = ((-1 if numbers[seat][n] < 0 else 1, "fill"),)
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
        labels = [t(f"paper.field.{f.key}", "ja") for f in status.form.fields]
        assert [f.label for f in spec.fields] == labels[: len(spec.fields)]
        # every number fits but the Grand National's prize money for six stables
        off = ["prize"] if kind == "gn" and scoring.rule == "score" else []
        assert [f.key for f in status.form.fields[len(spec.fields) :]] == off
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


def test_a_grand_national_slip_carries_money_and_prize_money_where_they_fit(
    meets: MeetService,
) -> None:
    """Grand National results on paper: with up to four stables the slip has the money (7
    digits) and the prize money ($K, 3 digits), read back and recorded whole."""
    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    status = paper(meets, (info.public_id, key), "gn", ["Aki", "Ben", "Chie", "Dai"])
    spec = slip_spec(info, status, "en")
    assert [(f.label, f.digits) for f in spec.fields] == [("Money ($)", 7),
                                                          ("Prize money ($K)", 3)]  # fmt: skip
    money, prize = [612000, 95000, 330500, 158000], [250, 30, 150, 0]
    jpeg = photo_of(spec, [1, 4, 2, 3], [list(pair) for pair in zip(money, prize, strict=True)])
    reading = read_slip(jpeg)
    proposed = proposal(match(info, meets.papers_of(info.public_id), reading), reading, "en")
    assert proposed.complete
    assert proposed.result == {"places": [1, 4, 2, 3], "money": money, "prize": prize}
    done = meets.enter_result(info.public_id, key, status.public_id, proposed.result,
                              expected_seq=0, photo=proposed.photo_sha256)  # fmt: skip
    assert done.finished and done.outcome is not None and done.outcome.scores == tuple(money)


def test_a_number_the_slip_has_no_room_for_is_flagged_to_type_never_guessed(
    meets: MeetService,
) -> None:
    """Six Grand National stables: the money fits in six digits, the prize money does not
    fit at all, so every stable's prize is flagged "not on the slip" and left empty."""
    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    names = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"]
    status = paper(meets, (info.public_id, key), "gn", names)
    spec = slip_spec(info, status, "ja")
    assert [f.digits for f in spec.fields] == [6]
    money = [[410000], [90000], [120000], [505000], [70000], [33000]]
    reading = read_slip(photo_of(spec, [3, 4, 2, 1, 5, 6], money, seed=3))
    proposed = proposal(match(info, meets.papers_of(info.public_id), reading), reading, "ja")
    assert proposed.result["money"] == [m[0] for m in money]
    assert proposed.result["prize"] == [None] * 6
    why = "結果票に欄がありません：入力してください"
    assert proposed.flagged == tuple(
        t("scan.flag", "ja", name=n, field="賞金（$1,000単位）", why=why) for n in names
    )


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
    assert refused.value.code == "input/number"
    assert str(refused.value.params["field"]) == "places[1]"


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


def test_a_code_with_the_tables_check_but_another_shape_is_refused(meets: MeetService) -> None:
    """Rule (issue 26 §3): the QR code's shape (seats, numbers asked) must be the table's.
    A crafted code with the right table and check value but a shorter money field (three
    digits, no prize money) was read on the wrong layout; it is refused, naming the table."""
    import numpy as np

    from aids.bench.slip_photos import fill_mark, photograph, rendered
    from aids.print.qr import matrix
    from aids.print.slip_layout import PREFIX, event_tag, layout
    from aids.print.slips import NumberField

    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    status = paper(meets, (info.public_id, key), "gn", ["Aki", "Ben", "Chie", "Dai"])
    spec = slip_spec(info, status, "en")
    crafted = SlipSpec(spec.event_id, spec.event_title, spec.table_id, spec.table_label, "gn",
                       "en", spec.players, 4, (NumberField("Money", 3),))  # fmt: skip
    text = f"{PREFIX}{spec.table_id}:{event_tag(info.public_id)}:{slip_check(spec)}:4.4.3"
    dpi = 150
    image = rendered(crafted, dpi).copy()
    x, y, side = (v * dpi / 72 for v in layout(crafted).qr)
    cells = np.array(matrix(text), dtype=np.uint8)
    n = round(side)
    code = np.where(np.kron(cells, np.ones((64, 64), np.uint8)) > 0, 0, 255).astype(np.uint8)
    import cv2

    square = cv2.resize(code, (n, n), interpolation=cv2.INTER_AREA)
    image[round(y) : round(y) + n, round(x) : round(x) + n] = square[:, :, None]
    rng = np.random.default_rng(2)
    for row in layout(crafted).rows:
        fill_mark(image, row.bubbles[1], dpi / 72, rng, (20, 20, 20))
    reading = read_slip(photograph(image, SMALL, rng))
    assert reading.check == slip_check(spec) and reading.shape != spec.shape
    with pytest.raises(AidsError) as refused:
        match(info, meets.papers_of(info.public_id), reading)
    assert refused.value.code == "scan/shape"
    assert "gn slip" in refused.value.message("en") and "gn slip" in refused.value.message("ja")


def test_an_ekiden_column_behind_the_start_is_written_with_its_sign_and_read(
    meets: MeetService,
) -> None:
    """Rule (issue 26 §5): the Ekiden's column may be below zero (a team behind the start);
    its slip has a sign row (+ and −) before the digits, so −2 is marked − 0 2 and read as
    −2, and "02" with the sign left blank is flagged, never proposed as 2."""
    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    names = ["Aki", "Ben", "Chie", "Dai", "Emi"]
    status = paper(meets, (info.public_id, key), "ekiden", names)
    spec = slip_spec(info, status, "en")
    assert [(f.digits, f.signed) for f in spec.fields] == [(2, True)]
    columns = [[5], [3], [0], [-2], [-14]]
    reading = read_slip(photo_of(spec, [1, 2, 3, 4, 5], columns))
    proposed = proposal(match(info, meets.papers_of(info.public_id), reading), reading, "en")
    assert proposed.complete
    assert proposed.result == {"places": [1, 2, 3, 4, 5], "column": [5, 3, 0, -2, -14]}
    marks: dict[Any, Any] = {(0, None, None): ((1, "fill"),), (0, 0, 0): ((0, "fill"),),
                             (0, 0, 1): ((2, "fill"),)}  # fmt: skip
    blank = read_slip(marked(spec, marks, seed=5, size=SMALL)).reading(0, 0)
    assert blank.flagged and blank.value is None


@pytest.mark.parametrize("stables", [5, 6])
def test_a_slip_says_what_it_leaves_out_in_both_languages(meets: MeetService, stables: int) -> None:
    """Rule (issue 26 §5): five or six Grand National stables' slip has no room for money
    past $999,999 nor for the prize money; the slip itself says so (under its check value,
    whole, in the reader's language) so players know to tell the organiser. Four stables'
    slip takes everything and says nothing more."""
    import io

    from pypdf import PdfReader

    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    names = [f"S{i}" for i in range(stables)]
    status = paper(meets, (info.public_id, key), "gn", names)
    wanted = {"en": ["Not on this slip", "Money ($) above 999,999", "Prize money ($K)",
                     "Tell the organiser"],
              "ja": ["この結果票に書けないもの", "999,999を超える所持金（$）", "賞金（$1,000単位）",
                     "主催者に伝えて"]}  # fmt: skip
    for lang in ("en", "ja"):
        spec = slip_spec(info, status, lang)
        printed = PdfReader(io.BytesIO(event_slips(info, [status], lang))).pages[0]
        words = "".join(printed.extract_text().split())
        for part in wanted[lang]:
            assert "".join(part.split()) in words, (lang, part)
        assert spec.off_slip and "…" not in words
    four = paper(meets, (info.public_id, key), "gn", ["A", "B", "C", "D"])
    assert slip_spec(info, four, "en").off_slip == ""
