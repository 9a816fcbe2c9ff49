"""Tables of every game for the frame's browser tests, recorded through the table service:
one just set up, one part-way through (the referee has a next action to record) and one
finished (its ``Outcome`` set).

Mid-game tables come from ``tests/e2e/scenes.py`` where it has one. A finished table ends the
way a table does: the Derby's hand-worked race to fence 5, a short rally where every car
arrives, and the Ekiden and Grand National played to their end with the engine's own
``legal_actions`` (a seeded choice, never the referee's "end it now").
"""

from __future__ import annotations

import random

from aids.games.base import REFEREE, Role
from aids.games.ekiden import engine as ekiden
from aids.tables import TableService
from tests.e2e import scenes
from tests.games.derby.test_full_race import RACE

KINDS = ("derby", "ekiden", "rally", "gn")
MAX_STEPS = 2000
TEAMS = (("あき", "red"), ("Ben", "blue"), ("ちえ", "green"))
COURSE = [{"slope": "up", "n": 2}] * 5 + [{"slope": "down", "n": 1}] * 5


def start(service: TableService, kind: str, lang: str = "en") -> tuple[str, str]:
    """A new table of ``kind`` with the game's default setup for the three players (names
    in ``TEAMS``), nothing recorded: (public id, referee key)."""
    game = service.game(kind)
    setup = game.setup_to_dict(game.default_setup([name for name, _ in TEAMS], lang))
    info, key = service.create(kind, f"{kind} start", setup)
    return info.public_id, key


def mid_game(service: TableService, kind: str, lang: str = "en") -> tuple[str, str]:
    """A table of ``kind`` part-way through, the referee to record next: (public id, key)."""
    if kind == "derby":
        return scenes.mid_race(service, 3, lang)
    if kind == "rally":
        return scenes.rally_mid_race(service, lang)
    if kind == "gn":
        return scenes.gn_race(service)
    return ekiden_mid_relay(service)


def _write(service: TableService, pid: str, key: str, action: dict[str, object]) -> None:
    service.record(pid, key, service.snapshot(pid).seq, action)


def ekiden_mid_relay(service: TableService) -> tuple[str, str]:
    """A 3-team relay (runners typed in) at leg 3, its situation card to be revealed."""
    teams = [{"name": n, "colour": c} for n, c in TEAMS]
    setup = {"teams": teams, "start": 0, "course": COURSE}
    info, key = service.create("ekiden", "Relay", setup)
    pid = info.public_id
    for leg in (1, 2):
        _write(service, pid, key, {"type": "situation", "leg": leg, "marks": "o-x--"})
        for up in (3, 4, 5):
            team = ekiden.next_runner(service.snapshot(pid).state)
            runner = {"power": 4, "up": up, "down": 1}
            _write(service, pid, key, {"type": "run", "team": team, "leg": leg, "runner": runner})
    return pid, key


def finished(service: TableService, kind: str, lang: str = "en") -> tuple[str, str]:
    """A table of ``kind`` played to its end: (public id, referee key)."""
    if kind == "derby":
        pid, key = scenes.new_table(service, "Derby over", 3, lang)
        scenes.record(service, pid, key, RACE)
    elif kind == "rally":
        pid, key = _short_rally(service)
    else:
        pid, key = _played_out(service, kind)
    assert service.snapshot(pid, REFEREE).outcome is not None, kind
    return pid, key


def _short_rally(service: TableService) -> tuple[str, str]:
    """Koriyama → Fukushima-Nishi (40 km): each car draws and travels 20 + 20 to the goal."""
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in TEAMS]  # fmt: skip
    course = {"start": "koriyama", "goal": "fukushima-nishi"}
    info, key = service.create("rally", "Rally over", {"players": players, "course": course})
    pid = info.public_id
    for seat in range(len(players)):
        _write(service, pid, key, {"type": "draw", "seat": seat})
        travel = {"type": "travel", "seat": seat, "cards": ["20", "20"], "to": "fukushima-nishi"}
        _write(service, pid, key, travel)
    return pid, key


def _played_out(service: TableService, kind: str, seed: int = 7) -> tuple[str, str]:
    game = service.game(kind)
    names = [name for name, _ in TEAMS]
    setup = game.setup_to_dict(game.default_setup(names, "en"))
    info, key = service.create(kind, f"{kind} over", setup)
    pid = info.public_id
    keys: dict[Role, str] = {REFEREE: key}
    if game.info.seat_keys:
        for seat in range(len(names)):
            keys[Role.seat_of(seat)] = service.rotate_key(pid, key, Role.seat_of(seat))
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        snap = service.snapshot(pid, REFEREE)
        if snap.outcome is not None:
            break
        actors = sorted(snap.to_move - {REFEREE}) or [REFEREE]
        actor = rng.choice(actors)
        action = rng.choice(list(game.legal_actions(service.replay(pid), actor)))
        service.record(pid, keys.get(actor, key), snap.seq, game.action_to_dict(action))
    return pid, key
