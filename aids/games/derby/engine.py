"""The Derby rules as pure functions: ``apply(state, action) -> new state`` or raise.

Rule references in comments point at ``shared/rules/derby.md``. Every check runs before the
new state is built, so a refused action changes nothing.
"""

from __future__ import annotations

import random
from dataclasses import replace

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import Role
from aids.games.derby.data import load
from aids.games.derby.model import (
    RULES_VERSIONS,
    Action,
    Bet,
    Card,
    Counter,
    DerbySetup,
    DerbyState,
    EndReason,
    NoCardsLeft,
    Pass,
    PlayCard,
    full_deck,
)

HIDDEN_SEED = -1  # a simulation's seed as a viewer or seat sees it

# --- setup -------------------------------------------------------------------------------


def initial_state(setup: DerbySetup, rules: int = RULES_VERSIONS[-1]) -> DerbyState:
    """Fence 1, empty columns, first seat to act. Simulation shuffles with the stored seed.

    ``rules``: the rules version the table is recorded under (an older table's log replays
    by its own rules)."""
    data = load()
    empty_column = tuple(() for _ in setup.horses)
    deck: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    pile = data.deck_size - data.hand_size * len(setup.players)
    if setup.mode == "simulation":
        cards = list(full_deck())
        random.Random(setup.seed).shuffle(cards)
        n = data.hand_size
        hands = tuple(tuple(cards[i * n : (i + 1) * n]) for i in range(len(setup.players)))
        deck = tuple(cards[n * len(setup.players) :])
        pile = len(deck)
    return DerbyState(
        setup=setup,
        fence=1,
        columns=tuple(empty_column for _ in range(data.fences)),
        fallen=tuple(None for _ in setup.horses),
        counters=(),
        turn=0,
        bet_made=False,
        played=frozenset(),
        discarded=0,
        pile=pile,
        deck=deck,
        hands=hands,
        rules=rules,
    )


# --- queries -----------------------------------------------------------------------------


def is_over(state: DerbyState) -> bool:
    return state.ended is not None


def current_player(state: DerbyState) -> int | None:
    """The seat to act, or None once the race has ended."""
    return None if state.ended else state.turn


def finishers(state: DerbyState) -> tuple[int, ...]:
    """Rows of the horses still running (the finishers once the race is over)."""
    return state.running


def card_fits(state: DerbyState, horse: int, card: Card) -> bool:
    """Coloured card on its own horse; black on any horse (the horse must be running)."""
    return card.is_black or state.setup.horses[horse].colour == card.colour


def legal_bet_horses(state: DerbyState) -> tuple[int, ...]:
    """Horses the player to act may bet on now (empty when no bet is possible).

    >>> start = initial_state(DerbySetup.default(["Aki", "Ben"]))
    >>> legal_bet_horses(apply(start, Bet(0, 2)))  # one counter per turn
    ()
    """
    if state.ended or state.bet_made or state.fence not in load().betting_fences:
        return ()
    if state.counters_left(state.turn) <= 0:
        return ()
    taken = {c.horse for c in state.counters if c.fence == state.fence}
    return tuple(h for h in state.running if h not in taken)


def legal_cards(state: DerbyState, horse: int) -> tuple[Card, ...]:
    """Cards the player to act may play on ``horse`` now.

    Tracking: every unplayed card that fits (the hand is private). Simulation: from the hand.

    >>> start = initial_state(DerbySetup.default(["Aki", "Ben", "Chie"]))
    >>> len(legal_cards(start, 0))  # ten of the horse's colour, ten black
    20
    """
    if state.ended or not 0 <= horse < len(state.fallen) or state.fallen[horse] is not None:
        return ()
    pool = state.hands[state.turn] if state.setup.mode == "simulation" else full_deck()
    return tuple(
        sorted(
            (c for c in pool if c not in state.played and card_fits(state, horse, c)),
            key=lambda c: (c.is_black, c.value),
        )
    )


def legal_play_horses(state: DerbyState) -> tuple[int, ...]:
    """Running horses that have at least one legal card for the player to act."""
    return tuple(h for h in state.running if legal_cards(state, h))


