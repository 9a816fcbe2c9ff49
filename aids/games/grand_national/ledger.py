"""Grand National's money: each party's balance on the ledger, a seat's cash and what it may
still stake, the most another may stake for it while its blind bet is sealed, and the
settlement at the end (prize money, then every bet). Used by
``aids.games.grand_national.engine``, which offers every name here under its own too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from aids.core.errors import RuleViolation
from aids.games.grand_national.data import load
from aids.games.grand_national.model import BANK, HELD, SEALED, Bet, GnState, Line, Wager


def balance(ledger: Sequence[Line], party: int) -> int:
    """What the ledger's lines brought ``party`` less what they took from it."""
    return sum(line.amount for line in ledger if line.to == party) - sum(
        line.amount for line in ledger if line.frm == party
    )


def cash(state: GnState, seat: int) -> int:
    """A seat's money on the ledger (a sealed blind stake is not on it until settlement)."""
    return balance(state.ledger, seat)


def available(state: GnState, seat: int) -> int:
    """What a seat may still stake: its cash less its own blind stake set aside."""
    blind = state.blind[seat]
    held = blind.stake if blind is not None and blind is not SEALED and blind.stake > 0 else 0
    return cash(state, seat) - (0 if state.settled else held)


def entry_limit(state: GnState, seat: int) -> int:
    """The most someone else (the referee) may stake for ``seat``: its cash, less the blind
    bet's maximum while a blind bet is sealed — the real stake must not show through."""
    sealed = state.blind[seat] is not None and not state.settled
    return max(0, cash(state, seat) - (load().blind_max if sealed else 0))


def check_bet_for_another(state: GnState, action: Bet) -> None:
    """Refuse a bet for ``action.seat`` entered by someone else above ``entry_limit``."""
    if 0 <= action.seat < state.seats and action.stake > entry_limit(state, action.seat):
        raise RuleViolation("gn/cash_sealed", most=f"{entry_limit(state, action.seat):,}")


def settle(state: GnState) -> GnState:
    """Prize money to the owners of 1st–4th, then every bet (blind bets at the reserve-price
    table's odds): Win pays on 1st, Show on 1st–3rd, stake × odds + stake."""
    d = load()
    ledger = list(state.ledger)
    for place, h in enumerate(state.placed):
        ledger.append(Line(BANK, state.owner(h), d.prizes[place], "prize", h))
    wagers = list(state.wagers)
    for b in state.blind:
        if b is not None and b is not SEALED and b.stake > 0 and b.horse is not None and b.kind:
            odds = d.odds[state.setup.horse(b.horse).price][0 if b.kind == "win" else 1]
            wagers.append(Wager(b.seat, b.horse, b.kind, b.stake, odds, blind=True))
            ledger.append(Line(b.seat, HELD, b.stake, "blind", b.horse))
    places = {h: i + 1 for i, h in enumerate(state.placed)}
    for w in wagers:
        at = places.get(w.horse)
        won = at is not None and (at == 1 if w.kind == "win" else at <= d.show_places)
        if won:
            ledger.append(Line(HELD, w.seat, w.stake, "stake_back", w.horse))
            ledger.append(Line(BANK, w.seat, w.odds.returns(w.stake) - w.stake, "payout", w.horse))
        else:
            ledger.append(Line(HELD, BANK, w.stake, "lost", w.horse))
    return replace(state, wagers=tuple(wagers), ledger=tuple(ledger), settled=True)
