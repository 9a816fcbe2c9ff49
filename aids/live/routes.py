"""The live view's routes, served by the tracker's own Streamlit server (``st.App(routes=…)`` in
``streamlit_app.py``): no second server to start.

- ``GET /live/{table}``: the table's page, drawn on the server from ``templates/live/``; the
  phone's language first (``?lang=``, else its ``Accept-Language``), a switch to the other.
  Without JavaScript it reloads itself every ``NO_SCRIPT_SECONDS``.
- ``GET /live/{table}/events``: Server-Sent Events, each the sections to swap in
  (``aids.live.hub``); the phone says what it holds (``Last-Event-ID``, or ``?have=`` when
  its script reopens the stream) and is sent only what it lacks.
- ``GET /live/static/{file}``: the page's script and styles, shipped with the package (the
  venue may have no internet: nothing comes from a CDN).

Only the viewer's view is drawn (``aids.live.render``): no key is read here, so a seat's or the
referee's link opened at ``/live/`` shows what any phone shows.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from aids.core.errors import AidsError, Forbidden, NotFound
from aids.core.i18n import LANGS, Lang, normalise_lang, t
from aids.live.hub import GZIP_HEADER, Hub, Published, deflated
from aids.live.wall import WALL
from aids.paths import TEMPLATES
from aids.tables.attempts import LOCAL
from aids.ui.common import LANG_LABELS

STATIC = Path(__file__).resolve().parent / "static"
NO_SCRIPT_SECONDS = 15
RETRY_MS = 2000  # how soon a phone's browser reopens a dropped stream
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
_ASSET_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg"}
_IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}

_templates = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES / "live"),
    autoescape=jinja2.select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def phone_lang(request: Request) -> Lang:
    """``?lang=`` if given, else the first of our languages the phone asks for
    (``Accept-Language``, by its weights), else Japanese."""
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return normalise_lang(asked)
    wants: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("accept-language", "").split(",")):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            q = 0.0
        wants.append((-q, i, tag.split("-")[0].strip().lower()))
    for _, _, tag in sorted(wants):
        if tag in LANGS:
            return normalise_lang(tag)
    return normalise_lang(None)


def live_routes(hub: Hub) -> list[BaseRoute]:
    """The routes, all served from ``hub``'s drawings."""

    async def look_up(request: Request, key: str, lang: Lang) -> Published:
        """``key``'s newest drawing. Links to tables or events that do not exist are limited
        per client (the table service's budget of wrong keys: a flood of wrong links costs
        whoever sends it a wait, and stops reaching the store); the client is the address
        the request came from, or the one the configured proxy forwarded
        (``aids serve --proxy``). A client past its budget is still served a table that
        phones are watching (its drawing is in memory): a right link keeps working."""
        client = request.client.host if request.client else LOCAL
        attempts = hub.attempts()
        if attempts.over(client):  # still served what is in memory: a table being watched
            known = hub.held(key, lang)
            if known is not None:
                return known
            raise Forbidden("table/link_attempts", seconds=max(1, math.ceil(attempts.wait(client))))
        try:
            return await hub.newest(key, lang)
        except NotFound:
            try:
                attempts.take(client)
            except Forbidden as exc:
                raise Forbidden("table/link_attempts", **exc.params) from None
            raise

    async def drawn(request: Request, template: str, key: str, up: str) -> Response:
        """A page drawn from ``key``'s newest drawing (``up``: the way back to the root)."""
        lang = phone_lang(request)
        try:
            published = await look_up(request, key, lang)
        except AidsError as exc:
            return _error(exc, lang, _status(exc), up)
        rendering = published.rendering
        other = next(x for x in LANGS if x != lang)
        name = request.path_params.get("table") or request.path_params["meet"]
        html = _templates.get_template(template).render(
            lang=lang,
            other=other,
            other_label=LANG_LABELS[other],  # a language's name in itself
            t=lambda key, **kw: t(key, lang, **kw),
            table=name,
            sections=rendering.sections,
            tag=rendering.tag,
            drawn=published.at,
            full_page=f"{up}?table={name}&lang={lang}",
            refresh=NO_SCRIPT_SECONDS,
            static=_static_names(),
            static_at=f"{up}live/static/",
        )
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def page(request: Request) -> Response:
        return await drawn(request, "table.html", request.path_params["table"], "../")

    async def table_wall(request: Request) -> Response:
        return await drawn(request, "wall_table.html", request.path_params["table"], "../../")

    async def event_wall(request: Request) -> Response:
        return await drawn(request, "wall.html", WALL + request.path_params["meet"], "../")

    async def table_events(request: Request) -> Response:
        return await events(request, request.path_params["table"])

    async def wall_events(request: Request) -> Response:
        return await events(request, WALL + request.path_params["meet"])

    async def events(request: Request, key: str) -> Response:
        lang = phone_lang(request)
        held = request.headers.get("last-event-id") or request.query_params.get("have")
        try:
            await look_up(request, key, lang)  # a table or event that is not there: a 404
        except AidsError as exc:
            return _error(exc, lang, _status(exc))

        packed = "gzip" in request.headers.get("accept-encoding", "")
        headers = {
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx: pass each event on as it comes
            "Vary": "Accept-Encoding",
        }
        if packed:
            headers["Content-Encoding"] = "gzip"

        async def stream() -> AsyncIterator[bytes]:
            retry = f"retry: {RETRY_MS}\n\n".encode()
            yield GZIP_HEADER + deflated(retry) if packed else retry
            async for chunk in hub.follow(key, lang, held, packed=packed):
                yield chunk

        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def asset(request: Request) -> Response:
        """A picture of a table's drawing, by its content's name (``render``): kept by the
        phone for good. A process that has not drawn the table yet draws it first (behind a
        proxy the page and its picture may come from two trackers)."""
        public_id, name = request.path_params["table"], request.path_params["name"]
        body = hub.asset(public_id, name)
        if body is None:
            with contextlib.suppress(AidsError):
                await look_up(request, public_id, phone_lang(request))
            body = hub.asset(public_id, name)
        if body is None:
            return Response(status_code=404)
        kind = _ASSET_TYPES.get(Path(name).suffix, "application/octet-stream")
        return Response(body, media_type=kind, headers=_IMMUTABLE)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        known = _static_files()
        if name not in known:
            return Response(status_code=404)
        body, etag = known[name]
        headers = {**_IMMUTABLE, "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=_TYPES[Path(name).suffix], headers=headers)

    return [
        Route("/live/static/{name}", static),
        Route("/live/{table}", page),
        Route("/live/{table}/events", table_events),
        Route("/live/{table}/asset/{name}", asset),
        Route("/wall/table/{table}", table_wall),
        Route("/wall/table/{table}/events", table_events),
        Route("/wall/table/{table}/asset/{name}", asset),
        Route("/wall/{meet}", event_wall),
        Route("/wall/{meet}/events", wall_events),
    ]


def _status(exc: AidsError) -> int:
    if isinstance(exc, NotFound):
        return 404
    return 429 if exc.code == "table/link_attempts" else 503


def _error(exc: AidsError, lang: Lang, status: int, up: str = "../") -> HTMLResponse:
    html = _templates.get_template("error.html").render(
        lang=lang,
        message=exc.message(lang),
        home=t("table.back_home", lang),
        static=_static_names(),
        static_at=f"{up}live/static/",
        up=up,
    )
    headers = {"Cache-Control": "no-store"}
    if status == 429:
        headers["Retry-After"] = str(exc.params.get("seconds", 1))
    return HTMLResponse(html, status_code=status, headers=headers)


_STATIC: dict[str, tuple[bytes, str]] = {}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The shipped files by their versioned names (``live.<hash>.js``): cached for a year by
    the phone, a new version is a new name."""
    if not _STATIC:
        for path in sorted(STATIC.iterdir()):
            if path.suffix in _TYPES:
                body = path.read_bytes()
                digest = hashlib.sha256(body).hexdigest()[:12]
                _STATIC[f"{path.stem}.{digest}{path.suffix}"] = (body, f'"{digest}"')
    return _STATIC


def _static_names() -> dict[str, Any]:
    """Each shipped file's versioned name by its plain one (``live.js`` → ``live.<hash>.js``)."""
    names = {}
    for name in _static_files():
        stem, _, rest = name.partition(".")
        names[f"{stem}.{rest.rpartition('.')[2]}"] = name
    return names
