"""Pairs of tables that differ only in a secret, for the attacker's tests (issue 18 §1).

Each scenario is two export documents with the same public id, title, times, key hashes and
public actions; only the secret differs (a blind bet, a drafted roster, a simulation's seed,
a sealed commit). Both are imported into two separate SQLite files, so one public id names
a different secret in each. A role that may not see the secret must then get the very same
artefacts from both: anything that differs tells it the secret.

Documents are written here directly (no random ids or times) and every step is folded
through the engine first, so a scenario that stopped being legal fails loudly here.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aids.games.base import CHANCE, REFEREE, AnyGame, Role
from aids.games.derby import engine as derby_engine
from aids.games.derby.model import Bet as DerbyBet
from aids.games.derby.model import DerbySetup, PlayCard
from aids.games.ekiden import engine as ekiden_engine
from aids.games.ekiden.model import EkidenSetup, Mark, Roster, Run, Runner, Situation
from aids.games.grand_national import engine as gn_engine
from aids.games.grand_national.model import BlindBet, Going, LaneSpin, Start
from aids.games.rally import engine as rally_engine
from aids.games.rally.model import Draw, EndTurn, RallySetup, Travel
from aids.meets.export import meet_document
from aids.meets.scoring import Scoring
from aids.meets.service import MeetService
from aids.registry import engines
from aids.store.base import MeetRow
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.export import EXPORT_FORMAT, EXPORT_VERSION
from aids.tables.keys import hash_key
from tests.fakegame.game import GAME as SPRINT
from tests.fakegame.game import Commit, Roll
from tests.games.grand_national.helpers import setup as gn_setup

PUBLIC_ID = "PairOfTablesSameId-0000000001"
TITLE = "Friday night"
START = datetime(2026, 3, 13, 18, 0, tzinfo=UTC)
# The same plain keys open both tables (the documents carry the same hashes).
KEYS = {
    "referee": "RefereeKeyOfThePairTests-0000000000000001",
    "seat:0": "SeatZeroKeyOfThePairTests-000000000000002",
    "seat:1": "SeatOneKeyOfThePairTests-0000000000000003",
    "seat:2": "SeatTwoKeyOfThePairTests-0000000000000004",
}
WRONG_KEY = "NotAKeyOfThisTable-00000000000000000000005"
MEET_ID = "PairOfEventsSameId-000000000001"
ORGANISER_KEY = "OrganiserKeyOfThePairTests-00000000000006"

Step = tuple[str, Any]  # (the role whose key wrote it, the action or "undo")
UNDO = "undo"


def games() -> dict[str, AnyGame]:
    """Every built-in game and the tests' fake one (Sealed Sprint)."""
    return {**engines(), "sprint": SPRINT}


def stamp(n: int) -> str:
    return (START + timedelta(seconds=n)).isoformat(timespec="milliseconds")


def document(kind: str, setup: dict[str, Any], steps: Sequence[Step]) -> dict[str, Any]:
    """An export document (version 2) of ``steps`` folded through the engine first."""
    game = games()[kind]
    parsed = game.setup_from_dict(setup)
    states = [game.initial_state(parsed)]
    for actor, action in steps:
        if action == UNDO:
            states.pop()
        else:
            states.append(game.apply(states[-1], action, Role.parse(actor)))
    seats = len(game.seat_names(parsed))
    roles = ["referee"] + ([f"seat:{s}" for s in range(seats)] if game.info.seat_keys else [])
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "table": {
            "public_id": PUBLIC_ID,
            "kind": kind,
            "title": TITLE,
            "created_at": stamp(0),
            "rules_version": game.info.rules_version,
            "setup": game.setup_to_dict(parsed),
            "keys": [
                {
                    "role": r,
                    "key_sha256": hash_key(KEYS[r]),
                    "created_at": stamp(0),
                    "revoked_at": None,
                }
                for r in roles
            ],
        },
        "events": [
            {
                "seq": i + 1,
                "kind": "undo" if action == UNDO else "action",
                "actor": actor,
                "payload": None if action == UNDO else game.action_to_dict(action),
                "created_at": stamp(i + 1),
            }
            for i, (actor, action) in enumerate(steps)
        ],
    }


