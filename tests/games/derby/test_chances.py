"""The Derby's live chances: the fast playout path against the engine, move for move; the
hidden cards sampled from what the table has seen; Monte Carlo against exact enumeration;
a decided race at 100 %."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from aids.games.base import VIEWER
from aids.games.chances import PlayoutTooLong, estimate
from aids.games.derby import engine
from aids.games.derby.chances import DerbyChances, hand_sizes, unseen
from aids.games.derby.fast import (
    BET,
    PASS,
    PLAY,
    FastRace,
    _decode,
    _encode,
    code,
    to_engine_action,
)
from aids.games.derby.model import Bet, Counter, DerbySetup, DerbyState, PlayCard
from aids.games.derby.simulate import play_out, random_action, with_fallen_discards


class PlainDerby(DerbyChances):
    """The chances with their playouts on ``FastRace`` (not the compiled loop)."""

    compiled = False


def sim(players: int, seed: int) -> DerbyState:
    names = ["A", "B", "C", "D", "E"][:players]
    return engine.initial_state(DerbySetup.default(names, mode="simulation", seed=seed))


def fast(state: DerbyState) -> FastRace:
    """The referee's full state (hands and pile known) as a fast race."""
    hands = [[code(state, c) for c in h] for h in state.hands]
    return FastRace.of(state, hands, [code(state, c) for c in state.deck])


def key(race: FastRace) -> tuple[object, ...]:
    return (
        race.fallen, race.running, race.fence, race.tops, race.covered,
        sorted(race.counters), race.left, race.taken, race.turn, race.bet_made,
        race.hands, race.deck, race.ended,
    )  # fmt: skip


def engine_step(state: DerbyState, action: tuple[int, ...]) -> DerbyState:
    """The same action through the engine, discarding every dead card (the model's rule)."""
    return engine.apply(state, with_fallen_discards(state, to_engine_action(state, action)))


def test_the_fast_path_agrees_with_the_engine_move_for_move_on_10000_positions() -> None:
    """Rule (all of derby.md): at every position of random races the fast path lists exactly
    the engine's legal actions, and after any one of them holds exactly the engine's state
    (hands compared by their live cards: a fallen horse's cards leave a hand at once)."""
    rng = random.Random(2026)
    positions = 0
    while positions < 10_000:
        state = sim(rng.randint(2, 5), rng.randrange(2**32))
        while state.ended is None:
            race = fast(state)
            ours = sorted(_encode(a) for a in race.actions())
            theirs = sorted(_encode(_fast_of(state, a)) for a in engine.legal_actions(state))
            assert ours == theirs, positions
            action = race.actions()[rng.randrange(len(ours))]
            state = engine_step(state, action)
            race.step(action)
            assert key(race) == key(fast(state)), positions
            positions += 1


def _fast_of(state: DerbyState, action: object) -> tuple[int, ...]:
    if isinstance(action, Bet):
        return (BET, action.horse)
    if isinstance(action, PlayCard):
        return (PLAY, action.horse, code(state, action.card))
    return (PASS,)


def test_a_playout_is_a_whole_legal_engine_race_with_the_same_result() -> None:
    """A playout's every choice is one of the engine's legal actions, chosen among as many
    options as the engine lists; replayed through the engine it ends the same way."""
    rng = random.Random(7)
    for _ in range(200):
        start = sim(rng.randint(2, 5), rng.randrange(2**32))
        race = fast(start)
        chosen: list[tuple[list[int], int]] = []

        def pick(options: list[int], chosen: list[tuple[list[int], int]] = chosen) -> int:
            index = rng.randrange(len(options))
            chosen.append((list(options), index))
            return index

        race.run(pick)
        state = start
        for options, index in chosen:
            assert len(options) == len(engine.legal_actions(state))
            state = engine_step(state, _decode(options[index]))
        assert state.ended is not None and race.ended
        assert race.result() == fast(state).result()


def test_hand_sizes_follow_from_the_public_log() -> None:
    """Every hand draws back to 8 while the pile lasts; a viewer's history (no hands in it)
    gives each hand's size exactly as the dealt hands have it."""
    rng = random.Random(3)
    for _ in range(30):
        state = sim(rng.randint(2, 5), rng.randrange(2**32))
        history = [state]
        while state.ended is None:
            state = engine.apply(state, random_action(state, rng))
            history.append(state)
            viewed = [engine.view(s, VIEWER) for s in history]
            assert hand_sizes(viewed) == [len(h) for h in state.hands]


