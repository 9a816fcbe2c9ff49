"""The boxes a page draws only while open (``aids.ui.common.lazy_expander`` and
``lazy_popover``: Streamlit's ``on_change="rerun"``): the players' QR box, share and print,
the keys, the Grand National's stamina grids and ledger, the Rally's turns, an event's QR
box. Closed they hold nothing (no QR code, no link, no button); a tap opens one and the page
draws it; it stays drawn through later reruns (a write recorded); and ``open_sections``
finds and opens every one a page draws, so the attacker's tests, which visit pages through
it, read everything a page can show."""

from __future__ import annotations

import ast
from pathlib import Path

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.frame_scenes import mid_game
from tests.ui.conftest import lazy_boxes, new_app, ok, open_sections, page_html

UI = Path(__file__).resolve().parents[2] / "aids" / "ui"


def referee_page(app_db: Path) -> tuple[TableService, str, str]:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Lazy", DerbySetup.default(["Aki", "Ben"]).to_dict())
    return service, info.public_id, key


def test_a_closed_box_draws_nothing_until_opened(app_db: Path) -> None:
    _, pid, key = referee_page(app_db)
    at = ok(new_app(table=pid, key=key, lang="en"))
    titles = [e.label for e in at.expander]
    assert "Share and print" in titles and "Links and keys" in titles
    assert len(at.get("image")) == 0 and len(at.code) == 0
    assert not [b for b in at.button if b.key in ("rotate_referee", "issue_0")]
    assert not at.get("download_button")
    at.session_state["share_section"] = True  # what the tap on its title sends
    at = ok(at.run())
    assert len(at.get("image")) == 1  # share and print's QR; the header's box stays closed
    assert [c.value for c in at.code] == [f"http://race.test:8501/live/{pid}?lang=en"]
    labels = {d.proto.label for d in at.get("download_button")}
    assert "Export table (JSON)" in labels and "Download score sheet (PDF)" in labels
    assert not [b for b in at.button if b.key == "rotate_referee"]  # the keys: still closed


def test_an_open_box_stays_drawn_after_a_write(app_db: Path) -> None:
    _, pid, key = referee_page(app_db)
    at = open_sections(ok(new_app(table=pid, key=key, lang="en")))
    assert len(at.get("image")) == 2 and at.button(key="rotate_referee") is not None
    at.pills(key="bet_horse_0").set_value(1).run()
    at.button(key="bet_go").click()
    at = ok(at.run())
    assert at.session_state["share_section"] and len(at.get("image")) == 2
    assert at.button(key="rotate_referee") is not None


def test_open_sections_finds_and_opens_every_box_a_page_draws_only_while_open(
    app_db: Path,
) -> None:
    service = TableService(SqliteStore(app_db), engines())
    pid, key = mid_game(service, "gn")
    at = ok(new_app(table=pid, key=key, lang="en"))
    assert lazy_boxes(at) == {"players_qr", "share_section", "keys_section", "gn_grids",
                              "gn_ledger"}  # fmt: skip
    assert 'class="grid64"' not in page_html(at)
    at = ok(open_sections(at))
    assert all(at.session_state[k] for k in lazy_boxes(at))
    assert 'class="grid64"' in page_html(at) and "Money ledger" in page_html(at)
    assert len(at.get("image")) == 2


def _keyless(tree: ast.AST) -> list[str]:
    """The expanders and popovers drawn only while open (``on_change="rerun"``) with no key:
    a session could not open them by key, nor could the attacker's tests."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or getattr(node.func, "attr", "") not in (
            "expander",
            "popover",
        ):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        change = kw.get("on_change")
        if isinstance(change, ast.Constant) and change.value == "rerun" and "key" not in kw:
            found.append(ast.unparse(node))
    return found


def test_every_box_drawn_only_while_open_has_a_key() -> None:
    found = []
    for path in sorted(UI.rglob("*.py")):
        found += _keyless(ast.parse(path.read_text(encoding="utf-8")))
    assert found == []


def test_the_key_check_sees_a_keyless_box() -> None:
    """The check itself works: a box drawn only while open without a key is found."""
    code = 'a = st.expander("x", on_change="rerun")\nst.popover("y", key="k", on_change="rerun")'
    assert _keyless(ast.parse(code)) == ["st.expander('x', on_change='rerun')"]


def test_the_paper_chosen_in_share_and_print_outlives_the_box(app_db: Path) -> None:
    """The box forgets its widgets while closed; the paper chosen in it is kept under its own
    name (which the finished game's print buttons read): the box opens on Letter again."""
    _, pid, key = referee_page(app_db)
    at = open_sections(ok(new_app(table=pid, key=key, lang="en")))
    at.radio(key="paper").set_value("letter").run()
    at.session_state["share_section"] = False  # closed: its widgets are not drawn
    at = ok(at.run())
    assert "paper" not in at.session_state and at.session_state["_kept_paper"] == "letter"
    at.session_state["share_section"] = True
    at = ok(at.run())
    assert at.radio(key="paper").value == "letter"
    labels = [d.proto.label for d in at.get("download_button")]
    assert "Download score sheet (PDF)" in labels
