"""The stop list's advice (``reach.advise``): ruling "the driver may stop at any town within
reach; the tracker proposes the reachable town nearest the goal" — never the car's own town
(issue 19: "Utsunomiya · 0 km" proposed with 70 km, and Move spent two cards for nothing),
never a jammed town, and when no town nearer the goal is in reach it says which town the car
needs and how many km, or that the way on is the ferry."""

from __future__ import annotations

import random
from dataclasses import replace

from aids.games.base import Role
from aids.games.rally import engine, reach
from aids.games.rally.board import sample_map
from aids.games.rally.describe import reach_text
from aids.games.rally.model import (
    Attack,
    Defend,
    Draw,
    Machine,
    Player,
    RallySetup,
    RallyState,
    Travel,
)
from tests.games.rally.helpers import COLOURS, NAMES, at, drawn, play, start


def sample_state(town: str, *, goal: str = "sapporo", km_seat: int = 0) -> RallyState:
    """Two cars on the sample map's Tokyo → ``goal`` course, car 0 at ``town`` after its draw."""
    setup = replace(RallySetup.default(["Aki", "Ben"]), goal=goal)
    state = engine.apply(engine.initial_state(setup), Draw(0))
    return replace(state, towns=(town, "tokyo"))


def test_stop_list_never_proposes_the_cars_own_town_utsunomiya_70_km() -> None:
    """The issue's case: 40 + 30 km from Utsunomiya reaches only Mito (farther from Sapporo)."""
    advice = reach.advise(sample_state("utsunomiya"), 0, 70)
    assert advice.proposal is None and advice.reason == "short"
    assert advice.needed == ("shirakawa", 75)
    assert [s.town for s in advice.stops] == ["utsunomiya", "mito"]  # staying: a choice
    words = reach_text(sample_state("utsunomiya"), advice, "en")
    assert words.startswith("70 km reaches no town nearer the goal; Shirakawa needs 75 km")
    assert "白河" in reach_text(sample_state("utsunomiya"), advice, "ja")


def test_stop_list_proposes_the_town_nearest_the_goal_when_one_is_in_reach() -> None:
    assert reach.advise(sample_state("utsunomiya"), 0, 75).proposal == "shirakawa"
    advice = reach.advise(sample_state("omiya"), 0, 80)
    assert advice.proposal == "utsunomiya" and advice.stops[0].town == "utsunomiya"
    assert reach_text(sample_state("omiya"), advice, "en") == ""


def test_ruling_the_tracker_proposes_the_reachable_town_nearest_the_goal() -> None:
    state = drawn(start(goal="aizu"))
    assert reach.advise(state, 0, 60).proposal == "aizu"
    short = reach.advise(state, 0, 50)  # every other town within 50 km is farther away
    assert short.proposal is None and short.needed == ("aizu", 60)


def test_a_jammed_town_is_marked_and_never_proposed() -> None:
    """Ruling: a car that stops at a jammed town is stuck there (the town just jammed)."""
    state = play(drawn(start()), Attack(0, "jam", 1))  # all at Koriyama: jammed
    state = play(state, Defend(0, "jam_clear", town="koriyama"))
    state = replace(state, jams=frozenset({"nihonmatsu"}))
    advice = reach.advise(state, 0, 40)  # Nihonmatsu (jammed) or Motomiya short of it
    assert advice.stop("nihonmatsu") is not None and advice.stop("nihonmatsu").jammed  # type: ignore[union-attr]
    assert advice.proposal == "motomiya"
    assert [s.town for s in advice.stops][:2] == ["motomiya", "nihonmatsu"]


def test_only_jammed_towns_nearer_the_goal_proposes_none_and_says_why() -> None:
    state = replace(drawn(start(goal="fukushima-nishi")), jams=frozenset({"motomiya"}))
    advice = reach.advise(state, 0, 10)
    assert advice.proposal is None and advice.reason == "jammed"
    assert "jammed" in reach_text(state, advice, "en")


def test_at_a_port_the_advice_is_to_keep_the_cards_and_cross() -> None:
    """Ferry rule: a car that starts its turn at a port and plays no card may cross."""
    state = drawn(at(start(), 0, "aomori"))  # goal Sapporo, over the strait
    advice = reach.advise(state, 0, 150)
    assert advice.proposal is None and advice.reason == "ferry_now" and advice.port == "muroran"
    assert "ferry to Noboribetsu/Muroran" in reach_text(state, advice, "en")
    attacked = play(state, Attack(0, "rain", 1))  # a card played: no crossing this turn
    later = reach.advise(attacked, 0, 150)
    assert later.reason == "ferry_next" and "next turn" in reach_text(attacked, later, "en")


def test_travel_hand_offers_each_card_as_often_as_a_movement_may_hold_it() -> None:
    rained = replace(drawn(start()), rain=(True, False, False))
    assert reach.travel_hand(rained, 0) == ("20", "25", "30", "40", "50")  # one card, no TOP


