"""The live benchmark's options, in the language asked: ``python -m aids.bench.live`` (English)
and ``aids bench live`` (the ``aids`` command's language) build them here, from the ``aids``
command's catalogue (``cli.bench.…``). Light: the ``aids`` command builds every parser."""

from __future__ import annotations

import argparse
from pathlib import Path

from aids.core.i18n import t
from aids.registry import engines


def add_arguments(parser: argparse.ArgumentParser, lang: str) -> None:
    def said(key: str) -> str:
        return t(f"cli.bench.{key}", lang)

    add = parser.add_argument
    add("--clients", type=int, default=1000, help=said("clients"))
    add("--seconds", type=float, default=60.0, help=said("seconds"))
    add("--interval", type=float, default=2.0, help=said("interval"))
    add("--idle", type=float, default=20.0, help=said("idle"))
    add("--game", default="derby", choices=sorted(engines()), help=said("game"))
    add("--started", type=int, default=0, help=said("started"))
    add("--timeout", type=float, default=10.0, help=said("timeout"))
    add("--playouts", type=int, help=said("playouts"))
    add("--trackers", type=int, default=1, help=said("trackers"))
    add("--compare-streamlit", type=int, default=0, metavar="M", help=said("compare_streamlit"))
    add("--compare-seconds", type=float, default=30.0, help=said("compare_seconds"))
    add("--no-browser", action="store_true", help=said("no_browser"))
    add("--pages", type=int, default=20, help=said("pages"))
    add("--pages-interval", type=float, default=1.0, help=said("pages_interval"))
    add("--nginx", action="store_true", help=said("nginx"))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database-url", metavar="URL", help=said("database_url"))
    where.add_argument("--postgres", action="store_true", help=said("postgres"))
    add("--json", type=Path, help=said("json"))
    add("--notes", type=Path, help=said("notes"))
    add("--profile", type=Path, metavar="FILE", help=said("profile"))
