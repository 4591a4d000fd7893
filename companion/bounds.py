"""The bounds on what one request may hold or cost, shared by the services and companion.security.

No request costs more than a small constant: an import holds at most what a real game can hold,
its checks are judged again within a budget, and the long lists of a game (its history, its log of
checks) are shown a page at a time. Numbers read from a form or a query are length-checked before
they are converted (``whole_number``), since ``int()`` of a text of thousands of digits is slow and
raises past 4,300 digits.
"""

from __future__ import annotations

from collections.abc import Sized

MAX_CARDS_PER_HAND = 20
"""The most cards any card field (a hand, a meld, a lay-off) may hold."""

MAX_IMPORT_REVISIONS = 2000
"""The most history entries (corrections and undos) an import takes; a game of 25 rounds corrected
eighty times each stays under it."""
MAX_IMPORT_CHECKS = 1000
"""The most checks (meld, declarer, lay-off and hand checks) an import's dispute log takes."""
MAX_IMPORT_EVENTS = 5000
"""The most Play or Pay events an import takes (a long evening: 100 hands of 50 events each)."""
REJUDGE_BUDGET_CARDS = 8000
"""Every imported check is judged again by the engine; the cards of all its checks together may
number at most this (500 checks of a 16-card hand, or 1,000 checks of eight cards). The engine's
work grows with the cards judged, so this bounds the CPU an import costs (docs/benchmarks.md)."""

HISTORY_PAGE = 50
"""History entries shown on one game page (the latest first; older ones a page further)."""
CHECKS_PAGE = 20
"""Checks shown on one page of a round's check log (the latest first): each shows its cards."""
GAME_PAGE_CHECKS = 10
"""The latest checks the game page shows (each round's check page lists the rest)."""

MAX_MELDS_CHECKED = 8
"""The most melds one check judges at a time."""
MAX_HAND_CARDS = 16
"""The longest hand the search for the best arrangement takes: no round deals more than 14 cards
(Pay Me's full cycle), plus the card drawn; the search grows quickly with the hand."""
MAX_HELD_CARDS = 60
"""The longest hand where held cards count in full (only added up, nothing searched): a deal of 15
with twenty buys is the most a table can set."""

TOO_MANY_WRONG_KEYS = "Too many wrong edit keys for this game came from this address; wait a minute and try again."
"""The sentence of a 429 for wrong edit keys (companion.keys counts them, companion.errors answers)."""

MAX_NUMBER_DIGITS = 12
"""The longest number a form field or query parameter may hold (a version, a round, a score)."""


def hand_size_error(cards: Sized, field: str = "a hand") -> str | None:
    """The sentence refusing a card field with too many cards, or None when it is small enough.

    >>> hand_size_error(["3H"] * 21)
    'a hand can hold at most 20 cards'
    >>> hand_size_error(["3H", "JK"]) is None
    True
    """
    if len(cards) > MAX_CARDS_PER_HAND:
        return f"{field} can hold at most {MAX_CARDS_PER_HAND} cards"
    return None


def whole_number(text: object, digits: int = MAX_NUMBER_DIGITS) -> int | None:
    """A text of at most `digits` decimal digits (an optional sign, spaces around) as an int; None
    for anything else, without ever converting a longer text.

    >>> whole_number(" 42 "), whole_number("-3"), whole_number("9" * 5000), whole_number("4x")
    (42, -3, None, None)
    """
    if not isinstance(text, str) or len(text) > digits + 8:
        return None
    stripped = text.strip()
    body = stripped[1:] if stripped[:1] in ("-", "+") else stripped
    if not body.isdecimal() or not body.isascii() or len(body) > digits:
        return None
    return int(stripped)


def page_number(text: object, pages: int) -> int:
    """The page asked for (1 for the latest), clamped to 1..pages; 1 for anything that is not a number.

    >>> page_number("3", 5), page_number("9" * 5000, 5), page_number("9", 5), page_number(None, 0)
    (3, 1, 5, 1)
    """
    number = whole_number(text, 6)
    return max(1, min(number or 1, max(pages, 1)))


def pages_for(count: int, size: int) -> int:
    """How many pages of `size` hold `count` entries (at least one)."""
    return max(1, -(-count // size))
