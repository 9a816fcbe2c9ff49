"""Derby tables for the sheet tests, recorded through the table service on a real SQLite file.

``hand_worked`` replays the hand-worked race of ``tests/games/derby/test_full_race.py`` (three
players, tracking mode); ``simulated`` plays a seeded random race with any names, so the
longest allowed names and titles can be printed as a finished record.
"""

from __future__ import annotations

import random
from pathlib import Path

from aids.games.base import VIEWER
from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.model import DerbySetup, Horse, Player
from aids.games.derby.simulate import play_out
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import Snapshot, TableService
from tests.games.derby.helpers import ROWS
from tests.games.derby.test_full_race import RACE


def service_at(folder: Path) -> TableService:
    return TableService(SqliteStore(folder / "sheets.sqlite3"), engines())


def hand_worked(service: TableService, turns: int = len(RACE), title: str = "Friday") -> Snapshot:
    """The hand-worked race (seats A, B, C) up to ``turns`` turns, as a viewer sees it."""
    setup = DerbySetup.default(["A", "B", "C"]).to_dict()
    info, key = service.create("derby", title, setup)
    for horse_bet, horse, code in RACE[:turns]:
        snap = service.snapshot(info.public_id)
        seat = snap.state.turn
        if horse_bet:
            bet = {"type": "bet", "player": seat, "horse": ROWS.index(horse_bet)}
            snap = service.record(info.public_id, key, snap.seq, bet)
        play = {
            "type": "play",
            "player": seat,
            "horse": ROWS.index(horse),
            "card": code.replace(" ", ":"),
        }
        service.record(info.public_id, key, snap.seq, play)
    return service.snapshot(info.public_id, VIEWER)


def simulated(
    service: TableService,
    title: str,
    players: list[str],
    horses: list[str],
    *,
    seed: int = 3,
    actions: int | None = None,
) -> Snapshot:
    """A seeded random race with these names, to its end or for ``actions`` actions."""
    data = load()
    setup = DerbySetup(
        tuple(Player(n, c.key) for n, c in zip(players, data.counter_colours, strict=False)),
        tuple(Horse(n, c.key) for n, c in zip(horses, data.horse_colours, strict=True)),
        mode="simulation",
        seed=seed,
    )
    _, log = play_out(engine.initial_state(setup), random.Random(seed))
    info, key = service.create("derby", title, setup.to_dict())
    for seq, action in enumerate(log[:actions]):
        service.record(info.public_id, key, seq, action.to_dict())
    return service.snapshot(info.public_id, VIEWER)