def test_a_sampled_deal_keeps_what_the_table_has_seen() -> None:
    """The hidden cards are drawn from the cards not yet seen played: the hands have their
    public sizes, the pile its public count, and only fallen horses' cards are discarded."""
    rng = random.Random(5)
    state, history = _race_to(lambda s: s.fence == 3, rng)
    viewed = [engine.view(s, VIEWER) for s in history]
    model = DerbyChances(viewed)
    played = {code(state, c) for c in state.played}
    for _ in range(50):
        hands, deck = model.sample(viewed[-1], rng)
        assert [len(h) for h in hands] == [len(h) for h in state.hands]
        assert len(deck) == state.pile
        seen = [c for h in hands for c in h] + deck
        assert len(set(seen)) == len(seen) and not set(seen) & played
        assert 90 - len(played) - len(seen) == state.discarded


def _race_to(
    stop: Callable[[DerbyState], bool], rng: random.Random, players: int = 4
) -> tuple[DerbyState, list[DerbyState]]:
    while True:
        state = sim(players, rng.randrange(2**32))
        history = [state]
        while state.ended is None and not stop(state):
            state = engine.apply(state, random_action(state, rng))
            history.append(state)
        if state.ended is None:
            return state, history


def _drained(rng: random.Random, cards_left: int) -> tuple[DerbyState, list[DerbyState]]:
    """A 2-player race played slowly (cards stacked on covered horses first) until the pile
    is out and the hands hold at most ``cards_left`` cards: small enough to enumerate."""
    while True:
        state = sim(2, rng.randrange(2**32))
        history = [state]
        while state.ended is None:
            if state.pile == 0 and sum(len(h) for h in state.hands) <= cards_left:
                return state, history
            actions = engine.legal_actions(state)
            column = state.columns[state.fence - 1]
            slow = [a for a in actions if isinstance(a, PlayCard) and column[a.horse]]
            choice = rng.choice(slow or actions)
            state = engine.apply(state, with_fallen_discards(state, choice))
            history.append(state)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_monte_carlo_agrees_with_exact_enumeration_on_small_positions(seed: int) -> None:
    """Chances (issue 11): on positions small enough to enumerate every deal and every
    sequence of choices, 20,000 playouts give each figure within its stated error (taken at
    99.9 %, 1.68 × the 95 % half-width, as there are many figures)."""
    rng = random.Random(seed)
    _, history = _drained(rng, cards_left=5)
    viewed = [engine.view(s, VIEWER) for s in history]
    model = DerbyChances(viewed)
    exact = model.exact(viewed[-1])
    assert exact is not None
    mc = estimate(model, viewed[-1], playouts=20_000, seed=seed, exact=False)
    assert not mc.exact and mc.playouts == 20_000
    for measure, want, got, error in zip(mc.measures, exact, mc.values, mc.errors, strict=True):
        assert abs(got - want) <= 1.68 * error + 1e-9, (measure, want, got, error)
    assert sum(exact[8 : 8 + 2]) == pytest.approx(1.0)  # the players' win shares add up to 1


def test_a_race_already_decided_gives_100_percent_from_the_playouts_too() -> None:
    """At fence 5 with no bets left, a player whose counters ride every running horse wins
    whatever happens: the playouts say 100 %, with no error."""
    rng = random.Random(11)
    state, history = _race_to(lambda s: s.fence == 5, rng, players=2)
    mine = tuple(Counter(0, h, 1) for h in state.running)  # on every running horse
    state = replace(state, counters=mine)
    viewed = [engine.view(s, VIEWER) for s in [*history[:-1], state]]
    result = estimate(DerbyChances(viewed), viewed[-1], playouts=2_000, exact=False)
    assert result.value("player", 0) == 1.0 and result.value("player", 1) == 0.0
    assert result.error("player", 0) == 0.0
    finished = sum(result.value("horse", h) for h in range(8))
    assert finished == pytest.approx(3.0)  # three of the four running horses finish


