"""A table played on paper: its result entered as the game's outcome, checked by the game.

A game that can be played on paper says what its result asks (``PaperForm``: each seat's
place, ties allowed or not, and any numbers the game keeps per seat, such as points or
money) and turns a checked ``PaperResult`` into the same
``Outcome`` a tracked table of that game ends with (``Game.paper_outcome``). The checks here
are the ones every game shares: places are standard competition ranks (1, 2, 2, 4: two seats
sharing 2nd leave no 3rd), a shared place only where the game allows one, and each number
within its field's bounds. Each error names the player, their seat counted from 1 and the
field in the user's language ("Chie's points (seat 3)": a ``SeatField``), never a raw key, and
a refused result changes nothing.

>>> form = PaperForm("heat", ("Aki", "Ben", "Chie"), True, (PaperField("points", 0, 20),))
>>> result = PaperResult.from_dict({"places": [1, 3, 1], "points": [9, 2, 9]}, form)
>>> result.places, result.value("points")
((1, 3, 1), (9, 2, 9))
>>> ranking_of(result.places)
((0, 2), (1,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aids.core import inputs
from aids.core.errors import InvalidAction, RuleViolation
from aids.core.i18n import t

MAX_DIGITS = 7  # the longest number a result asks (the Grand National's money, in dollars)
FIELD_KEYS = ("points", "money", "prize", "column")  # every number a game's result may ask


@dataclass(frozen=True, slots=True)
class FieldName:
    """A result's field as a message names it, in the reader's language ("points")."""

    key: str

    def localized(self, lang: str) -> str:
        return t(f"paper.noun.{self.key}", lang)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, slots=True)
class FieldNames:
    """A result's fields as a message lists them, in the reader's language."""

    keys: tuple[str, ...]

    def localized(self, lang: str) -> str:
        return t("meet.list_sep", lang).join(t(f"paper.noun.{k}", lang) for k in self.keys)

    def __str__(self) -> str:
        return ", ".join(self.keys)


@dataclass(frozen=True, slots=True)
class SeatField:
    """One seat's entry of a result's field as a message names it: the player, their seat
    counted from 1 and the field ("Chie's points (seat 3)"). ``str`` gives the entry's key
    (``points[2]``, seat counted from 0) for logs and tests.

    >>> SeatField("points", 2, "Chie").localized("en"), str(SeatField("points", 2, "Chie"))
    ("Chie's points (seat 3)", 'points[2]')
    """

    key: str
    seat: int  # counted from 0, as inside the program
    name: str

    def localized(self, lang: str) -> str:
        field = t(f"paper.one.{self.key}", lang)  # one seat's: "place", not "places"
        return t("paper.seat_field", lang, name=self.name, seat=self.seat + 1, field=field)

    def __str__(self) -> str:
        return f"{self.key}[{self.seat}]"


@dataclass(frozen=True, slots=True)
class SeatNames:
    """Several seats as a message names them: "Aki (seat 1) and Ben (seat 2)"."""

    seats: tuple[tuple[int, str], ...]  # (seat counted from 0, name)

    def localized(self, lang: str) -> str:
        named = [t("paper.seat_named", lang, name=n, seat=s + 1) for s, n in self.seats]
        if len(named) < 2:
            return "".join(named)
        return t("paper.and", lang, first=t("meet.list_sep", lang).join(named[:-1]),
                 last=named[-1])  # fmt: skip


@dataclass(frozen=True, slots=True)
class PaperField:
    """A number the result asks for each seat: its key (``points``, ``money``, ``column``;
    the label is the message ``paper.field.<key>``) and its bounds."""

    key: str
    low: int
    high: int

    @property
    def digits(self) -> int:
        """How many digits the largest value in the bounds has (a slip prints that many)."""
        return len(str(max(abs(self.low), abs(self.high))))

    @property
    def signed(self) -> bool:
        return self.low < 0


@dataclass(frozen=True, slots=True)
class PaperForm:
    """What a paper result of one table asks: a place for each seat (in seat order, named),
    whether seats may share a place, and the numbers of ``fields`` for every seat."""

    kind: str
    seats: tuple[str, ...]
    ties: bool
    fields: tuple[PaperField, ...] = ()

    def field(self, key: str) -> PaperField:
        return next(f for f in self.fields if f.key == key)


@dataclass(frozen=True, slots=True)
class PaperResult:
    """A result as entered: each seat's place (1 is first) and each field's value per seat,
    checked against its ``PaperForm`` (not yet against the game: ``Game.paper_outcome``)."""

    places: tuple[int, ...]
    values: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def value(self, key: str) -> tuple[int, ...]:
        return dict(self.values)[key]

    def to_dict(self) -> dict[str, Any]:
        return {"places": list(self.places), **{k: list(v) for k, v in self.values}}

    @classmethod
    def from_dict(cls, raw: object, form: PaperForm) -> PaperResult:
        """A result from a page, a slip's reading, the command line or a stored row, each
        value checked: ``paper/shape`` for a result that is not one list per field with one
        entry per seat; ``input/number`` naming ``places[i]`` or ``<field>[i]``; the places
        by ``check_places``."""
        keys = ("places", *(f.key for f in form.fields))
        n = len(form.seats)
        if not isinstance(raw, dict):
            raise InvalidAction("paper/shape", fields=FieldNames(keys))
        extra = next((k for k in raw if k not in keys), None)
        if extra is not None:
            known = isinstance(extra, str) and extra in FIELD_KEYS
            if not known:
                raise InvalidAction("paper/shape", fields=FieldNames(keys))
            raise InvalidAction("paper/not_asked", field=FieldName(extra))
        for key in keys:
            if key not in raw:
                raise InvalidAction("paper/missing", field=FieldName(key), seats=n)
            if not isinstance(raw[key], list | tuple):
                raise InvalidAction("paper/shape", fields=FieldNames(keys))
            if len(raw[key]) != n:
                raise InvalidAction("paper/count", field=FieldName(key), given=len(raw[key]),
                                    seats=n)  # fmt: skip
        places = tuple(
            inputs.whole_number(p, SeatField("places", i, form.seats[i]), low=1, high=n)
            for i, p in enumerate(raw["places"])
        )
        check_places(places, ties=form.ties, names=form.seats)
        values = tuple(
            (
                f.key,
                tuple(
                    _number(v, SeatField(f.key, i, form.seats[i]), low=f.low, high=f.high)
                    for i, v in enumerate(raw[f.key])
                ),
            )
            for f in form.fields
        )
        return cls(places, values)


def whole(raw: object) -> int | None:
    """An entry as a whole number: an int, or at most ``MAX_DIGITS`` ASCII digits led by
    ``-`` when negative; None for anything else (``"６"``, ``1.5``, ``True``).

    >>> whole("-02"), whole(7), whole("x"), whole(True)
    (-2, 7, None, None)
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if not isinstance(raw, str):
        return None
    body = raw[1:] if raw.startswith("-") else raw
    if not (body.isascii() and body.isdigit() and len(body) <= MAX_DIGITS):
        return None
    return -int(body) if raw.startswith("-") else int(body)


