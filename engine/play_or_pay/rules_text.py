"""Play or Pay's rules in words, as the rules page shows them (RULES.md section 7)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.play_or_pay.table import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS
from engine.rules import DECISIONS


@dataclass(frozen=True)
class RuleLine:
    """One rule of RULES.md section 7, as the rules page shows it."""

    title: str
    text: str


RULES_IN_SHORT: tuple[RuleLine, ...] = (
    RuleLine("Players", f"{MIN_PLAYERS} to {MAX_PLAYERS}."),
    RuleLine("Cards", f"One {DECK_SIZE}-card deck without jokers; no card is wild."),
    RuleLine(
        "The deal",
        "The whole deck is dealt, one card at a time, starting left of the dealer, "
        f"so the first {DECK_SIZE} mod n players from the dealer's left hold one card more.",
    ),
    RuleLine(
        "Chips",
        "Each player starts with the same stack of chips; chips may stand for money, and then players may "
        "buy more before the first hand or between hands. A balance may go below zero and is then shown as owed.",
    ),
    RuleLine(
        "Play or pay",
        "The player left of the dealer starts a sequence with any card. Each next player must play "
        "the next card of that suit (… Q, K, A, 2, …: King wraps to Ace) or pay 1 chip to the pot; "
        "play passes left.",
    ),
    RuleLine(
        "End of a sequence",
        "A sequence ends when the thirteenth card of its suit, the card just below the one that started it, "
        "is played. Whoever played it starts a new sequence with a card of a suit not yet played this hand.",
    ),
    RuleLine(
        "Going out",
        "The first player out of cards wins the hand: every other player pays 1 chip per card still held "
        "into the pot, and the winner collects the whole pot.",
    ),
    RuleLine("Next hand", "The deal passes left."),
)


COMPANION_RULES: tuple[RuleLine, ...] = (
    RuleLine(
        "Card by card",
        "The companion shows the card needed and whose turn it is, records “played” or “paid”, "
        "knows how many cards each player still holds, and settles the hand by itself when someone "
        "plays their last card.",
    ),
    RuleLine(
        "Quick mode",
        "A hand can instead be entered once it is over: who went out, each player's cards left "
        "and the chips each paid during play.",
    ),
    RuleLine(
        "Trusting the table",
        "The companion cannot see anyone's cards, so it takes what the table reports. "
        f"When every player has paid for the card needed, paying goes round again: all {DECK_SIZE} cards "
        "are dealt, so someone holds it.",
    ),
    RuleLine(
        "Flags",
        "A player who paid a chip for a card and later plays that same card in the hand is flagged: "
        "paying said they did not hold it. The flag is shown on the hand page; it moves no chips, "
        "the table decides what to do about it.",
    ),
    RuleLine(f"{DECISIONS['D17'].id} — {DECISIONS['D17'].title}", DECISIONS["D17"].text),
)
