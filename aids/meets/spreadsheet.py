r"""An event's standings and every table's result as CSV, for the organiser's spreadsheet.

Two files: the standings (one line per player, as the page and the sheet rank them) and the
results (one line per seat of every table, tracked or played on paper: its place, its score
or money, the event points it earned). RFC 4180 (``,``, ``"`` quoting, CRLF), UTF-8 with a
byte-order mark so a spreadsheet opens Japanese names as they are, headers in the reader's
language. A cell that a spreadsheet would run as a formula (it begins with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return: a player named ``=HYPERLINK(…)``) is written with a
leading ``'``, so it is shown as the text it is.

>>> from aids.meets.standings import Standing
>>> standings_csv((Standing(1, "=Aki", 16, 2, 1, 0),), "en").split("\r\n")
['\ufeffRank,Name,Points,Played,Wins,In play', "1,'=Aki,16,2,1,0", '']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from aids.core.i18n import t
from aids.meets.papers import PaperStatus
from aids.meets.scoring import Scoring
from aids.meets.standings import Result, Standing, table_points
from aids.meets.status import TableStatus

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    """A value as a cell a spreadsheet shows as written (see the module's docstring).

    >>> cell("+81 90"), cell(-3), cell("Aki")
    ("'+81 90", '-3', 'Aki')
    """
    if isinstance(value, int):
        return str(value)  # a number, negative or not, is a number
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(h) for h in header])
    writer.writerows([cell(v) for v in row] for row in rows)
    return BOM + out.getvalue()


def standings_csv(rows: Sequence[Standing], lang: str) -> str:
    """The standings: rank, name, points, tables played, wins, tables in play."""
    header = [t(f"meet.col.{c}", lang) for c in ("rank", "name", "points", "played", "wins",
                                                   "in_play")]  # fmt: skip
    return _csv(header, ((s.rank, s.name, s.points, s.played, s.wins, s.in_play) for s in rows))


def results_csv(
    tables: Sequence[TableStatus], papers: Sequence[PaperStatus], scoring: Scoring, lang: str
) -> str:
    """Every seat of every table: the table (number, title, id, game, tracked or on paper,
    finished, in play or, for a stored paper result a rule refuses, needs a look), the
    seat's player, place, score or money, and event points."""
    header = [t(k, lang) for k in (
        "meet.col.number", "meet.col.table", "meet.csv.table_id", "meet.col.game",
        "meet.csv.played", "meet.col.status", "meet.csv.seat", "meet.col.name",
        "meet.csv.place", "meet.csv.score", "meet.col.points",
    )]  # fmt: skip
    lines: list[list[object]] = []
    listed: list[tuple[str, str, str, bool, Result, bool]] = [
        (s.title, s.public_id, s.kind, False, s.result, False) for s in tables
    ] + [(p.title, p.public_id, p.kind, True, p.result, p.problem is not None) for p in papers]
    for n, (title, public_id, kind, paper, result, look) in enumerate(listed, 1):
        played = t("meet.csv.paper" if paper else "meet.csv.tracked", lang)
        done = result.outcome is not None
        status = t("meet.csv.needs_look" if look else
                   "meet.csv.finished" if done else "meet.csv.in_play", lang)  # fmt: skip
        points = table_points(result, scoring)
        places = _places(result)
        for seat, name in enumerate(result.seats):
            scores = result.outcome.scores if result.outcome is not None else ()
            lines.append([
                n, title, public_id, t(f"{kind}.name", lang), played, status, seat + 1, name,
                places.get(seat, ""), scores[seat] if seat < len(scores) else "",
                points.get(seat, "") if done else "",
            ])  # fmt: skip
    return _csv(header, lines)


def _places(result: Result) -> dict[int, int]:
    """Each ranked seat's place (competition ranks: 1, 2, 2, 4)."""
    if result.outcome is None:
        return {}
    places: dict[int, int] = {}
    above = 0
    for group in result.outcome.ranking:
        for seat in group:
            places[seat] = above + 1
        above += len(group)
    return places
