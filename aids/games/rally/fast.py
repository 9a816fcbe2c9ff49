"""The rally's race for playouts (``FastRally``): the engine's rules and the greedy driver of
``aids.games.rally.chances`` on plain lists of small ints, 20–30 times as many playouts a
second as ``engine.apply`` on frozen states (300–500 for six cars on the sample map, one
core). Only ``aids.games.rally.chances`` and the tests use it;
``tests/games/rally/test_fast.py`` checks it against the engine move for move on 17,000
random positions (the driver's options with their weights, and the state after each, field
by field), replays whole playouts through the engine, and finds the playouts the engine's own
(the same random numbers drawn, the same games).

The codes (towns, cards, actions) and the map's side (distances to the goal, a car's reach,
the driver's movement, the discards, memoised per estimate) are ``aids.games.rally.fast_map``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from aids.games.chances import PlayoutTooLong
from aids.games.rally.data import load
from aids.games.rally.fast_map import (
    ATTACK,
    ATTACKS,
    CARDS,
    CLEAR_SKY,
    CODE,
    DEFENCES,
    DEFEND,
    DRAW,
    DRIVE_CODES,
    END,
    END_RACE,
    ENGINE,
    FERRY,
    JAM,
    JAM_CLEAR,
    POLICE,
    RAIN,
    REPAIR,
    TRAVEL,
    FastAction,
    Roads,
    counts,
    counts_of,
    engine_action,
)
from aids.games.rally.model import Action, RallyState

MAX_STEPS = 20_000  # as ``chances.MAX_STEPS``: a playout's cap in engine steps
NO_CAP = 1 << 30  # a last round no race reaches
DRAW_PHASE, ACT, OVER = 0, 1, 2
PHASES = ("draw", "act", "over")
#: ``run``'s ``choose``: given the options and their weights, the index of one (-1: stop)
Chooser = Callable[[list[FastAction], list[float]], int]
_ZERO = (0,) * CARDS
_KEEP: list[tuple[int, ...]] = [()]  # the one way to end a turn with nothing to throw


class FastRally:
    """One race in plain lists, for playouts: a simulation with every hand and the pile known
    (a sample of what the table cannot see). Towns and cards are the codes of ``Roads``; a
    hand and the discard pile are counts per card code (the engine keeps them sorted, which
    is all the order they have); the pile's next card is LAST; the jams are a bitmask."""

    __slots__ = (
        "acted", "actions", "arrived", "discard", "discard_size", "done", "draws", "ended",
        "engine", "ferried", "hand_sizes", "hands", "jams", "last_round", "left", "limits",
        "moved", "phase", "pile", "players", "points", "police", "police_turns", "rain",
        "reshuffles", "roads", "round", "seed", "shuffle", "start_player", "teams", "towns",
        "turn",
    )  # fmt: skip

    def __init__(self, roads: Roads) -> None:
        self.roads = roads
        self.players = 0
        self.start_player = 0
        self.actions: list[int] = []  # per seat: the machine's actions, hand size, draw
        self.limits: list[int] = []
        self.draws: list[int] = []
        self.teams: list[int] = []  # per seat: its team (-1: individual play)
        self.points = load().points
        self.police_turns = load().police_turns
        self.towns: list[int] = []
        self.rain: list[bool] = []
        self.engine: list[bool] = []
        self.police: list[int] = []
        self.jams = 0
        self.arrived: list[int] = []  # seats in order of arrival
        self.done: list[bool] = []  # per seat: arrived
        self.round = 1
        self.turn = 0
        self.phase = DRAW_PHASE
        self.left = 0  # actions left this turn
        self.moved = False
        self.ferried = False
        self.acted = False  # a card played this turn (the ferry is then closed)
        self.hands: list[list[int]] = []  # per seat: counts per card code
        self.hand_sizes: list[int] = []
        self.pile: list[int] = []  # the next card last
        self.discard: list[int] = [0] * CARDS
        self.discard_size = 0
        self.reshuffles = 0
        self.seed = 0
        self.ended = False
        self.last_round = NO_CAP  # past it the race is ended as the referee ends it
        #: a reshuffle's shuffle of the sorted deck (its next card first), in place; None: the
        #: engine's, seeded with ``seed`` and the reshuffle's number
        self.shuffle: Callable[[list[int]], None] | None = None

    # --- to and from the engine's state ---------------------------------------------------

    @classmethod
    def of(cls, state: RallyState, roads: Roads | None = None) -> FastRally:
        """``state`` in codes: its hands, pile and discard pile when it is a simulation
        (else empty: ``deal`` puts a sample in)."""
        setup = state.setup
        race = cls(roads or Roads(setup.board, setup.goal))
        index = race.roads.index
        race.players, race.start_player = state.players, setup.start_player
        race.actions = [p.machine.actions for p in setup.players]
        race.limits = [p.machine.hand for p in setup.players]
        race.draws = [p.machine.draw for p in setup.players]
        race.teams = [-1 if p.team is None else p.team for p in setup.players]
        race.towns = [index[t] for t in state.towns]
        race.rain, race.engine = list(state.rain), list(state.engine)
        race.police = list(state.police)
        race.jams = race.roads.mask(state.jams)
        race.arrived = list(state.arrived)
        race.done = [s in state.arrived for s in range(state.players)]
        race.round, race.turn = state.round, state.turn
        race.phase = PHASES.index(state.phase)
        race.left, race.moved = state.actions_left, state.moved
        race.ferried, race.acted = state.current.ferry, bool(state.current.cards)
        race.hand_sizes = list(state.hand_sizes)
        race.discard_size, race.reshuffles = state.discard_size, state.reshuffles
        race.ended, race.seed = state.ended, setup.seed or 0
        race.hands = [counts(h) for h in state.hands] or [[0] * CARDS for _ in setup.players]
        race.pile = [CODE[c] for c in reversed(state.pile)]
        race.discard = counts(state.discard)
        return race

    def copy(self) -> FastRally:
        other = FastRally.__new__(FastRally)
        for name in FastRally.__slots__:
            setattr(other, name, getattr(self, name))
        other.towns, other.rain = list(self.towns), list(self.rain)
        other.engine, other.police = list(self.engine), list(self.police)
        other.arrived, other.done = list(self.arrived), list(self.done)
        other.hands = [list(h) for h in self.hands]
        other.hand_sizes, other.pile = list(self.hand_sizes), list(self.pile)
        other.discard = list(self.discard)
        return other

    def deal(self, hands: Sequence[Sequence[int]], discard: Sequence[int], pile: Sequence[int],
             seed: int) -> None:  # fmt: skip
        """Put in a deal: each hand's cards, the discard pile's and the pile's (codes; the
        pile's next card first), and the seed of the engine's reshuffles."""
        self.hands = [counts_of(h) for h in hands]
        self.discard = counts_of(discard)
        self.pile = list(reversed(pile))
        self.seed = seed

    def to_engine(self, action: FastAction) -> Action:
        """A code action as the engine's, for the seat to act."""
        return engine_action(self.roads.ids, self.turn, action)

    # --- the rules and the driver ---------------------------------------------------------

    def options(self) -> list[tuple[FastAction, float]]:
        """The greedy driver's next action with its probability (as ``chances.choices``)."""
        seen: list[tuple[FastAction, float]] = []

        def look(options: list[FastAction], weights: list[float]) -> int:
            seen.extend(zip(options, weights, strict=True))
            return -1  # apply nothing

        self.run(look, steps=1)
        return seen

    def step(self, action: FastAction) -> None:
        """Apply one of the driver's options (from ``options``)."""
        self.run(lambda options, _: options.index(action), steps=1)

    def play_out(self, rng: random.Random, max_steps: int = MAX_STEPS) -> list[float]:
        """The greedy driver to the end (as ``chances.play_out``, drawing the same random
        numbers); the result. ``PlayoutTooLong`` rather than take ``max_steps`` steps."""
        self.run(None, steps=max_steps, pick=rng.random)
        if self.phase != OVER:
            raise PlayoutTooLong("rally", max_steps)
        return self.result()

    def run(self, choose: Chooser | None, steps: int = -1,
            pick: Callable[[], float] | None = None) -> None:  # fmt: skip
        """The rules' loop, the one path ``options``, ``step`` and ``play_out`` all take.

        At each step the driver's options for the seat to act are found as ``choices`` finds
        them — past ``last_round`` the referee's end; the draw; a ferry nearer the goal; a
        defence of the car's own status; the movement nearest the goal (``Roads.drive``);
        else every attack and defence the engine allows and the ends of the turn (each way
        to throw down to the hand size), the plays sharing the weight equally with the
        ends — and ``choose`` returns the index of one (-1: stop), which is applied.
        ``steps`` bounds how many are applied (-1: to the end). With no ``choose``, a
        certain action is taken and a choice drawn with one ``pick()`` (a float in [0, 1))
        as ``chances._pick`` draws it — inline: a playout's hot path. A step that ends the
        race stops the loop only at the next step's check, as ``chances.play_out`` does.
        """
        uniform = pick or random.random
        roads = self.roads
        ports, drives, drive, discards = roads.port, roads.drives, roads.drive, roads.discards
        towns, rain, eng, police, hands, sizes = (
            self.towns, self.rain, self.engine, self.police, self.hands, self.hand_sizes,
        )  # fmt: skip
        discard, arrived, done, pile = self.discard, self.arrived, self.done, self.pile
        actions, limits, draws, n = self.actions, self.limits, self.draws, self.players
        goal, start, last, seed = roads.goal, self.start_player, self.last_round, self.seed
        jams, rnd, turn, phase, left = self.jams, self.round, self.turn, self.phase, self.left
        moved, ferried, acted, thrown = self.moved, self.ferried, self.acted, self.discard_size
        reshuffles, ended, police_turns = self.reshuffles, self.ended, self.police_turns
        shuffle = self.shuffle
        d0, d1, d2, d3, d4, top = DRIVE_CODES
        while steps and phase != OVER:
            s = turn
            hand = hands[s]
            action: FastAction | None = None
            plays: list[FastAction] = []
            ends = _KEEP
            if rnd > last:
                action = (END_RACE,)
            elif phase == DRAW_PHASE:
                action = (DRAW,)
            else:
                here = towns[s]
                stuck = jams >> here & 1
                if not (acted or moved or ferried or stuck) and left == actions[s]:
                    port = ports[here]
                    if port >= 0:
                        action = (FERRY, port)
                if action is None and left > 0:
                    if stuck and hand[JAM_CLEAR]:
                        action = (DEFEND, JAM_CLEAR, -1, here)
                    elif eng[s] and hand[REPAIR]:
                        action = (DEFEND, REPAIR, s, -1)
                    elif rain[s] and hand[CLEAR_SKY]:
                        action = (DEFEND, CLEAR_SKY, s, -1)
                    elif not (moved or eng[s] or stuck):
                        most = 1 if rain[s] else min(left, sizes[s])
                        key = (here, jams, most, hand[d0], hand[d1], hand[d2], hand[d3],
                               hand[d4], hand[top])  # fmt: skip
                        go = drives[key] if key in drives else drive(here, jams, most, key[3:])
                        if go is not None:
                            action = (TRAVEL, go[0], go[1])
                if action is None:
                    if left > 0:
                        for card in ATTACKS:
                            if not hand[card]:
                                continue
                            for t in range(n):
                                if t == s or done[t]:
                                    continue
                                if card == JAM:
                                    held = jams >> towns[t] & 1
                                elif card == RAIN:
                                    held = rain[t]
                                elif card == ENGINE:
                                    held = eng[t]
                                else:
                                    held = police[t] > 0
                                if not held:
                                    plays.append((ATTACK, card, t))
                        for card in DEFENCES:
                            if not hand[card]:
                                continue
                            if card == JAM_CLEAR:
                                rest = jams  # each jammed town, lowest code first
                                while rest:
                                    low = rest & -rest
                                    plays.append((DEFEND, card, -1, low.bit_length() - 1))
                                    rest ^= low
                            else:
                                status = rain if card == CLEAR_SKY else eng
                                plays.extend((DEFEND, card, t, -1) for t in range(n) if status[t])
                    excess = sizes[s] - limits[s]
                    if excess > 0:
                        ends = discards(tuple(hand), excess)
                    if not plays and len(ends) == 1:
                        action = (END, ends[0])
            if choose is not None:
                if action is not None:
                    options, weights = [action], [1.0]
                else:
                    share = 1.0 / (len(plays) + 1)
                    options = [*plays, *((END, e) for e in ends)]
                    weights = [share] * len(plays) + [share / len(ends)] * len(ends)
                index = choose(options, weights)
                if index < 0:
                    break
                action = options[index]
            elif action is None:  # as ``chances._pick``: one draw, the weights subtracted
                share = 1.0 / (len(plays) + 1)
                x = uniform()
                for play in plays:
                    x -= share
                    if x < 0:
                        action = play
                        break
                else:
                    each = share / len(ends)
                    for thrown_cards in ends:
                        x -= each
                        if x < 0:
                            action = (END, thrown_cards)
                            break
                    else:
                        action = (END, ends[-1])
            assert action is not None  # every branch above chose one
            steps -= 1
            kind = action[0]
            advance = home = False
            if kind == DRAW:
                want = min(draws[s], len(pile) + thrown)
                sizes[s] += want
                if len(pile) < want:  # the pile runs out: the engine's reshuffle
                    for card in pile:
                        hand[card] += 1
                    want -= len(pile)
                    reshuffles += 1
                    deck = [c for c in range(CARDS) for _ in range(discard[c])]
                    if shuffle is None:
                        random.Random(f"{seed}:{reshuffles}").shuffle(deck)
                    else:
                        shuffle(deck)
                    deck.reverse()
                    pile[:] = deck
                    discard[:] = _ZERO
                    thrown = 0
                for _ in range(want):
                    hand[pile.pop()] += 1
                phase, left = ACT, actions[s]
            elif kind == TRAVEL:
                cards = action[1]
                for card in cards:
                    hand[card] -= 1
                    discard[card] += 1
                sizes[s] -= len(cards)
                thrown += len(cards)
                left -= len(cards)
                acted = moved = True
                towns[s] = action[2]
                home = action[2] == goal
            elif kind in (ATTACK, DEFEND):
                card, t = action[1], action[2]
                hand[card] -= 1
                discard[card] += 1
                sizes[s] -= 1
                thrown += 1
                left -= 1
                acted = True
                if card == JAM:
                    jams |= 1 << towns[t]
                elif card == RAIN:
                    rain[t] = True
                elif card == ENGINE:
                    eng[t] = True
                elif card == POLICE:
                    police[t] = police_turns
                elif card == JAM_CLEAR:
                    jams &= ~(1 << action[3])
                elif card == CLEAR_SKY:
                    rain[t] = False
                else:
                    eng[t] = False
            elif kind == FERRY:
                towns[s] = action[1]
                left = 0
                ferried = True
                home = action[1] == goal
            elif kind == END:
                for card in action[1]:
                    hand[card] -= 1
                    discard[card] += 1
                sizes[s] -= len(action[1])
                thrown += len(action[1])
                advance = True
            else:
                phase, ended = OVER, True
            if home:  # arriving ends the car's race and its turn
                arrived.append(s)
                done[s] = True
                rain[s] = eng[s] = False
                advance = True
            if advance:
                if len(arrived) == n:
                    phase, left = OVER, 0
                    continue
                seat = s
                while True:  # clockwise to the next car on the road; police turns missed
                    seat = (seat + 1) % n
                    if seat == start:
                        rnd += 1
                    if done[seat]:
                        continue
                    if police[seat] > 0:
                        police[seat] -= 1
                        continue
                    break
                turn, phase, left = seat, DRAW_PHASE, 0
                moved = ferried = acted = False
        self.jams, self.round, self.turn, self.phase, self.left = jams, rnd, turn, phase, left
        self.moved, self.ferried, self.acted, self.discard_size = moved, ferried, acted, thrown
        self.reshuffles, self.ended = reshuffles, ended

    # --- the result -----------------------------------------------------------------------

    def placings(self) -> list[list[int]]:
        """Seats by place, as ``engine.placings``: arrivals in order, then the cars on the
        road nearest the goal first, equal distances sharing a place."""
        groups = [[seat] for seat in self.arrived]
        rank, towns = self.roads.rank, self.towns
        rest = sorted((rank[towns[s]], s) for s in range(self.players) if not self.done[s])
        last = -1
        for distance, seat in rest:
            if distance == last:
                groups[-1].append(seat)
            else:
                groups.append([seat])
                last = distance
        return groups

    def result(self) -> list[float]:
        """``chances.result``: each car first, each car's place, each team winning and its
        points."""
        n = self.players
        groups = self.placings()
        first = [0.0] * n
        for seat in groups[0]:
            first[seat] = 1.0 / len(groups[0])
        places = [0.0] * n
        points = [0] * n
        place = 0
        for group in groups:
            for seat in group:
                places[seat] = float(place + 1)
                points[seat] = self.points[place]
            place += len(group)
        out = first + places
        if self.teams and self.teams[0] >= 0:
            totals = [0] * (max(self.teams) + 1)
            for seat, team in enumerate(self.teams):
                totals[team] += points[seat]
            best = max(totals)
            winners = totals.count(best)
            out += [1.0 / winners if total == best else 0.0 for total in totals]
            out += [float(total) for total in totals]
        return out
