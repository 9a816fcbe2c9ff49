"""An event's page (``?meet=<public id>``, the organiser adds ``&key=``), and the home page's
events tab (the events, a new event).

Anyone with the link sees, refreshed on its own: the scoring rule, the event standings and
every table with its status (game, title, step, finished or who is to move, who leads) and
its viewer QR code. The organiser's key adds below: add or remove a table, start a new table
in the event, the title, date and scoring rule, the print pack, the export and a new
organiser link. Every table is read through the viewer's snapshot; titles and names are text.
"""

from __future__ import annotations

import json
from datetime import date as Date
from functools import lru_cache, partial

import streamlit as st

from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.links import meet_url, viewer_url, wall_url
from aids.meets import MeetInfo, Scoring, Standing, TableStatus, scoring_of
from aids.meets.scoring import DEFAULT_POINTS
from aids.print.meet_sheet import render_meet_pack, render_standings
from aids.ui.common import (
    base_url,
    client,
    heading,
    html_text,
    lang,
    lazy_popover,
    md_text,
    meets,
    page_error,
    page_header,
    paper_choice,
    role_or_viewer,
    run_write,
    show_flash,
    tr,
)
from aids.ui.meet_paper import csv_downloads, paper_cards, paper_tab
from aids.ui.new_table import table_form
from aids.ui.sharing import (
    announce_organiser_link,
    announce_referee_link,
    qr_png,
    show_new_link,
)

REFRESH_SECONDS = 2.0  # the event page re-reads every table; a few tables' worth per tick
MEET_CSS = """
<style>
table.aids-standings { width: 100%; border-collapse: collapse; font-size: 1rem; }
table.aids-standings th { text-align: left; font-weight: 600; font-size: .8rem;
  border-bottom: 2px solid #555; padding: .2rem .35rem; }
table.aids-standings td { padding: .3rem .35rem; border-bottom: 1px solid #ddd; }
table.aids-standings .n { text-align: right; font-variant-numeric: tabular-nums; }
table.aids-standings tr.first td { background: #fff4c2; font-weight: 600; }
p.aids-table-head { margin: 0; font-weight: 600; line-height: 1.3; }
p.aids-table-line { margin: .15rem 0 0 0; line-height: 1.35; }
p.aids-table-line.done { color: #0f3320; }
p.aids-table-look { margin: .2rem 0 0 0; line-height: 1.35; font-size: .9rem; color: #6b3200; }
span.aids-paper-mark { font-weight: 600; font-size: .8rem; padding: 0 .35rem;
  border: 1px solid #555; border-radius: .3rem; white-space: nowrap; }
</style>
"""


@lru_cache(maxsize=256)
def _qr(url: str) -> bytes:
    return qr_png(url)


# --- the event page ------------------------------------------------------------------------


def render_meet(public_id: str, key: str | None) -> None:
    """The page of one event for whoever holds the URL."""
    try:
        ask = partial(meets().access, public_id, key, client=client())
        (role, status), paused = role_or_viewer(ask, ("viewer", "wrong"), "meet/key_attempts")
        key = None if paused else key
        info = meets().info(public_id)
    except AidsError as exc:
        page_error(exc)
        return
    organiser = role == "organiser"
    with page_header(lambda: _event_qr(info)):
        heading(info.title)
        st.caption(f"{tr('meet.name')} · {md_text(info.date)} · {tr(f'meet.role.{role}')}")
    st.html(MEET_CSS)
    if key and status == "replaced":
        st.warning(tr("meet.key_replaced"))  # an old tab of the organiser's: nothing spent
    elif key and not organiser:
        st.error(tr("meet.key_invalid"))
    show_flash()
    show_new_link()
    _live(public_id)
    if organiser:
        _organiser(info, str(key))


def _event_qr(info: MeetInfo) -> None:
    """The event's own link and QR code, one tap from the top (for a screen or a poster)."""
    box = lazy_popover(tr("meet.qr_button"), "meet_qr")
    if box is None:
        return  # drawn once opened: a closed box costs the page nothing
    link = meet_url(base_url(), info.public_id, lang())
    with box:
        st.image(_qr(link), width=240, alt=tr("meet.link"))
        st.markdown(f"**{md_text(tr('meet.link'))}**")
        st.code(link, language=None, wrap_lines=True)
        # the wall: this event on a TV or a projector (aids.live.wall)
        wall = wall_url(base_url(), info.public_id, lang())
        st.link_button(tr("meet.wall"), wall, type="tertiary", help=tr("meet.wall_help"))


