"""Shared pieces of the Streamlit pages: the service, the language, errors and links.

Nothing important lives only in session state: the table, role and language are in the URL,
the game in the store; session state holds just widget values and one pending message.
"""

from __future__ import annotations

import html
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import streamlit as st

from aids import registry
from aids.core.errors import AidsError, StaleState
from aids.core.i18n import DEFAULT_LANG, LANGS, Lang, normalise_lang, t, t_count
from aids.core.links import lan_address, public_base_url
from aids.meets import MeetService
from aids.store import open_store, store_locator
from aids.tables import TableService
from aids.tables.attempts import LOCAL

R = TypeVar("R")
LANG_LABELS = {"ja": "日本語", "en": "English"}
FLASH = "_flash"


_SHARED: dict[tuple[object, ...], Any] = {}
_SHARED_LOCK = threading.RLock()  # a shared thing may be made of another (events of tables)


def shared(key: tuple[object, ...], make: Callable[[], R]) -> R:
    """One ``make()`` per ``key`` in this process, shared by every session of the server and
    by the live view's threads (which run outside any page: Streamlit's ``cache_resource``
    wants a page's run there)."""
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = make()
        return cast(R, _SHARED[key])


def service() -> TableService:
    """One thread-safe service per store (file or database), shared by every session of the
    server."""
    return _service_for(store_locator(), os.environ.get("AIDS_GAME_PLUGINS", ""))


def _service_for(where: str, plugins: str) -> TableService:
    # Keyed by store and plugins so a changed AIDS_DB or AIDS_DATABASE_URL (tests, a second
    # data folder) or game list gets its own service.
    return shared(
        ("tables", where, plugins), lambda: TableService(open_store(where), registry.engines())
    )


def meets() -> MeetService:
    """The event service on the same store and table service as ``service()``."""
    return _meets_for(store_locator(), os.environ.get("AIDS_GAME_PLUGINS", ""))


def _meets_for(where: str, plugins: str) -> MeetService:
    return shared(("meets", where, plugins), lambda: MeetService(_service_for(where, plugins)))


_SPEAKING: ContextVar[Lang | None] = ContextVar("aids_speaking", default=None)


def lang() -> Lang:
    """The page language: the one a drawing outside a page run speaks (``speaking``), else
    ``?lang=`` in the URL, else ``AIDS_LANG``, else Japanese."""
    spoken = _SPEAKING.get()
    if spoken is not None:
        return spoken
    return normalise_lang(st.query_params.get("lang") or os.environ.get("AIDS_LANG", DEFAULT_LANG))


@contextmanager
def speaking(language: Lang) -> Iterator[None]:
    """Draw in ``language`` outside a page's run (the live view renders each table once per
    language for every phone, in a thread of its own): ``lang`` and ``tr`` answer it.

    >>> with speaking("en"):
    ...     tr("table.standings")
    'Standings'
    """
    token = _SPEAKING.set(language)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def tr(key: str, **params: object) -> str:
    return t(key, lang(), **params)


def tr_count(key: str, count: int, **params: object) -> str:
    """``tr`` for a message about ``count`` things (its singular where the language has one:
    ``t_count``)."""
    return t_count(key, lang(), count, **params)


def lazy_expander(label: str, key: str, *, expanded: bool = False) -> Any | None:
    """An expander whose body is drawn only while it is open: the container while open, None
    while closed (Streamlit's ``on_change="rerun"`` and ``.open``). Opening it reruns the page
    once, which draws the body; it stays open through later reruns (the session keeps
    ``key``). For a body that costs every page load and rerun while nobody looks at it: QR
    codes, long grids and tables. A widget inside is not drawn while the box is closed, so it
    comes back at its default: nothing a referee types belongs in one."""
    box = st.expander(label, expanded=expanded, key=key, on_change="rerun")
    return box if box.open else None


def lazy_popover(label: str, key: str) -> Any | None:
    """A popover whose body is drawn only while it is open, as ``lazy_expander``'s."""
    box = st.popover(label, key=key, on_change="rerun")
    return box if box.open else None


def html_text(text: object) -> str:
    """User text (a name, a title) inside HTML that no Markdown reads: ``st.html``, an
    attribute. ``<``, ``>``, ``&`` and quotes become entities, so the text stays text.

    For anything Streamlit reads as Markdown use ``md_text``; never both on one string."""
    return html.escape(str(text), quote=True)


