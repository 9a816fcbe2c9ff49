"""The tables of an event played on paper: no action log, only a result entered as the game's
outcome (``aids.games.paper``), with a log of who entered, corrected and confirmed it.

A paper table has its game, title and seats like any table. Its result log (the store's
``PaperEntry`` rows) reads: ``entered`` (the first result), ``corrected`` (any later one),
``confirmed`` (the organiser checked the result against the slip; a later correction
undoes that). The result counts in the standings from the moment it is entered, as a
finished tracked table's does, and is marked "paper" wherever a table is listed.

A stored result that the game's checks refuse today (stored before a rule was checked, or by
an older release) never breaks a page or a command: the table "needs a look"
(``PaperStatus.problem``: the rule it breaks, shown with its stored numbers) and, by one rule,
counts as in play, left out of the standings, until the organiser corrects or removes it.

What a result asks follows the event's rule (``PaperForm``: the places, and where the event
counts each game's own score, the game's points, money or column). A result entered under the
placing rule has no numbers: once the rule is each game's score, the table counts as in play
until its numbers are entered (``PaperStatus.needs_numbers``), never as zero.

Pure functions of store rows and a game: the meet service (``aids.meets.service``) reads and
writes them through the store.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from aids.core.errors import AidsError, InvalidAction, RuleViolation
from aids.core.i18n import t
from aids.games.base import AnyGame, Outcome
from aids.games.paper import PaperForm, PaperResult, whole
from aids.meets.scoring import Scoring
from aids.meets.standings import Result
from aids.store.base import PAPER_STEPS, PaperEntry, PaperRow

PHOTO_HASH_LENGTH = 64  # a SHA-256, in hex


@dataclass(frozen=True)
class PaperStatus:
    """A paper table of the event as everyone sees it: nothing on it is secret."""

    row: PaperRow
    entries: tuple[PaperEntry, ...]
    game: AnyGame
    scoring: Scoring

    @property
    def public_id(self) -> str:
        return self.row.public_id

    @property
    def kind(self) -> str:
        return self.row.kind

    @property
    def title(self) -> str:
        return self.row.title

    @property
    def seq(self) -> int:
        """The number a write must name (the result log's last entry; 0 before any)."""
        return self.entries[-1].seq if self.entries else 0

    @cached_property
    def setup(self) -> Any:
        return self.game.setup_from_dict(self.row.setup)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.game.seat_names(self.setup)

    @property
    def form(self) -> PaperForm:
        """What a result of this table asks under the event's rule now."""
        form = self.game.paper_form(self.setup, self.scoring.rule == "score")
        if form is None:
            raise InvalidAction("paper/unsupported")
        return form

    @property
    def latest(self) -> PaperEntry | None:
        """The entry holding the result in force (the last entered or corrected one)."""
        return next((e for e in reversed(self.entries) if e.result is not None), None)

    @property
    def confirmed(self) -> bool:
        """The organiser confirmed the result in force (no correction since)."""
        return bool(self.entries) and self.entries[-1].step == "confirmed"

    @cached_property
    def _checked(self) -> tuple[Outcome | None, AidsError | None]:
        latest = self.latest
        if latest is None or latest.result is None:
            return None, None
        try:
            return outcome_of(self.game, self.setup, latest.result), None
        except AidsError as exc:
            return None, exc

    @property
    def outcome(self) -> Outcome | None:
        """The result in force as the game's outcome (None before any result, and while
        the stored result breaks a rule: ``problem``)."""
        return self._checked[0]

    @property
    def problem(self) -> AidsError | None:
        """The rule the stored result in force breaks under today's checks, if any: the
        table needs a look, and counts as in play until it is corrected or removed."""
        return self._checked[1]

    @property
    def needs_numbers(self) -> bool:
        """A result is in, but the event's rule counts numbers it was entered without."""
        outcome = self.outcome
        return outcome is not None and self.scoring.rule == "score" and not outcome.scores

    @property
    def finished(self) -> bool:
        return self.outcome is not None and not self.needs_numbers

    @property
    def result(self) -> Result:
        """The table as the standings read it: in play until its result counts."""
        return Result(self.seats, self.outcome if self.finished else None)

    @property
    def leaders(self) -> tuple[str, ...]:
        outcome = self.outcome
        return tuple(self.seats[s] for s in outcome.winners) if outcome is not None else ()

    def line(self, lang: str) -> str:
        """One line of status: played on paper, and its winners, or waiting for its result."""
        sep = t("meet.list_sep", lang)
        if self.problem is not None:
            return t("meet.paper.needs_look", lang)
        if self.needs_numbers:
            return t("meet.paper.needs_numbers", lang)
        if not self.finished:
            return t("meet.paper.waiting", lang)
        key = "meet.paper.confirmed" if self.confirmed else "meet.paper.entered"
        return t(key, lang, winners=sep.join(self.leaders) or "—")

    def places(self) -> tuple[int, ...]:
        """Each seat's place in the result in force (empty before any, or where a stored
        place is not a place of this table)."""
        places = self.stored_values().get("places", [])
        return tuple(p for p in places if p is not None) if None not in places else ()

    def stored_values(self) -> dict[str, list[int | None]]:
        """The result in force as stored, each entry a whole number or None where it is not
        one (a result stored by an older release, or written by hand): what a form shows to
        be corrected, and never a crash."""
        latest = self.latest
        if latest is None or not isinstance(latest.result, dict):
            return {}
        return {
            str(key): [whole(v) for v in values] if isinstance(values, list) else []
            for key, values in latest.result.items()
        }

    def stored_text(self, lang: str) -> str:
        """The result in force as stored, in words: "places 1, 1 · points 20, 20"."""
        latest = self.latest
        if latest is None or not isinstance(latest.result, dict):
            return ""
        sep = t("meet.list_sep", lang)
        return " · ".join(
            f"{_noun(str(key), lang)} "
            + (sep.join(str(v) for v in values) if isinstance(values, list) else str(values))
            for key, values in latest.result.items()
        )

    def look(self, lang: str) -> str:
        """Why the table needs a look, in words: the stored numbers and the rule they break
        (empty when nothing is wrong)."""
        if self.problem is None:
            return ""
        return t("meet.paper.look", lang, stored=self.stored_text(lang),
                 rule=self.problem.message(lang))  # fmt: skip


def _noun(key: str, lang: str) -> str:
    """A stored result's field in words; a key no game asks, as it was stored."""
    words = t(f"paper.noun.{key}", lang)
    return key if words == f"paper.noun.{key}" else words


def outcome_of(game: AnyGame, setup: Any, raw: dict[str, Any]) -> Outcome:
    """A stored or submitted result checked by the form its own fields ask (the numbers are
    there or not; a result stored before a game asked one more number, such as the Grand
    National's prize money, has the ones asked then) and by the game's rules for results."""
    result, scored = _parsed(game, setup, raw)
    return game.paper_outcome(setup, result, scored)


def canonical(game: AnyGame, setup: Any, raw: dict[str, Any]) -> dict[str, Any]:
    """A stored or imported result checked as ``outcome_of`` checks it, in the form the
    service stores (numbers as numbers: ``"2"`` becomes ``2``)."""
    result, scored = _parsed(game, setup, raw)
    game.paper_outcome(setup, result, scored)
    return result.to_dict()


def importable(game: AnyGame, setup: Any, raw: dict[str, Any]) -> dict[str, Any]:
    """A result as an import keeps it: in the service's form where today's checks take it;
    one that only breaks a game's rule (a result stored before that rule was checked, and
    exported so) with its numbers as numbers, so the table needs a look in the event it
    moves to as in the one it came from, and an event's own backup always restores. A
    malformed one (not the form's fields, a number that is none) is refused."""
    try:
        return canonical(game, setup, raw)
    except RuleViolation:
        kept = {str(k): [whole(v) for v in vs] for k, vs in raw.items() if isinstance(vs, list)}
        if len(kept) != len(raw) or any(v is None for vs in kept.values() for v in vs):
            raise
        return kept


def _parsed(game: AnyGame, setup: Any, raw: object) -> tuple[PaperResult, bool]:
    """``raw`` read by the form its own fields ask, and whether it has numbers."""
    if not isinstance(raw, dict):
        raise InvalidAction("paper/shape", fields="places")
    scored = any(key != "places" for key in raw)
    form = game.paper_form(setup, scored)
    if form is None:
        raise InvalidAction("paper/unsupported")
    asked = tuple(f for f in form.fields if f.key in raw)
    if scored and asked and asked == form.fields[: len(asked)] and len(asked) < len(form.fields):
        form = replace(form, fields=asked)  # the first numbers, as asked before (never others)
    return PaperResult.from_dict(raw, form), scored


def check_result(status: PaperStatus, raw: object) -> dict[str, Any]:
    """A result for ``status``'s table as the event's rule asks it, checked whole: the form's
    fields (``paper/shape``, ``input/number`` naming ``places[i]``…), then the game's rules;
    returns it as it is stored."""
    result = PaperResult.from_dict(raw, status.form)
    status.game.paper_outcome(status.setup, result, bool(status.form.fields))
    return result.to_dict()


def check_photo(raw: object) -> str | None:
    """The SHA-256 of the photo a result was read from (64 hex digits), or None."""
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) != PHOTO_HASH_LENGTH:
        raise InvalidAction("paper/photo")
    try:
        int(raw, 16)
    except ValueError:
        raise InvalidAction("paper/photo") from None
    return raw.lower()


def check_entries(
    entries: list[PaperEntry], game: AnyGame, setup: Any, where: str
) -> list[PaperEntry]:
    """A result log as an import brings it: numbered 1.., steps in order (a confirmation
    follows a result), every result the game's form (``importable``); else ``import/field``
    naming it. Returns the log as it is stored (each result in its canonical form)."""
    checked: list[PaperEntry] = []
    for i, entry in enumerate(entries):
        field = f"{where}.entries[{i}]"
        if entry.seq != i + 1 or entry.step not in PAPER_STEPS:
            raise InvalidAction("import/field", field=field)
        if entry.by not in ("organiser", "host"):
            raise InvalidAction("import/field", field=f"{field}.by")
        first = not any(e.result is not None for e in entries[:i])
        if entry.step == "confirmed":
            if entry.result is not None or first:
                raise InvalidAction("import/field", field=field)
            checked.append(entry)
            continue
        if entry.result is None or entry.step != ("entered" if first else "corrected"):
            raise InvalidAction("import/field", field=field)
        try:
            result = importable(game, setup, entry.result)
            photo = check_photo(entry.photo)
        except AidsError:
            raise InvalidAction("import/field", field=f"{field}.result") from None
        checked.append(replace(entry, result=result, photo=photo))
    return checked
