"""The wall (issue 27 §2): an event's standings and every table's game, step, leader and last
action, drawn from what any viewer may see and pushed when any of its tables moves on; and one
table's wall."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path

from aids.bench.referee import Referee
from aids.live.hub import Hub
from aids.meets import MeetService
from aids.tables import TableService
from tests.live.conftest import app_of, asgi_get
from tests.live.test_hub import events, next_chunk


def event_with(
    tables: TableService, referee: Callable[[str], Referee], kinds: list[str]
) -> tuple[MeetService, str, list[Referee]]:
    meets = MeetService(tables)
    info, _key = meets.create("Spring league", "2026-12-06")
    refs = []
    for kind in kinds:
        ref = referee(kind)
        meets.add_table(info.public_id, None, ref.public_id, host=True)
        refs.append(ref)
    return meets, info.public_id, refs


def test_the_wall_shows_every_table_and_follows_each_one(
    tables: TableService, referee: Callable[[str], Referee], db: Path
) -> None:
    """Every table of the event has its card (title, game, step, leader, last action in
    words); a write on any of them reaches the wall as one message with the new card."""
    kinds = ["derby", "ekiden", "rally", "gn", "derby", "rally", "ekiden"]
    meets, meet_id, refs = event_with(tables, referee, kinds)
    for ref in refs:
        for _ in range(3):
            ref.write()
    hub = Hub(lambda: tables, lambda: None, lambda: meets, tick=0.02)
    app = app_of(hub)

    async def run() -> None:
        page = await asgi_get(app, f"/wall/{meet_id}?lang=en")
        assert page.status == 200 and "Spring league" in page.text
        cards = re.findall(r'<article class="card[^"]*" data-i="\d+">(.*?)</article>', page.text)
        assert len(cards) == len(kinds)
        for card, ref in zip(cards, refs, strict=True):
            over = ref.game.is_over(ref.state)
            assert ("finished after step 3" if over else "step 3") in card
            assert ("Won by" if over else "Leading:") in card and 'class="last"' in card
        wall = hub.follow(f"wall:{meet_id}", "ja", None).__aiter__()
        await next_chunk(wall)
        await asyncio.to_thread(refs[2].write)
        body = json.loads(events(await next_chunk(wall))[0]["data"])
        assert "4手目" in body["s"]["tables"] and set(body["s"]) <= {"head", "standings", "tables"}
        await wall.aclose()  # type: ignore[attr-defined]
        one = await asgi_get(app, f"/wall/table/{refs[0].public_id}?lang=ja")
        assert one.status == 200 and 'id="s-board"' in one.text and "3手目" in one.text
        missing = await asgi_get(app, "/wall/NoSuchEvent00000000000000?lang=en")
        assert missing.status == 404

    asyncio.run(run())
