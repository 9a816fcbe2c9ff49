"""The Derby played on paper: each player's place and, where the event counts points, their
points, from which the places follow.

The points decide the race (highest total wins; equal totals share a place), so places may be
shared, and where the points are asked the places must be the ones they give: a slip misread
or a number written wrong is refused, never put right. A player's points are a sum the
scoring can make: each of their counters pays 4, 3, 2 or 1 (by the fence it was placed at)
or nothing, so 0 to 4 × their counters (4 or 5 by the number of players). What a result
alone cannot show (one counter per slot, how many horses finished) is not checked.

>>> from aids.games.derby.model import DerbySetup
>>> setup = DerbySetup.default(["Aki", "Ben", "Chie"])
>>> form = paper_form(setup, scored=True)
>>> form.fields[0].high
20
>>> result = PaperResult.from_dict({"places": [2, 1, 2], "points": [5, 9, 5]}, form)
>>> paper_outcome(setup, result, scored=True).ranking
((1,), (0, 2))
"""

from __future__ import annotations

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
    ranking = rank_by_score(points)
    places_follow(result.places, ranking, "points", tuple(p.name for p in setup.players))
    return Outcome("paper", ranking, points)