@st.fragment(run_every=REFRESH_SECONDS)
def _live(public_id: str) -> None:
    """The standings and the tables, read fresh on every tick (the URL holds the event)."""
    try:
        info = meets().info(public_id)
        tables = meets().tables_of(public_id)
        papers = meets().papers_of(public_id)
    except AidsError as exc:
        st.error(md_text(exc.message(lang())))
        return
    rows = meets().standings(public_id, tables, papers)
    hidden = len(meets().members(public_id)) - len(tables)
    if hidden > 0:
        st.warning(tr("meet.unreadable", n=hidden))
    left, right = st.columns([1, 1], gap="medium")
    with left, st.container(key="meet_standings"):
        st.subheader(tr("meet.standings"), anchor=False)
        st.caption(info.scoring.describe(lang()))
        _standings(rows)
        if any(p.problem is not None for p in papers):  # the one rule such a table follows
            st.caption(tr("meet.paper.look_rule"))
    with right, st.container(key="meet_tables"):
        done = sum(1 for s in tables if s.finished) + sum(1 for p in papers if p.finished)
        st.subheader(tr("meet.tables"), anchor=False)
        st.caption(tr("meet.sheet.count", n=len(tables) + len(papers), done=done))
        if not tables and not papers:
            st.info(tr("meet.no_tables"))
        for n, status in enumerate(tables):
            _table_card(n, status)
        paper_cards(papers, len(tables))


