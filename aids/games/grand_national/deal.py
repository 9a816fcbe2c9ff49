"""The horse deck as the deal hands it out: each stable slot's stack of reserve prices, the
handicap marks a card may carry, and the preset a set-up form starts each horse from.

The rulebook prints no card list (names, handicaps): what the deck fixes is which prices each
slot is dealt from (``seeds/gn.toml`` ``[deal]``) and that a handicap is 0–7. A set-up form
offers exactly those, so a dealt horse is a tap on its price and a tap on its handicap.
"""

from __future__ import annotations

from dataclasses import dataclass

from aids.games.grand_national.data import load


@dataclass(frozen=True, slots=True)
class SlotChoices:
    """One stable slot's horse card: its cap, the prices of the stack it is dealt from (highest
    first), the handicap marks, and the preset (price, handicap) a form starts from."""

    cap: str
    prices: tuple[int, ...]
    handicaps: tuple[int, ...]
    preset: tuple[int, int]


PRESET_HANDICAP = 3  # the middle of 0–7: the form's start, as the typed grid's


def slot_choices() -> tuple[SlotChoices, ...]:
    """Each slot's choices, slot 1 first: slots 1–3 from their own two-price stack, slot 4
    from all six; the preset price is the stack's middle one (the higher of two).

    >>> [(c.cap, c.prices, c.preset) for c in slot_choices()][:2]
    [('red', (60000, 50000), (60000, 3)), ('black', (40000, 30000), (40000, 3))]
    >>> slot_choices()[3].prices, slot_choices()[3].preset
    ((60000, 50000, 40000, 30000, 20000, 10000), (40000, 3))
    >>> slot_choices()[0].handicaps
    (0, 1, 2, 3, 4, 5, 6, 7)
    """
    d = load()
    marks = tuple(range(d.handicap[0], d.handicap[1] + 1))
    out = []
    for cap, stack in zip(d.caps, d.slot_prices, strict=True):
        prices = tuple(sorted(stack, reverse=True))
        out.append(
            SlotChoices(cap, prices, marks, (prices[(len(prices) - 1) // 2], PRESET_HANDICAP))
        )
    return tuple(out)


def dealt_horse(
    stable: str, slot: int, price: object, handicap: object, name: str = ""
) -> dict[str, object]:
    """A horse as dealt, in the set-up's dict form; an empty ``name`` is the stable's name and
    the slot number (the board's disc, in no language). The price and handicap are passed on
    as entered (a grid cell may hold anything): the set-up checks them, and refuses one left
    unset by its field instead of guessing.

    >>> dealt_horse("Aki", 0, 50000, 6)
    {'name': 'Aki 1', 'price': 50000, 'handicap': 6}
    """
    return {"name": name.strip() or f"{stable} {slot + 1}", "price": price, "handicap": handicap}
