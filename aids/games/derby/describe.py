"""The Derby's words: log lines and names in Japanese or English, with the table's own names."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.derby.data import load
from aids.games.derby.model import Action, Bet, Card, DerbyState, NoCardsLeft, PlayCard


def player_label(state: DerbyState, seat: int) -> str:
    """``🟥1 Aki``: the player's name after their counter colour's square and their seat
    number (the number their counters show on the board), so no one is told apart by colour
    alone."""
    player = state.setup.players[seat]
    colour = load().counter_colour(player.colour)
    return f"{colour.symbol if colour else ''}{seat + 1} {player.name}"


def horse_label(state: DerbyState, row: int) -> str:
    horse = state.setup.horses[row]
    colour = load().horse_colour(horse.colour)
    return f"{colour.symbol if colour else ''} {horse.name}".strip()


def card_label(card: Card) -> str:
    colour = load().card_colour(card.colour)
    return f"{colour.symbol if colour else ''} {card.value}".strip()


def describe(state: DerbyState, action: Action, lang: str) -> str:
    """One log line, e.g. ``🟥1 Aki plays 🟢 5 on 🟢 Green (discarded 2)``."""
    if isinstance(action, Bet):
        return t(
            "derby.ui.log_bet",
            lang,
            player=player_label(state, action.player),
            horse=horse_label(state, action.horse),
        )
    if isinstance(action, NoCardsLeft):
        return t("derby.ui.log_no_cards", lang)
    if isinstance(action, PlayCard):
        text = t(
            "derby.ui.log_play",
            lang,
            player=player_label(state, action.player),
            card=card_label(action.card),
            horse=horse_label(state, action.horse),
        )
    else:
        text = t("derby.ui.log_pass", lang, player=player_label(state, action.player))
    discarded = action.discard_count or len(action.discard)
    if discarded:
        text += " " + t("derby.ui.log_discards", lang, n=discarded)
    return text


def aftermath(before: DerbyState, after: DerbyState, lang: str) -> tuple[str, ...]:
    """What a step caused: horses that fell (at which fence), the race moving on to the next
    fence, the race ending.

    >>> from aids.games.derby.game import GAME
    >>> from dataclasses import replace
    >>> start = GAME.initial_state(GAME.default_setup(["Aki", "Ben"], "en"))
    >>> fell = replace(start, fallen=(None, 2, *start.fallen[2:]), fence=3)
    >>> aftermath(start, fell, "en")
    ('🔵 Blue fell at fence 2', 'on to fence 3')
    """
    said = [
        t("derby.ui.fell", lang, horse=horse_label(after, row), fence=fence)
        for row, fence in enumerate(after.fallen)
        if fence is not None and before.fallen[row] is None
    ]
    if after.ended is not None and before.ended is None:
        said.append(t("derby.ui.race_ends", lang))
    elif after.fence != before.fence and after.fence <= len(after.columns):
        said.append(t("derby.ui.next_fence", lang, fence=after.fence))
    return tuple(said)


# --- the table page's words: what the bet box says, why no card, what the board's marks mean


def bet_note(state: DerbyState, lang: str) -> str:
    """The bet box when it offers no horse: the counter this turn placed, or why none can be."""
    seat = state.turn
    player = player_label(state, seat)
    if state.bet_made and state.counters:
        counter = state.counters[-1]  # this turn's bet: the newest counter in force
        horse = horse_label(state, counter.horse)
        done = t("derby.page.bet_done", lang, player=player, horse=horse, fence=counter.fence)
        return f"✓ {done}"
    if state.counters_left(seat) <= 0:
        return t("derby.page.bet_no_counters", lang, player=player)
    return t("derby.page.bet_none", lang, player=player, fence=state.fence)


def no_card_words(state: DerbyState, lang: str, *, can_pass: bool, can_end: bool) -> str:
    """Why the player to act cannot play, and the way on the engine offers (pass, end, both)."""
    why = t("derby.page.no_card", lang, player=player_label(state, state.turn))
    way = ("way_undo", "way_end", "way_pass", "way_both")[2 * can_pass + can_end]
    return f"{why}\n{t(f'derby.page.{way}', lang)}"


def slot_tip(fence: int, lang: str) -> str:
    """What a counter slot column means: the one before ``fence`` and what it scores."""
    return t("derby.page.slot_title", lang, fence=fence, points=load().payout[fence])


def legend(lang: str) -> str:
    """The board's marks explained: counter slots and their points, fences, falls."""
    payout = load().payout.values()
    slots = " ".join(t("derby.ui.slot_short", lang, points=p) for p in payout)
    points = "/".join(str(p) for p in payout)
    return t("derby.page.legend", lang, slots=slots, points=points, fences=load().fences)
