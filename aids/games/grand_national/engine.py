"""Grand National's rules as pure functions: ``apply(state, action) -> new state`` or raise.

Rule references point at ``shared/rules/grand_national.md``. The phases run in order: blind
bets (each seat's own, sealed) → the going (chance) → a spin per lane (chance) → the market
(handicaps for the going, the bookmaker's odds, bets at the posted odds) → the race → over,
when four horses have placed (or none is left running): prize money and every bet settled in
the ledger. Every check runs before a new state is built, so a refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import CHANCE, REFEREE, Role
from aids.games.grand_national.data import load
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

T = TypeVar("T")


def _with(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*values[:i], value, *values[i + 1 :])


def clamp(value: int, low: int, high: int) -> int:
    """[ruling] Only the part of an effect past a bound is void: 6 + 2 → 7, 1 − 2 → 0.

    >>> clamp(6 + 2, 0, 7), clamp(1 - 2, 0, 7)
    (7, 0)
    """
    return max(low, min(high, value))


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


# --- money ---------------------------------------------------------------------------------------


def balance(ledger: Sequence[Line], party: int) -> int:
    return sum(line.amount for line in ledger if line.to == party) - sum(
        line.amount for line in ledger if line.frm == party
    )


def cash(state: GnState, seat: int) -> int:
    """A seat's money on the ledger (a sealed blind stake is not on it until settlement)."""
    return balance(state.ledger, seat)


def available(state: GnState, seat: int) -> int:
    """What a seat may still stake: its cash less its own blind stake set aside."""
    blind = state.blind[seat]
    held = blind.stake if blind is not None and blind is not SEALED and blind.stake > 0 else 0
    return cash(state, seat) - (0 if state.settled else held)


def entry_limit(state: GnState, seat: int) -> int:
    """The most someone else (the referee) may stake for ``seat``: its cash, less the blind
    bet's maximum while a blind bet is sealed — the real stake must not show through."""
    sealed = state.blind[seat] is not None and not state.settled
    return max(0, cash(state, seat) - (load().blind_max if sealed else 0))


def check_bet_for_another(state: GnState, action: Bet) -> None:
    if 0 <= action.seat < state.seats and action.stake > entry_limit(state, action.seat):
        raise RuleViolation("gn/cash_sealed", most=f"{entry_limit(state, action.seat):,}")


# --- who moves ---------------------------------------------------------------------------------


def running(state: GnState) -> list[int]:
    return [h for h in range(state.horses) if state.status[h] == "running"]


def race_order(state: GnState) -> list[int]:
    """Horses still running, leader first (ties: the inside lane first, then the horse)."""
    return sorted(running(state), key=lambda h: (-state.distance[h], state.lane[h], h))


def _ring_from(state: GnState, colour: str) -> tuple[int, ...]:
    """Lanes: stables clockwise round the spinner's colour ring from ``colour``'s stable."""
    ring = state.setup.ring
    start = next(i for i, s in enumerate(ring) if state.setup.stables[s].colour == colour)
    return ring[start:] + ring[:start]


def seats_from(state: GnState, colour: str) -> tuple[int, ...]:
    """Later turns: the stable spun, then "the player to his left (clockwise seating
    position)" and so on round the table — seating order, not the spinner's ring (a ruling:
    the ring decides lanes only). Stables are kept in seating order.

    >>> from aids.games.grand_national.model import GnSetup, Horse, Stable
    >>> from aids.games.grand_national.track import sample_track
    >>> horses = (Horse("a", 60000, 1), Horse("b", 40000, 1), Horse("c", 20000, 1),
    ...           Horse("d", 10000, 1))
    >>> stables = tuple(Stable(n, c, tuple(Horse(n + h.name, h.price, 1) for h in horses))
    ...                 for n, c in (("A", "red"), ("B", "blue"), ("C", "white")))
    >>> seats_from(initial_state(GnSetup(stables, 0, sample_track())), "red")
    (0, 1, 2)
    """
    seats = tuple(range(len(state.setup.stables)))
    start = next(s for s in seats if state.setup.stables[s].colour == colour)
    return seats[start:] + seats[:start]


def _first_round_group(state: GnState, cap: int) -> tuple[int, ...]:
    """The first turn: cap ``cap``'s horses, inside first as lane ``cap + 1`` was spun."""
    return tuple(s * load().horses + cap for s in state.lanes[cap])


def turn_order(state: GnState) -> tuple[int, ...]:
    """This turn's horses in the order they move, for a page to show (those in
    ``state.moved`` have moved): the cap's horses as spun — the first turn inside first, later
    turns from the stable spun round the table — or, position order after the first turn,
    the horses yet to move from the leader back. Empty while a spin is due."""
    if state.phase != "race":
        return ()
    if state.setup.order == "position" and state.round > 1:
        return tuple(h for h in race_order(state) if h not in state.moved)
    return state.group


def next_horse(state: GnState) -> int | None:
    """The horse to move now, or None (a spin is needed first, or the race is not on)."""
    return next(
        (h for h in turn_order(state) if h not in state.moved and state.status[h] == "running"),
        None,
    )


