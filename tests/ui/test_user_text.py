"""User text (titles, names) is shown as text on every page: never Markdown, never HTML.

A title like ``[phish](http://evil.example)`` once became a live link on every page."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app

TITLE = "[phish](http://evil.example)"
NAMES = ["**Aki**", "<b>Ben</b>", "[Chie](javascript:alert(1))"]


def rendered_as_markdown(at: AppTest) -> list[str]:
    """Markdown-rendering elements (markdown, captions, alerts, labels) holding user text."""
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    texts += [e.value for e in (*at.info, *at.success, *at.warning, *at.error)]
    return [t for t in texts if "evil.example" in t or "javascript:" in t]


def test_titles_and_names_are_text_on_every_page(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", TITLE, DerbySetup.default(NAMES).to_dict())
    service.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    pages = [
        new_app(lang="en"),  # the list of tables
        new_app(table=info.public_id, lang="en"),  # the viewer
        new_app(table=info.public_id, key=key, lang="en"),  # the referee
    ]
    for at in pages:
        assert not at.exception
        body = "\n".join(h.proto.body for h in at.html)
        assert "[phish](http://evil.example)" in body  # shown, as typed
        assert 'href="http://evil.example"' not in body and "<b>Ben</b>" not in body
        assert rendered_as_markdown(at) == []


def test_team_names_are_text_on_the_ekiden_page(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    teams = [{"name": TITLE, "colour": "red"}, {"name": NAMES[1], "colour": "blue"},
             {"name": NAMES[2], "colour": "green"}]  # fmt: skip
    setup = {"teams": teams, "start": 1, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = service.create("ekiden", TITLE, setup)
    service.record(info.public_id, key, 0, {"type": "situation", "leg": 1, "marks": "ooooo"})
    for at in (new_app(table=info.public_id, key=key, lang="en"),
               new_app(table=info.public_id, lang="ja")):  # fmt: skip
        assert not at.exception
        assert rendered_as_markdown(at) == []
        texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
        assert all("](http" not in t for t in texts)  # escaped wherever Markdown is read
