"""The rally's words: card names, statuses and log lines in Japanese or English."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.rally.data import load
from aids.games.rally.engine import travel_km
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    RallyState,
    Travel,
)
from aids.games.rally.reach import Advice


def car_label(state: RallyState, seat: int) -> str:
    """``🔴 Aki`` — the car's colour symbol and its driver's name."""
    player = state.setup.players[seat]
    colour = load().colour(player.colour)
    return f"{colour.symbol if colour else ''} {player.name}".strip()


def card_name(card: str, lang: str) -> str:
    """``30 km``, ``TOP SPEED``, ``Rain``…"""
    found = load().card(card)
    if found is not None and found.kind == "travel":
        return f"{found.km} km"
    return t(f"rally.cards.{card}", lang)


def cards_text(cards: tuple[str, ...], lang: str) -> str:
    return " + ".join(card_name(c, lang) for c in cards)


def town(state: RallyState, town_id: str, lang: str) -> str:
    return state.setup.board.town_name(town_id, lang)


def describe(state: RallyState, action: Action, lang: str) -> str:
    if isinstance(action, EndRace):
        return t("rally.log.end_race", lang)
    car = car_label(state, action.seat)
    if isinstance(action, Draw):
        return t("rally.log.draw", lang, car=car, count=state.machine(action.seat).draw)
    if isinstance(action, Travel):
        return t(
            "rally.log.travel_end" if action.end else "rally.log.travel",
            lang,
            car=car,
            cards=cards_text(action.cards, lang),
            km=travel_km(action.cards),
            to=town(state, action.to, lang),
        )
    if isinstance(action, Attack):
        return t(
            "rally.log.attack",
            lang,
            car=car,
            card=card_name(action.card, lang),
            target=car_label(state, action.target),
        )
    if isinstance(action, Defend):
        where = (
            town(state, action.town, lang)
            if action.town is not None
            else car_label(state, action.target or 0)
        )
        return t("rally.log.defend", lang, car=car, card=card_name(action.card, lang), on=where)
    if isinstance(action, Ferry):
        return t("rally.log.ferry", lang, car=car, to=town(state, action.to, lang))
    assert isinstance(action, EndTurn)
    count = len(action.discard) or action.discard_count
    if count:
        return t("rally.log.end_turn_discard", lang, car=car, count=count)
    return t("rally.log.end_turn", lang, car=car)


def reach_text(state: RallyState, advice: Advice, lang: str) -> str:
    """Why the tracker proposes no stop (``reach.advise``), naming the town the car needs and
    its km, or the ferry to take; empty when it proposes one."""
    if advice.reason == "nearest":
        return ""
    params: dict[str, object] = {"km": advice.km}
    key: str = advice.reason
    if advice.port is not None:
        params["port"] = town(state, advice.port, lang)
    if advice.needed is not None:
        params["town"] = town(state, advice.needed[0], lang)
        params["need"] = advice.needed[1]
    elif key == "jammed":
        key = "jammed_only"
    if advice.reason == "jammed":
        jammed = [town(state, s.town, lang) for s in advice.stops if s.nearer and s.jammed]
        params["jammed"] = "、".join(jammed) if lang == "ja" else ", ".join(jammed)
    return t(f"rally.reach.{key}", lang, **params)
