"""The attacker's test, below the pages (issue 18 §1): two tables that differ only in a
secret look identical to every role not entitled to it — its snapshot, the log's lines, the
printed files (byte for byte), the live chances, the exports and every answer to a probing
write — and none of them holds the secret's literal values.

Each scenario (``tests/security/pairs.py``) is imported into two SQLite files under one public
id; the referee, the seats and the viewer hold the same keys in both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from aids import registry
from aids.core.links import referee_url, viewer_url
from aids.games.base import CHANCE, REFEREE, VIEWER, Role
from aids.games.chances import Estimate
from aids.games.ekiden.model import Roster, Run
from aids.games.grand_national import engine as gn_engine
from aids.games.grand_national.model import Bet as GnBet
from aids.games.grand_national.model import BlindBet
from aids.games.rally.data import load as rally_data
from aids.meets.service import MeetService
from aids.print.frame import render_sheet
from aids.print.meet_sheet import render_meet_pack, render_standings
from aids.print.pack import render_pack
from aids.print.report import render_report
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.chances import ChanceService, compute
from tests.fakegame.game import Commit
from tests.security.artefacts import (
    LANGS,
    answer,
    answer_text,
    log_lines,
    pdf_text,
    snapshot_parts,
    wait_for_chances,
)
from tests.security.conftest import BASE_URL
from tests.security.pairs import (
    BEN_ROSTER,
    CASES,
    KEYS,
    MEET_ID,
    ORGANISER_KEY,
    PUBLIC_ID,
    ROSTER_A,
    ROSTER_B,
    SCENARIOS,
    STAKE_A,
    STAKE_B,
    WRONG_KEY,
    MeetPair,
    Pair,
    key_of,
    role_of,
)

SCENARIO_NAMES = [s.name for s in SCENARIOS]

_HASHLIKE = re.compile(r"[0-9a-f]{12,}|data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+")


def assert_hidden(text: str, literals: tuple[str, ...], what: str) -> None:
    """None of the secret's ``literals`` appears in ``text`` (short ones are looked for
    outside hashes and embedded images, where four digits can turn up by chance)."""
    scrubbed = _HASHLIKE.sub(" ", text)
    found = [lit for lit in literals if lit in (text if len(lit) >= 12 else scrubbed)]
    assert not found, f"{what} shows the secret: {found}"


def both(pair: Pair, read: Callable[[TableService], Any]) -> tuple[Any, Any]:
    return read(pair.services[0]), read(pair.services[1])


# --- the pair itself ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_each_pair_differs_in_its_secret_and_its_owner_sees_it(
    pair_of: Callable[[str], Pair], name: str
) -> None:
    """A guard on the method: the two tables really hold different secrets (else every other
    test here would pass for nothing), and the role entitled to the secret sees them differ."""
    pair = pair_of(name)
    stored = both(pair, lambda s: s.export(PUBLIC_ID))
    assert stored[0] != stored[1]
    assert stored[0]["table"]["public_id"] == stored[1]["table"]["public_id"] == PUBLIC_ID
    owner = both(pair, lambda s: s.snapshot(PUBLIC_ID, role_of(pair.scenario.owner)))
    assert (owner[0].state, owner[0].log) != (owner[1].state, owner[1].log)
    viewer = both(pair, lambda s: s.snapshot(PUBLIC_ID, VIEWER))
    assert viewer[0].seq == viewer[1].seq == len(pair.docs[0]["events"])


# --- snapshots and log lines --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "role"), CASES)
def test_a_role_without_the_secret_reads_the_same_snapshot(
    pair_of: Callable[[str], Pair], name: str, role: str
) -> None:
    """State, log (sealed entries and all), history (charts, replay, chances), who moves,
    undo/redo: equal between the two tables, as objects and as text."""
    pair = pair_of(name)
    snaps = both(pair, lambda s: s.snapshot(PUBLIC_ID, role_of(role)))
    parts = [snapshot_parts(s) for s in snaps]
    for part in parts[0]:
        assert parts[0][part] == parts[1][part], f"{role} tells the two apart by {part}"
    for side in (0, 1):
        text = "\n".join(v for k, v in parts[side].items() if k.endswith(".repr"))
        assert_hidden(text, pair.scenario.literals[side], f"{role}'s snapshot")


@pytest.mark.parametrize(("name", "role"), CASES)
def test_a_role_without_the_secret_reads_the_same_log_lines(
    pair_of: Callable[[str], Pair], name: str, role: str
) -> None:
    """Every log line in both languages, as the page, the report and the replay word it."""
    pair = pair_of(name)
    for lang in LANGS:
        lines = tuple(
            log_lines(s, s.snapshot(PUBLIC_ID, role_of(role)), lang) for s in pair.services
        )
        assert lines[0] == lines[1]
        for side in (0, 1):
            assert_hidden("\n".join(lines[side]), pair.scenario.literals[side], "a log line")


# --- printed files ------------------------------------------------------------------------------


def _print(service: TableService, what: str) -> bytes:
    """A printable as the page's buttons make it (``aids.ui.sharing``): always from the
    viewer's snapshot, whoever clicks."""
    snap = service.snapshot(PUBLIC_ID, VIEWER)
    game = service.game(snap.info.kind)
    sheet = registry.sheet_module(snap.info.kind)
    kind, _, lang = what.partition("-")
    if kind == "sheet":
        return render_sheet(sheet, game, snap, BASE_URL, lang, "a4")
    if kind == "pack":
        return render_pack(game, sheet, snap, BASE_URL, (lang, "ja" if lang == "en" else "en"))
    if kind == "report":
        return render_report(game, sheet, snap, BASE_URL, lang, "a4")
    if kind == "seatsheet":  # the referee's sheets with each seat's own link
        links = {
            s: referee_url(BASE_URL, PUBLIC_ID, KEYS[f"seat:{s}"], lang)
            for s in range(len(snap.seats))
        }
        return render_sheet(sheet, game, snap, BASE_URL, lang, "a4", seat_links=links)
    raise AssertionError(what)