@dataclass(frozen=True)
class Scenario:
    """Two tables differing only in a secret, and who may not see it.

    ``roles``: the roles not entitled to the secret (their artefacts must match).
    ``literals``: for each side, strings of its secret that none of those artefacts may hold.
    ``owner``: a role that does see the secret (its snapshots of the two differ).
    """

    name: str
    kind: str
    build: Callable[[], tuple[dict[str, Any], dict[str, Any]]]
    roles: tuple[str, ...]
    literals: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    note: str = ""
    owner: str = "seat:0"


@dataclass
class Pair:
    scenario: Scenario
    docs: tuple[dict[str, Any], dict[str, Any]]
    dbs: tuple[Path, Path]
    services: tuple[TableService, TableService] = field(init=False)

    def __post_init__(self) -> None:
        self.services = (self.open(0), self.open(1))

    def open(self, side: int, store: Any = None) -> TableService:
        return TableService(store or SqliteStore(self.dbs[side]), games())

    @property
    def kind(self) -> str:
        return self.scenario.kind

    @property
    def game(self) -> AnyGame:
        return games()[self.kind]


def make_pair(scenario: Scenario, folder: Path) -> Pair:
    """Import the two documents into two fresh SQLite files under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    docs = scenario.build()
    dbs = (folder / "a.sqlite3", folder / "b.sqlite3")
    for doc, db in zip(docs, dbs, strict=True):
        TableService(SqliteStore(db), games()).import_(copy.deepcopy(doc))
    return Pair(scenario, docs, dbs)


def meet_doc(table_doc: dict[str, Any]) -> dict[str, Any]:
    """An event export holding ``table_doc``: the same event id and organiser key for both."""
    row = MeetRow(0, MEET_ID, "Race night", START.date().isoformat(), stamp(0),
                  Scoring().to_dict(), hash_key(ORGANISER_KEY))  # fmt: skip
    return meet_document(row, [copy.deepcopy(table_doc)])


@dataclass
class MeetPair:
    """The pair's tables, each inside an event (same id, same organiser key) of its own file."""

    pair: Pair
    dbs: tuple[Path, Path]
    services: tuple[MeetService, MeetService] = field(init=False)

    def __post_init__(self) -> None:
        self.services = tuple(  # type: ignore[assignment]
            MeetService(TableService(SqliteStore(db), games())) for db in self.dbs
        )


def make_meet_pair(pair: Pair, folder: Path) -> MeetPair:
    folder.mkdir(parents=True, exist_ok=True)
    dbs = (folder / "meet-a.sqlite3", folder / "meet-b.sqlite3")
    for doc, db in zip(pair.docs, dbs, strict=True):
        MeetService(TableService(SqliteStore(db), games())).import_(meet_doc(doc))
    return MeetPair(pair, dbs)


def key_of(role: str) -> str | None:
    return None if role == "viewer" else KEYS[role]


def role_of(role: str) -> Role:
    return Role.parse(role)


# --- Grand National: a blind bet sealed from everyone but its seat ------------------------------

STAKE_A, STAKE_B = 7370, 2930  # figures that appear nowhere else at the table


def _money(n: int) -> tuple[str, ...]:
    return (f"{n:,}", str(n), f"{n:,}".replace(",", "\u202f"), f"{n:,}".replace(",", "\\,"))


def gn_blind_bets() -> tuple[dict[str, Any], dict[str, Any]]:
    """Aki (seat 0) has sealed a blind bet; Ben and Chie have not yet written theirs."""
    setup = gn_setup().to_dict()
    a = [("seat:0", BlindBet(0, 11, "show", STAKE_A))]
    b = [("seat:0", BlindBet(0, 2, "win", STAKE_B))]
    return document("gn", setup, a), document("gn", setup, b)