def needs_spin(state: GnState) -> bool:
    """Cap order after the first turn: the next cap's horses wait for the spinner."""
    return (
        state.phase == "race"
        and state.setup.order == "caps"
        and state.round > 1
        and not state.group
    )


def deck_for(state: GnState, horse: int) -> str | None:
    """The card the horse draws where it stands now: ``jump`` on a fence or the water,
    ``turf`` on a horseshoe (not in the first turn, nor when a card put it there), which
    becomes ``go_for_home`` once the leader has cleared Becher's on the last lap."""
    spot = state.setup.track.landmark(state.distance[horse])
    if spot in ("fence", "water"):
        return "jump"
    if spot != "horseshoe" or state.round <= 1 or horse in state.card_moved:
        return None
    leader = max((state.distance[h] for h in running(state)), default=0)
    leaders = max([leader, *(state.distance[h] for h in state.placed)])
    return "go_for_home" if leaders > state.setup.track.bechers_last_lap else "turf"


def advance_target(state: GnState, horse: int) -> int | None:
    """The horse an advance card moves: ``horse``, or if it carries a stamina penalty the
    next one in line behind it without one (None: nobody can take it)."""
    order = race_order(state)
    if horse not in order:
        return None
    for h in order[order.index(horse) :]:
        if state.penalty[h] == 0:
            return h
    return None


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
        return _after_change(replace(state, status=_with(state.status, action.horse, "pulled_up")))
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
    blind = _with(state.blind, action.seat, action)
    done = all(b is not None for b in blind)
    return replace(state, blind=blind, phase="going" if done else "blind_bets")


def _lane_spin(state: GnState, action: LaneSpin) -> GnState:
    if state.phase != "lanes":
        raise RuleViolation("gn/not_now", phase=state.phase)
    if action.lane != len(state.lanes) + 1:
        raise RuleViolation("gn/lane_order", lane=len(state.lanes) + 1)
    if all(s.colour != action.colour for s in state.setup.stables):
        raise InvalidAction("gn/colour_not_in_play", colour=action.colour[:20])
    lanes = (*state.lanes, _ring_from(state, action.colour))
    done = len(lanes) == load().horses
    return replace(state, lanes=lanes, phase="market" if done else "lanes")


def _market(state: GnState, action: SetHandicap | SetOdds | Bet | Start) -> GnState:
    if state.phase != "market":
        raise RuleViolation("gn/market_closed")
    if isinstance(action, Start):
        first = replace(state, phase="race", round=1, cap=0, moved=frozenset())
        return replace(first, group=_first_round_group(first, 0))
    _check_horse(state, action.horse)
    if isinstance(action, SetHandicap):
        low, high = load().handicap
        if not low <= action.mark <= high:
            raise InvalidAction("gn/handicap_range", horse=_name(state, action.horse),
                                low=low, high=high)  # fmt: skip
        return replace(state, handicap=_with(state.handicap, action.horse, action.mark))
    if isinstance(action, SetOdds):
        return replace(state, odds=_with(state.odds, action.horse, (action.win, action.show)))
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
    return _maybe_over(_advance_turn(replace(state, group=group)))


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
            distance=_with(state.distance, horse, state.distance[horse] + action.forward),
            lane=_with(state.lane, horse, action.lane),
            card_moved=state.card_moved - {horse},
        )
    if burn > state.speed_left(horse):
        raise RuleViolation("gn/speed_left", left=state.speed_left(horse))
    after = replace(
        moved,
        used=_with(moved.used, horse, moved.used[horse] + burn),
        moved=moved.moved | {horse},
    )
    return _after_change(after, turn=True)


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
            distance=_with(state.distance, target, state.distance[target] + moved),
            lane=_with(state.lane, target, lane),
            used=_with(state.used, target, min(state.top(), state.used[target] + burn)),
            card_moved=state.card_moved | {target},
        )
        return _after_change(after)
    if effect in ("fall", "withdraw"):
        out: Status = "fallen" if effect == "fall" else "withdrawn"
        return _after_change(replace(state, status=_with(state.status, horse, out)))
    if effect == "penalty":
        if value == 0 or state.penalty[horse] + value < 0:
            raise InvalidAction("gn/card_value", low=-state.penalty[horse], high=10)
        return replace(state, penalty=_with(state.penalty, horse, state.penalty[horse] + value))
    if effect == "second_wind":
        return replace(state, penalty=_with(state.penalty, horse, 0))
    if effect == "handicap":
        low, high = load().handicap
        mark = clamp(state.handicap[horse] + value, low, high)
        return replace(state, handicap=_with(state.handicap, horse, mark))
    if effect == "speed":  # + gives speed points back, − strikes them
        used = clamp(state.used[horse] - value, 0, state.top())
        return _after_change(replace(state, used=_with(state.used, horse, used)))
    return _after_change(replace(state, lose_turn=state.lose_turn | {horse}))  # lose_turn


# --- after every change: finishes, pulled up, running too free, the end, the next turn -------


