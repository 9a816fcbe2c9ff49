"""The Derby's words: log lines and names in Japanese or English, with the table's own names."""

from __future__ import annotations

from aids.core.i18n import t
from aids.games.derby.data import load
from aids.games.derby.model import Action, Bet, Card, DerbyState, NoCardsLeft, PlayCard


def player_label(state: DerbyState, seat: int) -> str:
    """``● Aki``: the player's name after a mark in their counter colour's symbol."""
    player = state.setup.players[seat]
    colour = load().counter_colour(player.colour)
    return f"{colour.symbol if colour else ''} {player.name}".strip()


def horse_label(state: DerbyState, row: int) -> str:
    horse = state.setup.horses[row]
    colour = load().horse_colour(horse.colour)
    return f"{colour.symbol if colour else ''} {horse.name}".strip()


def card_label(card: Card) -> str:
    colour = load().card_colour(card.colour)
    return f"{colour.symbol if colour else ''} {card.value}".strip()


def describe(state: DerbyState, action: Action, lang: str) -> str:
    """One log line, e.g. ``🔴 Aki plays 🟢 5 on 🟢 Green (discarded 2)``."""
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