def _gn_public(first: BlindBet, *, race: bool) -> list[Step]:
    """The way from the blind bets to the market (and, with ``race``, into the race), the
    same whatever Aki's bet: the others' blind bets, the going, the lanes, a bet in the market
    on Ben's own link, one the referee enters for Aki (within what a sealed bet leaves), then
    the start and the first moves."""
    game = games()["gn"]
    steps: list[Step] = [
        ("seat:0", first),
        ("seat:1", BlindBet(1, None, None, 0)),
        ("seat:2", BlindBet(2, 4, "win", 1000)),
        ("referee", Going("good")),
        *[("referee", LaneSpin(lane, "red")) for lane in range(1, 5)],
    ]
    state = game.initial_state(gn_setup())
    for actor, action in steps:
        state = game.apply(state, action, Role.parse(actor))
    ben = [a for a in game.legal_actions(state, Role.seat_of(1)) if type(a).__name__ == "Bet"]
    ben_bet = max(ben, key=lambda a: (a.stake, -a.horse))
    steps.append(("seat:1", ben_bet))
    state = game.apply(state, ben_bet, Role.seat_of(1))
    limit = gn_engine.entry_limit(state, 0)
    aki = [a for a in game.legal_actions(state, Role.seat_of(0))
           if type(a).__name__ == "Bet" and 0 < a.stake <= limit]  # fmt: skip
    steps.append(("referee", aki[0]))
    state = game.apply(state, aki[0], REFEREE)
    if not race:
        return steps
    steps.append(("referee", Start()))
    state = game.apply(state, Start(), REFEREE)
    for _ in range(8):  # the spinner and the first horses' moves, as the referee records them
        mover = REFEREE if REFEREE in game.to_move(state) else CHANCE
        options = game.legal_actions(state, mover)
        moves = [a for a in options if type(a).__name__ in ("Spin", "Move")] or list(options)
        if not moves:
            break
        action = moves[len(moves) // 3]
        steps.append(("referee", action))
        state = game.apply(state, action, REFEREE)
    return steps


def _gn_pair(race: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    setup = gn_setup().to_dict()
    a = _gn_public(BlindBet(0, 11, "show", STAKE_A), race=race)
    b = _gn_public(BlindBet(0, None, None, 0), race=race)
    assert a[1:] == b[1:], "the public steps must be the same"
    return document("gn", setup, a), document("gn", setup, b)


def gn_undone() -> tuple[dict[str, Any], dict[str, Any]]:
    """Aki's blind bet (different in each) undone by the referee, then written again as no
    bet at all: the undone one stays in the log, sealed."""
    setup = gn_setup().to_dict()
    again = ("seat:0", BlindBet(0, None, None, 0))
    a = [("seat:0", BlindBet(0, 11, "show", STAKE_A)), ("referee", UNDO), again]
    b = [("seat:0", BlindBet(0, 2, "win", STAKE_B)), ("referee", UNDO), again]
    return document("gn", setup, a), document("gn", setup, b)


def gn_market() -> tuple[dict[str, Any], dict[str, Any]]:
    """The market is open: Aki's blind bet (7,370 on Numbersixvalverde to show) against no
    blind bet at all; the referee may still enter bets for Aki."""
    return _gn_pair(race=False)


def gn_race() -> tuple[dict[str, Any], dict[str, Any]]:
    """The same two, in the race before settlement."""
    return _gn_pair(race=True)


# --- Ekiden: a drafted roster entered on the team's own link ----------------------------------

# The runners both rosters share (picks 0 and 1, run in legs 1 and 2); the rest differ.
SHARED = (Runner(5, 3, 1, "front_runner", "Sato Ichiban"), Runner(4, 2, 2, None, "Ito Niban"))
ROSTER_A = (*SHARED, *(Runner(2 + i % 5, 1 + i % 4, i % 3, None, f"Kurogane Akari {i}")
                       for i in range(2, 10)))  # fmt: skip
ROSTER_B = (*SHARED, *(Runner(6 - i % 5, 9 - i % 4, 2, "uphill", f"Shirayuki Minato {i}")
                       for i in range(2, 10)))  # fmt: skip
BEN_ROSTER = tuple(Runner(3 + i % 3, 2, 1, None, f"Ben runner {i}") for i in range(10))


def _ekiden(roster: tuple[Runner, ...], *, until_ben: bool = False) -> list[Step]:
    """Aki's team (0) and Ben's (1) enter rosters on their own links; Chie's types its
    runners in. Leg 1 is run (Aki plays a runner both rosters share), leg 2's card is up;
    ``until_ben``: leg 2 is run until Ben's team is to play (its page offers its picks)."""
    setup = EkidenSetup.default(["Aki", "Ben", "Chie"])
    game = games()["ekiden"]
    steps: list[Step] = [
        ("seat:0", Roster(0, roster)),
        ("seat:1", Roster(1, BEN_ROSTER)),
    ]
    state = game.initial_state(setup)
    for actor, action in steps:
        state = game.apply(state, action, Role.parse(actor))
    marks: dict[int, tuple[Mark, ...]] = {
        1: ("o", "-", "x", "-", "o"),
        2: ("o", "o", "x", "-", "-"),
    }
    for leg in (1, 2):
        steps.append(("referee", Situation(leg, marks[leg])))
        state = game.apply(state, steps[-1][1], REFEREE)
        while state.phase == "runners" and state.leg == leg:
            team = ekiden_engine.next_runner(state)
            assert team is not None
            if leg == 2 and (team == 1 or not until_ben):
                return steps
            run = (
                Run(team, leg, runner=Runner(4, 2, 1, name=f"Chie typed {leg}"))
                if team == 2
                else Run(team, leg, pick=leg - 1)
            )
            actor = f"seat:{team}" if team < 2 else "referee"
            steps.append((actor, run))
            state = game.apply(state, run, Role.parse(actor))
    raise AssertionError("the race went past leg 2")


def ekiden_ben_to_run() -> tuple[dict[str, Any], dict[str, Any]]:
    setup = EkidenSetup.default(["Aki", "Ben", "Chie"]).to_dict()
    a, b = _ekiden(ROSTER_A, until_ben=True), _ekiden(ROSTER_B, until_ben=True)
    return document("ekiden", setup, a), document("ekiden", setup, b)


def ekiden_rosters() -> tuple[dict[str, Any], dict[str, Any]]:
    setup = EkidenSetup.default(["Aki", "Ben", "Chie"]).to_dict()
    a, b = _ekiden(ROSTER_A), _ekiden(ROSTER_B)
    return document("ekiden", setup, a), document("ekiden", setup, b)


def ekiden_undone() -> tuple[dict[str, Any], dict[str, Any]]:
    """Aki's team enters a roster (different in each) and the referee undoes it; Ben's team
    then enters its own: the undone roster stays in the log, sealed from the others."""
    setup = EkidenSetup.default(["Aki", "Ben", "Chie"]).to_dict()
    ben = ("seat:1", Roster(1, BEN_ROSTER))
    a = [("seat:0", Roster(0, ROSTER_A)), ("referee", UNDO), ben]
    b = [("seat:0", Roster(0, ROSTER_B)), ("referee", UNDO), ben]
    return document("ekiden", setup, a), document("ekiden", setup, b)


EKIDEN_LITERALS = (
    tuple(r.name for r in ROSTER_A[len(SHARED) :]),
    tuple(r.name for r in ROSTER_B[len(SHARED) :]),
)


# --- Derby simulation: hands, deck and seed ---------------------------------------------------

DERBY_SEED_A = 0x5EC2E7_0DD5_1A7E_C0DE_0000_0000_00A1  # 128 bits: the size fresh_seed makes


def _derby_setup(seed: int) -> DerbySetup:
    return DerbySetup.default(["Aki", "Ben", "Chie"], mode="simulation", seed=seed)


def _derby_plays(seed: int) -> tuple[Any, Any]:
    """Aki's and Ben's first coloured cards under ``seed`` (each fits its own horse)."""
    state = derby_engine.initial_state(_derby_setup(seed))
    hands = state.hands
    pick = [next((c for c in sorted(h, key=lambda c: (c.colour, c.value)) if not c.is_black),
                 None) for h in hands[:2]]  # fmt: skip
    return pick[0], pick[1]


def _derby_seed_b() -> int:
    """A second seed dealing Aki and Ben the cards they play first in side A, and nothing
    else in common that a viewer could see."""
    x, y = _derby_plays(DERBY_SEED_A)
    for n in range(1, 200_000):
        seed = DERBY_SEED_A ^ (n * 0x9E3779B97F4A7C15)
        hands = derby_engine.initial_state(_derby_setup(seed)).hands
        if (
            x in hands[0]
            and y in hands[1]
            and hands[0] != derby_engine.initial_state(_derby_setup(DERBY_SEED_A)).hands[0]
        ):
            return seed
    raise AssertionError("no second Derby seed found")


DERBY_SEED_B = _derby_seed_b()


def _derby_steps(seed: int) -> list[Step]:
    x, y = _derby_plays(DERBY_SEED_A)
    state = derby_engine.initial_state(_derby_setup(seed))
    colours = [h.colour for h in state.setup.horses]
    return [
        ("referee", DerbyBet(0, colours.index(x.colour))),
        ("referee", PlayCard(0, colours.index(x.colour), x)),
        ("referee", PlayCard(1, colours.index(y.colour), y)),
    ]


def derby_start() -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        document("derby", _derby_setup(DERBY_SEED_A).to_dict(), []),
        document("derby", _derby_setup(DERBY_SEED_B).to_dict(), []),
    )


def derby_played() -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        document("derby", _derby_setup(DERBY_SEED_A).to_dict(), _derby_steps(DERBY_SEED_A)),
        document("derby", _derby_setup(DERBY_SEED_B).to_dict(), _derby_steps(DERBY_SEED_B)),
    )


