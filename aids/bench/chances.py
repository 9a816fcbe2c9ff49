"""The live chances of every game against issue 20's target: the figures a page shows have a
95 % half-width of at most ±1 % (±1 % of the start money for expected money, ±0.05 places
for an expected place) within one second warm on one core, at the start, mid-game and late
positions of a typical table.

Run with ``python -m aids.bench.chances`` (``aids bench`` prints the Derby's line). For each
game and position it prints the playouts one second gives, the widest half-width of each
kind of figure against its target, and the playouts per second against a plain loop over
the engine's own ``legal_actions``/``apply`` from the same position under the same model,
measured in the same run — the ratio is what to compare between runs on these shared
machines. Where the model's players are uniformly random (the Derby, the Ekiden) the plain
loop plays uniformly among the legal actions from the referee's state (every card known;
"does not finish" where uniform play never ends a game in time); where they are not (the
rally's greedy driver, the Grand National's riders) it is the model's own reference playout
on the engine (``engine_playout``: the same deal and choices through ``legal_actions`` and
``apply``, which the fast path is checked against).

Positions come from one seeded random game per table (uniform legal actions, the referee
recording): the start, the middle and 85 % of the way through its log, seen as every player
sees them (the viewer's history of states).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aids.games.base import REFEREE, VIEWER, AnyGame, Role
from aids.games.chances import Estimate, estimate
from aids.games.grand_national.data import load as gn_data
from aids.registry import engines

SECONDS = 1.0
TARGET_PROBABILITY = 0.01  # ±1 percentage point
TARGET_RANK = 0.05  # ±0.05 places
TARGET_MONEY_SHARE = 0.01  # ±1 % of the start money
MAX_STEPS = 600  # a random game for the positions that runs longer is cut there (a rally)
PLAIN_STEPS = 3_000  # a plain-loop game that runs longer is not counted as finished
PHASES = {"start": 0.0, "mid": 0.5, "late": 0.85}


@dataclass(frozen=True, slots=True)
class Table:
    """A typical table of one game: its kind, a label, its setup as a dict."""

    kind: str
    label: str
    setup: dict[str, Any]
    money: float = 0.0  # the start money per seat, where the figures include money


def typical_tables(games: dict[str, AnyGame]) -> list[Table]:
    """Derby 4 players; Ekiden 5 teams; Rally 6 cars on the sample map, tracking and
    simulation; Grand National 4 stables (16 horses)."""
    names4 = ["Aki", "Ben", "Chie", "Dai"]
    names5, names6 = [*names4, "Emi"], [*names4, "Emi", "Fumi"]

    def setup(kind: str, names: list[str], **changes: Any) -> dict[str, Any]:
        game = games[kind]
        raw = game.setup_to_dict(game.default_setup(names, "en"))
        raw.update(changes)
        return raw

    gn = setup("gn", names4)
    start_money = float(gn_data().start_cash)
    return [
        Table("derby", "Derby, 4 players", setup("derby", names4)),
        Table("ekiden", "Ekiden, 5 teams", setup("ekiden", names5)),
        Table("rally", "Rally, 6 cars, tracking", setup("rally", names6, mode="tracking")),
        Table(
            "rally",
            "Rally, 6 cars, simulation",
            setup("rally", names6, mode="simulation", seed=11),
        ),
        Table("gn", "Grand National, 4 stables", gn, start_money),
    ]


def recorder(actor: Role) -> Role:
    """Who records an actor's action: a seat its own secret choices, the referee the rest
    (chance's spins and cards too)."""
    return actor if actor.kind == "seat" else REFEREE


def step(game: AnyGame, state: Any, movers: list[Role], rng: random.Random) -> Any | None:
    """A uniformly random mover's uniformly random legal action applied (None if nobody
    has one). An action that ends the game by someone's choice (the referee's "end the race
    now") is taken only when nothing else is legal: a race is played, not stopped."""
    rng.shuffle(movers)
    fallback = None
    for actor in movers:
        options = list(game.legal_actions(state, actor))
        rng.shuffle(options)
        for action in options:
            following = game.apply(state, action, recorder(actor))
            if not game.is_over(following) or not _by_choice(action):
                return following
            fallback = following
    return fallback


def _by_choice(action: Any) -> bool:
    return type(action).__name__ in {"EndRace", "NoCardsLeft", "PullUp"}


def random_game(game: AnyGame, setup: dict[str, Any], seed: int) -> list[Any]:
    """The referee's states of one seeded random game (uniform legal actions)."""
    rng = random.Random(seed)
    state = game.initial_state(game.setup_from_dict(setup))
    states = [state]
    for _ in range(MAX_STEPS):
        movers = sorted(game.to_move(state), key=str)
        if not movers:
            break
        following = step(game, state, movers, rng)
        if following is None:
            break
        state = following
        states.append(state)
    return states


def plain_per_second(game: AnyGame, state: Any, seconds: float, seed: int = 5) -> float | None:
    """Random games per second from ``state`` through the engine's own calls alone; None
    where uniform random play does not finish games (a rally car wandering the map)."""
    rng = random.Random(seed)
    finished, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        current = state
        for _ in range(PLAIN_STEPS):
            if time.perf_counter() - began > seconds:
                break  # a game cut by the clock is not counted
            movers = sorted(game.to_move(current), key=str)
            following = step(game, current, movers, rng) if movers else None
            if following is None:
                finished += 1
                break
            current = following
    if finished < 3:
        return None
    return finished / (time.perf_counter() - began)


def model_per_second(model: Any, state: Any, seconds: float, seed: int = 5) -> float | None:
    """Games per second of the model's own playouts on the engine (its choices through
    ``legal_actions``/``apply``), where the model keeps that plain reference
    (``engine_playout``: a model whose players are not uniformly random); else None."""
    reference = getattr(model, "engine_playout", None)
    if reference is None:
        return None
    rng = random.Random(seed)
    finished, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds or finished < 3:
        reference(state, rng)
        finished += 1
    return finished / (time.perf_counter() - began)


def widest(result: Estimate, money: float) -> dict[str, float]:
    """The widest half-width of each kind of figure, as a share of its target (1 = met)."""
    out: dict[str, float] = {}
    for measure, error in zip(result.measures, result.errors, strict=True):
        if measure.kind == "probability":
            share = error / TARGET_PROBABILITY
        elif measure.kind == "rank":
            share = error / TARGET_RANK
        elif money:
            share = error / (TARGET_MONEY_SHARE * money)
        else:
            continue  # points: no target of their own
        out[measure.kind] = max(out.get(measure.kind, 0.0), share)
    return out


def bench_table(game: AnyGame, table: Table, seconds: float, seed: int) -> list[dict[str, Any]]:
    states = random_game(game, table.setup, seed)
    rows = []
    for phase, share in PHASES.items():
        end = max(1, round(share * (len(states) - 1)) + 1)
        history = [game.view(s, VIEWER) for s in states[:end]]
        model = game.chances(history)
        if model is None:
            return []
        estimate(model, history[-1], playouts=200, budget=seconds, exact=False)  # warm
        result = estimate(model, history[-1], playouts=10**7, budget=seconds, exact=False)
        pace = result.playouts / max(result.seconds, 1e-9)
        on_engine = model_per_second(model, history[-1], seconds)
        plain = on_engine or plain_per_second(game, states[end - 1], seconds)
        rows.append(
            {
                "table": table.label,
                "phase": phase,
                "step": end - 1,
                "playouts": result.playouts,
                "per_second": pace,
                "plain_per_second": plain,
                "ratio": pace / plain if plain else None,
                "baseline": "model" if on_engine else "uniform",
                "of_target": widest(result, table.money),
            }
        )
    return rows


def run(seconds: float = SECONDS, kinds: Sequence[str] = (), seed: int = 3) -> list[dict[str, Any]]:
    games = engines()
    rows: list[dict[str, Any]] = []
    print(
        f"live chances in {seconds:.1f} s (one core): playouts, the widest half-width of each"
        " kind as a share of its target (<= 1.00 meets it), and playouts/s against a plain"
        " engine loop from the same position"
    )
    for table in typical_tables(games):
        if kinds and table.kind not in kinds:
            continue
        for row in bench_table(games[table.kind], table, seconds, seed):
            rows.append(row)
            shares = ", ".join(f"{k} {v:.2f}" for k, v in sorted(row["of_target"].items()))
            plain = row["plain_per_second"]
            loop = "the model on the engine" if row["baseline"] == "model" else "the plain loop"
            versus = (
                f"{row['ratio']:6.1f}× {loop} ({plain:,.0f}/s)"
                if plain
                else "plain loop: random play does not finish"
            )
            print(
                f"{row['table']:<28} {row['phase']:<5} (step {row['step']:>5}) "
                f"{row['playouts']:>8,} playouts  [{shares}]  "
                f"{row['per_second']:>9,.0f}/s = {versus}"
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aids.bench.chances", description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--game", action="append", default=[], help="derby, ekiden, rally, gn")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    rows = run(args.seconds, args.game)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
