"""Grand National's rules as pure functions: ``apply(state, action) -> new state`` or raise.

Rule references point at ``shared/rules/grand_national.md``. The phases run in order: blind
bets (each seat's own, sealed) → the going (chance) → a spin per lane (chance) → the market
(handicaps for the going, the bookmaker's odds, bets at the posted odds) → the race → over,
when four horses have placed (or none is left running): prize money and every bet settled in
the ledger. Every check runs before a new state is built, so a refused action changes nothing.

Who moves and what follows every change on the course are in ``aids.games.grand_national.turns``,
the money in ``aids.games.grand_national.ledger``; this module offers their names under its own
too, so a caller reads the rules as one ``engine``.
"""

from __future__ import annotations

from dataclasses import replace

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import CHANCE, REFEREE, Role
from aids.games.grand_national.data import load
from aids.games.grand_national.ledger import (
    available,
    balance,
    cash,
    check_bet_for_another,
    entry_limit,
    settle,
)
from aids.games.grand_national.model import (
    BANK,
    EFFECTS,
    HELD,
    SEALED,
    Action,
    Bet,
    BlindBet,
    Boxed,
    Card,
    GnSetup,
    GnState,
    Going,
    LaneSpin,
    Line,
    Move,
    PullUp,
    SetHandicap,
    SetOdds,
    Spin,
    Start,
    Status,
    Wager,
)
from aids.games.grand_national.turns import (
    advance_target,
    advance_turn,
    after_change,
    clamp,
    deck_for,
    first_round_group,
    maybe_over,
    needs_spin,
    next_horse,
    race_order,
    replace_at,
    ring_from,
    running,
    seats_from,
    turn_order,
)

__all__ = [
    "actors",
    "advance_target",
    "apply",
    "available",
    "balance",
    "cash",
    "check_bet_for_another",
    "clamp",
    "deck_for",
    "entry_limit",
    "initial_state",
    "legal_actions",
    "needs_spin",
    "next_horse",
    "race_order",
    "running",
    "seats_from",
    "settle",
    "turn_order",
    "view",
]


# --- setup: the deal paid ----------------------------------------------------------------------


