"""Play or Pay events (play, pay, settle, purchase): parsing, applying, undoing, and D17 chip purchases."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import play_or_pay
from engine.cards import Card, Rank
from engine.deck import STANDARD_SUITS
from engine.errors import CardError, EngineError
from engine.play_or_pay import (
    MAX_CHIPS,
    ChipEntry,
    ChipKind,
    Event,
    EventError,
    EventKind,
    GameState,
    IllegalPlay,
    NothingToUndo,
    PayEvent,
    PlayEvent,
    PlayOrPayError,
    PurchaseError,
    PurchaseEvent,
    SettleEvent,
    apply_event,
    buy_in_entries,
    can_apply,
    can_purchase,
    chip_results,
    chips_bought,
    purchase,
    replay,
    settle,
    settle_quick,
    start_game,
    start_hand,
    undo_last_event,
    verify_event,
    verify_purchase,
)

THREE = ("Ann", "Bob", "Cy")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
DECK = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank]


def exactly(message: str) -> str:
    return f"^{re.escape(message)}$"


def played(state: GameState, *moves: tuple[str, str | None]) -> GameState:
    """The game after (player, card) moves; a card of None is a payment."""
    for player, card in moves:
        event: Event = PayEvent(player) if card is None else PlayEvent(player, Card.parse(card))
        state = apply_event(state, event)
    return state


def quick(winner: str = "Ann", **cards_left: int) -> SettleEvent:
    left = {"Ann": 1, "Bob": 2, "Cy": 3, **cards_left, winner: 0}
    return SettleEvent(winner, tuple((name, left[name]) for name in THREE))


# --- parse and format -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        PlayEvent("Bob", Card.parse("10H")),
        PayEvent("Cy"),
        SettleEvent("Ann", (("Ann", 0), ("Bob", 4), ("Cy", 1)), (("Bob", 2),)),
        PurchaseEvent("Cy", 25),
    ],
)
def test_every_event_reads_back_what_it_writes(event: Event) -> None:
    data = event.to_json()
    assert data["type"] == event.kind.value
    assert Event.parse(data, THREE) == event
    assert isinstance(hash(event), int)  # frozen


def test_the_kinds_are_the_four_events_and_the_players_who_come_and_go() -> None:
    assert [kind.value for kind in EventKind] == ["play", "pay", "settle", "purchase", "join", "leave"]


def test_parsing_reads_cards_and_names_leniently() -> None:
    assert Event.parse({"type": "play", "player": " Bob ", "card": "t♥"}, THREE) == PlayEvent("Bob", Card.parse("10H"))


def test_a_quick_hand_lists_every_player_in_seat_order_with_the_winner_at_0() -> None:
    event = Event.parse(
        {"type": "settle", "winner": "Cy", "cards_left": {"Bob": 2, "Ann": 5}, "paid": {"Bob": 1}}, THREE
    )
    assert event == SettleEvent("Cy", (("Ann", 5), ("Bob", 2), ("Cy", 0)), (("Bob", 1),))


def test_fields_the_caller_reads_itself_are_allowed_and_listed() -> None:
    data = {"type": "pay", "player": "Bob", "version": 3}
    assert Event.parse(data, THREE, extra_fields=("version",)) == PayEvent("Bob")
    with pytest.raises(EventError, match=exactly('unknown field "version"; a pay event has type, player')):
        Event.parse(data, THREE)


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ({"type": "fold"}, EventError, 'type must be "play", "pay", "settle" or "purchase", not "fold"'),
        ({"player": "Bob"}, EventError, 'type must be "play", "pay", "settle" or "purchase", not "None"'),
        (
            {"type": "pay", "player": "Bob", "card": "7H"},
            EventError,
            'unknown field "card"; a pay event has type, player',
        ),
        ({"type": "play", "player": "Bob"}, EventError, 'card must be a card such as "7H", not "None"'),
        ({"type": "play", "player": "Bob", "card": "7X"}, CardError, '"7X" is not a card'),
        ({"type": "play", "player": "Zed", "card": "7H"}, EventError, '"Zed" is not a player at this table'),
        ({"type": "pay", "player": 3}, EventError, 'player must be a player\'s name, not "3"'),
        ({"type": "settle", "winner": "Zed", "cards_left": {}}, EventError, '"Zed" is not a player at this table'),
        (
            {"type": "settle", "winner": "Ann", "cards_left": [1, 4]},
            EventError,
            'cards_left must be an object of counts by player name, not "[1, 4]"',
        ),
        (
            {"type": "settle", "winner": "Ann", "cards_left": {"Bob": 3}},
            EventError,
            "cards_left needs every player's cards; Cy is missing",
        ),
        (
            {"type": "settle", "winner": "Ann", "cards_left": {"Bob": 3, "Cy": "2"}},
            EventError,
            'cards_left must count whole numbers; Cy has "2"',
        ),
        (
            {"type": "settle", "winner": "Ann", "cards_left": {"Bob": 3, "Cy": 2}, "paid": {"Zed": 1}},
            EventError,
            'paid names "Zed", who is not a player at this table',
        ),
        (
            {"type": "purchase", "player": "Bob", "chips": MAX_CHIPS + 1},
            PurchaseError,
            f'a purchase must be a whole number of chips from 1 to {MAX_CHIPS}, not "{MAX_CHIPS + 1}"',
        ),
        ({"type": "purchase", "player": "Bob", "chips": True}, PurchaseError, 'not "True"'),
        ({"type": "purchase", "player": "Bob", "chips": 2.5}, PurchaseError, 'not "2.5"'),
        ({"type": "purchase", "player": "Bob"}, PurchaseError, 'not "None"'),
    ],
)
def test_bad_events_are_refused_with_the_bad_input_quoted(
    data: dict[str, Any], error: type[EngineError], message: str
) -> None:
    with pytest.raises(error) as caught:
        Event.parse(data, THREE)
    assert message in str(caught.value)
    assert isinstance(caught.value, EngineError)


def test_event_errors_are_play_or_pay_errors() -> None:
    assert issubclass(EventError, PlayOrPayError)
    assert issubclass(PurchaseError, PlayOrPayError)
    assert issubclass(NothingToUndo, PlayOrPayError)


# --- applying events ----------------------------------------------------------------------------------


def test_a_new_game_buys_everyone_the_same_stack() -> None:
    game = start_game(THREE, 12, first_dealer=1)
    assert game.balances == {"Ann": 12, "Bob": 12, "Cy": 12}
    assert game.bought == game.balances
    assert game.results == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert game.hand.dealer == 1 and game.hand.to_act == "Cy"
    assert [entry.kind for entry in game.ledger] == [ChipKind.BUY_IN] * 3


def test_play_and_pay_events_follow_the_hand() -> None:
    game = played(start_game(THREE), ("Bob", "7H"), ("Cy", None))
    assert str(game.hand.needed) == "8H" and game.hand.to_act == "Ann"
    assert game.hand_events == 2
    assert game.balances["Cy"] == 19 and game.settled_balances["Cy"] == 20


def test_refused_events_raise_the_hands_own_reason() -> None:
    game = played(start_game(THREE), ("Bob", "7H"))
    with pytest.raises(IllegalPlay, match=exactly('Cy cannot play "9H": the card needed is 8H')):
        verify_event(game, PlayEvent("Cy", Card.parse("9H")))
    assert not can_apply(game, PayEvent("Ann"))
    assert can_apply(game, PayEvent("Cy"))
    with pytest.raises(EventError, match=exactly('"Zed" is not a player at this table')):
        apply_event(game, PayEvent("Zed"))


def test_a_quick_hand_settles_like_settle_quick_and_deals_the_next_hand() -> None:
    event = SettleEvent("Bob", (("Ann", 4), ("Bob", 0), ("Cy", 1)), (("Ann", 2),))
    game = apply_event(start_game(THREE), event)
    expected = settle_quick(1, 0, "Bob", {"Ann": 4, "Bob": 0, "Cy": 1}, {"Ann": 2})
    assert game.hands[0].settlement == expected
    assert game.hands[0].pot == 7 and game.hands[0].winner == 1
    assert game.results == {"Ann": -6, "Bob": 7, "Cy": -1}
    assert (game.hand.hand, game.hand.dealer, game.hand_events) == (2, 1, 0)


def test_quick_mode_midway_needs_the_tables_word_that_it_replaces_the_hands_events() -> None:
    game = played(start_game(THREE), ("Bob", "7H"), ("Cy", None))
    message = "hand 1 has 2 cards and chips recorded; entering the hand in quick mode replaces them, so confirm"
    with pytest.raises(PlayOrPayError, match=re.escape(message)):
        apply_event(game, quick())
    with pytest.raises(PlayOrPayError, match=re.escape('hand 1 has 2 cards and chips recorded, not "1"')):
        apply_event(game, replace_quick(1))
    with pytest.raises(PlayOrPayError, match="no cards or chips recorded, so there is nothing to replace"):
        apply_event(start_game(THREE), replace_quick(1))


def replace_quick(replaces: int) -> SettleEvent:
    event = quick("Cy", Ann=4, Bob=2)
    return SettleEvent(event.winner, event.cards_left, (("Ann", 1),), replaces)


def test_quick_mode_midway_settles_the_hand_as_entered_and_drops_its_flags() -> None:
    # Cy pays when 8H is needed, then plays it a round later: a flag, which the quick hand drops.
    game = played(start_game(THREE, 20), ("Bob", "7H"), ("Cy", None), ("Ann", None), ("Bob", None), ("Cy", "8H"))
    assert len(game.flags) == 1 and game.hand_events == 5
    over = apply_event(game, replace_quick(5))
    expected = settle_quick(1, 0, "Cy", {"Ann": 4, "Bob": 2, "Cy": 0}, {"Ann": 1})
    assert over.hands[0].settlement == expected
    assert over.hands[0].played == () and over.hands[0].flags == () and over.flags == ()
    assert over.results == {"Ann": -5, "Bob": -2, "Cy": 7}
    assert (over.hand.hand, over.hand_events, len(over.events)) == (2, 0, 6)
    # The card-by-card events stay in the game's history; undo takes back only the quick hand.
    assert undo_last_event(over) == game
    replayed = replay(THREE, 20, 0, [event.to_json() for event in over.events])
    assert replayed == over and replayed.events[-1].to_json()["replaces"] == 5


def test_settle_on_a_hand_reports_the_same_errors_as_settle_quick() -> None:
    with pytest.raises(PlayOrPayError, match=exactly('Ann won the hand, so Ann has 0 cards left, not "2"')):
        settle(start_hand(list(THREE)), "Ann", {"Ann": 2, "Bob": 1, "Cy": 3}, {})
    with pytest.raises(PlayOrPayError, match=exactly("cards_left needs every player's cards; Cy is missing")):
        settle(start_hand(list(THREE)), "Ann", {"Ann": 0, "Bob": 1}, {})


def test_a_hand_played_to_the_last_card_is_settled_into_the_ledger() -> None:
    game = start_game(THREE)
    rng = random.Random(4)
    deck = DECK.copy()
    rng.shuffle(deck)
    game = play_hand(game, deck, rng)
    assert len(game.hands) == 1 and game.hand.hand == 2
    assert sum(game.results.values()) == 0
    assert game.ledger[3:] == game.hands[0].settlement


# --- D17: chip purchases --------------------------------------------------------------------------------


def test_chips_may_be_bought_before_the_first_hand() -> None:
    game = purchase(start_game(THREE, 20), "Bob", 30)
    assert game.ledger[-1] == ChipEntry(1, "Bob", ChipKind.PURCHASE, 30)
    assert game.balances == {"Ann": 20, "Bob": 50, "Cy": 20}
    assert game.bought["Bob"] == 50
    assert game.results == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert game.events == (PurchaseEvent("Bob", 30),)
    assert game.hand_events == 0


def test_chips_may_be_bought_between_hands_as_often_as_a_player_likes() -> None:
    game = apply_event(start_game(THREE, 5), quick("Ann", Bob=9, Cy=2))
    assert game.balances["Bob"] == -4
    for _ in range(3):
        game = apply_event(game, PurchaseEvent("Bob", 2))
    assert [entry.hand for entry in game.ledger if entry.kind is ChipKind.PURCHASE] == [2, 2, 2]
    assert game.balances["Bob"] == 2
    assert game.results == {"Ann": 11, "Bob": -9, "Cy": -2}


def test_chips_cannot_be_bought_in_the_middle_of_a_hand() -> None:
    game = played(start_game(THREE), ("Bob", "7H"), ("Cy", None))
    message = (
        'Ann cannot buy "10" chips now: hand 1 is being played; chips are bought before the first hand or between hands'
    )
    with pytest.raises(PurchaseError, match=exactly(message)):
        apply_event(game, PurchaseEvent("Ann", 10))
    assert not can_purchase(game, "Ann", 10)
    paid_only = played(start_game(THREE), ("Bob", "7H"))
    assert not paid_only.between_hands


@pytest.mark.parametrize(
    ("player", "chips", "message"),
    [
        ("Zed", 5, '"Zed" is not a player at this table'),
        ("Ann", 0, 'a purchase must be a whole number of chips from 1 to 10000, not "0"'),
        ("Ann", -5, 'not "-5"'),
        ("Ann", MAX_CHIPS + 1, f'not "{MAX_CHIPS + 1}"'),
        ("Ann", "5", 'not "5"'),
    ],
)
def test_bad_purchases_are_refused(player: str, chips: object, message: str) -> None:
    game = start_game(THREE)
    with pytest.raises(PurchaseError) as caught:
        verify_purchase(game, player, chips)
    assert message in str(caught.value)
    assert not can_purchase(game, player, chips)


def test_the_largest_purchase_is_the_chip_maximum() -> None:
    assert can_purchase(start_game(THREE), "Ann", MAX_CHIPS)


def test_results_are_chips_held_minus_chips_bought() -> None:
    entries = (
        *buy_in_entries(THREE, 10),
        ChipEntry(2, "Cy", ChipKind.PURCHASE, 7),
        *settle_quick(2, 1, "Cy", {"Ann": 3, "Bob": 6, "Cy": 0}, {}),
    )
    assert chips_bought(entries, THREE) == {"Ann": 10, "Bob": 10, "Cy": 17}
    assert chip_results(entries, THREE) == {"Ann": -3, "Bob": -6, "Cy": 9}


# --- undo and replay ------------------------------------------------------------------------------------


def test_undo_takes_back_a_purchase() -> None:
    before = apply_event(start_game(THREE), quick())
    after = purchase(before, "Cy", 40)
    assert undo_last_event(after) == before


def test_undo_takes_back_the_card_that_ended_a_hand() -> None:
    before = played(start_game(THREE), ("Bob", "7H"))
    assert undo_last_event(played(before, ("Cy", "8H"))) == before


def test_undo_with_no_events_is_refused() -> None:
    with pytest.raises(NothingToUndo, match=exactly("there is no event to undo yet")):
        undo_last_event(start_game(THREE))


def test_replay_reads_events_as_json_and_as_events() -> None:
    events: list[Event] = [PurchaseEvent("Ann", 3), PlayEvent("Bob", Card.parse("2C")), PayEvent("Cy")]
    as_json = [event.to_json() for event in events]
    assert replay(THREE, 20, 0, as_json) == replay(THREE, 20, 0, events)
    assert replay(THREE, 20, 0, events).events == tuple(events)


def test_replay_refuses_a_bad_event_with_its_reason() -> None:
    with pytest.raises(IllegalPlay, match="it is Bob's turn"):
        replay(THREE, 20, 0, [{"type": "play", "player": "Cy", "card": "7H"}])


# --- a property: random games ---------------------------------------------------------------------------


def deal(deck: list[Card], players: int, dealer: int) -> list[list[Card]]:
    hands: list[list[Card]] = [[] for _ in range(players)]
    for index, card in enumerate(deck):
        hands[(dealer + 1 + index) % players].append(card)
    return hands


def play_hand(game: GameState, deck: list[Card], rng: random.Random) -> GameState:
    """Play one hand honestly through events, until it is settled."""
    number = game.hand.hand
    held = deal(deck, len(game.players), game.hand.dealer)
    while game.hand.hand == number:
        seat = game.hand.turn
        name = game.players[seat]
        hand = game.hand
        if hand.needed is not None and hand.needed not in held[seat]:
            game = apply_event(game, PayEvent(name))
            continue
        card = hand.needed or rng.choice([card for card in held[seat] if card.suit not in hand.suits_played])
        held[seat].remove(card)
        game = apply_event(game, PlayEvent(name, card))
    return game


def quick_hand(game: GameState, rng: random.Random) -> GameState:
    """Enter a hand in quick mode with random, possible counts."""
    dealt = play_or_pay.deal_counts(game.players, game.hand.dealer)
    winner = rng.randrange(len(game.players))
    left = {name: 0 if seat == winner else rng.randint(1, dealt[seat]) for seat, name in enumerate(game.players)}
    paid = {name: rng.randint(0, 5) for name in game.players if rng.random() < 0.5}
    data = {"type": "settle", "winner": game.players[winner], "cards_left": left, "paid": paid}
    return apply_event(game, Event.parse(data, game.players))


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 10),
    stack=st.integers(1, 50),
    steps=st.lists(st.sampled_from(["hand", "quick", "purchase", "quick", "purchase", "undo"]), max_size=7),
    data=st.data(),
    rng=st.randoms(use_true_random=False),
)
def test_results_always_sum_to_zero_and_undo_restores_the_game(
    players: int, stack: int, steps: list[str], data: st.DataObject, rng: random.Random
) -> None:
    names = NAMES[:players]
    game = start_game(names, stack, data.draw(st.integers(0, players - 1)))
    checkpoints: list[GameState] = []  # the game before each step; every step ends between hands
    for step in steps:
        if step == "undo":
            if checkpoints:
                undone = undo_last_event(game)
                assert apply_event(undone, game.events[-1]) == game
                game = checkpoints.pop()
                assert undone == game or not undone.between_hands  # a hand's last card undone: mid-hand
            continue
        checkpoints.append(game)
        if step == "purchase":
            game = purchase(game, data.draw(st.sampled_from(names)), data.draw(st.integers(1, MAX_CHIPS)))
        elif step == "quick":
            game = quick_hand(game, rng)
        else:
            game = play_hand(game, data.draw(st.permutations(DECK)), rng)
        assert sum(game.results.values()) == 0
        assert sum(game.settled_balances.values()) == sum(game.bought.values())
    assert replay(names, stack, game.first_dealer, [event.to_json() for event in game.events]) == game
    assert game.results == {name: game.settled_balances[name] - game.bought[name] for name in names}
