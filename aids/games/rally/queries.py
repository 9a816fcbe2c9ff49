"""The rally's questions about a position, asked by the engine, the pages and the chances
model alike: how far a movement goes and where it may stop, the goal's distance, the ferry,
the places and points, each car's statuses, the travel cards it may play together, and why an
attack or a defence is refused. Pure functions of a ``RallyState``; none builds a new one
(that is ``aids.games.rally.engine``, which offers every name here under its own too).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from aids.core.errors import InvalidAction, RuleViolation
from aids.games.rally.data import CardName, load
from aids.games.rally.model import Attack, Defend, RallyState


def travel_km(cards: Sequence[str]) -> int:
    """The km of a movement: the distance cards summed, doubled by TOP SPEED.

    >>> travel_km(["50", "50", "top"]), travel_km(["20", "30"])
    (200, 50)
    """
    d = load()
    km = sum(card.km for card in map(d.card, cards) if card is not None)
    return km * 2 if "top" in cards else km


def is_stuck(state: RallyState, seat: int) -> bool:
    """A car at a jammed town cannot move (it may still play other cards)."""
    return state.towns[seat] in state.jams


def reachable(state: RallyState, seat: int, km: int) -> dict[str, int]:
    """The towns car ``seat`` may stop at with ``km``, and the road km to each."""
    if is_stuck(state, seat):
        return {state.towns[seat]: 0}
    # a car never drives on past the goal: reaching it is arriving
    return state.setup.board.reachable(state.towns[seat], km, state.jams | {state.setup.goal})


def to_goal(state: RallyState, town: str) -> tuple[int, int]:
    """(road km, ferry crossings) from ``town`` to the course's goal."""
    return state.setup.board.to_goal(state.setup.goal)[town]


def proposal(state: RallyState, seat: int, km: int) -> str:
    """The reachable town nearest the goal (ties: the longer drive, then the id), the car's
    own town included: the chances model's driver. The page's stop list asks
    ``reach.advise``, which never proposes staying put nor a jammed town."""
    options = reachable(state, seat, km)
    return min(options, key=lambda town: (to_goal(state, town), -options[town], town))


def can_ferry(state: RallyState, seat: int) -> tuple[str, ...]:
    """The ports car ``seat`` may cross to now (empty when the ferry is not open to it)."""
    town = state.towns[seat]
    if (
        state.phase != "act"
        or seat != state.turn
        or state.current.cards
        or state.moved
        or state.actions_left != state.machine(seat).actions
        or town in state.jams
    ):
        return ()
    return state.setup.board.ferry_from(town)


def at_open_port(state: RallyState, seat: int) -> bool:
    """The car stands at a port that is not jammed: after its draw it may cross."""
    town = state.towns[seat]
    return bool(state.setup.board.ferry_from(town)) and town not in state.jams


def why_no_travel(state: RallyState, seat: int) -> str | None:
    """Why car ``seat`` cannot play travel cards now (a message key suffix), or None."""
    if state.current.ferry:
        return "ferried"
    if state.moved:
        return "moved"
    if state.engine[seat]:
        return "engine"
    if is_stuck(state, seat):
        return "jam"
    if state.actions_left < 1:
        return "actions"
    return None


def must_discard(state: RallyState, seat: int) -> int:
    """How many cards the hand holds beyond the machine's hand size."""
    return max(0, state.hand_sizes[seat] - state.machine(seat).hand)


def placings(state: RallyState) -> tuple[tuple[int, ...], ...]:
    """Seats by place: arrivals in order, then cars on the road nearest the goal first
    (equal distances share a place)."""
    groups: list[tuple[int, ...]] = [(seat,) for seat in state.arrived]
    rest = [s for s in range(state.players) if s not in state.arrived]
    rest.sort(key=lambda s: to_goal(state, state.towns[s]))
    for _, same in itertools.groupby(rest, key=lambda s: to_goal(state, state.towns[s])):
        groups.append(tuple(same))
    return tuple(groups)


def place_points(state: RallyState) -> tuple[int, ...]:
    """Each seat's points for its place (15/10/8/5/3/1/0); tied seats take the better place's."""
    points = load().points
    out = [0] * state.players
    place = 0
    for group in placings(state):
        for seat in group:
            out[seat] = points[place]
        place += len(group)
    return tuple(out)


def team_totals(state: RallyState) -> tuple[int, ...]:
    points = place_points(state)
    totals = [0] * len(state.setup.teams)
    for seat, player in enumerate(state.setup.players):
        if player.team is not None:
            totals[player.team] += points[seat]
    return tuple(totals)


def statuses(state: RallyState, seat: int) -> tuple[str, ...]:
    """``jam``, ``rain``, ``engine``, ``police`` as they hold for car ``seat`` now."""
    out = []
    if is_stuck(state, seat):
        out.append("jam")
    if state.rain[seat]:
        out.append("rain")
    if state.engine[seat]:
        out.append("engine")
    if state.police[seat]:
        out.append("police")
    return tuple(out)


# --- what the car may play --------------------------------------------------------------------


def hand_pool(state: RallyState, seat: int, kinds: tuple[str, ...]) -> list[str]:
    """The cards of ``kinds`` the seat may play: its hand in a simulation, any in tracking."""
    d = load()
    keys = [c.key for c in d.cards if c.kind in kinds]
    if state.simulation:
        return [c for c in state.hands[seat] if c in keys]
    most = state.hand_sizes[seat]
    return [k for k in keys for _ in range(min(most, state.actions_left))]