def can_pass(state: DerbyState) -> bool:
    """Pass only without a playable card.

    Simulation: the hand holds no card that fits a running horse. Tracking [ruling]: the
    program cannot see hands, so a pass is accepted once it is possible at all — a horse has
    fallen (a hand may hold only its colour) or the draw pile is empty (a hand may be empty).
    """
    if state.ended:
        return False
    if state.setup.mode == "simulation":
        hand = state.hands[state.turn]
        return not any(card_fits(state, h, c) for c in hand for h in state.running)
    return any(f is not None for f in state.fallen) or state.pile == 0


def can_declare_no_cards(state: DerbyState) -> bool:
    """Tracking only: the referee may end the race when every speed card has been played."""
    return state.ended is None and state.setup.mode == "tracking"


def no_cards_needs_confirm(state: DerbyState) -> bool:
    """Whether "no cards left" needs the referee's ``confirm`` now: the tracker still counts
    cards in the draw pile (a discard left unrecorded makes it count too many, so the referee
    may overrule it, but not by a slip).

    >>> no_cards_needs_confirm(initial_state(DerbySetup.default(["Aki", "Ben"])))
    True
    """
    return state.rules >= 2 and state.pile > 0


def discard_limit(state: DerbyState, action: PlayCard | Pass) -> int:
    """The most cards of fallen horses the player may say they discarded with ``action``.

    Tracking mode only (a simulation lists the cards). The discard comes after the fence is
    resolved, so a horse that falls to this very card counts. The page offers exactly this
    limit and ``apply`` enforces the same one; raises if ``action`` itself is illegal.
    """
    if state.setup.mode != "tracking":
        return 0
    after = apply(state, replace(action, discard=(), discard_count=0))
    if all(f is None for f in after.fallen):
        return 0
    played = 1 if isinstance(action, PlayCard) else 0
    return min(load().hand_size - played, unknown_fallen_cards(after))


def turn_discard_limit(state: DerbyState) -> int:
    """The most cards of fallen horses the player to act could say they discarded this turn,
    whatever they record (a pass, or any card they may play): the page shows one discard count
    for the turn, up to this, and only when it is above 0. Each action still has its own
    ``discard_limit``, which ``apply`` enforces.

    A discard is possible once a horse has fallen, or this turn when a card may fill the
    column (the fence resolves before the discard step).

    >>> start = initial_state(DerbySetup.default(["Aki", "Ben"]))
    >>> turn_discard_limit(start)  # nothing has fallen and no card fills fence 1
    0
    """
    if state.setup.mode != "tracking" or state.ended:
        return 0
    limits = [discard_limit(state, Pass(state.turn))] if can_pass(state) else []
    column = state.columns[state.fence - 1]
    empty = [h for h in state.running if not column[h]]
    if any(f is not None for f in state.fallen) or len(empty) == 1:
        # a play's limit depends only on whether it fills the column and which horse falls
        limits += [
            discard_limit(state, PlayCard(state.turn, h, c))
            for h in legal_play_horses(state)
            for c in legal_cards(state, h)
        ]
    return max(limits, default=0)


def pile_exact(state: DerbyState) -> bool:
    """Whether ``state.pile`` is the draw pile's true size. A simulation knows it. Tracking
    counts it from what is recorded: exact until a horse falls (no discard is possible before
    that); afterwards a discard left unrecorded makes the true pile smaller than the count,
    never larger, so the count is an upper bound (and 0 is exact).

    >>> pile_exact(initial_state(DerbySetup.default(["Aki", "Ben"])))
    True
    """
    if state.setup.mode == "simulation" or state.pile == 0:
        return True
    return all(f is None for f in state.fallen)


def unknown_fallen_cards(state: DerbyState) -> int:
    """Cards of fallen horses not yet played or discarded: the most a player could discard."""
    fallen_colours = {
        state.setup.horses[h].colour for h, f in enumerate(state.fallen) if f is not None
    }
    played = sum(1 for c in state.played if c.colour in fallen_colours)
    total = len(load().card_values) * len(fallen_colours)
    return max(0, total - played - state.discarded)


def scores(state: DerbyState) -> tuple[int, ...]:
    """Points per seat: counters on horses still running, by the fence they were placed at.

    Before the end these are the scores "if the race ended now".
    """
    payout = load().payout
    totals = [0] * len(state.setup.players)
    for c in state.counters:
        if state.fallen[c.horse] is None:
            totals[c.player] += payout[c.fence]
    return tuple(totals)


def winners(state: DerbyState) -> tuple[int, ...]:
    """Seats with the highest total; equal totals share the win [ruling]."""
    totals = scores(state)
    best = max(totals)
    return tuple(i for i, s in enumerate(totals) if s == best)


