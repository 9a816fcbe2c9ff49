"""``aids meet …``: events of many tables, as the host (no organiser key is asked: whoever runs
the command holds the data): create one, add and remove tables, tables played on paper and
their results, show, print and export its standings (JSON, or CSV for a spreadsheet), import
one back, a new organiser link."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aids import registry
from aids.cli.common import base_url_for, emit_json, output_folder, sheet_langs, write_output
from aids.core import inputs
from aids.core.errors import AidsError, InvalidAction
from aids.core.i18n import LANGS, t
from aids.core.links import meet_url, organiser_url
from aids.meets import MeetInfo, MeetService, scoring_of
from aids.meets.paper_tables import ResultEntry
from aids.meets.papers import PaperStatus, check_result
from aids.meets.spreadsheet import results_csv, standings_csv
from aids.meets.status import Listed
from aids.registry import open_service
from aids.tables import load_export

if TYPE_CHECKING:
    from aids.scan.proposal import Proposal

FIELD_KEYS = ("points", "money", "prize", "column")  # the numbers a paper result may ask


def meet_parser(sub: Any, lang: str) -> None:
    """``aids meet …``: events of many tables, as the host (no organiser key is asked: whoever
    runs the command holds the data); its help in ``lang``."""
    meet = sub.add_parser("meet", help=t("cli.cmd.meet", lang))
    msub = meet.add_subparsers(required=True, metavar="ACTION")
    meet_id = t("cli.meet.meet_id", lang)
    new = msub.add_parser("new", help=t("cli.meet.new", lang))
    new.add_argument("--title", required=True)
    new.add_argument("--date", required=True, help=t("cli.meet.date", lang))
    new.add_argument("--rule", choices=["placing", "score"], default="placing")
    new.add_argument("--points", help=t("cli.meet.points_new", lang))
    new.add_argument("--base-url")
    new.set_defaults(run=_meet_new)
    lst = msub.add_parser("list", help=t("cli.meet.list", lang))
    lst.set_defaults(run=_meet_list)
    for name, help_text, run in (
        ("add", t("cli.meet.add", lang), _meet_add),
        ("remove", t("cli.meet.remove", lang), _meet_remove),
    ):
        cmd = msub.add_parser(name, help=help_text)
        cmd.add_argument("meet", help=meet_id)
        cmd.add_argument("table", help=t("cli.meet.table", lang))
        cmd.set_defaults(run=run)
    show = msub.add_parser("show", help=t("cli.meet.show", lang))
    show.add_argument("meet", help=meet_id)
    show.set_defaults(run=_meet_show)
    set_ = msub.add_parser("set", help=t("cli.meet.set", lang))
    set_.add_argument("meet", help=meet_id)
    set_.add_argument("--title")
    set_.add_argument("--date", help=t("cli.meet.date", lang))
    set_.add_argument("--rule", choices=["placing", "score"])
    set_.add_argument("--points", help=t("cli.meet.points_set", lang))
    set_.set_defaults(run=_meet_set)
    for name, help_text, run in (
        ("pack", t("cli.meet.pack", lang), _meet_pack),
        ("sheet", t("cli.meet.sheet", lang), _meet_sheet),
    ):
        cmd = msub.add_parser(name, help=help_text)
        cmd.add_argument("meet", help=meet_id)
        cmd.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
        cmd.add_argument("--paper", choices=["a4", "letter", "a3"], default="a4")
        cmd.add_argument("--base-url", help=t("cli.meet.base_url", lang))
        cmd.add_argument("--out", type=Path, help=t("cli.arg.out", lang))
        cmd.set_defaults(run=run)
    exp = msub.add_parser("export", help=t("cli.meet.export", lang))
    exp.add_argument("meet", help=meet_id)
    exp.add_argument("-o", "--output", type=Path, help=t("cli.arg.output", lang))
    exp.add_argument("--csv", choices=["standings", "results"], help=t("cli.meet.csv", lang))
    exp.set_defaults(run=_meet_export)
    _paper_parsers(msub, lang)
    imp = msub.add_parser("import", help=t("cli.meet.import", lang))
    imp.add_argument("file", type=Path)
    imp.set_defaults(run=_meet_import)
    key = msub.add_parser("key", help=t("cli.meet.key", lang))
    key.add_argument("meet", help=meet_id)
    key.add_argument("--base-url")
    key.set_defaults(run=_meet_key)


def _meets() -> MeetService:
    return MeetService(open_service())


def _meet_new(args: argparse.Namespace, lang: str) -> int:
    base = base_url_for(args.base_url, lang)  # checked before the event is stored
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
        count = _count(service, info.public_id)
        print(f"{info.public_id}\t{info.date}\t{info.title}\t{t('meet.cli.tables', lang, n=count)}")
    return 0


def _count(service: MeetService, public_id: str) -> int:
    """The event's tables: tracked and played on paper."""
    return len(service.members(public_id)) + len(service.papers_of(public_id))