def test_a_finished_race_is_decided_exactly() -> None:
    """Once the race is over nothing is left to chance: the finishers at 100 %, the fallen
    at 0, the win shared by the best totals (a ruling), and no playouts."""
    final, _ = play_out(sim(3, 99), random.Random(13))
    viewed = engine.view(final, VIEWER)
    result = estimate(DerbyChances([viewed]), viewed)
    assert result.exact and result.playouts == 0
    running = set(final.running)
    assert [result.value("horse", h) for h in range(8)] == [
        1.0 if h in running else 0.0 for h in range(8)
    ]
    best = max(engine.scores(final))
    shares = [result.value("player", p) for p in range(3)]
    assert sum(shares) == pytest.approx(1.0)
    assert all((s > 0) == (engine.scores(final)[p] == best) for p, s in enumerate(shares))


def _tracked_keeping_dead_cards(seed: int) -> list[DerbyState]:
    """A tracked race whose players keep the cards of fallen horses in hand (the log hears
    of no discard): the twin of a random simulation."""
    from tests.games.derby.test_chances_plain import race

    _, twins = race(random.Random(seed), 4, keep=1.0)
    return twins


@pytest.mark.timeout(60)
def test_a_dead_card_dealt_to_a_hand_leaves_it_as_the_fast_race_has_it() -> None:
    """Chances model: a fallen horse's card in a hand is discarded at its holder's turn and a
    live one drawn, so the playouts' hands hold only live cards — exactly ``FastRace.of``
    with the same deal (a hand kept its dead cards: it drew fewer, bet more often, and its
    player's expected points came out high)."""
    twins = _tracked_keeping_dead_cards(1)
    at = next(i for i, s in enumerate(twins) if s.fence == 3)
    viewed = [engine.view(s, VIEWER) for s in twins[: at + 1]]
    model = PlainDerby(viewed)
    state = viewed[-1]
    dead = [c for c in unseen(state) if c < 80 and state.fallen[c // 10] is not None]
    assert len(dead) > state.discarded  # dead cards are dealt into hands
    got = model.playouts(state, 200, random.Random(4))
    rng = random.Random(4)
    want = []
    for _ in range(200):
        hands, deck = model.sample(state, rng)
        want.append(FastRace.of(state, hands, deck).play_out(rng))
    assert got == want
    # the compiled loop deals its own hands the same way: its figures agree within error
    compiled = estimate(DerbyChances(viewed), state, playouts=4_000, seed=1, exact=False)
    plain = estimate(model, state, playouts=4_000, seed=2, exact=False)
    for m, a, b, ea, eb in zip(
        compiled.measures, compiled.values, plain.values, compiled.errors, plain.errors,
        strict=True,
    ):  # fmt: skip
        assert abs(a - b) <= 3.3 / 1.96 * (ea * ea + eb * eb) ** 0.5 + 1e-9, (m, a, b)


@pytest.mark.timeout(60)
def test_a_playout_ends_once_the_pile_is_out_and_no_hand_can_play() -> None:
    """End of the race (derby.md, ruling): with the pile out, the race ends when no player
    can play a card — also when a hand still holds fallen horses' cards (it looped forever,
    and stopped the chances of every table on the server). Every horse still running then
    finishes."""
    twins = _tracked_keeping_dead_cards(1)
    late = [i for i, s in enumerate(twins) if s.pile == 0 and s.ended is None]
    assert late
    for at in late:
        viewed = [engine.view(s, VIEWER) for s in twins[: at + 1]]
        result = estimate(DerbyChances(viewed), viewed[-1], playouts=300, exact=False)
        assert result.playouts == 300
        finishing = sum(result.value("horse", h) for h in range(8))
        assert finishing >= 3.0 - 1e-9
        shares = sum(result.value("player", p) for p in range(4))
        assert shares == pytest.approx(1.0)


def test_a_playout_past_its_step_cap_raises_instead_of_looping() -> None:
    """Chances (issue 18): a playout is capped in actions; one that runs past the cap (a bug:
    a position that never ends) raises ``PlayoutTooLong`` for the worker to log, and an
    estimate never loops for ever."""
    race = fast(sim(3, 5))
    with pytest.raises(PlayoutTooLong) as err:
        race.play_out(random.Random(1), max_steps=10)
    assert err.value.kind == "derby" and err.value.steps == 10
    model = DerbyChances([sim(3, 5)])
    model.max_steps = 10
    with pytest.raises(PlayoutTooLong):
        estimate(model, sim(3, 5), playouts=5, exact=False)
