"""One conformance test for every game (as OpenSpiel checks each of its games).

Each registered game, and the tests' fake game with a secret simultaneous choice and chance,
is played at random through the real table service on a real SQLite file: the game ends, the
log replays to the live state, values round-trip through their dicts, every reader sees
exactly ``view(state, role)``, and the outcome ranks every seat once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER, AnyGame, Role
from aids.registry import BUILT_IN
from aids.tables import TableService

KINDS = [entry.kind for entry in BUILT_IN] + ["sprint"]
NAMES = ["Aki", "Ben", "Chie", "Dai"]
MAX_STEPS = 600


@dataclass
class Table:
    service: TableService
    game: AnyGame
    pid: str
    keys: dict[Role, str]

    def key_for(self, actor: Role) -> str:
        """Chance is entered by the referee; a seat uses its own key where it has one."""
        return self.keys.get(actor, self.keys[REFEREE])


def open_table(service: TableService, kind: str, seats: int) -> Table:
    game = service.game(kind)
    setup = game.setup_to_dict(game.default_setup(NAMES[:seats], "en"))
    info, key = service.create(kind, f"{kind} conformance", setup)
    keys = {REFEREE: key}
    if game.info.seat_keys:
        for seat in range(seats):
            keys[Role.seat_of(seat)] = service.rotate_key(info.public_id, key, Role.seat_of(seat))
    return Table(service, game, info.public_id, keys)


def play(table: Table, rng: random.Random, *, undo_rate: float = 0.08) -> int:
    """Random legal play to the end (with some undos and redos); returns the steps taken."""
    service, game, pid = table.service, table.game, table.pid
    for step in range(MAX_STEPS):
        full = service.snapshot(pid, REFEREE)
        assert game.to_move(service.replay(pid)) == full.to_move
        if full.outcome is not None:
            return step
        roll = rng.random()
        if full.can_undo and roll < undo_rate:
            service.undo(pid, table.keys[REFEREE], full.seq)
            continue
        if full.can_redo and roll < undo_rate * 1.5:
            service.redo(pid, table.keys[REFEREE], full.seq)
            continue
        actor = rng.choice(sorted(full.to_move))
        # the referee's own moves (e.g. "the race ends now") rarely, or games end at once
        if actor == REFEREE and len(full.to_move) > 1 and rng.random() < 0.97:
            actor = rng.choice(sorted(full.to_move - {REFEREE}))
        state = service.replay(pid)
        options = game.legal_actions(state, actor)
        assert options, f"{actor} is to move but has no legal action"
        action = rng.choice(list(options))
        assert game.action_from_dict(game.action_to_dict(action)) == action
        assert game.actor_of(action) == actor
        service.record(pid, table.key_for(actor), full.seq, game.action_to_dict(action))
    raise AssertionError(f"no end after {MAX_STEPS} steps")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_random_play_ends_and_replay_equals_the_live_state(
    all_service: TableService, kind: str, seed: int
) -> None:
    rng = random.Random(seed)
    game = all_service.game(kind)
    seats = rng.randint(game.info.seats[0], min(game.info.seats[1], len(NAMES)))
    table = open_table(all_service, kind, seats)
    steps = play(table, rng)
    assert steps > 0
    final = all_service.snapshot(table.pid, REFEREE)
    assert all_service.replay(table.pid) == final.state
    assert final.to_move == frozenset()
    outcome = final.outcome
    assert outcome is not None and len(outcome.scores) == seats
    ranked = [seat for group in outcome.ranking for seat in group]
    assert sorted(ranked) == list(range(seats))  # every seat ranked once, ties grouped


@pytest.mark.parametrize("kind", KINDS)
def test_setup_round_trips_through_its_dict(games: dict[str, AnyGame], kind: str) -> None:
    game = games[kind]
    setup = game.default_setup(NAMES[: game.info.seats[0]], "ja")
    assert game.setup_from_dict(game.setup_to_dict(setup)) == setup
    assert game.seat_names(setup) == tuple(NAMES[: game.info.seats[0]])


@pytest.mark.parametrize("kind", KINDS)
def test_every_reader_sees_exactly_the_view_for_its_role(
    all_service: TableService, kind: str
) -> None:
    rng = random.Random(11)
    game = all_service.game(kind)
    seats = game.info.seats[0] + 1
    table = open_table(all_service, kind, seats)
    readers = [VIEWER, REFEREE, *(Role.seat_of(s) for s in range(seats))]
    for _ in range(40):
        full = all_service.snapshot(table.pid, REFEREE)
        if full.outcome is not None:
            break
        state = all_service.replay(table.pid)
        for role in readers:
            seen = all_service.snapshot(table.pid, role)
            assert seen.state == game.view(state, role)
            assert game.view(seen.state, role) == seen.state  # a view hides nothing twice
            for entry in seen.log:
                if entry.kind == "action" and not entry.sealed:
                    assert entry.action == game.view_action(state, entry.action, role)
        actor = rng.choice(sorted(full.to_move - {REFEREE}) or sorted(full.to_move))
        action = rng.choice(list(game.legal_actions(state, actor)))
        all_service.record(table.pid, table.key_for(actor), full.seq, game.action_to_dict(action))


def test_chance_is_an_actor_the_referee_records(all_service: TableService) -> None:
    table = open_table(all_service, "sprint", 2)
    for seat in (0, 1):
        seq = all_service.snapshot(table.pid).seq
        commit = {"type": "commit", "seat": seat, "speed": seat + 1, "round": 1}
        all_service.record(table.pid, table.keys[Role.seat_of(seat)], seq, commit)
    assert all_service.snapshot(table.pid).to_move == frozenset({CHANCE})
    snap = all_service.record(table.pid, table.keys[REFEREE], 2, {"type": "roll", "value": 4})
    assert snap.log[-1].actor == REFEREE and snap.state.positions == (1, 2)
