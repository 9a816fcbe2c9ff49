"""One table of an event as its page and sheet show it: game, title, step, finished or who is
to move, and who leads. Read through the viewer's snapshot only, so nothing sealed shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from aids.core.i18n import t
from aids.games.base import AnyGame
from aids.games.series import series_for
from aids.meets.standings import Result
from aids.tables import Snapshot


class Listed(Protocol):
    """A table of the event as its lists show it: tracked (``TableStatus``) or played on
    paper (``aids.meets.papers.PaperStatus``)."""

    @property
    def public_id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def finished(self) -> bool: ...
    def line(self, lang: str) -> str: ...
    def look(self, lang: str) -> str: ...


@dataclass(frozen=True)
class TableStatus:
    """A table of the event, as a viewer sees it now."""

    snapshot: Snapshot
    kind: str
    leaders: tuple[str, ...]  # the winners once finished, else the race chart's leaders

    @property
    def public_id(self) -> str:
        return self.snapshot.info.public_id

    @property
    def title(self) -> str:
        return self.snapshot.info.title

    @property
    def seq(self) -> int:
        return self.snapshot.seq

    @property
    def finished(self) -> bool:
        return self.snapshot.outcome is not None

    @property
    def result(self) -> Result:
        return Result(self.snapshot.seats, self.snapshot.outcome)

    def to_move(self, lang: str) -> str:
        """Who is to act, in words: the seats' names, else the referee (chance is entered by
        the referee too); empty once finished."""
        if self.finished:
            return ""
        names = [
            self.snapshot.seats[r.seat]
            for r in sorted(self.snapshot.to_move)
            if r.seat is not None and 0 <= r.seat < len(self.snapshot.seats)
        ]
        if names:
            return t("meet.list_sep", lang).join(names)
        return t("meet.status.referee", lang) if self.snapshot.to_move else ""

    def look(self, lang: str) -> str:
        """Nothing to look at: a tracked table's log is checked action by action."""
        return ""

    def line(self, lang: str) -> str:
        """One line of status: finished (and the winner), or the step and who is to move."""
        sep = t("meet.list_sep", lang)
        if self.finished:
            return t("meet.status.finished", lang, winners=sep.join(self.leaders) or "—")
        move = self.to_move(lang) or "—"
        lead = sep.join(self.leaders) or "—"
        return t("meet.status.playing", lang, step=self.seq, move=move, leader=lead)


def status_of(game: AnyGame, snapshot: Snapshot) -> TableStatus:
    """``snapshot`` (a viewer's) with its leaders: the winners of a finished table; while in
    play, the seats whose line leads the game's race chart (``games.series``: highest last
    value, lowest where 1 is best), none if all are level or the game has no chart."""
    if snapshot.outcome is not None:
        leaders = tuple(snapshot.seats[s] for s in snapshot.outcome.winners)
        return TableStatus(snapshot, game.info.kind, leaders)
    return TableStatus(snapshot, game.info.kind, _chart_leaders(game, snapshot))


def _chart_leaders(game: AnyGame, snapshot: Snapshot) -> tuple[str, ...]:
    series = series_for(game, snapshot.history)
    if series is None or series.empty:
        return ()
    last = {line.name: line.last for line in series.lines if line.last is not None}
    if len(set(last.values())) < 2:
        return ()  # nobody ahead yet
    best = min(last.values()) if series.y_reversed else max(last.values())
    return tuple(name for name, value in last.items() if value == best)
