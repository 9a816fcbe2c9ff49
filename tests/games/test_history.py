"""Each game's race chart series (``aids/games/<folder>/history.py``), checked against values
computed another way from the same real states: random and scripted games on the real
engines, no mocks. The last point is the engine's outcome; there is one point per fence
resolved, leg finished or round played; what a reader may not see never moves a line."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER, AnyGame, Role
from aids.games.derby import GAME as DERBY
from aids.games.derby import engine as derby_engine
from aids.games.derby import history as derby_history
from aids.games.derby.data import load as derby_data
from aids.games.derby.model import DerbySetup, NoCardsLeft
from aids.games.ekiden import GAME as EKIDEN
from aids.games.ekiden import history as ekiden_history
from aids.games.ekiden.model import EkidenSetup
from aids.games.grand_national import GAME as GN
from aids.games.grand_national import engine as gn_engine
from aids.games.grand_national import history as gn_history
from aids.games.grand_national.model import GnSetup
from aids.games.rally import GAME as RALLY
from aids.games.rally import engine as rally_engine
from aids.games.rally import history as rally_history
from aids.games.rally.board import sample_map
from aids.games.rally.model import Attack, Draw, EndTurn, RallySetup, Travel
from aids.games.series import Series
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.derby.helpers import bet, fill_fence, tracking
from tests.games.grand_national.helpers import setup as gn_setup

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def random_history(
    game: AnyGame, setup: Any, seed: int, *, referee_rate: float = 0.0, most: int = 4000
) -> list[Any]:
    """Random legal play from ``setup``: every state from the first to the end. The referee's
    own moves (ending the race early) are taken at ``referee_rate`` when another may act."""
    rng = random.Random(seed)
    state = game.initial_state(setup)
    states = [state]
    while game.outcome(state) is None and len(states) < most:
        movers = sorted(game.to_move(state))
        others = [m for m in movers if m != REFEREE]
        actor = rng.choice(movers if not others or rng.random() < referee_rate else others)
        action = rng.choice(list(game.legal_actions(state, actor)))
        state = game.apply(state, action, REFEREE if actor == CHANCE else actor)
        states.append(state)
    assert game.outcome(state) is not None, "the random game did not end"
    return states


def value_at(series: Series, seat: int, step: int) -> int | None:
    """A staircase's value at ``step``: the latest point at or before it."""
    at = max(i for i, x in enumerate(series.x) if x <= step)
    return series.lines[seat].values[at]


# --- Derby ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_derby_one_point_per_fence_resolved_ending_on_the_outcome_scores(seed: int) -> None:
    players = 2 + seed % 4
    states = random_history(DERBY, DerbySetup.default(NAMES[:players]), seed, referee_rate=0.002)
    final = states[-1]
    outcome = DERBY.outcome(final)
    assert outcome is not None
    s = derby_history.series(states)
    resolved = sum(f is not None for f in final.fallen)
    early = [final.fence] if final.ended == "no_cards" else []
    assert s.x == (*range(1, resolved + 1), *early)
    assert s.names == tuple(p.name for p in final.setup.players)
    assert tuple(line.values[-1] for line in s.lines) == outcome.scores
    finishing = set(derby_engine.finishers(final))
    for seat, line in enumerate(s.lines):
        on_finishers = sum(1 for c in final.counters if c.player == seat and c.horse in finishing)
        assert line.extra[-1] == on_finishers


@pytest.mark.parametrize("seed", range(3))
def test_derby_a_fence_point_pays_counters_on_horses_running_when_it_resolved(seed: int) -> None:
    setup = DerbySetup.default(NAMES[:3], mode="simulation", seed=seed)
    states = random_history(DERBY, setup, 10 + seed)
    s = derby_history.series(states)
    payout = derby_data().payout
    for k in s.x:
        resolved = [st for st in states if sum(f is not None for f in st.fallen) >= k]
        state = resolved[0] if resolved else states[-1]  # else: the race ended at fence k
        assert resolved or (k == s.x[-1] and state.ended == "no_cards")
        for seat, line in enumerate(s.lines):
            mine = [c for c in state.counters if c.player == seat and state.fallen[c.horse] is None]
            assert line.values[k - 1] == sum(payout[c.fence] for c in mine)
            assert line.extra[k - 1] == len(mine)