def _seed_literals(seed: int) -> tuple[str, ...]:
    return (str(seed), f"{seed:x}", f"{seed:,}")


# --- Rally simulation: hands, pile, discards and seed -------------------------------------------

RALLY_SEED_A = 0x7A11_E5EC_2E7_0000_0000_0000_0000_00B2


def _rally_setup(seed: int) -> RallySetup:
    base = RallySetup.default(["Aki", "Ben"], mode="simulation", seed=seed)
    ben = replace(base.players[1], machine=replace(base.players[1].machine, hand=2))
    return replace(base, players=(base.players[0], ben))


def _rally_turn(seed: int, card: str | None) -> list[Step]:
    """Aki draws, drives one ``card`` (the same card in both sides) and throws down what is
    over the hand size: which card is Aki's secret."""
    game = games()["rally"]
    state = game.initial_state(_rally_setup(seed))
    steps: list[Step] = [("seat:0", Draw(0))]
    state = game.apply(state, Draw(0), Role.seat_of(0))
    if card is not None:
        reach = rally_engine.reachable(state, 0, rally_engine.travel_km([card]))
        town = max(sorted(reach), key=lambda t: reach[t])  # the farthest it can stop at
        travel = Travel(0, (card,), town)
        steps.append(("seat:0", travel))
        state = game.apply(state, travel, Role.seat_of(0))
    excess = rally_engine.must_discard(state, 0)
    end = EndTurn(0, tuple(state.hands[0][:excess]))
    steps.append(("seat:0", end))
    return steps


