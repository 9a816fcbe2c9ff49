"""Grand National: money and bets — cash by stable, the prize and odds tables, the bets
taken and the ledger line by line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.games.grand_national.data import GnData, load
from aids.games.grand_national.describe import money
from aids.games.grand_national.model import BANK, HELD, GnState, Line, Wager
from aids.print.cells import (
    FAINT,
    SHADE,
    Grid,
    SeatMark,
    TextBox,
    ruled,
    unruled,
)
from aids.print.gn.parts import (
    BET_WEIGHTS,
    BLANK_BETS,
    CASH_WEIGHTS,
    GAP,
    HEAD,
    LEDGER_ROW,
    LEDGER_WEIGHTS,
    ROW,
    Blank,
    Fill,
    _c,
    _head,
    _widths,
)

# --- money and bets ---------------------------------------------------------------------------


def _money(state: GnState | None, lang: str, width: float) -> list[Flowable]:
    d = load()
    out: list[Flowable] = [
        TextBox(t("gn.sheet.money_title", lang), 14, max_lines=1, space_after=2 * mm),
        _title("cash_title", lang),
        _cash_table(state, lang, width),
        Spacer(1, GAP),
    ]
    side = Grid(
        [[_prizes_table(d, lang, width * 0.44), "", _odds_table(d, lang, width * 0.52)]],
        colWidths=[width * 0.44, width * 0.04, width * 0.52],
    )
    side.setStyle(TableStyle(unruled()))
    out += [side, Spacer(1, GAP), _title("bets_title", lang), _bets_table(state, lang, width)]
    out += [Spacer(1, GAP), _title("ledger_title", lang)]
    if state is None:
        out.append(Fill(lambda w, h: _blank_ledger(lang, w, h)))
        return out
    out.append(_ledger_table(state, lang, width))
    out.append(Spacer(1, 1.5 * mm))
    out.append(TextBox(_totals(state, lang), 8, grow=True))
    return out


def _title(key: str, lang: str) -> TextBox:
    return TextBox(t(f"gn.sheet.{key}", lang), 10, max_lines=2, grow=True, space_after=1.2 * mm)


def _party(state: GnState, party: int, lang: str, size: float = 8) -> TextBox:
    if party in (BANK, HELD):
        key = "gn.sheet.bank" if party == BANK else "gn.sheet.held"
        return TextBox(t(key, lang), size, max_lines=2, min_size=5.5, mark=Blank(9))
    stable = state.setup.stables[party]
    colour = load().colour(stable.colour)
    mark = SeatMark(party + 1, colour.hex if colour else None, side=9)
    return TextBox(stable.name, size, max_lines=2, min_size=5.5, mark=mark)


def _flow(ledger: Sequence[Line], seat: int, reasons: tuple[str, ...], incoming: bool) -> int:
    return sum(
        line.amount
        for line in ledger
        if line.reason in reasons and (line.to if incoming else line.frm) == seat
    )


def _cash_table(state: GnState | None, lang: str, width: float) -> Table:
    """Each stable's cash and how it came about, from the ledger's lines."""
    keys = (
        "col_stable",
        "col_start",
        "col_horses",
        "col_staked",
        "col_prizes",
        "col_paid",
        "col_cash",
    )
    rows: list[list[Any]] = [_head(keys, lang)]
    if state is None:
        for seat in range(load().max_stables):
            rows.append([TextBox("", 9, mark=SeatMark(seat + 1, None))] + [""] * 6)
    else:
        ledger = state.ledger
        for seat in range(state.seats):
            flows = [
                _flow(ledger, seat, ("start",), True),
                -_flow(ledger, seat, ("horse",), False),
                -_flow(ledger, seat, ("bet", "blind"), False),
                _flow(ledger, seat, ("prize",), True),
                _flow(ledger, seat, ("stake_back", "payout"), True),
            ]
            rows.append(
                [_party(state, seat, lang, 8.5)]
                + [_c(money(v) if v else "—", 8.5, max_lines=1, min_size=6) for v in flows]
                + [_c(money(engine.cash(state, seat)), 10, max_lines=1, min_size=6)]
            )
    table = Grid(
        rows,
        colWidths=_widths(CASH_WEIGHTS, width),
        rowHeights=[HEAD] + [ROW + mm] * (len(rows) - 1),
    )
    style = ruled(1)
    style.append(("LINEBEFORE", (-1, 0), (-1, -1), 1.4, colors.black))
    table.setStyle(TableStyle(style))
    return table


def _prizes_table(d: GnData, lang: str, width: float) -> Flowable:
    rows = [
        [_c(t("gn.sheet.place", lang), 7.5, max_lines=2)]
        + [_c(str(i + 1), 9) for i in range(len(d.prizes))],
        [_c(t("gn.sheet.prize", lang), 7.5, max_lines=2)]
        + [_c(money(p), 8.5, max_lines=1, min_size=6) for p in d.prizes],
    ]
    first = width * 0.2
    table = Grid(
        rows,
        colWidths=[first] + [(width - first) / len(d.prizes)] * len(d.prizes),
        rowHeights=[ROW, ROW + mm],
    )
    table.setStyle(TableStyle([*ruled(1), ("BACKGROUND", (0, 0), (0, -1), SHADE)]))
    return _titled("prizes_title", table, lang)


def _odds_table(d: GnData, lang: str, width: float) -> Flowable:
    rows: list[list[Any]] = [
        [_c(t("gn.sheet.col_price", lang), 7.5, max_lines=2)]
        + [_c(money(p), 8, max_lines=1, min_size=6) for p in d.prices],
    ]
    for i, kind in enumerate(("win", "show")):
        rows.append(
            [_c(t(f"gn.kind.{kind}", lang), 8)]
            + [_c(d.odds[p][i].text(), 9, max_lines=1, min_size=6) for p in d.prices]
        )
    first = width * 0.16
    table = Grid(
        rows,
        colWidths=[first] + [(width - first) / len(d.prices)] * len(d.prices),
        rowHeights=[ROW] * 3,
    )
    table.setStyle(TableStyle([*ruled(1), ("BACKGROUND", (0, 0), (0, -1), SHADE)]))
    return _titled("odds_title", table, lang)


def _titled(key: str, table: Table, lang: str) -> Table:
    out = Grid([[TextBox(t(f"gn.sheet.{key}", lang), 8.5, max_lines=2, min_size=6.5)], [table]])
    out.setStyle(TableStyle([*unruled(), ("BOTTOMPADDING", (0, 0), (0, 0), 1.2 * mm)]))
    return out


def _results(state: GnState) -> list[str | int]:
    """Each wager's result from the settlement's lines, in the order they were settled: the
    amount returned, ``"lost"``, or ``"open"`` before settlement."""
    if not state.settled:
        return ["open"] * len(state.wagers)
    lines = [line for line in state.ledger if line.reason in ("stake_back", "payout", "lost")]
    out: list[str | int] = []
    i = 0
    for wager in state.wagers:
        if i < len(lines) and lines[i].reason == "lost" and lines[i].horse == wager.horse:
            out.append("lost")
            i += 1
        elif i + 1 < len(lines) and lines[i].reason == "stake_back" and lines[i].to == wager.seat:
            out.append(lines[i].amount + lines[i + 1].amount)
            i += 2
        else:  # not the engine's order: say nothing rather than something wrong
            out.append("")
    return out


def _bets_table(state: GnState | None, lang: str, width: float) -> Table:
    keys = ("col_stable", "col_horse", "col_kind", "col_stake", "col_odds", "col_result")
    rows: list[list[Any]] = [_head(keys, lang)]
    spans: list[tuple[Any, ...]] = []
    if state is None:
        rows += [[""] * len(keys) for _ in range(BLANK_BETS)]
    elif not state.wagers:
        rows.append([_c(t("gn.sheet.no_bets", lang), 8, colour=FAINT)] + [""] * 5)
        spans.append(("SPAN", (0, 1), (-1, 1)))
    else:
        for wager, result in zip(state.wagers, _results(state), strict=True):
            rows.append(_bet_row(state, wager, result, lang))
    table = Grid(
        rows,
        colWidths=_widths(BET_WEIGHTS, width),
        rowHeights=[HEAD] + [ROW] * (len(rows) - 1),
        repeatRows=1,
    )
    table.setStyle(TableStyle([*ruled(1), *spans]))
    return table


def _bet_row(state: GnState, wager: Wager, result: str | int, lang: str) -> list[Any]:
    kind = t(f"gn.kind.{wager.kind}", lang)
    if wager.blind:
        kind = t("gn.sheet.blind_kind", lang, kind=kind)
    if isinstance(result, int):
        shown = t("gn.sheet.won", lang, amount=money(result))
    else:
        shown = t(f"gn.sheet.{result}", lang) if result else ""
    return [
        _party(state, wager.seat, lang),
        TextBox(state.setup.horse(wager.horse).name, 8, max_lines=2, min_size=5.5),
        _c(kind, 8, max_lines=1, min_size=5.5),
        _c(money(wager.stake), 8.5, max_lines=1, min_size=6),
        _c(wager.odds.text(), 9, max_lines=1),
        _c(shown, 8, max_lines=1, min_size=5.5),
    ]


def _ledger_head(lang: str) -> list[Any]:
    keys = ("col_no", "col_from", "col_to", "col_amount", "col_reason", "col_horse")
    return _head(keys, lang)


def _ledger_table(state: GnState, lang: str, width: float) -> Table:
    rows: list[list[Any]] = [_ledger_head(lang)]
    for i, line in enumerate(state.ledger):
        horse = state.setup.horse(line.horse).name if line.horse is not None else ""
        rows.append(
            [
                _c(str(i + 1), 8, colour=FAINT),
                _party(state, line.frm, lang),
                _party(state, line.to, lang),
                TextBox(money(line.amount), 8.5, max_lines=1, min_size=6, align="right"),
                _c(t(f"gn.reason.{line.reason}", lang), 7.5, max_lines=1, min_size=5.5),
                TextBox(horse, 8, max_lines=2, min_size=5.5),
            ]
        )
    table = Grid(
        rows,
        colWidths=_widths(LEDGER_WEIGHTS, width),
        rowHeights=[HEAD] + [LEDGER_ROW] * len(state.ledger),
        repeatRows=1,
    )
    table.setStyle(TableStyle(ruled(1, pad=2)))
    return table


def _blank_ledger(lang: str, width: float, height: float) -> Table:
    """Ruled rows to the foot of the page (at least eight: else they start a new page)."""
    count = max(8, int((height - HEAD - 1) // (LEDGER_ROW + mm)))
    rows: list[list[Any]] = [_ledger_head(lang)]
    rows += [[_c(str(i + 1), 7, colour=FAINT), "", "", "", "", ""] for i in range(count)]
    table = Grid(
        rows,
        colWidths=_widths(LEDGER_WEIGHTS, width),
        rowHeights=[HEAD] + [LEDGER_ROW + mm] * count,
    )
    table.setStyle(TableStyle(ruled(1, pad=2)))
    return table


def _totals(state: GnState, lang: str) -> str:
    stables = sum(engine.cash(state, s) for s in range(state.seats))
    held = engine.balance(state.ledger, HELD)
    bank = -engine.balance(state.ledger, BANK)  # what the bank has paid out, net
    return t("gn.sheet.totals", lang, stables=money(stables), held=money(held), bank=money(bank))
