"""The rally played on paper: each car's place, from which its points follow.

Cars are placed by arrival, then the cars still on the road by their distance to the goal,
where equal distances share a place, so places may be shared. The points follow from the
places (15, 10, 8, 5, 3, 1, then 0; tied cars take the better place's), and in team play each
team's total, which decides the race, as a tracked race's outcome has them: nothing more is
asked.

>>> from aids.games.rally.model import RallySetup
>>> setup = RallySetup.default(["Aki", "Ben", "Chie"])
>>> form = paper_form(setup)
>>> outcome = paper_outcome(setup, PaperResult.from_dict({"places": [2, 1, 2]}, form))
>>> outcome.ranking, outcome.scores
(((1,), (0, 2)), (10, 15, 10))
"""

from __future__ import annotations

from aids.games.base import Outcome
from aids.games.paper import PaperForm, PaperResult, ranking_of
from aids.games.rally.data import load
from aids.games.rally.model import RallySetup


def paper_form(setup: RallySetup) -> PaperForm:
    """Places only (shared where cars ended level on the road)."""
    return PaperForm("rally", tuple(p.name for p in setup.players), True)


def paper_outcome(setup: RallySetup, result: PaperResult) -> Outcome:
    """The race's ``Outcome``: the places with their points, or in team play the teams'
    totals (every car of a team sharing its total and its place)."""
    points = load().points
    scores = tuple(points[p - 1] if p - 1 < len(points) else 0 for p in result.places)
    if not setup.teams:
        return Outcome("paper", ranking_of(result.places), scores)
    totals = [0] * len(setup.teams)
    for seat, player in enumerate(setup.players):
        if player.team is not None:
            totals[player.team] += scores[seat]
    team_scores = tuple(totals[p.team or 0] for p in setup.players)
    order = sorted(set(totals), reverse=True)
    ranking = tuple(
        tuple(s for s in range(len(setup.players)) if team_scores[s] == total) for total in order
    )
    return Outcome("paper", tuple(g for g in ranking if g), team_scores)