def _number(raw: object, field: SeatField, *, low: int, high: int) -> int:
    """A whole number ``low..high`` (``whole``), else ``input/number`` naming ``field``."""
    value = whole(raw)
    if value is None or not low <= value <= high:
        raise InvalidAction("input/number", field=field, low=low, high=high)
    return value


def check_places(places: Sequence[int], *, ties: bool, names: Sequence[str] | None = None) -> None:
    """Places as standard competition ranks: a seat's place is one more than the seats
    placed above it (1, 2, 2, 4 — never 1, 2, 2, 3, nor a 2nd without a 1st). Refused:
    ``paper/tie`` for a shared place where the game has none (naming the seats, by
    ``names`` where given), ``paper/places`` naming the first place that does not follow.

    >>> check_places([1, 2, 2, 4], ties=True)
    >>> check_places([1, 2, 2, 3], ties=True)
    Traceback (most recent call last):
    ...
    aids.core.errors.RuleViolation: paper/places: ...
    """
    counts = Counter(places)
    if not ties:
        shared = next((p for p in sorted(counts) if counts[p] > 1), None)
        if shared is not None:
            who = names or [str(s + 1) for s in range(len(places))]
            seats = SeatNames(tuple((s, who[s]) for s, p in enumerate(places) if p == shared))
            raise RuleViolation("paper/tie", place=shared, seats=seats)
    above = 0
    for place in sorted(counts):
        if place != above + 1:
            raise RuleViolation("paper/places", place=place, expected=above + 1)
        above += counts[place]


def ranking_of(places: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by place, best first (an ``Outcome.ranking``)."""
    return tuple(
        tuple(s for s, p in enumerate(places) if p == place) for place in sorted(set(places))
    )


def places_follow(
    places: Sequence[int], ranking: Sequence[Sequence[int]], field: str, names: Sequence[str]
) -> None:
    """The places entered must be those the numbers give (``ranking``, from the game's own
    rule): else ``paper/places_follow`` naming the first seat whose place differs — a slip
    misread or a number written wrong, never silently put right."""
    want = [0] * len(places)
    above = 0
    for group in ranking:
        for seat in group:
            want[seat] = above + 1
        above += len(group)
    for seat, (got, expected) in enumerate(zip(places, want, strict=True)):
        if got != expected:
            raise RuleViolation("paper/places_follow", seat=seat + 1, name=names[seat],
                                place=got, expected=expected,
                                field=FieldName(field))  # fmt: skip
