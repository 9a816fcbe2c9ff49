"""The accuracy campaign of issue 21: on at least 300 generated photos (turned up to 30°, in
perspective, unevenly lit, shadowed, blurred, noisy, JPEG-compressed, at phone sizes), at
least 99.5 % of fields read right and no wrong value is accepted without a flag."""

from __future__ import annotations

from collections import Counter

from aids.bench.slip_photos import EVENT, FULL, PHONE, SMALL, photo, specs
from aids.scan import Mark, read_slip

CAMPAIGN = [(seed, SMALL) for seed in range(300)] + [(300 + s, PHONE) for s in range(6)]
CAMPAIGN += [(400 + s, FULL) for s in range(2)]


def test_fields_read_right_and_no_wrong_value_unflagged() -> None:
    counts: Counter[str] = Counter()
    taken: dict[str, list[float]] = {}
    slips = specs()
    for seed, size in CAMPAIGN:
        spec = slips[seed % len(slips)]
        shot = photo(spec, seed, size=size)
        reading = read_slip(shot.jpeg, expected_event=EVENT)
        assert reading.table_id == spec.table_id
        counts["photos"] += 1
        counts.update(n for n in shot.notes if n in ("partial", "scribble", "correct"))
        counts["shadowed"] += "shadow" in shot.taken
        for item in shot.taken:
            name, _, number = item.partition(" ")
            if number:
                taken.setdefault(name, []).append(float(number))
        for field in reading.fields:
            mark, value = shot.truth[(field.player, field.field)]
            counts["fields"] += 1
            counts[f"truth {mark.value}"] += 1
            if field.status is mark and field.value == value:
                counts["right"] += 1
            elif field.status is not Mark.VALUE:
                counts["flagged, not right"] += 1
            else:
                counts["wrong value unflagged"] += 1
            counts["flagged"] += field.flagged
    share = counts["right"] / counts["fields"]
    ranges = {k: f"{min(v):g}-{max(v):g}" for k, v in taken.items()}
    print(f"\ncampaign: {dict(counts)}; right {share:.4%}; ranges {ranges}")
    assert counts["photos"] >= 300
    assert counts["wrong value unflagged"] == 0
    assert share >= 0.995
