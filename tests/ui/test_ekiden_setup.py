"""The Ekiden's set-up under AppTest (issue 28 §4, §3): a course card's two halves are a tap
each and make the course the cards say; a roster is ten rows of taps, skills in words in the
reader's language, saved exactly as tapped."""

from __future__ import annotations

from pathlib import Path

from aids.core.i18n import t
from aids.games.base import REFEREE
from aids.games.ekiden.model import SKILLS, Runner
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, ok

TEAMS = [("あき", "red"), ("Ben", "blue"), ("ちえ", "green")]
# The five course cards as laid: (lower half = outbound leg, upper half = return leg).
CARDS = {1: 2, 10: 1, 2: 3, 9: 0, 3: 1, 8: 2, 4: 4, 7: 1, 5: 5, 6: 3}
ROSTER = [
    Runner(5, 2, 1, "uphill"),
    Runner(3, 1, 2),
    Runner(6, 3, 1, "commander"),
    Runner(4, 1, 1, "anchor"),
    Runner(2, 0, 3, "front_runner"),
    Runner(4, 2, 1, "outbound"),
    Runner(5, 1, 1, "return"),
    Runner(3, 4, 2, "downhill"),
    Runner(4, 1, 1),
    Runner(6, 2, 2, "uphill"),
]


def store(db: Path) -> TableService:
    return TableService(SqliteStore(db), engines())


def test_course_cards_tapped_make_the_course_the_cards_say(app_db: Path) -> None:
    """[ruling] A bare number on a course card is uphill N on legs 1–5 and downhill N on legs
    6–10 (0 is flat): each half tapped is its leg's terrain."""
    at = new_app(lang="en")
    at.selectbox(key="new_game").set_value("ekiden").run()
    at.text_input(key="new_title").set_value("Hakone")
    for i, (name, _) in enumerate(TEAMS):
        at.text_input(key=f"ek_team_{i}").set_value(name)
    for leg, value in CARDS.items():
        at.segmented_control(key=f"ek_leg_{leg}").set_value(value)
    next(b for b in at.button if b.label == t("table.create", "en")).click()
    at = ok(at.run())
    course = store(app_db).snapshot(at.query_params["table"]).state.setup.course
    said = [(c.slope, c.n) for c in course]
    want = [("up" if leg <= 5 else "down", CARDS[leg]) for leg in range(1, 11)]
    assert said == [(s if n else "flat", n) for s, n in want]


def relay(db: Path) -> tuple[str, str]:
    setup = {
        "teams": [{"name": n, "colour": c} for n, c in TEAMS],
        "start": 0,
        "course": [{"slope": "flat", "n": 0}] * 10,
    }
    info, key = store(db).create("ekiden", "Roster", setup)
    return info.public_id, key


def test_a_roster_tapped_row_by_row_is_saved_as_tapped(app_db: Path) -> None:
    """Scout stage: a team's 10 drafted runners are its roster; each row's power, up, down and
    skill (or none) are the saved runner's."""
    pid, key = relay(app_db)
    at = new_app(table=pid, key=key, lang="en")
    at.selectbox(key="roster_team").set_value(1)
    at = ok(at.run())
    seq = store(app_db).snapshot(pid).seq
    for i, card in enumerate(ROSTER):
        row = f"ro_{seq}_1_{i}"
        at.segmented_control(key=f"{row}_power").set_value(card.power)
        at.segmented_control(key=f"{row}_up").set_value(card.up)
        at.segmented_control(key=f"{row}_down").set_value(card.down)
        at.pills(key=f"{row}_skill").set_value(card.skill or "none")
    at.button(key="roster_go").click()
    at = ok(at.run())
    assert store(app_db).snapshot(pid, REFEREE).state.rosters[1] == tuple(ROSTER)
    assert store(app_db).snapshot(pid, REFEREE).state.rosters[0] is None


def test_roster_skills_read_as_words_in_the_readers_language(app_db: Path) -> None:
    """Issue 28 §3: the skill choices are the skills' names in the page's language (上り, 指令塔,
    スキルなし; Uphill, Commander, no skill), never code keys or "None"."""
    pid, key = relay(app_db)
    for lang in ("ja", "en"):
        at = ok(new_app(table=pid, key=key, lang=lang))
        seq = store(app_db).snapshot(pid).seq
        shown = at.pills(key=f"ro_{seq}_0_0_skill").options
        words = [t(f"ekiden.skills.{s}", lang) for s in ("none", *SKILLS)]
        assert shown == words
        assert not set(shown) & {*SKILLS, "None", "none", ""}
        assert ("指令塔" if lang == "ja" else "Commander") in shown
        labels = [w.label for w in at.segmented_control if w.key.startswith(f"ro_{seq}_0_0")]
        assert labels == [t(f"ekiden.ui.{f}", lang) for f in ("power", "up", "down")]
