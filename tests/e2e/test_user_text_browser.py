"""Names are text, never markup, in a real browser (issue 18 §3).

Tables of every game and an event of them all, with players, teams, stables, horses and titles
named like Markdown, HTML and what Streamlit rewrites (``tests.ui.hostile``), a few actions
played so the boards, standings, captions, the log and the replay line show the names. Every
page (home and an import, each table as viewer, referee and seat, the replay, the event as
viewer and organiser) must show each name as typed, make no link, image, emphasis, code,
formula or emoji of one, and never ask the names' host for anything."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import meet_url, organiser_url, page_url, referee_url
from aids.games.base import REFEREE, Role
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import settle, tap
from tests.games.grand_national.helpers import setup as gn_setup
from tests.ui.hostile import (
    A_TAG,
    ARROW,
    AUTOLINK,
    BARE,
    BOLD,
    CODE,
    COLOUR,
    EM,
    EMAIL,
    EMOJI,
    ENTITY,
    HEADING,
    HOST,
    ICON,
    IMAGE,
    IMG_TAG,
    JAPANESE,
    LINK,
    LIST,
    MARKS,
    MATH,
    REWRITTEN,
    STRIKE,
    TABLE,
    WWW,
)

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 900}
JOINER = "\u2060"  # the invisible word joiner md_text puts where Streamlit would rewrite


@dataclass
class Table:
    kind: str
    pid: str
    key: str
    names: list[str]  # every name shown on its pages (seats, horses, teams) and its title
    seat_key: str | None = None


@dataclass
class Night:
    tables: list[Table] = field(default_factory=list)
    meet: str = ""
    meet_key: str = ""
    meet_title: str = ""
    export: Path | None = None
    export_title: str = ""


def play(service: TableService, table: Table, steps: int, avoid: tuple[str, ...] = ()) -> None:
    """``steps`` legal actions chosen by a seeded generator (any mover's, seats' secrets with
    their own keys), so the log, the boards and the replay name the players."""
    game = service.game(table.kind)
    rng = random.Random(18)
    seat_keys: dict[Role, str] = {}
    for _ in range(steps):
        state = service.replay(table.pid)
        actions = [
            a
            for mover in sorted(game.to_move(state), key=str)
            for a in game.legal_actions(state, mover)
            if type(a).__name__ not in avoid
        ]
        if not actions:
            return
        action = rng.choice(actions)
        key = table.key
        if not game.may_act(state, action, REFEREE):  # a secret only its seat may write
            seat = game.actor_of(action)
            key = seat_keys.setdefault(seat, service.rotate_key(table.pid, table.key, seat))
        service.record(table.pid, key, service.seq(table.pid), game.action_to_dict(action))


def derby(service: TableService) -> Table:
    players = [LINK, IMAGE, BOLD, EMOJI, JAPANESE]
    horses = [BARE, WWW, EM, CODE, MATH, HEADING, LIST, ICON]
    setup = DerbySetup.default(players, "en").to_dict()
    for horse, name in zip(setup["horses"], horses, strict=True):
        horse["name"] = name
    title = f"{LINK} {BOLD} Derby"
    info, key = service.create("derby", title, setup)
    table = Table("derby", info.public_id, key, [*players, *horses, title])
    play(service, table, 7, avoid=("NoCardsLeft",))
    return table


def ekiden(service: TableService) -> Table:
    teams = [LINK, IMAGE, A_TAG, COLOUR, JAPANESE]
    colours = ["red", "blue", "green", "yellow", "purple"]
    setup = {"teams": [{"name": n, "colour": c} for n, c in zip(teams, colours, strict=True)],
             "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}  # fmt: skip
    title = f"{IMAGE} {CODE} Ekiden"
    info, key = service.create("ekiden", title, setup)
    table = Table("ekiden", info.public_id, key, [*teams, title])
    play(service, table, 9)
    return table


def rally(service: TableService) -> Table:
    """Seven cars in two teams; the race is ended by the referee, so the event ranks them."""
    players = [LINK, IMAGE, BARE, IMG_TAG, STRIKE, ARROW, JAPANESE]
    colours = ["red", "blue", "green", "yellow", "purple", "orange", "black"]
    machine = {"actions": 3, "hand": 5, "draw": 2}
    rows = [{"name": n, "colour": c, "machine": machine, "team": i % 2}
            for i, (n, c) in enumerate(zip(players, colours, strict=True))]  # fmt: skip
    teams = [WWW, EMAIL]
    setup = {"players": rows, "course": {"start": "koriyama", "goal": "aomori"}, "teams": teams}
    title = f"{WWW} {MATH} Rally"
    info, key = service.create("rally", title, setup)
    table = Table("rally", info.public_id, key, [*players, *teams, title])
    play(service, table, 14, avoid=("EndRace",))
    service.record(table.pid, key, service.seq(table.pid), {"type": "end_race"})
    return table


def grand_national(service: TableService) -> Table:
    """Four stables of four horses, into the race: blind bets (each with its seat's key),
    the going, the lanes, a bet, the start and the first round's moves."""
    from aids.games.grand_national import engine

    stables = [LINK, IMAGE, AUTOLINK, JAPANESE]
    horses = [BARE, WWW, EMAIL, IMG_TAG, A_TAG, CODE, MATH, BOLD,
              EM, STRIKE, EMOJI, ICON, COLOUR, HEADING, LIST, TABLE]  # fmt: skip
    setup = gn_setup().to_dict()
    fourth = [dict(h) for h in setup["stables"][0]["horses"]]
    setup["stables"].append({"name": "", "colour": "yellow", "horses": fourth})
    for stable, name in zip(setup["stables"], stables, strict=True):
        stable["name"] = name
    for horse, name in zip((h for s in setup["stables"] for h in s["horses"]), horses, strict=True):
        horse["name"] = name
    title = f"{AUTOLINK} {EM} {ENTITY} Grand National"
    info, key = service.create("gn", title, setup)
    pid = info.public_id
    for seat in range(len(stables)):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        bet = {"type": "blind_bet", "seat": seat, "horse": None, "kind": None, "stake": 0}
        service.record(pid, own, service.seq(pid), bet)
    steps: list[dict[str, object]] = [{"type": "going", "going": "soft"}]
    steps += [{"type": "lane_spin", "lane": lane, "colour": "blue"} for lane in range(1, 5)]
    steps += [{"type": "bet", "seat": 1, "horse": 8, "kind": "show", "stake": 2000},
              {"type": "start"}]  # fmt: skip
    for step in steps:
        service.record(pid, key, service.seq(pid), step)
    for _ in range(6):  # the first moves of the race
        state = service.replay(pid)
        horse = engine.next_horse(state)
        assert horse is not None
        move = {"type": "move", "horse": horse, "forward": state.handicap[horse] + 3,
                "lane": state.lane[horse]}  # fmt: skip
        service.record(pid, key, service.seq(pid), move)
    return Table("gn", pid, key, [*stables, *horses, title])


@pytest.fixture(scope="module")
def night(server: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Night:
    service = TableService(SqliteStore(server[1]), engines())
    out = Night(tables=[derby(service), ekiden(service), rally(service), grand_national(service)])
    for table in out.tables:
        if service.game(table.kind).info.seat_keys:
            table.seat_key = service.rotate_key(table.pid, table.key, Role.seat_of(0))
    meets = MeetService(service)
    out.meet_title = f"{IMAGE} {EMOJI} {HEADING} night"
    info, out.meet_key = meets.create(out.meet_title, "2025-03-07")
    out.meet = info.public_id
    for table in out.tables:
        meets.add_table(out.meet, None, table.pid, host=True)
    # a table exported from another tracker, for the home page's import
    elsewhere = TableService(SqliteStore(tmp_path_factory.mktemp("away") / "a.sqlite3"), engines())
    out.export_title = f"{IMG_TAG} {STRIKE} imported"
    made, _ = elsewhere.create("derby", out.export_title,
                               DerbySetup.default([COLOUR, TABLE], "en").to_dict())  # fmt: skip
    out.export = tmp_path_factory.mktemp("export") / "table.json"
    out.export.write_text(json.dumps(elsewhere.export(made.public_id), ensure_ascii=False))
    return out


# Every attribute that makes the browser fetch or follow something, and every element a name
# would become if it were read as Markdown (``MARKS``: its words), a formula, an emoji or
# Streamlit's logo.
SCAN = """([host, marks]) => {
  const marked = new Set(marks), found = [];
  const where = (el) => {  // the Streamlit element it is in, to say where it was found
    const box = el.closest('[data-testid^="st"]:not([data-testid^="stMarkdown"])');
    const key = el.closest('[class*="st-key-"]');
    const name = key ? [...key.classList].find((c) => c.startsWith('st-key-')) : '';
    return ` in ${box ? box.dataset.testid : 'the page'} ${name}`.trimEnd();
  };
  const fetching = ['href', 'src', 'srcset', 'xlink:href', 'style', 'poster', 'action',
                    'formaction', 'background', 'data', 'ping'];
  for (const el of document.querySelectorAll('*')) {
    for (const name of el.getAttributeNames()) {
      const value = el.getAttribute(name) || '';
      if (fetching.includes(name) && value.includes(host)) {
        found.push(`<${el.tagName.toLowerCase()} ${name}="${value}">` + where(el));
      }
    }
    const text = (el.textContent || '').replaceAll('\\u2060', '').trim();
    if (marked.has(text)) found.push(`<${el.tagName.toLowerCase()}>${text}` + where(el));
  }
  for (const el of document.querySelectorAll('.katex, img[alt="Streamlit logo"]')) {
    found.push(`<${el.tagName.toLowerCase()} class="${el.className}">` + where(el));
  }
  return found;
}"""


def text_only(page: Any, names: list[str], where: str) -> list[str]:
    """What is wrong on ``page``: markup made from a name, a name rewritten, a name not shown
    as typed."""
    wrong = [f"{where}: made {m}" for m in page.evaluate(SCAN, [HOST, list(MARKS)])]
    text = page.evaluate("document.body.textContent").replace(JOINER, "")
    wrong += [f"{where}: shows {r!r}" for r in REWRITTEN if r in text]
    wrong += [f"{where}: not as typed: {n!r}" for n in names if n not in text]
    return wrong


def fetches(page: Any) -> list[str]:
    """Every request the page makes to the names' host, recorded as it happens."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if HOST in r.url else None)
    return asked


def visit(browser: Any, url: str, names: list[str], where: str, wrong: list[str]) -> Any:
    """The page at ``url``, opened and checked (``wrong`` gets what is wrong)."""
    page = browser.new_page(viewport=LAPTOP)
    asked = fetches(page)
    page.goto(url)
    settle(page, 1500)
    wrong += text_only(page, names, where)
    wrong += [f"{where}: asked for {url}" for url in asked]
    return page


def test_table_pages_show_names_as_text(
    server: tuple[str, Path], browser: Any, night: Night
) -> None:
    base, wrong = server[0], list[str]()
    for table in night.tables:
        urls = {
            "viewer": page_url(base, table.pid, "en"),
            "referee": referee_url(base, table.pid, table.key, "en"),
        }
        if table.seat_key:
            urls["seat"] = referee_url(base, table.pid, table.seat_key, "en")
        for role, url in urls.items():
            visit(browser, url, table.names, f"{table.kind} {role}", wrong).close()
    assert wrong == [], "\n".join(wrong)


def test_the_replay_line_shows_names_as_text(
    server: tuple[str, Path], browser: Any, night: Night
) -> None:
    """The replay switch on a viewer's page, the slider a step back and another: the line
    that names the action that led there (a player, a horse, a team) is text."""
    base, wrong = server[0], list[str]()
    for table in night.tables:
        where = f"{table.kind} replay"
        page = visit(browser, page_url(base, table.pid, "en"), table.names, where, wrong)
        asked = fetches(page)
        tap(page, page.locator(".st-key-replay_on label"))
        thumb = page.locator(".st-key-replay_step input[type='range']")
        for _ in range(2):
            thumb.focus()
            thumb.press("ArrowLeft")
            settle(page, 800)
            line = page.locator("[data-testid='stAlertContentInfo']").first
            assert "Replay: step" in line.inner_text(), where
            wrong += text_only(page, table.names, where)
        wrong += [f"{where}: asked for {url}" for url in asked]
        page.close()
    assert wrong == [], "\n".join(wrong)


def test_home_and_import_show_names_as_text(
    server: tuple[str, Path], browser: Any, night: Night
) -> None:
    base, wrong = server[0], list[str]()
    titles = [table.names[-1] for table in night.tables] + [night.meet_title]
    page = visit(browser, f"{base}/?lang=en", titles, "home", wrong)
    asked = fetches(page)
    tap(page, page.get_by_role("tab", name="Import"))
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(night.export))
    settle(page, 800)
    tap(page, page.get_by_role("button", name="Import", exact=True))
    message = page.locator("[data-testid='stAlertContentSuccess']")
    assert message.count() == 1, "the import was not confirmed"
    wrong += text_only(page, [night.export_title], "home import")
    if night.export_title not in message.inner_text().replace(JOINER, ""):
        wrong.append(f"home import: the message is {message.inner_text()!r}")
    wrong += [f"home import: asked for {url}" for url in asked]
    page.close()
    assert wrong == [], "\n".join(wrong)


def test_event_pages_show_names_as_text(
    server: tuple[str, Path], browser: Any, night: Night
) -> None:
    """The event as anyone sees it (standings of the finished rally, every table's title and
    leaders) and as its organiser (the tools, the list of its tables)."""
    base, wrong = server[0], list[str]()
    rally_names = next(t for t in night.tables if t.kind == "rally").names
    names = [night.meet_title, *(t.names[-1] for t in night.tables), *rally_names[:7]]
    visit(browser, meet_url(base, night.meet, "en"), names, "event viewer", wrong).close()
    organiser = organiser_url(base, night.meet, night.meet_key, "en")
    visit(browser, organiser, names, "event organiser", wrong).close()
    assert wrong == [], "\n".join(wrong)
