"""The rule cards and the print pack, rendered and read back: every card of every game in both
languages, its QR code, its key terms, its fit inside the card, the numbers from seeds/, and
output that is the same bytes every time."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
from functools import cache

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader, PdfWriter

from aids.core.links import game_url, viewer_url
from aids.games.base import Role
from aids.print import cards
from aids.print.pack import render_cards, render_pack, render_summary
from aids.registry import BUILT_IN, engines, entry, sheet_module
from aids.store.sqlite import SqliteStore
from aids.tables import Snapshot, TableService
from tests.print.pdf_layout import Box, texts

BASE = "http://192.168.10.5:8501"
KINDS = [e.kind for e in BUILT_IN]
# a key term of each game's cards, in each language (the words the page and sheets use too)
TERMS = {
    "derby": {"ja": "柵", "en": "fence"},
    "ekiden": {"ja": "区間順位", "en": "leg rank"},
    "rally": {"ja": "渋滞", "en": "jam"},
    "gn": {"ja": "単勝", "en": "Win"},
}


@cache
def card_pdf(kind: str, langs: tuple[str, ...]) -> bytes:
    return render_cards(entry(kind).game, sheet_module(kind), None, BASE, langs)


def pages(pdf: bytes) -> list[bytes]:
    """Each page as a PDF of its own (the layout readers look at a first page)."""
    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for page in reader.pages:
        writer = PdfWriter()
        writer.add_page(page)
        buffer = io.BytesIO()
        writer.write(buffer)
        out.append(buffer.getvalue())
    return out


def page_text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def qr_codes(pdf: bytes, page: int) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page].render(scale=220 / 72).to_pil()
    finally:
        document.close()
    return [r.text for r in zxingcpp.read_barcodes(image)]


def card_count(kind: str, lang: str) -> int:
    game = entry(kind).game
    return len(cards.cards(game, sheet_module(kind), lang, "x", "x"))


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_its_cards_in_both_languages(kind: str) -> None:
    for lang in ("ja", "en"):
        text = cards.load_cards(kind, lang)
        assert len(text.cards) == 4 and text.title
    assert card_count(kind, "ja") == card_count(kind, "en") >= 5  # + the rulings


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_cards_name_the_games_key_terms(kind: str, lang: str) -> None:
    text = page_text(card_pdf(kind, (lang,)))
    assert TERMS[kind][lang] in text
    assert "{" not in text  # every placeholder filled from seeds


@pytest.mark.parametrize("kind", KINDS)
def test_both_languages_sit_side_by_side_four_to_a_page(kind: str) -> None:
    pdf = card_pdf(kind, ("ja", "en"))
    count = card_count(kind, "ja")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == -(-2 * count // 4)
    first = pages(pdf)[0]
    found = texts(first)
    left = " ".join(t.text for t in found if t.box.x1 <= cards.CARD_W + 1)
    right = " ".join(t.text for t in found if t.box.x0 >= cards.CARD_W - 1)
    assert re.search("[ぁ-んァ-ン一-龥]", left) and re.search("[A-Za-z]{4}", right)


@pytest.mark.parametrize("kind", KINDS)
def test_every_cards_qr_opens_the_game_on_the_tracker(kind: str) -> None:
    pdf = card_pdf(kind, ("ja", "en"))
    wanted = {game_url(BASE, kind, "ja"), game_url(BASE, kind, "en")}
    codes = qr_codes(pdf, 0)
    assert len(codes) == 4 and set(codes) == wanted
    text = page_text(pdf)
    assert game_url(BASE, kind, "en") in text.replace("\n", "")  # the link, printed under it


@pytest.mark.parametrize("kind", KINDS)
def test_no_card_runs_past_its_cut_lines_or_shrinks_below_6_pt(kind: str) -> None:
    quarters = [
        Box(x * cards.CARD_W, y * cards.CARD_H, (x + 1) * cards.CARD_W, (y + 1) * cards.CARD_H)
        for x in (0, 1)
        for y in (0, 1)
    ]
    for number, page in enumerate(pages(card_pdf(kind, ("ja", "en")))):
        for text in texts(page):
            assert any(text.box.inside(q, tol=0.5) for q in quarters), (number, text)
            assert text.size >= 6, (number, text.text, text.size)


def test_the_numbers_on_the_cards_come_from_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    from aids.games.grand_national import data

    real = data.load()
    changed = type(real)(**{**{f: getattr(real, f) for f in real.__dataclass_fields__},
                            "blind_max": 12345})  # fmt: skip
    monkeypatch.setattr("aids.print.gn.sheet.load", lambda: changed)
    pdf = render_cards(entry("gn").game, sheet_module("gn"), None, BASE, ("en",))
    assert "$12,345" in page_text(pdf)


# Numbers a player needs at the table, each a seed field, and how each card states it.
NEEDED = [
    ("derby", "hand_size", {"en": "deal {n} to each player", "ja": "全員に{n}枚ずつ配り"}),
    ("derby", "hand_size", {"en": "Draw back up to {n} cards", "ja": "手札が{n}枚になるまで"}),
    ("gn", "laps", {"en": "The race is {n} laps", "ja": "レースはコース{n}周"}),
    ("gn", "too_free_lengths", {"en": "leads by {n} lengths or more", "ja": "{n}馬身以上リード"}),
    ("gn", "too_free_penalty", {"en": "loses {n} handicap", "ja": "ハンデが{n}下がります"}),
]


def card_words(kind: str, lang: str) -> str:
    """The printed cards' text read back from the PDF, lines joined as they were broken."""
    text = page_text(render_cards(entry(kind).game, sheet_module(kind), None, BASE, (lang,)))
    return text.replace("\n", "" if lang == "ja" else " ")


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(("kind", "field", "words"), NEEDED)
def test_the_cards_state_the_hand_size_laps_and_running_too_free_from_the_seed(
    monkeypatch: pytest.MonkeyPatch, kind: str, field: str, words: dict[str, str], lang: str
) -> None:
    sheet = sheet_module(kind)
    real = sheet.load()
    assert words[lang].format(n=getattr(real, field)) in card_words(kind, lang)
    changed = dataclasses.replace(real, **{field: getattr(real, field) + 3})
    monkeypatch.setattr(f"{sheet.__name__}.load", lambda: changed)
    text = card_words(kind, lang)
    assert words[lang].format(n=getattr(real, field) + 3) in text
    assert words[lang].format(n=getattr(real, field)) not in text


