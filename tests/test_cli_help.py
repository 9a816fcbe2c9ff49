"""``aids --help`` and argument errors speak the language asked (issue 26 §6): ``--lang``
anywhere on the line, else ``AIDS_LANG``, else Japanese; argparse's own words too. An argument
error is ``input/argument``, exit status 2, no traceback.

The commands run as real subprocesses, as the ``aids`` command does; the sweep over every
command's help calls ``main`` in this process (forty interpreters' start-up spared)."""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aids.cli import main
from aids.cli.parser import (
    ARGPARSE_KEYS,
    NO_LINE_END,
    NO_LINE_START,
    asked_lang,
    columns,
    percent_form,
    speaking,
    wrap,
)
from aids.core.i18n import catalogue

ROOT = Path(__file__).resolve().parents[1]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
VALUES = {"ja", "en", "both", "referee", "seat", "rotate", "list", "a4", "a5"}  # choices, roles
COMMANDS = {"serve", "print", "cards", "pack", "new", "export", "import", "key", "record",
            "report", "bench", "meet"}  # fmt: skip


def run(*args: str, lang: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """``aids`` in a subprocess; ``lang`` is ``AIDS_LANG`` (None: not set at all)."""
    environ = {k: v for k, v in os.environ.items() if k != "AIDS_LANG"}
    environ.pop("AIDS_GAME_PLUGINS", None)
    environ.update(env)
    if lang is not None:
        environ["AIDS_LANG"] = lang
    return subprocess.run(
        [sys.executable, "-m", "aids.cli", *args],
        capture_output=True, text=True, env=environ, cwd=ROOT, check=False,
    )  # fmt: skip


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The English words left in a text once option names, metavars, choices, paths, names in
    capitals (JSON, AIDS_PORT) and the ``allowed`` names (commands, positionals) are set aside."""
    text = re.sub(r"(?<![\w-])--?[\w-]+|\{[^}]*\}|\S*/\S*", " ", text)
    text = re.sub(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]+(?![A-Za-z0-9_])", " ", text)
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", text)} - allowed - VALUES)


def test_top_level_help_is_japanese_with_lang_ja() -> None:
    out = run("--lang", "ja", "--help", lang="en")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("使い方: aids ")
    for heading in (
        "引数:",
        "オプション:",
        "このヘルプを表示して終了します",
        "Streamlit のトラッカー",
    ):
        assert heading in out.stdout
    assert english_words(out.stdout, COMMANDS | {"aids", "Streamlit"}) == []


def test_meet_scan_help_is_japanese_with_lang_ja() -> None:
    out = run("--lang", "ja", "meet", "scan", "--help", lang="en")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("使い方: aids meet scan ")
    assert "イベントの公開ID" in out.stdout and "結果票" in out.stdout
    assert english_words(out.stdout, {"aids", "meet", "scan", "photos"}) == []


@pytest.mark.parametrize(
    "args",
    [("--help",), ("meet", "scan", "--help"), ("meet", "result", "--help"), ("record", "--help")],
)
def test_help_is_english_with_lang_en(args: tuple[str, ...]) -> None:
    out = run("--lang", "en", *args, lang="ja")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: aids")
    assert "positional arguments:" in out.stdout and "options:" in out.stdout
    assert "show this help message and exit" in out.stdout
    assert not JAPANESE.search(out.stdout), out.stdout


def fits(text: str, width: int) -> bool:
    """Every line within ``width`` terminal columns, none starting with a closing mark."""
    lines = text.splitlines()
    return all(columns(line) <= width and line.lstrip()[:1] not in NO_LINE_START
               for line in lines)  # fmt: skip


def help_in_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *words: str
) -> str:
    """``aids <words> --help`` through ``main`` in this process, on a 72-column terminal: the
    text argparse prints (the subprocess runs above show the command itself speaks so)."""
    monkeypatch.setenv("COLUMNS", "72")
    monkeypatch.delenv("AIDS_LANG", raising=False)
    with pytest.raises(SystemExit) as ended:
        main(["--lang", "ja", *words, "--help"])
    assert ended.value.code == 0
    return capsys.readouterr().out


def test_every_command_s_help_is_japanese_and_fits_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command and every ``meet`` action: no help text left in English, every line
    within the terminal's width counted in columns (a Japanese character takes two)."""
    for command in sorted(COMMANDS - {"meet"}):
        out = help_in_process(capsys, monkeypatch, command)
        allowed = {"aids", command, "table", "file", "game", "action", "photos", "ps", "live"}
        assert english_words(out, allowed) == [] and fits(out, 72), out
    actions = ["new", "list", "add", "remove", "show", "set", "pack", "sheet", "export",
               "paper", "result", "confirm", "slips", "scan", "import", "key"]  # fmt: skip
    for action in actions:
        out = help_in_process(capsys, monkeypatch, "meet", action)
        allowed = {"aids", "meet", action, "table", "paper", "file", "photos"}
        assert english_words(out, allowed) == [] and fits(out, 72), out


def test_wrap_counts_columns_and_keeps_marks_with_their_words() -> None:
    text = "鍵を書いたファイル（'-' なら標準入力）。なければ AIDS_KEY を読みます"
    for width in range(12, 40):
        lines = wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert all(columns(line) <= width for line in lines), (width, lines)
        assert not any(line[0] in NO_LINE_START for line in lines), (width, lines)
        assert not any(line[-1] in NO_LINE_END for line in lines), (width, lines)
    english = "rule cards front and back (--sheet-lang both): the first language on the fronts"
    assert wrap(english, 30) == textwrap.wrap(english, 30)  # English wraps as it always did


def test_a_missing_argument_is_refused_in_japanese() -> None:
    out = run("--lang", "ja", "meet", "new", "--title", "金曜", lang="en")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    assert lines[0] == "input/argument: 次の引数が必要です：--date"
    assert lines[1].startswith("使い方: aids meet new ")
    assert lines[-1] == "詳しくは aids meet new --help を見てください。"
    assert english_words(out.stderr, {"aids", "meet", "new", "input", "argument"}) == []


def test_an_invalid_choice_is_refused_in_japanese() -> None:
    out = run("--lang", "ja", "new", "chess", "--title", "x", "--player", "A", lang="en")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("input/argument: 引数 game：'chess' は選べません（選べるのは ")
    assert "'derby'" in out.stderr and "invalid choice" not in out.stderr
    unknown = run("--lang", "ja", "meet", "nosuch", lang="en")
    assert unknown.returncode == 2 and "'nosuch' は選べません" in unknown.stderr
    extra = run("--lang", "ja", "meet", "list", "--nosuch", lang="en")
    assert extra.returncode == 2 and "解釈できない引数があります：--nosuch" in extra.stderr


def test_aids_lang_en_without_lang_gives_english() -> None:
    out = run("meet", "new", "--title", "Friday", lang="en")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("input/argument: the following arguments are required: --date")
    assert "usage: aids meet new" in out.stderr and not JAPANESE.search(out.stderr)
    assert run("--help", lang="en").stdout.startswith("usage: aids")


def test_the_language_is_found_anywhere_and_japanese_by_default() -> None:
    assert run("meet", "scan", "--help", "--lang", "ja", lang="en").stdout.startswith("使い方")
    assert run("meet", "scan", "--help", "--lang=en", lang="ja").stdout.startswith("usage:")
    assert run("--help").stdout.startswith("使い方")  # no AIDS_LANG: the default, Japanese
    # --lang is still taken before the command only: elsewhere it is refused, in its language
    late = run("meet", "list", "--lang", "en", lang="ja")
    assert late.returncode == 2
    assert late.stderr.startswith("input/argument: unrecognized arguments: --lang en")
    # a value that is no language: refused in the language of the environment
    bad = run("--lang", "fr", "meet", "list", lang="en")
    assert bad.returncode == 2 and "invalid choice: 'fr'" in bad.stderr


def test_asked_lang_reads_the_line_then_the_environment() -> None:
    assert asked_lang(["--lang", "en", "meet"], {}) == "en"
    assert asked_lang(["--lang=en"], {"AIDS_LANG": "ja"}) == "en"
    assert asked_lang(["--lang", "en", "x", "--lang", "ja"], {}) == "ja"  # the last, as argparse
    assert asked_lang(["--lang", "fr"], {"AIDS_LANG": "en"}) == "en"
    assert asked_lang(["--", "--lang", "en"], {}) == "ja"
    assert asked_lang(["--lang"], {"AIDS_LANG": "en"}) == "en"
    assert asked_lang([], {"AIDS_LANG": "xx"}) == "ja"


def test_an_argument_error_in_process_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "ja", "meet", "new"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("input/argument: 次の引数が必要です：--title, --date")
    # argparse speaks its own English again outside our parser
    plain = argparse.ArgumentParser(prog="other")
    assert plain.format_usage().startswith("usage: other")
    with speaking("ja"):
        assert argparse.ArgumentParser(prog="other").format_usage().startswith("使い方: other")


def _percent_fields(text: str) -> list[str]:
    return sorted(re.findall(r"%(?:\(\w+\))?[sr]", text))


@pytest.mark.parametrize("message", sorted(ARGPARSE_KEYS))
def test_each_argparse_string_has_a_translation_with_its_fields(message: str) -> None:
    for lang in ("ja", "en"):
        text = catalogue(lang)[f"cli.argparse.{ARGPARSE_KEYS[message]}"]
        assert _percent_fields(percent_form(text)) == _percent_fields(message), (lang, text)
    assert percent_form(catalogue("en")[f"cli.argparse.{ARGPARSE_KEYS[message]}"]) == message


# argparse's strings that only a programmer meets (a parser built wrong) or that our parser
# cannot give (file types, titled subcommand groups, argparse's own exit line we replace)
NOT_FOR_USERS = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    'argument "-" with mode %r', "can't open '%(filename)s': %(error)s",
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    "conflicting option string: %s", "conflicting option strings: %s",
    "mutually exclusive arguments must be optional", "cannot have multiple subparser arguments",
    "%r is not callable", "%(prog)s: error: %(message)s\n",
}  # fmt: skip


def test_every_argparse_string_a_user_can_meet_is_translated() -> None:
    """argparse's ``_()`` and ``ngettext()`` strings, read from its source: a new Python that
    adds one fails here, not in front of a referee."""
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"_", "ngettext"}:
            found |= {
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            }
    found.discard("subcommands")  # a group title: ours have none
    assert sorted(found - NOT_FOR_USERS - set(ARGPARSE_KEYS)) == []
