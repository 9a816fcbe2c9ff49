"""The Derby's race for playouts (``FastRace``): the engine's rules on plain lists of small
ints, 20–40 times faster than ``engine.apply`` on frozen dataclasses, and the translation of
the engine's cards and actions to its codes. Only ``aids.games.derby.chances`` and the tests
use it; ``tests/games/derby/test_chances.py`` checks it against the engine on more than 10,000
random positions, move for move (the legal actions as a set, and the state after each) — as
chess move generators are checked by perft.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache

from aids.games.chances import PlayoutTooLong
from aids.games.derby.data import load
from aids.games.derby.model import (
    BLACK,
    Bet,
    Card,
    DerbyState,
    Pass,
    PlayCard,
)

BLACK_ROW = 8  # a black card's "row" in the code of a card: row * 10 + value
#: a playout's cap: a race has 90 cards to play, at most 25 bets, and a pass only from a hand
#: with no live card (which then draws, or, the pile out, waits for one that has one)
MAX_STEPS = 2_000
# an action in a playout: (BET, horse) | (PLAY, horse, card code) | (PASS,)
BET, PLAY, PASS = 0, 1, 2
FastAction = tuple[int, ...]


class FastRace:
    """One race in plain lists, for playouts: a simulation with every hand and the pile known
    (a sample of what the table cannot see). Cards are codes ``row * 10 + value``, a black
    card's row being 8. Only ``DerbyChances`` and the tests use it.

    A hand holds only live cards. The engine keeps a fallen horse's cards in a hand until
    its owner's turn ends and discards them just before the draw, so they never change what
    is drawn or when: here they leave the hands the moment the horse falls, and a card drawn
    dead is set aside at once (the draw still takes it from the pile).
    """

    __slots__ = (
        "bet_made", "bets", "counters", "covered", "deck", "ended", "fallen", "fence",
        "fences", "hand_size", "hands", "left", "options", "payout", "players", "running",
        "taken", "tops", "turn",
    )  # fmt: skip

    def __init__(self) -> None:
        self.players = 0
        self.fallen: list[int] = []  # per row: the fence it fell at, 0 while running
        self.running: list[int] = []  # rows still running, in row order
        self.fence = 1
        self.tops: list[int] = []  # per row: the top card's value in the current column, -1
        self.covered = 0  # running horses with a card in the current column
        self.counters: list[tuple[int, int, int]] = []  # (player, horse, fence)
        self.left: list[int] = []  # counters each player still holds
        self.taken: set[int] = set()  # horses whose slot at the current fence is taken
        self.turn = 0
        self.bet_made = False
        self.hands: list[list[int]] = []  # live cards only
        self.deck: list[int] = []  # the draw pile, the next card LAST (pop from the end)
        self.ended = False
        self.payout: dict[int, int] = {}
        self.fences = 5
        self.bets: tuple[int, ...] = ()  # the fences where betting is allowed
        self.hand_size = 8
        #: per card code: the codes of its plays (one per horse it fits); [] for a dead card
        self.options: list[list[int]] = []

    # --- to and from the engine's state ---------------------------------------------------

    @classmethod
    def of(cls, state: DerbyState, hands: Sequence[Sequence[int]], deck: Sequence[int]) -> FastRace:
        """``state``'s public part with these hands and pile (codes; the pile's next card
        first)."""
        data = load()
        race = cls()
        race.players = len(state.setup.players)
        race.fallen = [f or 0 for f in state.fallen]
        race.running = list(state.running)
        race.fence = state.fence
        race.fences, race.bets, race.payout = data.fences, data.betting_fences, data.payout
        race.hand_size = data.hand_size
        column = state.columns[state.fence - 1] if state.fence <= data.fences else ()
        race.tops = [stack[-1].value if stack else -1 for stack in column] or [-1] * len(
            state.setup.horses
        )
        race.covered = sum(1 for h in race.running if race.tops[h] >= 0)
        race.counters = [(c.player, c.horse, c.fence) for c in state.counters]
        race.left = [state.counters_left(p) for p in range(race.players)]
        race.taken = {c.horse for c in state.counters if c.fence == state.fence}
        race.turn = state.turn
        race.bet_made = state.bet_made
        race.options = _options(race.fallen, race.running)
        race.hands = [[c for c in h if race.options[c]] for h in hands]
        race.deck = list(reversed(deck))
        race.ended = state.ended is not None
        return race

    def copy(self) -> FastRace:
        other = FastRace.__new__(FastRace)
        for name in FastRace.__slots__:
            setattr(other, name, getattr(self, name))
        other.fallen, other.running = list(self.fallen), list(self.running)
        other.tops, other.counters = list(self.tops), list(self.counters)
        other.left, other.taken = list(self.left), set(self.taken)
        other.hands = [list(h) for h in self.hands]
        other.deck = list(self.deck)
        other.options = list(self.options)  # its lists are replaced, never changed
        return other

    # --- the rules ------------------------------------------------------------------------

    def actions(self) -> list[FastAction]:
        """Every legal action of the player to act (as ``engine.legal_actions``)."""
        seen: list[int] = []

        def look(options: list[int]) -> int:
            seen.extend(options)
            return -1  # apply nothing

        self.run(look, steps=1)
        return [_decode(a) for a in seen]

    def step(self, action: FastAction) -> None:
        """Apply one legal action (from ``actions``), with the discard of every dead card."""
        wanted = _encode(action)
        self.run(lambda options: options.index(wanted), steps=1)

    def play_out(self, rng: random.Random, max_steps: int = MAX_STEPS) -> list[float]:
        """Uniformly random legal choices to the end; the result. Raises ``PlayoutTooLong``
        rather than take more than ``max_steps`` actions."""
        self.run(None, steps=max_steps, pick=rng.random)
        if not self.ended:
            raise PlayoutTooLong("derby", max_steps)
        return self.result()

    def run(
        self,
        choose: Callable[[list[int]], int] | None,
        steps: int = -1,
        pick: Callable[[], float] | None = None,
    ) -> None:
        """The rules' loop, the one path ``actions``, ``step`` and ``play_out`` all take.

        At each step the legal actions of the player to act are listed as codes — a bet on
        horse ``h`` is ``h``; a play of card ``c`` on horse ``h`` is ``16 + h * 128 + c``; the
        pass is ``-1`` — in a fixed order (bets by row, then the hand's cards, a black card
        once per running horse); ``choose`` returns the index of one (or -1: stop before
        applying anything), and it is applied, then the draw back up to 8. ``steps`` bounds
        how many are applied (-1: to the end of the race). With no ``choose``, each is picked
        uniformly at random with ``pick`` (a float in [0, 1)) — inline: a playout's hot path.
        """
        uniform = pick or random.random
        fallen, running, tops, hands, deck, options_of = (
            self.fallen, self.running, self.tops, self.hands, self.deck, self.options,
        )  # fmt: skip
        counters, left, taken, bets = self.counters, self.left, self.taken, self.bets
        fence, covered, turn, bet_made = self.fence, self.covered, self.turn, self.bet_made
        ended, fences, hand_size, players = self.ended, self.fences, self.hand_size, self.players
        while not ended and steps:
            hand = hands[turn]
            if not bet_made and fence in bets and left[turn] > 0:
                options = [h for h in running if h not in taken]
            else:
                options = []
            betting = len(options)
            options += [o for card in hand for o in options_of[card]]
            if len(options) == betting:
                options.append(-1)
            if choose is None:
                index = int(uniform() * len(options))
            else:
                index = choose(options)
                if index < 0:
                    break
            action = options[index]
            steps -= 1
            if 0 <= action < 16:  # a bet: the turn goes on to its play
                counters.append((turn, action, fence))
                left[turn] -= 1
                taken.add(action)
                bet_made = True
                continue
            if action > 0:  # a play
                horse, card = (action - 16) >> 7, (action - 16) & 127
                hand.remove(card)
                if tops[horse] < 0:
                    covered += 1
                tops[horse] = card % 10
                if covered == len(running):  # the column is full: the lowest falls
                    low, loser = 10, -1
                    for h in running:  # rows ascending: ``<=`` keeps the highest of a tie
                        if tops[h] <= low:
                            low, loser = tops[h], h
                    fallen[loser] = fence
                    running.remove(loser)
                    ended = fence == fences
                    fence += 1
                    tops[:] = [-1] * len(tops)
                    covered = 0
                    taken.clear()
                    first = loser * 10  # its cards are dead; black ones fit one horse fewer
                    options_of[first : first + 10] = _DEAD
                    options_of[80:90] = _black_options(tuple(running))
                    for other in hands:  # the fallen horse's cards leave every hand
                        other[:] = [c for c in other if options_of[c]]
            draw = hand_size - len(hand)  # back up to 8 (dead cards drawn are set aside)
            while draw > 0 and deck:
                card = deck.pop()
                if options_of[card]:
                    hand.append(card)
                draw -= 1
            turn = (turn + 1) % players
            bet_made = False
            if not deck and not ended:  # the pile is out: the race ends if nobody can play,
                ended = not any(hands)  # so if every hand is empty (hands hold live cards only)
        self.fence, self.covered, self.turn = fence, covered, turn
        self.bet_made, self.ended = bet_made, ended

    # --- the result -----------------------------------------------------------------------

    def result(self) -> list[float]:
        """Each horse finishing (0/1), each player's share of the win, each player's points."""
        fallen, payout = self.fallen, self.payout
        points = [0] * self.players
        for player, horse, fence in self.counters:
            if not fallen[horse]:
                points[player] += payout[fence]
        best = max(points)
        winners = points.count(best)
        return (
            [0.0 if f else 1.0 for f in fallen]
            + [1.0 / winners if s == best else 0.0 for s in points]
            + [float(s) for s in points]
        )


_DEAD: list[list[int]] = [[]] * 10  # a fallen horse's ten cards: no play (never changed)


@cache
def _black_options(running: tuple[int, ...]) -> list[list[int]]:
    """The black cards' plays: each on every running horse (shared lists: never changed)."""
    return [[16 + (h << 7) + card for h in running] for card in range(80, 90)]


