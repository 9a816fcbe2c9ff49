"""Links printed into QR codes and shown to the referee.

The base URL comes from configuration (``AIDS_PUBLIC_URL`` or ``--base-url``); the default is
this machine's LAN address so a phone on the same network can open it. ``localhost`` is used
only when no LAN address can be found, and the page then says so.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlencode

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


def public_base_url(override: str | None = None) -> str:
    """Where phones reach the tracker: override, ``AIDS_PUBLIC_URL``, or the LAN default."""
    configured = override or os.environ.get("AIDS_PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    port = os.environ.get("AIDS_PORT", str(DEFAULT_PORT))
    return f"http://{lan_address() or 'localhost'}:{port}"


def home_url(base: str, lang: str | None = None) -> str:
    """The tracker's home page (blank sheets point here)."""
    return f"{base.rstrip('/')}/" + (f"?{urlencode({'lang': lang})}" if lang else "")


def viewer_url(base: str, public_id: str, lang: str | None = None) -> str:
    """The read-only link players scan."""
    params = {"table": public_id} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"


def referee_url(base: str, public_id: str, key: str, lang: str | None = None) -> str:
    """The link that can record play: the viewer link plus the referee key."""
    params = {"table": public_id, "key": key} | ({"lang": lang} if lang else {})
    return f"{base.rstrip('/')}/?{urlencode(params)}"
