"""The ``aids`` command: serve the tracker, print sheets, export/import tables, events of many
tables (``aids meet …``), benchmarks."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from aids import registry
from aids.core import inputs
from aids.core.errors import AidsError, InvalidAction, NotFound
from aids.core.i18n import LANGS, normalise_lang, t
from aids.core.links import (
    configured_base_url,
    configured_port,
    is_loopback,
    meet_url,
    organiser_url,
    public_base_url,
    referee_url,
    viewer_url,
)
from aids.games.base import REFEREE, VIEWER, Role
from aids.meets import MeetService, scoring_of
from aids.paths import OUTPUT, ROOT, tracker_file
from aids.registry import open_service
from aids.store import open_store, shown, store_locator
from aids.tables import load_export
from aids.tables.keys import PUBLIC_ID_RE

MAX_RECORD_FILE = 10 * 1024 * 1024  # bytes; a night's log is a few hundred lines


def main(argv: list[str] | None = None) -> int:
    """Run one command; every refusal is a code and a message on stderr and exit status 2.

    Every input (base URL, paths, role, key, language, the files read) is checked before the
    command's first write, so a refused command has changed nothing."""
    _tolerant_streams()
    lang = normalise_lang(os.environ.get("AIDS_LANG"))
    try:
        args = _parser().parse_args(argv)
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aids", description="Race-night table aids")
    parser.add_argument("--lang", choices=LANGS, help="language of messages (default: ja)")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    kinds = list(registry.entries())

    serve = sub.add_parser("serve", help="start the Streamlit tracker")
    serve.add_argument("--port", type=_port, default=None, help="default: AIDS_PORT or 8501")
    serve.add_argument("--address", default="0.0.0.0", help="listen address (0.0.0.0 = LAN)")
    serve.set_defaults(run=_serve)

    prn = _printing(sub, "print", "render a printable PDF into output/", kinds)
    prn.add_argument(
        "--seat-links",
        action="store_true",
        help="issue every seat a new private link and print it on its page (old links stop)",
    )
    prn.set_defaults(run=_print)

    crd = _printing(sub, "cards", "the rule cards (A6 4-up) or the one-page summary", kinds,
                    paper=False)  # fmt: skip
    crd.add_argument("--format", choices=["cards", "summary"], default="cards")
    crd.set_defaults(run=_cards)
    pack = _printing(sub, "pack", "a table's game-night PDF: its sheets and rule cards", kinds)
    pack.set_defaults(run=_pack)
    for cmd in (crd, pack):
        cmd.add_argument(
            "--duplex",
            action="store_true",
            help="rule cards front and back (--sheet-lang both): the first language on the"
            " fronts, the other behind it; print double-sided, flipping on the long edge",
        )
    new = sub.add_parser("new", help="create a table and print its links")
    new.add_argument("game", choices=kinds)
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

    key = sub.add_parser("key", help="rotate, revoke or list a table's links (host only)")
    key.add_argument("action", choices=["rotate", "revoke", "list"])
    key.add_argument("table", help="public id")
    key.add_argument(
        "--role",
        help="referee (the default for rotate) or seat:N (0-based); list: only this role's keys",
    )
    key.add_argument("--base-url", help="URL phones use to reach the tracker (rotate)")
    key.set_defaults(run=_key)

    rec = sub.add_parser(
        "record",
        help="record actions from a file, one JSON action per line",
        description="Record actions from a file, one JSON action per line, with the referee's"
        " (or a seat's) key. Give the key in the environment variable AIDS_KEY, or in a file"
        " with --key-file PATH (--key-file - reads it from standard input); --key KEY works"
        " too, but other users of this machine can see it in the process list.",
    )
    rec.add_argument("table", help="public id")
    rec.add_argument("file", type=Path, help="JSON lines file ('-' for standard input)")
    rec.add_argument(
        "--key",
        help="the key itself: visible to other users of this machine (ps); prefer AIDS_KEY"
        " or --key-file",
    )
    rec.add_argument(
        "--key-file",
        type=Path,
        help="a file holding the key ('-': standard input); else AIDS_KEY is read",
    )
    rec.set_defaults(run=_record)

    report = _printing(sub, "report", "a table's post-game report: results, chart, record", kinds)
    report.set_defaults(run=_report)
    bench = sub.add_parser("bench", help="run the performance benchmarks (prints ratios)")
    bench.set_defaults(run=_bench)
    _meet_parser(sub)
    return parser


