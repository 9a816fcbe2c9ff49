"""Shared layout of a game's page: choices on a fixed grid, and the look of a board table.

A choice laid on a fixed grid keeps each option in its own place (a horse in its row's cell,
a card under its value), so the box never changes height as options come and go and the
buttons below or beside it never move under the referee's finger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from aids.games.palette import Colour
from aids.ui.common import html_text, ink_on, md_text, tr

PILL_ROW = 2.1  # rem: one row of a grid of pills
PILL_GAP = 0.3  # rem: between rows and columns


@dataclass(frozen=True, slots=True)
class Grid:
    """Where each option of a choice sits: ``cells[i]`` = (row, column) of option ``i``, from 0.
    ``narrow`` is the layout for a box narrower than ``below`` (a phone, a tablet's column)."""

    columns: int
    rows: int
    cells: Sequence[tuple[int, int]]
    narrow: Grid | None = None
    below: str = "30rem"

    @staticmethod
    def height(rows: int) -> str:
        return f"{rows * PILL_ROW + (rows - 1) * PILL_GAP:.2f}rem"


def box(key: str) -> Any:
    """A bordered box whose choices and notes lay themselves out by the box's own width."""
    st.html(f"<style>.st-key-{key} {{ container-type: inline-size; }}</style>")
    return st.container(border=True, key=key)


def head_row(text: str, key: str) -> Any:
    """A box's first row: what it records on the left, its buttons (added later with
    ``row.button``) on the right; in a narrow box the buttons go under the text, whole."""
    st.html(
        f"<style>.st-key-{key} > .stElementContainer:first-child"
        " { flex: 1 1 11rem; min-width: 11rem; }</style>"
    )
    row = st.container(horizontal=True, vertical_alignment="center", key=key)
    row.html(f'<p class="aids-head">{html_text(text)}</p>', width="stretch")
    return row


def _grid_css(group: str, grid: Grid) -> list[str]:
    css = [
        f"{group} {{ display: grid; grid-template-columns: repeat({grid.columns}, minmax(0, 1fr));"
        f" grid-template-rows: repeat({grid.rows}, {PILL_ROW}rem); gap: {PILL_GAP}rem;"
        f" width: 100%; height: {Grid.height(grid.rows)}; }}",
        f"{group} > button {{ width: 100%; min-width: 0; min-height: 0; height: {PILL_ROW}rem;"
        " margin: 0; padding: 0 .25rem; justify-content: center; }",
        f"{group} > button p {{ overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }}",
    ]
    for i, (row, column) in enumerate(grid.cells, start=1):
        css.append(f"{group} > button:nth-of-type({i}) {{ grid-area: {row + 1} / {column + 1}; }}")
    return css


def _responsive(selector: str, wide: Grid, rules: Any) -> str:
    """``rules(grid)`` for the wide layout, and again inside a container query for the narrow."""
    css = rules(wide)
    if wide.narrow is not None:
        css += [f"@container (max-width: {wide.below}) {{", *rules(wide.narrow), "}"]
    return "<style>" + "\n".join(css) + "</style>"


def grid_note(text: str, grid: Grid, key: str) -> None:
    """Words in place of a choice laid out on ``grid``, at its height (nothing below moves)."""
    note = f'[data-key="{key}"]'
    st.html(_responsive(note, grid, lambda g: [f"{note} {{ height: {Grid.height(g.rows)}; }}"]))
    st.html(
        f'<div class="aids-grid-note" data-key="{html_text(key)}"><p>{html_text(text)}</p></div>'
    )


def choice_grid(
    label: str, options: Sequence[Any], *, key: str, grid: Grid, format_func: Any = str
) -> Any:
    """One choice (pills) on a fixed grid, its label read to screen readers only (the box's
    first row says it on screen; Streamlit reads a label as Markdown, so names are escaped).
    Empty cells keep their space."""
    group = f'.st-key-{key} [role="radiogroup"]'
    st.html(_responsive(group, grid, lambda g: _grid_css(group, g)))
    return st.pills(
        md_text(label),
        options=list(options),
        format_func=format_func,
        key=key,
        label_visibility="collapsed",
        width="stretch",
    )


def count_input(label: str, limit: int, key: str) -> int:
    """A whole number 0..``limit`` (the engine's limit, never re-derived); 0 when none."""
    if limit == 0:
        return 0
    return int(st.number_input(label, min_value=0, max_value=limit, value=0, step=1, key=key))


def cell(content: str, *classes: str, tag: str = "td", tip: str = "") -> str:
    """One table cell of ready-made HTML, with its classes and a tooltip (escaped here)."""
    css = " ".join(c for c in classes if c)
    attrs = (f' class="{css}"' if css else "") + (f' title="{html_text(tip)}"' if tip else "")
    attrs += ' scope="col"' if tag == "th" else ""
    return f"<{tag}{attrs}>{content}</{tag}>"


def board_table(head: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], kind: str) -> str:
    """The board: ``head`` cells, then each row's (class, cells), in the shared look; in a
    box that scrolls sideways on a narrow screen, reachable from the keyboard."""
    body = "".join(f'<tr class="{css}">{"".join(cells)}</tr>' for css, cells in rows)
    label = html_text(tr("live.board"))
    return (
        f'{BOARD_CSS}<div class="aids-board-wrap" tabindex="0" role="region" '
        f'aria-label="{label}"><table class="aids-board {html_text(kind)}">'
        f"<tr>{''.join(head)}</tr>{body}</table></div>"
    )