def test_derby_no_cards_left_adds_a_last_point_at_the_fence_the_race_ended() -> None:
    state = bet(tracking(3), "red")  # A bets on red at fence 1 (4 points)
    values = dict(red=5, blue=6, green=7, yellow=8, white=9, pink=4, brown=3, purple=2)
    state = fill_fence(state, values)  # purple falls at fence 1
    at_fence_1 = state
    state = bet(state, "green")  # the player to act bets at fence 2 (3 points)
    better = state.turn
    state = DERBY.apply(state, NoCardsLeft(confirm=True), REFEREE)
    s = derby_history.series([tracking(3), at_fence_1, state])
    assert s.x == (1, 2)
    assert s.lines[0].values == (4, 4)
    assert s.lines[better].values[-1] == (4 if better == 0 else 0) + 3
    outcome = DERBY.outcome(state)
    assert outcome is not None and tuple(line.values[-1] for line in s.lines) == outcome.scores


def test_derby_nothing_to_chart_before_fence_1_resolves() -> None:
    state = bet(tracking(2), "red")
    s = derby_history.series([tracking(2), state])
    assert s.empty and s.lines[0].values == () and s.x_domain == (1, 5)


# --- Ekiden --------------------------------------------------------------------------------


@pytest.mark.parametrize("teams", [3, 4, 5])
def test_ekiden_standing_after_each_leg_is_the_standing_when_the_leg_resolved(teams: int) -> None:
    states = random_history(EKIDEN, EkidenSetup.default(NAMES[:teams]), teams)
    s = ekiden_history.series(states)
    assert s.x == tuple(range(1, 11))
    for leg in s.x:
        state = next(st for st in states if len(st.history) >= leg)
        order = sorted(range(teams), key=lambda t: (-state.places[t].column, state.places[t].slot))
        for team, line in enumerate(s.lines):
            assert line.values[leg - 1] == order.index(team) + 1
        standings = [line.values[leg - 1] or 0 for line in s.lines]
        assert sorted(standings) == list(range(1, teams + 1))
    outcome = EKIDEN.outcome(states[-1])
    assert outcome is not None
    assert [s.lines[group[0]].values[-1] for group in outcome.ranking] == list(range(1, teams + 1))


def test_ekiden_a_leg_still_being_run_has_no_point_and_first_is_drawn_at_the_top() -> None:
    states = random_history(EKIDEN, EkidenSetup.default(NAMES[:4]), 7)
    partway = [st for st in states if len(st.history) < 3]
    assert partway[-1].entries  # leg 3 is under way: some runners are in
    s = ekiden_history.series(partway)
    assert s.x == (1, 2)
    assert s.y_reversed and s.y_domain == (1, 4) and s.x_domain == (1, 10)
    assert s.names == ("Aki", "Ben", "Chie", "Dai")


# --- Japan Rally ---------------------------------------------------------------------------


def police_race() -> list[Any]:
    """Koriyama → Aomori: あき drives 20 km to Nihonmatsu; Ben puts the police on あき and
    stops at Sukagawa; ちえ drives 40 km. In rounds 2 and 3 あき misses her turns; then it is
    her turn again, in round 4."""
    base = RallySetup.default(["あき", "Ben", "ちえ"])
    states = [RALLY.initial_state(replace(base, start="koriyama", goal="aomori"))]

    def turn(seat: int, *plays: Any) -> None:
        for action in (Draw(seat), *plays, EndTurn(seat)):
            states.append(RALLY.apply(states[-1], action, Role.seat_of(seat)))

    turn(0, Travel(0, ("20",), "nihonmatsu"))
    turn(1, Attack(1, "police", 0), Travel(1, ("20",), "sukagawa"))
    turn(2, Travel(2, ("20", "20"), "fukushima-nishi"))
    turn(1)
    turn(2)
    turn(1)
    turn(2)
    return states


def test_rally_km_to_the_goal_after_each_round_even_with_missed_turns() -> None:
    states = police_race()
    assert states[-1].round == 4 and states[-1].turn == 0  # あき's turns in 2 and 3 missed
    s = rally_history.series(states)
    assert s.x == (1, 2, 3)
    board = sample_map()
    km = {town: board.road_km(town, "aomori") for town in ("nihonmatsu", "sukagawa",
                                                         "fukushima-nishi")}  # fmt: skip
    expected = (km["nihonmatsu"], km["sukagawa"], km["fukushima-nishi"])
    for point in range(3):
        assert tuple(line.values[point] for line in s.lines) == expected
    assert s.names == ("あき", "Ben", "ちえ")