def test_the_same_cards_print_the_same_bytes() -> None:
    one = render_cards(entry("rally").game, sheet_module("rally"), None, BASE, ("ja", "en"))
    two = render_cards(entry("rally").game, sheet_module("rally"), None, BASE, ("ja", "en"))
    assert hashlib.sha256(one).hexdigest() == hashlib.sha256(two).hexdigest()


def test_the_japanese_font_is_embedded_as_a_subset() -> None:
    pdf = card_pdf("ekiden", ("ja",))
    fonts = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts and all(re.match(r"^/[A-Z]{6}\+", f) for f in fonts), fonts


@pytest.mark.parametrize("kind", KINDS)
def test_the_one_page_summary_holds_the_whole_game_per_language(kind: str) -> None:
    pdf = render_summary(entry(kind).game, sheet_module(kind), None, BASE, ("ja", "en"))
    split = pages(pdf)
    assert len(split) == 2
    for page, lang in zip(split, ("ja", "en"), strict=True):
        assert TERMS[kind][lang] in page_text(page)
        for text in texts(page):
            assert text.size >= 5, text


def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[TableService, Snapshot]:
    service = TableService(SqliteStore(tmp_path_factory.mktemp("pack") / "p.sqlite3"), engines())
    game = service.game("rally")
    setup = game.setup_to_dict(game.default_setup(["あき", "Ben", "Chie", "Dai", "Emi"], "ja"))
    info, _ = service.create("rally", "金曜ラリー", setup)
    return service, service.snapshot(info.public_id, Role("viewer"))


def test_the_pack_holds_the_tables_sheets_then_its_cards(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, snapshot = table(tmp_path_factory)
    pdf = render_pack(entry("rally").game, sheet_module("rally"), snapshot, BASE, ("ja", "en"))
    reader = PdfReader(io.BytesIO(pdf))
    count = len(reader.pages)
    link = viewer_url(BASE, snapshot.info.public_id, "ja")
    assert qr_codes(pdf, 0) == [link]  # the first car's log sheet
    assert link in qr_codes(pdf, count - 1)  # the cards open this table, not the game
    assert "key=" not in page_text(pdf)
    assert count >= 5 + -(-2 * card_count("rally", "ja") // 4)


def _card_numbers(page: bytes) -> dict[int, int]:
    """The card number printed in each quarter of a page (0 top left … 3 bottom right)."""
    found: dict[int, int] = {}
    for text in texts(page):
        number = re.search(r"(?:カード|card) (\d+)", text.text)
        if number:
            col = int(text.box.x0 >= cards.CARD_W - 1)
            row = int(text.box.y1 <= cards.CARD_H + 1)
            found[2 * row + col] = int(number.group(1))
    return found


@pytest.mark.parametrize("kind", ["derby", "gn"])
def test_duplex_cards_put_each_translation_right_behind_its_card(kind: str) -> None:
    """Printed double-sided and flipped on the long edge, a front's top-left card backs onto
    the next page's top-right: cut once, every card is ja on one face and en on the other."""
    game = entry(kind).game
    pdf = render_cards(game, sheet_module(kind), None, BASE, ("ja", "en"), duplex=True)
    sides = pages(pdf)
    count = card_count(kind, "ja")
    assert len(sides) == 2 * -(-count // 4)
    for front, back in zip(sides[::2], sides[1::2], strict=True):
        on_front, on_back = _card_numbers(front), _card_numbers(back)
        assert on_front and len(on_back) == len(on_front)
        for slot, number in on_front.items():
            assert on_back[cards.BACK_OF[slot]] == number
        assert re.search("[ぁ-んァ-ン一-龥]", " ".join(t.text for t in texts(front)))
        assert not re.search("[ぁ-んァ-ン]", " ".join(t.text for t in texts(back)))
    assert sorted(n for p in sides[::2] for n in _card_numbers(p).values()) == list(
        range(1, count + 1)
    )


def test_a_duplex_pack_starts_its_cards_on_a_front_page() -> None:
    """The Derby's sheet is one page: its back is left blank, so the cards' fronts fall on
    odd pages and their translations behind them."""
    game = entry("derby").game
    plain = pages(render_pack(game, sheet_module("derby"), None, BASE, ("ja", "en")))
    duplex = pages(render_pack(game, sheet_module("derby"), None, BASE, ("ja", "en"), duplex=True))
    assert _card_numbers(plain[1]) and len(duplex) == 2 + 2 * -(-card_count("derby", "ja") // 4)
    assert texts(duplex[1]) == []  # the sheet's back: nothing printed on it
    assert _card_numbers(duplex[2]) == {0: 1, 1: 2, 2: 3, 3: 4}
    assert _card_numbers(duplex[3]) == {1: 1, 0: 2, 3: 3, 2: 4}