def _after_change(state: GnState, *, turn: bool = False) -> GnState:
    state = _finishes(state)
    state = _pulled_up(state)
    if state.setup.too_free == "any_time" and state.round > 1:
        state = _too_free(state)
    if turn or state.phase == "race":
        state = _advance_turn(state)
    return _maybe_over(state)


def _finishes(state: GnState) -> GnState:
    finish = state.setup.track.finish
    placed, status = state.placed, state.status
    for h in race_order(state):
        if state.distance[h] >= finish and len(placed) < len(load().prizes):
            placed = (*placed, h)
            status = _with(status, h, "finished")
    return replace(state, placed=placed, status=status)


def _pulled_up(state: GnState) -> GnState:
    """Out of speed points, or lapped by the leader (a horse that has just finished too)."""
    lead = max((state.distance[h] for h in (*running(state), *state.placed)), default=0)
    status = state.status
    for h in running(state):
        if state.speed_left(h) <= 0 or lead - state.distance[h] >= state.setup.track.lap:
            status = _with(status, h, "pulled_up")
    return replace(state, status=status)


def _too_free(state: GnState) -> GnState:
    """A leader 10 or more lengths clear, up to Melling Road on the last lap: −2 handicap,
    once per horse, never below 0."""
    order = race_order(state)
    if len(order) < 2:
        return state
    leader, second = order[0], order[1]
    gap = state.distance[leader] - state.distance[second]
    if (
        gap < load().too_free_lengths
        or state.distance[leader] > state.setup.track.too_free_until
        or leader in state.too_free_done
    ):
        return state
    mark = clamp(state.handicap[leader] - load().too_free_penalty, *load().handicap)
    return replace(
        state,
        handicap=_with(state.handicap, leader, mark),
        too_free_done=state.too_free_done | {leader},
    )


def _skip_lost_turns(state: GnState) -> GnState:
    """A horse whose turn comes while it has a turn to lose loses it (marked moved)."""
    while True:
        h = next_horse(state)
        if h is None or h not in state.lose_turn:
            return state
        state = replace(state, moved=state.moved | {h}, lose_turn=state.lose_turn - {h})


def _has_runner(state: GnState, cap: int) -> bool:
    """Some stable's horse of this cap is still running."""
    return any(state.status[s * load().horses + cap] == "running" for s in range(state.seats))


def _advance_turn(state: GnState) -> GnState:
    """On to the next cap's group, or the next round, once every horse due has moved. A cap
    with no horse left running is passed over (no spin for it)."""
    if state.phase != "race":
        return state
    state = _skip_lost_turns(state)
    if next_horse(state) is not None or needs_spin(state):
        return state
    if state.setup.order == "caps" or state.round == 1:  # the first turn goes by caps too
        for cap in range(state.cap + 1, load().horses):
            if state.round == 1:
                return _advance_turn(replace(state, cap=cap, group=_first_round_group(state, cap)))
            if _has_runner(state, cap):
                return replace(state, cap=cap, group=())  # the spinner for this cap's horses
    # the round is over
    if state.setup.too_free == "round_end":
        state = _too_free(state)
    nxt = replace(state, round=state.round + 1, cap=0, group=(), moved=frozenset())
    if nxt.setup.order == "caps":
        first = next((c for c in range(load().horses) if _has_runner(nxt, c)), 0)
        return replace(nxt, cap=first)
    return _skip_lost_turns(nxt)


def _maybe_over(state: GnState) -> GnState:
    if state.phase != "race":
        return state
    if len(state.placed) < len(load().prizes) and running(state):
        return state
    return settle(replace(state, phase="over"))


def settle(state: GnState) -> GnState:
    """Prize money to the owners of 1st–4th, then every bet (blind bets at the reserve-price
    table's odds): Win pays on 1st, Show on 1st–3rd, stake × odds + stake."""
    d = load()
    ledger = list(state.ledger)
    for place, h in enumerate(state.placed):
        ledger.append(Line(BANK, state.owner(h), d.prizes[place], "prize", h))
    wagers = list(state.wagers)
    for b in state.blind:
        if b is not None and b is not SEALED and b.stake > 0 and b.horse is not None and b.kind:
            odds = d.odds[state.setup.horse(b.horse).price][0 if b.kind == "win" else 1]
            wagers.append(Wager(b.seat, b.horse, b.kind, b.stake, odds, blind=True))
            ledger.append(Line(b.seat, HELD, b.stake, "blind", b.horse))
    places = {h: i + 1 for i, h in enumerate(state.placed)}
    for w in wagers:
        at = places.get(w.horse)
        won = at is not None and (at == 1 if w.kind == "win" else at <= d.show_places)
        if won:
            ledger.append(Line(HELD, w.seat, w.stake, "stake_back", w.horse))
            ledger.append(Line(BANK, w.seat, w.odds.returns(w.stake) - w.stake, "payout", w.horse))
        else:
            ledger.append(Line(HELD, BANK, w.stake, "lost", w.horse))
    return replace(state, wagers=tuple(wagers), ledger=tuple(ledger), settled=True)


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
