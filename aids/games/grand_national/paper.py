"""Grand National played on paper: each stable's place and, where the event counts money, its
money at the end, from which the places follow.

The money decides (most money wins; equal money shares a place), so places may be shared,
and where the money is asked the places must be the ones it gives. Money is whole dollars,
never below nothing (no bet is taken beyond a stable's cash), at most $9,999,999; what a
result alone cannot show (the bets, which horses placed) is not checked. Each stable began
with the start cash, so its net is what the race gave it (``Outcome.stakes``).

>>> from aids.games.grand_national.model import GnSetup
>>> setup = GnSetup.default(["Aki", "Ben"])
>>> form = paper_form(setup, scored=True)
>>> result = PaperResult.from_dict({"places": [2, 1], "money": [120000, 410500]}, form)
>>> outcome = paper_outcome(setup, result, scored=True)
>>> outcome.ranking, outcome.net
(((1,), (0,)), (-130000, 160500))
"""

from __future__ import annotations

from aids.games.base import Outcome, rank_by_score
from aids.games.grand_national.data import load
from aids.games.grand_national.model import GnSetup
from aids.games.paper import PaperField, PaperForm, PaperResult, places_follow, ranking_of

MOST_MONEY = 9_999_999


def paper_form(setup: GnSetup, scored: bool) -> PaperForm:
    """Places (shared on equal money) and, ``scored``, each stable's money in dollars."""
    fields = (PaperField("money", 0, MOST_MONEY),) if scored else ()
    return PaperForm("gn", tuple(s.name for s in setup.stables), True, fields)


def paper_outcome(setup: GnSetup, result: PaperResult, scored: bool) -> Outcome:
    """The race's ``Outcome``: from the money where it is asked (``paper/places_follow`` if
    a place is not the one it gives), else from the places (no money)."""
    if not scored:
        return Outcome("paper", ranking_of(result.places), ())
    money = result.value("money")
    ranking = rank_by_score(money)
    places_follow(result.places, ranking, "money", tuple(s.name for s in setup.stables))
    return Outcome("paper", ranking, money, (load().start_cash,) * len(money))
