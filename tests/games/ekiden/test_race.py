"""A hand-worked 3-team Ekiden over three legs (shared/rules/ekiden.md), checked exactly.

Teams Aki (0), Ben (1), Chie (2); Aki starts, so Chie (Aki's right neighbour) sits nearest
the line and leads, Ben is second, Aki last — and Aki plays first. Course: leg 1 uphill 2,
leg 2 downhill 1, leg 3 flat.

Leg 1, card o-xo- (three teams read rows 1, 3, 5: o, x, -):
  Aki 4 +2 uphill = 6; Ben 6 commander = 6; Chie 3 front-runner (she leads) +1 = 4.
  Aki and Ben tie at 6: Aki played first (lower in the stack) → rank 1; Ben rank 3; Chie 5.
  Aki o +3 → column 3; Ben x −2 → column −2; Chie — → column 0. Standing Aki, Chie, Ben.
Leg 2, card x-o-o (rows 1, 3, 5: x, o, o); Ben plays first, then Chie, then Aki:
  Ben 2 +1 downhill +2 commander = 5; Chie 4 = 4; Aki 3 +1 front-runner = 4.
  Ben rank 1 → x −1 → column −3; Chie and Aki tie at 4: Chie played first → rank 3, o +2 →
  column 2; Aki rank 5, o +1 → column 4. Standing Aki, Chie, Ben.
Leg 3, card ooooo, flat: Ben 6 uphill (flat: 0) +9 → 6; Chie 5 +4 → 6; Aki 2 +2 → 6.
  All three end in column 6; processed Ben, Chie, Aki, so that is the new standing.
"""

from __future__ import annotations

from aids.games.ekiden import engine
from aids.games.ekiden.model import Place, Terrain
from tests.games.ekiden.helpers import reveal, run, runner, setup

COURSE = [Terrain("up", 2), Terrain("down", 1), Terrain("flat")]
AKI, BEN, CHIE = 0, 1, 2


def test_start_order_and_the_start_player_plays_first() -> None:
    state = engine.initial_state(setup(3, start=AKI, course=COURSE))
    assert engine.standings(state) == (CHIE, BEN, AKI)
    state = reveal(state, "o-xo-")
    assert engine.next_runner(state) == AKI


def test_three_legs_by_hand() -> None:
    state = engine.initial_state(setup(3, start=AKI, course=COURSE))

    state = reveal(state, "o-xo-")
    state = run(state, AKI, runner(4, up=3, down=1, skill="uphill"))
    state = run(state, BEN, runner(6, up=2, down=2, skill="commander"))
    state = run(state, CHIE, runner(3, up=1, down=1, skill="front_runner"))
    leg1 = {e.team: e for e in state.history[0]}
    assert [e.team for e in state.history[0]] == [AKI, BEN, CHIE]  # leg-rank order
    assert (leg1[AKI].skill_bonus, leg1[AKI].declared, leg1[AKI].rank) == (2, 6, 1)
    assert (leg1[BEN].declared, leg1[BEN].rank, leg1[BEN].mark, leg1[BEN].move) == (6, 3, "x", -2)
    assert (leg1[CHIE].skill_bonus, leg1[CHIE].declared, leg1[CHIE].rank) == (1, 4, 5)
    assert state.places == (Place(3, 0), Place(-2, 0), Place(0, 0))
    assert engine.standings(state) == (AKI, CHIE, BEN)
    assert state.commander == (0, 2, 0)

    state = reveal(state, "x-o-o")
    assert engine.next_runner(state) == BEN
    state = run(state, BEN, runner(2, up=4, down=1, skill="downhill"))
    state = run(state, CHIE, runner(4, up=2, down=3))
    state = run(state, AKI, runner(3, up=1, down=2, skill="front_runner"))
    leg2 = {e.team: e for e in state.history[1]}
    assert (leg2[BEN].skill_bonus, leg2[BEN].commander_bonus, leg2[BEN].declared) == (1, 2, 5)
    assert (leg2[BEN].rank, leg2[BEN].move) == (1, -1)
    assert (leg2[CHIE].rank, leg2[CHIE].move, leg2[AKI].rank, leg2[AKI].move) == (3, 2, 5, 1)
    assert state.places == (Place(4, 0), Place(-3, 0), Place(2, 0))
    assert state.commander == (0, 0, 0)  # the Commander's +2 is used once

    state = reveal(state, "ooooo")
    state = run(state, BEN, runner(6, up=9, down=0, skill="uphill"))
    state = run(state, CHIE, runner(5, up=4, down=0, skill="commander"))
    state = run(state, AKI, runner(2, up=2, down=0))
    assert [p.column for p in state.places] == [6, 6, 6]
    assert engine.standings(state) == (BEN, CHIE, AKI)  # same column: processing order
    assert [state.places[t].slot for t in (BEN, CHIE, AKI)] == [0, 1, 2]
    assert state.commander == (0, 0, 2)
    assert engine.standing_after_each_leg(state) == ((1, 3, 2), (1, 3, 2), (3, 1, 2))
    assert engine.columns_gained(state, (1, 2, 3)) == (6, 6, 6)
    assert state.leg == 4 and state.phase == "situation"
