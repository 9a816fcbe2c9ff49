"""Who leads, for every game: one compact table in one look, drawn by the frame where a
phone's first screen shows it (under the status, above the chances and the board) and at
the top of the board column on a laptop. A game's page module says what its rows hold
(``GamePage.standings`` builds them with ``standings_table``); this module draws them the
same way everywhere: the place, the leader's row shaded, and on a seat's own link that
seat's row marked "you" (a word and an outline, never colour alone).

>>> rows = [Row(1, 1, ("Ben", "12")), Row(2, 0, ("Aki", "7"))]
>>> html = standings_html(("Player", "Points"), rows, mine=0, you="you", label="Standings")
>>> html.count('class="mine"'), html.count('class="lead"')
(1, 1)
>>> "Aki" in html.split('class="mine"')[1].split("</tr>")[0]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from aids.ui.common import html_text, tr

STANDINGS_CSS = """
<style>
.aids-standings-wrap { overflow-x: auto; }
table.aids-standings { border-collapse: collapse; font-size: 15px; width: 100%; }
table.aids-standings th, table.aids-standings td { padding: 2px 6px; text-align: left;
  border-bottom: 1px solid #d0d3d8; color: #111; white-space: nowrap; }
table.aids-standings th { font-size: 12px; font-weight: 600; color: #333; }
table.aids-standings td.place { width: 2.2em; text-align: center; font-weight: 700; }
table.aids-standings td.num, table.aids-standings th.num { text-align: right;
  font-variant-numeric: tabular-nums; }
table.aids-standings tr.lead td { background: #fff4c2; }
table.aids-standings tr.mine td { font-weight: 700; }
table.aids-standings tr.mine td:first-child { box-shadow: inset 4px 0 0 #111; }
table.aids-standings .you { display: inline-block; margin-left: .35em; padding: 0 .35em;
  border-radius: 3px; background: #111; color: #fff; font-size: 11px; font-weight: 700;
  vertical-align: 1px; }
@media (max-width: 480px) { table.aids-standings { font-size: 14px; } }
</style>
"""


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings: its place (None while it has none: not yet placed),
    the seat it belongs to (None for a row no seat owns, such as a horse), and its
    cells as ready-made HTML (names escaped by the game's page; ``html_text``), the first
    of them the name. A cell starting with ``<num>`` is right-aligned figures."""

    place: int | None
    seat: int | None
    cells: tuple[str, ...]


NUM = "<num>"


def standings_html(
    head: Sequence[str], rows: Sequence[Row], *, mine: int | None, you: str, label: str
) -> str:
    """The table: "#" then ``head`` (plain words, escaped here), one line per row in the
    order given; the first place shaded, the row of seat ``mine`` marked with ``you``."""
    numeric = [
        bool(rows) and all(r.cells[i].startswith(NUM) for r in rows) for i in range(len(head))
    ]
    heads = "".join(
        f'<th scope="col"{" class=num" if numeric[i] else ""}>{html_text(h)}</th>'
        for i, h in enumerate(head)
    )
    lines = []
    for row in rows:
        classes = " ".join(
            c
            for c, on in (("lead", row.place == 1), ("mine", mine is not None and row.seat == mine))
            if on
        )
        cells = []
        for i, content in enumerate(row.cells):
            if content.startswith(NUM):
                cells.append(f'<td class="num">{content[len(NUM) :]}</td>')
            elif i == 0 and "mine" in classes:
                cells.append(f'<td>{content}<span class="you">{html_text(you)}</span></td>')
            else:
                cells.append(f"<td>{content}</td>")
        place = "" if row.place is None else str(row.place)
        css = f' class="{classes}"' if classes else ""
        lines.append(f'<tr{css}><td class="place">{place}</td>{"".join(cells)}</tr>')
    return (
        f'{STANDINGS_CSS}<div class="aids-standings-wrap aids-scroll-x" tabindex="0" '
        f'role="region" aria-label="{html_text(label)}"><table class="aids-standings">'
        f'<tr><th scope="col">#</th>{heads}</tr>{"".join(lines)}</table></div>'
    )


def standings_table(
    head: Sequence[str], rows: Sequence[Row], *, mine: int | None, title: str = ""
) -> None:
    """Draw the standings (in the frame's ``standings`` container): a bold title line (the
    game's own word, or "Standings"), then the table."""
    title = title or tr("table.standings")
    st.html(
        f'<p class="aids-head">{html_text(title)}</p>'
        + standings_html(head, rows, mine=mine, you=tr("table.you"), label=title)
    )
