"""The accuracy campaign of issues 21 and 26: on generated photos (turned up to 30°, in
perspective, unevenly lit, shadowed, blurred, noisy, JPEG-compressed, at phone sizes), with
light pencil and hurried fills in a quarter of the rows and Ekiden columns below zero, and
on slips bowed 5-15 mm seen at a slant of 20-45° (photos of a phone's size): over all photos
at least 99.5 % of fields read right (a photo refused counts all its fields as not read)
and no wrong value is accepted without a flag, the bent slips included (counted apart too:
at least 98.5 % of theirs read right)."""

from __future__ import annotations

from collections import Counter

from aids.bench.slip_photos import EVENT, FULL, PHONE, SMALL, photo, specs
from aids.scan import Mark, PhotoRefused, read_slip

HAND = 0.25  # of the rows filled in light pencil or in a hurry
CAMPAIGN = [(seed, SMALL, False) for seed in range(300)] + [(300 + s, PHONE, False)
                                                           for s in range(6)]  # fmt: skip
CAMPAIGN += [(400 + s, FULL, False) for s in range(2)]
# bent slips at a phone's size at least: at a 45° slant a 900 × 1200 picture leaves the far
# QR code's modules under 1.5 px (unreadable, and no phone takes so small a photo)
CAMPAIGN += [(500 + s, PHONE, True) for s in range(100)] + [(600, FULL, True)]


def test_fields_read_right_and_no_wrong_value_unflagged() -> None:
    counts: Counter[str] = Counter()
    taken: dict[str, list[float]] = {}
    slips = specs()
    for seed, size, bent in CAMPAIGN:
        spec = slips[seed % len(slips)]
        shot = photo(spec, seed, size=size, hand=HAND, bent=bent)
        kind = "bent" if bent else "flat"
        counts[f"{kind} photos"] += 1
        try:
            reading = read_slip(shot.jpeg, expected_event=EVENT)
        except PhotoRefused as refused:  # every field of it counts as not read right
            counts[f"{kind} refused {refused.code}"] += 1
            counts[f"{kind} fields"] += len(shot.truth)
            print(f"refused: seed {seed} {size} {refused.code} {shot.taken}")
            continue
        assert reading.table_id == spec.table_id
        counts.update(n for n in shot.notes if n in ("partial", "pencil", "hurried", "correct"))
        counts["shadowed"] += "shadow" in shot.taken
        for item in shot.taken:
            name, _, number = item.partition(" ")
            if number:
                taken.setdefault(name, []).append(float(number))
        for field in reading.fields:
            mark, value = shot.truth[(field.player, field.field)]
            counts[f"{kind} fields"] += 1
            counts["negative"] += mark is Mark.VALUE and value is not None and value < 0
            if field.status is mark and field.value == value:
                counts[f"{kind} right"] += 1
            elif field.status is not Mark.VALUE:
                counts[f"{kind} flagged, not right"] += 1
            else:
                counts[f"{kind} wrong value unflagged"] += 1
            counts[f"{kind} flagged"] += field.flagged
    ranges = {k: f"{min(v):g}-{max(v):g}" for k, v in taken.items()}
    shares = {k: counts[f"{k} right"] / counts[f"{k} fields"] for k in ("flat", "bent")}
    right = (counts["flat right"] + counts["bent right"]) / (
        counts["flat fields"] + counts["bent fields"]
    )
    print(f"\ncampaign: {dict(counts)}; right {right:.4%} {shares}; ranges {ranges}")
    assert counts["flat photos"] >= 300 and counts["bent photos"] >= 100
    assert counts["pencil"] > 0 and counts["hurried"] > 0 and counts["negative"] > 0
    assert counts["flat wrong value unflagged"] == counts["bent wrong value unflagged"] == 0
    assert right >= 0.995 and shares["bent"] >= 0.985
