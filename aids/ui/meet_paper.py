"""The event page's tables played on paper: their cards beside the tracked tables, and the
organiser's tab to add one, enter, correct and confirm its result (each seat's place in one
tap, the game's numbers where the event counts them), remove it, and see who did what.

Everything goes through the meet service (``aids.meets.service``), which checks a result
whole by the game's rules before anything is written; a refusal is shown in the organiser's
language, naming the field, and changes nothing.
"""

from __future__ import annotations

import streamlit as st

from aids import registry
from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.games.base import Game
from aids.games.paper import PaperForm
from aids.meets import MeetInfo
from aids.meets.papers import PaperStatus
from aids.meets.spreadsheet import results_csv, standings_csv
from aids.ui.common import html_text, lang, md_text, meets, run_write, tr

MAX_NAMES = 12


def paper_cards(papers: list[PaperStatus], first: int) -> None:
    """One card per paper table, numbered on from the tracked tables: game, title, marked
    "paper", its result's line (waiting, won by…, confirmed)."""
    current = lang()
    for n, status in enumerate(papers, first):
        done = " done" if status.finished else ""
        game = t(f"{status.kind}.name", current)
        with st.container(border=True, key=f"meet_paper_{n}"):
            st.html(
                f'<p class="aids-table-head">{n + 1}. {html_text(game)}'
                f" · {html_text(status.title)}"
                f' <span class="aids-paper-mark">{html_text(tr("meet.paper.mark"))}</span></p>'
                f'<p class="aids-table-line{done}">{html_text(status.line(current))}</p>'
            )


def paper_tab(info: MeetInfo, key: str) -> None:
    """The organiser's tab: the result of the paper table chosen (what the organiser comes
    for, once the tables exist), then the form for a new one."""
    st.caption(tr("meet.paper.hint"))
    papers = meets().papers_of(info.public_id)
    if papers:
        _results(info, key, papers)
    with st.expander(tr("meet.paper.add"), expanded=not papers):
        _new_paper(info, key)


def _results(info: MeetInfo, key: str, papers: list[PaperStatus]) -> None:
    current = lang()
    chosen = st.selectbox(
        tr("meet.paper.which"),
        options=range(len(papers)),
        format_func=lambda i: f"{papers[i].title} · {t(f'{papers[i].kind}.name', current)}",
        key="meet_paper_which",
    )
    status = papers[min(int(chosen or 0), len(papers) - 1)]
    _result_form(info, key, status)
    _confirm_and_remove(info, key, status)
    _log(status)


def _new_paper(info: MeetInfo, key: str) -> None:
    current = lang()
    kinds = [k for k, e in registry.entries().items()
             if type(e.game).paper_form is not Game.paper_form]  # fmt: skip
    with st.form("meet_paper_new", clear_on_submit=True, enter_to_submit=False):
        kind = st.selectbox(tr("table.game"), options=kinds,
                            format_func=lambda k: t(f"{k}.name", current),
                            key="meet_paper_game")  # fmt: skip
        title = st.text_input(tr("table.title"), key="meet_paper_title", max_chars=80)
        names = st.text_area(tr("meet.paper.names"), key="meet_paper_names",
                             help=tr("meet.paper.names_help"), height=120)  # fmt: skip
        made = st.form_submit_button(tr("meet.paper.add"), type="primary")
    if not made:
        return
    seats = [n.strip() for n in str(names).replace("、", "\n").replace(",", "\n").splitlines()]
    seats = [n for n in seats if n][:MAX_NAMES]
    try:
        game = meets().tables.game(str(kind))
        setup = game.setup_to_dict(game.default_setup(seats, current))
        meets().new_paper(info.public_id, key, str(kind), title, setup)
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    st.rerun()


