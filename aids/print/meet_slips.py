"""An event's result slips: one per table played on paper, printed from what its result asks,
and a photo of a filled one turned into a proposed result for the organiser to confirm.

The slip of a paper table (``slip_spec``) prints its players, a place for each and, where the
event counts each game's own score, the game's numbers (``PaperForm``), each with as many
digits as its largest value (the first number one fewer where a big table's slip would not
fit: a larger number is then entered by hand; a later number that does not fit whole, such
as the Grand National's prize money for five or six stables, is left off the slip, with the
ones after it, and typed on the page: ``proposal`` flags it as not on the slip, and the slip
says so itself under its check value, so players know to tell the organiser); a number
that may be below zero (a column behind the start) gets a sign row, + and −, before its
digits, so it is written and read (−2 is − 0 2; a sign left blank is flagged).

``match`` takes a read photo (``aids.scan.read_slip``) to the event's table it belongs to and
refuses it with a clear message when it is not one of this event's paper tables, when the
code's shape (seats, numbers and their digits) is not the one the table's slip has now
(``scan/shape``: the check value alone does not cover it, since a code could carry the right
check with another shape), when the slip was printed for other players (its check value), or
when the table's result is confirmed already. Every slip ever printed carries its shape in
its code (``aids-slip:1`` always had it), so an older slip reads whenever its shape is the
table's slip's now; one printed before the table's form changed is refused: print the slip
again or type the result. ``proposal`` gives the values read, each flagged field left
empty and named: nothing is guessed, and nothing is stored until the organiser confirms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from aids.core.errors import InvalidAction
from aids.core.i18n import Lang, t
from aids.meets import MeetInfo
from aids.meets.papers import PaperStatus
from aids.print.slip_layout import (
    MAX_DIGITS,
    MAX_TOTAL_DIGITS,
    NumberField,
    Shape,
    SlipSpec,
    event_tag,
    fits,
)
from aids.print.slips import slip_check, slips_pdf

if TYPE_CHECKING:  # the reader (OpenCV) is loaded only where a photo is read
    from aids.scan import SlipReading

OFF_SLIP = "off_slip"  # a flagged field's reason: the slip had no room for it


def slip_spec(meet: MeetInfo, status: PaperStatus, lang: Lang) -> SlipSpec:
    """The slip of one paper table in ``lang`` (see the module's docstring)."""
    form = status.form
    seats = form.seats
    fields: list[NumberField] = []
    off: list[str] = []  # what the slip leaves out, said on it
    for n, field in enumerate(form.fields):
        digits = min(field.digits, MAX_DIGITS)

        signed = tuple(k for k, f in enumerate(fields) if f.signed)
        signed += (len(fields),) if field.signed else ()

        def shape(last: int, signed: tuple[int, ...] = signed) -> Shape:
            return Shape(len(seats), len(seats), (*(f.digits for f in fields), last),
                         signed)  # fmt: skip

        label = t(f"paper.field.{field.key}", lang)
        while n == 0 and digits > 1 and not fits(shape(digits)):
            digits -= 1  # a big table: one digit fewer (the page takes a larger number)
        if sum(shape(digits).digits) > MAX_TOTAL_DIGITS or not fits(shape(digits)):
            off += [t(f"paper.field.{f.key}", lang) for f in form.fields[n:]]
            break  # this number and the ones after it are typed on the page
        if digits < field.digits:
            off.append(t("scan.slip.capped", lang, field=label, most=f"{10**digits - 1:,}"))
        fields.append(NumberField(label, digits, field.signed))
    joined = ("、" if lang == "ja" else "; ").join(off)
    said = t("scan.slip.off_slip", lang, what=joined) if off else ""
    return SlipSpec(meet.public_id, meet.title, status.public_id, status.title, status.kind,
                    lang, seats, len(seats), tuple(fields), said)  # fmt: skip


def event_slips(
    meet: MeetInfo, papers: Sequence[PaperStatus], lang: Lang,
    paper: Literal["a5", "a4"] = "a5",
) -> bytes:  # fmt: skip
    """Every paper table's slip, one per A5 page (or two to an A4 sheet)."""
    if not papers:
        raise InvalidAction("scan/no_paper_tables")
    return slips_pdf([slip_spec(meet, p, lang) for p in papers], paper)


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
