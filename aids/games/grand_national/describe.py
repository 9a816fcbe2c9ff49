"""Grand National's words: horses, money and log lines in Japanese or English."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.grand_national.data import load
from aids.games.grand_national.engine import cash, running
from aids.games.grand_national.model import (
    Action,
    Bet,
    BlindBet,
    Boxed,
    Card,
    GnState,
    Going,
    LaneSpin,
    Move,
    PullUp,
    SetHandicap,
    SetOdds,
    Spin,
    Start,
)


def money(amount: int) -> str:
    """``$250,000``.

    >>> money(250000), money(-1500)
    ('$250,000', '-$1,500')
    """
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def stable_label(state: GnState, seat: int) -> str:
    stable = state.setup.stables[seat]
    colour = load().colour(stable.colour)
    return f"{colour.symbol if colour else ''} {stable.name}".strip()


def horse_label(state: GnState, horse: int) -> str:
    """``🔴 Red Rum`` — the owner's colour and the horse's name."""
    colour = load().colour(state.setup.stables[state.owner(horse)].colour)
    return f"{colour.symbol if colour else ''} {state.setup.horse(horse).name}".strip()


def colour_name(colour: str, lang: str) -> str:
    found = load().colour(colour)
    return found.label(lang) if found else colour


def describe(state: GnState, action: Action, lang: str) -> str:
    if isinstance(action, BlindBet):
        return t("gn.log.blind_bet", lang, stable=stable_label(state, action.seat))
    if isinstance(action, Going):
        return t("gn.log.going", lang, going=t(f"gn.going.{action.going}", lang))
    if isinstance(action, LaneSpin):
        return t(
            "gn.log.lane_spin", lang, lane=action.lane, colour=colour_name(action.colour, lang)
        )
    if isinstance(action, SetHandicap):
        return t("gn.log.handicap", lang, horse=horse_label(state, action.horse), mark=action.mark)
    if isinstance(action, SetOdds):
        return t("gn.log.odds", lang, horse=horse_label(state, action.horse),
                 win=action.win.text(), show=action.show.text())  # fmt: skip
    if isinstance(action, Bet):
        return t("gn.log.bet", lang, stable=stable_label(state, action.seat),
                 horse=horse_label(state, action.horse), kind=t(f"gn.kind.{action.kind}", lang),
                 stake=money(action.stake))  # fmt: skip
    if isinstance(action, Start):
        return t("gn.log.start", lang)
    if isinstance(action, Spin):
        return t("gn.log.spin", lang, colour=colour_name(action.colour, lang))
    if isinstance(action, Move):
        key = "gn.log.move_blocked" if action.blocked else "gn.log.move"
        return t(key, lang, horse=horse_label(state, action.horse), forward=action.forward,
                 lane=action.lane)  # fmt: skip
    if isinstance(action, Boxed):
        return t("gn.log.boxed", lang, horse=horse_label(state, action.horse))
    if isinstance(action, Card):
        value = action.value if action.effect == "advance" else f"{action.value:+d}"
        horse = horse_label(state, action.horse)
        if action.effect == "advance" and action.moved is not None and action.moved < action.value:
            return t("gn.log.card_advance_short", lang, horse=horse, value=value,
                     moved=action.moved)  # fmt: skip
        return t(f"gn.log.card_{action.effect}", lang, horse=horse, value=value)
    assert isinstance(action, PullUp)
    return t("gn.log.pull_up", lang, horse=horse_label(state, action.horse))


def listed(labels: list[str], lang: str) -> str:
    """Names in a sentence: ``🔴 Aki, 🔵 Ben`` / ``🔴 Aki、🔵 Ben``."""
    return ("、" if lang == "ja" else ", ").join(labels)


def sole_leader(state: GnState) -> int | None:
    """The running horse farthest along, if no other running horse is level with it."""
    field = sorted(running(state), key=lambda h: -state.distance[h])
    if not field or (len(field) > 1 and state.distance[field[1]] == state.distance[field[0]]):
        return None
    return field[0]


def aftermath(before: GnState, after: GnState, lang: str) -> tuple[str, ...]:
    """What a step caused beyond its own line: the last blind bet in, the grid top the going
    sets, a lane's stables as its spin set them, horses finishing (their place) or pulled up
    by the rules (out of speed points, lapped), a horse running too free, a lost turn taken,
    a new sole leader before anyone finishes, the race over and the money settled (the
    richest stable). A fall, a withdrawal or an owner's pull-up is the action's own line and
    is not said again. Nothing sealed is read: blind bets only as placed or not.

    >>> from dataclasses import replace
    >>> from aids.games.grand_national.game import GAME
    >>> start = GAME.initial_state(GAME.default_setup(["Aki", "Ben"], "en"))
    >>> race = replace(start, phase="race", round=2)
    >>> later = replace(race, distance=(5, *race.distance[1:]), used=(0, 64, *race.used[2:]),
    ...                 status=("running", "pulled_up", *race.status[2:]))
    >>> aftermath(race, later, "en")
    ('🔴 Aki Black is pulled up: out of speed points', '🔴 Aki Red takes the lead')
    >>> aftermath(race, later, "ja")[0]
    '🔴 Aki Black がスピードポイント切れで競走中止'
    """
    said: list[str] = []

    def say(key: str, **params: object) -> None:
        said.append(t(f"gn.after.{key}", lang, **params))

    if before.phase == "blind_bets" and after.phase != "blind_bets":
        say("blind_in")
    if before.going is None and after.going is not None:
        say("grid", top=after.top())
    for lane in range(len(before.lanes), len(after.lanes)):
        stables = [stable_label(after, seat) for seat in after.lanes[lane]]
        say("lane", lane=lane + 1, stables=listed(stables, lang))
    for place, horse in enumerate(after.placed, start=1):
        if horse not in before.placed:
            say("finished", horse=horse_label(after, horse), place=place)
    # the lap is counted from the leader as the check saw it: a horse pulled up in this step
    # (out of speed points, say) may still have lapped another
    lead = max((after.distance[h] for h in (*running(before), *after.placed)), default=0)
    for horse in range(after.horses):
        if before.status[horse] == "running" and after.status[horse] == "pulled_up":
            if after.speed_left(horse) <= 0:
                say("pulled_up_speed", horse=horse_label(after, horse))
            elif lead - after.distance[horse] >= after.setup.track.lap:
                say("pulled_up_lapped", horse=horse_label(after, horse))
            # else its owner pulled it up: the action's own line says so
    for horse in sorted(after.too_free_done - before.too_free_done):
        say("too_free", horse=horse_label(after, horse), mark=after.handicap[horse])
    for horse in sorted(before.lose_turn - after.lose_turn):
        say("lost_turn", horse=horse_label(after, horse))
    if before.phase == after.phase == "race" and not after.placed:
        leader = sole_leader(after)
        if leader is not None and leader != sole_leader(before):
            say("lead", horse=horse_label(after, leader))
    if after.phase == "over" and before.phase != "over":
        say("over")
    if after.settled and not before.settled:
        money_of = [cash(after, seat) for seat in range(after.seats)]
        richest = [stable_label(after, s) for s, m in enumerate(money_of) if m == max(money_of)]
        say("settled", winner=" · ".join(richest), cash=money(max(money_of)))
    return tuple(said)