# --- random legal play on the sample map --------------------------------------------------


def _random_setup(rng: random.Random) -> RallySetup:
    board = sample_map()
    course = rng.choice(board.courses)
    n = rng.randint(2, 4)
    machine = Machine(rng.randint(2, 4), rng.randint(4, 6), rng.randint(1, 3))
    players = tuple(Player(NAMES[i], COLOURS[i], machine) for i in range(n))
    return RallySetup(
        players=players, start_player=0, start=course.start, goal=course.goal, board=board,
        mode="simulation", seed=rng.randrange(1 << 30),
    )  # fmt: skip


def _check(state: RallyState, seat: int, km: int, seen: dict[str, int]) -> None:
    here = state.towns[seat]
    advice = reach.advise(state, seat, km)
    legal = engine.reachable(state, seat, km)
    assert {s.town for s in advice.stops} == set(legal)  # the list is every legal stop
    assert advice.proposal != here, (here, km)
    others = [t for t in legal if t != here]
    seen["combos"] += 1
    seen["others"] += bool(others)
    home = engine.to_goal(state, here)
    free = [t for t in legal if engine.to_goal(state, t) < home and t not in state.jams]
    if free:
        best = min(engine.to_goal(state, t) for t in free)
        assert advice.proposal in free and engine.to_goal(state, advice.proposal) == best
        return
    assert advice.proposal is None
    seen[advice.reason] += 1
    words = reach_text(state, advice, "en")
    if advice.reason == "jammed":  # names the jammed towns nearer the goal it reaches
        jammed = [s.town for s in advice.stops if s.nearer]
        assert jammed and all(s.jammed for s in advice.stops if s.nearer)
        assert all(state.setup.board.town_name(t, "en") in words for t in jammed)
    if advice.reason == "short" or (advice.reason == "jammed" and advice.needed):
        assert advice.needed is not None
        town, need = advice.needed
        assert need > km and town not in legal  # the town the car needs is beyond its reach
        assert state.setup.board.town_name(town, "en") in words and f"{need} km" in words
        assert state.setup.board.town_name(town, "ja") in reach_text(state, advice, "ja")
        assert f"{km} km" in words
    elif advice.reason.startswith("ferry"):
        assert advice.port is not None and state.setup.board.ferry_from(here)
        assert state.setup.board.town_name(advice.port, "en") in words


def test_random_legal_play_never_proposes_the_cars_own_town() -> None:
    """Over random legal races on the sample map (every course, 2–4 cars, random machines,
    simulated hands), every held card combination of every turn: the proposal is never the
    car's own town while another town nearer the goal is in reach, it is the one nearest the
    goal, and when none is in reach the words name the town needed and its km."""
    rng = random.Random(19)
    seen = dict.fromkeys(("combos", "others", "short", "jammed", "ferry_now", "ferry_next",
                          "none"), 0)  # fmt: skip
    turns = 0
    while turns < 1500:
        state = engine.initial_state(_random_setup(rng))
        if rng.random() < 0.5:  # the cars spread over the map (ports included)
            towns = [t.id for t in state.setup.board.towns if t.id != state.setup.goal]
            ports = [t.id for t in state.setup.board.towns if t.port]
            spread = tuple(rng.choice(ports if rng.random() < 0.2 else towns)
                           for _ in range(state.players))  # fmt: skip
            state = replace(state, towns=spread, current=replace(state.current, start=spread[0]))
        for _ in range(60 * state.players):
            if state.phase == "over":
                break
            seat = state.turn
            if state.phase == "draw":
                turns += 1
                state = engine.apply(state, Draw(seat))
                continue
            kms = {engine.travel_km(c) for c in engine.travel_choices(state, seat)}
            for km in sorted(kms):
                _check(state, seat, km, seen)
            legal = engine.legal_actions(state, Role.seat_of(seat))
            moves = [a for a in legal if isinstance(a, Travel)]
            cards_on = [a for a in legal if isinstance(a, Attack | Defend)]
            if cards_on and engine.at_open_port(state, seat) and rng.random() < 0.5:
                state = engine.apply(state, rng.choice(cards_on))  # a card, then no ferry
            elif moves and rng.random() < 0.7:  # drive, mostly where the tracker proposes
                cards = rng.choice(sorted({a.cards for a in moves}))
                advice = reach.advise(state, seat, engine.travel_km(cards))
                towns = [a.to for a in moves if a.cards == cards]
                to = advice.proposal if advice.proposal and rng.random() < 0.8 else None
                state = engine.apply(state, Travel(seat, cards, to or rng.choice(towns)))
            else:
                state = engine.apply(state, rng.choice(legal))
    print(turns, "turns:", seen)
    assert seen["combos"] > 2000 and seen["others"] > 1500, seen
    assert seen["short"] > 100 and seen["jammed"] > 10, seen
    assert seen["ferry_now"] > 10 and seen["ferry_next"] > 10, seen