def _meet_parser(sub: Any) -> None:
    """``aids meet …``: events of many tables, as the host (no organiser key is asked: whoever
    runs the command holds the data)."""
    meet = sub.add_parser("meet", help="events of many tables: create, add tables, standings")
    msub = meet.add_subparsers(required=True, metavar="ACTION")
    new = msub.add_parser("new", help="create an event and print its links")
    new.add_argument("--title", required=True)
    new.add_argument("--date", required=True, help="YYYY-MM-DD")
    new.add_argument("--rule", choices=["placing", "score"], default="placing")
    new.add_argument("--points", help="placing points, first place first (default 10,6,4,3,2,1)")
    new.add_argument("--base-url")
    new.set_defaults(run=_meet_new)
    lst = msub.add_parser("list", help="every event, newest night first")
    lst.set_defaults(run=_meet_list)
    for name, help_text, run in (
        ("add", "put a table (its public id: the host needs no key) in the event", _meet_add),
        ("remove", "take a table out of the event (the table stays)", _meet_remove),
    ):
        cmd = msub.add_parser(name, help=help_text)
        cmd.add_argument("meet", help="the event's public id")
        cmd.add_argument("table", help="the table's public id or link")
        cmd.set_defaults(run=run)
    show = msub.add_parser("show", help="the standings and the tables, as text")
    show.add_argument("meet", help="the event's public id")
    show.set_defaults(run=_meet_show)
    set_ = msub.add_parser("set", help="change the title, the date or the scoring rule")
    set_.add_argument("meet", help="the event's public id")
    set_.add_argument("--title")
    set_.add_argument("--date", help="YYYY-MM-DD")
    set_.add_argument("--rule", choices=["placing", "score"])
    set_.add_argument("--points", help="placing points, first place first")
    set_.set_defaults(run=_meet_set)
    for name, help_text, run in (
        ("pack", "the event print pack: every table's sheets, then the standings", _meet_pack),
        ("sheet", "the event standings sheet alone", _meet_sheet),
    ):
        cmd = msub.add_parser(name, help=help_text)
        cmd.add_argument("meet", help="the event's public id")
        cmd.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
        cmd.add_argument("--paper", choices=["a4", "letter", "a3"], default="a4")
        cmd.add_argument("--base-url", help="URL phones use to reach the tracker")
        cmd.add_argument("--out", type=Path, help="output folder (default: output/)")
        cmd.set_defaults(run=run)
    exp = msub.add_parser("export", help="write the event and all its tables as one JSON file")
    exp.add_argument("meet", help="the event's public id")
    exp.add_argument("-o", "--output", type=Path, help="file (default: standard output)")
    exp.set_defaults(run=_meet_export)
    imp = msub.add_parser("import", help="add an event and its tables from an export (all or none)")
    imp.add_argument("file", type=Path)
    imp.set_defaults(run=_meet_import)
    key = msub.add_parser("key", help="a new organiser link (the old one stops)")
    key.add_argument("meet", help="the event's public id")
    key.add_argument("--base-url")
    key.set_defaults(run=_meet_key)


