"""How a finished table's outcome becomes event points: the organiser's scoring rule.

Two rules. ``placing``: each place at a table is worth the points of a table the organiser
may change (by default 10, 6, 4, 3, 2, 1; places past its end are worth 0), and players tied
for a place each get that place's points, the next place after a tie of two being the third
(1, 2, 2, 4: standard competition ranking). ``score``: each player's own score or money at
the table (the game's ``Outcome.scores``), added up as it is.

Stored with the meet as a plain dict (``{"rule": "placing", "points": [10, 6, 4, 3, 2, 1]}``
or ``{"rule": "score"}``), parsed back with the same checks as any input.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.core.i18n import t

Rule = Literal["placing", "score"]
RULES: tuple[Rule, ...] = ("placing", "score")
DEFAULT_POINTS: tuple[int, ...] = (10, 6, 4, 3, 2, 1)
MAX_PLACES = 12  # more places than any table of the four games seats
MAX_POINTS = 999


@dataclass(frozen=True, slots=True)
class Scoring:
    """The rule an event's standings are counted by.

    >>> Scoring().place_points(2)
    4
    >>> Scoring().place_points(7), Scoring("score").to_dict()
    (0, {'rule': 'score'})
    """

    rule: Rule = "placing"
    points: tuple[int, ...] = DEFAULT_POINTS

    def place_points(self, place: int) -> int:
        """The points of ``place`` (0 = first) under the placing rule; 0 past the table."""
        return self.points[place] if 0 <= place < len(self.points) else 0

    def describe(self, lang: str) -> str:
        """The rule in words, as the page and the sheet show it."""
        if self.rule == "score":
            return t("meet.rule.score", lang)
        points = ("・" if lang == "ja" else ", ").join(str(p) for p in self.points)
        return t("meet.rule.placing", lang, points=points)

    def to_dict(self) -> dict[str, Any]:
        if self.rule == "score":
            return {"rule": "score"}
        return {"rule": "placing", "points": list(self.points)}

    @classmethod
    def from_dict(cls, raw: object) -> Scoring:
        """A stored or imported rule, checked (``meet/scoring`` names what is wrong).

        >>> Scoring.from_dict({"rule": "placing", "points": [5, 3, 1]}).points
        (5, 3, 1)
        """
        if not isinstance(raw, dict) or raw.get("rule") not in RULES:
            raise InvalidAction("meet/scoring")
        if raw["rule"] == "score":
            if set(raw) != {"rule"}:
                raise InvalidAction("meet/scoring")
            return cls("score", DEFAULT_POINTS)
        if set(raw) != {"rule", "points"} or not isinstance(raw["points"], list):
            raise InvalidAction("meet/scoring")
        return cls("placing", check_points(raw["points"]))


def check_points(raw: Sequence[object]) -> tuple[int, ...]:
    """A points table: 1–12 whole numbers 0–999, never more for a lower place.

    >>> check_points([10, 6, 6, 1])
    (10, 6, 6, 1)
    """
    if not 1 <= len(raw) <= MAX_PLACES:
        raise InvalidAction("meet/points", max=MAX_PLACES, high=MAX_POINTS)
    try:
        points = tuple(inputs.whole_number(p, "points", low=0, high=MAX_POINTS) for p in raw)
    except InvalidAction:
        raise InvalidAction("meet/points", max=MAX_PLACES, high=MAX_POINTS) from None
    if any(b > a for a, b in itertools.pairwise(points)):
        raise InvalidAction("meet/points_order")
    return points


def parse_points(text: object) -> tuple[int, ...]:
    """A points table typed as text (page, CLI): ``10, 6, 4`` or ``10 6 4``.

    >>> parse_points("10, 6，4 ")
    (10, 6, 4)
    """
    if not isinstance(text, str) or len(text) > 200:
        raise InvalidAction("meet/points", max=MAX_PLACES, high=MAX_POINTS)
    parts = text.replace("，", ",").replace("、", ",").replace(",", " ").split()
    return check_points(parts)


def scoring_of(rule: object, points: object = None) -> Scoring:
    """A rule chosen on the page or the command line: ``placing`` (with its points table,
    text or numbers; the default when None) or ``score``."""
    if rule == "score":
        return Scoring("score")
    if rule != "placing":
        raise InvalidAction("meet/scoring")
    if points is None or points == "":
        return Scoring()
    if isinstance(points, str):
        return Scoring("placing", parse_points(points))
    if isinstance(points, (list, tuple)):
        return Scoring("placing", check_points(points))
    raise InvalidAction("meet/points", max=MAX_PLACES, high=MAX_POINTS)
