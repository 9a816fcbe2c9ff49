"""The benchmarks' referee: a second device that records legal actions on one table through the
table service, from the benchmark's own process, so that the trackers see each write only
through the store, as a viewer's page does (``aids.bench.crowd``, ``aids.bench.figures``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from aids.games.base import REFEREE, AnyGame, Role
from aids.registry import engines
from aids.store import open_store
from aids.tables import TableService

PLAYERS = ["Aki", "Ben", "Chie", "Dai"]


class Referee:
    """Writes legal actions to one table through the table service (another device than the
    server). A Derby is a simulation (its hands dealt from a seed) played with the simulator's
    random legal actions; another game plays random ``legal_actions`` of the game contract.
    Once the game is over, the referee undoes and redoes the last action in turn: still a
    write every viewer must show, on the same table."""

    def __init__(self, db: Path | str, kind: str, seed: int) -> None:
        self.service = TableService(open_store(str(db)), engines())
        self.game: AnyGame = self.service.game(kind)
        self.rng = random.Random(seed)
        if kind == "derby":
            from aids.games.derby.model import DerbySetup

            seed = _longest_derby(len(PLAYERS))
            setup: Any = DerbySetup.default(PLAYERS, mode="simulation", seed=seed)
        else:
            low, high = self.game.info.seats
            setup = self.game.default_setup(PLAYERS[: max(low, min(high, 4))], "en")
        info, self.key = self.service.create(kind, "Crowd", self.game.setup_to_dict(setup))
        self.public_id = info.public_id
        self.state = self.game.initial_state(setup)
        self.seq = 0
        self.undone = False
        self.seat_keys: dict[Role, str] = {}

    def write(self) -> int:
        """One write; returns the sequence number it made."""
        if not self.game.is_over(self.state):
            action = _next_action(self.game, self.state, self.rng)
            key, actor = self.key_for(action)
            self.service.record(self.public_id, key, self.seq, action)
            self.state = self.game.apply(self.state, action, actor)
        elif self.undone:
            self.service.redo(self.public_id, self.key, self.seq)
            self.undone = False
        else:
            self.service.undo(self.public_id, self.key, self.seq)
            self.undone = True
        self.seq += 1
        return self.seq

    def key_for(self, action: Any) -> tuple[str, Role]:
        """The key that may record ``action`` and whose it is: a seat's own (issued on first
        use) for a secret choice such as a blind bet, else the referee's."""
        actor = self.game.actor_of(action)
        if actor.kind != "seat" or self.game.may_act(self.state, action, REFEREE):
            return self.key, REFEREE
        if actor not in self.seat_keys:
            self.seat_keys[actor] = self.service.rotate_key(self.public_id, self.key, actor)
        return self.seat_keys[actor], actor

    def close(self) -> None:
        self.service.store.close()


def _next_action(game: AnyGame, state: Any, rng: random.Random) -> Any:
    if game.info.kind == "derby":
        from aids.games.derby.simulate import random_action

        return random_action(state, rng)
    options = [
        action
        for actor in sorted(game.to_move(state), key=str)
        for action in game.legal_actions(state, actor)
    ]
    if not options:
        raise RuntimeError(f"{game.info.kind}: no legal action to record")
    return rng.choice(options)


def _longest_derby(players: int, seeds: int = 40) -> int:
    """The seed of the longest random race of ``seeds`` (a race lasts the whole run more often)."""
    from aids.games.derby import engine
    from aids.games.derby.model import DerbySetup
    from aids.games.derby.simulate import play_out

    def length(seed: int) -> int:
        setup = DerbySetup.default(PLAYERS[:players], mode="simulation", seed=seed)
        return len(play_out(engine.initial_state(setup), random.Random(seed))[1])

    return max(range(seeds), key=length)
