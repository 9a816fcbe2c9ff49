"""The ``aids`` command: serve the tracker, print sheets, export/import tables, benchmarks."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from aids.core.errors import AidsError, InvalidAction
from aids.core.i18n import LANGS, normalise_lang, t
from aids.core.links import public_base_url, referee_url, viewer_url
from aids.core.tables import load_export, open_default
from aids.paths import OUTPUT, ROOT, database_path


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    lang = normalise_lang(args.lang or os.environ.get("AIDS_LANG"))
    try:
        return int(args.run(args, lang) or 0)
    except AidsError as exc:
        print(f"{exc.code}: {exc.message(lang)}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aids", description="Race-night table aids")
    parser.add_argument("--lang", choices=LANGS, help="language of messages (default: ja)")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="start the Streamlit tracker")
    serve.add_argument("--port", type=int, default=int(os.environ.get("AIDS_PORT", 8501)))
    serve.add_argument("--address", default="0.0.0.0", help="listen address (0.0.0.0 = LAN)")
    serve.set_defaults(run=_serve)

    prn = sub.add_parser("print", help="render a printable PDF into output/")
    prn.add_argument("game", choices=["derby"])
    prn.add_argument("--table", help="public id of a table (omit for the blank sheet)")
    prn.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
    prn.add_argument("--paper", choices=["a4", "letter"], default="a4")
    prn.add_argument("--base-url", help="URL phones use to reach the tracker (AIDS_PUBLIC_URL)")
    prn.add_argument("--out", type=Path, help="output folder (default: output/)")
    prn.set_defaults(run=_print)

    new = sub.add_parser("new", help="create a table and print its links")
    new.add_argument("game", choices=["derby"])
    new.add_argument("--title", required=True)
    new.add_argument("--player", action="append", required=True, help="repeat, in seat order")
    new.add_argument("--base-url")
    new.set_defaults(run=_new)

    exp = sub.add_parser("export", help="write a table as JSON")
    exp.add_argument("table", help="public id")
    exp.add_argument("-o", "--output", type=Path, help="file (default: standard output)")
    exp.set_defaults(run=_export)

    imp = sub.add_parser("import", help="add a table from an exported JSON file")
    imp.add_argument("file", type=Path)
    imp.set_defaults(run=_import)

    bench = sub.add_parser("bench", help="run the performance benchmarks (prints ratios)")
    bench.set_defaults(run=_bench)
    return parser


def _serve(args: argparse.Namespace, lang: str) -> int:
    db = database_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    os.environ["AIDS_PORT"] = str(args.port)  # the page's QR codes use the port served
    base = public_base_url()
    print(f"Tracker: http://localhost:{args.port}/   (phones on this network: {base}/)")
    print(f"Data:    {db}")
    env = dict(os.environ)
    command = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
        "--server.port", str(args.port),
        "--server.address", args.address,
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    return subprocess.call(command, env=env)


def _print(args: argparse.Namespace, lang: str) -> int:
    from aids.print.derby_sheet import blank_view, build_derby_sheet, sheet_view

    base = public_base_url(args.base_url)
    out_dir = args.out or OUTPUT
    out_dir.mkdir(parents=True, exist_ok=True)
    langs = LANGS if args.sheet_lang == "both" else (args.sheet_lang,)
    snapshot = open_default().snapshot(args.table) if args.table else None
    for sheet_lang in langs:
        if snapshot is None:
            view = blank_view(base, sheet_lang)
            name = f"derby-sheet-blank-{sheet_lang}-{args.paper}.pdf"
        else:
            view = sheet_view(snapshot, base, sheet_lang)
            name = f"derby-sheet-{snapshot.info.public_id[:8]}-{sheet_lang}-{args.paper}.pdf"
        path = out_dir / name
        path.write_bytes(build_derby_sheet(view, sheet_lang, args.paper))
        print(path)
    return 0


def _new(args: argparse.Namespace, lang: str) -> int:
    from aids.games.derby.model import DerbySetup

    setup = DerbySetup.default(args.player, lang=lang).to_dict()
    info, key = open_default().create(args.game, args.title, setup)
    base = public_base_url(args.base_url)
    print(f"{t('ui.referee_link', lang)}: {referee_url(base, info.public_id, key)}")
    print(f"{t('ui.viewer_link', lang)}: {viewer_url(base, info.public_id)}")
    return 0


def _export(args: argparse.Namespace, lang: str) -> int:
    text = json.dumps(open_default().export(args.table), ensure_ascii=False, indent=2)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
        print(args.output)
    else:
        print(text)
    return 0


def _import(args: argparse.Namespace, lang: str) -> int:
    try:
        text = args.file.read_bytes()
    except OSError as exc:
        raise InvalidAction("import/json", detail=str(exc)[:200]) from exc
    info = open_default().import_(load_export(text))
    print(f"{t('ui.imported', lang)}: {info.title} ({info.public_id})")
    print(viewer_url(public_base_url(), info.public_id))
    return 0


def _bench(args: argparse.Namespace, lang: str) -> int:
    from aids.bench import run

    run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
