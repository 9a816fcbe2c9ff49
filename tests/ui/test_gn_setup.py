"""Grand National's set-up under AppTest (issue 28 §4): the horses tapped as dealt, each card's
price from its slot's stack and its handicap, make exactly the table the deal says; the typed
grid stays for horses not from the deck."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.core.i18n import t
from aids.games.grand_national import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, ok

STABLES = ["あき", "Ben", "Chie"]
# A real deal: (price, handicap) of each stable's slot 1–4 horse, slot k from stack k.
DEAL = [
    [(50000, 2), (40000, 5), (10000, 7), (60000, 1)],
    [(60000, 3), (30000, 4), (20000, 6), (10000, 0)],
    [(50000, 1), (30000, 3), (10000, 5), (50000, 2)],
]


def new_gn(lang: str, entry: str = "deal") -> AppTest:
    at = new_app(lang=lang)
    at.selectbox(key="new_game").set_value("gn").run()
    if entry != "deal":
        at.segmented_control(key="gn_entry").set_value(entry).run()
    at.text_input(key="new_title").set_value("Aintree night")
    for i, name in enumerate(STABLES):
        at.text_input(key=f"gn_stable_{i}").set_value(name)
    return at


def create(at: AppTest, lang: str) -> AppTest:
    next(b for b in at.button if b.label == t("table.create", lang)).click()
    return ok(at.run())


def test_horses_tapped_as_dealt_make_the_table_the_deal_says(app_db: Path) -> None:
    """Deal rule (stacks by slot, the list price paid): each tapped price and handicap is the
    created horse's, named by its stable and slot, and each stable pays its four prices."""
    at = new_gn("en")
    for s, horses in enumerate(DEAL):
        for slot, (price, mark) in enumerate(horses):
            at.segmented_control(key=f"gn_deal_{s}_{slot}_price").set_value(price)
            at.segmented_control(key=f"gn_deal_{s}_{slot}_handicap").set_value(mark)
    at = create(at, "en")
    store = TableService(SqliteStore(app_db), engines())
    state = store.snapshot(at.query_params["table"]).state
    made = [[(h.price, h.handicap) for h in stable.horses] for stable in state.setup.stables]
    assert made == DEAL
    assert [h.name for h in state.setup.stables[1].horses] == [f"Ben {i}" for i in range(1, 5)]
    paid = [250000 - sum(p for p, _ in horses) for horses in DEAL]
    assert [engine.cash(state, s) for s in range(len(DEAL))] == paid


def test_each_slot_offers_only_its_stacks_prices_in_both_languages(app_db: Path) -> None:
    """Deal rule: slot 1 is dealt from the 60K/50K stack, 2 from 40K/30K, 3 from 20K/10K, 4 from
    all the rest; the handicaps are the card's 0–7, and the choices read as money and marks."""
    for lang in ("ja", "en"):
        at = new_gn(lang)
        offered = [at.segmented_control(key=f"gn_deal_5_{slot}_price").options for slot in range(4)]
        assert offered == [
            ["60K", "50K"],
            ["40K", "30K"],
            ["20K", "10K"],
            ["60K", "50K", "40K", "30K", "20K", "10K"],
        ]
        marks = at.segmented_control(key="gn_deal_0_3_handicap").options
        assert marks == [f"+{m}" for m in range(8)]


def test_the_typed_grid_stays_for_horses_not_from_the_deck(app_db: Path) -> None:
    """House rules: choosing "Type them" shows the grid of names, prices and handicaps instead
    of the deal's buttons, and a table is made from it."""
    at = ok(new_gn("en", "typed"))
    assert not [w for w in at.segmented_control if w.key.startswith("gn_deal_")]
    at = create(at, "en")
    store = TableService(SqliteStore(app_db), engines())
    state = store.snapshot(at.query_params["table"]).state
    assert [h.price for h in state.setup.stables[0].horses] == [60000, 40000, 20000, 30000]
