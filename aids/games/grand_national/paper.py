"""Grand National played on paper: each stable's place and, where the event counts money, its
money at the end and the prize money its horses won, from which the places follow.

The money decides (most money wins; equal money shares a place), so places may be shared,
and where the money is asked the places must be the ones it gives. Money is whole dollars,
never below nothing, at most $9,999,999. The prize money is asked in thousands of dollars
($K, as the horse cards print prices) and checked against the table's own prizes: each of
1st to 4th ($250K, $100K, $50K, $30K) is won by at most one stable, a lower prize is paid
only with every prize above it (fewer than four are paid only when horses ran out), and a
stable's prizes are a sum of the ones it won (``gn/paper_prize``, ``gn/paper_prize_order``).
Money is conserved: what a stable ends with is the cash it kept (never below nothing: no bet
is taken beyond a stable's cash) plus what the bank paid it, prizes first, so it is never
less than its prize money (``gn/paper_money_prize``). What a result alone cannot show (the
prices paid, the bets, which horse placed) is not checked. Each stable began with the start
cash, so its net is what the race gave it (``Outcome.stakes``).

>>> from aids.games.grand_national.model import GnSetup
>>> setup = GnSetup.default(["Aki", "Ben"])
>>> form = paper_form(setup, scored=True)
>>> raw = {"places": [2, 1], "money": [120000, 410500], "prize": [80, 350]}
>>> outcome = paper_outcome(setup, PaperResult.from_dict(raw, form), scored=True)
>>> outcome.ranking, outcome.net
(((1,), (0,)), (-130000, 160500))
>>> prizes_won([80, 350], (250, 100, 50, 30))  # Ben 1st and 2nd, Aki 3rd and 4th
((2, 3), (0, 1))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from aids.core.errors import RuleViolation
from aids.games.base import Outcome, rank_by_score
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import money as dollars
from aids.games.grand_national.model import GnSetup
from aids.games.paper import PaperField, PaperForm, PaperResult, places_follow, ranking_of

MOST_MONEY = 9_999_999
PRIZE_UNIT = 1_000  # the prize field is in $K


def prizes_k() -> tuple[int, ...]:
    """The table's prizes for 1st, 2nd, … in $K."""
    return tuple(p // PRIZE_UNIT for p in load().prizes)


def paper_form(setup: GnSetup, scored: bool) -> PaperForm:
    """Places (shared on equal money) and, ``scored``, each stable's money in dollars and its
    prize money in $K."""
    fields: tuple[PaperField, ...] = ()
    if scored:
        fields = (PaperField("money", 0, MOST_MONEY), PaperField("prize", 0, sum(prizes_k())))
    return PaperForm("gn", tuple(s.name for s in setup.stables), True, fields)


def paper_outcome(setup: GnSetup, result: PaperResult, scored: bool) -> Outcome:
    """The race's ``Outcome``: from the money where it is asked (the prizes checked first,
    then the places against the money: ``paper/places_follow``), else from the places. A
    result stored before the prize was asked has money only: it is read unchecked there."""
    if not scored:
        return Outcome("paper", ranking_of(result.places), ())
    names = tuple(s.name for s in setup.stables)
    money = result.value("money")
    if "prize" in dict(result.values):
        check_prizes(result.value("prize"), money, names)
    ranking = rank_by_score(money)
    places_follow(result.places, ranking, "money", names)
    return Outcome("paper", ranking, money, (load().start_cash,) * len(money))


def check_prizes(prize: Sequence[int], money: Sequence[int], names: Sequence[str]) -> None:
    """The prizes entered are the table's and the money holds them (see the module)."""
    table = prizes_k()
    for seat in range(len(prize)):
        if prizes_won(prize[: seat + 1], table, ordered=False) is None:
            raise RuleViolation("gn/paper_prize", seat=seat + 1, name=names[seat],
                                prize=dollars(prize[seat] * PRIZE_UNIT),
                                prizes=" / ".join(dollars(p * PRIZE_UNIT) for p in table),
                                field=f"prize[{seat}]")  # fmt: skip
    if prizes_won(prize, table) is None:
        shares = prizes_won(prize, table, ordered=False) or ()
        paid = {p for share in shares for p in share}
        missing = min(p for p in range(len(table)) if p not in paid)
        lower = max(paid)
        raise RuleViolation("gn/paper_prize_order", missing=missing + 1, lower=lower + 1,
                            missing_prize=dollars(table[missing] * PRIZE_UNIT),
                            lower_prize=dollars(table[lower] * PRIZE_UNIT),
                            field="prize")  # fmt: skip
    for seat, (won, held) in enumerate(zip(prize, money, strict=True)):
        if held < won * PRIZE_UNIT:
            raise RuleViolation("gn/paper_money_prize", seat=seat + 1, name=names[seat],
                                money=dollars(held), prize=dollars(won * PRIZE_UNIT),
                                field=f"money[{seat}]")  # fmt: skip


def prizes_won(
    prize: Sequence[int], table: Sequence[int], *, ordered: bool = True
) -> tuple[tuple[int, ...], ...] | None:
    """Which places' prizes each seat won (0 = 1st), each place to at most one seat, so that
    every seat's prizes add up to what it entered; ``ordered``: the places paid are 1st to
    some k-th. None if no such share exists."""
    seats = len(prize)
    for owners in itertools.product(range(seats + 1), repeat=len(table)):  # seats = unpaid
        paid = [o < seats for o in owners]
        if ordered and any(b and not a for a, b in itertools.pairwise(paid)):
            continue
        totals = [0] * seats
        for place, owner in enumerate(owners):
            if owner < seats:
                totals[owner] += table[place]
        if totals == list(prize):
            return tuple(tuple(p for p, o in enumerate(owners) if o == s) for s in range(seats))
    return None
