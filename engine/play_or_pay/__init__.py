"""Play or Pay (RULES.md section 7): dealing, a hand followed card by card, settling, and a chip ledger.

Players hold real cards, so the companion trusts what is reported; it knows only which cards
have been played, how many cards each player still holds, and who paid for which card.
Seats are numbered from 0 in clockwise order; "left" is the next seat.

A game is the events its table reports, replayed in order: cards played, chips paid, hands
entered after the fact and chips bought (D17). `Event.parse` reads one from JSON and `to_json`
writes it back; `apply_event`, `replay` and `undo_last_event` give the `GameState` after them.

>>> hand = start_hand(["Ann", "Bob", "Cy"], dealer=0)
>>> hand.cards_left, hand.turn
((17, 18, 17), 1)
>>> hand = play(hand, 1, "QH")
>>> str(hand.needed), hand.turn
('KH', 2)
>>> hand = pay(hand, 2)
>>> hand = play(hand, 0, "KH")
>>> str(hand.needed), hand.pot, hand.paid
('AH', 1, (0, 0, 1))

The package, by job: `table` (limits, seats and the deal), `errors`, `chips` (the chip ledger),
`hand` (a hand played card by card or settled after the fact), `events` (what a table reports),
`game` (the events replayed into a `GameState`) and `rules_text` (the rules in words).
Every public name is re-exported here: import them from `engine.play_or_pay`.
"""

from __future__ import annotations

from engine.play_or_pay.chips import (
    CHIPS_OPTION,
    ChipEntry,
    ChipKind,
    ChipsOption,
    buy_in_entries,
    chip_balances,
    chip_results,
    chips_bought,
    format_chips,
    live_balances,
    verify_chips,
    verify_purchase_chips,
)
from engine.play_or_pay.errors import EventError, IllegalPlay, NothingToUndo, PlayOrPayError, PurchaseError
from engine.play_or_pay.events import (
    Event,
    EventKind,
    JoinEvent,
    LeaveEvent,
    PayEvent,
    PlayEvent,
    PurchaseEvent,
    SettleEvent,
)
from engine.play_or_pay.game import (
    GameState,
    apply_event,
    can_apply,
    can_purchase,
    purchase,
    replaced_events,
    replay,
    start_game,
    undo_last_event,
    verify_event,
    verify_purchase,
    verify_replaces,
)
from engine.play_or_pay.hand import (
    Flag,
    HandState,
    can_next_hand,
    can_pay,
    can_play,
    can_settle_quick,
    finish_hand,
    next_hand,
    pay,
    play,
    settle,
    settle_quick,
    settlement_entries,
    start_hand,
    verify_next_hand,
    verify_pay,
    verify_play,
    verify_quick_settlement,
)
from engine.play_or_pay.rules_text import (
    COMPANION_RULES,
    RULES_IN_SHORT,
    RuleLine,
)
from engine.play_or_pay.seating import SeatError, can_join, can_leave, join, leave, verify_join, verify_leave
from engine.play_or_pay.table import (
    DECK_SIZE,
    DEFAULT_CHIPS,
    MAX_CHIPS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealRow,
    deal_counts,
    deal_table,
    next_card,
    verify_players,
)

__all__ = [
    "CHIPS_OPTION",
    "COMPANION_RULES",
    "DECK_SIZE",
    "DEFAULT_CHIPS",
    "MAX_CHIPS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES_IN_SHORT",
    "ChipEntry",
    "ChipKind",
    "ChipsOption",
    "DealRow",
    "Event",
    "EventError",
    "EventKind",
    "Flag",
    "GameState",
    "HandState",
    "IllegalPlay",
    "JoinEvent",
    "LeaveEvent",
    "NothingToUndo",
    "PayEvent",
    "PlayEvent",
    "PlayOrPayError",
    "PurchaseError",
    "PurchaseEvent",
    "RuleLine",
    "SeatError",
    "SettleEvent",
    "apply_event",
    "buy_in_entries",
    "can_apply",
    "can_join",
    "can_leave",
    "can_next_hand",
    "can_pay",
    "can_play",
    "can_purchase",
    "can_settle_quick",
    "chip_balances",
    "chip_results",
    "chips_bought",
    "deal_counts",
    "deal_table",
    "finish_hand",
    "format_chips",
    "join",
    "leave",
    "live_balances",
    "next_card",
    "next_hand",
    "pay",
    "play",
    "purchase",
    "replaced_events",
    "replay",
    "settle",
    "settle_quick",
    "settlement_entries",
    "start_game",
    "start_hand",
    "undo_last_event",
    "verify_chips",
    "verify_event",
    "verify_join",
    "verify_leave",
    "verify_next_hand",
    "verify_pay",
    "verify_play",
    "verify_players",
    "verify_purchase",
    "verify_purchase_chips",
    "verify_quick_settlement",
    "verify_replaces",
]
