"""The wall: an event on a TV or a projector (1920 × 1080, read from five metres away): the
standings, and every table's game, step, leader and last action, live. Drawn like a table's
live view (``aids.live.render``) from what any viewer may see, once per event, state and
language, and pushed by the same hub (``aids.live.hub``: the key ``wall:<event>``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable

from aids.core.i18n import Lang, t
from aids.live.render import Rendering, last_words
from aids.meets import MeetService
from aids.ui.common import html_text, speaking
from aids.ui.context import TableContext

WALL = "wall:"  # the hub's key of an event's wall: this, then the event's public id
STANDING_LINES = 10  # players on the wall's standings (the event page has them all)


def wall_version(meets: MeetService, meet_id: str) -> Hashable:
    """What the wall shows depends on: the event's title and rule, each table's log position
    (as this process knows it: on PostgreSQL from its notices) and each paper table's
    results."""
    info = meets.info(meet_id)  # an id that cannot be an event's is refused here
    row = meets.store.get_meet(meet_id)
    tables = tuple((t.public_id, meets.tables.seq(t.public_id)) for t in meets.members(meet_id))
    papers = tuple((p.public_id, len(entries)) for p, entries in meets.store.meet_papers(row.id))
    return info.title, info.date, repr(info.scoring), tables, papers


def render_wall(meets: MeetService, meet_id: str, lang: Lang, version: Hashable) -> Rendering:
    """The wall of event ``meet_id`` in ``lang``: its head, standings and table cards."""
    info = meets.info(meet_id)
    statuses = meets.tables_of(meet_id)
    papers = meets.papers_of(meet_id)
    standings = meets.standings(meet_id, statuses, papers)
    with speaking(lang):
        count = t("live.wall_tables", lang, n=len(statuses) + len(papers))
        head = f"<h1>{html_text(info.title)}</h1><p>{html_text(info.date)} · {html_text(count)}</p>"
        cols = ("rank", "name", "points", "played", "wins", "in_play")
        heads = "".join(f'<th scope="col">{html_text(t(f"meet.col.{c}", lang))}</th>' for c in cols)
        lines = "".join(
            f"<tr><td>{s.rank}</td><td>{html_text(s.name)}</td><td>{s.points}</td>"
            f"<td>{s.played}</td><td>{s.wins}</td><td>{s.in_play}</td></tr>"
            for s in standings[:STANDING_LINES]
        )
        table = f'<table class="wall-standings"><tr>{heads}</tr>{lines}</table>'
        if not standings:
            table = f'<p class="note">{html_text(t("live.wall_no_standings", lang))}</p>'
        cards = []
        for i, status in enumerate(statuses):
            game = meets.tables.game(status.kind)
            ctx = TableContext(status.snapshot.in_language(game, lang), None, game, lang)
            words = last_words(ctx) or t("live.nothing_yet", lang)
            state = t("live.wall_finished" if status.finished else "live.step", lang,
                      n=status.seq)  # fmt: skip
            leader = " · ".join(status.leaders)
            lead = t("live.wall_winner" if status.finished else "live.wall_leader", lang)
            cards.append(
                f'<article class="card{" done" if status.finished else ""}" data-i="{i}">'
                f"<h2>{html_text(status.title)}</h2>"
                f'<p class="game">{html_text(t(game.info.name_key, lang))} · {html_text(state)}</p>'
                f'<p class="lead"><span>{html_text(lead)}</span> {html_text(leader or "—")}</p>'
                f'<p class="last">{html_text(words)}</p></article>'
            )
        sections = {
            "head": head,
            "standings": f"<h2>{html_text(t('meet.standings', lang))}</h2>{table}",
            "tables": "".join(cards),
        }
    digest = hashlib.sha256(repr(version).encode()).hexdigest()[:12]
    return Rendering(meet_id, 0, -1, lang, sections, version=f"w{digest}")