def _result_form(info: MeetInfo, key: str, status: PaperStatus) -> None:
    """Each seat's place (one tap) and the numbers the event's rule asks, in one write."""
    current = lang()
    try:
        form = status.form
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    places = status.places()
    latest = status.latest.result if status.latest and status.latest.result else {}
    n = len(form.seats)
    prefix = f"meet_paper_{status.public_id}_{status.seq}"
    with st.form(prefix, enter_to_submit=False):
        st.markdown(f"**{md_text(tr('meet.paper.result'))}**")
        chosen: list[object] = []
        numbers: dict[str, list[object]] = {f.key: [] for f in form.fields}
        for seat, name in enumerate(form.seats):
            cols = st.columns([2, 3, *(2 for _ in form.fields)], vertical_alignment="center")
            cols[0].markdown(md_text(name))
            chosen.append(cols[1].segmented_control(
                tr("meet.csv.place"), options=list(range(1, n + 1)),
                default=places[seat] if seat < len(places) else None,
                key=f"{prefix}_place_{seat}", label_visibility="collapsed",
            ))  # fmt: skip
            for col, field in zip(cols[2:], form.fields, strict=True):
                before = latest.get(field.key, [])
                numbers[field.key].append(col.number_input(
                    t(f"paper.field.{field.key}", current), min_value=field.low,
                    max_value=field.high, step=1,
                    value=before[seat] if seat < len(before) else None,
                    key=f"{prefix}_{field.key}_{seat}", label_visibility="collapsed",
                    placeholder=t(f"paper.field.{field.key}", current),
                ))  # fmt: skip
        confirm = st.checkbox(tr("meet.paper.confirm_now"), key=f"{prefix}_confirm")
        sent = st.form_submit_button(tr("meet.paper.save"), type="primary")
    if not sent:
        return
    raw = {"places": chosen, **numbers}
    try:
        meets().enter_result(info.public_id, key, status.public_id, _filled(raw, form),
                             expected_seq=status.seq, confirm=bool(confirm))  # fmt: skip
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    st.rerun()


def _filled(raw: dict[str, list[object]], form: PaperForm) -> dict[str, list[object]]:
    """The form's values as a result: an untouched place or number stays None, and the
    service names it (``input/number``, ``places[i]``)."""
    return {k: [int(v) if isinstance(v, int | float) else v for v in vs] for k, vs in raw.items()}


def _confirm_and_remove(info: MeetInfo, key: str, status: PaperStatus) -> None:
    """Confirm the result in force; remove the table (its result and log with it) only
    after a second, explicit tap."""
    pid, seq = info.public_id, status.seq
    left, right = st.columns(2)
    if status.latest is not None and not status.confirmed:
        left.button(
            tr("meet.paper.confirm"), key=f"meet_paper_confirm_{status.public_id}",
            on_click=run_write,
            args=(lambda: meets().confirm_result(pid, key, status.public_id, expected_seq=seq),),
        )  # fmt: skip
    with right.popover(tr("meet.paper.remove")):
        st.warning(tr("meet.paper.remove_warning", title=status.title))
        st.button(
            tr("meet.paper.remove_now"), key=f"meet_paper_remove_{status.public_id}",
            on_click=run_write,
            args=(lambda: meets().remove_paper(pid, key, status.public_id),),
        )  # fmt: skip


def _log(status: PaperStatus) -> None:
    """Who entered, corrected and confirmed the result, and when (from a photo or by hand)."""
    if not status.entries:
        return
    lines = [
        tr(f"meet.paper.step.{e.step}", at=e.created_at[:16].replace("T", " "),
           who=tr(f"meet.paper.by.{e.by}"))
        + (f" · {tr('meet.paper.photo')} {e.photo[:12]}" if e.photo else "")
        for e in status.entries
    ]  # fmt: skip
    st.caption("  \n".join(md_text(line) for line in lines))


def csv_downloads(public_id: str) -> None:
    """The standings and every table's result as CSV, made when clicked."""
    current = lang()

    def standings() -> str:
        return standings_csv(meets().standings(public_id), current)

    def results() -> str:
        info = meets().info(public_id)
        return results_csv(meets().tables_of(public_id), meets().papers_of(public_id),
                           info.scoring, current)  # fmt: skip

    st.download_button(tr("meet.csv.standings"), data=standings, mime="text/csv",
                       file_name=f"event-standings-{public_id[:8]}-{current}.csv",
                       on_click="ignore", key="meet_csv_standings")  # fmt: skip
    st.download_button(tr("meet.csv.results"), data=results, mime="text/csv",
                       file_name=f"event-results-{public_id[:8]}-{current}.csv",
                       on_click="ignore", key="meet_csv_results")  # fmt: skip
