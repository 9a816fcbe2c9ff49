"""The inks of chart lines and chance bars (``aids.games.palette``), issue 28 §2: a piece's own
colour, a pale one edged in a darker ink of the same hue, and inks for what has no colour of
its own that keep clear of the pieces'."""

from __future__ import annotations

import colorsys

from aids.games.palette import line_inks

# the seeds' yellows and white (cars, stables, counters), written out here
PALE = ("#f9a825", "#fdd835", "#f5f5f5")


def hls(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)


def luminance_contrast(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 1.05 / (0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b) + 0.05)


def test_a_pale_piece_keeps_its_colour_and_gets_a_darker_edge_of_its_hue() -> None:
    """Issue 28 §2: "a colour too light to read on white needs a darker outline of the same
    hue": a yellow car's line is its yellow, edged in a dark yellow (not a grey) that reads
    on white; white's edge is a grey."""
    for pale in PALE:
        (ink,) = line_inks([pale])
        assert ink.fill == pale.upper()
        assert ink.edge is not None and luminance_contrast(ink.edge) >= 3, (pale, ink)
        hue, _, sat = hls(pale)
        edge_hue, _, edge_sat = hls(ink.edge)
        if sat > 0.1:
            assert abs(edge_hue - hue) * 360 < 8 and edge_sat > 0.5, (pale, ink.edge)
        else:
            assert edge_sat < 0.1, (pale, ink.edge)
    assert line_inks(["#d32f2f"])[0].edge is None  # a red reads on white as it is


def test_purple_and_pink_keep_their_own_colours() -> None:
    """Issue 28 §2 "purple and pink collide": the Derby's purple and pink horses' inks are
    their own two colours, never one palette ink for both."""
    purple, pink = line_inks(["#6a1b9a", "#d81b60"])
    assert (purple.fill, pink.fill) == ("#6A1B9A", "#D81B60")


def test_a_line_without_a_piece_colour_takes_an_ink_no_piece_has() -> None:
    """Where a piece has no colour of its own (a team of cars), its ink is none of the
    pieces' on the chart and not close to one; the same team in two groups keeps one ink."""
    cars = ["#d32f2f", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00", "#212121"]
    inks = line_inks([*cars, None, None, None], keys=[*range(7), "A", "B", "A"])
    teams = [ink.fill for ink in inks[7:]]
    assert teams[0] == teams[2] != teams[1]
    for team in teams[:2]:
        r, g, b = (int(team[i : i + 2], 16) for i in (1, 3, 5))
        for car in cars:
            cr, cg, cb = (int(car[i : i + 2], 16) for i in (1, 3, 5))
            assert abs(r - cr) + abs(g - cg) + abs(b - cb) > 90, (team, car)