PRINTS = ["sheet-en", "sheet-ja", "pack-en", "report-en", "report-ja", "seatsheet-en"]


@pytest.mark.parametrize("what", PRINTS)
@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_printed_files_are_byte_identical(
    pair_of: Callable[[str], Pair], name: str, what: str
) -> None:
    """The score sheet, the game-night pack (sheets and both languages' rule cards), the
    post-game report and the referee's sheets with seat links: the same bytes from both
    tables (ReportLab's invariant mode), and no secret in their text."""
    pair = pair_of(name)
    if what.startswith("seatsheet") and not pair.game.info.seat_keys:
        pytest.skip("no seat links in this game")
    if what.startswith("pack") and name.startswith("sprint"):
        pytest.skip("the fake game has no rule cards to pack")
    files = both(pair, lambda s: _print(s, what))
    assert files[0] == files[1], f"the {what} PDF tells the two tables apart"
    assert_hidden(pdf_text(files[0]), pair.scenario.literals[0], f"the {what} PDF")


# --- live chances -------------------------------------------------------------------------------


def _figures(est: Estimate | None) -> Any:
    if est is None:
        return None
    return (est.measures, est.values, est.errors, est.playouts, est.exact, est.model)


PLAYOUTS = 40  # few, but the same seed and count give the same figures
BUDGET = 1e6  # never reached: the figures depend on the seed and the count alone


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_live_chances_are_the_same(pair_of: Callable[[str], Pair], name: str) -> None:
    """The figures every page shows, from the service the pages ask (its worker replaced by
    a thread; the viewer's history, seeded by the log position), the names they are shown
    under: equal, none naming the secret."""
    pair = pair_of(name)

    def chances(service: TableService) -> Any:
        snap = service.snapshot(PUBLIC_ID, VIEWER)
        with ThreadPoolExecutor(1) as pool:
            worker = ChanceService(service, executor=pool, playouts=PLAYOUTS, budget=BUDGET)
            worker.latest(PUBLIC_ID)  # starts the computation, as a page's first look does
            assert wait_for_chances(lambda: worker.ready(PUBLIC_ID, snap.seq))
            got = worker.latest(PUBLIC_ID)  # as the page's next look draws it
        model = service.game(snap.info.kind).chances(snap.history)
        est = got.estimate
        labels = (
            [model.label(snap.state, m, lang) for m in est.measures for lang in LANGS]
            if est is not None and model is not None
            else []
        )
        again = compute(service.game(snap.info.kind), snap.history, snap.seq, PLAYOUTS, BUDGET)
        assert _figures(again) == _figures(est)  # anyone can recompute a figure
        return got.stale, got.seq, _figures(est), labels

    figures = both(pair, chances)
    assert figures[0] == figures[1]
    assert_hidden(repr(figures[0]), pair.scenario.literals[0], "the chances")


