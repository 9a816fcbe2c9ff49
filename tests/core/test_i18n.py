"""The ja and en catalogues: same keys, same placeholders, and every key the code uses exists."""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path

import pytest

from aids.core.errors import AidsError
from aids.core.i18n import _flatten, catalogue, catalogue_files, t
from aids.registry import engines

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for p in (ROOT / "aids").rglob("*.py")] + [ROOT / "streamlit_app.py"]
ERROR_CALL = re.compile(
    r"\b(?:InvalidAction|RuleViolation|NotYourTurn|GameOver|StaleState|Forbidden|NotFound)"
    r"\(\s*\"([^\"]+)\""
)
KEY_CALL = re.compile(r"\btr?\(\s*\"([a-z_]+\.[^\"]+)\"")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        keys |= {f"errors.{code}" for code in ERROR_CALL.findall(source)}
        keys |= set(KEY_CALL.findall(source))
    # keys built at run time: from each registered game's declared facts, and the role names
    for kind, game in engines().items():
        keys |= {game.info.name_key, *game.info.rulings}
        keys |= {f"{kind}.sheet.subtitle", f"{kind}.sheet.how_to"}
    keys |= {f"table.role.{kind}" for kind in ("viewer", "referee", "seat", "chance")}
    return keys


def test_a_game_message_file_holds_only_its_own_keys() -> None:
    kinds = set(engines())
    for lang in ("ja", "en"):
        for path in catalogue_files(lang):
            if path.stem not in kinds:
                continue  # a shared file (core, …)
            flat: dict[str, str] = {}
            with open(path, "rb") as fh:
                _flatten("", tomllib.load(fh), flat, path)
            stray = [k for k in flat if not k.startswith((f"{path.stem}.", f"errors.{path.stem}/"))]
            assert stray == [], path


def test_catalogues_have_the_same_keys() -> None:
    assert set(catalogue("ja")) == set(catalogue("en"))


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_placeholders_match_between_languages(key: str) -> None:
    assert fields(catalogue("ja")[key]) == fields(catalogue("en")[key]), key


def test_every_key_the_code_uses_exists() -> None:
    keys = used_keys()
    assert len(keys) > 80  # the scan found the code's keys
    missing = sorted(k for k in keys if k not in catalogue("en") or k not in catalogue("ja"))
    assert missing == []


# Messages that are the same in both languages: a column's one-letter head, and the Grand
# National's money, written "$470,000" on every page (the game's own notes are dollars).
SAME_IN_BOTH = {"derby.ui.slot_short", "derby.ui.fence_short", "gn.report.score_value"}


def test_japanese_messages_are_japanese() -> None:
    ja = catalogue("ja")
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    untranslated = [k for k, v in ja.items() if not kana.search(v) and k not in SAME_IN_BOTH]
    assert untranslated == []


def test_error_message_is_rendered_per_language() -> None:
    err = AidsError("derby/slot_taken", horse="Red", fence=2, owner="Aki")
    assert err.message("en").startswith("Betting rule")
    assert "賭けのルール" in err.message("ja")
    assert t("no.such.key", "ja") == "no.such.key"
