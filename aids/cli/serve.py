"""``aids serve``: become the Streamlit tracker on the data file or database the
environment names, after checking everything it needs (the address resolves, the store
opens) so that nothing fails once the server has started."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys

from aids.core import inputs
from aids.core.errors import InvalidAction
from aids.core.i18n import t
from aids.core.links import configured_base_url, configured_port, is_loopback, public_base_url
from aids.paths import ROOT, tracker_file
from aids.store import open_store, shown, store_locator


def port_number(raw: str) -> int:
    """``--port``: a whole number 1..65535."""
    return inputs.whole_number(raw, "--port", low=1, high=65535)


def serve(args: argparse.Namespace, lang: str) -> int:
    """Become the Streamlit server (exec, not a child): a service manager's SIGTERM reaches
    Streamlit itself, and no process is left holding the port."""
    port = args.port or configured_port()
    address = inputs.listen_address(args.address, "--address")  # checked before the data
    _resolvable(address, port)
    proxy = inputs.proxy_addresses(
        args.proxy if args.proxy is not None else os.environ.get("AIDS_PROXY", ""), "--proxy"
    )
    base = public_base_url(port=port, address=address)  # file is made or upgraded
    where = store_locator()
    # A data file or database that cannot be used is reported here, before serving; a new
    # PostgreSQL database gets its schema here, once, not in the first page's request.
    open_store(where).close()
    if is_loopback(address) and not configured_base_url():
        print(t("table.serve_local_only", lang, url=f"{base}/"))
    else:
        print(t("table.serve_tracker", lang, url=f"http://localhost:{port}/", phones=f"{base}/"))
    print(t("table.serve_data", lang, where=shown(where)), flush=True)
    if proxy:
        print(t("table.serve_proxy", lang, proxy=proxy), flush=True)
    _write_tracker_file(port, address)
    raise_open_files()
    # the page's QR codes use the port served; the server (uvicorn) believes X-Forwarded-For
    # from the configured proxies only ("": from nobody, whatever its own default)
    env = dict(os.environ, AIDS_PORT=str(port), FORWARDED_ALLOW_IPS=proxy)
    command = streamlit_command(port, address)
    os.execve(sys.executable, command, env)
    return 0  # not reached


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit, as servers do: each
    phone following a table holds a socket, and a thousand pass the usual soft limit of
    1,024. Returns the limit now in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _resolvable(address: str, port: int) -> None:
    """A host name to listen on must name this machine's address (``input/address_unknown``,
    not a traceback from the server once it starts)."""
    try:
        socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise InvalidAction("input/address_unknown", address=address) from None


def streamlit_command(port: int, address: str) -> list[str]:
    """The command line ``aids serve`` becomes: Streamlit on the tracker's entry, with the
    settings of ``.streamlit/config.toml`` that matter when it is started from elsewhere."""
    return [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
        "--server.port", str(port),
        "--server.address", address,
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--runner.postScriptGC", "false",  # as .streamlit/config.toml (docs/crowd.md)
        # what the slip reader accepts: a bigger upload is refused before it is in memory
        "--server.maxUploadSize", str(inputs.MAX_PHOTO_MB),
    ]  # fmt: skip


def _write_tracker_file(port: int, address: str) -> None:
    """Where this tracker listens, so ``aids print`` and ``aids new`` print its real port
    (and ``localhost`` for a tracker that serves this machine alone, as its page does)."""
    with contextlib.suppress(OSError):
        tracker_file().write_text(
            json.dumps({"pid": os.getpid(), "port": port, "address": address})
        )
