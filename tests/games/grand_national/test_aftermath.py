"""What a step caused, as the live view says it after the action (``Game.aftermath``, issue 27
§1 "what just happened"): random races from the blind bets to the settlement, each step
checked against the engine's own states by the rules (the digest's tables, the action taken),
not by the code under test."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from aids.core.i18n import t
from aids.games.base import CHANCE, REFEREE, VIEWER, Role
from aids.games.grand_national import GAME
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, money, stable_label
from aids.games.grand_national.model import (
    Action,
    BlindBet,
    Boxed,
    GnSetup,
    GnState,
    Going,
    LaneSpin,
    Move,
    PullUp,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"]
LANGS = ("en", "ja")
# "Track conditions": the grid top each going sets (the digest's table)
GRID_TOP = {"firm": 64, "good_to_firm": 62, "good": 60, "good_to_soft": 58, "soft": 56,
            "heavy": 54}  # fmt: skip


def race(seed: int) -> Iterator[tuple[GnState, Action, GnState]]:
    """One random game as (before, action, after) steps, the referee's states (blind bets
    unsealed): the actors to move choose among their legal actions, players bet in the market
    on their own links, and in the race the referee records a horse's turn most of the time and
    a card or a pull-up now and then."""
    rng = random.Random(seed)
    base = GnSetup.default(NAMES[: rng.randint(2, 6)])
    order, too_free = rng.choice(("caps", "position")), rng.choice(("any_time", "round_end"))
    state = GAME.initial_state(replace(base, order=order, too_free=too_free))
    for _ in range(3000):
        if GAME.is_over(state):
            return
        actors = sorted(GAME.to_move(state))
        if state.phase == "market":
            actors += [Role.seat_of(s) for s in range(state.seats)]
        actor = rng.choice(actors)
        options = list(GAME.legal_actions(state, actor))
        if not options:
            continue
        turns = [a for a in options if isinstance(a, Move | Boxed)]
        action = rng.choice(turns if turns and rng.random() < 0.95 else options)
        after = GAME.apply(state, action, REFEREE if actor == CHANCE else actor)
        yield state, action, after
        state = after


def sole_leader(state: GnState) -> int | None:
    """The running horse farthest along, when no other running horse is level with it."""
    field = [h for h in range(state.horses) if state.status[h] == "running"]
    far = max((state.distance[h] for h in field), default=None)
    front = [h for h in field if state.distance[h] == far]
    return front[0] if len(front) == 1 else None


def expected(before: GnState, action: Action, after: GnState, lang: str) -> list[tuple[str, str]]:
    """The clauses the rules say this step caused, each with its message key."""
    out: list[tuple[str, str]] = []

    def say(key: str, **params: object) -> None:
        out.append((key, t(f"gn.after.{key}", lang, **params)))

    def horse(h: int) -> str:
        return horse_label(after, h)

    sep = "、" if lang == "ja" else ", "
    # Blind bets: the going is spun once every stable has written one (or none)
    if isinstance(action, BlindBet) and all(b is not None for b in after.blind):
        say("blind_in")
    # Track conditions: the going sets the top of every grid
    if isinstance(action, Going):
        say("grid", top=GRID_TOP[action.going])
    # Lanes: the stable spun takes the inside, the rest clockwise round the spinner's ring
    if isinstance(action, LaneSpin):
        ring = list(after.setup.spinner) or [c.key for c in load().colours]
        seats = sorted(range(after.seats), key=lambda s: ring.index(after.setup.stables[s].colour))
        first = next(
            i for i, s in enumerate(seats) if after.setup.stables[s].colour == action.colour
        )
        inside_out = seats[first:] + seats[:first]
        say("lane", lane=action.lane, stables=sep.join(stable_label(after, s) for s in inside_out))
    # Finish: a horse past the finish takes the next place, until four have placed
    for place, h in enumerate(after.placed, start=1):
        if h not in before.placed:
            assert after.distance[h] >= after.setup.track.finish
            say("finished", horse=horse(h), place=place)
    # Pulled up: out of speed points or lapped (the owner's own choice is the action's line)
    lead = max(after.distance[h] for h in range(after.horses)
               if before.status[h] == "running" or h in after.placed)  # fmt: skip
    for h in range(after.horses):
        if before.status[h] != "running" or after.status[h] != "pulled_up":
            continue
        if isinstance(action, PullUp) and action.horse == h:
            continue
        if after.used[h] >= GRID_TOP.get(after.going or "", 64):
            say("pulled_up_speed", horse=horse(h))
        else:
            assert lead - after.distance[h] >= after.setup.track.lap
            say("pulled_up_lapped", horse=horse(h))
    # Running too free: −2 from the handicap, never below 0, once per horse
    for h in sorted(after.too_free_done - before.too_free_done):
        assert after.handicap[h] == max(0, before.handicap[h] - 2)
        say("too_free", horse=horse(h), mark=after.handicap[h])
    # A "lose a turn" card: the horse's turn, when it comes, is lost
    for h in sorted(before.lose_turn - after.lose_turn):
        assert h in after.moved or after.round > before.round
        say("lost_turn", horse=horse(h))
    # The leader, while nobody has finished yet: alone in front, and another than before
    if before.phase == after.phase == "race" and not after.placed:
        leader = sole_leader(after)
        if leader is not None and leader != sole_leader(before):
            say("lead", horse=horse(leader))
    # Finish and payouts: the race ends when four have placed (or none runs); then the money
    if after.phase == "over":
        say("over")
        outcome = GAME.outcome(after)
        assert outcome is not None and outcome.scores is not None
        richest = " · ".join(stable_label(after, s) for s in outcome.winners)
        say("settled", winner=richest, cash=money(max(outcome.scores)))
    return out


def said(before: GnState, after: GnState, lang: str) -> tuple[str, ...]:
    """The clauses as the live view gets them: both states through the viewer's view."""
    return GAME.aftermath(GAME.view(before, VIEWER), GAME.view(after, VIEWER), lang)


