"""The event page's tables played on paper: their cards beside the tracked tables, and the
organiser's tab to add one, print its result slip, read a photo of the filled slip (the
phone's camera or an upload: the values read are proposed in the result form, each flagged
field named and outlined on the photo itself, nothing stored before the organiser saves),
enter, correct and confirm its result (each seat's place in one tap, the game's numbers
where the event counts them), remove it, and see who did what.

Everything goes through the meet service (``aids.meets.service``), which checks a result
whole by the game's rules before anything is written; a refusal is shown in the organiser's
language, naming the field, and changes nothing.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Literal

import streamlit as st

from aids import registry
from aids.core.errors import AidsError
from aids.core.i18n import t
from aids.core.inputs import MAX_PHOTO_MB
from aids.games.base import Game
from aids.games.paper import PaperForm
from aids.meets import MeetInfo
from aids.meets.papers import PaperStatus
from aids.meets.spreadsheet import results_csv, standings_csv
from aids.print.meet_slips import event_slips
from aids.ui.common import html_text, lang, md_text, meets, run_write, tr
from aids.ui.uploads import camera_words, file_box, secure_page

if TYPE_CHECKING:  # the reader (OpenCV) is loaded when a photo first comes, not per page
    from aids.scan.proposal import Proposal

MAX_NAMES = 12
SCAN, SCAN_READ, SCAN_ERROR = "meet_scan", "meet_scan_read", "meet_scan_error"
SCAN_BOX = "meet_scan_box"  # how many results were saved from photos: the boxes' key, so each
# save empties them for the next slip
SCAN_FRESH = "meet_scan_fresh"  # a photo was just read: its proposal is brought into view


def paper_cards(papers: list[PaperStatus], first: int) -> None:
    """One card per paper table, numbered on from the tracked tables: game, title, marked
    "paper", its result's line (waiting, won by…, confirmed)."""
    current = lang()
    for n, status in enumerate(papers, first):
        done = " done" if status.finished else ""
        game = t(f"{status.kind}.name", current)
        look = status.look(current)  # a stored result a rule refuses: what and why
        with st.container(border=True, key=f"meet_paper_{n}"):
            st.html(
                f'<p class="aids-table-head">{n + 1}. {html_text(game)}'
                f" · {html_text(status.title)}"
                f' <span class="aids-paper-mark">{html_text(tr("meet.paper.mark"))}</span></p>'
                f'<p class="aids-table-line{done}">{html_text(status.line(current))}</p>'
                + (f'<p class="aids-table-look">{html_text(look)}</p>' if look else "")
            )


def paper_tab(info: MeetInfo, key: str) -> None:
    """The organiser's tab: a slip's photo to read, the result of the paper table chosen
    (what the organiser comes for, once the tables exist), then the form for a new one."""
    st.caption(tr("meet.paper.hint"))
    papers = meets().papers_of(info.public_id)
    if papers:
        _scan(info, papers)
        _results(info, key, papers)
    with st.expander(tr("meet.paper.add"), expanded=not papers):
        _new_paper(info, key)


def _results(info: MeetInfo, key: str, papers: list[PaperStatus]) -> None:
    current = lang()
    labels = _labels(papers, current)
    chosen = st.selectbox(
        tr("meet.paper.which"), options=range(len(papers)), format_func=lambda i: labels[i],
        key="meet_paper_which",
    )  # fmt: skip
    status = papers[min(int(chosen or 0), len(papers) - 1)]
    st.download_button(
        tr("meet.paper.slip"), data=lambda: event_slips(info, [status], current),
        file_name=f"slip-{status.public_id[:8]}-{current}.pdf", mime="application/pdf",
        on_click="ignore", key=f"meet_paper_slip_{status.public_id}", type="tertiary",
    )  # fmt: skip
    _result_form(info, key, status)
    _confirm_and_remove(info, key, status)
    _log(status)


