"""Links of a table page, for every game: the players' QR code one tap from the top, a new
link shown once (with a copy button and a QR code), share/print/export and the keys.

The players' QR box and the share and keys sections are drawn only while open
(``lazy_expander``): closed, their QR codes, copyable links and buttons cost every page
load about a quarter of the browser's work (a referee page mid-race, measured in chromium:
3.1 → 2.3 s of processor time) and the server two QR codes and a query of the keys on every
rerun. Opening one reruns the page once, which then draws it; it stays open
through later reruns."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import qrcode
import streamlit as st

from aids import registry
from aids.core.errors import Forbidden
from aids.core.links import organiser_url, referee_url, viewer_url
from aids.games.base import VIEWER, Role
from aids.print.frame import render_sheet
from aids.print.pack import render_pack
from aids.print.report import render_report
from aids.ui.common import (
    base_url,
    client,
    lang,
    lazy_expander,
    lazy_popover,
    md_text,
    md_tr,
    paper_choice,
    run_write,
    service,
    tr,
)

if TYPE_CHECKING:
    from aids.ui.context import TableContext

NEW_LINK = "_new_link"
# Scrolls the page to its top: the home page's create button sits far down its form, and the
# browser would keep that scroll position on the new table's page (past the turn banner).
TO_TOP = """<script>
for (const wait of [0, 250, 800]) setTimeout(() => {
  document.querySelector('[data-testid="stMain"]')?.scrollTo({top: 0});
  window.scrollTo(0, 0);
}, wait);
</script>"""


def qr_png(url: str) -> bytes:
    image = qrcode.make(url, border=4)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def players_qr(ctx: TableContext) -> None:
    """The header's button for the players' (viewer) QR code: one tap from the top."""
    box = lazy_popover(tr("page.players_qr"), "players_qr")
    if box is None:
        return
    link = viewer_url(base_url(), ctx.snapshot.info.public_id, ctx.lang)
    with box:
        st.image(qr_png(link), width=240, alt=tr("table.viewer_link"))
        st.markdown(f"**{md_text(tr('table.viewer_link'))}**")
        st.code(link, language=None, wrap_lines=True)
        st.caption(tr("page.players_qr_hint"))


def announce_link(role: Role | str, link: str, *, created: bool = False, name: str = "") -> None:
    """Show ``link`` once, on the next run (only its key's hash is kept). ``role`` is a
    table's role, or ``"organiser"`` for an event's organiser link; ``name``: the player a
    seat's link is for."""
    st.session_state[NEW_LINK] = (str(role), link, created, name)


def announce_organiser_link(public_id: str, key: str, *, created: bool = False) -> None:
    announce_link("organiser", organiser_url(base_url(), public_id, key, lang()), created=created)


def announce_referee_link(public_id: str, key: str, *, created: bool = False) -> None:
    announce_link(Role("referee"), referee_url(base_url(), public_id, key, lang()), created=created)


def show_new_link() -> None:
    """A link just issued, in a dialog over the page: the words to keep it, a copy button
    (``st.code``), a QR code for the referee's own phone, and a button that closes it.

    The link stays in the session until the dialog is closed (the button, or dismissed), so
    a rerun of the whole page meanwhile — another device's write, the newest chances ready —
    draws the dialog again instead of closing it before the link is kept."""
    pending = st.session_state.get(NEW_LINK)
    if not pending:
        return
    role, link, created, name = pending
    hint = tr("page.own_phone_qr")
    if role == "organiser":
        label = tr("meet.page.created_link") if created else tr("meet.page.new_link")
        title = tr("meet.organiser_link")
    elif role != "referee":
        player = name or role
        label = md_tr("table.new_seat_link", name=player)
        title = md_tr("table.seat_link", name=player)
        hint = md_tr("page.seat_phone_qr", name=player)
    elif created:
        label, title = tr("page.created_referee_link"), tr("table.referee_link")
    else:
        label, title = tr("table.new_referee_link"), tr("table.referee_link")

    def body() -> None:
        st.success(label)
        st.code(link, language=None, wrap_lines=True)
        qr_col, text_col = st.columns([1, 1], vertical_alignment="center")
        qr_col.image(qr_png(link), width=200, alt=title)
        text_col.caption(hint)
        if st.button(tr("page.link_kept"), key="new_link_done", type="primary"):
            _link_kept()
            st.rerun()
        if created:
            st.html(TO_TOP, unsafe_allow_javascript=True)

    st.dialog(title, width="medium", on_dismiss=_link_kept)(body)()


def _link_kept() -> None:
    """The dialog of a new link is closed: the link leaves the session (it is shown once)."""
    st.session_state.pop(NEW_LINK, None)


def share(ctx: TableContext) -> None:
    """The referee's share-and-print section (the players' link, sheets, report, export),
    then the keys section; each drawn only while open."""
    section = lazy_expander(tr("table.share_print"), "share_section")
    if section is not None:
        _share_body(ctx, section)
    keys(ctx)


def _share_body(ctx: TableContext, section: Any) -> None:
    pid = ctx.snapshot.info.public_id
    kind = ctx.snapshot.info.kind
    current = ctx.lang
    link = viewer_url(base_url(), pid, current)
    with section:
        st.caption(tr("table.referee_link_hint"))
        qr_col, text_col = st.columns([1, 2])
        qr_col.image(qr_png(link), width=180, alt=tr("table.viewer_link"))
        text_col.markdown(f"**{md_text(tr('table.viewer_link'))}**")
        text_col.code(link, language=None, wrap_lines=True)
        paper = paper_choice("paper", text_col)
        text_col.download_button(
            tr("table.download_sheet"),
            data=lambda: render_sheet(
                registry.sheet_module(kind),
                ctx.game,
                service().snapshot(pid, VIEWER),  # a printed sheet is public
                base_url(),
                current,
                paper,
            ),
            file_name=f"{kind}-sheet-{current}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_sheet",
        )
        duplex = text_col.toggle(
            tr("table.duplex"), key="pack_duplex", help=tr("table.duplex_help")
        )
        text_col.download_button(
            tr("table.download_pack"),
            data=lambda: render_pack(
                ctx.game,
                registry.sheet_module(kind),
                service().snapshot(pid, VIEWER),
                base_url(),
                (current, "en" if current == "ja" else "ja"),
                paper,
                duplex=duplex,
            ),
            file_name=f"{kind}-pack-{current}-{paper}{'-duplex' if duplex else ''}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_pack",
        )
        text_col.download_button(
            tr("report.download"),
            data=lambda: render_report(
                ctx.game,
                registry.sheet_module(kind),
                service().snapshot(pid, VIEWER),  # a report is public
                base_url(),
                current,
                paper,
            ),
            file_name=f"{kind}-report-{pid[:8]}-{current}-{paper}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_report",
        )
        _export_button(ctx, text_col)


def _export_button(ctx: TableContext, where: Any) -> None:
    """The table's JSON backup for the referee. The file is made only when clicked, from
    the referee's export, which checks the key at that moment (a tab whose link was rotated
    gets nothing) and refuses while it would show anything the referee's page does not (a
    sealed blind bet, a team's roster). While a choice is sealed the button is not offered
    and the page says why."""
    if any(entry.sealed for entry in ctx.snapshot.log):
        where.caption(Forbidden("table/export_sealed").message(lang()))
        return
    pid, key, who = ctx.snapshot.info.public_id, ctx.key, client()
    where.download_button(
        tr("table.export_json"),
        data=lambda: json.dumps(
            service().referee_export(pid, key, client=who), ensure_ascii=False, indent=2
        ),
        file_name=f"table-{pid[:8]}.json",
        mime="application/json",
        on_click="ignore",
        key="download_export",
    )


def keys(ctx: TableContext) -> None:
    """Rotate the referee link; issue, rotate and revoke seat links where a game has them."""
    section = lazy_expander(tr("table.keys"), "keys_section")
    if section is None:
        return
    pid, key = ctx.snapshot.info.public_id, ctx.key
    with section:
        st.caption(tr("table.keys_hint"))
        st.button(
            tr("table.rotate_referee"),
            key="rotate_referee",
            on_click=_rotate,
            args=(pid, key, Role("referee")),
        )
        live = {k.role for k in service().keys(pid, key) if k.revoked_at is None}
        _stray_keys(ctx, live)
        if not ctx.game.info.seat_keys:
            return
        for seat, name in enumerate(ctx.snapshot.seats):
            role = Role.seat_of(seat)
            name_col, issue_col, revoke_col = st.columns([2, 1, 1])
            name_col.text(
                f"{name} — {tr('table.has_link') if role in live else tr('table.no_link')}"
            )
            issue_col.button(
                tr("table.issue_seat"),
                key=f"issue_{seat}",
                on_click=_rotate,
                args=(pid, key, role, name),
            )
            revoke_col.button(
                tr("table.revoke_seat"),
                key=f"revoke_{seat}",
                disabled=role not in live,
                on_click=run_write,
                args=(lambda r=role: service().revoke_key(pid, key, r),),
            )
        _sheets_with_links(ctx)


def _stray_keys(ctx: TableContext, live: set[Role]) -> None:
    """Live keys of a role this table gives no link (a seat key on a game without seat
    links, a seat it does not have: an older import could carry one). They open nothing,
    and the referee sees each and revokes it."""
    pid, key = ctx.snapshot.info.public_id, ctx.key
    seats = range(len(ctx.snapshot.seats)) if ctx.game.info.seat_keys else range(0)
    stray = sorted(r for r in live if not r.is_referee and r.seat not in seats)
    for role in stray:
        name_col, revoke_col = st.columns([3, 1])
        name_col.text(tr("table.stray_key", role=str(role)))
        revoke_col.button(
            tr("table.revoke_seat"),
            key=f"revoke_stray_{role}",
            on_click=run_write,
            args=(lambda r=role: service().revoke_key(pid, key, r),),
        )


SEAT_SHEET = "seat_sheet_pdf"  # the sheets with private links, kept for one download


def _sheets_with_links(ctx: TableContext) -> None:
    """Every seat a new private link, printed on its own page of the sheets (a QR to scan):
    the old links stop. The PDF is offered once and never stored."""
    st.caption(tr("table.seat_sheet_hint"))
    paper = paper_choice("seat_paper")
    st.button(
        tr("table.seat_sheet_go"),
        key="seat_sheet_go",
        on_click=_print_with_links,
        args=(ctx, paper),
    )
    pdf = st.session_state.pop(SEAT_SHEET, None)
    if pdf is not None:
        st.download_button(
            tr("table.seat_sheet_download"),
            data=pdf,
            file_name=f"{ctx.snapshot.info.kind}-sheet-private-{ctx.lang}.pdf",
            mime="application/pdf",
            on_click="ignore",
            key="download_seat_sheet",
        )


def _print_with_links(ctx: TableContext, paper: str) -> None:
    pid, key, kind = ctx.snapshot.info.public_id, ctx.key, ctx.snapshot.info.kind
    links: dict[int, str] = {}

    def issue() -> None:
        for seat in range(len(ctx.snapshot.seats)):
            new = service().rotate_key(pid, key, Role.seat_of(seat))
            links[seat] = referee_url(base_url(), pid, new, ctx.lang)

    run_write(issue)
    if len(links) != len(ctx.snapshot.seats):
        return
    st.session_state[SEAT_SHEET] = render_sheet(
        registry.sheet_module(kind),
        ctx.game,
        service().snapshot(pid, VIEWER),  # the public sheet, plus each seat's own link
        base_url(),
        ctx.lang,
        paper,
        seat_links=links,
    )


def _rotate(public_id: str, key: str | None, role: Role, name: str = "") -> None:
    """A new key for ``role``; the referee's own new key replaces the one in the URL."""
    new: list[str] = []
    run_write(lambda: new.append(service().rotate_key(public_id, key, role)))
    if not new:
        return
    if role.is_referee:
        st.query_params["key"] = new[0]
    announce_link(role, referee_url(base_url(), public_id, new[0], lang()), name=name)