def _meet_add(args: argparse.Namespace, lang: str) -> int:
    table = _meets().add_table(args.meet, None, args.table, host=True)
    print(f"{t('meet.cli.added', lang)}: {table.title} ({table.public_id})")
    return 0


def _meet_remove(args: argparse.Namespace, lang: str) -> int:
    """A tracked table leaves the event (and stays as a table); a paper table of the event
    is removed with its result log."""
    service = _meets()
    if any(p.public_id == args.table for p in service.papers_of(args.meet)):
        service.remove_paper(args.meet, None, args.table, host=True)
        print(t("meet.cli.paper_removed", lang))
        return 0
    service.remove_table(args.meet, None, args.table, host=True)
    print(t("meet.cli.removed", lang))
    return 0


def _meet_show(args: argparse.Namespace, lang: str) -> int:
    """The standings and the tables (tracked, then on paper) as tab-separated text (a
    terminal, a spreadsheet)."""
    service = _meets()
    info = service.info(args.meet)
    tables, papers = service.tables_of(args.meet), service.papers_of(args.meet)
    print(f"{info.title} · {info.date}")
    print(info.scoring.describe(lang))
    print()
    print(t("meet.standings", lang))
    heads = ("rank", "name", "points", "played", "wins", "in_play")
    print("\t".join(t(f"meet.col.{h}", lang) for h in heads))
    for row in service.standings(args.meet, tables, papers):
        cells = (row.rank, row.name, row.points, row.played, row.wins, row.in_play)
        print("\t".join(str(c) for c in cells))
    print()
    print(t("meet.tables", lang))
    listed: list[Listed] = [*tables, *papers]
    for n, status in enumerate(listed, start=1):
        game = t(f"{status.kind}.name", lang)
        print(f"{n}\t{status.public_id}\t{game}\t{status.title}\t{status.line(lang)}")
    looks = [p for p in papers if p.problem is not None]
    if looks:
        print()
        print(t("meet.paper.look_rule", lang))
        for paper in looks:
            print(f"{paper.public_id}\t{paper.look(lang)}")
        print(t("meet.cli.look_fix", lang))
    return 0


def _meet_set(args: argparse.Namespace, lang: str) -> int:
    """Title, date, rule. ``--points`` alone changes the placing points of an event under
    the placing rule; under the score rule it is refused (``meet/points_need_rule``), never
    a silent switch of the rule: ``--rule placing --points …`` says so."""
    scoring = None
    if args.rule is not None or args.points is not None:
        rule = args.rule
        if rule is None:
            rule = _meets().info(args.meet).scoring.rule
            if rule == "score":
                raise InvalidAction("meet/points_need_rule")
        scoring = _scoring(rule, args.points)
    info = _meets().update(args.meet, None, title=args.title, date=args.date, scoring=scoring,
                           host=True)  # fmt: skip
    print(f"{info.title} · {info.date} · {info.scoring.describe(lang)}")
    return 0


def _meet_print(args: argparse.Namespace, lang: str, what: str) -> int:
    from aids.print.meet_sheet import render_meet_pack, render_standings

    service = _meets()
    info = service.info(args.meet)
    tables, papers = service.tables_of(args.meet), service.papers_of(args.meet)
    rows = service.standings(args.meet, tables, papers)
    base, out_dir = base_url_for(args.base_url, lang), output_folder(args)
    render = render_meet_pack if what == "pack" else render_standings
    for sheet_lang in sheet_langs(args):
        pdf = render(info, tables, rows, base, sheet_lang, args.paper, papers)
        path = out_dir / f"event-{what}-{info.public_id[:8]}-{sheet_lang}-{args.paper}.pdf"
        write_output(path, pdf)
        print(path)
    return 0


def _meet_pack(args: argparse.Namespace, lang: str) -> int:
    return _meet_print(args, lang, "pack")


def _meet_sheet(args: argparse.Namespace, lang: str) -> int:
    return _meet_print(args, lang, "standings")


def _meet_export(args: argparse.Namespace, lang: str) -> int:
    if args.csv:
        service = _meets()
        if args.csv == "standings":
            text = standings_csv(service.standings(args.meet), lang)
        else:
            text = results_csv(service.tables_of(args.meet), service.papers_of(args.meet),
                               service.info(args.meet).scoring, lang)  # fmt: skip
        if args.output is None:
            sys.stdout.write(text)
            return 0
        write_output(args.output, text.encode("utf-8"))
        print(args.output)
        return 0
    document = _meets().export(args.meet)
    return emit_json(document, args.output)