def _rally_travel_card(seed: int) -> str | None:
    game = games()["rally"]
    state = game.apply(game.initial_state(_rally_setup(seed)), Draw(0), Role.seat_of(0))
    travel = sorted({c for c in state.hands[0] if c.isdigit()}, key=int)
    return travel[-1] if travel else None


def _rally_seed_b() -> int:
    """A second seed dealing Ben (hand size 2) the same two cards and Aki a different hand
    that still holds the travel card Aki drives in side A, and another card to throw down."""
    first = rally_engine.initial_state(_rally_setup(RALLY_SEED_A))
    card = _rally_travel_card(RALLY_SEED_A)
    rng = random.Random(18)
    for _ in range(200_000):
        seed = rng.getrandbits(128)
        state = rally_engine.initial_state(_rally_setup(seed))
        if state.hands[1] != first.hands[1] or state.hands[0] == first.hands[0]:
            continue
        drawn = games()["rally"].apply(state, Draw(0), Role.seat_of(0))
        if card is not None and card not in drawn.hands[0]:
            continue
        if _rally_turn(seed, card)[-1] != _rally_turn(RALLY_SEED_A, card)[-1]:
            return seed  # and Aki throws down another card
    raise AssertionError("no second Rally seed found")


RALLY_SEED_B = _rally_seed_b()


def rally_turn() -> tuple[dict[str, Any], dict[str, Any]]:
    card = _rally_travel_card(RALLY_SEED_A)
    a = _rally_turn(RALLY_SEED_A, card)
    b = _rally_turn(RALLY_SEED_B, card)
    assert a[:-1] == b[:-1] and a[-1] != b[-1], "only the discard (and the deal) may differ"
    return (
        document("rally", _rally_setup(RALLY_SEED_A).to_dict(), a),
        document("rally", _rally_setup(RALLY_SEED_B).to_dict(), b),
    )