def alert(text: str) -> None:
    """Something the referee must know before going on (first line bold), read out at once."""
    first, _, rest = text.partition("\n")
    more = f"<br>{html_text(rest)}" if rest else ""
    st.html(f'<div class="aids-banner warn" role="alert"><b>{html_text(first)}</b>{more}</div>')


def legend_line(text: str, latest: str) -> str:
    """The line under a board that says what its marks mean, and how the last move looks."""
    return (
        f'<p class="aids-legend">{html_text(text)} <span class="box" aria-hidden="true"></span> '
        f"{html_text(latest)}</p>"
    )


def chip(text: object, background: str) -> str:
    """A card or a value on its colour, in black or white, whichever reads better."""
    return (
        f'<span class="chip" style="background:{html_text(background)};color:{ink_on(background)}">'
        f"{html_text(text)}</span>"
    )


# The board: a table of rows (horses, runners) by columns (fences, stages), cards as chips,
# marks as badges. Status is never colour alone: a fallen row is struck through and says so,
# the last move is outlined and named in the legend.
BOARD_CSS = """
<style>
.aids-board-wrap { overflow-x: auto; }
table.aids-board { border-collapse: collapse; font-size: 14px; width: 100%; min-width: 340px; }
table.aids-board th, table.aids-board td { border: 1px solid #b9bcc2; padding: 2px 3px;
  text-align: center; white-space: nowrap; color: #111; }
table.aids-board th { background: #eef1f5; font-weight: 600; }
table.aids-board th.now { background: #ffe08a; }
table.aids-board th abbr { text-decoration: none; cursor: help; }
table.aids-board td.name { text-align: left; max-width: 8em; overflow: hidden;
  text-overflow: ellipsis; }
table.aids-board td.slot { width: 1.5em; background: #f7f7f7; }
table.aids-board tr.out td { background: #ececec; color: #3d3d3d; }
table.aids-board tr.out td.name { text-decoration: line-through; }
table.aids-board td.latest { outline: 3px solid #111; outline-offset: -3px;
  background: #fff4c2; }
.aids-board .chip { display: inline-block; min-width: 1.4em; border-radius: 4px;
  font-weight: 700; padding: 0 2px; }
.aids-board .under { font-size: 11px; color: #3d3d3d; }
.aids-board .dot { font-size: 15px; line-height: 1; }
.aids-legend { font-size: 13px; color: #333; margin: .3rem 0 0 0; line-height: 1.5; }
.aids-legend .box { display: inline-block; width: 1em; height: .9em; vertical-align: -1px;
  outline: 3px solid #111; outline-offset: -3px; background: #fff4c2; }
@media (max-width: 480px) { table.aids-board { font-size: 12px; } }
</style>
"""


def names_with_colours(
    count: int,
    colours: Sequence[Colour],
    *,
    name_label: Callable[[int], str],
    colour_label: str,
    key: str,
    lang: str,
) -> list[dict[str, str]]:
    """Rows of a name and a colour (players, teams) for a setup form, in seat order; each row
    starts on its own palette colour. Empty rows at the end are unused seats and left out; an
    empty row between two names is kept, so the setup refuses it (seats never shift)."""
    keys = [c.key for c in colours]
    by_key = {c.key: c for c in colours}
    rows: list[dict[str, str]] = []
    for i in range(count):
        name_col, colour_col = st.columns([3, 2])
        name = name_col.text_input(name_label(i + 1), key=f"{key}_{i}", max_chars=40)
        colour = colour_col.selectbox(
            colour_label,
            options=keys,
            index=i % len(keys),
            format_func=lambda k: by_key[k].label(lang),
            key=f"{key}_colour_{i}",
        )
        rows.append({"name": name, "colour": str(colour)})
    while rows and not rows[-1]["name"].strip():
        rows.pop()
    return rows
