"""The attacker's test on the pages (issue 18 §1): the page each link opens — the viewer's,
another seat's, and the referee's where the game keeps the secret even from the referee —
draws exactly the same elements from two tables that differ only in a secret, every file
its download buttons make is the same, and none holds the secret's literal values.

AppTest runs ``streamlit_app.py`` on each table's SQLite file in turn (``AIDS_DB``); the
chances the page shows are waited for and drawn (deterministic: a fixed number of playouts).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from aids.store import store_locator
from aids.ui import insights
from tests.security.artefacts import (
    Downloads,
    page_dump,
    page_text,
    pdf_text,
    visit,
    wait_for_chances,
)
from tests.security.pairs import (
    CASES,
    MEET_ID,
    ORGANISER_KEY,
    PUBLIC_ID,
    SCENARIOS,
    WRONG_KEY,
    MeetPair,
    Pair,
    key_of,
)
from tests.security.test_pairs_service import assert_hidden

PAGE_CASES = [*CASES, *[(s.name, "wrong-key") for s in SCENARIOS]]


def page_chances_ready(public_id: str, seq: int) -> Callable[[], bool]:
    """Whether the page's own chance service (one per store, shared by the sessions) has the
    figures of ``public_id`` at ``seq`` (computed, or failed)."""
    service = insights._chances_for(
        store_locator(),
        os.environ.get("AIDS_GAME_PLUGINS", ""),
        os.environ["AIDS_CHANCE_PLAYOUTS"],
        os.environ["AIDS_CHANCE_SECONDS"],
        _tables=None,  # type: ignore[arg-type]  # not hashed: the service the page made is found by the others
    )
    return lambda: service.ready(public_id, seq)


def drawn(at: AppTest, seq: int) -> AppTest:
    """The page once the chances it shows for ``seq`` are ready (computed or failed), drawn
    again: both tables' pages then show figures, never one figures and one "working out"."""
    if any('-chances"' in body for _, body in page_dump(at)):
        assert wait_for_chances(page_chances_ready(PUBLIC_ID, seq)), "no chances in a minute"
        at = at.run()
        assert not at.exception, at.exception
    return at


def replay_steps(at: AppTest) -> list[Any]:
    """The viewer's step-through replay: every step's page, from the start to now."""
    toggles = [t for t in at.toggle if t.key == "replay_on"]
    if not toggles:
        return []
    at = toggles[0].set_value(True).run()
    sliders = [s for s in at.slider if s.key == "replay_step"]
    out = []
    for step in range(int(sliders[0].max) + 1 if sliders else 0):
        at = at.slider(key="replay_step").set_value(step).run()
        assert not at.exception, at.exception
        out.append(page_dump(at))
    return out


def files_text(files: dict[str, Any]) -> str:
    parts = []
    for name, data in files.items():
        if isinstance(data, bytes) and data.startswith(b"%PDF"):
            parts.append(pdf_text(data))
        else:
            parts.append(data.decode() if isinstance(data, bytes) else json.dumps(data))
        parts.append(name)
    return "\n".join(parts)


def read_both(
    pair: Pair | MeetPair,
    monkeypatch: pytest.MonkeyPatch,
    params: dict[str, str],
    *,
    seq: int,
    replay: bool = False,
) -> list[dict[str, Any]]:
    """The page at ``params`` on each table of the pair: its elements, its replay steps and
    the files its download buttons make."""
    downloads = Downloads(monkeypatch)
    out = []
    for db in pair.dbs:
        monkeypatch.setenv("AIDS_DB", str(db))
        at = drawn(visit(**params), seq)
        page = page_dump(at)
        files = downloads.take()
        steps = replay_steps(at) if replay else []
        out.append({"page": page, "files": files, "steps": steps})
    return out