def rally_start() -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        document("rally", _rally_setup(RALLY_SEED_A).to_dict(), []),
        document("rally", _rally_setup(RALLY_SEED_B).to_dict(), []),
    )


# --- Sealed Sprint (the tests' fake game): a simultaneous secret choice ------------------------


def _sprint(speed: int) -> list[Step]:
    """Round 1 played and revealed; in round 2 Aki (seat 0) and Chie have committed."""
    return [
        ("seat:0", Commit(0, 2, 1)),
        ("seat:1", Commit(1, 1, 1)),
        ("seat:2", Commit(2, 3, 1)),
        ("referee", Roll(4)),
        ("seat:2", Commit(2, 2, 2)),
        ("seat:0", Commit(0, speed, 2)),
    ]


def sprint_commit() -> tuple[dict[str, Any], dict[str, Any]]:
    setup = {"names": ["Aki", "Ben", "Chie"], "goal": 10}
    return document("sprint", setup, _sprint(1)), document("sprint", setup, _sprint(3))


# --- the scenarios -------------------------------------------------------------------------------

SCENARIOS = (
    Scenario(
        "gn-blind-bets",
        "gn",
        gn_blind_bets,
        ("viewer", "seat:1", "referee"),
        (_money(STAKE_A), _money(STAKE_B)),
        "a sealed blind bet while the others still write theirs",
    ),
    Scenario(
        "gn-undone",
        "gn",
        gn_undone,
        ("viewer", "seat:1", "referee"),
        (_money(STAKE_A), _money(STAKE_B)),
        "a blind bet undone by the referee and written again",
    ),
    Scenario(
        "gn-market",
        "gn",
        gn_market,
        ("viewer", "seat:1", "seat:2", "referee"),  # seat 2 keeps the book
        (_money(STAKE_A), ()),
        "a blind bet against none, with the market open",
    ),
    Scenario(
        "gn-race",
        "gn",
        gn_race,
        ("viewer", "seat:1", "referee"),
        (_money(STAKE_A), ()),
        "a blind bet against none, in the race before settlement",
    ),
    Scenario(
        "ekiden-rosters",
        "ekiden",
        ekiden_rosters,
        ("viewer", "seat:1"),
        EKIDEN_LITERALS,
        "team 0's drafted roster, leg 1 run with the runner both share",
    ),
    Scenario(
        "ekiden-ben-to-run",
        "ekiden",
        ekiden_ben_to_run,
        ("viewer", "seat:1"),
        EKIDEN_LITERALS,
        "leg 2 under way, Ben's team to play a runner from its own roster",
    ),
    Scenario(
        "ekiden-undone",
        "ekiden",
        ekiden_undone,
        ("viewer", "seat:1"),
        EKIDEN_LITERALS,
        "team 0's roster undone by the referee",
    ),
    Scenario(
        "derby-sim-start",
        "derby",
        derby_start,
        ("viewer",),
        (_seed_literals(DERBY_SEED_A), _seed_literals(DERBY_SEED_B)),
        "a simulation's seed, hands and deck before anyone moves",
        "referee",
    ),
    Scenario(
        "derby-sim-played",
        "derby",
        derby_played,
        ("viewer",),
        (_seed_literals(DERBY_SEED_A), _seed_literals(DERBY_SEED_B)),
        "a simulation after a bet and two cards both deals held",
        "referee",
    ),
    Scenario(
        "rally-sim-start",
        "rally",
        rally_start,
        ("viewer", "seat:1"),
        (_seed_literals(RALLY_SEED_A), _seed_literals(RALLY_SEED_B)),
        "a simulation's seed, pile and Aki's hand before anyone moves",
    ),
    Scenario(
        "rally-sim-turn",
        "rally",
        rally_turn,
        ("viewer", "seat:1"),
        (_seed_literals(RALLY_SEED_A), _seed_literals(RALLY_SEED_B)),
        "Aki's first turn: a draw, a drive and a secret discard",
    ),
    Scenario(
        "sprint-commit",
        "sprint",
        sprint_commit,
        ("viewer", "seat:1", "referee"),
        ((), ()),
        "a sealed simultaneous commit (the fake game)",
    ),
)

BY_NAME = {s.name: s for s in SCENARIOS}
CASES = [(s.name, role) for s in SCENARIOS for role in s.roles]