def _labels(papers: list[PaperStatus], current: str) -> list[str]:
    """Each paper table as the chooser names it: title and game, and where two read the
    same, a count (a select box tells its options apart by their words alone)."""
    labels: list[str] = []
    for status in papers:
        label = f"{status.title} · {t(f'{status.kind}.name', current)}"
        same = sum(1 for other in labels if other == label or other.startswith(f"{label} ("))
        labels.append(f"{label} ({same + 1})" if same else label)
    return labels


def _scan(info: MeetInfo, papers: list[PaperStatus]) -> None:
    """A photo of a filled slip (taken with the phone's camera or uploaded): read, matched to
    its paper table, and proposed in that table's result form below. Nothing is stored until
    the organiser saves the form."""
    current = lang()
    st.markdown(f"**{md_text(tr('meet.scan.title'))}**")
    box = st.session_state.get(SCAN_BOX, 0)
    uploaded = file_box(tr("meet.scan.upload"), ["jpg", "jpeg", "png"], f"meet_scan_upload_{box}",
                        max_mb=MAX_PHOTO_MB, help=tr("meet.scan.help"))  # fmt: skip
    shot = None
    if secure_page():
        with st.expander(tr("meet.scan.camera")):
            camera_words(f"meet_scan_camera_{box}")
            shot = st.camera_input(tr("meet.scan.camera"), key=f"meet_scan_camera_{box}",
                                   label_visibility="collapsed")  # fmt: skip
    else:  # a phone's browser opens no camera for a page on plain HTTP: say where one is
        st.caption(tr("meet.scan.camera_https"))
    photo = shot or uploaded
    if photo is None:
        return
    data = photo.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    if st.session_state.get(SCAN_READ) == digest:
        return  # read already: its proposal (or refusal) stands until another photo
    st.session_state[SCAN_READ] = digest
    st.session_state.pop(SCAN, None)
    from aids.scan import read_slip  # OpenCV: loaded when a photo first comes, not per page
    from aids.scan.proposal import match, proposal

    try:
        reading = read_slip(data)
        status = match(info, papers, reading)
        proposed = proposal(status, reading, current)
    except AidsError as exc:
        st.session_state[SCAN_ERROR] = (exc.code, exc.params)
        return
    st.session_state.pop(SCAN_ERROR, None)
    st.session_state[SCAN_FRESH] = True
    outlined = reading.outlined_photo(data) if proposed.flagged else b""
    st.session_state[SCAN] = (status.public_id, proposed, outlined)
    st.session_state["meet_paper_which"] = next(
        i for i, p in enumerate(papers) if p.public_id == status.public_id
    )


