"""The rally's rules as pure functions: ``apply(state, action) -> new state`` or raise.

Rule references point at ``shared/rules/rally.md``. Checks run in one fixed order — the race,
the turn, the phase, the card, the car's status, the hand, the destination — and all of them
before a new state is built, so a refused action changes nothing.

The questions about a position (how far a movement goes, where it may stop, the places, why an
attack is refused…) are in ``aids.games.rally.queries``; this module offers them under its own
name too, so a caller reads the rules as one ``engine``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import Role
from aids.games.rally.data import CardName, load
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    RallySetup,
    RallyState,
    Travel,
    TurnRecord,
)
from aids.games.rally.queries import (
    at_open_port,
    attack_fault,
    can_ferry,
    defend_fault,
    hand_pool,
    is_stuck,
    must_discard,
    place_points,
    placings,
    play_fault,
    proposal,
    reachable,
    statuses,
    team_totals,
    to_goal,
    travel_choices,
    travel_fault,
    travel_km,
    why_no_travel,
)

__all__ = [
    "HIDDEN_SEED",
    "apply",
    "at_open_port",
    "attack_fault",
    "can_ferry",
    "defend_fault",
    "full_deck",
    "hand_pool",
    "initial_state",
    "is_stuck",
    "legal_actions",
    "must_discard",
    "place_points",
    "placings",
    "proposal",
    "reachable",
    "statuses",
    "team_totals",
    "to_goal",
    "travel_choices",
    "travel_fault",
    "travel_km",
    "view",
    "why_no_travel",
]

T = TypeVar("T")
HIDDEN_SEED = -1  # a simulation's seed as a viewer or seat sees it


def full_deck() -> list[str]:
    """The 104 shuffled cards, by key, in seed order."""
    return [c.key for c in load().cards for _ in range(c.count)]


def _shuffled(cards: Iterable[str], seed: int | None, salt: int) -> tuple[str, ...]:
    deck = sorted(cards)
    random.Random(f"{seed}:{salt}").shuffle(deck)
    return tuple(deck)


def initial_state(setup: RallySetup) -> RallyState:
    """Every car on the start town, each hand dealt, the start player to draw."""
    n = len(setup.players)
    sizes = tuple(p.machine.hand for p in setup.players)
    total = load().total
    if sum(sizes) > total:  # pragma: no cover - bounded by the seed's machine limits
        raise InvalidAction("rally/machine", field="hand", low=1, high=total // n)
    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[str, ...] = ()
    if setup.mode == "simulation":
        deck = _shuffled(full_deck(), setup.seed, 0)
        at = 0
        dealt = []
        for size in sizes:
            dealt.append(tuple(sorted(deck[at : at + size])))
            at += size
        hands, pile = tuple(dealt), deck[at:]
    return RallyState(
        setup=setup,
        round=1,
        turn=setup.start_player,
        phase="draw",
        towns=tuple(setup.start for _ in range(n)),
        rain=(False,) * n,
        engine=(False,) * n,
        police=(0,) * n,
        jams=frozenset(),
        arrived=(),
        actions_left=0,
        moved=False,
        current=TurnRecord(setup.start_player, 1, setup.start),
        turns=(),
        hand_sizes=sizes,
        pile_size=total - sum(sizes),
        discard_size=0,
        hands=hands,
        pile=pile,
    )


def legal_actions(state: RallyState, actor: Role) -> list[Action]:
    """Every action ``actor`` may take now (random play and conformance tests)."""
    if state.phase == "over":
        return []
    if actor.is_referee:
        return [EndRace()]
    seat = actor.seat
    if seat != state.turn:
        return []
    if state.phase == "draw":
        return [Draw(seat)]
    out: list[Action] = []
    excess = must_discard(state, seat)
    for cards in travel_choices(state, seat):
        # "Move and end turn" where the end needs no discard to choose (a simulation's)
        ends = (False, True) if not state.simulation or excess <= len(cards) else (False,)
        for town in reachable(state, seat, travel_km(cards)):
            out.extend(Travel(seat, cards, town, end) for end in ends)
    if state.actions_left >= 1:
        for card in sorted(set(hand_pool(state, seat, ("attack",)))):
            for target in range(state.players):
                attack = Attack(seat, card, target)
                if attack_fault(state, attack) is None:
                    out.append(attack)
        for card in sorted(set(hand_pool(state, seat, ("defence",)))):
            if card == "jam_clear":
                out.extend(Defend(seat, card, town=town) for town in sorted(state.jams))
            else:
                out.extend(
                    Defend(seat, card, target=t)
                    for t in range(state.players)
                    if defend_fault(state, Defend(seat, card, target=t)) is None
                )
    # "Take the ferry" ends the turn with it where the end needs no discard to choose
    ends = (False, True) if not state.simulation or not excess else (False,)
    out.extend(Ferry(seat, port, end) for port in can_ferry(state, seat) for end in ends)
    if state.simulation and excess:
        combos = {c for c in itertools.combinations(state.hands[seat], excess)}
        out.extend(EndTurn(seat, combo) for combo in sorted(combos))
    else:
        out.append(EndTurn(seat))
    return out


# --- apply -----------------------------------------------------------------------------------


def apply(state: RallyState, action: Action) -> RallyState:
    """The state after ``action``; raises and changes nothing when it is illegal."""
    if state.phase == "over":
        raise GameOver("rally/over")
    if isinstance(action, EndRace):
        return replace(state, phase="over", ended=True)
    seat = action.seat
    if not 0 <= seat < state.players:
        raise InvalidAction("rally/seat", count=state.players)
    if seat != state.turn:
        raise NotYourTurn("rally/not_your_turn", player=state.setup.players[state.turn].name)
    if isinstance(action, Draw):
        if state.phase != "draw":
            raise RuleViolation("rally/drawn")
        return _draw(state)
    if state.phase == "draw":
        raise RuleViolation("rally/draw_first", count=state.machine(seat).draw)
    if isinstance(action, EndTurn):
        return _end_turn(state, action)
    if isinstance(action, Ferry):
        return _ferry(state, action)
    if state.current.ferry:
        raise RuleViolation("rally/ferried")
    if isinstance(action, Travel):
        return _travel(state, action)
    if isinstance(action, Attack):
        return _attack(state, action)
    return _defend(state, action)


def _draw(state: RallyState) -> RallyState:
    seat = state.turn
    want = min(state.machine(seat).draw, state.pile_size + state.discard_size)
    pile, discard, reshuffles = state.pile, state.discard, state.reshuffles
    pile_size, discard_size = state.pile_size, state.discard_size
    drawn: tuple[str, ...] = ()
    if pile_size < want:  # the pile runs out: the discard pile is shuffled into a new one
        drawn, reshuffles = pile, reshuffles + 1
        want -= pile_size
        pile_size, discard_size = discard_size, 0
        if state.simulation:
            pile, discard = _shuffled(discard, state.setup.seed, reshuffles), ()
    if state.simulation:
        drawn, pile = drawn + pile[:want], pile[want:]
    hands = state.hands
    if state.simulation:
        hands = _with_hand(hands, seat, tuple(sorted(hands[seat] + drawn)))
    taken = min(state.machine(seat).draw, state.pile_size + state.discard_size)
    return replace(
        state,
        phase="act",
        actions_left=state.machine(seat).actions,
        pile=pile,
        discard=discard,
        pile_size=pile_size - want,
        discard_size=discard_size,
        reshuffles=reshuffles,
        hands=hands,
        hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] + taken),
    )


def _with(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _with_hand(
    hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return _with(hands, seat, hand)


def _play(
    state: RallyState, seat: int, cards: Sequence[str], aim: int | str | None = None
) -> RallyState:
    """Cards from the hand to the discard pile, one action each (the hand checked first)."""
    fault = play_fault(state, seat, cards)
    if fault is not None:
        raise fault
    if state.simulation:
        hand = list(state.hands[seat])
        for card in cards:
            hand.remove(card)
        state = replace(
            state,
            hands=_with_hand(state.hands, seat, tuple(hand)),
            discard=tuple(sorted(state.discard + tuple(cards))),
        )
    current = state.current
    return replace(
        state,
        actions_left=state.actions_left - len(cards),
        hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] - len(cards)),
        discard_size=state.discard_size + len(cards),
        current=replace(
            current, cards=current.cards + tuple(cards), aims=current.aims + (aim,) * len(cards)
        ),
    )


def _travel(state: RallyState, action: Travel) -> RallyState:
    seat, cards = action.seat, action.cards
    fault = travel_fault(state, seat, cards)
    if fault is not None:
        raise fault
    board = state.setup.board
    if not board.has(action.to):
        raise InvalidAction("rally/unknown_town", town=action.to[:40])
    played = _play(state, seat, cards)
    km = travel_km(cards)
    options = reachable(state, seat, km)
    if action.to not in options:
        raise RuleViolation("rally/out_of_reach", town=board.town(action.to), km=km)
    current = replace(played.current, km=km, to=action.to)
    moved = replace(played, towns=_with(state.towns, seat, action.to), moved=True, current=current)
    if action.to == state.setup.goal:
        return _arrive(moved, seat)  # arriving ends the turn: ``end`` asks nothing more
    return _end_turn(moved, EndTurn(seat)) if action.end else moved


def _arrive(state: RallyState, seat: int) -> RallyState:
    """[ruling] Reaching the goal (by road or by ferry) ends the car's race and its turn."""
    arrived = replace(
        state,
        arrived=(*state.arrived, seat),
        rain=_with(state.rain, seat, False),
        engine=_with(state.engine, seat, False),
    )
    return _next_turn(arrived)


