"""The bad inputs, by surface: each case names the error code it must be refused with.

Kept apart from the tests so the counts per surface can be printed at the end of a run.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TEXT_CODES = ("input/not_text", "input/empty", "input/too_long", "input/invisible",
              "input/encoding")  # fmt: skip


@dataclass(frozen=True)
class Case:
    """One bad input: what it is, and the error code(s) it must be refused with."""

    name: str
    value: Any
    codes: tuple[str, ...]

    def __str__(self) -> str:
        return self.name


def case(name: str, value: Any, *codes: str) -> Case:
    return Case(name, value, codes)


# --- text: names and titles ----------------------------------------------------------------

BAD_TEXT: list[tuple[str, Any, str]] = [
    ("none", None, "input/not_text"),
    ("int", 5, "input/not_text"),
    ("list", ["Aki"], "input/not_text"),
    ("bytes", b"Aki", "input/not_text"),
    ("empty", "", "input/empty"),
    ("spaces", "   ", "input/empty"),
    ("ideographic space", "\u3000", "input/empty"),
    ("newline only", "\n", "input/empty"),
    ("esc", "A\x1b[31mki", "input/invisible"),
    ("bel", "Aki\x07", "input/invisible"),
    ("newline inside", "A\nki", "input/invisible"),
    ("tab inside", "A\tki", "input/invisible"),
    ("nul", "A\x00ki", "input/invisible"),
    ("del", "A\x7fki", "input/invisible"),
    ("zero width space", "A\u200bki", "input/invisible"),
    ("zero width joiner", "A\u200dki", "input/invisible"),
    ("bom", "\ufeffAki", "input/invisible"),
    ("word joiner", "A\u2060ki", "input/invisible"),
    ("bidi override", "A\u202eki", "input/invisible"),
    ("bidi isolate", "\u2066Aki", "input/invisible"),
    ("soft hyphen", "A\u00adki", "input/invisible"),
    ("line separator", "A\u2028ki", "input/invisible"),
    ("paragraph separator", "A\u2029ki", "input/invisible"),
    ("private use", "A\ue000ki", "input/invisible"),
    ("unassigned", "A\U000e0fffki", "input/invisible"),
    ("lone surrogate", "A\udcffki", "input/encoding"),
    ("surrogate pair halves", "\ud83d\ude00", "input/encoding"),
    ("c1 control", "A\x85ki", "input/invisible"),
    ("tag characters", "A\U000e0041ki", "input/invisible"),
]

LONG_NAME = "長" * 41
LONG_TITLE = "W" * 81


# --- service: actions ----------------------------------------------------------------------

BAD_ACTIONS: list[Case] = [
    case("none", None, "derby/malformed_action"),
    case("int", 7, "derby/malformed_action"),
    case("list", [{"type": "bet"}], "derby/malformed_action"),
    case("string", "bet", "derby/malformed_action"),
    case("empty dict", {}, "derby/malformed_action"),
    case("unknown type", {"type": "dance"}, "derby/malformed_action"),
    case("type none", {"type": None}, "derby/malformed_action"),
    case("type int", {"type": 1}, "derby/malformed_action"),
    case("type upper", {"type": "BET", "player": 0, "horse": 1}, "derby/malformed_action"),
]
for field in ("player", "horse"):
    for label, value in [
        ("missing", ...),
        ("str", "0"),
        ("float", 0.0),
        ("bool", True),
        ("none", None),
        ("list", [0]),
        ("fullwidth digit", "０"),
    ]:
        action: dict[str, Any] = {"type": "bet", "player": 0, "horse": 1}
        if value is ...:
            del action[field]
        else:
            action[field] = value
        BAD_ACTIONS.append(case(f"bet {field} {label}", action, "derby/malformed_action"))
for label, value, code in [
    ("player out of range", 9, "derby/unknown_player"),
    ("player negative", -1, "derby/unknown_player"),
    ("player huge", 10**30, "derby/unknown_player"),
]:
    BAD_ACTIONS.append(case(f"bet {label}", {"type": "bet", "player": value, "horse": 1}, code))
for label, value, code in [
    ("horse out of range", 8, "derby/unknown_horse"),
    ("horse negative", -1, "derby/unknown_horse"),
    ("horse huge", 2**63, "derby/unknown_horse"),
]:
    BAD_ACTIONS.append(case(f"bet {label}", {"type": "bet", "player": 0, "horse": value}, code))
BAD_ACTIONS.append(case("bet wrong seat", {"type": "bet", "player": 1, "horse": 1},
                        "derby/not_your_turn"))  # fmt: skip

BAD_CARDS: list[tuple[str, Any]] = [
    ("superscript two", "red:²"),
    ("circled one", "red:①"),
    ("arabic-indic three", "red:٣"),
    ("fullwidth six", "red:６"),
    ("math bold seven", "red:𝟕"),
    ("devanagari", "red:५"),
    ("ten", "red:10"),
    ("minus one", "red:-1"),
    ("plus one", "red:+1"),
    ("space before value", "red: 1"),
    ("space before colour", " red:1"),
    ("trailing space", "red:1 "),
    ("upper colour", "RED:1"),
    ("japanese colour", "赤:1"),
    ("unknown colour", "gold:1"),
    ("two colons", "red:1:2"),
    ("no colon", "red1"),
    ("empty", ""),
    ("only colon", ":"),
    ("value only", "5"),
    ("none", None),
    ("int", 5),
    ("list", ["red", 1]),
    ("dict", {"colour": "red", "value": 1}),
    ("lone surrogate", "red:\udcff"),
    ("esc", "red:\x1b1"),
    ("very long", "red:" + "1" * 5000),
    ("leading zero", "red:01"),
    ("float value", "red:1.0"),
    ("hex", "red:0x1"),
]
for label, value in BAD_CARDS:
    BAD_ACTIONS.append(case(f"card {label}",
                            {"type": "play", "player": 0, "horse": 0, "card": value},
                            "derby/unknown_card"))  # fmt: skip
for label, extra, code in [
    ("discard count str", {"discard_count": "2"}, "derby/malformed_action"),
    ("discard count float", {"discard_count": 2.0}, "derby/malformed_action"),
    ("discard count bool", {"discard_count": True}, "derby/malformed_action"),
    ("discard count negative", {"discard_count": -1}, "derby/malformed_action"),
    ("discard count before a fall", {"discard_count": 1}, "derby/discard_nothing_fallen"),
    ("discard count huge", {"discard_count": 10**40}, "derby/discard_nothing_fallen"),
    ("discard list str", {"discard": "red:1"}, "derby/malformed_action"),
    ("discard list of junk", {"discard": ["red:²"]}, "derby/unknown_card"),
    ("discard cards in tracking", {"discard": ["red:1"]}, "derby/malformed_action"),
]:
    BAD_ACTIONS.append(case(f"play {label}",
                            {"type": "play", "player": 0, "horse": 0, "card": "red:3"} | extra,
                            code))  # fmt: skip
for label, action, code in [
    ("card on the wrong horse", {"type": "play", "player": 0, "horse": 1, "card": "red:3"},
     "derby/card_wrong_horse"),
    ("pass before any fall", {"type": "pass", "player": 0}, "derby/pass_not_allowed"),
    ("pass wrong seat", {"type": "pass", "player": 1}, "derby/not_your_turn"),
    ("pass player str", {"type": "pass", "player": "0"}, "derby/malformed_action"),
    # a field the action does not have is refused, never dropped (it was, silently)
    ("play discard_count misspelt", {"type": "play", "player": 0, "horse": 0,
                                     "card": "red:3", "discard_cont": 3}, "input/unknown_field"),
    ("no cards left with a bet's fields", {"type": "no_cards_left", "player": 0, "horse": 5},
     "input/unknown_field"),
    ("no cards left unconfirmed with cards in the pile", {"type": "no_cards_left"},
     "derby/no_cards_left_pile"),
    ("no cards left confirm str", {"type": "no_cards_left", "confirm": "yes"},
     "derby/malformed_action"),
    ("bet with a seat field", {"type": "bet", "player": 0, "horse": 1, "seat": 0},
     "input/unknown_field"),
    ("pass with a card", {"type": "pass", "player": 0, "card": "red:3"}, "input/unknown_field"),
]:  # fmt: skip
    BAD_ACTIONS.append(case(label, action, code))

BAD_KEYS: list[tuple[str, Any]] = [
    ("none", None), ("empty", ""), ("space", " "), ("int", 1), ("list", ["k"]),
    ("dict", {"k": 1}), ("wrong", "not-the-key"), ("lone surrogate", "\udcff"),
    ("very long", "k" * 100_000), ("esc", "\x1b"), ("bytes", b"key"),
    ("percent encoded", "%41%42"), ("unicode", "鍵"),
]  # fmt: skip

BAD_PUBLIC_IDS: list[tuple[str, Any]] = [
    ("none", None), ("empty", ""), ("int", 5), ("short", "abc"), ("dash first", "-" * 24),
    ("dots", "../../etc/passwd"), ("very long", "a" * 10_000), ("lone surrogate", "\udcff" * 24),
    ("space", " " * 24), ("sql", "x' OR '1'='1' -- aaaaaaaa"), ("unicode", "表" * 24),
    ("list", ["a" * 24]), ("newline", "a" * 23 + "\n"), ("trailing newline", "a" * 24 + "\n"),
]  # fmt: skip

BAD_SEQS: list[tuple[str, Any, str]] = [
    ("none", None, "table/seq"), ("str", "0", "table/seq"), ("float", 0.0, "table/seq"),
    ("bool", False, "table/seq"), ("negative", -1, "table/stale"),
    ("ahead", 6, "table/stale"), ("huge", 10**30, "table/stale"),
]  # fmt: skip


# --- setups --------------------------------------------------------------------------------


def derby_setup(names: list[Any]) -> dict[str, Any]:
    colours = ["red", "blue", "green", "yellow", "black", "red"]
    horses = ["red", "blue", "green", "yellow", "white", "pink", "brown", "purple"]
    return {
        "players": [{"name": n, "colour": colours[i % 6]} for i, n in enumerate(names)],
        "horses": [{"name": h.title(), "colour": h} for h in horses],
        "mode": "tracking",
    }


BAD_SETUPS: list[Case] = [
    case(f"player name {label}", derby_setup([value, "Ben"]), code)
    for label, value, code in BAD_TEXT
]
BAD_SETUPS += [
    case("player name too long", derby_setup([LONG_NAME, "Ben"]), "input/too_long"),
    case("fullwidth look-alike", derby_setup(["Aki", "Ａｋｉ"]), "derby/setup_duplicate_player"),
    case("case look-alike", derby_setup(["Aki", "AKI"]), "derby/setup_duplicate_player"),
    case("nfc/nfd look-alike", derby_setup(["José", "Jose\u0301"]),
         "derby/setup_duplicate_player"),
    case("trailing space look-alike", derby_setup(["Aki", "Aki "]),
         "derby/setup_duplicate_player"),
    case("one player", derby_setup(["Aki"]), "derby/setup_player_count"),
    case("six players", derby_setup(list("ABCDEF")), "derby/setup_player_count"),
    case("no players", derby_setup([]), "derby/setup_player_count"),
    case("not a dict", ["Aki", "Ben"], "derby/setup_malformed"),
    case("players not a list", {"players": "Aki,Ben", "horses": []}, "derby/setup_malformed"),
    case("mode unknown", derby_setup(["Aki", "Ben"]) | {"mode": "cheat"}, "derby/setup_mode"),
    case("simulation without seed", derby_setup(["Aki", "Ben"]) | {"mode": "simulation"},
         "derby/setup_seed"),
    case("seed str", derby_setup(["Aki", "Ben"]) | {"seed": "7"}, "derby/setup_seed"),
    case("seed bool", derby_setup(["Aki", "Ben"]) | {"seed": True}, "derby/setup_seed"),
    case("setup misspelt field", derby_setup(["Aki", "Ben"]) | {"mdoe": "simulation"},
         "input/unknown_field"),
]  # fmt: skip
_player_extra = derby_setup(["Aki", "Ben"])
_player_extra["players"][0]["color"] = "red"
BAD_SETUPS.append(case("player row misspelt field", _player_extra, "input/unknown_field"))
_seven_horses = derby_setup(["Aki", "Ben"])
_seven_horses["horses"] = _seven_horses["horses"][:7]
BAD_SETUPS.append(case("seven horses", _seven_horses, "derby/setup_horse_count"))
_same_colour = copy.deepcopy(derby_setup(["Aki", "Ben"]))
_same_colour["horses"][1]["colour"] = "red"
BAD_SETUPS.append(case("two red horses", _same_colour, "derby/setup_horse_colours"))
_counter = derby_setup(["Aki", "Ben"])
_counter["players"][1]["colour"] = "red"
BAD_SETUPS.append(case("shared counter colour", _counter, "derby/setup_counter_colours"))
_horse_name = derby_setup(["Aki", "Ben"])
_horse_name["horses"][0]["name"] = "Red\u200b"
BAD_SETUPS.append(case("invisible horse name", _horse_name, "input/invisible"))
_horse_dupe = derby_setup(["Aki", "Ben"])
_horse_dupe["horses"][1]["name"] = "ＲＥＤ"
BAD_SETUPS.append(case("look-alike horse names", _horse_dupe, "derby/setup_duplicate_horse"))

BAD_TITLES: list[Case] = [case(f"title {label}", value, code) for label, value, code in BAD_TEXT]
BAD_TITLES.append(case("title too long", LONG_TITLE, "input/too_long"))


# --- import documents ----------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: list[Any], value: Any) -> Mutation:
    def apply(doc: dict[str, Any]) -> Any:
        node = doc
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
        return doc

    return apply


def _drop(path: list[Any]) -> Mutation:
    def apply(doc: dict[str, Any]) -> Any:
        node = doc
        for step in path[:-1]:
            node = node[step]
        del node[path[-1]]
        return doc

    return apply


def _whole(value: Any) -> Mutation:
    return lambda doc: value


def _add_key(role: str, revoked: str | None = None) -> Mutation:
    """One more key in the file (a forged writer, unless it is revoked)."""

    def apply(doc: dict[str, Any]) -> Any:
        doc["table"]["keys"].append({"role": role, "key_sha256": "e" * 64,
                                     "created_at": "2026-11-29T21:00:00+00:00",
                                     "revoked_at": revoked})  # fmt: skip
        return doc

    return apply


F = "import/field"
IMPORT_MUTATIONS: list[tuple[str, Mutation, str]] = [
    ("not an object", _whole([]), F),
    ("a string", _whole("table"), F),
    ("null", _whole(None), F),
    ("format wrong", _set(["format"], "other/format"), F),
    ("version 3", _set(["version"], 3), "import/version"),
    ("version str", _set(["version"], "2"), F),
    ("version bool", _set(["version"], True), F),
    ("extra top-level key", _set(["x"], 1), F),
    ("table not object", _set(["table"], []), F),
    ("events not list", _set(["events"], {}), F),
    ("public id short", _set(["table", "public_id"], "abc"), F),
    ("public id dash", _set(["table", "public_id"], "-" + "a" * 23), F),
    ("public id unicode", _set(["table", "public_id"], "表" * 24), F),
    ("public id trailing newline", _set(["table", "public_id"], "a" * 24 + "\n"), F),
    ("kind unknown", _set(["table", "kind"], "chess"), "table/unknown_game"),
    ("kind int", _set(["table", "kind"], 1), F),
    ("title empty", _set(["table", "title"], ""), "input/empty"),
    ("title markdown link ok but control", _set(["table", "title"], "[x](http://e)\x1b"),
     "input/invisible"),
    ("title too long", _set(["table", "title"], LONG_TITLE), "input/too_long"),
    ("created_at words", _set(["table", "created_at"], "yesterday"), F),
    ("created_at no zone", _set(["table", "created_at"], "2026-11-29T21:00:00"), F),
    ("created_at year 1", _set(["table", "created_at"], "0001-01-01T00:00:00+00:00"), F),
    ("created_at int", _set(["table", "created_at"], 1700000000), F),
    ("created_at long", _set(["table", "created_at"], "2026-11-29T21:00:00+00:00" + " " * 50),
     F),
    ("rules version str", _set(["table", "rules_version"], "1"), F),
    ("rules version unknown", _set(["table", "rules_version"], 7), "table/rules_version"),
    ("extra table key", _set(["table", "referee_key_sha256"], "0" * 64), F),
    ("setup extra key", _set(["table", "setup", "x"], 1), F),
    ("setup player extra key", _set(["table", "setup", "players", 0, "x"], 1), F),
    ("setup bad name", _set(["table", "setup", "players", 0, "name"], "\u200b"),
     "input/invisible"),
    ("keys not list", _set(["table", "keys"], {}), F),
    ("keys empty", _set(["table", "keys"], []), F),
    ("key not object", _set(["table", "keys", 0], "k"), F),
    ("key role unknown", _set(["table", "keys", 0, "role"], "boss"), F),
    ("key role viewer", _set(["table", "keys", 0, "role"], "viewer"), F),
    ("key role seat unicode", _set(["table", "keys", 0, "role"], "seat:١"), F),
    ("key hash short", _set(["table", "keys", 0, "key_sha256"], "abc"), F),
    ("key hash upper", _set(["table", "keys", 0, "key_sha256"], "A" * 64), F),
    ("key extra field", _set(["table", "keys", 0, "key"], "plain"), F),
    ("key revoked bad", _set(["table", "keys", 0, "revoked_at"], "soon"), F),
    ("only referee key revoked",
     _set(["table", "keys", 0, "revoked_at"], "2026-11-29T21:00:00+00:00"), F),
    ("event not object", _set(["events", 0], "e"), F),
    ("event seq skips", _set(["events", 0, "seq"], 2), F),
    ("event seq str", _set(["events", 0, "seq"], "1"), F),
    ("event kind unknown", _set(["events", 0, "kind"], "delete"), F),
    ("event actor unknown", _set(["events", 0, "actor"], "god"), F),
    ("event actor missing", _drop(["events", 0, "actor"]), F),
    ("event extra key", _set(["events", 0, "extra"], 1), F),
    ("event payload none", _set(["events", 0, "payload"], None), F),
    ("event payload list", _set(["events", 0, "payload"], [1]), F),
    ("event payload extra key", _set(["events", 0, "payload", "x"], 1), F),
    ("event payload bad card", _set(["events", 0, "payload", "card"], "blue:٣"),
     "derby/unknown_card"),
    ("undo with payload", _set(["events", 3, "payload"], {"type": "bet"}), F),
    ("undo payload string", _set(["events", 3, "payload"], "x"), F),
    ("event created_at bad", _set(["events", 0, "created_at"], "now"), F),
    ("illegal history", _set(["events", 2, "payload", "player"], 0), "import/replay"),
    ("redo first", _set(["events", 0, "kind"], "redo"), F),
    # only the keys and actors the game's roles allow (a Derby has no seat keys)
    ("live seat key on a game without seat keys", _add_key("seat:0"), "import/seat_key"),
    ("live seat key beyond the seats", _add_key("seat:7"), "import/seat_key"),
    ("second live referee key", _add_key("referee"), "import/key_twice"),
    ("event actor a seat without keys", _set(["events", 0, "actor"], "seat:0"), "import/actor"),
    ("event actor chance", _set(["events", 0, "actor"], "chance"), "import/actor"),
    ("event actor viewer", _set(["events", 0, "actor"], "viewer"), "import/actor"),
    ("event payload misspelt field", _set(["events", 0, "payload", "discard_cont"], 3), F),
    ("setup misspelt field", _set(["table", "setup", "mdoe"], "tracking"), F),
]  # fmt: skip
for field in ("format", "version", "table", "events"):
    IMPORT_MUTATIONS.append((f"missing {field}", _drop([field]), F))
for field in ("public_id", "kind", "title", "created_at", "rules_version", "setup", "keys"):
    IMPORT_MUTATIONS.append((f"missing table.{field}", _drop(["table", field]), F))
for field in ("seq", "kind", "created_at"):
    IMPORT_MUTATIONS.append((f"missing events[0].{field}", _drop(["events", 0, field]), F))

RAW_IMPORTS: list[tuple[str, bytes, str]] = [
    ("not json", b"{not json", "input/json"),
    ("empty file", b"", "input/json"),
    ("nested deep", b"[" * 100_000 + b"]" * 100_000, "input/json_depth"),
    ("nested 20", b"[" * 20 + b"]" * 20, "input/json_depth"),
    ("long integer", b'{"version": ' + b"9" * 5000 + b"}", "input/json_number"),
    ("nan", b'{"version": NaN}', "input/json"),
    ("infinity", b'{"version": Infinity}', "input/json"),
    ("not utf-8", b'{"title": "\xff\xfe"}', "input/json"),
    ("utf-16 object of another shape", json.dumps({"a": 1}).encode("utf-16"), "import/field"),
    ("too big", b" " * (9 * 1024 * 1024), "input/too_big"),
    ("trailing garbage", b"{}garbage", "input/json"),
    ("lone surrogate escape", b'{"format": "\\udcff"}', "import/field"),
]


# --- Ekiden ---------------------------------------------------------------------------------
# The table: 3 teams, Aki (team 0) starts, leg 1's situation card revealed: the start player
# stands last, so team 0 plays first.
EKIDEN_CARD = {"power": 4, "up": 2, "down": 1}
EKIDEN_BAD_ACTIONS: list[Case] = [
    case("run none", None, "ekiden/malformed"),
    case("run unknown type", {"type": "sprint"}, "ekiden/malformed"),
    case("run without runner or pick", {"type": "run", "team": 0, "leg": 1},
         "ekiden/run_choice"),
    case("run with both", {"type": "run", "team": 0, "leg": 1, "pick": 0,
                           "runner": EKIDEN_CARD}, "ekiden/run_choice"),
    case("run pick str", {"type": "run", "team": 0, "leg": 1, "pick": "0"}, "ekiden/malformed"),
    case("run pick without roster", {"type": "run", "team": 0, "leg": 1, "pick": 0},
         "ekiden/no_roster"),
    case("run team str", {"type": "run", "team": "0", "leg": 1, "runner": EKIDEN_CARD},
         "ekiden/malformed"),
    case("run team out of range", {"type": "run", "team": 7, "leg": 1, "runner": EKIDEN_CARD},
         "ekiden/unknown_team"),
    case("run wrong leg", {"type": "run", "team": 0, "leg": 2, "runner": EKIDEN_CARD},
         "ekiden/wrong_leg"),
    case("run out of order", {"type": "run", "team": 2, "leg": 1, "runner": EKIDEN_CARD},
         "ekiden/not_your_turn"),
    case("power 7", {"type": "run", "team": 0, "leg": 1,
                     "runner": EKIDEN_CARD | {"power": 7}}, "ekiden/runner_power"),
    case("power 1", {"type": "run", "team": 0, "leg": 1,
                     "runner": EKIDEN_CARD | {"power": 1}}, "ekiden/runner_power"),
    case("power fullwidth", {"type": "run", "team": 0, "leg": 1,
                             "runner": EKIDEN_CARD | {"power": "６"}}, "ekiden/malformed"),
    case("up 10", {"type": "run", "team": 0, "leg": 1, "runner": EKIDEN_CARD | {"up": 10}},
         "ekiden/runner_steps"),
    case("down negative", {"type": "run", "team": 0, "leg": 1,
                           "runner": EKIDEN_CARD | {"down": -1}}, "ekiden/runner_steps"),
    case("unknown skill", {"type": "run", "team": 0, "leg": 1,
                           "runner": EKIDEN_CARD | {"skill": "teleport"}}, "ekiden/runner_skill"),
    case("skill upper", {"type": "run", "team": 0, "leg": 1,
                         "runner": EKIDEN_CARD | {"skill": "UPHILL"}}, "ekiden/runner_skill"),
    case("runner extra key", {"type": "run", "team": 0, "leg": 1,
                              "runner": EKIDEN_CARD | {"speed": 9}}, "input/unknown_field"),
    case("runner invisible name", {"type": "run", "team": 0, "leg": 1,
                                   "runner": EKIDEN_CARD | {"name": "A\u200b"}},
         "input/invisible"),
    case("situation again", {"type": "situation", "leg": 1, "marks": "ooooo"},
         "ekiden/situation_not_now"),
    case("marks short", {"type": "situation", "leg": 1, "marks": "oox"}, "ekiden/marks"),
    case("marks unknown", {"type": "situation", "leg": 1, "marks": "ooooO"}, "ekiden/marks"),
    case("marks fullwidth", {"type": "situation", "leg": 1, "marks": "ｏｏｏｏｏ"},
         "ekiden/marks"),
    case("marks list", {"type": "situation", "leg": 1, "marks": ["o"] * 5}, "ekiden/marks"),
    case("roster of nine", {"type": "roster", "team": 0, "runners": [EKIDEN_CARD] * 9},
         "ekiden/roster_size"),
    case("roster huge", {"type": "roster", "team": 0, "runners": [EKIDEN_CARD] * 5000},
         "ekiden/malformed"),
    case("roster bad card", {"type": "roster", "team": 0,
                             "runners": [EKIDEN_CARD | {"power": 9}] * 10},
         "ekiden/runner_power"),
]  # fmt: skip