# Every ASCII punctuation mark: CommonMark lets a backslash make any of them a literal.
_MD_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
WORD_JOINER = "\u2060"  # invisible, and no line may break at it
# Streamlit rewrites some text after the Markdown is parsed, when the backslashes are gone:
# emoji short codes (``:smile:``), its icons (``:material/home:``, ``:streamlit:``, an image),
# bare links (``http://…``, ``www.…``, ``a@b.c``: GFM's autolink literals are found in the
# parsed text) and arrows and dashes (``->``, ``<-``, ``--``, ``>=``, ``<=``, ``~=``). An
# invisible word joiner after the first character stops each of them.
_MD_REWRITTEN = re.compile(
    r":(?=[A-Za-z0-9_+/-]+:|//)"  # :smile:, :material/x:, :streamlit:; http:// and the like
    r"|(?i:www)(?=\.)"  # www.
    r"|(?<=[-.\w+])@(?=[\w-])"  # an e-mail address
    r"|-(?=[->])|<(?=[-=])|[>~](?==)"  # -- -> <- <= >= ~=
)


def md_text(text: object) -> str:
    """User text (a name, a title, a file's words, a message quoting them) for anything
    Streamlit reads as Markdown: ``st.markdown``, ``st.caption``, ``st.info``/``success``/
    ``warning``/``error``, ``st.toast``, the labels and ``help`` of widgets, the options of
    pills, segmented controls and radios, ``st.expander``, ``st.tabs``, ``st.popover`` and
    ``st.dialog`` titles. It shows exactly as typed: no link, no image, no emphasis, no code,
    no formula, no emoji, no colour, no heading, list or table, no HTML tag or entity.

    Every ASCII punctuation mark is backslash-escaped, and an invisible word joiner breaks
    what Streamlit rewrites after parsing (``_MD_REWRITTEN``). A translated message with user
    text among its parameters: ``md_tr``. Not for widgets that show text as it is
    (``st.selectbox``/``multiselect`` options, ``st.text``, ``st.code``): the backslashes
    would show. Not for ``st.markdown(..., unsafe_allow_html=True)`` either, where text
    inside an HTML block is read as HTML and backslashes mean nothing: draw markup with
    ``st.html`` and ``html_text``."""
    joined = _MD_REWRITTEN.sub(lambda m: m.group(0) + WORD_JOINER, str(text))
    return _MD_PUNCTUATION.sub(r"\\\1", joined)


def md_tr(key: str, **params: object) -> str:
    """``tr`` for a Markdown surface: every parameter through ``md_text`` (a name, a title),
    the message's own words as the catalogue wrote them."""
    return tr(key, **{name: md_text(value) for name, value in params.items()})