def initial_state(setup: GnSetup) -> GnState:
    """Every stable paid its start money and has paid its horses' list prices."""
    d = load()
    n = setup.horse_count
    ledger = [Line(BANK, s, d.start_cash, "start") for s in range(len(setup.stables))]
    for h in range(n):
        ledger.append(Line(h // d.horses, BANK, setup.horse(h).price, "horse", h))
    return GnState(
        setup=setup,
        phase="blind_bets",
        going=None,
        lanes=(),
        handicap=tuple(setup.horse(h).handicap for h in range(n)),
        used=(0,) * n,
        penalty=(0,) * n,
        distance=(0,) * n,
        lane=tuple(h % d.horses + 1 for h in range(n)),
        status=tuple("running" for _ in range(n)),
        placed=(),
        odds=tuple(d.odds[setup.horse(h).price] for h in range(n)),
        blind=(None,) * len(setup.stables),
        wagers=(),
        ledger=tuple(ledger),
    )


# --- apply ---------------------------------------------------------------------------------------


def apply(state: GnState, action: Action) -> GnState:
    """The state after ``action``; raises and changes nothing when it is illegal."""
    if state.phase == "over":
        raise GameOver("gn/over")
    if isinstance(action, BlindBet):
        return _blind_bet(state, action)
    if isinstance(action, Going):
        if state.phase != "going":
            raise RuleViolation("gn/not_now", phase=state.phase)
        return replace(state, phase="lanes", going=action.going)
    if isinstance(action, LaneSpin):
        return _lane_spin(state, action)
    if isinstance(action, SetHandicap | SetOdds | Bet | Start):
        return _market(state, action)
    if state.phase != "race":
        raise RuleViolation("gn/not_now", phase=state.phase)
    if isinstance(action, Spin):
        return _spin(state, action)
    if isinstance(action, Card):
        return _card(state, action)
    if isinstance(action, PullUp):
        _check_horse(state, action.horse)
        if state.status[action.horse] != "running":
            raise RuleViolation("gn/not_running", horse=_name(state, action.horse))
        return after_change(
            replace(state, status=replace_at(state.status, action.horse, "pulled_up"))
        )
    return _turn(state, action)


def _name(state: GnState, horse: int) -> str:
    return state.setup.horse(horse).name


def _check_horse(state: GnState, horse: int) -> None:
    if not 0 <= horse < state.horses:
        raise InvalidAction("gn/horse", count=state.horses)


def _check_seat(state: GnState, seat: int) -> None:
    if not 0 <= seat < state.seats:
        raise InvalidAction("gn/seat", count=state.seats)


def _blind_bet(state: GnState, action: BlindBet) -> GnState:
    if state.phase != "blind_bets":
        raise RuleViolation("gn/blind_closed")
    _check_seat(state, action.seat)
    if state.blind[action.seat] is not None:
        raise RuleViolation("gn/blind_once")
    if action.stake:
        assert action.horse is not None
        _check_horse(state, action.horse)
        if not 0 < action.stake <= load().blind_max:
            raise RuleViolation("gn/blind_max", most=load().blind_max)
        if action.stake > cash(state, action.seat):
            raise RuleViolation("gn/cash", cash=cash(state, action.seat))
    elif action.stake < 0:
        raise RuleViolation("gn/blind_max", most=load().blind_max)
    blind = replace_at(state.blind, action.seat, action)
    done = all(b is not None for b in blind)
    return replace(state, blind=blind, phase="going" if done else "blind_bets")


def _lane_spin(state: GnState, action: LaneSpin) -> GnState:
    if state.phase != "lanes":
        raise RuleViolation("gn/not_now", phase=state.phase)
    if action.lane != len(state.lanes) + 1:
        raise RuleViolation("gn/lane_order", lane=len(state.lanes) + 1)
    if all(s.colour != action.colour for s in state.setup.stables):
        raise InvalidAction("gn/colour_not_in_play", colour=action.colour[:20])
    lanes = (*state.lanes, ring_from(state, action.colour))
    done = len(lanes) == load().horses
    return replace(state, lanes=lanes, phase="market" if done else "lanes")


def _market(state: GnState, action: SetHandicap | SetOdds | Bet | Start) -> GnState:
    if state.phase != "market":
        raise RuleViolation("gn/market_closed")
    if isinstance(action, Start):
        first = replace(state, phase="race", round=1, cap=0, moved=frozenset())
        return replace(first, group=first_round_group(first, 0))
    _check_horse(state, action.horse)
    if isinstance(action, SetHandicap):
        low, high = load().handicap
        if not low <= action.mark <= high:
            raise InvalidAction("gn/handicap_range", horse=_name(state, action.horse),
                                low=low, high=high)  # fmt: skip
        return replace(state, handicap=replace_at(state.handicap, action.horse, action.mark))
    if isinstance(action, SetOdds):
        return replace(state, odds=replace_at(state.odds, action.horse, (action.win, action.show)))
    _check_seat(state, action.seat)
    if action.stake < 1:
        raise InvalidAction("gn/stake")
    if action.stake > available(state, action.seat):
        raise RuleViolation("gn/cash", cash=max(0, available(state, action.seat)))
    odds = state.odds[action.horse][0 if action.kind == "win" else 1]
    wager = Wager(action.seat, action.horse, action.kind, action.stake, odds)
    line = Line(action.seat, HELD, action.stake, "bet", action.horse)
    return replace(state, wagers=(*state.wagers, wager), ledger=(*state.ledger, line))


def _spin(state: GnState, action: Spin) -> GnState:
    if not needs_spin(state):
        raise RuleViolation("gn/no_spin_now")
    if all(s.colour != action.colour for s in state.setup.stables):
        raise InvalidAction("gn/colour_not_in_play", colour=action.colour[:20])
    group = tuple(s * load().horses + state.cap for s in seats_from(state, action.colour))
    return maybe_over(advance_turn(replace(state, group=group)))


def _turn(state: GnState, action: Move | Boxed) -> GnState:
    _check_horse(state, action.horse)
    if needs_spin(state):
        raise RuleViolation("gn/spin_first", cap=state.cap + 1)
    expected = next_horse(state)
    if expected is None or action.horse != expected:
        raise NotYourTurn("gn/not_this_horse", horse=_name(state, expected or 0))
    horse = action.horse
    handicap = state.handicap[horse]
    low, high = load().speed
    if isinstance(action, Boxed):
        burn, moved = 1, state
    else:
        track = state.setup.track
        if not 1 <= action.lane <= track.lanes:
            raise InvalidAction("gn/lane", lanes=track.lanes)
        if action.forward < 0:
            raise InvalidAction("gn/forward")
        lengths = action.forward + abs(action.lane - state.lane[horse])
        burn = lengths - handicap
        if action.blocked:
            burn = max(low, burn)
            if burn > high:
                raise RuleViolation("gn/speed", low=low, high=high, handicap=handicap,
                                    lengths=lengths)  # fmt: skip
        elif not low <= burn <= high:
            raise RuleViolation("gn/speed", low=low, high=high, handicap=handicap,
                                lengths=lengths)  # fmt: skip
        moved = replace(
            state,
            distance=replace_at(state.distance, horse, state.distance[horse] + action.forward),
            lane=replace_at(state.lane, horse, action.lane),
            card_moved=state.card_moved - {horse},
        )
    if burn > state.speed_left(horse):
        raise RuleViolation("gn/speed_left", left=state.speed_left(horse))
    after = replace(
        moved,
        used=replace_at(moved.used, horse, moved.used[horse] + burn),
        moved=moved.moved | {horse},
    )
    return after_change(after, turn=True)


def _card(state: GnState, action: Card) -> GnState:
    _check_horse(state, action.horse)
    if action.effect not in EFFECTS:
        raise InvalidAction("gn/effect", effect=action.effect[:20])
    horse = action.horse
    if state.status[horse] != "running":
        raise RuleViolation("gn/not_running", horse=_name(state, horse))
    effect, value = action.effect, action.value
    if effect == "advance":
        target = advance_target(state, horse)
        if target is None:
            raise RuleViolation("gn/no_one_to_advance")
        if not 1 <= value <= 20:
            raise InvalidAction("gn/card_value", low=1, high=20)
        moved = value if action.moved is None else action.moved
        if not 0 <= moved <= value:
            raise InvalidAction("gn/card_moved", most=value)
        lane = state.lane[target] if action.lane is None else action.lane
        if not 1 <= lane <= state.setup.track.lanes:
            raise InvalidAction("gn/lane", lanes=state.setup.track.lanes)
        burn = 1 if moved < value else 0  # short of the card's advance: 1 speed point
        after = replace(
            state,
            distance=replace_at(state.distance, target, state.distance[target] + moved),
            lane=replace_at(state.lane, target, lane),
            used=replace_at(state.used, target, min(state.top(), state.used[target] + burn)),
            card_moved=state.card_moved | {target},
        )
        return after_change(after)
    if effect in ("fall", "withdraw"):
        out: Status = "fallen" if effect == "fall" else "withdrawn"
        return after_change(replace(state, status=replace_at(state.status, horse, out)))
    if effect == "penalty":
        if value == 0 or state.penalty[horse] + value < 0:
            raise InvalidAction("gn/card_value", low=-state.penalty[horse], high=10)
        return replace(
            state, penalty=replace_at(state.penalty, horse, state.penalty[horse] + value)
        )
    if effect == "second_wind":
        return replace(state, penalty=replace_at(state.penalty, horse, 0))
    if effect == "handicap":
        low, high = load().handicap
        mark = clamp(state.handicap[horse] + value, low, high)
        return replace(state, handicap=replace_at(state.handicap, horse, mark))
    if effect == "speed":  # + gives speed points back, − strikes them
        used = clamp(state.used[horse] - value, 0, state.top())
        return after_change(replace(state, used=replace_at(state.used, horse, used)))
    return after_change(replace(state, lose_turn=state.lose_turn | {horse}))  # lose_turn


# --- questions for pages and tests ----------------------------------------------------------


def legal_actions(state: GnState, actor: Role) -> list[Action]:
    """Every action ``actor`` may take now — a representative list where amounts are free
    (stakes: the least, a round figure and the most; moves: every legal speed and lane)."""
    if state.phase == "over":
        return []
    d = load()
    out: list[Action] = []
    if state.phase == "blind_bets":
        seat = actor.seat
        if actor.kind != "seat" or seat is None or state.blind[seat] is not None:
            return []
        out.append(BlindBet(seat, None, None, 0))
        most = min(d.blind_max, cash(state, seat))
        for h in range(state.horses):
            for kind in ("win", "show"):
                out.extend(BlindBet(seat, h, kind, s) for s in sorted({1, most // 2, most}) if s)
        return out
    if actor == CHANCE:
        if state.phase == "going":
            return [Going(g) for g in d.goings]
        colours = sorted(s.colour for s in state.setup.stables)
        if state.phase == "lanes":
            return [LaneSpin(len(state.lanes) + 1, c) for c in colours]
        if needs_spin(state):
            return [Spin(c) for c in colours]
        return []
    if state.phase == "market":
        # each listed with the actor ``actor_of`` names: bets the seat's, the rest the referee's
        # (the bookmaker may post odds too, and the referee may enter a seat's bet for it)
        if actor.is_referee:
            out.append(Start())
            out.extend(SetHandicap(h, m) for h in range(state.horses) for m in (0, d.handicap[1]))
            out.extend(SetOdds(h, *d.odds[d.prices[-1]]) for h in range(state.horses))
        elif actor.seat is not None:
            cap = available(state, actor.seat)
            for h in range(state.horses):
                for stake in sorted({1, min(cap, 1000)}):
                    if 0 < stake <= cap:
                        out.append(Bet(actor.seat, h, "win", stake))
        return out
    if state.phase != "race" or not actor.is_referee or needs_spin(state):
        return []
    due = next_horse(state)
    if due is not None:
        h = due
        low, high = d.speed
        left = state.speed_left(h)
        for burn in range(low, min(high, left) + 1):
            lengths = state.handicap[h] + burn
            for lane in range(1, state.setup.track.lanes + 1):
                forward = lengths - abs(lane - state.lane[h])
                if forward >= 0:
                    out.append(Move(h, forward, lane))
        out.append(Boxed(h))
    for horse in running(state):
        out.append(PullUp(horse))
        out.append(Card(horse, "penalty", 1))
        out.append(Card(horse, "second_wind"))
        out.append(Card(horse, "handicap", -1))
        if advance_target(state, horse) is not None:
            out.append(Card(horse, "advance", 3))
    return out


def view(state: GnState, role: Role) -> GnState:
    """Blind bets are their writers' own until settlement: the others (the referee too) see
    that one was placed, never what."""
    if state.settled:
        return state
    blind = tuple(
        b if b is None or role == Role.seat_of(seat) else SEALED
        for seat, b in enumerate(state.blind)
    )
    return replace(state, blind=blind)


def actors(state: GnState) -> frozenset[Role]:
    if state.phase == "over":
        return frozenset()
    if state.phase == "blind_bets":
        return frozenset(Role.seat_of(s) for s, b in enumerate(state.blind) if b is None)
    if state.phase in ("going", "lanes") or needs_spin(state):
        return frozenset({CHANCE})
    # the market and the race are the referee's to run: players' bets in the market (on
    # their own links) are not secret choices the game waits for
    return frozenset({REFEREE})
