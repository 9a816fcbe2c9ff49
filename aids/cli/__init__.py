"""The ``aids`` command: serve the tracker, print sheets, export/import tables, events of many
tables (``aids meet …``), benchmarks."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

from aids import registry
from aids.cli.common import (
    base_url_for,
    check_writable,
    emit_json,
    output_folder,
    read_input,
    sheet_langs,
    write_output,
)
from aids.cli.meet import meet_parser
from aids.cli.parser import Parser, asked_lang, speaking
from aids.cli.serve import port_number
from aids.cli.serve import serve as run_serve
from aids.core import inputs
from aids.core.errors import AidsError, InvalidAction, NotFound
from aids.core.i18n import LANGS, normalise_lang, t
from aids.core.links import (
    referee_url,
    viewer_url,
)
from aids.games.base import REFEREE, VIEWER, Role
from aids.registry import open_service
from aids.tables import load_export
from aids.tables.keys import PUBLIC_ID_RE

MAX_RECORD_FILE = 10 * 1024 * 1024  # bytes; a night's log is a few hundred lines


def main(argv: list[str] | None = None) -> int:
    """Run one command; every refusal is a code and a message on stderr and exit status 2.

    Every input (base URL, paths, role, key, language, the files read) is checked before the
    command's first write, so a refused command has changed nothing."""
    _tolerant_streams()
    words = sys.argv[1:] if argv is None else argv
    lang = asked_lang(words)  # --lang anywhere, else AIDS_LANG: the help and errors speak it
    try:
        with speaking(lang):
            args = _parser(lang).parse_args(words)
        lang = normalise_lang(args.lang or lang)
        return int(args.run(args, lang) or 0)
    except AidsError as exc:
        print(f"{exc.code}: {exc.message(lang)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``aids export … | head``): stop quietly
        with contextlib.suppress(OSError, ValueError):  # and no second error at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:  # Ctrl-C: a write is one transaction, so it is whole or absent
        return 130


def _tolerant_streams() -> None:
    """A path or a name the terminal cannot show (``LANG=C``, ``PYTHONIOENCODING=ascii``, an
    undecodable byte in a file name) is printed escaped (``\\u30c6``), never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def _parser(lang: str) -> argparse.ArgumentParser:
    """The ``aids`` parser, its help in ``lang`` (build it inside ``speaking(lang)``)."""
    parser = Parser(prog="aids", description=t("cli.description", lang))
    parser.add_argument("--lang", choices=LANGS, help=t("cli.lang", lang))
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    kinds = list(registry.entries())

    serve = sub.add_parser("serve", help=t("cli.cmd.serve", lang))
    serve.add_argument("--port", type=port_number, default=None, help=t("cli.arg.port", lang))
    serve.add_argument("--address", default="0.0.0.0", help=t("cli.arg.address", lang))
    serve.add_argument("--proxy", default=None, help=t("cli.arg.proxy", lang))
    serve.set_defaults(run=run_serve)

    prn = _printing(sub, "print", t("cli.cmd.print", lang), kinds, lang)
    prn.add_argument("--seat-links", action="store_true", help=t("cli.arg.seat_links", lang))
    prn.set_defaults(run=_print)

    crd = _printing(sub, "cards", t("cli.cmd.cards", lang), kinds, lang, paper=False)
    crd.add_argument("--format", choices=["cards", "summary"], default="cards")
    crd.set_defaults(run=_cards)
    pack = _printing(sub, "pack", t("cli.cmd.pack", lang), kinds, lang)
    pack.set_defaults(run=_pack)
    for cmd in (crd, pack):
        cmd.add_argument("--duplex", action="store_true", help=t("cli.arg.duplex", lang))
    new = sub.add_parser("new", help=t("cli.cmd.new", lang))
    new.add_argument("game", choices=kinds)
    new.add_argument("--title", required=True)
    new.add_argument("--player", action="append", required=True, help=t("cli.arg.player", lang))
    new.add_argument("--base-url")
    new.set_defaults(run=_new)

    exp = sub.add_parser("export", help=t("cli.cmd.export", lang))
    exp.add_argument("table", help=t("cli.arg.table_id", lang))
    exp.add_argument("-o", "--output", type=Path, help=t("cli.arg.output", lang))
    exp.set_defaults(run=_export)

    imp = sub.add_parser("import", help=t("cli.cmd.import", lang))
    imp.add_argument("file", type=Path)
    imp.set_defaults(run=_import)

    key = sub.add_parser("key", help=t("cli.cmd.key", lang))
    key.add_argument("action", choices=["rotate", "revoke", "list"])
    key.add_argument("table", help=t("cli.arg.table_id", lang))
    key.add_argument("--role", help=t("cli.arg.role", lang))
    key.add_argument("--base-url", help=t("cli.arg.rotate_base_url", lang))
    key.set_defaults(run=_key)

    rec = sub.add_parser(
        "record", help=t("cli.cmd.record", lang), description=t("cli.arg.record_description", lang)
    )
    rec.add_argument("table", help=t("cli.arg.table_id", lang))
    rec.add_argument("file", type=Path, help=t("cli.arg.record_file", lang))
    rec.add_argument("--key", help=t("cli.arg.key", lang))
    rec.add_argument("--key-file", type=Path, help=t("cli.arg.key_file", lang))
    rec.set_defaults(run=_record)

    report = _printing(sub, "report", t("cli.cmd.report", lang), kinds, lang)
    report.set_defaults(run=_report)
    bench = sub.add_parser("bench", help=t("cli.cmd.bench", lang))
    bench.set_defaults(run=_bench)
    benches = bench.add_subparsers(metavar="BENCHMARK", help=t("cli.bench.which", lang))
    live = benches.add_parser(
        "live", help=t("cli.bench.live", lang), description=t("cli.bench.live", lang)
    )
    from aids.bench.live_args import add_arguments

    add_arguments(live, lang)
    live.set_defaults(run=_bench_live)
    meet_parser(sub, lang)
    return parser


def _printing(
    sub: Any, name: str, help_text: str, kinds: list[str], lang: str, *, paper: bool = True
) -> argparse.ArgumentParser:
    """A printing command with the options they all take."""
    cmd: argparse.ArgumentParser = sub.add_parser(name, help=help_text)
    cmd.add_argument("game", choices=kinds)
    cmd.add_argument("--table", help=t("cli.arg.print_table", lang))
    cmd.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
    if paper:
        cmd.add_argument("--paper", choices=["a4", "letter", "a3"], default="a4")
    cmd.add_argument("--base-url", help=t("cli.arg.base_url", lang))
    cmd.add_argument("--out", type=Path, help=t("cli.arg.out", lang))
    return cmd


def _print(args: argparse.Namespace, lang: str) -> int:
    from aids.print.frame import render_sheet

    base = base_url_for(args.base_url, lang)
    out_dir = output_folder(args)
    entry = registry.entry(args.game)
    snapshot = _table_snapshot(args)
    sheet = registry.sheet_module(args.game)
    tag = "blank" if snapshot is None else snapshot.info.public_id[:8]
    tag += "-private" if args.seat_links else ""
    paths = {
        sheet_lang: out_dir / f"{args.game}-sheet-{tag}-{sheet_lang}-{args.paper}.pdf"
        for sheet_lang in sheet_langs(args)
    }
    keys: dict[int, str] = {}
    if args.seat_links:
        if snapshot is None or not entry.game.info.seat_keys:
            raise InvalidAction("table/seat_links", kind=args.game)
        check_writable(list(paths.values()))  # before the old links stop: the new ones get printed
        service = open_service()  # the host's way: a new key per seat, the old ones stop
        pid = snapshot.info.public_id
        keys = {s: service.reissue_key(pid, Role.seat_of(s)) for s in range(len(snapshot.seats))}
        print(t("table.seat_links_printed", lang, n=len(keys)), file=sys.stderr)
    for sheet_lang, path in paths.items():
        links = {
            s: referee_url(base, snapshot.info.public_id, k, sheet_lang)
            for s, k in keys.items()
            if snapshot is not None
        }
        pdf = render_sheet(
            sheet, entry.game, snapshot, base, sheet_lang, args.paper, seat_links=links or None
        )
        write_output(path, pdf, private=bool(links))
        print(path)
    return 0


def _table_snapshot(args: argparse.Namespace) -> Any:
    if not args.table:
        return None
    snapshot = open_service().snapshot(args.table, VIEWER)  # printed matter is public
    if snapshot.info.kind != args.game:
        raise InvalidAction("table/wrong_game", kind=snapshot.info.kind)
    return snapshot


def _cards(args: argparse.Namespace, lang: str) -> int:
    from aids.print.pack import render_cards, render_summary

    entry, base = registry.entry(args.game), base_url_for(args.base_url, lang)
    out_dir, snapshot = output_folder(args), _table_snapshot(args)
    sheet, langs = registry.sheet_module(args.game), sheet_langs(args)
    if args.format == "cards":
        pdf = render_cards(entry.game, sheet, snapshot, base, langs, duplex=args.duplex)
    else:
        pdf = render_summary(entry.game, sheet, snapshot, base, langs)
    tag = "-duplex" if args.duplex and args.format == "cards" else ""
    path = out_dir / f"{args.game}-{args.format}-{args.sheet_lang}{tag}.pdf"
    write_output(path, pdf)
    print(path)
    return 0


def _pack(args: argparse.Namespace, lang: str) -> int:
    from aids.print.pack import render_pack

    entry, base = registry.entry(args.game), base_url_for(args.base_url, lang)
    out_dir, snapshot, langs = output_folder(args), _table_snapshot(args), sheet_langs(args)
    pdf = render_pack(entry.game, registry.sheet_module(args.game), snapshot, base,
                      langs, args.paper, duplex=args.duplex)  # fmt: skip
    tag = snapshot.info.public_id[:8] if snapshot is not None else "blank"
    tag += "-duplex" if args.duplex else ""
    path = out_dir / f"{args.game}-pack-{tag}-{args.sheet_lang}-{args.paper}.pdf"
    write_output(path, pdf)
    print(path)
    return 0


def _report(args: argparse.Namespace, lang: str) -> int:
    from aids.print.report import render_report

    snapshot = _table_snapshot(args)
    if snapshot is None:
        raise InvalidAction("report/needs_table")
    entry, base = registry.entry(args.game), base_url_for(args.base_url, lang)
    out_dir = output_folder(args)
    for report_lang in sheet_langs(args):
        pdf = render_report(entry.game, registry.sheet_module(args.game), snapshot, base,
                            report_lang, args.paper)  # fmt: skip
        tag = snapshot.info.public_id[:8]
        path = out_dir / f"{args.game}-report-{tag}-{report_lang}-{args.paper}.pdf"
        write_output(path, pdf)
        print(path)
    return 0


def _new(args: argparse.Namespace, lang: str) -> int:
    base = base_url_for(args.base_url, lang)  # checked before the table is stored
    game = registry.entry(args.game).game
    setup = game.setup_to_dict(game.default_setup(args.player, lang))
    info, key = open_service().create(args.game, args.title, setup)
    print(f"{t('table.referee_link', lang)}: {referee_url(base, info.public_id, key)}")
    print(f"{t('table.viewer_link', lang)}: {viewer_url(base, info.public_id)}")
    return 0


def _key(args: argparse.Namespace, lang: str) -> int:
    """The host holds the data file, so no key is asked: this is the way back in. ``list``
    shows every key the table has (stray ones too); ``revoke`` stops any seat's, even one
    its game does not give out (a file imported by an older release may hold one)."""
    table = _table_id(args.table)
    role = Role.parse(args.role) if args.role is not None else None
    base = ""
    if args.action == "rotate":
        base = base_url_for(args.base_url, lang)  # checked before the old link is stopped
    elif args.base_url is not None:
        inputs.base_url(args.base_url, "--base-url")  # given, so checked, though not used
    service = open_service()
    if args.action == "list":
        row = service.store.get_table(table)
        for k in service.store.keys(row.id, include_revoked=True):
            if role is not None and k.role != str(role):
                continue
            state = t("table.revoked", lang) if k.revoked_at else t("table.live", lang)
            print(f"{k.role}\t{k.created_at}\t{state}")
        return 0
    role = role or REFEREE
    if args.action == "revoke":
        if role == REFEREE:
            raise InvalidAction("table/revoke_referee")
        row = service.store.get_table(table)
        from aids.tables.keys import now

        count = service.store.revoke_keys(row.id, str(role), now())
        print(t("table.revoked_n", lang, n=count, role=str(role)))
        return 0
    key = service.reissue_key(table, role)
    label = "table.referee_link" if role == REFEREE else "table.seat_link"
    seats = service.snapshot(table).seats
    name = seats[role.seat] if role.seat is not None and 0 <= role.seat < len(seats) else str(role)
    print(f"{t(label, lang, name=name)}: {referee_url(base, table, key)}")
    return 0


def _table_id(raw: str) -> str:
    """A table id as the service checks one, before the store is asked (an undecodable or
    malformed id is no table, never a traceback)."""
    if not PUBLIC_ID_RE.match(raw):
        raise NotFound("table/not_found")
    return raw


def _record(args: argparse.Namespace, lang: str) -> int:
    """Append each line's action in turn. Every line is read and parsed first (JSON, then the
    game's action form), so a malformed line refuses the whole file with nothing recorded; a
    line the rules refuse stops the run there (nothing after it is recorded)."""
    key = _secret_key(args)
    service = open_service()
    raw = read_input(args.file, "FILE", MAX_RECORD_FILE)
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise InvalidAction("input/encoding", field="FILE") from None
    snapshot = service.snapshot(args.table)
    game = service.game(snapshot.info.kind)
    actions: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            action = inputs.json_document(line)
            game.action_from_dict(action)
        except AidsError as exc:
            where = t("table.record_refused", lang, line=number, recorded=0)
            print(f"{where}\n{exc.code}: {exc.message(lang)}", file=sys.stderr)
            return 2
        actions.append((number, action))
    seq, recorded = snapshot.seq, 0
    for number, action in actions:
        try:
            seq = service.record(args.table, key, seq, action).seq
        except AidsError as exc:
            where = t("table.record_refused", lang, line=number, recorded=recorded)
            print(f"{where}\n{exc.code}: {exc.message(lang)}", file=sys.stderr)
            return 2
        recorded += 1
    print(t("table.recorded", lang, n=recorded, seq=seq))
    return 0


MAX_KEY_FILE = 1024  # bytes; a key is 32 characters


def _secret_key(args: argparse.Namespace) -> str:
    """The key, from ``--key``, ``--key-file`` (``-``: standard input) or ``AIDS_KEY``: the
    last two keep it out of the process list other users of the machine can read."""
    if args.key is not None and args.key_file is not None:
        raise InvalidAction("input/key_source")
    if args.key is not None:
        return str(args.key)
    if args.key_file is not None:
        if str(args.key_file) == "-" and str(args.file) == "-":
            raise InvalidAction("input/key_stdin")
        raw = read_input(args.key_file, "--key-file", MAX_KEY_FILE)
        try:
            key = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise InvalidAction("input/encoding", field="--key-file") from None
        if not key:
            raise InvalidAction("input/empty", field="--key-file")
        return key
    key = os.environ.get("AIDS_KEY", "").strip()
    if not key:
        raise InvalidAction("input/no_key")
    return key


def _export(args: argparse.Namespace, lang: str) -> int:
    service = open_service()
    document = service.export(args.table)
    sealed = sum(1 for e in service.snapshot(args.table, REFEREE).log if e.sealed)
    if sealed:  # the host's complete backup holds what no page shows yet: say so
        print(t("table.export_holds_sealed", lang, n=sealed), file=sys.stderr)
    return emit_json(document, args.output)


def _import(args: argparse.Namespace, lang: str) -> int:
    base = base_url_for(None, lang)  # AIDS_PUBLIC_URL is checked before the table is stored
    data = inputs.read_file(args.file, "FILE")
    info = open_service().import_(load_export(data))
    print(f"{t('table.imported', lang)}: {info.title} ({info.public_id})")
    print(viewer_url(base, info.public_id))
    return 0


def _bench(args: argparse.Namespace, lang: str) -> int:
    import importlib.util

    from aids.bench.targets import run

    if importlib.util.find_spec("pypdfium2") is None:  # the print baseline reads PDFs back
        raise InvalidAction("output/bench_extras")
    run()
    return 0


def _bench_live(args: argparse.Namespace, lang: str) -> int:
    """``aids bench live``: the live view under a room of phones (``aids.bench.live``)."""
    from aids.bench.live import run_with

    return run_with(args)