def ink_on(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (``#rrggbb``): WCAG contrast."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(background.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    # contrast with black (L+0.05)/0.05 against white 1.05/(L+0.05): equal at L ≈ 0.179
    return "#000" if luminance > 0.179 else "#fff"


def badge(text: object, background: str, title: str = "") -> str:
    """A small square mark with a letter or number on a colour (a player's seat, a counter):
    told apart by its text as well as its colour."""
    tip = f' title="{html_text(title)}"' if title else ""
    return (
        f'<span class="aids-badge" style="background:{html_text(background)};'
        f'color:{ink_on(background)}"{tip}>{html_text(text)}</span>'
    )


def language_switch() -> None:
    """ja/en toggle kept in the URL, so a refresh or a shared link keeps the language."""
    current = lang()
    choice = st.segmented_control(
        "🌐",
        options=list(LANGS),
        format_func=LANG_LABELS.__getitem__,
        default=current,
        key="lang_switch",
        label_visibility="collapsed",
    )
    if choice and choice != current:
        st.query_params["lang"] = choice
        st.rerun()


def heading(text: str) -> None:
    """A heading of user text (a table title), shown as text: never Markdown, never a link."""
    st.html(f'<h1 class="aids-title">{html_text(text)}</h1>')


# Shared page styles. The main block's top padding is Streamlit's 8rem under the top
# navigation; 4.5rem keeps the heading clear of the bar and the record controls on screen.
# A tap reruns the page and parts of it are drawn again (a box of controls replaced by the
# next action's): the browser's scroll anchoring would then scroll the page by itself to
# keep some element further down in place, moving the controls under the referee's finger.
# The page stays where the reader scrolled it (``overflow-anchor: none``). On a phone the
# header is compacted (``page_header``). A box that scrolls sideways (``aids-scroll-x``: a
# table wider than a phone) shows a shadow at an edge with more beyond it.
PAGE_CSS = """
<style>
[data-testid="stMain"] { overflow-anchor: none; }
[data-testid="stMain"] [data-testid="stMainBlockContainer"] { padding-top: 4.5rem; }
h1.aids-title { font-size: 1.5rem; line-height: 1.25; margin: 0; padding: 0; }
.aids-badge { display: inline-block; min-width: 1.3em; padding: 0 .2em; border-radius: 3px;
  font-weight: 700; text-align: center; line-height: 1.35; font-size: .9em;
  box-shadow: inset 0 0 0 1px rgba(0, 0, 0, .35); }
div.aids-banner { padding: .55rem .9rem; border-radius: .5rem; line-height: 1.45;
  background: #e8f0fb; color: #10243f; border-left: 4px solid #1f5fa8; }
div.aids-banner.done { background: #e7f4ec; color: #0f3320; border-left-color: #1d7a46; }
div.aids-banner.warn { background: #fff4d6; color: #3a2a00; border-left-color: #8a5a00; }
p.aids-head { margin: 0; font-weight: 600; line-height: 1.35; }
.aids-scroll-x { background:
    linear-gradient(to right, #fff 30%, rgba(255, 255, 255, 0)) left center / 2.5rem 100%,
    linear-gradient(to left, #fff 30%, rgba(255, 255, 255, 0)) right center / 2.5rem 100%,
    radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, .28), rgba(0, 0, 0, 0))
      left center / .9rem 100%,
    radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, .28), rgba(0, 0, 0, 0))
      right center / .9rem 100%;
  background-repeat: no-repeat; background-attachment: local, local, scroll, scroll; }
div.aids-grid-note { display: flex; align-items: center; margin: 0; padding: 0 .6rem;
  border: 1px dashed #8a8a8a; border-radius: .5rem; background: #f6f6f4; }
div.aids-grid-note p { margin: 0; line-height: 1.35; }
.st-key-corner { width: auto; gap: .5rem; flex: 0 0 auto; flex-wrap: nowrap; }
.st-key-nav { display: none; }
@media (max-width: 1000px) {
  [data-testid="stHeader"] { display: none; }
  [data-testid="stMain"] [data-testid="stMainBlockContainer"] { padding-top: 1.2rem;
    position: relative; }
  .st-key-nav { display: flex; gap: 0; width: auto; flex-wrap: nowrap; }
  .st-key-nav a { padding: .15rem .3rem; min-height: 2.25rem; }
  .st-key-nav a [data-testid="stMarkdownContainer"] { position: absolute; width: 1px;
    height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .st-key-lang_switch button { min-height: 2rem; padding: 0 .55rem; }
}
@media (max-width: 640px) {
  [data-testid="stMain"] [data-testid="stMainBlockContainer"] { padding-top: .55rem; }
  .st-key-corner { position: absolute; top: .55rem; right: 1rem; z-index: 2; gap: .15rem; }
  [data-testid="stMain"] [data-testid="stMainBlockContainer"] > div { row-gap: .6rem; }
  .st-key-page_head { gap: .15rem; }
  .st-key-page_head > :first-child { padding: 0 12.2rem 0 0; min-height: 2.4rem;
    display: flex; align-items: center; }
  .st-key-page_head h1 { font-size: 1.2rem; line-height: 1.2; padding: 0; }
  .st-key-page_head [data-testid="stCaptionContainer"] { line-height: 1.3; }
  .st-key-tools { gap: .4rem; justify-content: flex-start; }
  .st-key-tools button { min-height: 2.25rem; padding: .2rem .6rem; }
}
</style>
"""


_PAGES: list[Any] = []  # the app's pages (``st.Page``), for the phone's own links to them


def set_pages(pages: list[Any]) -> None:
    """The app's pages as its entry made them (``streamlit_app``): the phone's header links
    to them (``page_header``), since Streamlit's own bar, with their menu, is not shown
    there."""
    _PAGES[:] = pages


def page_header(tools: Callable[[], None] | None = None) -> Any:
    """The page's tools (``tools`` draws them) and the language toggle at the top right;
    returns the box for the page's heading (``page_head``).

    Up to 1000 px (a tablet: ``PAGE_CSS``) the language toggle is pinned at the right end of
    Streamlit's own bar, which is opaque: nothing floats over the page. On a phone (up to
    640 px) that bar is not shown at all, so nothing fixed covers the game when the page is
    scrolled: the heading's line holds, at its right end, a link to each page (the bar's
    menu held them; their names read to screen readers) and the language toggle, and the
    tools take one row of smaller buttons under it, all scrolling with the page."""
    st.html(PAGE_CSS)  # style only: takes no space
    head, right = st.columns([1, 1], vertical_alignment="center")
    with (
        right,
        st.container(
            horizontal=True, horizontal_alignment="right", vertical_alignment="center", key="tools"
        ),
    ):
        if tools is not None:
            tools()
        with st.container(horizontal=True, vertical_alignment="center", key="corner"):
            if _PAGES:
                with st.container(horizontal=True, key="nav"):
                    for page in _PAGES:  # the reader's language goes along
                        st.page_link(page, icon=page.icon, query_params={"lang": lang()})
            language_switch()
    return head.container(key="page_head")


def banner(text: str, *, done: bool = False) -> None:
    """One line of news for everyone at the table (whose turn, how it ended): text only, so
    names stay text; a polite live region, so a screen reader hears the change."""
    css = "aids-banner done" if done else "aids-banner"
    st.html(f'<div class="{css}" role="status">{html_text(text)}</div>')


def base_url() -> str:
    """Where phones reach this tracker: ``AIDS_PUBLIC_URL``, else (a server listening on this
    machine alone) ``localhost``, else this machine's LAN address; with the port this
    Streamlit server actually listens on (the CLI's rule, ``core.links``)."""
    try:
        address = st.get_option("server.address")
    except RuntimeError:
        address = None
    address = address if isinstance(address, str) else None
    if os.environ.get("AIDS_PORT"):
        return public_base_url(address=address)
    try:
        port = int(st.get_option("server.port"))
    except (TypeError, ValueError, RuntimeError):
        port = None
    return public_base_url(port=port, address=address)


def lan_warning() -> None:
    if not os.environ.get("AIDS_PUBLIC_URL") and lan_address() is None:
        st.warning(tr("table.no_lan"))


def run_write(write: Callable[[], Any]) -> None:
    """Run a write from a widget callback; keep its error (in any language) for the next run."""
    try:
        write()
    except AidsError as exc:
        st.session_state[FLASH] = ("error", exc.code, exc.params, isinstance(exc, StaleState))
        return
    st.session_state.pop(FLASH, None)


# The error of a write floats over the foot of the screen, so nothing on the page moves when
# it comes or goes (above the controls it pushed them, and the button the referee was about
# to tap, down by its height). Its wrapper is taken out of the flow too, or it keeps a gap.
FLASH_CSS = """<style>
div:has(> .st-key-flash) { position: absolute; }
.st-key-flash { position: fixed; z-index: 999990; left: 50%; bottom: 1rem;
  transform: translateX(-50%); width: min(40rem, calc(100vw - 1.5rem)); gap: .25rem;
  padding: .4rem; background: #fff; border-radius: .6rem;
  box-shadow: 0 .25rem 1.2rem rgba(0, 0, 0, .28); }
</style>"""


def show_flash() -> None:
    """Show the error of the last write, rendered in the current language, over the foot of
    the screen (``FLASH_CSS``) until it is dismissed or the next write succeeds."""
    pending = st.session_state.get(FLASH)
    if not pending:
        return
    _, code, params, stale = pending
    message = AidsError(code, **params).message(lang())
    st.html(FLASH_CSS)
    with st.container(key="flash"):
        (st.warning if stale else st.error)(md_text(message), icon="⚠️")
        if st.button(tr("table.dismiss"), key="dismiss_flash", type="tertiary"):
            st.session_state.pop(FLASH, None)
            st.rerun()


PAPERS = ("a4", "letter", "a3")


def paper_choice(key: str, where: Any = st) -> str:
    """A4, US Letter or A3 for a printable (``where``: a column or container to draw in), named
    in the reader's language. The choice outlives its box: a box drawn only while open
    (``lazy_expander``) forgets its widgets while closed, so the choice is also kept under
    its own name (``kept_paper``) and the box opens on it again."""
    current = lang()  # bound now: AppTest calls format_func outside the script run
    if key not in st.session_state and _KEPT.format(key) in st.session_state:
        st.session_state[key] = st.session_state[_KEPT.format(key)]
    paper = str(
        where.radio(
            tr("table.paper"),
            options=list(PAPERS),
            horizontal=True,
            key=key,
            format_func=lambda paper: t(f"table.paper_{paper}", current),
        )
    )
    st.session_state[_KEPT.format(key)] = paper
    return paper


_KEPT = "_kept_{}"


def kept_paper(key: str) -> str:
    """The paper last chosen with ``paper_choice(key)`` in this session (A4 until then)."""
    return str(st.session_state.get(_KEPT.format(key)) or PAPERS[0])


def client() -> str:
    """Who is asking, for the budget of wrong keys (``aids.tables.attempts``): the address the
    page was opened from; a page opened on this machine is the local client."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else LOCAL


def role_or_viewer(ask: Callable[[], R], viewer: R, paused: str) -> tuple[R, bool]:
    """The role a URL's key gives (``ask``), or ``viewer`` while wrong keys have paused the
    keyed links (the error code ``paused``): the page says how long and follows read-only
    meanwhile. The flag says whether the key was set aside."""
    try:
        return ask(), False
    except AidsError as exc:
        if exc.code != paused:
            raise
        st.warning(md_text(exc.message(lang())))  # "try again in N s": follow meanwhile
        return viewer, True


def page_error(exc: AidsError) -> None:
    """A page that cannot be shown (no such table or event, the store out of reach): the
    message, and the way back home."""
    st.error(md_text(exc.message(lang())))
    if st.button(tr("table.back_home")):
        st.query_params.clear()
        st.rerun()
