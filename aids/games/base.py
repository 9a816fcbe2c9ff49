"""The game contract: what every engine gives the table service, the pages and the sheets.

A game is a pure function over immutable state (no Streamlit, ReportLab or storage here):
``apply(state, action, actor) -> new state`` or raise an ``AidsError``. Everything a page,
a sheet or the table service needs to know about a game is asked through this contract, so
the layers above never name a game. Learned from python-chess (one ``Outcome``, value-object
moves), boardgame.io (a filtered view on every read) and OpenSpiel (chance is an actor, several
seats to move = simultaneous secret choices held until all are in).
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from aids.core.errors import InvalidAction
from aids.games.chances import ChanceModel

if TYPE_CHECKING:
    from aids.games.paper import PaperForm, PaperResult

RoleKind = Literal["viewer", "referee", "seat", "chance"]


SEED_BITS = 128  # a simulation's seed deals every hidden card: too many bits to search


def fresh_seed() -> int:
    """A new simulation seed: 128 bits from ``secrets``. From one seat's own hand and first
    draws, a small seed (31 bits, say) is found by search, and with it every hand and the
    pile; 128 bits cannot be.

    >>> 0 <= fresh_seed() < 2**SEED_BITS
    True
    """
    return secrets.randbits(SEED_BITS)


@dataclass(frozen=True, slots=True, order=True)
class Role:
    """Who reads or acts: a viewer, the referee, seat N (0-based), or chance.

    Roles are held through keys (viewer: no key; referee: the referee key; seat N: that seat's
    key). ``chance`` is never held by a key: it is the actor of recorded dice, spins and
    revealed cards, which the referee enters for it.

    >>> Role.parse("seat:2")
    Role(kind='seat', seat=2)
    >>> str(Role.seat_of(0)), str(REFEREE)
    ('seat:0', 'referee')
    """

    kind: RoleKind
    seat: int | None = None

    @classmethod
    def seat_of(cls, index: int) -> Role:
        return cls("seat", index)

    @classmethod
    def parse(cls, text: object) -> Role:
        """``viewer`` / ``referee`` / ``chance`` / ``seat:N``; anything else is refused."""
        if text in ("viewer", "referee", "chance"):
            return cls(text)
        if isinstance(text, str) and text.startswith("seat:"):
            digits = text[5:]
            if digits.isascii() and digits.isdigit() and len(digits) <= 3:
                return cls("seat", int(digits))
        raise InvalidAction("table/role", role=str(text)[:40])

    @property
    def is_referee(self) -> bool:
        return self.kind == "referee"

    @property
    def is_viewer(self) -> bool:
        return self.kind == "viewer"

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


VIEWER = Role("viewer")
REFEREE = Role("referee")
CHANCE = Role("chance")


class Codec(Protocol):
    """A value object with a plain-dict form (setups, actions): ``from_dict(to_dict(x)) == x``."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: one reason, a ranking of seats with ties, each seat's score.

    ``ranking`` lists groups of seats, best first; seats in one group tied. ``scores`` are
    points or money per seat, in seat order; ``stakes`` what each seat held before play
    (money games), so ``net`` is what the game itself gave each. ``reason`` is a message key
    suffix of the game (``<kind>.outcome.<reason>``).

    >>> Outcome("fence5", ((0, 1), (2,)), (7, 7, 0)).winners
    (0, 1)
    """

    reason: str
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    stakes: tuple[int, ...] = ()  # each seat's score before play (a money game's start cash)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    @property
    def net(self) -> tuple[int, ...]:
        """What each seat won in the game: its score less its stake (money games start with
        some; points games from nothing).

        >>> Outcome("settled", ((1,), (0,)), (150, 400), (250, 250)).net
        (-100, 150)
        """
        return tuple(s - (self.stakes[i] if i < len(self.stakes) else 0)
                     for i, s in enumerate(self.scores))  # fmt: skip


def rank_by_score(scores: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by equal score, highest first (equal scores share a place).

    >>> rank_by_score([7, 0, 7])
    ((0, 2), (1,))
    """
    groups: dict[int, list[int]] = {}
    for seat, score in enumerate(scores):
        groups.setdefault(score, []).append(seat)
    return tuple(tuple(groups[s]) for s in sorted(groups, reverse=True))


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static facts about a game, declared once and read by forms, keys, CLI and sheets.

    ``rulings`` are message keys of the decisions taken where the rulebook is silent; the page,
    the sheet and the rule cards all show exactly these. ``seat_keys`` says whether seats have
    private input (and so links of their own); ``rules_versions`` are the versions of the rules
    engine whose logs this code can replay (the last one is used for new tables).
    """

    kind: str
    seats: tuple[int, int]
    rulings: tuple[str, ...] = ()
    simultaneous: bool = False
    hidden: bool = False
    seat_keys: bool = False
    rules_versions: tuple[int, ...] = (1,)
    sheet_orientation: Literal["landscape", "portrait"] = "landscape"

    @property
    def rules_version(self) -> int:
        return self.rules_versions[-1]

    @property
    def name_key(self) -> str:
        return f"{self.kind}.name"


SetupT = TypeVar("SetupT", bound=Codec)
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=Codec)


class Game(ABC, Generic[SetupT, StateT, ActionT]):
    """One game as the app sees it. Subclass it once per game; the registry holds an instance.

    Every method is pure. Errors are ``AidsError`` subclasses by cause (``InvalidAction`` for a
    malformed value, ``RuleViolation`` naming the rule, ``NotYourTurn``, ``GameOver``), each with
    a stable code ``<kind>/<rule>`` and a message in both catalogues.
    """

    info: ClassVar[GameInfo]

    # --- setup ----------------------------------------------------------------------------

    @abstractmethod
    def setup_from_dict(self, raw: object) -> SetupT:
        """Parse and validate a setup (a form, a stored row, an import)."""

    @abstractmethod
    def default_setup(self, names: Sequence[str], lang: str) -> SetupT:
        """A ready-to-play setup for players given by name in seat order (CLI, quick start)."""

    @abstractmethod
    def seat_names(self, setup: SetupT) -> tuple[str, ...]:
        """The names of the seats, in seat order (headers, keys, sheets)."""

    def setup_to_dict(self, setup: SetupT) -> dict[str, Any]:
        return setup.to_dict()

    # --- actions --------------------------------------------------------------------------

    @abstractmethod
    def action_from_dict(self, raw: object) -> ActionT:
        """Parse a submitted or stored action; a malformed one names the field."""

    def action_to_dict(self, action: ActionT) -> dict[str, Any]:
        return action.to_dict()

    @abstractmethod
    def actor_of(self, action: ActionT) -> Role:
        """Who makes ``action``: a seat, the referee, or chance."""

    def may_act(self, state: StateT, action: ActionT, role: Role) -> bool:
        """Whether ``role``'s key may record ``action`` now: by default its actor, or the
        referee for anyone. A game narrows it (a secret only its seat may write) or widens it
        (a seat that also holds a table role, such as a bookmaker) from the state."""
        return role.is_referee or role == self.actor_of(action)

    # --- play -----------------------------------------------------------------------------

    @abstractmethod
    def initial_state(self, setup: SetupT) -> StateT: ...

    def initial_state_for(self, setup: SetupT, rules_version: int) -> StateT:
        """The initial state of a table recorded under ``rules_version`` (one of
        ``info.rules_versions``): a game whose rules changed replays an older table's log by
        the rules it was recorded under. By default every version starts alike."""
        return self.initial_state(setup)

    @abstractmethod
    def to_move(self, state: StateT) -> frozenset[Role]:
        """The actors who may act now; empty once the game is over.

        More than one seat means simultaneous secret choices: each is held hidden (``view``)
        until the last one is in.
        """

    @abstractmethod
    def legal_actions(self, state: StateT, actor: Role) -> Sequence[ActionT]:
        """Every action ``actor`` may take now, for random play and conformance tests.

        Pages ask the game's finer legal-next helpers; this is the complete list.
        """

    @abstractmethod
    def apply(self, state: StateT, action: ActionT, actor: Role) -> StateT:
        """The state after ``action`` submitted by ``actor`` (the role whose key was used).

        Raises and changes nothing when the action is illegal.
        """

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while playing; the one ``Outcome`` once the game is over."""

    def is_over(self, state: StateT) -> bool:
        return self.outcome(state) is not None

    # --- played on paper ------------------------------------------------------------------

    def paper_form(self, setup: SetupT, scored: bool) -> PaperForm | None:
        """What the result of a table of this game played on paper asks (``aids.games.paper``):
        each seat's place and the numbers the game keeps per seat; ``scored``: the event
        counts the game's own score or money, so a game asks for it too where the places do
        not give it. None: this game is not played on paper."""
        return None

    def paper_outcome(self, setup: SetupT, result: PaperResult, scored: bool) -> Outcome:
        """The ``Outcome`` a table would have ended with, from a result checked against
        ``paper_form``, checked now by the game's rules for results (the places follow from
        the points, a score its scoring can make…); raises naming the field."""
        raise InvalidAction("paper/unsupported")

    # --- live chances ---------------------------------------------------------------------

    def chances(self, history: Sequence[StateT]) -> ChanceModel | None:
        """The game's model of chances (``aids.games.chances``) for a position reached through
        ``history`` (the viewer's states from the start), or None if it has none."""
        return None

    # --- what each role may see -----------------------------------------------------------

    def view(self, state: StateT, role: Role) -> StateT:
        """``state`` without what ``role`` may not see (hands, sealed choices)."""
        return state

    def view_action(self, state: StateT, action: ActionT, role: Role) -> ActionT | None:
        """A logged ``action`` as ``role`` may see it in ``state`` (the latest); None = sealed."""
        return action

    # --- words ----------------------------------------------------------------------------

    @abstractmethod
    def describe(self, state: StateT, action: ActionT, lang: str) -> str:
        """One log line for ``action`` in ``lang``, with the table's own names."""

    def in_language(self, state: StateT, lang: str) -> StateT:
        """``state`` with the names the game gave by itself in ``lang``: a table set up on a
        Japanese page and read on an English one says "Red", not "赤", where nobody typed a
        name; a name people typed stays as typed. The state itself by default."""
        return state

    def aftermath(self, before: StateT, after: StateT, lang: str) -> tuple[str, ...]:
        """What an action changed beyond itself, in ``lang``, one short clause each (a horse
        fell, a leg ended, a car arrived): the live view says it after the action's own
        words. Both states are as the reader may see them. None by default."""
        return ()


AnyGame = Game[Any, Any, Any]
