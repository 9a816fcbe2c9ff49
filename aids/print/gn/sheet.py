"""Grand National's sheets: a stable card per stable, the odds board, the money ledger, rulings.

The print frame draws the paper, the header (its QR code is always the viewer link) and turns
pages; this module gives the body, in this order:

1. **A stable card per stable** (one blank card before game night): the stable's name, colour,
   seat, the going and its grid top, cash and whether its blind bet is written; the going →
   grid-top table; then its four horses, two by two, each with its cap, name, reserve price,
   handicap, speed left, stamina penalty, running-too-free box and status above the 1–64
   speed-point grid of the paper card. The grid reads like text from 64 down to 1, so points
   are struck from the top: the going's cells above its top are crossed out (×, grey) and the
   speed points a horse has used are struck (／, shaded) from the top down; the highest number
   left is the speed left. With ``seat_links`` each card carries its owner's private link as a
   second QR code; without, a box says to ask the referee.
2. **The odds board**, landscape, in large type: every runner by stable with its owner,
   handicap, reserve price and the Win and Show odds posted (the table's defaults until the
   bookmaker changes them). Whole stables per page, as many as large rows allow.
3. **Money and bets**: each stable's cash and how it came about, the prize money and the
   reserve-price odds table (from the seed file), the bets taken, and the ledger line by line
   (blank: ruled rows to write on).
4. The rulings.

The snapshot is the reader's view: a blind bet is sealed until settlement and only "written"
is printed; it reaches the bets and the ledger when the race is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer

from aids.core.i18n import t
from aids.games.grand_national import GAME
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import money
from aids.games.grand_national.model import GnState
from aids.print.frame import Styles, rulings, turn_to
from aids.print.gn.money import (
    _money,
)
from aids.print.gn.odds_board import (
    OddsBoard,
    _board_groups,
    _board_title,
)
from aids.print.gn.stable import (
    _stable_page,
)
from aids.tables import Snapshot


def story(
    snapshot: Snapshot | None,
    lang: str,
    width: float,
    styles: Styles,
    *,
    seat_links: Mapping[int, str] | None = None,
) -> list[Flowable]:
    """The stable cards, the odds board (landscape), money and bets, then the rulings.

    ``seat_links``: seat index (from 0) → that stable's private link, printed as a QR code
    on its own card only.
    """
    state: GnState | None = snapshot.state if snapshot is not None else None
    links = seat_links or {}
    out: list[Flowable] = []
    seats: Sequence[int | None] = range(state.seats) if state is not None else [None]
    for i, seat in enumerate(seats):
        if i:
            out.append(PageBreak())
        link = links.get(seat) if seat is not None else None
        out += _stable_page(state, seat, link, lang, width)
    out += turn_to("landscape")
    out.append(OddsBoard(_board_groups(state, lang), _board_title(state, lang), lang))
    out += turn_to("portrait")
    out += _money(state, lang, width)
    out += [Spacer(1, 4 * mm), KeepTogether(rulings(GAME, lang, styles))]  # whole, on one page
    return out


# --- the rule cards' numbers and tables (aids.print.cards), from the same seed as the engine ---


def card_values() -> dict[str, str]:
    d = load()
    return {
        "start_cash": money(d.start_cash),
        "blind_max": money(d.blind_max),
        "prizes": " / ".join(money(p) for p in d.prizes),
        "stables_min": str(d.min_stables),
        "stables_max": str(d.max_stables),
        "speed_min": str(d.speed[0]),
        "speed_max": str(d.speed[1]),
        "handicap_max": str(d.handicap[1]),
        "laps": str(d.laps),
        "too_free_lengths": str(d.too_free_lengths),
        "too_free_penalty": str(d.too_free_penalty),
    }


def card_table(table: str, lang: str) -> list[list[str]]:
    """``odds``: Win and Show by reserve price; ``going``: each going's grid top;
    ``prizes``: prize money by place."""
    d = load()
    if table == "going":
        return [[t("gn.cards.going", lang), t("gn.cards.top", lang)],
                *([t(f"gn.going.{g}", lang), str(d.top(g))] for g in d.goings)]  # fmt: skip
    if table == "prizes":
        return [[t("gn.cards.place", lang), t("gn.cards.prize", lang)],
                *([str(i + 1), money(p)] for i, p in enumerate(d.prizes))]  # fmt: skip
    head = [t("gn.ui.price", lang), t("gn.kind.win", lang), t("gn.kind.show", lang)]
    return [head, *([money(p), d.odds[p][0].text(), d.odds[p][1].text()] for p in d.prices)]
