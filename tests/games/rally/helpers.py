"""A small map and builders for rally tests.

The strip follows the rulebook's example (Koriyama –5– Motomiya –15– Nihonmatsu –20–
Fukushima-Nishi), with a long way round by Aizu and Yonezawa for jam tests and the
Aomori ⇄ Muroran ferry to a goal in Hokkaido:

    sukagawa -15- koriyama -5- motomiya -15- nihonmatsu -20- fukushima-nishi -40- sendai
                    |                                            |                  |
                   60                                           45                 150
                    |                                            |                  |
                  aizu ----------------70---------------- yonezawa            aomori (port)
                                                                                 ~ ferry ~
                                                   sapporo -120- muroran (port)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aids.games.rally import engine
from aids.games.rally.board import RallyMap
from aids.games.rally.model import (
    Action,
    Draw,
    EndTurn,
    Machine,
    Player,
    RallySetup,
    RallyState,
    Travel,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen"]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "black"]

TOWNS = [
    ("sukagawa", "Sukagawa", "須賀川", 37.29, 140.37),
    ("koriyama", "Koriyama", "郡山", 37.40, 140.39),
    ("motomiya", "Motomiya", "本宮", 37.51, 140.39),
    ("nihonmatsu", "Nihonmatsu", "二本松", 37.58, 140.43),
    ("fukushima-nishi", "Fukushima-Nishi", "福島西", 37.74, 140.42),
    ("sendai", "Sendai", "仙台", 38.27, 140.87),
    ("aizu", "Aizu-Wakamatsu", "会津若松", 37.49, 139.93),
    ("yonezawa", "Yonezawa", "米沢", 37.92, 140.12),
    ("aomori", "Aomori", "青森", 40.82, 140.74),
    ("muroran", "Noboribetsu/Muroran", "登別・室蘭", 42.32, 140.97),
    ("sapporo", "Sapporo", "札幌", 43.06, 141.35),
]
ROADS = [
    ("sukagawa", "koriyama", 15),
    ("koriyama", "motomiya", 5),
    ("motomiya", "nihonmatsu", 15),
    ("nihonmatsu", "fukushima-nishi", 20),
    ("fukushima-nishi", "sendai", 40),
    ("koriyama", "aizu", 60),
    ("aizu", "yonezawa", 70),
    ("yonezawa", "fukushima-nishi", 45),
    ("sendai", "aomori", 150),
    ("muroran", "sapporo", 120),
]


def map_dict(**changes: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "map": {"name_en": "Test strip", "name_ja": "テスト地図"},
        "towns": [
            {"id": i, "en": en, "ja": ja, "lat": lat, "lon": lon}
            | ({"port": True} if i in ("aomori", "muroran") else {})
            for i, en, ja, lat, lon in TOWNS
        ],
        "roads": [{"a": a, "b": b, "km": km} for a, b, km in ROADS],
        "ferries": [{"a": "aomori", "b": "muroran"}],
        "courses": [{"id": "k-s", "en": "Koriyama → Sapporo", "ja": "郡山→札幌",
                     "start": "koriyama", "goal": "sapporo"}],
    }  # fmt: skip
    raw.update(changes)
    return raw


STRIP = RallyMap.from_dict(map_dict())
BALANCED = Machine(3, 5, 2)


def setup(
    players: int = 3,
    *,
    start: str = "koriyama",
    goal: str = "sapporo",
    machine: Machine = BALANCED,
    teams: list[int] | None = None,
    mode: str = "tracking",
    seed: int | None = None,
) -> RallySetup:
    return RallySetup(
        players=tuple(
            Player(NAMES[i], COLOURS[i], machine, None if teams is None else teams[i])
            for i in range(players)
        ),
        start_player=0,
        start=start,
        goal=goal,
        board=STRIP,
        teams=tuple(f"Team {t + 1}" for t in range(max(teams) + 1)) if teams else (),
        mode=mode,  # type: ignore[arg-type]
        seed=seed,
    )


def start(players: int = 3, **kw: Any) -> RallyState:
    return engine.initial_state(setup(players, **kw))


def at(state: RallyState, seat: int, town: str) -> RallyState:
    """The same state with car ``seat`` moved to ``town`` (and its turn's start there)."""
    towns = list(state.towns)
    towns[seat] = town
    current = state.current
    if seat == state.turn:
        current = replace(current, start=town)
    return replace(state, towns=tuple(towns), current=current)


def play(state: RallyState, *actions: Action) -> RallyState:
    for action in actions:
        state = engine.apply(state, action)
    return state


def drawn(state: RallyState) -> RallyState:
    """Draw for the seat to act."""
    return engine.apply(state, Draw(state.turn))


def pass_turn(state: RallyState) -> RallyState:
    """Draw and end the turn without acting (tracking mode)."""
    return play(drawn(state), EndTurn(state.turn))


def move(state: RallyState, cards: tuple[str, ...], to: str) -> RallyState:
    return engine.apply(state, Travel(state.turn, cards, to))
