"""Every game refuses a field it does not have, in actions and setups, naming the field.

A field nobody reads used to be dropped: ``"discard_cont": 3`` recorded a play without its
discard, ``{"type": "no_cards_left", "player": 0, "horse": 5}`` ended a Derby. The same dict
in an imported file was refused; now the page, ``record``, ``aids record`` and the import
all refuse it (``input/unknown_field``; an import names it from the file's top).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from aids.core.errors import InvalidAction
from aids.games.base import CHANCE, REFEREE, AnyGame
from aids.games.grand_national.model import action_from_dict as gn_action
from aids.games.grand_national.track import Track, sample_track
from aids.games.rally.board import RallyMap, sample_map
from aids.tables import TableService
from tests.games.test_conformance import KINDS, NAMES

TYPO = "zz_typo"


def actions_seen(game: AnyGame, rng: random.Random, steps: int = 80) -> list[Any]:
    """The legal actions met along one random game (every kind of action a game has early)."""
    setup = game.default_setup(NAMES[: game.info.seats[0] + 1], "en")
    state, seen = game.initial_state(setup), []
    for _ in range(steps):
        movers = sorted(game.to_move(state))
        if not movers:
            break
        actor = rng.choice(movers)
        options = list(game.legal_actions(state, actor))
        if not options:
            break
        seen.extend(options[:6])
        action = rng.choice(options)
        state = game.apply(state, action, REFEREE if actor == CHANCE else actor)
    return seen


@pytest.mark.parametrize("kind", KINDS)
def test_an_action_with_a_field_it_does_not_have_is_refused(
    games: dict[str, AnyGame], kind: str
) -> None:
    game = games[kind]
    seen = actions_seen(game, random.Random(7))
    assert seen
    for action in seen:
        raw = game.action_to_dict(action)
        assert game.action_from_dict(raw) == action
        with pytest.raises(InvalidAction) as err:
            game.action_from_dict(raw | {TYPO: 1})
        assert err.value.code == "input/unknown_field", raw
        assert err.value.params["field"] == TYPO
        assert TYPO in err.value.message("ja") and TYPO in err.value.message("en")


@pytest.mark.parametrize("kind", KINDS)
def test_a_setup_with_a_field_it_does_not_have_is_refused(
    games: dict[str, AnyGame], kind: str
) -> None:
    game = games[kind]
    raw = game.setup_to_dict(game.default_setup(NAMES[:3], "en"))
    with pytest.raises(InvalidAction) as err:
        game.setup_from_dict(raw | {TYPO: 1})
    assert err.value.code == "input/unknown_field" and err.value.params["field"] == TYPO
    rows = next((v for v in raw.values() if isinstance(v, list) and v and isinstance(v[0], dict)),
                None)  # fmt: skip
    if rows is not None:  # the players' (teams', stables') rows too, named by their place
        name = next(k for k, v in raw.items() if v is rows)
        nested = raw | {name: [rows[0] | {TYPO: 1}, *rows[1:]]}
        with pytest.raises(InvalidAction) as err:
            game.setup_from_dict(nested)
        assert err.value.params["field"] == f"{name}[1].{TYPO}"


def test_the_service_records_nothing_for_an_unknown_field(
    all_service: TableService, derby_table_all: tuple[str, str]
) -> None:
    pid, key = derby_table_all
    for raw in (
        {"type": "play", "player": 0, "horse": 1, "card": "blue:2", "discard_cont": 3},
        {"type": "no_cards_left", "player": 0, "horse": 5},
        {"type": "bet", "player": 0, "horse": 1, "seat": 0},
    ):
        with pytest.raises(InvalidAction) as err:
            all_service.record(pid, key, 0, raw)
        assert err.value.code == "input/unknown_field"
        assert all_service.snapshot(pid).seq == 0


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"type": "card", "horse": 0, "effect": "fall", "value": 5}, "value"),
        ({"type": "card", "horse": 0, "effect": "penalty", "value": 1, "lane": 2}, "lane"),
        ({"type": "card", "horse": 0, "effect": "second_wind", "moved": 1}, "moved"),
    ],
)
def test_gn_a_card_takes_only_its_effects_fields(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidAction) as err:
        gn_action(raw)
    assert err.value.code == "input/unknown_field" and err.value.params["field"] == field


@pytest.mark.parametrize("field", ["horse", "kind"])
def test_gn_no_blind_bet_with_a_horse_or_kind_is_a_slip_not_dropped(field: str) -> None:
    raw = {"type": "blind_bet", "seat": 0, "horse": None, "kind": None, "stake": 0}
    assert gn_action(raw).stake == 0
    with pytest.raises(InvalidAction) as err:
        gn_action(raw | {field: 3 if field == "horse" else "win"})
    assert err.value.code == "gn/malformed" and err.value.params["field"] == field


def test_map_and_track_files_refuse_a_misspelt_field() -> None:
    """``prot = true`` would otherwise leave a port town without its ferry."""
    board = sample_map().to_dict()
    board["towns"][0] = board["towns"][0] | {"prot": True}
    with pytest.raises(InvalidAction) as err:
        RallyMap.from_dict(board)
    assert err.value.params["field"] == "towns[1].prot"
    track = sample_track().to_dict()
    track["landmarks"] = track["landmarks"] | {"fence": [3]}
    with pytest.raises(InvalidAction) as err:
        Track.from_dict(track)
    assert err.value.params["field"] == "landmarks.fence"