def travel_choices(state: RallyState, seat: int) -> list[tuple[str, ...]]:
    """Every set of travel cards the seat may play together now, each sorted."""
    if (
        state.phase != "act"
        or state.moved
        or state.engine[seat]
        or is_stuck(state, seat)
        or state.actions_left < 1
    ):
        return []
    pool = sorted(hand_pool(state, seat, ("travel", "top")))
    most = 1 if state.rain[seat] else min(state.actions_left, state.hand_sizes[seat])
    found: set[tuple[str, ...]] = set()
    for size in range(1, most + 1):
        for combo in itertools.combinations(pool, size):
            if combo.count("top") <= 1 and (size > 1 or combo[0] != "top"):
                found.add(combo)
    return sorted(found)


# --- why a movement, an attack or a defence is refused ------------------------------------------


def travel_fault(
    state: RallyState, seat: int, cards: Sequence[str]
) -> RuleViolation | InvalidAction | None:
    """Why car ``seat`` cannot play ``cards`` as its movement now, its stop aside, or None:
    the checks ``engine.apply`` makes of a movement, in its order, so the page that stages
    the cards gives the real reason (one action left, rain, TOP SPEED alone...).

    >>> from dataclasses import replace
    >>> from aids.games.rally.model import RallySetup
    >>> from aids.games.rally.engine import initial_state
    >>> state = replace(initial_state(RallySetup.default(["A", "B"])), phase="act", actions_left=3)
    >>> travel_fault(replace(state, actions_left=1), 0, ["50", "top"]).code
    'rally/no_actions'
    >>> travel_fault(state, 0, ["top"]).code, travel_fault(state, 0, ["50", "top"])
    ('rally/top_alone', None)
    """
    d = load()
    kinds = [card.kind if (card := d.card(c)) is not None else None for c in cards]
    if not cards or any(k not in ("travel", "top") for k in kinds):
        return InvalidAction("rally/travel_cards")
    if state.moved:
        return RuleViolation("rally/one_move")
    if kinds.count("top") > 1:
        return RuleViolation("rally/top_twice")
    if kinds.count("top") == len(kinds):
        return RuleViolation("rally/top_alone")
    if state.engine[seat]:
        return RuleViolation("rally/engine_failure")
    if state.rain[seat] and len(cards) > 1:
        return RuleViolation("rally/rain")
    if is_stuck(state, seat):
        return RuleViolation("rally/jammed", town=state.setup.board.town(state.towns[seat]))
    return play_fault(state, seat, cards)


def play_fault(state: RallyState, seat: int, cards: Sequence[str]) -> RuleViolation | None:
    """Why ``seat`` cannot play ``cards`` at all, whatever they are for: an action each, and
    the hand holds them (the cards themselves in a simulation, as many in tracking)."""
    if len(cards) > state.actions_left:
        return RuleViolation("rally/no_actions", left=state.actions_left, count=len(cards))
    if state.simulation:
        missing = Counter(cards) - Counter(state.hands[seat])
        if missing:
            return RuleViolation("rally/not_in_hand", card=CardName(sorted(missing)[0]))
    elif len(cards) > state.hand_sizes[seat]:
        return RuleViolation("rally/hand_count", held=state.hand_sizes[seat])
    return None


def attack_fault(state: RallyState, action: Attack) -> RuleViolation | InvalidAction | None:
    """Why ``action`` is refused, or None (shared by ``engine.apply`` and
    ``engine.legal_actions``)."""
    card = load().card(action.card)
    if card is None or card.kind != "attack":
        return InvalidAction("rally/not_attack", card=CardName(action.card))
    if not 0 <= action.target < state.players:
        return InvalidAction("rally/seat", count=state.players)
    if action.target == action.seat:
        return RuleViolation("rally/attack_self")
    if action.target in state.arrived:
        return RuleViolation("rally/target_arrived", player=_name(state, action.target))
    target = action.target
    already = {
        "jam": state.towns[target] in state.jams,
        "rain": state.rain[target],
        "engine": state.engine[target],
        "police": state.police[target] > 0,
    }[action.card]
    if already:
        return RuleViolation(
            "rally/status_held", player=_name(state, target), card=CardName(action.card)
        )
    return None


def defend_fault(state: RallyState, action: Defend) -> RuleViolation | InvalidAction | None:
    """Why ``action`` is refused, or None (as ``attack_fault``)."""
    card = load().card(action.card)
    if card is None or card.kind != "defence":
        return InvalidAction("rally/not_defence", card=CardName(action.card))
    if action.card == "jam_clear":
        if action.town is None or action.target is not None:
            return InvalidAction("rally/defence_town")
        if not state.setup.board.has(action.town):
            return InvalidAction("rally/unknown_town", town=action.town[:40])
        if action.town not in state.jams:
            return RuleViolation("rally/no_jam", town=state.setup.board.town(action.town))
        return None
    if action.target is None or action.town is not None:
        return InvalidAction("rally/defence_target")
    if not 0 <= action.target < state.players:
        return InvalidAction("rally/seat", count=state.players)
    held = state.rain if card.removes == "rain" else state.engine
    if not held[action.target]:
        return RuleViolation(
            "rally/nothing_to_remove",
            player=_name(state, action.target),
            card=CardName(action.card),
        )
    return None


def _name(state: RallyState, seat: int) -> str:
    return state.setup.players[seat].name