def _params(role: str, lang: str) -> dict[str, str]:
    params = {"table": PUBLIC_ID, "lang": lang}
    key = WRONG_KEY if role == "wrong-key" else key_of(role)
    if key is not None:
        params["key"] = key
    return params


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("name", "role"), PAGE_CASES)
def test_the_page_a_role_opens_is_the_same_for_both_tables(
    pair_of: Callable[[str], Pair],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    role: str,
    lang: str,
) -> None:
    """Every element of the page (text, HTML boards, tables, charts' data, the chances, the
    log, widgets' labels and options, images), the viewer's replay at every step, and every
    file a download button on it makes: equal, with no secret in them."""
    pair = pair_of(name)
    seq = len(pair.docs[0]["events"])
    a, b = read_both(pair, monkeypatch, _params(role, lang), seq=seq, replay=role == "viewer")
    assert [t for t, _ in a["page"]] == [t for t, _ in b["page"]], "the page's layout differs"
    for (kind, left), (_, right) in zip(a["page"], b["page"], strict=True):
        assert left == right, f"{role}'s page tells the tables apart by a {kind}"
    assert a["steps"] == b["steps"], "the replay tells the tables apart"
    assert a["files"].keys() == b["files"].keys()
    if role == "referee":  # the share section's buttons were all made and compared
        made = {name.split("-")[1] for name in a["files"]}
        assert {"sheet", "pack", "report"} <= made, a["files"].keys()
    for file in a["files"]:
        assert a["files"][file] == b["files"][file], f"the download {file} differs"
    for side, read in enumerate((a, b)):
        literals = pair.scenario.literals[side]
        assert_hidden(page_text(read["page"]), literals, f"{role}'s page")
        for step in read["steps"]:
            assert_hidden(page_text(step), literals, f"{role}'s replay")
        assert_hidden(files_text(read["files"]), literals, f"{role}'s downloads")


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS if s.kind == "gn"])
def test_the_referees_gn_page_shows_no_blind_bet(
    pair_of: Callable[[str], Pair], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The referee runs the Grand National but never sees a blind bet before settlement: the
    page says one is sealed, offers no export, and names neither stake nor horse of it."""
    pair = pair_of(name)
    seq = len(pair.docs[0]["events"])
    for side, read in enumerate(read_both(pair, monkeypatch, _params("referee", "en"), seq=seq)):
        text = page_text(read["page"])
        assert "sealed" in text
        assert not any(name.startswith("table-") for name in read["files"]), "an export"
        assert_hidden(text, pair.scenario.literals[side], "the referee's page")


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_the_home_page_lists_both_tables_alike(
    pair_of: Callable[[str], Pair], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The start page anyone opens lists the tables (title, game, time, steps, link)."""
    pair = pair_of(name)
    a, b = read_both(pair, monkeypatch, {"lang": "en"}, seq=0)
    assert a["page"] == b["page"]
    assert PUBLIC_ID in page_text(a["page"])


@pytest.mark.parametrize("role", ["viewer", "organiser"])
@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_the_event_page_is_the_same_for_both_tables(
    meet_pair_of: Callable[[str], MeetPair],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    role: str,
) -> None:
    """The event's page (table list, standings) for a viewer and for the organiser (who may
    add any table it reaches), and the files of its buttons: standings, the event pack and
    the export while it is offered."""
    meets = meet_pair_of(name)
    params = {"meet": MEET_ID, "lang": "en"}
    if role == "organiser":
        params["key"] = ORGANISER_KEY
    a, b = read_both(meets, monkeypatch, params, seq=len(meets.pair.docs[0]["events"]))
    assert a["page"] == b["page"]
    assert a["files"].keys() == b["files"].keys()
    if role == "organiser":
        assert any("standings" in f for f in a["files"]), a["files"].keys()
    for file in a["files"]:
        assert a["files"][file] == b["files"][file], f"the event's {file} differs"
    for side, read in enumerate((a, b)):
        literals = meets.pair.scenario.literals[side]
        assert_hidden(page_text(read["page"]), literals, "the event page")
        assert_hidden(files_text(read["files"]), literals, "the event's downloads")


# where the owner's page shows the secret as it opens (elsewhere it shows it only once a
# control is chosen: a Derby horse's cards, a runner's leg)
SHOWN_TO_OWNER = ["gn-blind-bets", "gn-market", "rally-sim-turn", "sprint-commit"]


@pytest.mark.parametrize("name", SHOWN_TO_OWNER)
def test_the_owners_page_does_tell_the_tables_apart(
    pair_of: Callable[[str], Pair], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A guard on the method: the page of the role entitled to the secret (the seat that
    wrote it; the Derby's referee) differs between the two, so the comparison above sees a
    secret wherever a page shows one."""
    pair = pair_of(name)
    seq = len(pair.docs[0]["events"])
    a, b = read_both(pair, monkeypatch, _params(pair.scenario.owner, "en"), seq=seq)
    assert a["page"] != b["page"]