# --- exports ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "role"), CASES)
def test_the_referee_export_refuses_a_role_without_the_secret(
    pair_of: Callable[[str], Pair], name: str, role: str
) -> None:
    """The page's JSON backup (``referee_export``) is refused alike: a viewer or a seat is
    not the referee; a referee the game keeps the secret from (a sealed blind bet, a sealed
    commit) gets ``table/export_sealed``."""
    pair = pair_of(name)
    answers = both(pair, lambda s: answer(lambda: s.referee_export(PUBLIC_ID, key_of(role))))
    assert answers[0] == answers[1]
    assert answers[0][0] == "Forbidden", f"{role} got the table's whole export"
    expected = "table/export_sealed" if role == "referee" else "table/forbidden"
    assert answers[0][1] == expected
    assert_hidden(answer_text(answers[0]), pair.scenario.literals[0], "the refusal")


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_hides_from_says_the_same_for_each_role(pair_of: Callable[[str], Pair], name: str) -> None:
    """The check every export is held to (``TableService.hides_from``) finds the secret for
    each role not entitled to it, in both tables."""
    pair = pair_of(name)
    for role in pair.scenario.roles:
        said = [s.hides_from(PUBLIC_ID, s.export(PUBLIC_ID), role_of(role)) for s in pair.services]
        assert said == [True, True], f"an export would show {role} the secret"


# --- probing writes -----------------------------------------------------------------------------


class DryRun(Exception):
    """Raised instead of appending: the write passed every check."""


class DryRunStore:
    """A store that refuses to append (everything else is the real SQLite store): a probe
    that would succeed shows as accepted and changes nothing."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    def append(self, *args: Any, **kwargs: Any) -> None:
        raise DryRun

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _probes(pair: Pair) -> list[Any]:
    """Writes an attacker would try: every legal action of every actor in either table's
    full state (so the other side's secret-shaped actions too: a card in the other hand, a
    pick from the other roster), the game's own guesses at a secret (``_guesses``), undo and
    redo."""
    game = pair.game
    seen: dict[str, Any] = {}
    for service in pair.services:
        state = service.replay(PUBLIC_ID)
        seats = len(service.snapshot(PUBLIC_ID).seats)
        actions = []
        for actor in (REFEREE, CHANCE, *(Role.seat_of(s) for s in range(seats))):
            legal = list(game.legal_actions(state, actor))
            actions += legal[:: max(1, len(legal) // 60)]  # at most about 60 per actor
        for action in [*actions, *_guesses(pair, state, seats)]:
            raw = action if isinstance(action, dict) else game.action_to_dict(action)
            seen.setdefault(json.dumps(raw, sort_keys=True), raw)
    return [seen[k] for k in sorted(seen)] + ["undo", "redo"]


def _guesses(pair: Pair, state: Any, seats: int) -> list[Any]:
    """Actions shaped by a secret, whoever may make them: stakes for Aki at and around what
    each blind bet would leave, blind bets again; every roster pick of every team and the
    rosters themselves; every card kind played, aimed and thrown down by every seat; every
    sealed speed of every round."""
    if pair.kind == "gn":
        cash, limit = gn_engine.cash(state, 0), gn_engine.entry_limit(state, 0)
        stakes = {1, limit, limit + 1, cash - STAKE_A, cash - STAKE_A + 1, cash, cash + 1}
        bets = [GnBet(0, h, "win", n) for n in sorted(stakes) if n > 0 for h in (0, 11)]
        blind = [
            BlindBet(s, 11, "show", n) for s in range(seats) for n in (1, STAKE_A, STAKE_B, 10001)
        ]
        return [*bets, *blind]
    if pair.kind == "ekiden":
        runs = [Run(t, leg, pick=k) for t in range(seats) for leg in (1, 2, 3) for k in range(11)]
        return [*runs, Roster(0, ROSTER_A), Roster(0, ROSTER_B), Roster(1, BEN_ROSTER)]
    if pair.kind == "rally":
        kinds = sorted({c.key for c in rally_data().cards})
        out: list[Any] = []
        for seat in range(seats):
            for card in kinds:
                out += [
                    {"type": "travel", "seat": seat, "cards": [card], "to": "omiya"},
                    {"type": "attack", "seat": seat, "card": card, "target": 1 - seat},
                    {"type": "defend", "seat": seat, "card": card, "target": seat},
                    {"type": "end_turn", "seat": seat, "discard": [card]},
                ]
        return out
    if pair.kind == "sprint":
        return [Commit(s, v, r) for s in range(seats) for v in range(5) for r in (1, 2, 3)]
    return []


def _try(service: TableService, key: str | None, seq: int, probe: Any) -> tuple[Any, ...]:
    def write() -> Any:
        if probe == "undo":
            return service.undo(PUBLIC_ID, key, seq)
        if probe == "redo":
            return service.redo(PUBLIC_ID, key, seq)
        return service.record(PUBLIC_ID, key, seq, probe)

    try:
        return answer(write)
    except DryRun:
        return ("accepted",)


PROBE_KEYS = [*CASES, *[(s.name, "wrong-key") for s in SCENARIOS]]


@pytest.mark.parametrize(("name", "role"), PROBE_KEYS)
def test_probing_writes_get_the_same_answers(
    pair_of: Callable[[str], Pair], name: str, role: str
) -> None:
    """Each probe, with the role's key, at the current and at a stale position: accepted in
    both or refused in both with the same code and the same words (ja and en), and no
    secret in any message — a sealed stake does not show through the referee's limit."""
    pair = pair_of(name)
    key = WRONG_KEY if role == "wrong-key" else key_of(role)
    dry = tuple(
        TableService(DryRunStore(SqliteStore(db)), pair.services[0].games) for db in pair.dbs
    )
    seq = dry[0].snapshot(PUBLIC_ID).seq
    probes = _probes(pair)
    for at in (seq, seq - 1):
        answers = [[_try(s, key, at, p) for p in probes] for s in dry]
        for probe, a, b in zip(probes, answers[0], answers[1], strict=True):
            assert a == b, f"{role} tells the tables apart by writing {probe}: {a} / {b}"
        for side in (0, 1):
            assert_hidden(answer_text(answers[side]), pair.scenario.literals[side], "an error")
    assert both(pair, lambda s: s.snapshot(PUBLIC_ID).seq) == (seq, seq)  # nothing written


