"""A read slip (``aids.scan.read_slip``) turned into a proposed result for the organiser.

``match`` takes a read photo to the event's table it belongs to and refuses it with a clear
message when it is not one of this event's paper tables, when the code's shape (seats, numbers
and their digits) is not the one the table's slip has now (``scan/shape``: the check value
alone does not cover it, since a code could carry the right check with another shape), when
the slip was printed for other players (its check value), or when the table's result is
confirmed already. Every slip ever printed carries its shape in its code (``aids-slip:1``
always had it), so an older slip reads whenever its shape is the table's slip's now; one
printed before the table's form changed is refused: print the slip again or type the result.
``proposal`` gives the values read, each flagged field left empty and named: nothing is
guessed, and nothing is stored until the organiser confirms. A number the slip had no room
for (``aids.print.meet_slips.slip_spec``) is flagged as not on the slip, to be typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aids.core.errors import InvalidAction
from aids.core.i18n import Lang, t
from aids.meets import MeetInfo
from aids.meets.papers import PaperStatus
from aids.print.meet_slips import slip_spec
from aids.print.slip_layout import event_tag
from aids.print.slips import slip_check
from aids.scan.reading import SlipReading

OFF_SLIP = "off_slip"  # a flagged field's reason: the slip had no room for it


def match(meet: MeetInfo, papers: Sequence[PaperStatus], reading: SlipReading) -> PaperStatus:
    """The paper table a read slip belongs to: ``scan/other_event`` for a slip of another
    event, ``scan/other_table`` for a table this event does not play on paper,
    ``scan/shape`` for a code of another layout than the table's slip, ``scan/check`` for a
        slip printed for other players or fields, ``scan/confirmed`` for a table whose result is
    confirmed already (a correction is typed by hand)."""
    if reading.event_tag != event_tag(meet.public_id):
        raise InvalidAction("scan/other_event")
    status = next((p for p in papers if p.public_id == reading.table_id), None)
    if status is None:
        raise InvalidAction("scan/other_table")
    spec = slip_spec(meet, status, "en")
    if reading.shape != spec.shape:  # read on another layout: its bubbles are not this form's
        raise InvalidAction("scan/shape", title=status.title)
    if reading.check != slip_check(spec):
        raise InvalidAction("scan/check", title=status.title)
    if status.confirmed:
        raise InvalidAction("scan/confirmed", title=status.title)
    return status


@dataclass(frozen=True, slots=True)
class Proposal:
    """What a slip's photo says of a table's result: each field's value read (None where it
    is flagged), the flagged fields named for the organiser, and the photo's hash."""

    result: dict[str, list[int | None]]
    flagged: tuple[str, ...]
    photo_sha256: str

    @property
    def complete(self) -> bool:
        return not self.flagged


def proposal(status: PaperStatus, reading: SlipReading, lang: Lang) -> Proposal:
    """The values read from ``reading`` for ``status``'s result, in the form's order."""
    form = status.form
    result: dict[str, list[int | None]] = {"places": []}
    flagged: list[str] = []
    for field in form.fields:
        result[field.key] = []
    for seat, name in enumerate(form.seats):
        place = reading.reading(seat)
        result["places"].append(place.value)
        if place.flagged:
            flagged.append(_named(name, t("paper.field.places", lang), place.status, lang))
        for n, field in enumerate(form.fields):
            label = t(f"paper.field.{field.key}", lang)
            if n >= len(reading.shape.digits):  # left off the slip: typed on the page
                result[field.key].append(None)
                flagged.append(_named(name, label, OFF_SLIP, lang))
                continue
            number = reading.reading(seat, n)
            result[field.key].append(number.value)
            if number.flagged:
                flagged.append(_named(name, label, number.status, lang))
    return Proposal(result, tuple(flagged), reading.photo_sha256)


def _named(name: str, label: str, status: Any, lang: Lang) -> str:
    return t("scan.flag", lang, name=name, field=label, why=t(f"scan.mark.{status}", lang))
