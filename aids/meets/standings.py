"""Event standings: every finished table's ``Outcome`` turned into points by the scoring rule,
added up per player across the event's tables.

Players are matched by name across tables, under the form in which names count as the same
at one table (``inputs.identity``: NFKC, case folded, trimmed: ``Aki``, ``AKI`` and ``Ａｋｉ``
are one player); a player keeps the spelling of the first table they sat at. A table still
being played gives no points yet and counts as *in play* for its players.

The rank is by points alone; players with equal points share a rank (1, 2, 2, 4) and are
listed by wins, then by name. Pure functions of plain values: the hypothesis tests in
``tests/meets/test_standings.py`` check the invariants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aids.core.inputs import identity
from aids.games.base import Outcome
from aids.meets.scoring import Scoring


@dataclass(frozen=True, slots=True)
class Result:
    """One table as the standings read it: its seats' names and its outcome (None: in play)."""

    seats: tuple[str, ...]
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: ``played`` counts finished tables, ``in_play`` the unfinished ones;
    ``wins`` the finished tables where they were first (a shared first place counts)."""

    rank: int
    name: str
    points: int
    played: int
    wins: int
    in_play: int


def table_points(result: Result, scoring: Scoring) -> dict[int, int]:
    """Event points per seat of a finished table (empty while it is in play).

    >>> r = Result(("A", "B", "C"), Outcome("end", ((1,), (0, 2)), (3, 9, 3)))
    >>> table_points(r, Scoring())
    {1: 10, 0: 6, 2: 6}
    >>> table_points(r, Scoring("score"))
    {0: 3, 1: 9, 2: 3}
    >>> money = Result(("A", "B"), Outcome("settled", ((1,), (0,)), (150, 400), (250, 250)))
    >>> table_points(money, Scoring("score"))
    {0: -100, 1: 150}
    """
    outcome = result.outcome
    if outcome is None:
        return {}
    seats = range(len(result.seats))
    if scoring.rule == "score":  # what the game gave: a money game's start cash is not won
        net = outcome.net
        return {s: net[s] if s < len(net) else 0 for s in seats}
    points: dict[int, int] = {}
    place = 0
    for group in outcome.ranking:
        for seat in group:
            if seat in seats and seat not in points:
                points[seat] = scoring.place_points(place)
        place += len(group)
    for seat in seats:  # a seat the ranking leaves out (it should not) still played
        points.setdefault(seat, 0)
    return points


def standings(results: Sequence[Result], scoring: Scoring) -> tuple[Standing, ...]:
    """The event's standings over ``results`` (tables in the order they joined).

    >>> won = Result(("Aki", "Ben"), Outcome("end", ((0,), (1,)), (5, 2)))
    >>> lost = Result(("ben", "Chie"), Outcome("end", ((0,), (1,)), (4, 1)))
    >>> [(s.rank, s.name, s.points) for s in standings([won, lost], Scoring())]
    [(1, 'Ben', 16), (2, 'Aki', 10), (3, 'Chie', 6)]
    """
    names: dict[str, str] = {}
    points: dict[str, int] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    in_play: dict[str, int] = {}
    for result in results:
        won = set(result.outcome.winners) if result.outcome is not None else set()
        awarded = table_points(result, scoring)
        here: set[str] = set()
        for seat, name in enumerate(result.seats):
            who = identity(name)
            if who in here:  # two seats one name at one table: two players, never summed
                who = f"{who}\x00{seat}"
            here.add(who)
            names.setdefault(who, name)
            points.setdefault(who, 0)
            if result.outcome is None:
                in_play[who] = in_play.get(who, 0) + 1
                continue
            points[who] += awarded.get(seat, 0)
            played[who] = played.get(who, 0) + 1
            wins[who] = wins.get(who, 0) + (seat in won)
    order = sorted(names, key=lambda w: (-points[w], -wins.get(w, 0), w))
    return tuple(
        Standing(
            1 + sum(1 for other in names if points[other] > points[who]),
            names[who],
            points[who],
            played.get(who, 0),
            wins.get(who, 0),
            in_play.get(who, 0),
        )
        for who in order
    )
