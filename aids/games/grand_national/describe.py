"""Grand National's words: horses, money and log lines in Japanese or English."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.grand_national.data import load
from aids.games.grand_national.model import (
    Action,
    Bet,
    BlindBet,
    Boxed,
    Card,
    GnState,
    Going,
    LaneSpin,
    Move,
    PullUp,
    SetHandicap,
    SetOdds,
    Spin,
    Start,
)


def money(amount: int) -> str:
    """``$250,000``.

    >>> money(250000), money(-1500)
    ('$250,000', '-$1,500')
    """
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def stable_label(state: GnState, seat: int) -> str:
    stable = state.setup.stables[seat]
    colour = load().colour(stable.colour)
    return f"{colour.symbol if colour else ''} {stable.name}".strip()


def horse_label(state: GnState, horse: int) -> str:
    """``🔴 Red Rum`` — the owner's colour and the horse's name."""
    colour = load().colour(state.setup.stables[state.owner(horse)].colour)
    return f"{colour.symbol if colour else ''} {state.setup.horse(horse).name}".strip()


def colour_name(colour: str, lang: str) -> str:
    found = load().colour(colour)
    return found.label(lang) if found else colour


def describe(state: GnState, action: Action, lang: str) -> str:
    if isinstance(action, BlindBet):
        return t("gn.log.blind_bet", lang, stable=stable_label(state, action.seat))
    if isinstance(action, Going):
        return t("gn.log.going", lang, going=t(f"gn.going.{action.going}", lang))
    if isinstance(action, LaneSpin):
        return t(
            "gn.log.lane_spin", lang, lane=action.lane, colour=colour_name(action.colour, lang)
        )
    if isinstance(action, SetHandicap):
        return t("gn.log.handicap", lang, horse=horse_label(state, action.horse), mark=action.mark)
    if isinstance(action, SetOdds):
        return t("gn.log.odds", lang, horse=horse_label(state, action.horse),
                 win=action.win.text(), show=action.show.text())  # fmt: skip
    if isinstance(action, Bet):
        return t("gn.log.bet", lang, stable=stable_label(state, action.seat),
                 horse=horse_label(state, action.horse), kind=t(f"gn.kind.{action.kind}", lang),
                 stake=money(action.stake))  # fmt: skip
    if isinstance(action, Start):
        return t("gn.log.start", lang)
    if isinstance(action, Spin):
        return t("gn.log.spin", lang, colour=colour_name(action.colour, lang))
    if isinstance(action, Move):
        key = "gn.log.move_blocked" if action.blocked else "gn.log.move"
        return t(key, lang, horse=horse_label(state, action.horse), forward=action.forward,
                 lane=action.lane)  # fmt: skip
    if isinstance(action, Boxed):
        return t("gn.log.boxed", lang, horse=horse_label(state, action.horse))
    if isinstance(action, Card):
        value = action.value if action.effect == "advance" else f"{action.value:+d}"
        horse = horse_label(state, action.horse)
        if action.effect == "advance" and action.moved is not None and action.moved < action.value:
            return t("gn.log.card_advance_short", lang, horse=horse, value=value,
                     moved=action.moved)  # fmt: skip
        return t(f"gn.log.card_{action.effect}", lang, horse=horse, value=value)
    assert isinstance(action, PullUp)
    return t("gn.log.pull_up", lang, horse=horse_label(state, action.horse))