def _printing(
    sub: Any, name: str, help_text: str, kinds: list[str], *, paper: bool = True
) -> argparse.ArgumentParser:
    """A printing command with the options they all take."""
    cmd: argparse.ArgumentParser = sub.add_parser(name, help=help_text)
    cmd.add_argument("game", choices=kinds)
    cmd.add_argument("--table", help="public id of a table (omit for blank sheets)")
    cmd.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
    if paper:
        cmd.add_argument("--paper", choices=["a4", "letter", "a3"], default="a4")
    cmd.add_argument("--base-url", help="URL phones use to reach the tracker (AIDS_PUBLIC_URL)")
    cmd.add_argument("--out", type=Path, help="output folder (default: output/)")
    return cmd


def _langs(args: argparse.Namespace) -> list[str]:
    langs = list(LANGS) if args.sheet_lang == "both" else [args.sheet_lang]
    if getattr(args, "duplex", False) and len(langs) < 2:
        raise InvalidAction("output/duplex")
    return langs


def _port(raw: str) -> int:
    return inputs.whole_number(raw, "--port", low=1, high=65535)


def _serve(args: argparse.Namespace, lang: str) -> int:
    """Become the Streamlit server (exec, not a child): a service manager's SIGTERM reaches
    Streamlit itself, and no process is left holding the port."""
    port = args.port or configured_port()
    address = inputs.listen_address(args.address, "--address")  # checked before the data
    base = public_base_url(port=port, address=address)  # file is made or upgraded
    where = store_locator()
    # A data file or database that cannot be used is reported here, before serving; a new
    # PostgreSQL database gets its schema here, once, not in the first page's request.
    open_store(where).close()
    if is_loopback(address) and not configured_base_url():
        print(t("table.serve_local_only", lang, url=f"{base}/"))
    else:
        print(f"Tracker: http://localhost:{port}/   (phones on this network: {base}/)")
    print(f"Data:    {shown(where)}", flush=True)
    _write_tracker_file(port, address)
    env = dict(os.environ, AIDS_PORT=str(port))  # the page's QR codes use the port served
    command = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
        "--server.port", str(port),
        "--server.address", address,
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--runner.postScriptGC", "false",  # as .streamlit/config.toml (docs/crowd.md)
    ]  # fmt: skip
    os.execve(sys.executable, command, env)
    return 0  # not reached


def _write_tracker_file(port: int, address: str) -> None:
    """Where this tracker listens, so ``aids print`` and ``aids new`` print its real port
    (and ``localhost`` for a tracker that serves this machine alone, as its page does)."""
    with contextlib.suppress(OSError):
        tracker_file().write_text(
            json.dumps({"pid": os.getpid(), "port": port, "address": address})
        )


def _tracker_port() -> tuple[int, str | None] | None:
    """The port and listen address of the tracker running on this data folder, if one is
    (the file is checked like any other input: a damaged one is ignored, never a crash)."""
    try:
        info = inputs.json_document(tracker_file().read_bytes(), max_bytes=1024)
        pid = inputs.whole_number(info.get("pid"), "tracker.json pid", low=1, high=2**22)
        port = inputs.whole_number(info.get("port"), "tracker.json port", low=1, high=65535)
        raw = info.get("address")
        address = None if raw is None else inputs.listen_address(raw, "tracker.json address")
        os.kill(pid, 0)
    except (OSError, AidsError, AttributeError):
        return None
    return port, address


def _base(override: str | None, lang: str) -> str:
    """The base URL printed into links and QR codes, by the page's rule; warn on a guess."""
    if configured_base_url(override):
        return public_base_url(override)
    running = _tracker_port()
    port, address = running if running else (None, None)
    base = public_base_url(port=port, address=address)
    if running is None:
        print(t("table.base_url_guess", lang, url=base), file=sys.stderr)
    return base


