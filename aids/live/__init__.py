"""The live view: one light page per table that every phone follows, and the wall.

Served by the tracker's own server (``streamlit_app.py`` mounts ``routes``): pages drawn on the
server from ``templates/live/`` (``render``), pushed to the phones as Server-Sent Events by one
hub per process (``hub``) and swapped in by a small script shipped here (``static/``).
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from aids.live.hub import Hub


def routes() -> list[BaseRoute]:
    """The live view's routes on this process's shared services (those of the Streamlit
    pages: one table service and one chance service per store)."""
    from aids.live.routes import live_routes
    from aids.ui.common import service
    from aids.ui.insights import chance_service

    return live_routes(Hub(service, chance_service))