def _attack(state: RallyState, action: Attack) -> RallyState:
    fault = attack_fault(state, action)
    if fault is not None:
        raise fault
    played, target = _play(state, action.seat, (action.card,), action.target), action.target
    if action.card == "jam":
        return replace(played, jams=played.jams | {state.towns[target]})
    if action.card == "rain":
        return replace(played, rain=_with(state.rain, target, True))
    if action.card == "engine":
        return replace(played, engine=_with(state.engine, target, True))
    return replace(played, police=_with(state.police, target, load().police_turns))


def _defend(state: RallyState, action: Defend) -> RallyState:
    fault = defend_fault(state, action)
    if fault is not None:
        raise fault
    aim = action.town if action.town is not None else action.target
    played = _play(state, action.seat, (action.card,), aim)
    if action.card == "jam_clear":
        assert action.town is not None
        return replace(played, jams=played.jams - {action.town})
    assert action.target is not None
    if action.card == "clear_sky":
        return replace(played, rain=_with(state.rain, action.target, False))
    return replace(played, engine=_with(state.engine, action.target, False))


def _ferry(state: RallyState, action: Ferry) -> RallyState:
    seat, town = action.seat, state.towns[action.seat]
    ports = state.setup.board.ferry_from(town)
    if action.to not in ports:
        raise RuleViolation("rally/ferry_port", town=state.setup.board.town(town))
    if state.current.ferry or state.current.cards or state.moved:
        raise RuleViolation("rally/ferry_acted")
    if town in state.jams:
        raise RuleViolation("rally/jammed", town=state.setup.board.town(town))
    crossed = replace(
        state,
        towns=_with(state.towns, seat, action.to),
        actions_left=0,
        current=replace(state.current, ferry=True, to=action.to),
    )
    if action.to == state.setup.goal:
        return _arrive(crossed, seat)  # arriving ends the turn: ``end`` asks nothing more
    return _end_turn(crossed, EndTurn(seat)) if action.end else crossed