def _print(args: argparse.Namespace, lang: str) -> int:
    from aids.print.frame import render_sheet

    base = _base(args.base_url, lang)
    out_dir = _out_dir(args)
    entry = registry.entry(args.game)
    snapshot = _table_snapshot(args)
    sheet = registry.sheet_module(args.game)
    tag = "blank" if snapshot is None else snapshot.info.public_id[:8]
    tag += "-private" if args.seat_links else ""
    paths = {
        sheet_lang: out_dir / f"{args.game}-sheet-{tag}-{sheet_lang}-{args.paper}.pdf"
        for sheet_lang in _langs(args)
    }
    keys: dict[int, str] = {}
    if args.seat_links:
        if snapshot is None or not entry.game.info.seat_keys:
            raise InvalidAction("table/seat_links", kind=args.game)
        _writable(list(paths.values()))  # before the old links stop: the new ones get printed
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
        _write(path, pdf, private=bool(links))
        print(path)
    return 0


def _out_dir(args: argparse.Namespace) -> Path:
    out_dir: Path = args.out or OUTPUT
    try:  # a name too long for the file system fails even to look at
        if out_dir.exists() and not out_dir.is_dir():
            raise InvalidAction("output/folder", path=str(out_dir))
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidAction("output/file", path=str(out_dir), detail=_why(exc)) from None
    return out_dir


def _writable(paths: list[Path]) -> None:
    """Each file can be written, found out before anything is stored: an existing file is
    opened without truncating it, a new one is made and removed again."""
    for path in paths:
        try:
            existed = path.exists()
            with open(path, "ab"):
                pass
            if not existed:
                path.unlink()
        except OSError as exc:
            raise InvalidAction("output/file", path=str(path), detail=_why(exc)) from None


def _table_snapshot(args: argparse.Namespace) -> Any:
    if not args.table:
        return None
    snapshot = open_service().snapshot(args.table, VIEWER)  # printed matter is public
    if snapshot.info.kind != args.game:
        raise InvalidAction("table/wrong_game", kind=snapshot.info.kind)
    return snapshot


def _cards(args: argparse.Namespace, lang: str) -> int:
    from aids.print.pack import render_cards, render_summary

    entry, base = registry.entry(args.game), _base(args.base_url, lang)
    out_dir, snapshot = _out_dir(args), _table_snapshot(args)
    sheet, langs = registry.sheet_module(args.game), _langs(args)
    if args.format == "cards":
        pdf = render_cards(entry.game, sheet, snapshot, base, langs, duplex=args.duplex)
    else:
        pdf = render_summary(entry.game, sheet, snapshot, base, langs)
    tag = "-duplex" if args.duplex and args.format == "cards" else ""
    path = out_dir / f"{args.game}-{args.format}-{args.sheet_lang}{tag}.pdf"
    _write(path, pdf)
    print(path)
    return 0


def _pack(args: argparse.Namespace, lang: str) -> int:
    from aids.print.pack import render_pack

    entry, base = registry.entry(args.game), _base(args.base_url, lang)
    out_dir, snapshot, langs = _out_dir(args), _table_snapshot(args), _langs(args)
    pdf = render_pack(entry.game, registry.sheet_module(args.game), snapshot, base,
                      langs, args.paper, duplex=args.duplex)  # fmt: skip
    tag = snapshot.info.public_id[:8] if snapshot is not None else "blank"
    tag += "-duplex" if args.duplex else ""
    path = out_dir / f"{args.game}-pack-{tag}-{args.sheet_lang}-{args.paper}.pdf"
    _write(path, pdf)
    print(path)
    return 0


def _report(args: argparse.Namespace, lang: str) -> int:
    from aids.print.report import render_report

    snapshot = _table_snapshot(args)
    if snapshot is None:
        raise InvalidAction("report/needs_table")
    entry, base = registry.entry(args.game), _base(args.base_url, lang)
    out_dir = _out_dir(args)
    for report_lang in _langs(args):
        pdf = render_report(entry.game, registry.sheet_module(args.game), snapshot, base,
                            report_lang, args.paper)  # fmt: skip
        tag = snapshot.info.public_id[:8]
        path = out_dir / f"{args.game}-report-{tag}-{report_lang}-{args.paper}.pdf"
        _write(path, pdf)
        print(path)
    return 0


