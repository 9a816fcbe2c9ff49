"""The Ekiden rules as pure functions: ``apply(state, action) -> new state`` or raise.

Rule references point at ``shared/rules/ekiden.md``. Every check runs before a new state is
built, so a refused action changes nothing. A leg resolves by itself when its last runner is
played: leg ranks, movement from rank 1 down, the crossing of the centre line.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.core.inputs import identity
from aids.games.ekiden.data import load
from aids.games.ekiden.model import (
    SKILLS,
    Action,
    EkidenSetup,
    EkidenState,
    Entry,
    Place,
    Roster,
    Run,
    Runner,
    Situation,
)

# --- setup and standings -------------------------------------------------------------------


def initial_state(setup: EkidenSetup) -> EkidenState:
    """All pieces in the start column, left of the line: the start player's right neighbour
    nearest the line, then the others counter-clockwise, the start player farthest."""
    n = len(setup.teams)
    order = [(setup.start - 1 - i) % n for i in range(n)]  # nearest first
    slots = {team: slot for slot, team in enumerate(order)}
    return EkidenState(
        setup=setup,
        leg=1,
        phase="situation",
        places=tuple(Place(0, slots[t]) for t in range(n)),
        rosters=tuple(None for _ in range(n)),
        used=tuple(frozenset() for _ in range(n)),
        marks=None,
        entries=(),
        commander=tuple(0 for _ in range(n)),
        history=(),
    )


def standings(state: EkidenState) -> tuple[int, ...]:
    """Teams from first to last: the farthest column leads; in a column, nearer the line.

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> standings(initial_state(EkidenSetup.default(["A", "B", "C"], start=0)))
    (2, 1, 0)
    """
    return tuple(sorted(range(state.teams), key=lambda t: (-state.places[t].column,
                                                           state.places[t].slot)))  # fmt: skip


def standing_of(state: EkidenState, team: int) -> int:
    """1 for the leader."""
    return standings(state).index(team) + 1


def side_after(leg: int) -> str:
    """``L`` or ``R``: the side of the centre line every piece is on after ``leg`` (0 = start)."""
    return "R" if leg % 2 else "L"


def next_runner(state: EkidenState) -> int | None:
    """The team to play a runner now: the lowest standing that has not played this leg."""
    if state.phase != "runners":
        return None
    played = {e.team for e in state.entries}
    return next(t for t in reversed(standings(state)) if t not in played)


def is_over(state: EkidenState) -> bool:
    return state.phase == "over"


def roster_open(state: EkidenState) -> bool:
    """Rosters may be entered until the first runner of the race is played (scout stage)."""
    return state.leg == 1 and not state.entries and not state.history


# --- declared power ----------------------------------------------------------------------


def skill_bonus(state: EkidenState, team: int, runner: Runner) -> int:
    """The runner's skill modifier on the current leg for ``team`` (before the Commander).

    [ruling] Uphill/downhill take the leg's terrain number; a flat leg gives 0.
    """
    d = load()
    leg = state.leg
    terrain = state.setup.course[leg - 1]
    skill = runner.skill
    if skill == "uphill":
        return {"up": terrain.n, "down": -terrain.n, "flat": 0}[terrain.slope]
    if skill == "downhill":
        return {"down": terrain.n, "up": -terrain.n, "flat": 0}[terrain.slope]
    if skill == "outbound":
        return d.outbound_bonus if leg in d.outbound else -d.outbound_bonus
    if skill == "return":
        return d.return_bonus if leg in d.return_legs else -d.return_bonus
    if skill == "anchor":
        return d.anchor_bonus if leg == d.anchor_leg else 0
    if skill == "front_runner":
        return d.front_runner_bonus if standing_of(state, team) == 1 else 0
    return 0  # commander (its +2 goes to the next leg), or no skill


def declared_power(state: EkidenState, team: int, runner: Runner) -> tuple[int, int, int]:
    """(skill bonus, Commander bonus, declared power) — never clamped [ruling]."""
    bonus = skill_bonus(state, team, runner)
    carried = state.commander[team]
    return bonus, carried, runner.power + bonus + carried


NO_SKILL = "none"  # the entry's choice for a card printed without a skill [ruling]


@dataclass(frozen=True, slots=True)
class RunnerChoices:
    """What a runner card may show, for typing one in: each value a row of buttons. ``preset``
    is what the rows show chosen before the first tap (the referee taps what differs)."""

    power: tuple[int, ...]
    up: tuple[int, ...]
    down: tuple[int, ...]
    skills: tuple[str, ...]  # NO_SKILL, then the seven skills
    preset: Runner


def runner_choices() -> RunnerChoices:
    """The legal values of a typed runner card: power 2–6, up and down 0–9 (the rulebook gives
    no card values, so 0 is a value like any other: an up of 0 never moves a piece forward).

    >>> c = runner_choices()
    >>> c.power, c.up[:3], c.down[-1], c.skills[0], c.preset
    ((2, 3, 4, 5, 6), (0, 1, 2), 9, 'none', Runner(power=4, up=1, down=1, skill=None, name=''))
    """
    d = load()
    return RunnerChoices(
        power=tuple(range(d.power[0], d.power[1] + 1)),
        up=tuple(range(d.up[0], d.up[1] + 1)),
        down=tuple(range(d.down[0], d.down[1] + 1)),
        skills=(NO_SKILL, *SKILLS),
        preset=Runner(4, 1, 1),
    )


def typed_runner(
    power: int | None, up: int | None, down: int | None, skill: str | None, name: str = ""
) -> Runner:
    """The runner card as chosen at the table (``skill``: ``NO_SKILL`` for a card without
    one). A value left unchosen is refused by name, never replaced by a default; a value off
    the card's range is refused as the card rules say.

    >>> typed_runner(5, 0, 2, NO_SKILL)
    Runner(power=5, up=0, down=2, skill=None, name='')
    >>> try:
    ...     typed_runner(5, None, 2, "uphill")
    ... except InvalidAction as refused:
    ...     refused.code
    'ekiden/unset_up'

    Raises: ``ekiden/unset_power``, ``ekiden/unset_up``, ``ekiden/unset_down``,
    ``ekiden/unset_skill``, and the card rules' ``ekiden/runner_power``,
    ``ekiden/runner_steps``, ``ekiden/runner_skill``.
    """
    values = {"power": power, "up": up, "down": down, "skill": skill}
    for field, value in values.items():
        if value is None:
            raise InvalidAction(f"ekiden/unset_{field}")
    raw: dict[str, object] = {"power": power, "up": up, "down": down}
    if skill != NO_SKILL:
        raw["skill"] = skill
    if name.strip():
        raw["name"] = name.strip()
    return Runner.from_dict(raw)


def skill_bonuses(state: EkidenState, team: int) -> dict[str, int]:
    """Each skill's modifier for ``team``'s runner on the current leg (``NO_SKILL``: 0), before
    the Commander's carried bonus: what a skill adds to the card's power here.

    >>> from aids.games.ekiden.model import EkidenSetup, Terrain
    >>> setup = EkidenSetup.default(["A", "B", "C"])
    >>> setup = EkidenSetup(setup.teams, 0, (Terrain("up", 3),) * 10)
    >>> bonuses = skill_bonuses(initial_state(setup), 0)
    >>> bonuses["uphill"], bonuses["downhill"], bonuses["outbound"], bonuses[NO_SKILL]
    (3, -3, 1, 0)
    """
    return {
        NO_SKILL: 0,
        **{s: skill_bonus(state, team, Runner(load().power[0], 0, 0, s)) for s in SKILLS},
    }


def commander_gift(state: EkidenState) -> int:
    """What a Commander played now gives the team's next runner: +2, or 0 in leg 10.

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> commander_gift(initial_state(EkidenSetup.default(["A", "B", "C"])))
    2
    """
    return load().commander_next_leg if state.leg < load().legs else 0


def rank_labels(teams: int) -> tuple[int, ...]:
    """The leg ranks given out: 1,3,5 with three teams; 1,2,4,5 with four; 1–5 with five."""
    return load().rank_labels[teams]


def legal_picks(state: EkidenState, team: int) -> tuple[int, ...]:
    """Roster runners ``team`` may still play (empty without a roster)."""
    roster = state.rosters[team]
    if roster is None:
        return ()
    return tuple(i for i in range(len(roster)) if i not in state.used[team])


def leg_run_by(state: EkidenState, team: int, name: str) -> int | None:
    """The leg in which a runner named ``name`` already ran for ``team`` (names compared as
    names are: width and case aside), or None. A runner runs once; a roster refuses a pick
    used before, but a typed card is the referee's word, so the page warns when its name
    was run already (a card typed without a name is never matched).

    >>> from aids.games.ekiden.model import EkidenSetup
    >>> state = initial_state(EkidenSetup.default(["A", "B", "C"], start=0))
    >>> state = apply(state, Situation(1, ("o", "-", "x", "-", "o")))
    >>> state = apply(state, Run(0, 1, runner=Runner(4, 1, 1, name="Ｓato")))
    >>> leg_run_by(state, 0, "sato"), leg_run_by(state, 1, "Sato"), leg_run_by(state, 0, "")
    (1, None, None)
    """
    wanted = identity(name)
    if not wanted:
        return None
    legs = (*state.history, state.entries)
    return next(
        (leg for leg, entries in enumerate(legs, start=1)
         for e in entries if e.team == team and identity(e.runner.name) == wanted),
        None,
    )  # fmt: skip


# --- apply -------------------------------------------------------------------------------


def apply(state: EkidenState, action: Action) -> EkidenState:
    """The state after ``action``; raises a subclass of AidsError and changes nothing."""
    if state.phase == "over":
        raise GameOver("ekiden/game_over")
    if isinstance(action, Roster):
        return _roster(state, action)
    if isinstance(action, Situation):
        return _situation(state, action)
    if isinstance(action, Run):
        return _run(state, action)
    raise InvalidAction("ekiden/malformed", field="type")


def _check_team(state: EkidenState, team: int) -> None:
    if not 0 <= team < state.teams:
        raise InvalidAction("ekiden/unknown_team", team=team + 1)


def _roster(state: EkidenState, action: Roster) -> EkidenState:
    _check_team(state, action.team)
    if not roster_open(state):
        raise RuleViolation("ekiden/roster_closed")
    if len(action.runners) != load().runners:
        raise RuleViolation("ekiden/roster_size", count=load().runners)
    rosters = list(state.rosters)
    rosters[action.team] = action.runners
    return replace(state, rosters=tuple(rosters))


def _situation(state: EkidenState, action: Situation) -> EkidenState:
    if state.phase != "situation":
        raise NotYourTurn("ekiden/situation_not_now")
    if action.leg != state.leg:
        raise RuleViolation("ekiden/wrong_leg", leg=action.leg, expected=state.leg)
    return replace(state, marks=action.marks, phase="runners")


def _run(state: EkidenState, action: Run) -> EkidenState:
    _check_team(state, action.team)
    if action.leg != state.leg:
        raise RuleViolation("ekiden/wrong_leg", leg=action.leg, expected=state.leg)
    if state.phase != "runners":
        raise NotYourTurn("ekiden/situation_first", leg=state.leg)
    expected = next_runner(state)
    if action.team != expected:
        names = state.setup.teams
        raise NotYourTurn(
            "ekiden/not_your_turn", team=names[action.team].name, expected=names[expected or 0].name
        )
    runner, used = _runner_for(state, action)
    bonus, carried, declared = declared_power(state, action.team, runner)
    entry = Entry(action.team, runner, action.pick, len(state.entries), bonus, carried, declared)
    commander = list(state.commander)
    commander[action.team] = 0
    used_all = list(state.used)
    used_all[action.team] = used
    after = replace(
        state,
        entries=(*state.entries, entry),
        commander=tuple(commander),
        used=tuple(used_all),
    )
    return _resolve(after) if len(after.entries) == after.teams else after


def _runner_for(state: EkidenState, action: Run) -> tuple[Runner, frozenset[int]]:
    roster = state.rosters[action.team]
    used = state.used[action.team]
    if action.pick is None:
        if roster is not None:
            raise RuleViolation("ekiden/pick_from_roster")
        assert action.runner is not None  # the parser guarantees one of the two
        return action.runner, used
    if roster is None:
        raise RuleViolation("ekiden/no_roster")
    if not 0 <= action.pick < len(roster):
        raise InvalidAction("ekiden/unknown_runner", pick=action.pick + 1)
    if action.pick in used:
        raise RuleViolation("ekiden/runner_used", pick=action.pick + 1)
    return roster[action.pick], used | {action.pick}


def _resolve(state: EkidenState) -> EkidenState:
    """Leg ranks, then movement from rank 1 down; every piece crosses the centre line."""
    assert state.marks is not None
    labels = rank_labels(state.teams)
    ranked = sorted(state.entries, key=lambda e: (-e.declared, e.order))  # ties: played first
    places = list(state.places)
    arrived: dict[int, int] = {}  # column → pieces already placed on the new side
    results: list[Entry] = []
    commander = list(state.commander)
    for position, entry in enumerate(ranked):
        label = labels[position]
        mark = state.marks[label - 1]
        move = {"o": entry.runner.up, "-": 0, "x": -entry.runner.down}[mark]
        column = places[entry.team].column + move
        place = Place(column, arrived.get(column, 0))
        arrived[column] = place.slot + 1
        places[entry.team] = place
        results.append(replace(entry, rank=label, mark=mark, move=move, place=place))
        if entry.runner.skill == "commander" and commander_gift(state):
            commander[entry.team] = commander_gift(state)
    moved = replace(state, places=tuple(places))
    order = standings(moved)
    results = [replace(e, standing=order.index(e.team) + 1) for e in results]
    last = state.leg == load().legs
    return replace(
        moved,
        leg=state.leg if last else state.leg + 1,
        phase="over" if last else "situation",
        marks=None,
        entries=(),
        commander=tuple(commander),
        history=(*state.history, tuple(results)),
    )


# --- derived data for display --------------------------------------------------------------


def columns_gained(state: EkidenState, legs: tuple[int, ...]) -> tuple[int, ...]:
    """Columns each team gained over ``legs`` (finished ones): the outbound and return
    rankings (往路・復路) are by this."""
    gained = [0] * state.teams
    for number, results in enumerate(state.history, start=1):
        if number in legs:
            for entry in results:
                gained[entry.team] += entry.move
    return tuple(gained)


def standing_after_each_leg(state: EkidenState) -> tuple[tuple[int, ...], ...]:
    """For each finished leg, each team's standing (順位変動), team order."""
    out = []
    for results in state.history:
        by_team = {e.team: e.standing for e in results}
        out.append(tuple(by_team[t] for t in range(state.teams)))
    return tuple(out)


def legal_actions(state: EkidenState) -> list[Action]:
    """Every legal next action of a tracked race with rosters (for random play)."""
    if state.phase == "over":
        return []
    if state.phase == "situation":
        marks = ("o", "-", "x")
        return [
            Situation(state.leg, (a, b, c, d, e))  # type: ignore[arg-type]
            for a in marks
            for b in marks
            for c in marks
            for d in marks
            for e in marks
        ]
    team = next_runner(state)
    assert team is not None
    if state.rosters[team] is not None:
        return [Run(team, state.leg, pick=p) for p in legal_picks(state, team)]
    d = load()
    return [  # typed in: a sample of cards, every power and every skill
        Run(team, state.leg, runner=Runner(power, 2, 1, skill))
        for power in range(d.power[0], d.power[1] + 1)
        for skill in (None, *SKILLS)
    ]
