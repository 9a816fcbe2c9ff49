"""Links printed into QR codes and shown to the referee.

One rule for the page and the CLI: the base URL comes from configuration (``AIDS_PUBLIC_URL``
or ``--base-url``); else, for a tracker that listens on this machine alone (``--address
127.0.0.1``), ``localhost``, since no phone could reach any other address of it; else this
machine's LAN address, so a phone on the same network can open it (``localhost`` when no LAN
address can be found, and the page then says so).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import quote, urlencode

from aids.core import inputs

DEFAULT_PORT = 8501


def lan_address() -> str | None:
    """This host's non-loopback IPv4 address, found without sending a packet.

    First the host name's addresses; then the source address the kernel would pick for an
    outgoing route (a UDP ``connect`` only consults the routing table, it transmits nothing).
    """
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith(("127.", "0.")) else address


def configured_base_url(override: str | None = None) -> str | None:
    """The base URL someone set (``--base-url``, else ``AIDS_PUBLIC_URL``), checked; or None."""
    if override:
        return inputs.base_url(override, "--base-url")
    configured = os.environ.get("AIDS_PUBLIC_URL")
    return inputs.base_url(configured, "AIDS_PUBLIC_URL") if configured else None


def configured_port() -> int:
    """``AIDS_PORT`` (the port ``aids serve`` listens on), else 8501."""
    raw = os.environ.get("AIDS_PORT") or DEFAULT_PORT
    return inputs.whole_number(raw, "AIDS_PORT", low=1, high=65535)


def public_base_url(
    override: str | None = None, port: int | None = None, address: str | None = None
) -> str:
    """Where phones reach the tracker, one rule for the page and the CLI: ``--base-url``, else
    ``AIDS_PUBLIC_URL``, else ``localhost`` for a tracker listening on a loopback
    ``address`` only, else this machine's LAN address; with the tracker's actual ``port``
    (``AIDS_PORT`` or 8501 when the caller does not know it).

    >>> public_base_url(port=8600, address="127.0.0.1")
    'http://localhost:8600'
    """
    configured = configured_base_url(override)
    if configured:
        return configured
    host = "localhost" if is_loopback(address) else (lan_address() or "localhost")
    return f"http://{host}:{port or configured_port()}"


def is_loopback(address: str | None) -> bool:
    """Whether a listen address serves this machine alone (``127.0.0.1``, ``::1``,
    ``localhost``); ``0.0.0.0``, a LAN address or none is not.

    >>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0"), is_loopback(None)
    (True, False, False)
    """
    if not address:
        return False
    if address.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def home_url(base: str, lang: str | None = None) -> str:
    """The tracker's home page (blank sheets point here)."""
    return f"{base.rstrip('/')}/" + (f"?{urlencode({'lang': lang})}" if lang else "")


def game_url(base: str, kind: str, lang: str | None = None) -> str:
    """The tracker's home with ``kind`` chosen for a new table (a rule card's QR code)."""
    params = {"game": kind} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"


def viewer_url(base: str, public_id: str, lang: str | None = None) -> str:
    """The read-only link players scan: the table's live view (``aids.live``), light enough
    for every phone in the room; it links to the full page (``page_url``)."""
    query = f"?{urlencode({'lang': lang})}" if lang else ""
    return f"{base.rstrip('/')}/live/{quote(public_id, safe='')}{query}"


def page_url(base: str, public_id: str, lang: str | None = None) -> str:
    """The table's full read-only page (the step-through replay and the rest)."""
    params = {"table": public_id} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"


def wall_url(base: str, public_id: str, lang: str | None = None) -> str:
    """An event's wall (``aids.live.wall``): for a TV or a projector."""
    query = f"?{urlencode({'lang': lang})}" if lang else ""
    return f"{base.rstrip('/')}/wall/{quote(public_id, safe='')}{query}"


def referee_url(base: str, public_id: str, key: str, lang: str | None = None) -> str:
    """The link that can record play: the viewer link plus the referee key."""
    params = {"table": public_id, "key": key} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"


def meet_url(base: str, public_id: str, lang: str | None = None) -> str:
    """An event's public page (its tables, their status, the standings): the link players scan."""
    params = {"meet": public_id} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"


def organiser_url(base: str, public_id: str, key: str, lang: str | None = None) -> str:
    """The event page with the organiser's key: add tables, scoring, print, export."""
    params = {"meet": public_id, "key": key} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"