# --- the event ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_the_event_lists_and_standings_are_the_same(
    meet_pair_of: Callable[[str], MeetPair], name: str
) -> None:
    """The event's table list (status line, leaders, the viewer's snapshot) and standings."""
    meets = meet_pair_of(name).services

    def read(m: MeetService) -> Any:
        statuses = m.tables_of(MEET_ID)
        lines = [(s.line(lang), s.to_move(lang)) for s in statuses for lang in LANGS]
        snaps = [snapshot_parts(s.snapshot) for s in statuses]
        return lines, [s.leaders for s in statuses], snaps, m.standings(MEET_ID, statuses)

    a, b = read(meets[0]), read(meets[1])
    assert a == b


@pytest.mark.parametrize("what", ["standings", "pack"])
@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_the_event_sheets_are_byte_identical(
    meet_pair_of: Callable[[str], MeetPair], name: str, what: str
) -> None:
    """The organiser's standings sheet and the event pack (every table's own sheets)."""
    meets = meet_pair_of(name).services

    def render(m: MeetService) -> bytes:
        tables = m.tables_of(MEET_ID)
        args = (m.info(MEET_ID), tables, m.standings(MEET_ID, tables), BASE_URL, "en", "a4")
        return render_standings(*args) if what == "standings" else render_meet_pack(*args)

    files = render(meets[0]), render(meets[1])
    assert files[0] == files[1]
    assert_hidden(pdf_text(files[0]), SCENARIOS[SCENARIO_NAMES.index(name)].literals[0], what)


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_the_organiser_export_refuses_or_is_identical(
    meet_pair_of: Callable[[str], MeetPair], name: str
) -> None:
    """An organiser may add any table it can reach: its export holds only what viewers see,
    so here it is refused alike (``meet/export_hidden``) — never the secret."""
    meets = meet_pair_of(name).services
    answers = [answer(lambda m=m: m.organiser_export(MEET_ID, ORGANISER_KEY)) for m in meets]
    assert answers[0] == answers[1]
    assert answers[0][:2] == ("Forbidden", "meet/export_hidden")
    for m in meets:  # a viewer of the event (no key, a wrong key) is refused too
        for key in (None, WRONG_KEY):
            assert answer(lambda m=m, key=key: m.organiser_export(MEET_ID, key))[0] == "Forbidden"


@pytest.mark.parametrize(("name", "role"), CASES)
def test_an_organiser_probing_with_a_tables_link_gets_the_same_answer(
    meet_pair_of: Callable[[str], MeetPair], name: str, role: str
) -> None:
    """An organiser adding the table again by a link it holds (the viewer's, a seat's, the
    referee's): the same answer from both, and no secret in it."""
    meets = meet_pair_of(name).services
    key = key_of(role)
    link = referee_url(BASE_URL, PUBLIC_ID, key, "en") if key else viewer_url(BASE_URL, PUBLIC_ID)
    answers = [
        answer(lambda m=m: m.add_table(MEET_ID, ORGANISER_KEY, link).public_id) for m in meets
    ]
    assert answers[0] == answers[1]
    assert answers[0][0] != "ok" or answers[0][1] == PUBLIC_ID
    assert_hidden(answer_text(answers[0]), meet_pair_of(name).pair.scenario.literals[0], "it")
