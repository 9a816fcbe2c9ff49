"""The rally's words: card names, statuses and log lines in Japanese or English."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.rally.data import load
from aids.games.rally.engine import placings, team_totals, travel_km
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
        key = "rally.log.ferry_end" if action.end else "rally.log.ferry"
        return t(key, lang, car=car, to=town(state, action.to, lang))
    assert isinstance(action, EndTurn)
    count = len(action.discard) or action.discard_count
    if count:
        return t("rally.log.end_turn_discard", lang, car=car, count=count)
    return t("rally.log.end_turn", lang, car=car)


def listed(labels: list[str], lang: str) -> str:
    """Names in a sentence: ``🔴 Aki, 🔵 Ben`` / ``🔴 Aki、🔵 Ben``."""
    return ("、" if lang == "ja" else ", ").join(labels)


def stuck_cars(state: RallyState) -> dict[int, str]:
    """The cars on the road held by a jam, and the town of each (every car at a jammed town
    is stuck, rule "Traffic jam")."""
    return {
        seat: place
        for seat, place in enumerate(state.towns)
        if place in state.jams and seat not in state.arrived
    }


def winners_text(state: RallyState) -> str:
    """Who won a race that is over: the first place (cars sharing it too), or in team play the
    team(s) with the most points — as the table page's status line says it."""
    if state.setup.teams:
        totals = team_totals(state)
        best = [name for team, name in enumerate(state.setup.teams) if totals[team] == max(totals)]
        return " · ".join(best)
    return " · ".join(car_label(state, seat) for seat in placings(state)[0])


def aftermath(before: RallyState, after: RallyState, lang: str) -> tuple[str, ...]:
    """What a step caused beyond its own line: cars reaching the goal (their place), cars
    held by a jam or let go by its clearing, a car given police (how many turns it will miss),
    turns missed to police while play moved on, the discard pile shuffled into a new draw
    pile, and the race over (its winner). Everything read here is on the table for all to
    see: the cars' towns, the jams, statuses and turns, the piles' counts.

    >>> from aids.games.base import REFEREE
    >>> from aids.games.rally.game import GAME
    >>> from aids.games.rally.model import Attack, Draw, EndTurn
    >>> state = GAME.initial_state(GAME.default_setup(["Aki", "Ben", "Chie"], "en"))
    >>> state = GAME.apply(state, Draw(0), REFEREE)
    >>> police = GAME.apply(state, Attack(0, "police", 1), REFEREE)
    >>> aftermath(state, police, "en")
    ('🔵 Ben misses the next 2 turns',)
    >>> aftermath(police, GAME.apply(police, EndTurn(0), REFEREE), "ja")
    ('🔵 Benは警察で1回休み',)
    """
    said: list[str] = []
    goal = town(after, after.setup.goal, lang)
    for place, seat in enumerate(after.arrived, start=1):
        if seat not in before.arrived:
            car = car_label(after, seat)
            said.append(t("rally.after.arrived", lang, car=car, goal=goal, place=place))
    held, was_held = stuck_cars(after), stuck_cars(before)
    for jammed in sorted({place for seat, place in held.items() if seat not in was_held}):
        cars = [car_label(after, s) for s, p in held.items() if p == jammed and s not in was_held]
        said.append(
            t("rally.after.stuck", lang, cars=listed(cars, lang), town=town(after, jammed, lang))
        )
    freed = [car_label(after, s) for s in was_held if s not in held and s not in after.arrived]
    if freed:
        said.append(t("rally.after.freed", lang, cars=listed(freed, lang)))
    for seat, turns in enumerate(after.police):
        if turns > before.police[seat]:
            said.append(t("rally.after.police", lang, car=car_label(after, seat), n=turns))
    missed: dict[int, int] = {}
    for record in after.turns[len(before.turns) :]:
        if record.missed:
            missed[record.seat] = missed.get(record.seat, 0) + 1
    for seat, count in missed.items():
        key = "rally.after.missed_one" if count == 1 else "rally.after.missed_many"
        said.append(t(key, lang, car=car_label(after, seat), n=count))
    if after.reshuffles > before.reshuffles:
        said.append(t("rally.after.reshuffled", lang))
    if after.phase == "over" and before.phase != "over":
        said.append(t("rally.after.over", lang, winner=winners_text(after)))
    return tuple(said)


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
