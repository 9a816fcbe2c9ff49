"""The live view's drawing (``aids.live.render``): the viewer's view only, both languages, what
just happened in words, and a step's message that carries exactly what changed."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

import pytest

from aids.bench.referee import Referee
from aids.games.base import REFEREE, Role
from aids.games.derby.describe import horse_label
from aids.live.render import SECTIONS, Rendering, last_words, render
from aids.tables import TableService
from aids.ui.context import TableContext
from tests.ui.hostile import CORPUS, HOST, IMG_TAG

KINDS = ("derby", "ekiden", "rally", "gn")
RAW_KEY = re.compile(
    r"\b(?:live|table|page|derby|ekiden|rally|gn|chances|charts)\.[a-z_]+\.?[a-z_]*\b"
)


def drawn(tables: TableService, public_id: str, lang: str) -> Rendering:
    snapshot = tables.snapshot(public_id)
    return render(snapshot, tables.game(snapshot.info.kind), lang)  # type: ignore[arg-type]


def test_only_the_viewers_snapshot_is_drawn(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1 "exactly the viewer's filtered view": a referee's or a seat's snapshot is
    refused, so no caller can hand the live view more than a viewer may see."""
    ref = referee("gn")
    ref.write()
    game = tables.game("gn")
    for role in (REFEREE, Role.seat_of(0)):
        with pytest.raises(ValueError, match="viewer"):
            render(tables.snapshot(ref.public_id, role), game, "en")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_game_draws_its_first_screen_in_the_phones_language(
    tables: TableService, referee: Callable[[str], Referee], kind: str, lang: str
) -> None:
    """Issue 27 §1 "the phone's first screen, for every game": title and game, what just
    happened, what comes next, the standings and the top of the board, all in the phone's
    language (no message key left untranslated)."""
    ref = referee(kind)
    for _ in range(6):
        ref.write()
    drawing = drawn(tables, ref.public_id, lang)
    assert set(drawing.sections) == set(SECTIONS)
    for name in ("head", "last", "next", "standings", "board"):
        assert drawing.sections[name].strip(), f"{kind}: {name} is empty"
    assert "Crowd" in drawing.sections["head"]
    assert drawing.seq == 6 and drawing.tag.startswith("6.")
    shown = "".join(v for k, v in drawing.sections.items() if k != "style")
    text = re.sub(r"<[^>]+>", " ", shown)
    assert not RAW_KEY.findall(text), RAW_KEY.findall(text)[:5]
    words = drawing.sections["head"] + drawing.sections["last"]
    if lang == "ja":
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", words)
    else:
        assert not re.search(r"[\u3040-\u30ff]", words)


def test_what_just_happened_names_the_action_and_each_fall_it_caused(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """Issue 27 §1 "what just happened, in words": after every step of a whole Derby race the
    line says the action as the log does, and names every horse that fell at that step and
    no other. Checked against the engine's own states, step by step."""
    ref = referee("derby")
    game = tables.game("derby")
    falls_seen = 0
    while not game.is_over(ref.state):
        before = ref.state
        ref.write()
        after = ref.state
        snapshot = tables.snapshot(ref.public_id)
        words = last_words(TableContext(snapshot, None, game, "en"))
        action = snapshot.log[-1].action
        assert words.startswith(game.describe(snapshot.state, action, "en"))
        fell = [h for h, f in enumerate(after.fallen) if f is not None and before.fallen[h] is None]
        for horse in range(len(after.fallen)):
            said = f"{horse_label(after, horse)} fell at fence" in words
            assert said == (horse in fell), (words, fell)
        falls_seen += len(fell)
    assert falls_seen > 0  # the race had falls to check


@pytest.mark.parametrize("kind", KINDS)
def test_a_steps_message_carries_exactly_what_changed(
    tables: TableService, referee: Callable[[str], Referee], kind: str
) -> None:
    """Issue 27 §1 "one rendering per table, position and language": a phone holding the
    previous drawing is sent only the sections that changed, and applying them gives exactly
    the new drawing; a phone holding nothing is sent everything."""
    ref = referee(kind)
    previous = drawn(tables, ref.public_id, "en")
    for _ in range(25):
        ref.write()
        current = drawn(tables, ref.public_id, "en")
        body = json.loads(current.message(previous).decode().split("data: ", 1)[1])
        assert body["seq"] == current.seq
        assert {**previous.sections, **body["s"]} == dict(current.sections)
        assert set(body["s"]) < set(SECTIONS)  # never the whole page for one step
        full = json.loads(current.message().decode().split("data: ", 1)[1])
        assert full["s"] == dict(current.sections)
        previous = current


def test_an_undo_is_what_just_happened(
    tables: TableService, referee: Callable[[str], Referee]
) -> None:
    """An undo is news too: the line says which step was taken back, in each language."""
    ref = referee("rally")
    for _ in range(3):
        ref.write()
    tables_ref = ref.service
    tables_ref.undo(ref.public_id, ref.key, 3)
    assert "Undo of step 3" in drawn(tables, ref.public_id, "en").sections["last"]
    assert "3" in drawn(tables, ref.public_id, "ja").sections["last"]


@pytest.mark.parametrize("kind", KINDS)
def test_names_people_typed_stay_text_on_the_live_view_and_the_wall(
    tables: TableService, kind: str
) -> None:
    """Names that are HTML or Markdown (``tests.ui.hostile``), as a table's title and its
    players', are shown as typed: no element, link or picture is made of them on the live
    view, and nothing points at their host."""
    game = tables.game(kind)
    low, high = game.info.seats
    names = [n[:40] for n in CORPUS[: max(low, min(high, 4))]]
    setup = game.setup_to_dict(game.default_setup(names, "en"))
    info, _key = tables.create(kind, IMG_TAG, setup)
    drawing = drawn(tables, info.public_id, "en")
    page = "".join(v for k, v in drawing.sections.items() if k != "style")
    for attr in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert HOST not in attr, attr  # nothing loaded from or linked to the names' host
    for tag in ("<img src=http", '<a href="http', "<strong>", "<em>", "<code>"):
        assert tag not in page, tag
    assert html.escape(IMG_TAG) in drawing.sections["head"]