def _end_turn(state: RallyState, action: EndTurn) -> RallyState:
    seat = action.seat
    excess = must_discard(state, seat)
    if not state.simulation:
        if action.discard:
            raise InvalidAction("rally/discard_tracking")
        return _next_turn(
            replace(
                state,
                hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] - excess),
                discard_size=state.discard_size + excess,
            )
        )
    if len(action.discard) != excess:
        raise RuleViolation("rally/discard_count", count=excess)
    missing = Counter(action.discard) - Counter(state.hands[seat])
    if missing:
        raise RuleViolation("rally/not_in_hand", card=CardName(sorted(missing)[0]))
    hand = list(state.hands[seat])
    for card in action.discard:
        hand.remove(card)
    return _next_turn(
        replace(
            state,
            hands=_with_hand(state.hands, seat, tuple(hand)),
            hand_sizes=_with(state.hand_sizes, seat, len(hand)),
            discard=tuple(sorted(state.discard + action.discard)),
            discard_size=state.discard_size + excess,
        )
    )


def _next_turn(state: RallyState) -> RallyState:
    """Clockwise to the next car still on the road; police turns are missed whole."""
    turns = (*state.turns, state.current)
    n = state.players
    if len(state.arrived) == n:
        return replace(state, phase="over", turns=turns, actions_left=0)
    police = list(state.police)
    seat, rnd = state.turn, state.round
    while True:
        seat = (seat + 1) % n
        if seat == state.setup.start_player:
            rnd += 1
        if seat in state.arrived:
            continue
        if police[seat] > 0:
            held = statuses(replace(state, police=tuple(police)), seat)
            police[seat] -= 1
            turns += (TurnRecord(seat, rnd, state.towns[seat], held, missed=True),)
            continue
        break
    after = replace(state, police=tuple(police))
    return replace(
        after,
        turn=seat,
        round=rnd,
        phase="draw",
        actions_left=0,
        moved=False,
        turns=turns,
        current=TurnRecord(seat, rnd, state.towns[seat], statuses(after, seat)),
    )


# --- what each role sees ---------------------------------------------------------------------


def view(state: RallyState, role: Role) -> RallyState:
    """A simulation's hands are their owners' (and the referee's); the pile's order, the
    discards and the seed only the referee's — at the end too, since an undo may take the race
    on again. Everything else is on the table for all to see."""
    if not state.simulation or role.is_referee:
        return state
    hands = tuple(h if Role.seat_of(s) == role else () for s, h in enumerate(state.hands))
    setup = replace(state.setup, seed=HIDDEN_SEED)
    return replace(state, hands=hands, pile=(), discard=(), setup=setup)
