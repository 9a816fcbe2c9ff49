"""Events of many tables ("meets" in code: ``events`` already names a table's log): tables of
any games grouped for one night, their live status and the event standings."""

from aids.meets.scoring import DEFAULT_POINTS, Scoring, scoring_of
from aids.meets.service import MeetInfo, MeetRole, MeetService
from aids.meets.standings import Result, Standing, standings
from aids.meets.status import TableStatus

__all__ = [
    "DEFAULT_POINTS",
    "MeetInfo",
    "MeetRole",
    "MeetService",
    "Result",
    "Scoring",
    "Standing",
    "TableStatus",
    "scoring_of",
    "standings",
]