# --- tables played on paper -------------------------------------------------------------------


def _paper_parsers(msub: Any, lang: str) -> None:
    meet_id, paper_id = t("cli.meet.meet_id", lang), t("cli.meet.paper_id", lang)
    paper = msub.add_parser("paper", help=t("cli.meet.paper", lang))
    paper.add_argument("meet", help=meet_id)
    paper.add_argument("--game", required=True, choices=list(registry.entries()))
    paper.add_argument("--title", required=True)
    paper.add_argument("--players", required=True, help=t("cli.meet.players", lang))
    paper.set_defaults(run=_meet_paper)
    result = msub.add_parser("result", help=t("cli.meet.result", lang))
    result.add_argument("meet", help=meet_id)
    result.add_argument("paper", help=paper_id)
    result.add_argument("--places", required=True, help=t("cli.meet.places", lang))
    for key in FIELD_KEYS:  # cli.meet.result_points, …_money, …_prize, …_column
        result.add_argument(f"--{key}", help=t(f"cli.meet.result_{key}", lang))
    result.add_argument("--confirm", action="store_true", help=t("cli.meet.result_confirm", lang))
    result.set_defaults(run=_meet_result)
    confirm = msub.add_parser("confirm", help=t("cli.meet.confirm", lang))
    confirm.add_argument("meet", help=meet_id)
    confirm.add_argument("paper", help=paper_id)
    confirm.set_defaults(run=_meet_confirm)
    slips = msub.add_parser("slips", help=t("cli.meet.slips", lang))
    slips.add_argument("meet", help=meet_id)
    slips.add_argument("--table", help=t("cli.meet.slips_table", lang))
    slips.add_argument("--sheet-lang", choices=[*LANGS, "both"], default="both")
    slips.add_argument("--paper", choices=["a5", "a4"], default="a5",
                       help=t("cli.meet.slips_paper", lang))  # fmt: skip
    slips.add_argument("--out", type=Path, help=t("cli.arg.out", lang))
    slips.set_defaults(run=_meet_slips)
    scan = msub.add_parser("scan", help=t("cli.meet.scan", lang))
    scan.add_argument("meet", help=meet_id)
    scan.add_argument("photos", nargs="+", type=Path, help=t("cli.meet.photos", lang))
    scan.add_argument("--confirm", action="store_true", help=t("cli.meet.scan_confirm", lang))
    scan.set_defaults(run=_meet_scan)


def _meet_paper(args: argparse.Namespace, lang: str) -> int:
    service = _meets()
    game = service.tables.game(args.game)
    names = [n.strip() for n in str(args.players).split(",") if n.strip()]
    setup = game.setup_to_dict(game.default_setup(names, lang))
    made = service.new_paper(args.meet, None, args.game, args.title, setup, host=True)
    print(f"{t('meet.cli.paper_added', lang)}: {made.title} ({made.public_id})")
    return 0


def _meet_result(args: argparse.Namespace, lang: str) -> int:
    service = _meets()
    status = service.paper(args.meet, args.paper)
    raw: dict[str, Any] = {"places": _list(args.places)}
    for key in FIELD_KEYS:
        if getattr(args, key) is not None:
            raw[key] = _list(getattr(args, key))
    done = service.enter_result(args.meet, None, args.paper, raw, expected_seq=status.seq,
                                confirm=args.confirm, host=True)  # fmt: skip
    print(done.line(lang))
    return 0


def _meet_confirm(args: argparse.Namespace, lang: str) -> int:
    service = _meets()
    status = service.paper(args.meet, args.paper)
    print(service.confirm_result(args.meet, None, args.paper, expected_seq=status.seq,
                                 host=True).line(lang))  # fmt: skip
    return 0


def _meet_slips(args: argparse.Namespace, lang: str) -> int:
    from aids.print.meet_slips import event_slips

    service = _meets()
    info, papers = service.info(args.meet), service.papers_of(args.meet)
    if args.table:
        papers = [service.paper(args.meet, args.table)]
    out_dir = output_folder(args)
    tag = args.table[:8] if args.table else info.public_id[:8]
    for sheet_lang in sheet_langs(args):
        path = out_dir / f"slips-{tag}-{sheet_lang}-{args.paper}.pdf"
        write_output(path, event_slips(info, papers, sheet_lang, args.paper))  # type: ignore[arg-type]
        print(path)
    return 0


@dataclass
class _Photo:
    """One photo of ``aids meet scan``: the table it is of and the result read, or why it
    cannot be recorded (``refused``, in the user's language)."""

    path: Path
    status: PaperStatus | None = None
    proposed: Proposal | None = None
    refused: str | None = None


