"""Grand National's standings (issue 19, "At the table", item 1): who leads, in the frame's
one standings table. Before the race the stables rank by cash (the game is won on money);
once the race is on by their best horse (placed first, then the runners in race order), then
cash. Each row: the stable, its cash, its best horse with its place and lengths. The board
no longer repeats the cash line (the ledger stays)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from aids.games.base import Role
from aids.games.grand_national import engine
from aids.games.grand_national.model import BlindBet, GnState
from aids.ui.gn.page import leaders
from tests.games.grand_national.helpers import placed_at, setup, to_market, to_race
from tests.ui.conftest import new_app, ok
from tests.ui.conftest import page_html as html
from tests.ui.test_gn_page import service, short_table


def cash_now(state: GnState) -> list[int]:
    return [engine.cash(state, s) for s in range(state.seats)]


def test_before_the_race_the_stables_rank_by_cash() -> None:
    """Issue 19 item 1: before the start (no race position yet) who leads is who has the
    most money: Ben paid least for his horses (110K, Aki 140K, Chie 170K)."""
    state = to_market()
    lines = leaders(state)
    assert [(x.place, x.seat) for x in lines] == [(1, 1), (2, 0), (3, 2)]
    assert [x.cash for x in lines] == [cash_now(state)[s] for s in (1, 0, 2)]
    assert all(x.horse is None for x in lines)


def test_in_the_race_the_best_horse_leads_then_cash() -> None:
    """Issue 19 item 1: in the race a stable ranks by its best horse's place in the race
    (the prizes dwarf the cash): Chie's Bindaree (h9) 5 clear of Aki's Red Rum (h0) puts
    Chie first, Aki second 5 lengths back; Ben's best (h4) is fourth, behind Aki's Aldaniti,
    and so third of the stables."""
    state = placed_at(to_race(), h9=20, h0=15, h1=14, h4=12)
    lines = leaders(state)
    assert [(x.place, x.seat, x.horse) for x in lines] == [(1, 2, 9), (2, 0, 0), (3, 1, 4)]
    assert [(x.position, x.lengths) for x in lines] == [(1, 5), (2, 5), (4, 8)]


def test_a_placed_horse_outranks_every_runner_and_stables_without_runners_tie() -> None:
    """Issue 19 item 1: a placed horse is ahead of every horse still running; a stable with
    no horse placed or running comes last by cash, and equal cash shares the place."""
    state = placed_at(to_race(), h5=30, h0=10)
    status = ["pulled_up"] * state.horses
    status[5], status[0] = "finished", "running"
    state = replace(state, status=tuple(status), placed=(5,))
    lines = leaders(state)
    assert [(x.place, x.seat, x.horse, x.position) for x in lines][:2] == [
        (1, 1, 5, 1),
        (2, 0, 0, 2),
    ]
    assert (lines[2].place, lines[2].seat, lines[2].horse) == (3, 2, None)


def test_a_sealed_blind_stake_does_not_show_in_the_order() -> None:
    """Issue 19 item 1 with the blind-bet rule (nobody sees a blind bet until settlement):
    the order is the same whether or not a stable wrote a blind stake."""
    plain = to_market()
    staked = engine.initial_state(setup())
    staked = engine.apply(staked, BlindBet(0, 0, "win", 10000))
    staked = to_market(staked)
    assert [(x.place, x.seat, x.cash) for x in leaders(plain)] == [
        (x.place, x.seat, x.cash) for x in leaders(staked)
    ]


def test_the_page_shows_the_standings_and_the_board_no_cash_line(app_db: Path) -> None:
    """Issue 19 item 1: the standings hold each stable with its cash (no cents; the three
    paid alike, so all share 1st), the seat's own row marked "you" on its link; the board's
    duplicate cash line is gone, its ledger kept."""
    store = service(app_db)
    pid, key = short_table(store)
    own = store.rotate_key(pid, key, Role.seat_of(1))
    at = ok(new_app(table=pid, key=own, lang="en"))
    page = html(at)
    table = page.split('class="aids-standings"')[1].split("</table>")[0]
    assert table.count("$100,000") == 3 and "Ben" in table
    assert table.count('<td class="place">1</td>') == 3
    mine = [row for row in table.split("<tr") if 'class="you"' in row]
    assert len(mine) == 1 and "Ben" in mine[0]
    assert not any(m.value.startswith("**Cash**") for m in at.markdown)
    assert any(e.label == "Money ledger" for e in at.expander)
