"""Grand National's small shared values: the names of orders, phases and statuses, the card
effects, the ledger's parties, and the checks every parser of a setup or an action uses (each
refusal names the field). ``aids.games.grand_national.model`` offers every name here too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from aids.core.errors import InvalidAction
from aids.games.grand_national.data import Odds

Order = Literal["caps", "position"]
TooFree = Literal["any_time", "round_end"]
Kind = Literal["win", "show"]
Phase = Literal["blind_bets", "going", "lanes", "market", "race", "over"]
Status = Literal["running", "finished", "fallen", "withdrawn", "pulled_up"]
EFFECTS = ("advance", "fall", "withdraw", "penalty", "second_wind", "handicap", "speed",
           "lose_turn")  # fmt: skip
BANK = -1  # a ledger party: the bank
HELD = -2  # a ledger party: stakes set aside under the betting slips
NAME_MAX = 40


def mapping_of(raw: object, where: str) -> Mapping[str, Any]:
    """``raw`` as a mapping, else ``gn/malformed`` naming ``where``."""
    if not isinstance(raw, Mapping):
        raise InvalidAction("gn/malformed", field=where or "value")
    return raw


def whole(raw: Mapping[str, Any], key: str, where: str = "") -> int:
    """``raw[key]``, an int (not a bool), else ``gn/malformed`` naming the field."""
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction("gn/malformed", field=f"{where}{key}")
    return value


def odds_of(raw: object, field: str) -> Odds:
    """Fractional odds from ``[profit, stake]``, else ``gn/malformed`` or ``gn/odds_range``."""
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise InvalidAction("gn/malformed", field=field)
    try:
        return Odds(raw[0], raw[1])
    except ValueError:
        raise InvalidAction("gn/odds_range", field=field) from None


def colours_of(raw: object) -> tuple[str, ...]:
    """The spinner's colours, in ring order, else ``gn/malformed``."""
    if not isinstance(raw, list) or len(raw) > 12 or not all(isinstance(c, str) for c in raw):
        raise InvalidAction("gn/malformed", field="spinner")
    return tuple(raw)