def _meet_scan(args: argparse.Namespace, lang: str) -> int:
    """Each photo read, matched to its paper table and checked; its result printed, every
    flagged field named, and what became of it. With ``--confirm`` every result is recorded,
    confirmed, with its photo's hash, in one write — or none is: a photo that cannot be
    read, has a flagged field, breaks the game's rules, is a second photo of one table or is
    of a table confirmed already stops them all (exit 2, each photo's reason printed)."""
    service = _meets()
    info = service.info(args.meet)
    papers = service.papers_of(args.meet)
    photos = [_scan_photo(path, info, papers, lang) for path in args.photos]
    unread = sum(1 for p in photos if p.refused is not None)
    _check_photos(photos, lang)  # said without --confirm too: what recording would refuse
    for photo in photos:
        print(f"{photo.path}\t" + (f"{photo.status.title} ({photo.status.public_id})"
                                    if photo.status else "—"))  # fmt: skip
        if photo.proposed is not None:
            values = photo.proposed.result.items()
            print("\t" + "\t".join(f"{t(f'paper.field.{k}', lang)}: {_shown(v)}"
                                    for k, v in values))  # fmt: skip
            for line in photo.proposed.flagged:
                print(f"\t{line}")
        if photo.refused is not None:
            print(f"\t{t('meet.scan.cli_refused', lang)}: {photo.refused}")
    refused = sum(1 for p in photos if p.refused is not None)
    if args.confirm and refused:
        raise InvalidAction("meet/scan_none_recorded", n=refused, of=len(photos))
    if unread:
        raise InvalidAction("meet/scan_unread", n=unread, of=len(photos))
    if not args.confirm:
        return 0
    entries = [
        ResultEntry(p.status.public_id, p.proposed.result, p.status.seq, p.proposed.photo_sha256)
        for p in photos
        if p.status is not None and p.proposed is not None
    ]
    for done in service.enter_results(args.meet, None, entries, confirm=True, host=True):
        print(f"{done.title}\t{done.line(lang)}")
    return 0


def _scan_photo(path: Path, info: MeetInfo, papers: list[PaperStatus], lang: str) -> _Photo:
    """One photo read and matched to its paper table; a refusal kept, not raised."""
    from aids.scan import read_slip
    from aids.scan.proposal import match, proposal

    photo = _Photo(path)
    try:
        reading = read_slip(inputs.read_file(path, "PHOTO", max_bytes=inputs.MAX_PHOTO_BYTES))
        photo.status = match(info, papers, reading)
        photo.proposed = proposal(photo.status, reading, lang)  # type: ignore[arg-type]
    except AidsError as exc:
        photo.refused = f"{exc.code}: {exc.message(lang)}"
    return photo


def _check_photos(photos: list[_Photo], lang: str) -> None:
    """What would stop a photo's result being recorded, found before anything is: a flagged
    field, the game's rules for results, a second photo of one table."""
    seen: dict[str, int] = {}
    for n, photo in enumerate(photos):
        if photo.refused is not None or photo.status is None or photo.proposed is None:
            continue
        first = seen.setdefault(photo.status.public_id, n)
        if first != n:
            photo.refused = t("meet.scan.cli_twice", lang, other=str(photos[first].path))
        elif not photo.proposed.complete:
            photo.refused = t("meet.scan.cli_flagged", lang)
        else:
            try:
                check_result(photo.status, photo.proposed.result)
            except AidsError as exc:
                photo.refused = f"{exc.code}: {exc.message(lang)}"


def _shown(values: list[int | None]) -> str:
    return ",".join("?" if v is None else str(v) for v in values)


def _list(text: str) -> list[str]:
    """``2,1,3`` (spaces, full-width commas too) as the strings the service checks."""
    return [part.strip() for part in str(text).replace("，", ",").replace("、", ",").split(",")]


def _meet_import(args: argparse.Namespace, lang: str) -> int:
    base = base_url_for(None, lang)  # AIDS_PUBLIC_URL is checked before the event is stored
    data = inputs.read_file(args.file, "FILE")
    service = _meets()
    info = service.import_(load_export(data))
    count = _count(service, info.public_id)
    print(f"{t('meet.cli.imported', lang)}: {info.title} ({info.public_id}),"
          f" {t('meet.cli.tables', lang, n=count)}")  # fmt: skip
    print(meet_url(base, info.public_id))
    return 0


def _meet_key(args: argparse.Namespace, lang: str) -> int:
    base = base_url_for(args.base_url, lang)  # checked before the old link is stopped
    key = _meets().reissue_key(args.meet)
    print(f"{t('meet.organiser_link', lang)}: {organiser_url(base, args.meet, key)}")
    return 0