@pytest.mark.parametrize("seed", range(4))
def test_rally_a_point_per_round_played_ending_on_the_final_distances(seed: int) -> None:
    players = 2 + seed
    setup = RallySetup.default(NAMES[:players])
    states = random_history(RALLY, setup, seed, referee_rate=0.01)
    final = states[-1]
    s = rally_history.series(states)
    assert s.x == tuple(range(1, final.round + 1))
    goal = final.setup.goal
    for seat, line in enumerate(s.lines):
        road = final.setup.board.to_goal(goal)[final.towns[seat]][0]
        assert line.values[-1] == (0 if seat in final.arrived else road)
    on_road = [seat for group in rally_engine.placings(final) for seat in group]
    on_road = [seat for seat in on_road if seat not in final.arrived]
    last = [s.lines[seat].last for seat in on_road]
    assert None not in last and last == sorted(
        v or 0 for v in last
    )  # the cars still out are placed nearest the goal first


def test_rally_every_reader_gets_the_same_chart_of_a_simulated_race() -> None:
    setup = RallySetup.default(NAMES[:3], mode="simulation", seed=5)
    states = random_history(RALLY, setup, 3, referee_rate=0.01)
    full = rally_history.series(states)
    for role in (VIEWER, Role.seat_of(0), Role.seat_of(2)):
        seen = [RALLY.view(st, role) for st in states]
        assert seen[-1].hands != states[-1].hands  # some hands are hidden from this reader
        assert rally_history.series(seen) == full


# --- Grand National ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_gn_money_by_round_gives_each_rounds_cash_and_ends_on_the_outcome(seed: int) -> None:
    """Issue 28 §2 "plot it by round": one point per round, 0 (before the race) to the round
    the race ended in, each the cash at the end of that round (the round's last state); the
    last point is the settled money, the outcome's scores."""
    states = random_history(GN, GnSetup.default(NAMES[: 2 + seed]), seed)
    s = gn_history.series(states)
    assert s.x == tuple(range(states[-1].round + 1)) and s.step and s.money
    for at, state in enumerate(states):
        if at + 1 < len(states) and states[at + 1].round == state.round:
            continue  # not its round's last state
        for seat in range(state.seats):
            assert value_at(s, seat, state.round) == gn_engine.balance(state.ledger, seat)
    outcome = GN.outcome(states[-1])
    assert outcome is not None and tuple(line.values[-1] for line in s.lines) == outcome.scores


def gn_table(service: TableService, stake: int, horse: int) -> str:
    """A table where Aki writes a blind bet of ``stake`` on ``horse``, then the going, the
    lanes, one market bet and the start are recorded: the public id."""
    info, referee = service.create("gn", "Secret", gn_setup().to_dict())
    pid = info.public_id
    seats = [service.rotate_key(pid, referee, Role.seat_of(s)) for s in range(3)]

    def record(key: str, action: dict[str, Any]) -> None:
        service.record(pid, key, service.snapshot(pid).seq, action)

    record(seats[0], {"type": "blind_bet", "seat": 0, "horse": horse, "kind": "show",
                      "stake": stake})  # fmt: skip
    for seat in (1, 2):
        record(seats[seat], {"type": "blind_bet", "seat": seat, "stake": 0})
    record(referee, {"type": "going", "going": "good"})
    for lane in range(1, 5):
        record(referee, {"type": "lane_spin", "lane": lane, "colour": "red"})
    record(seats[1], {"type": "bet", "seat": 1, "horse": 0, "kind": "win", "stake": 5000})
    record(referee, {"type": "start"})
    return pid


def test_gn_an_unsettled_blind_bet_never_moves_a_readers_money_line(tmp_path: Path) -> None:
    service = TableService(SqliteStore(tmp_path / "gn.sqlite3"), engines())
    secret = gn_table(service, 7300, 11)
    other = gn_table(service, 10, 2)
    for role in (VIEWER, REFEREE, Role.seat_of(0), Role.seat_of(1)):
        a = gn_history.series(service.snapshot(secret, role).history)
        b = gn_history.series(service.snapshot(other, role).history)
        assert a == b, role
        # before the race (Ben's market bet taken) and the first round: no blind bet moved money
        assert a.x == (0, 1)
        dealt = gn_history.money(service.snapshot(secret, role).history[0])
        ben = a.lines[1].values
        assert ben[0] == ben[1] == dealt[1] - 5000
        assert a.lines[0].values == (dealt[0], dealt[0])  # Aki's stake is not on it