def _new(args: argparse.Namespace, lang: str) -> int:
    base = _base(args.base_url, lang)  # checked before the table is stored
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
        base = _base(args.base_url, lang)  # checked before the old link is stopped
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
    raw = _read_input(args.file, "FILE", MAX_RECORD_FILE)
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
        raw = _read_input(args.key_file, "--key-file", MAX_KEY_FILE)
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


def _read_input(path: Path, field: str, max_bytes: int) -> bytes:
    """A file's bytes, or standard input's for ``-``, at most ``max_bytes``."""
    if str(path) != "-":
        return inputs.read_file(path, field, max_bytes=max_bytes)
    raw = sys.stdin.buffer.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise InvalidAction("input/too_big", field=field, max=max_bytes)
    return raw


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _write(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path``. A ``private`` file holds what only the host may read (a
    complete backup: key hashes, sealed choices, seeds; a sheet with live seat links): it is
    made readable by this user alone (0600), as the data file is, before a byte is in it."""
    try:
        if not private:
            path.write_bytes(data)
            return
        fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o600)  # a file that was there keeps no wider mode
            out.write(data)
    except OSError as exc:
        raise InvalidAction("output/file", path=str(path), detail=_why(exc)) from None


def _emit_json(document: object, output: Path | None) -> int:
    """An export: to ``output`` (its path is printed), or to standard output (all ASCII,
    with \\u escapes, where that is not UTF-8: the JSON stays valid, never mangled)."""
    if output:
        text = json.dumps(document, ensure_ascii=False, indent=2)
        _write(output, (text + "\n").encode("utf-8"), private=True)
        print(output)
    else:
        encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
        print(json.dumps(document, ensure_ascii=encoding != "utf8", indent=2))
    return 0


def _export(args: argparse.Namespace, lang: str) -> int:
    service = open_service()
    document = service.export(args.table)
    sealed = sum(1 for e in service.snapshot(args.table, REFEREE).log if e.sealed)
    if sealed:  # the host's complete backup holds what no page shows yet: say so
        print(t("table.export_holds_sealed", lang, n=sealed), file=sys.stderr)
    return _emit_json(document, args.output)


def _import(args: argparse.Namespace, lang: str) -> int:
    base = _base(None, lang)  # AIDS_PUBLIC_URL is checked before the table is stored
    data = inputs.read_file(args.file, "FILE")
    info = open_service().import_(load_export(data))
    print(f"{t('table.imported', lang)}: {info.title} ({info.public_id})")
    print(viewer_url(base, info.public_id))
    return 0


def _meets() -> MeetService:
    return MeetService(open_service())


def _meet_new(args: argparse.Namespace, lang: str) -> int:
    base = _base(args.base_url, lang)  # checked before the event is stored
    info, key = _meets().create(args.title, args.date, _scoring(args.rule, args.points))
    print(f"{t('meet.cli.created', lang)}: {info.title} ({info.public_id})")
    print(f"{t('meet.organiser_link', lang)}: {organiser_url(base, info.public_id, key)}")
    print(f"{t('meet.cli.event_link', lang)}: {meet_url(base, info.public_id)}")
    return 0


def _scoring(rule: str, points: str | None) -> Any:
    """The scoring options; ``--points`` with ``--rule score`` is refused, not ignored."""
    if rule == "score" and points is not None:
        raise InvalidAction("meet/points_with_score")
    return scoring_of(rule, points)


def _meet_list(args: argparse.Namespace, lang: str) -> int:
    service = _meets()
    listed = service.list_meets()
    if not listed:
        print(t("meet.cli.none", lang))
    for info in listed:
        count = len(service.members(info.public_id))
        print(f"{info.public_id}\t{info.date}\t{info.title}\t{t('meet.cli.tables', lang, n=count)}")
    return 0


def _meet_add(args: argparse.Namespace, lang: str) -> int:
    table = _meets().add_table(args.meet, None, args.table, host=True)
    print(f"{t('meet.cli.added', lang)}: {table.title} ({table.public_id})")
    return 0


def _meet_remove(args: argparse.Namespace, lang: str) -> int:
    _meets().remove_table(args.meet, None, args.table, host=True)
    print(t("meet.cli.removed", lang))
    return 0


def _meet_show(args: argparse.Namespace, lang: str) -> int:
    """The standings and the tables as tab-separated text (a terminal, a spreadsheet)."""
    service = _meets()
    info = service.info(args.meet)
    tables = service.tables_of(args.meet)
    print(f"{info.title} · {info.date}")
    print(info.scoring.describe(lang))
    print()
    print(t("meet.standings", lang))
    heads = ("rank", "name", "points", "played", "wins", "in_play")
    print("\t".join(t(f"meet.col.{h}", lang) for h in heads))
    for row in service.standings(args.meet, tables):
        cells = (row.rank, row.name, row.points, row.played, row.wins, row.in_play)
        print("\t".join(str(c) for c in cells))
    print()
    print(t("meet.tables", lang))
    for n, status in enumerate(tables, start=1):
        game = t(f"{status.kind}.name", lang)
        print(f"{n}\t{status.public_id}\t{game}\t{status.title}\t{status.line(lang)}")
    return 0


def _meet_set(args: argparse.Namespace, lang: str) -> int:
    scoring = None
    if args.rule is not None or args.points is not None:
        scoring = _scoring(args.rule or "placing", args.points)
    info = _meets().update(args.meet, None, title=args.title, date=args.date, scoring=scoring,
                           host=True)  # fmt: skip
    print(f"{info.title} · {info.date} · {info.scoring.describe(lang)}")
    return 0


def _meet_print(args: argparse.Namespace, lang: str, what: str) -> int:
    from aids.print.meet_sheet import render_meet_pack, render_standings

    service = _meets()
    info = service.info(args.meet)
    tables = service.tables_of(args.meet)
    rows = service.standings(args.meet, tables)
    base, out_dir = _base(args.base_url, lang), _out_dir(args)
    render = render_meet_pack if what == "pack" else render_standings
    for sheet_lang in _langs(args):
        pdf = render(info, tables, rows, base, sheet_lang, args.paper)
        path = out_dir / f"event-{what}-{info.public_id[:8]}-{sheet_lang}-{args.paper}.pdf"
        _write(path, pdf)
        print(path)
    return 0


def _meet_pack(args: argparse.Namespace, lang: str) -> int:
    return _meet_print(args, lang, "pack")


def _meet_sheet(args: argparse.Namespace, lang: str) -> int:
    return _meet_print(args, lang, "standings")


def _meet_export(args: argparse.Namespace, lang: str) -> int:
    document = _meets().export(args.meet)
    return _emit_json(document, args.output)


def _meet_import(args: argparse.Namespace, lang: str) -> int:
    base = _base(None, lang)  # AIDS_PUBLIC_URL is checked before the event is stored
    data = inputs.read_file(args.file, "FILE")
    service = _meets()
    info = service.import_(load_export(data))
    count = len(service.members(info.public_id))
    print(f"{t('meet.cli.imported', lang)}: {info.title} ({info.public_id}),"
          f" {t('meet.cli.tables', lang, n=count)}")  # fmt: skip
    print(meet_url(base, info.public_id))
    return 0


def _meet_key(args: argparse.Namespace, lang: str) -> int:
    base = _base(args.base_url, lang)  # checked before the old link is stopped
    key = _meets().reissue_key(args.meet)
    print(f"{t('meet.organiser_link', lang)}: {organiser_url(base, args.meet, key)}")
    return 0


def _bench(args: argparse.Namespace, lang: str) -> int:
    import importlib.util

    from aids.bench.targets import run

    if importlib.util.find_spec("pypdfium2") is None:  # the print baseline reads PDFs back
        raise InvalidAction("output/bench_extras")
    run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
