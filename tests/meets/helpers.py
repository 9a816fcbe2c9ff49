"""Events with tables in known states, played through the services on real SQLite files.

Tables are Sealed Sprint (the tests' fake game, goal 3): one round of secret speeds decides
it, so a test says exactly who wins, who ties, and where a choice is still sealed.
"""

from __future__ import annotations

from collections.abc import Sequence

from aids.games.base import Role
from aids.meets import MeetService
from aids.tables import TableService


def sprint_setup(names: Sequence[str], goal: int = 3) -> dict[str, object]:
    return {"names": list(names), "goal": goal}


def seat_keys(tables: TableService, pid: str, key: str, seats: int) -> dict[int, str]:
    return {s: tables.rotate_key(pid, key, Role.seat_of(s)) for s in range(seats)}


def play_round(
    tables: TableService, pid: str, key: str, speeds: Sequence[int | None], roll: int = 1
) -> None:
    """Each seat commits its speed (None: not yet, so the round stays open and sealed); the
    referee records the die once every seat is in."""
    keys = seat_keys(tables, pid, key, len(speeds))
    state_round = tables.replay(pid).round
    for seat, speed in enumerate(speeds):
        if speed is None:
            continue
        seq = tables.snapshot(pid).seq
        commit = {"type": "commit", "seat": seat, "speed": speed, "round": state_round}
        tables.record(pid, keys[seat], seq, commit)
    if all(s is not None for s in speeds):
        tables.record(pid, key, tables.snapshot(pid).seq, {"type": "roll", "value": roll})


def sprint_in_meet(
    meets: MeetService,
    meet: str,
    organiser: str,
    title: str,
    names: Sequence[str],
    speeds: Sequence[int | None] | None = None,
) -> str:
    """A Sprint table started inside ``meet``; with ``speeds``, one round played (speeds of 3,
    2, 1 finish it: positions 3, 2, 1; equal speeds collide and stay at 0)."""
    info, key = meets.new_table(meet, organiser, "sprint", title, sprint_setup(names))
    if speeds is not None:
        play_round(meets.tables, info.public_id, key, speeds)
    return info.public_id
