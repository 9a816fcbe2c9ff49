"""The ``aids`` command in a real subprocess, against a real SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader


def aids(*args: str, db: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, AIDS_DB=str(db), AIDS_PUBLIC_URL="http://tracker.test:8501")
    return subprocess.run(
        [sys.executable, "-m", "aids.cli", *args],
        capture_output=True, text=True, env=env, check=check,
    )  # fmt: skip


def test_print_blank_sheets_in_both_languages(tmp_path: Path) -> None:
    out = aids("print", "derby", "--out", str(tmp_path), db=tmp_path / "a.sqlite3")
    files = [Path(line) for line in out.stdout.split()]
    assert sorted(f.name for f in files) == [
        "derby-sheet-blank-en-a4.pdf",
        "derby-sheet-blank-ja-a4.pdf",
    ]
    assert (
        "第1柵"
        in PdfReader(files[1] if "ja" in files[1].name else files[0]).pages[0].extract_text()
    )


def test_new_export_import_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    out = aids("--lang", "en", "new", "derby", "--title", "CLI", "--player", "Aki",
               "--player", "Ben", db=db).stdout  # fmt: skip
    referee = next(line for line in out.splitlines() if "key=" in line)
    public_id = referee.split("table=")[1].split("&")[0]
    exported = tmp_path / "t.json"
    aids("export", public_id, "-o", str(exported), db=db)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["table"]["public_id"] == public_id and data["table"]["title"] == "CLI"

    # an import never overwrites: the same file into the same store is refused
    again = aids("--lang", "en", "import", str(exported), db=db, check=False)
    assert again.returncode == 2 and "already exists" in again.stderr
    fresh = aids("import", str(exported), db=tmp_path / "b.sqlite3")
    assert public_id in fresh.stdout

    out = aids("print", "derby", "--table", public_id, "--sheet-lang", "en", "--out",
               str(tmp_path), db=db).stdout  # fmt: skip
    assert "Aki" in PdfReader(out.strip()).pages[0].extract_text()


@pytest.mark.parametrize(
    ("content", "lang", "expect"),
    [
        ("{not json", "en", "not valid JSON"),
        ('{"format": "race-night-aids/table", "version": 1}', "ja", "「table」"),
    ],
)
def test_import_of_damaged_file_is_refused_clearly(
    tmp_path: Path, content: str, lang: str, expect: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = aids("--lang", lang, "import", str(bad), db=tmp_path / "a.sqlite3", check=False)
    assert result.returncode == 2
    assert expect in result.stderr
