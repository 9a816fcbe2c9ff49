"""An event's result slips: one per table played on paper, printed from what its result asks,
read back by ``aids.scan.proposal``.

The slip of a paper table (``slip_spec``) prints its players, a place for each and, where the
event counts each game's own score, the game's numbers (``PaperForm``), each with as many
digits as its largest value (the first number one fewer where a big table's slip would not
fit: a larger number is then entered by hand; a later number that does not fit whole, such
as the Grand National's prize money for five or six stables, is left off the slip, with the
ones after it, and typed on the page: the reading flags it as not on the slip, and the slip
says so itself under its check value, so players know to tell the organiser); a number
that may be below zero (a column behind the start) gets a sign row, + and −, before its
digits, so it is written and read (−2 is − 0 2; a sign left blank is flagged).

A photo of a filled slip is read by ``aids.scan`` and turned into a proposed result there
(``aids.scan.proposal``): this module only prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

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
    fits,
)
from aids.print.slips import slips_pdf


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