def _options(fallen: Sequence[int], running: Sequence[int]) -> list[list[int]]:
    """Per card code, the codes of its plays: its own horse while it runs; a black card on
    every running horse."""
    out: list[list[int]] = []
    for card in range(80):
        row = card // 10
        out.append([] if fallen[row] else [16 + (row << 7) + card])
    return out + _black_options(tuple(running))


def _encode(action: FastAction) -> int:
    if action[0] == BET:
        return action[1]
    if action[0] == PLAY:
        return 16 + (action[1] << 7) + action[2]
    return -1


def _decode(code: int) -> FastAction:
    if code < 0:
        return (PASS,)
    if code < 16:
        return (BET, code)
    return (PLAY, (code - 16) >> 7, (code - 16) & 127)


# --- the engine's cards as codes ------------------------------------------------------------


def _rows(state: DerbyState) -> dict[str, int]:
    return {h.colour: i for i, h in enumerate(state.setup.horses)}


def code(state: DerbyState, card: Card) -> int:
    row = BLACK_ROW if card.colour == BLACK else _rows(state)[card.colour]
    return row * 10 + card.value


def card_of(state: DerbyState, value: int) -> Card:
    row, v = divmod(value, 10)
    return Card(BLACK if row == BLACK_ROW else state.setup.horses[row].colour, v)


def to_engine_action(state: DerbyState, action: FastAction) -> Bet | PlayCard | Pass:
    """A playout's action as the engine's (without its discard)."""
    if action[0] == BET:
        return Bet(state.turn, action[1])
    if action[0] == PLAY:
        return PlayCard(state.turn, action[1], card_of(state, action[2]))
    return Pass(state.turn)
