"""Sealed Sprint's sheet module: a seat × round grid below the print frame's header."""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from aids.core.i18n import t
from aids.print.frame import Styles, rulings
from aids.tables import Snapshot
from tests.fakegame.game import GAME, SprintState


def story(snapshot: Snapshot | None, lang: str, width: float, styles: Styles) -> list[Flowable]:
    state: SprintState | None = snapshot.state if snapshot else None
    names = list(state.setup.names) if state else ["", "", "", ""]
    head = [Paragraph(t("sprint.sheet.seat", lang), styles["head"])]
    head += [Paragraph(str(r), styles["head"]) for r in range(1, 9)]
    rows = [head] + [[Paragraph(n, styles["name"])] + [""] * 8 for n in names]
    grid = Table(rows, colWidths=[width * 0.3] + [width * 0.7 / 8] * 8)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "#555555")]))
    return [grid, *rulings(GAME, lang, styles)]
