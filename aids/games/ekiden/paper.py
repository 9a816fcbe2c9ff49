"""The Ekiden played on paper: each team's final standing and, where the event counts the
game's own score, the column its piece ended in (as a tracked relay's outcome counts it).

Standings never tie (in one column the piece nearer the line leads), so places are 1 to n,
each once. A column is counted from the start column, forward positive (a piece driven back
past the start is below 0); a team in a farther column never stands behind one in a nearer
column (``paper/places_follow``); in one column either may lead.

>>> from aids.games.ekiden.model import EkidenSetup
>>> setup = EkidenSetup.default(["Aki", "Ben", "Chie"])
>>> form = paper_form(setup, scored=True)
>>> result = PaperResult.from_dict({"places": [3, 1, 2], "column": [9, 14, 14]}, form)
>>> paper_outcome(setup, result, scored=True).ranking
((1,), (2,), (0,))
"""

from __future__ import annotations

import itertools

from aids.core.errors import RuleViolation
from aids.games.base import Outcome
from aids.games.ekiden.model import EkidenSetup
from aids.games.paper import FieldName, PaperField, PaperForm, PaperResult, ranking_of

MOST_COLUMNS = 99  # far past the printed road (13 columns each side of the start)


def paper_form(setup: EkidenSetup, scored: bool) -> PaperForm:
    """Standings 1 to n (never shared) and, ``scored``, each piece's column."""
    fields = (PaperField("column", -MOST_COLUMNS, MOST_COLUMNS),) if scored else ()
    return PaperForm("ekiden", tuple(t.name for t in setup.teams), False, fields)


def paper_outcome(setup: EkidenSetup, result: PaperResult, scored: bool) -> Outcome:
    """The relay's ``Outcome``: the standings as entered, with the columns where asked."""
    ranking = ranking_of(result.places)
    if not scored:
        return Outcome("paper", ranking, ())
    columns = result.value("column")
    for a, b in itertools.pairwise(ranking):
        if columns[b[0]] > columns[a[0]]:
            raise RuleViolation("paper/places_follow", seat=b[0] + 1,
                                name=setup.teams[b[0]].name, place=result.places[b[0]],
                                expected=result.places[a[0]],
                                field=FieldName("column"))  # fmt: skip
    return Outcome("paper", ranking, columns)
