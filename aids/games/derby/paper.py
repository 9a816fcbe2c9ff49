"""The Derby played on paper: each player's place and, where the event counts points, their
points, from which the places follow.

The points decide the race (highest total wins; equal totals share a place), so places may be
shared, and where the points are asked the places must be the ones they give: a slip misread
or a number written wrong is refused, never put right. A player's points are a sum the
scoring can make: each of their counters pays 4, 3, 2 or 1 (by the fence it was placed at)
or nothing, so 0 to 4 × their counters (4 or 5 by the number of players). And the table's
points together are a sum the counters can make: a horse's slot at a fence holds one
counter, and only the horses that finish pay, so each fence pays at most as many counters as
horses finished — three after the fifth fence, more only when the cards ran out first (then
the fences not reached paid nothing): ``derby/paper_points`` names the first seat whose
points cannot be added to those before it (``can_score``). Which horses finished is not
asked, so a result that some end of the race could give is taken.

>>> from aids.games.derby.model import DerbySetup
>>> setup = DerbySetup.default(["Aki", "Ben", "Chie"])
>>> form = paper_form(setup, scored=True)
>>> form.fields[0].high
20
>>> result = PaperResult.from_dict({"places": [2, 1, 2], "points": [5, 9, 5]}, form)
>>> paper_outcome(setup, result, scored=True).ranking
((1,), (0, 2))
>>> can_score([20, 12], counters=5), can_score([20, 20], counters=5)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from aids.core.errors import RuleViolation
from aids.games.base import Outcome, rank_by_score
from aids.games.derby.data import load
from aids.games.derby.model import DerbySetup
from aids.games.paper import PaperField, PaperForm, PaperResult, places_follow, ranking_of


def paper_form(setup: DerbySetup, scored: bool) -> PaperForm:
    """Places (shared on equal points) and, ``scored``, each player's points."""
    d = load()
    most = d.counters[len(setup.players)] * max(d.payout.values())
    fields = (PaperField("points", 0, most),) if scored else ()
    return PaperForm("derby", tuple(p.name for p in setup.players), True, fields)


def paper_outcome(setup: DerbySetup, result: PaperResult, scored: bool) -> Outcome:
    """The race's ``Outcome``: from the points where they are asked (``paper/places_follow``
    if a place is not the one they give), else from the places (no points)."""
    if not scored:
        return Outcome("paper", ranking_of(result.places), ())
    points = result.value("points")
    names = tuple(p.name for p in setup.players)
    counters = load().counters[len(names)]
    for seat in range(len(points)):
        if not can_score(points[: seat + 1], counters):
            raise RuleViolation("derby/paper_points", seat=seat + 1, name=names[seat],
                                points=points[seat], field=f"points[{seat}]")  # fmt: skip
    ranking = rank_by_score(points)
    places_follow(result.places, ranking, "points", names)
    return Outcome("paper", ranking, points)


def ends() -> Iterator[tuple[int, tuple[int, ...]]]:
    """Each way a race can end, as (horses that finish, what a counter pays at each fence
    where one could be placed): with the cards run out while fence k is current, the
    ``horse_count - (k - 1)`` horses still running finish and only fences 1..k took bets;
    after the last fence, ``finishers`` horses (dominated by the end at the last fence:
    one more horse, the same fences)."""
    d = load()
    for fence in range(1, d.fences + 1):
        paying = tuple(d.payout[f] for f in d.betting_fences if f <= fence)
        yield d.horse_count - (fence - 1), paying


def can_score(points: Sequence[int], counters: int) -> bool:
    """Whether some end of the race pays every seat its ``points`` at once: each seat with at
    most ``counters`` paying counters, each paying fence's value used at most once per
    finishing horse (one counter per slot)."""
    return any(_fits(tuple(points), counters, paying, (finished,) * len(paying))
               for finished, paying in ends())  # fmt: skip


@cache
def _fits(
    points: tuple[int, ...], counters: int, paying: tuple[int, ...], left: tuple[int, ...]
) -> bool:
    """Seats ``points`` scored in turn from the slots ``left`` (per paying value)."""
    if not points:
        return True
    return any(
        _fits(points[1:], counters, paying, tuple(n - u for n, u in zip(left, used, strict=True)))
        for used in _ways(points[0], counters, paying, left)
    )


@cache
def _ways(
    total: int, counters: int, paying: tuple[int, ...], left: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Every count of counters per paying value (within ``left``, at most ``counters`` in
    all) that sums to ``total``."""
    if not paying:
        return ((),) if total == 0 else ()
    ways = []
    for n in range(min(left[0], counters, total // paying[0]) + 1):
        for rest in _ways(total - n * paying[0], counters - n, paying[1:], left[1:]):
            ways.append((n, *rest))
    return tuple(ways)
