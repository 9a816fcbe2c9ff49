"""The ``aids`` parser in the language asked: help texts come from the catalogue (``cli.…``),
and argparse's own words (``usage:``, the headings, its argument errors) too. argparse passes
them through ``gettext``; while our parser is built and parses, ``speaking(lang)`` has argparse
look them up in our catalogue (any other use of argparse in the process is left as it was).
An argument error is a refusal like any other: ``input/argument``, exit status 2.

The language is needed before the parser is built, so ``asked_lang`` reads it from the command
line itself (``--lang X`` or ``--lang=X`` anywhere), else ``AIDS_LANG``, else the default."""

from __future__ import annotations

import argparse
import os
import re
import textwrap
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NoReturn

from aids.core.errors import InvalidAction
from aids.core.i18n import Lang, catalogue, normalise_lang

# argparse's own strings a user can meet (Python 3.11), each with its key in ``cli.argparse``.
# The catalogue writes argparse's ``%(name)s`` / ``%(name)r`` / ``%s`` / ``%r`` as ``{name}``,
# ``{name!r}``, ``{0}``, ``{0!r}``, like every other message.
ARGPARSE_KEYS: dict[str, str] = {
    "usage: ": "usage",
    "positional arguments": "positionals",
    "options": "options",
    "show this help message and exit": "help",
    "argument %(argument_name)s: %(message)s": "argument",
    "the following arguments are required: %s": "required",
    "one of the arguments %s is required": "one_of",
    "not allowed with argument %s": "not_with",
    "invalid choice: %(value)r (choose from %(choices)s)": "choice",
    "invalid %(type)s value: %(value)r": "type",
    "unrecognized arguments: %s": "unrecognized",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
    "ignored explicit argument %r": "explicit",
    "expected one argument": "one",
    "expected at most one argument": "at_most_one",
    "expected at least one argument": "at_least_one",
    "expected %s argument": "count_one",  # ngettext's two forms
    "expected %s arguments": "count",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "command",
    "unexpected option string: %s": "option_string",
}
_FIELD = re.compile(r"\{(\w+)(!r)?\}")
_speaking: ContextVar[Lang | None] = ContextVar("aids_cli_lang", default=None)
_gettext_of_argparse: Callable[[str], str] = vars(argparse)["_"]  # gettext's, as argparse has it
_ngettext_of_argparse: Callable[[str, str, int], str] = vars(argparse)["ngettext"]


def percent_form(text: str) -> str:
    """A catalogue text in argparse's %-form: ``{value!r}`` → ``%(value)r``, ``{0}`` → ``%s``."""

    def field(match: re.Match[str]) -> str:
        name, conversion = match.group(1), "r" if match.group(2) else "s"
        return f"%{conversion}" if name.isdigit() else f"%({name}){conversion}"

    return _FIELD.sub(field, text.replace("%", "%%"))


def argparse_text(message: str, lang: str) -> str:
    """argparse's ``message`` in ``lang`` (itself when it is not one we translate)."""
    key = ARGPARSE_KEYS.get(message)
    text = catalogue(normalise_lang(lang)).get(f"cli.argparse.{key}") if key else None
    return percent_form(text) if text is not None else message


def _gettext(message: str) -> str:
    lang = _speaking.get()
    return _gettext_of_argparse(message) if lang is None else argparse_text(message, lang)


def _ngettext(singular: str, plural: str, n: int) -> str:
    lang = _speaking.get()
    if lang is None:
        return _ngettext_of_argparse(singular, plural, n)
    return argparse_text(singular if n == 1 else plural, lang)


def _install() -> None:
    """argparse imported ``gettext`` as ``_`` and ``ngettext``: give it ours, once."""
    names = vars(argparse)
    if names.get("_") is not _gettext:
        names["_"], names["ngettext"] = _gettext, _ngettext


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """argparse speaks ``lang`` in here: build the parser and parse inside it (the headings
    and the ``-h`` help are made when a parser is made, the rest when it parses)."""
    _install()
    token = _speaking.set(normalise_lang(lang))
    try:
        yield
    finally:
        _speaking.reset(token)


def asked_lang(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> Lang:
    """The language of a command line: its last ``--lang ja|en`` (anywhere before ``--``),
    else ``AIDS_LANG``, else the default. A value that is no language is passed over here
    (the parser then refuses it, in the language found)."""
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        if value is not None and normalise_lang(value) == value:
            found = value
    return normalise_lang(found or environ.get("AIDS_LANG"))


# Japanese line breaking: never start a line with a closing mark, never end one on an opening one
NO_LINE_START = frozenset(
    "、。，．）」』】〕〉》・：；！？ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ,.:;!?)]}"
)
NO_LINE_END = frozenset("（「『【〔〈《([{")


def columns(text: str) -> int:
    """The columns ``text`` takes in a terminal: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns (a word longer than that stands alone).
    A line breaks at a space or between two wide characters, never before a closing mark or
    after an opening one; a text of no wide character is wrapped as argparse always did."""
    text = " ".join(text.split())
    if all(columns(c) == 1 for c in text):
        return textwrap.wrap(text, width)
    pieces: list[tuple[str, bool]] = []  # (piece, a space before it)
    spaced = False
    for char in text:
        if char == " ":
            spaced = True
            continue
        if pieces and not spaced:
            last = pieces[-1][0]
            joined = columns(char) == 1 and columns(last[-1]) == 1  # inside an ASCII word
            if joined or char in NO_LINE_START or last[-1] in NO_LINE_END:
                pieces[-1] = (last + char, pieces[-1][1])
                continue
        pieces.append((char, spaced))
        spaced = False
    lines: list[str] = []
    line = ""
    for piece, space in pieces:
        added = (" " if space and line else "") + piece
        if line and columns(line + added) > width:
            lines.append(line)
            line = piece
        else:
            line += added
    return [*lines, line] if line else lines


class Formatter(argparse.HelpFormatter):
    """argparse's help, wrapped by the columns a text takes (a Japanese character takes two)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any) -> str:
        """The usage lines aligned under a prefix of wide characters (``使い方: ``)."""
        prefix = _gettext("usage: ") if prefix is None else prefix
        extra = columns(prefix) - len(prefix)
        self._width -= extra
        try:
            text: str = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += extra
        first, *rest = text.split("\n")
        return "\n".join([first, *(" " * extra + line if line else line for line in rest)])


class Parser(argparse.ArgumentParser):
    """An argument error is ``input/argument`` (the error, the usage), exit status 2 from
    ``main`` like every refusal, not argparse's own exit: the message is in the language
    asked, and the code says what kind of refusal it is. Its help is wrapped by ``Formatter``
    (a subcommand's parser is a ``Parser`` too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise InvalidAction(
            "input/argument", detail=message, usage=self.format_usage().strip(), prog=self.prog
        )