@pytest.mark.parametrize("seed", range(30))
def test_each_clause_is_said_exactly_when_its_change_happened(seed: int) -> None:
    """Rules "Blind bets", "Track conditions", "Lanes and turn order", "Finish and payouts",
    "Pulled up", "Running too free" and the lose-a-turn card ruling: after every step of a
    random game the viewer hears exactly the clauses those rules say the step caused — never
    a fall, a withdrawal or an owner's pull-up again (the action's own line says them)."""
    for before, action, after in race(seed):
        for lang in LANGS:
            due = [text for _, text in expected(before, action, after, lang)]
            assert sorted(said(before, after, lang)) == sorted(due), (seed, action)


def test_the_random_races_hold_every_kind_of_news() -> None:
    """The check above is not empty: the games hold every kind of clause, many times."""
    seen = Counter(
        key
        for seed in range(30)
        for before, action, after in race(seed)
        for key, _ in expected(before, action, after, "en")
    )
    kinds = ("blind_in", "grid", "lane", "finished", "pulled_up_speed", "too_free", "lead",
             "over", "settled")  # fmt: skip
    assert all(seen[kind] >= 3 for kind in kinds), seen


def test_a_lapped_horse_and_a_lost_turn_are_said() -> None:
    """Pulled up when lapped, and a lost turn taken: rarer in random play, so built here."""
    state = next(after for _, _, after in race(0) if after.phase == "race")
    h = state.horses - 1
    before = replace(state, distance=(state.setup.track.lap + 5, *state.distance[1:]))
    after = replace(before, status=(*before.status[:-1], "pulled_up"))
    assert said(before, after, "en") == (f"{horse_label(after, h)} is pulled up: lapped",)
    assert said(before, after, "ja") == (f"{horse_label(after, h)} が周回遅れで競走中止",)
    waiting = replace(before, lose_turn=frozenset({h}))
    assert said(waiting, before, "en") == (f"{horse_label(after, h)} loses its turn",)


def test_nothing_sealed_is_said_of_a_blind_bet() -> None:
    """A blind bet is the writer's own until settlement: its step says nothing, and the last
    one only that all are in — the same words whatever was bet."""
    setup = GnSetup.default(["Aki", "Ben"])
    start = GAME.initial_state(setup)
    first = GAME.apply(start, BlindBet(0, 3, "win", 5000), Role.seat_of(0))
    assert said(start, first, "en") == ()
    words = set()
    for bet in (BlindBet(1, 2, "show", 10000), BlindBet(1, None, None, 0)):
        last = GAME.apply(first, bet, Role.seat_of(1))
        words.add(said(first, last, "en"))
    assert words == {("every blind bet is in, sealed until settlement",)}