def _scanned(status: PaperStatus) -> Proposal | None:
    """The proposal of the last photo read, if it is of ``status``'s table (its errors
    shown), with the photo and its flagged fields outlined."""
    refused = st.session_state.get(SCAN_ERROR)
    if refused is not None:
        code, params = refused
        st.error(md_text(AidsError(code, **params).message(lang())))
    found = st.session_state.get(SCAN)
    if found is None or found[0] != status.public_id:
        return None
    proposed: Proposal = found[1]
    outlined: bytes = found[2]
    if proposed.flagged:
        st.warning(md_text(tr("meet.scan.flagged", n=len(proposed.flagged))
                           + "  \n" + "  \n".join(proposed.flagged)))  # fmt: skip
        half, _ = st.columns(2)  # half a laptop's page; a phone's whole width, never wider
        half.image(outlined, caption=tr("meet.scan.outlined"), width="stretch")
    else:
        st.success(tr("meet.scan.read", title=md_text(status.title)))
    return proposed


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
    scanned = _scanned(status)
    if status.problem is not None:  # stored by an older release: shown, to be corrected
        st.warning(md_text(status.look(current)))
    latest: dict[str, list[int | None]] = status.stored_values()
    if scanned is not None:
        latest = {k: list(v) for k, v in scanned.result.items()}
    n = len(form.seats)
    places = [p if p in range(1, n + 1) else None for p in latest.get("places", [])]
    prefix = f"meet_paper_{status.public_id}_{status.seq}"
    if scanned is not None:
        prefix += f"_{scanned.photo_sha256[:8]}"  # the photo's values, not the last taps
    with st.container(key="meet_paper_result"), st.form(prefix, enter_to_submit=False):
        st.markdown(f"**{md_text(tr('meet.paper.result'))}**")
        chosen: list[object] = []
        numbers: dict[str, list[object]] = {f.key: [] for f in form.fields}
        # one number: its name is the box's placeholder; two (money and prize money): each
        # box keeps its name above it once filled in, on a laptop and stacked on a phone
        shown: Literal["visible", "collapsed"] = "visible" if len(form.fields) > 1 else "collapsed"
        for seat, name in enumerate(form.seats):
            cols = st.columns([2, 3, *(2 for _ in form.fields)], vertical_alignment="center")
            cols[0].markdown(md_text(name))
            chosen.append(cols[1].segmented_control(
                tr("meet.csv.place"), options=list(range(1, n + 1)),
                default=places[seat] if seat < len(places) else None,
                key=f"{prefix}_place_{seat}", label_visibility="collapsed",
            ))  # fmt: skip
            for col, field in zip(cols[2:], form.fields, strict=True):
                before = [v if v is not None and field.low <= v <= field.high else None
                          for v in latest.get(field.key, [])]  # fmt: skip
                numbers[field.key].append(col.number_input(
                    t(f"paper.field.{field.key}", current), min_value=field.low,
                    max_value=field.high, step=1,
                    value=before[seat] if seat < len(before) else None,
                    key=f"{prefix}_{field.key}_{seat}", label_visibility=shown,
                    placeholder=t(f"paper.field.{field.key}", current),
                ))  # fmt: skip
        confirm = st.checkbox(tr("meet.paper.confirm_now"), value=scanned is not None,
                              key=f"{prefix}_confirm")  # fmt: skip
        sent = st.form_submit_button(tr("meet.paper.save"), type="primary")
    if st.session_state.pop(SCAN_FRESH, False):
        _into_view("meet_paper_result")
    if not sent:
        return
    raw = {"places": chosen, **numbers}
    try:
        photo = scanned.photo_sha256 if scanned is not None else None
        meets().enter_result(info.public_id, key, status.public_id, _filled(raw, form),
                             expected_seq=status.seq, photo=photo,
                             confirm=bool(confirm))  # fmt: skip
    except AidsError as exc:
        st.error(md_text(exc.message(current)))
        return
    if scanned is not None:  # the next slip starts from empty boxes: no tap to clear them
        st.session_state[SCAN_BOX] = st.session_state.get(SCAN_BOX, 0) + 1
        st.session_state.pop(SCAN_READ, None)
    st.session_state.pop(SCAN, None)
    st.rerun()


def _into_view(key: str) -> None:
    """Scroll the box ``key`` up until its foot is on screen once it and the pictures above it
    are drawn: a phone that has just read a slip shows the proposed result and its Save
    button, not the photo's box above them."""
    st.html(
        "<script>setTimeout(() => Promise.all([...document.images].filter(i => !i.complete)"
        ".map(i => new Promise(done => { i.onload = i.onerror = done; })))"
        ".then(() => document.querySelector('.st-key-" + key + "')"
        "?.scrollIntoView({block: 'end'})), 200);</script>",
        unsafe_allow_javascript=True,
    )


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
        st.warning(tr("meet.paper.remove_warning", title=md_text(status.title)))
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
    papers = meets().papers_of(public_id)
    if papers:
        info = meets().info(public_id)
        st.download_button(tr("meet.paper.slips"),
                           data=lambda: event_slips(info, meets().papers_of(public_id), current),
                           file_name=f"event-slips-{public_id[:8]}-{current}.pdf",
                           mime="application/pdf", on_click="ignore",
                           key="meet_download_slips")  # fmt: skip