def _standings(rows: tuple[Standing, ...]) -> None:
    if not rows:
        st.info(tr("meet.no_players"))
        return
    heads = ("rank", "name", "points", "played", "wins", "in_play")
    numeric = ' class="n"'
    head = "".join(
        f'<th scope="col"{"" if h == "name" else numeric}>{html_text(tr(f"meet.col.{h}"))}</th>'
        for h in heads
    )
    body = []
    for row in rows:
        first = ' class="first"' if row.rank == 1 and row.points > 0 else ""
        cells = (
            f'<td class="n">{row.rank}</td><td>{html_text(row.name)}</td>'
            f'<td class="n">{row.points:,}</td><td class="n">{row.played}</td>'
            f'<td class="n">{row.wins}</td><td class="n">{row.in_play or ""}</td>'
        )
        body.append(f"<tr{first}>{cells}</tr>")
    st.html(
        f'<table class="aids-standings"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    st.caption(tr("meet.standings_note"))


def _table_card(n: int, status: TableStatus) -> None:
    """One table: its viewer QR code, game and title, its status, a link to open it."""
    current = lang()
    link = viewer_url(base_url(), status.public_id, current)
    done = " done" if status.finished else ""
    with st.container(border=True, key=f"meet_table_{n}"):
        qr_col, text_col = st.columns([1, 3], vertical_alignment="center")
        qr_col.image(_qr(link), width=104, alt=tr("meet.table_qr", title=status.title))
        text_col.html(
            f'<p class="aids-table-head">{n + 1}. {html_text(t(f"{status.kind}.name", current))}'
            f" · {html_text(status.title)}</p>"
            f'<p class="aids-table-line{done}">{html_text(status.line(current))}</p>'
        )
        text_col.link_button(tr("meet.open_table"), link, type="tertiary")


# --- the organiser's tools -----------------------------------------------------------------


def _organiser(info: MeetInfo, key: str) -> None:
    st.divider()
    st.subheader(tr("meet.organiser"), anchor=False)
    add, new, paper, settings, printing, link = st.tabs(
        [
            tr("meet.tab.add"),
            tr("meet.tab.new"),
            tr("meet.tab.paper"),
            tr("meet.tab.settings"),
            tr("meet.tab.print"),
            tr("meet.tab.link"),
        ]
    )
    with add:
        _add_form(info, key)
    with new:
        _new_table(info, key)
    with paper:
        paper_tab(info, key)
    with settings:
        _settings(info, key)
    with printing:
        _printing(info, key)
    with link:
        st.caption(tr("meet.link_hint"))
        st.button(tr("meet.rotate"), key="meet_rotate", on_click=_rotate, args=(info, key))


def _add_form(info: MeetInfo, key: str) -> None:
    pid = info.public_id
    with st.form("meet_add", clear_on_submit=True, enter_to_submit=True):
        st.text_input(tr("meet.add_ref"), key="meet_add_ref", help=tr("meet.add_help"))
        st.form_submit_button(tr("meet.add"), type="primary", on_click=_add, args=(pid, key))
    tables = meets().members(pid)  # a table this tracker cannot read can still be taken out
    if not tables:
        return
    choice = st.selectbox(
        tr("meet.remove_which"),
        options=range(len(tables)),
        format_func=lambda i: f"{i + 1}. {tables[i].title}",
        key="meet_remove_which",
    )
    st.button(
        tr("meet.remove"),
        key="meet_remove",
        on_click=run_write,
        args=(lambda: meets().remove_table(pid, key, tables[choice].public_id),),
    )


def _add(public_id: str, key: str) -> None:
    ref = st.session_state.get("meet_add_ref", "")
    run_write(lambda: meets().add_table(public_id, key, ref))


def _new_table(info: MeetInfo, key: str) -> None:
    st.caption(tr("meet.new_hint"))
    made = table_form(
        lambda kind, title, setup: meets().new_table(info.public_id, key, kind, title, setup),
        prefix="meet_new",
    )
    if made is None:
        return
    table, referee_key = made
    announce_referee_link(table.public_id, referee_key, created=True)
    st.rerun()


def _settings(info: MeetInfo, key: str) -> None:
    current = lang()
    with st.form("meet_settings", enter_to_submit=False):
        title = st.text_input(tr("meet.title"), value=info.title, max_chars=80)
        day = st.date_input(tr("meet.date"), value=Date.fromisoformat(info.date))
        rule, points = _rule_fields(info.scoring, current, "meet_set")
        saved = st.form_submit_button(tr("meet.save"), type="primary")
    if not saved:
        return
    try:
        scoring = scoring_of(rule, points)
        meets().update(info.public_id, key, title=title, date=_day(day), scoring=scoring)
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    st.rerun()


def _rule_fields(scoring: Scoring, current: str, prefix: str) -> tuple[str, str]:
    """The scoring rule's inputs: placing points (with its table) or each game's score."""
    rule = st.radio(
        tr("meet.rule_label"),
        options=["placing", "score"],
        index=0 if scoring.rule == "placing" else 1,
        format_func=lambda r: t(f"meet.rule_name.{r}", current),
        key=f"{prefix}_rule",
        horizontal=True,
    )
    points = st.text_input(
        tr("meet.points"),
        value=", ".join(str(p) for p in scoring.points),
        key=f"{prefix}_points",
        help=tr("meet.points_help"),
    )
    return str(rule), str(points)


def _day(day: object) -> str:
    return day.isoformat() if isinstance(day, Date) else ""


def _printing(info: MeetInfo, key: str) -> None:
    pid, current = info.public_id, lang()
    paper = paper_choice("meet_paper")

    def read() -> tuple[MeetInfo, list[TableStatus], tuple[Standing, ...]]:
        tables = meets().tables_of(pid)  # printed when clicked: the state at that moment
        return meets().info(pid), tables, meets().standings(pid, tables)

    def standings_pdf() -> bytes:
        return render_standings(*read(), base_url(), current, paper, meets().papers_of(pid))

    def pack_pdf() -> bytes:
        return render_meet_pack(*read(), base_url(), current, paper, meets().papers_of(pid))

    st.download_button(
        tr("meet.download_standings"),
        data=standings_pdf,
        file_name=f"event-standings-{pid[:8]}-{current}-{paper}.pdf",
        mime="application/pdf",
        on_click="ignore",
        key="meet_download_standings",
    )
    st.download_button(
        tr("meet.download_pack"),
        data=pack_pdf,
        file_name=f"event-pack-{pid[:8]}-{current}-{paper}.pdf",
        mime="application/pdf",
        on_click="ignore",
        key="meet_download_pack",
    )
    csv_downloads(pid)
    try:  # whether it may be offered; the file itself is made, and the key checked, on click
        meets().organiser_export(pid, key)
    except AidsError as exc:
        st.caption(md_text(exc.message(current)))
        return
    st.download_button(
        tr("meet.export"),
        data=lambda: json.dumps(meets().organiser_export(pid, key), ensure_ascii=False, indent=2),
        file_name=f"event-{pid[:8]}.json",
        mime="application/json",
        on_click="ignore",
        key="meet_download_export",
    )


def _rotate(info: MeetInfo, key: str) -> None:
    new: list[str] = []
    run_write(lambda: new.append(meets().rotate_key(info.public_id, key)))
    if new:
        st.query_params["key"] = new[0]
        announce_organiser_link(info.public_id, new[0])


# --- the home page's events tab ------------------------------------------------------------


def event_tab() -> None:
    """The events, newest night first, and the form for a new one."""
    current = lang()
    listed = meets().list_meets()
    if listed:
        items = [
            f"<li><b>{html_text(m.title)}</b> · {html_text(m.date)}"
            f' · <a href="{html_text(meet_url(base_url(), m.public_id, current))}" target="_self">'
            f"{html_text(tr('meet.open'))}</a></li>"
            for m in listed
        ]
        st.html(f"<ul>{''.join(items)}</ul>")
    else:
        st.caption(tr("meet.no_events"))
    st.subheader(tr("meet.new"), anchor=False)
    with st.form("meet_new_event", enter_to_submit=False):
        title = st.text_input(tr("meet.title"), key="meet_title", max_chars=80)
        day = st.date_input(tr("meet.date"), value=Date.today(), key="meet_date")
        rule, points = _rule_fields(Scoring("placing", DEFAULT_POINTS), current, "meet_create")
        submitted = st.form_submit_button(tr("meet.create"), type="primary")
    if not submitted:
        return
    try:
        info, key = meets().create(title, _day(day), scoring_of(rule, points))
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    st.query_params.update({"meet": info.public_id, "key": key, "lang": current})
    announce_organiser_link(info.public_id, key, created=True)  # once, with a QR code
    st.rerun()