def view(state: DerbyState, role: Role) -> DerbyState:
    """What a role may see: in a simulation the referee sees every hand and the deck order, a
    seat only its own hand; tracking mode holds no hidden information."""
    if role.is_referee or state.setup.mode == "tracking":
        return state
    hands = tuple(h if role == Role.seat_of(i) else () for i, h in enumerate(state.hands))
    # the seed would deal the hands again: only the referee sees it (-1 = hidden)
    return replace(state, deck=(), hands=hands, setup=replace(state.setup, seed=HIDDEN_SEED))


def legal_actions(state: DerbyState) -> list[Action]:
    """Every legal action in a simulation (bets and plays are separate steps of a turn)."""
    if state.ended:
        return []
    p = state.turn
    actions: list[Action] = [Bet(p, h) for h in legal_bet_horses(state)]
    for h in legal_play_horses(state):
        actions.extend(PlayCard(p, h, c) for c in legal_cards(state, h))
    if can_pass(state):
        actions.append(Pass(p))
        dead = _dead_cards(state, p)
        if dead and state.deck:  # else a hand of dead cards could pass for ever, drawing none
            actions.append(Pass(p, discard=dead))
    return actions


def _dead_cards(state: DerbyState, player: int) -> tuple[Card, ...]:
    """The cards of fallen horses in a simulation's hand (what a pass may discard)."""
    if state.setup.mode != "simulation":
        return ()
    fallen = {state.setup.horses[h].colour for h, f in enumerate(state.fallen) if f is not None}
    return tuple(c for c in state.hands[player] if c.colour in fallen)


# --- apply -------------------------------------------------------------------------------


def apply(state: DerbyState, action: Action) -> DerbyState:
    """The state after ``action``; raises a subclass of AidsError and changes nothing if illegal."""
    if state.ended:
        raise GameOver("derby/game_over")
    if isinstance(action, Bet):
        return _bet(state, action)
    if isinstance(action, PlayCard):
        return _play(state, action)
    if isinstance(action, Pass):
        return _pass(state, action)
    if isinstance(action, NoCardsLeft):
        return _no_cards_left(state, action)
    raise InvalidAction("derby/malformed_action", field="type")


def _check_player(state: DerbyState, player: int) -> None:
    names = state.setup.players
    if not 0 <= player < len(names):
        raise InvalidAction("derby/unknown_player", player=player + 1)
    if player != state.turn:
        raise NotYourTurn(
            "derby/not_your_turn", player=names[player].name, expected=names[state.turn].name
        )


def _check_horse(state: DerbyState, horse: int) -> str:
    if not 0 <= horse < len(state.setup.horses):
        raise InvalidAction("derby/unknown_horse", horse=horse + 1)
    name = state.setup.horses[horse].name
    if state.fallen[horse] is not None:
        raise RuleViolation("derby/horse_fallen", horse=name, fence=state.fallen[horse])
    return name


def _bet(state: DerbyState, action: Bet) -> DerbyState:
    _check_player(state, action.player)
    horse = _check_horse(state, action.horse)
    if state.bet_made:
        raise RuleViolation("derby/one_bet_per_turn")
    if state.fence not in load().betting_fences:
        raise RuleViolation("derby/no_bet_at_fence_5", fence=state.fence)
    owner = next(
        (c.player for c in state.counters if c.horse == action.horse and c.fence == state.fence),
        None,
    )
    if owner is not None:
        raise RuleViolation(
            "derby/slot_taken",
            horse=horse,
            fence=state.fence,
            owner=state.setup.players[owner].name,
        )
    if state.counters_left(action.player) <= 0:
        raise RuleViolation("derby/no_counters_left", count=state.setup.counters_per_player)
    counter = Counter(action.player, action.horse, state.fence)
    return replace(state, counters=(*state.counters, counter), bet_made=True, moves=state.moves + 1)


