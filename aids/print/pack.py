"""The game-night print pack, and the rule cards on their own.

One PDF per table: the game's sheets (score sheets, stamina cards, odds board — whatever its
sheet module prints) in the first chosen language, then its rule cards, A6 4-up with cut
marks, in every chosen language side by side. Before game night (no table) the sheets are the
blank ones and the cards' QR codes open the game on the tracker; for a table they open its
viewer link.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    DocIf,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
)

from aids.core.i18n import t
from aids.core.links import game_url, viewer_url
from aids.games.base import AnyGame
from aids.print import cards
from aids.print.fonts import register
from aids.print.frame import body_width, build_pdf, header_for, page_size, styles
from aids.tables import Snapshot


def card_link(game: AnyGame, snapshot: Snapshot | None, base_url: str, lang: str) -> str:
    """Where a card's QR code leads: the table's viewer link, or the game on the tracker."""
    if snapshot is not None:
        return viewer_url(base_url, snapshot.info.public_id, lang)
    return game_url(base_url, game.info.kind, lang)


def _label(snapshot: Snapshot | None, lang: str) -> str:
    return t("print.cards.qr_table" if snapshot is not None else "print.cards.qr_game", lang)


def _cards_for(
    game: AnyGame, sheet: Any, snapshot: Snapshot | None, base_url: str, langs: Sequence[str]
) -> dict[str, list[tuple[str, list[Flowable]]]]:
    return {
        lang: cards.cards(game, sheet, lang, card_link(game, snapshot, base_url, lang),
                          _label(snapshot, lang))
        for lang in langs
    }  # fmt: skip


def render_pack(
    game: AnyGame,
    sheet: Any,
    snapshot: Snapshot | None,
    base_url: str,
    langs: Sequence[str],
    paper: str = "a4",
    *,
    duplex: bool = False,
) -> bytes:
    """The sheets in ``langs[0]`` on ``paper``, then the rule cards (A4) in every language;
    ``duplex``: the cards front and back (``cards.card_story``), starting on a front page."""
    lang = langs[0]
    snapshot = snapshot.in_language(game, lang) if snapshot is not None else None
    size = page_size(game, paper)
    story = list(sheet.story(snapshot, lang, body_width(size), styles(lang)))
    if duplex:  # the last sheet page on a front: its back stays blank, the cards start anew
        story.append(DocIf("doc.page % 2 == 1", [NextPageTemplate(BLANK), PageBreak()]))
    story += [NextPageTemplate(cards.CARDS_TEMPLATE), PageBreak()]
    story += cards.card_story(_cards_for(game, sheet, snapshot, base_url, langs), duplex=duplex)
    return build_pdf(
        header_for(game, snapshot, base_url, lang),
        story,
        size=size,
        lang=lang,
        author=t("app.name", lang),
        extra_templates=[cards.cards_template(), _blank_template(size)],
    )


BLANK = "blank"


def _blank_template(size: tuple[float, float]) -> PageTemplate:
    """A page left empty: the back of a sheet when the cards that follow print duplex."""
    return PageTemplate(id=BLANK, frames=[Frame(0, 0, *size, id=BLANK)], pagesize=size)


def render_cards(
    game: AnyGame,
    sheet: Any,
    snapshot: Snapshot | None,
    base_url: str,
    langs: Sequence[str],
    *,
    duplex: bool = False,
) -> bytes:
    """The rule cards alone: A6 4-up on A4 with cut marks, ``langs`` side by side or
    (``duplex``) the first on the fronts and the second on the backs."""
    buffer = io.BytesIO()
    title = cards.load_cards(game.info.kind, langs[0]).title
    doc = BaseDocTemplate(buffer, pagesize=A4, title=title, author=t("app.name", langs[0]),
                          invariant=1, initialFontName=register())  # fmt: skip
    doc.addPageTemplates([cards.cards_template()])
    per_lang = _cards_for(game, sheet, snapshot, base_url, langs)
    doc.build(cards.card_story(per_lang, duplex=duplex))
    return buffer.getvalue()


SUMMARY_MARGIN = 12 * mm


def render_summary(
    game: AnyGame, sheet: Any, snapshot: Snapshot | None, base_url: str, langs: Sequence[str]
) -> bytes:
    """One A4 page of the whole game per language: every card's text, the tables, the
    rulings and the QR code."""
    buffer = io.BytesIO()
    width, height = A4
    title = cards.load_cards(game.info.kind, langs[0]).title
    doc = BaseDocTemplate(buffer, pagesize=A4, title=title, author=t("app.name", langs[0]),
                          invariant=1, initialFontName=register())  # fmt: skip
    frame = Frame(SUMMARY_MARGIN, SUMMARY_MARGIN, width - 2 * SUMMARY_MARGIN,
                  height - 2 * SUMMARY_MARGIN, id="summary")  # fmt: skip
    doc.addPageTemplates([PageTemplate(id="summary", frames=[frame], pagesize=A4)])
    story: list[Any] = []
    for i, lang in enumerate(langs):
        if i:
            story.append(PageBreak())
        story += cards.summary_story(
            game, sheet, lang, frame.width - 12, frame.height - 12,
            card_link(game, snapshot, base_url, lang), _label(snapshot, lang),
        )  # fmt: skip
    doc.build(story)
    return buffer.getvalue()
