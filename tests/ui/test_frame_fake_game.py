"""The table page frame driven with the fake game (AppTest, real SQLite): the frame is generic.

Sealed Sprint has seat links and a secret choice: the referee issues seat links from the keys
section, a seat's link offers only its own commit, viewers see commitments sealed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aids.games.base import REFEREE, Role
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, open_sections

pytestmark = pytest.mark.usefixtures("with_fake_game")
run = new_app


def html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html)


def test_home_lists_every_registered_game_and_creates_one(app_db: Path) -> None:
    at = run(lang="en")
    assert at.selectbox(key="new_game").options[-1] == "Sealed Sprint"  # after the built-ins
    at.selectbox(key="new_game").set_value("sprint").run()
    at.text_input(key="new_title").set_value("Sprint night")
    at.text_input(key="sprint_0").set_value("Aki")
    at.text_input(key="sprint_1").set_value("Ben")
    next(b for b in at.button if b.label == "Create table").click()
    at = at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    service = TableService(SqliteStore(app_db), engines())
    pid, key = at.query_params["table"], at.query_params["key"]
    assert service.snapshot(pid).info.kind == "sprint"
    assert service.role_for(pid, key) == REFEREE
    assert any(
        "waiting for Aki, Ben" in h.proto.body for h in at.html if "aids-banner" in h.proto.body
    )


def test_seat_link_commits_only_its_own_secret_and_viewers_see_it_sealed(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, referee = service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    pid = info.public_id
    seat0 = service.rotate_key(pid, referee, Role.seat_of(0))
    at = open_sections(run(table=pid, key=seat0, lang="en"))
    assert not at.exception
    assert any("Player link: Aki" in c.value for c in at.caption)
    assert not any(b.key in ("undo", "redo", "rotate_referee") for b in at.button)
    at.pills(key="speed_0").set_value(3).run()
    at.button(key="commit_go").click()
    at = at.run()
    assert not at.error, [e.value for e in at.error]
    assert service.snapshot(pid, Role.seat_of(0)).state.pending == (3, None)
    viewer = run(table=pid, lang="en")
    assert "🔒" in html(viewer) and "commits speed 3" not in html(viewer)
    assert "made a secret choice" in html(viewer)
    own = run(table=pid, key=seat0, lang="en")
    assert "commits speed 3" in html(own)


def test_referee_issues_a_seat_link_from_the_page(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, referee = service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    at = open_sections(run(table=info.public_id, key=referee, lang="ja"))
    at.button(key="issue_1").click()
    at = at.run()
    assert not at.exception
    link = next(c.value for c in at.code if "key=" in c.value)
    seat_key = link.split("key=")[1].split("&")[0]
    assert service.role_for(info.public_id, seat_key) == Role.seat_of(1)
    at.button(key="revoke_1").click()
    at = at.run()
    assert service.role_for(info.public_id, seat_key).is_viewer


def test_rotating_the_referee_link_moves_the_page_to_the_new_key(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, referee = service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    at = open_sections(run(table=info.public_id, key=referee, lang="en"))
    at.button(key="rotate_referee").click()
    at = at.run()
    new_key = at.query_params["key"]
    assert new_key != referee and service.role_for(info.public_id, new_key) == REFEREE
    assert service.role_for(info.public_id, referee).is_viewer
    assert any("new referee link" in s.value for s in at.success)
    stale = run(table=info.public_id, key=referee, lang="en")  # the old bookmark
    assert any("replaced by a newer one" in w.value for w in stale.warning)
    assert len(stale.button) == 0


def test_a_seat_link_dialog_names_the_player_and_says_to_give_it_to_them_alone(
    app_db: Path,
) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, referee = service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    at = open_sections(run(table=info.public_id, key=referee, lang="en"))
    at.button(key="issue_1").click()
    at = at.run()
    words = " ".join([s.value for s in at.success] + [c.value for c in at.caption])
    assert "Ben" in words and "alone" in words
    assert "seat:1" not in words and "referee from it" not in words