def _play(state: DerbyState, action: PlayCard) -> DerbyState:
    _check_player(state, action.player)
    horse = _check_horse(state, action.horse)
    card = action.card
    if not card_fits(state, action.horse, card):
        raise RuleViolation("derby/card_wrong_horse", card=card, horse=horse)
    if card in state.played:
        raise RuleViolation("derby/card_already_played", card=card)
    simulation = state.setup.mode == "simulation"
    hand = list(state.hands[action.player]) if simulation else []
    if simulation:
        if card not in hand:
            raise RuleViolation("derby/card_not_in_hand", card=card)
        hand.remove(card)

    column = list(state.columns[state.fence - 1])
    column[action.horse] = (*column[action.horse], card)
    columns = list(state.columns)
    columns[state.fence - 1] = tuple(column)
    after = replace(state, columns=tuple(columns), played=state.played | {card})
    after = _resolve_if_full(after)
    return _end_turn(after, action.player, hand, action.discard, action.discard_count, played=1)


def _pass(state: DerbyState, action: Pass) -> DerbyState:
    _check_player(state, action.player)
    if not can_pass(state):
        raise RuleViolation("derby/pass_not_allowed")
    hand = list(state.hands[action.player]) if state.setup.mode == "simulation" else []
    return _end_turn(state, action.player, hand, action.discard, action.discard_count, played=0)


def _no_cards_left(state: DerbyState, action: NoCardsLeft) -> DerbyState:
    if state.setup.mode != "tracking":
        raise RuleViolation("derby/no_cards_left_tracking_only")
    if no_cards_needs_confirm(state) and not action.confirm:
        raise RuleViolation("derby/no_cards_left_pile", pile=state.pile)
    return replace(state, ended="no_cards", moves=state.moves + 1)


def _resolve_if_full(state: DerbyState) -> DerbyState:
    """Resolve the current fence the moment every running horse has a card in its column."""
    column = state.columns[state.fence - 1]
    running = state.running
    if any(not column[h] for h in running):
        return state
    # Lowest top card falls; of tied horses the one farthest from the fence (highest row).
    loser = max(running, key=lambda h: (-column[h][-1].value, h))
    fallen = list(state.fallen)
    fallen[loser] = state.fence
    fences = load().fences
    ended: EndReason | None = "fence5" if state.fence == fences else None
    return replace(state, fallen=tuple(fallen), fence=state.fence + 1, ended=ended)


def _end_turn(
    state: DerbyState,
    player: int,
    hand: list[Card],
    discard: tuple[Card, ...],
    discard_count: int,
    *,
    played: int,
) -> DerbyState:
    """Discard (cards of fallen horses only), draw back up to 8, pass the turn clockwise."""
    data = load()
    fallen_colours = {
        state.setup.horses[h].colour for h, f in enumerate(state.fallen) if f is not None
    }
    simulation = state.setup.mode == "simulation"
    deck = state.deck
    hands = state.hands
    if simulation:
        if discard_count:
            raise InvalidAction("derby/malformed_action", field="discard_count")
        if len(set(discard)) != len(discard):
            raise RuleViolation("derby/discard_not_in_hand", card=discard[0])
        for card in discard:
            if card not in hand:
                raise RuleViolation("derby/discard_not_in_hand", card=card)
            if card.colour not in fallen_colours:
                raise RuleViolation("derby/discard_running_horse", card=card)
            hand.remove(card)
        draw = min(len(deck), data.hand_size - len(hand))
        hand.extend(deck[:draw])
        deck = deck[draw:]
        hands = tuple(tuple(hand) if i == player else h for i, h in enumerate(state.hands))
        pile = len(deck)
        discarded = len(discard)
    else:
        if discard:
            raise InvalidAction("derby/malformed_action", field="discard")
        if discard_count < 0:
            raise InvalidAction("derby/malformed_action", field="discard_count")
        if discard_count and not fallen_colours:
            raise RuleViolation("derby/discard_nothing_fallen")
        limit = min(data.hand_size - played, unknown_fallen_cards(state))
        if discard_count > limit:
            raise RuleViolation("derby/discard_too_many", count=discard_count, limit=limit)
        # While the pile lasts every hand is refilled to 8, so a turn draws what left the hand.
        pile = max(0, state.pile - played - discard_count)
        discarded = discard_count
    after = replace(
        state,
        deck=deck,
        hands=hands,
        pile=pile,
        discarded=state.discarded + discarded,
        turn=(player + 1) % len(state.setup.players),
        bet_made=False,
        moves=state.moves + 1,
    )
    if simulation and after.ended is None and after.pile == 0 and _nobody_can_play(after):
        after = replace(after, ended="no_cards")
    return after


def _nobody_can_play(state: DerbyState) -> bool:
    running = state.running
    return not any(card_fits(state, h, c) for hand in state.hands for c in hand for h in running)
