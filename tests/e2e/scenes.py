"""Tables in known states for the browser tests, recorded through the table service."""

from __future__ import annotations

from aids.games.derby.model import DerbySetup
from aids.tables import TableService
from tests.games.derby.helpers import ROWS
from tests.games.derby.test_full_race import RACE

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def new_table(service: TableService, title: str, players: int, lang: str = "en") -> tuple[str, str]:
    """A fresh tracking table of ``players`` (horses named in ``lang``): (public id, key)."""
    setup = DerbySetup.default(NAMES[:players], lang)
    info, key = service.create("derby", title, setup.to_dict())
    return info.public_id, key


Step = tuple[str | None, str, str]  # (bet on this horse or None, horse, "colour value")


def record(service: TableService, pid: str, key: str, steps: list[Step]) -> None:
    """Record each step (a bet, then a card) for whoever is to act."""
    for bet_on, horse, code in steps:
        snap = service.snapshot(pid)
        turn = snap.state.turn
        if bet_on:
            bet = {"type": "bet", "player": turn, "horse": ROWS.index(bet_on)}
            service.record(pid, key, snap.seq, bet)
            snap = service.snapshot(pid)
        colour, value = code.split()
        card = f"{colour}:{value}"
        play = {"type": "play", "player": turn, "horse": ROWS.index(horse), "card": card}
        service.record(pid, key, snap.seq, play)


def mid_race(service: TableService, players: int = 3, lang: str = "en") -> tuple[str, str]:
    """Fence 2 under way: white has fallen at fence 1 (with a counter on it), a black card
    lies under a blue one, counters placed at fences 1 and 2."""
    pid, key = new_table(service, "Mid-race", players, lang)
    record(service, pid, key, RACE[:12])
    return pid, key


def no_card_left(service: TableService, players: int = 2) -> tuple[str, str]:
    """Nobody can play: red got every red and black card at fence 1 (so fence 2 can never
    fill), blue fell, and every card of the other running horses has been played since."""
    pid, key = new_table(service, "Stuck", players)
    steps: list[Step] = [(None, "red", f"red {v}") for v in range(10)]
    steps += [(None, "red", f"black {v}") for v in range(10)]
    steps += [(None, "blue", "blue 0")]  # lowest at fence 1: blue falls
    steps += [(None, h, f"{h} 1") for h in ROWS[2:]]  # fence 1 fills
    steps += [(None, h, f"{h} {v}") for h in ROWS[2:] for v in range(10) if v != 1]
    record(service, pid, key, steps)
    return pid, key


def rally_mid_race(service: TableService, lang: str = "en") -> tuple[str, str]:
    """A 3-car rally Koriyama → Aomori in round 2: one car under rain, a jam at Nihonmatsu,
    Chie to draw."""
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in (("あき", "red"), ("Ben", "blue"), ("ちえ", "green"))]  # fmt: skip
    course = {"start": "koriyama", "goal": "aomori"}
    info, key = service.create("rally", f"Rally {lang}", {"players": players, "course": course})
    pid = info.public_id
    steps = [
        {"type": "draw", "seat": 0},
        {"type": "travel", "seat": 0, "cards": ["20", "20"], "to": "fukushima-nishi"},
        {"type": "attack", "seat": 0, "card": "rain", "target": 1},
        {"type": "end_turn", "seat": 0},
        {"type": "draw", "seat": 1},
        {"type": "travel", "seat": 1, "cards": ["30"], "to": "nihonmatsu"},
        {"type": "end_turn", "seat": 1},
        {"type": "draw", "seat": 2},
        {"type": "attack", "seat": 2, "card": "jam", "target": 1},
        {"type": "end_turn", "seat": 2},
    ]
    for step in steps:
        service.record(pid, key, service.snapshot(pid).seq, step)
    return pid, key


def gn_race(service: TableService) -> tuple[str, str]:
    """A 3-stable Grand National on the sample track, in the race's second round: blind bets
    written (one sealed stake), the going soft, lanes spun, a bet taken."""
    from aids.games.base import Role
    from tests.games.grand_national.helpers import setup

    info, key = service.create("gn", "Aintree", setup().to_dict())
    pid = info.public_id
    for seat, stake in ((0, 4000), (1, 0), (2, 0)):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        bet = {"type": "blind_bet", "seat": seat, "horse": 0 if stake else None,
               "kind": "win" if stake else None, "stake": stake}  # fmt: skip
        service.record(pid, own, service.snapshot(pid).seq, bet)
    steps: list[dict[str, object]] = [{"type": "going", "going": "soft"}]
    steps += [{"type": "lane_spin", "lane": lane, "colour": "blue"} for lane in range(1, 5)]
    steps += [{"type": "bet", "seat": 1, "horse": 8, "kind": "show", "stake": 2000},
              {"type": "start"}]  # fmt: skip
    for step in steps:
        service.record(pid, key, service.snapshot(pid).seq, step)
    from aids.games.grand_national import engine

    while service.snapshot(pid).state.round == 1:
        state = service.snapshot(pid).state
        horse = engine.next_horse(state)
        assert horse is not None
        move = {"type": "move", "horse": horse, "forward": state.handicap[horse] + 3,
                "lane": state.lane[horse]}  # fmt: skip
        service.record(pid, key, service.snapshot(pid).seq, move)
    return pid, key
