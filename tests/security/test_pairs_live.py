"""The attacker's test for the live view (issue 27 §1 "exactly the viewer's filtered view"): for
every pair of tables that differ only in a secret the viewer may not see (a sealed blind bet,
an Ekiden roster, a dealt hand, a seed…), everything a phone can fetch from ``/live/`` — the
page, the event stream's first screen and a step's message, in both languages, with the
chances — is byte for byte the same for the two tables and holds none of the secret's values.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from aids.live.hub import Hub
from aids.tables.chances import ChanceService
from tests.live.conftest import app_of, asgi_get
from tests.security.artefacts import wait_for_chances
from tests.security.pairs import PUBLIC_ID, SCENARIOS, Pair
from tests.security.test_pairs_service import assert_hidden

VIEWER_SECRETS = [s.name for s in SCENARIOS if "viewer" in s.roles]


async def everything(pair: Pair, side: int, lang: str) -> str:
    """All a phone can fetch from one side's live view in ``lang``, the figures in."""
    tables = pair.services[side]
    # the figures computed in a thread (as the pair test of the chances does), and in before
    # the page is drawn: both sides show the same position's figures
    pool = ThreadPoolExecutor(1)
    chances = ChanceService(tables, executor=pool, playouts=40, budget=100000.0)
    if chances.supported(pair.kind):
        seq = tables.seq(PUBLIC_ID)
        chances.latest(PUBLIC_ID)
        assert await asyncio.to_thread(wait_for_chances, lambda: chances.ready(PUBLIC_ID, seq))
    app = app_of(Hub(lambda: tables, lambda: chances))
    page = await asgi_get(app, f"/live/{PUBLIC_ID}?lang={lang}")
    stream = await asgi_get(app, f"/live/{PUBLIC_ID}/events?lang={lang}", chunks=2)
    held = await asgi_get(
        app, f"/live/{PUBLIC_ID}/events?lang={lang}", {"Last-Event-ID": "0.-1." + lang}, chunks=2
    )
    assert page.status == stream.status == 200
    pool.shutdown()
    # the drawing's time differs from run to run: the rest must not
    text = page.text.split('data-drawn="')[0] + page.text.split('data-drawn="')[1].split('"', 1)[1]
    return "\n".join((text, stream.text, held.text))


@pytest.mark.parametrize("name", VIEWER_SECRETS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_live_view_never_holds_a_secret_the_viewer_may_not_see(
    pair_of: Callable[[str], Pair], name: str, lang: str
) -> None:
    pair = pair_of(name)
    seen = [asyncio.run(everything(pair, side, lang)) for side in (0, 1)]
    assert seen[0] == seen[1], f"{name}: the live view tells the two tables apart"
    for side, literals in enumerate(pair.scenario.literals):
        assert_hidden(seen[side], literals, f"{name} live view ({lang})")
