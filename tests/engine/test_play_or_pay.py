"""Play or Pay (RULES.md section 7): the deal, each rule and error of a hand, settling, and chips."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit
from engine.deck import STANDARD_SUITS
from engine.errors import EngineError
from engine.play_or_pay import (
    CHIPS_OPTION,
    COMPANION_RULES,
    RULES_IN_SHORT,
    ChipEntry,
    ChipKind,
    HandState,
    IllegalPlay,
    PlayOrPayError,
    buy_in_entries,
    can_next_hand,
    can_pay,
    can_play,
    can_settle_quick,
    chip_balances,
    deal_counts,
    deal_table,
    format_chips,
    live_balances,
    next_card,
    next_hand,
    pay,
    play,
    settle_quick,
    start_hand,
    verify_chips,
    verify_next_hand,
    verify_pay,
    verify_play,
)

THREE = ["Ann", "Bob", "Cy"]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
DECK = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank]


def c(text: str) -> Card:
    return Card.parse(text)


def moves(entries: tuple[ChipEntry, ...]) -> list[tuple[str, str, int]]:
    return [(entry.player, entry.kind.value, entry.amount) for entry in entries]


def exactly(message: str) -> str:
    return f"^{re.escape(message)}$"


def starts(message: str) -> str:
    return f"^{re.escape(message)}"


def play_code(state: HandState, seat: int, card: str) -> str:
    assert not can_play(state, seat, card)
    with pytest.raises(IllegalPlay) as caught:
        play(state, seat, card)
    return caught.value.code


# --- dealing --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 11))
def test_the_whole_deck_is_dealt(players: int) -> None:
    for dealer in range(players):
        counts = deal_counts(players, dealer)
        assert sum(counts) == 52
        assert max(counts) - min(counts) <= 1


def test_the_first_52_mod_n_players_left_of_the_dealer_get_one_more() -> None:
    # 52 = 5 * 10 + 2: the two players after seat 3 hold 11.
    assert deal_counts(5, 3) == (11, 10, 10, 10, 11)
    assert deal_counts(3, 2) == (18, 17, 17)
    assert deal_counts(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"], 0) == (7, 8, 8, 8, 7, 7, 7)
    assert deal_counts(4, 1) == (13, 13, 13, 13)


@pytest.mark.parametrize(
    ("players", "dealer", "message"),
    [
        (2, 0, 'Play or Pay needs 3 to 10 players, not "2"'),
        (11, 0, 'Play or Pay needs 3 to 10 players, not "11"'),
        (["Ann", "Bob"], 0, 'Play or Pay needs 3 to 10 players, not 2 \\("Ann, Bob"\\)'),
        (["Ann", "Bob", "Ann"], 0, '"Ann" sits at the table twice'),
        (4, 4, '"4" is not a dealer seat at this table \\(seats are 0 to 3\\)'),
        (4, -1, '"-1" is not a dealer seat at this table'),
    ],
)
def test_bad_tables_are_refused(players: int | list[str], dealer: int, message: str) -> None:
    with pytest.raises(PlayOrPayError, match=message):
        deal_counts(players, dealer)


def test_a_new_hand_is_led_by_the_player_left_of_the_dealer() -> None:
    hand = start_hand(NAMES[:5], dealer=4, hand=7)
    assert (hand.hand, hand.dealer, hand.turn, hand.to_act) == (7, 4, 0, "Ann")
    assert hand.cards_left == deal_counts(5, 4)
    assert hand.is_lead and hand.needed is None and hand.pot == 0 and hand.paid == (0,) * 5


def test_start_hand_needs_a_hand_number() -> None:
    with pytest.raises(PlayOrPayError, match='"0" is not a hand number'):
        start_hand(THREE, hand=0)


# --- the sequence -------------------------------------------------------------------------------


def test_the_next_card_wraps_from_king_to_ace() -> None:
    assert next_card(c("QS")) == c("KS")
    assert next_card(c("KS")) == c("AS")
    assert next_card(c("AS")) == c("2S")
    assert next_card(c("10D")) == c("JD")


def test_a_lead_may_be_any_card_and_asks_for_the_next_one() -> None:
    hand = play(start_hand(THREE), 1, "QH")
    assert (hand.needed, hand.sequence_start, hand.turn) == (c("KH"), c("QH"), 2)
    assert hand.suits_played == (Suit.HEARTS,)
    assert hand.cards_left == (17, 17, 17)
    hand = play(hand, 2, "KH")
    assert (hand.needed, hand.turn) == (c("AH"), 0)
    hand = play(hand, 0, "AH")
    assert (hand.needed, hand.turn) == (c("2H"), 1)
    assert hand.played == (c("QH"), c("KH"), c("AH"))


def test_paying_puts_a_chip_in_the_pot_and_passes_left() -> None:
    hand = pay(play(start_hand(THREE), 1, "QH"), 2)
    assert (hand.pot, hand.paid, hand.turn, hand.needed) == (1, (0, 0, 1), 0, c("KH"))
    assert hand.paid_for == ((2, c("KH")),)
    assert hand.cards_left == (17, 17, 17)


def test_the_thirteenth_card_ends_the_sequence_and_its_player_leads_again() -> None:
    hand = play(start_hand(THREE), 1, "5H")
    seat = 2
    for rank in [6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3]:
        hand = play(hand, seat, Card(Rank(rank), Suit.HEARTS))
        seat = (seat + 1) % 3
    assert hand.needed == c("4H")
    hand = play(hand, seat, "4H")
    assert (hand.needed, hand.sequence_start, hand.turn) == (None, None, seat)
    assert hand.is_lead
    assert not can_pay(hand, seat)
    assert play_code(hand, seat, "9H") == "already_played"
    hand = play(hand, seat, "9S")
    assert hand.suits_played == (Suit.HEARTS, Suit.SPADES)
    assert hand.turn == (seat + 1) % 3


def test_a_lead_in_a_suit_already_played_is_refused() -> None:
    hand = start_hand(THREE)
    hand = replace(hand, suits_played=(Suit.CLUBS,), played=(c("2C"),))
    assert not can_play(hand, 1, "7C")
    with pytest.raises(IllegalPlay, match=exactly('Bob cannot lead "7C": clubs have already been played this hand')):
        play(hand, 1, "7C")


# --- the errors ---------------------------------------------------------------------------------


def test_playing_out_of_turn_is_refused() -> None:
    hand = start_hand(THREE)
    with pytest.raises(IllegalPlay, match=exactly('Ann cannot play "7H": it is Bob\'s turn')) as caught:
        play(hand, 0, "7H")
    assert caught.value.code == "out_of_turn"
    assert play_code(play(hand, 1, "7H"), 0, "8H") == "out_of_turn"


def test_a_card_other_than_the_one_needed_is_refused() -> None:
    hand = play(start_hand(THREE), 1, "9D")
    with pytest.raises(IllegalPlay, match=exactly('Cy cannot play "JD": the card needed is 10D')):
        verify_play(hand, 2, "JD")
    assert play_code(hand, 2, "10S") == "not_needed"
    assert can_play(hand, 2, "10D")


def test_a_card_already_played_is_refused() -> None:
    hand = play(start_hand(THREE), 1, "9D")
    with pytest.raises(IllegalPlay, match=exactly('Cy cannot play "9D": it has already been played this hand')):
        play(hand, 2, "9D")


def test_paying_out_of_turn_is_refused() -> None:
    hand = play(start_hand(THREE), 1, "9D")
    assert not can_pay(hand, 0)
    with pytest.raises(IllegalPlay, match=exactly("Ann cannot pay: it is Cy's turn")) as caught:
        pay(hand, 0)
    assert caught.value.code == "out_of_turn"


def test_paying_instead_of_leading_is_refused() -> None:
    message = "Bob cannot pay: no card is needed, so Bob leads a new sequence"
    with pytest.raises(IllegalPlay, match=exactly(message)) as caught:
        pay(start_hand(THREE), 1)
    assert caught.value.code == "must_lead"


def test_a_player_with_no_cards_left_cannot_act() -> None:
    hand = replace(start_hand(THREE), cards_left=(17, 0, 17))
    assert play_code(hand, 1, "7H") == "no_cards_left"
    with pytest.raises(IllegalPlay, match=exactly("Bob cannot pay: Bob has no cards left")):
        verify_pay(hand, 1)


def test_jokers_and_bad_seats_and_bad_tokens_are_refused() -> None:
    hand = start_hand(THREE)
    assert play_code(hand, 1, "JK") == "joker"
    with pytest.raises(PlayOrPayError, match=starts('"3" is not a seat at this table')):
        play(hand, 3, "7H")
    assert not can_play(hand, 3, "7H")
    assert not can_play(hand, 1, "7X")
    with pytest.raises(EngineError, match='"7X" is not a card'):
        play(hand, 1, "7X")


def test_when_everyone_has_passed_on_a_card_play_goes_round_again_until_its_holder_plays_it() -> None:
    # All 52 cards are dealt, so someone paid while holding 6C. The honest players can only pay
    # again (they cannot play a card they lack); the holder is flagged when 6C finally comes out.
    hand = play(start_hand(THREE), 1, "5C")
    hand = pay(pay(pay(hand, 2), 0), 1)
    assert hand.paid_for == ((2, c("6C")), (0, c("6C")), (1, c("6C")))
    assert can_pay(hand, 2)
    hand = pay(hand, 2)
    assert (hand.pot, hand.paid, hand.to_act, hand.needed) == (4, (1, 1, 2), "Ann", c("6C"))
    assert not can_pay(hand, 1) and not can_play(hand, 2, "6C")  # still in turn only
    hand = play(hand, 0, "6C")
    assert len(hand.flags) == 1
    flag = hand.flags[0]
    assert (flag.hand, flag.seat, flag.card) == (1, 0, c("6C"))
    assert flag.message == "Ann played 6C after paying a chip when 6C was needed, so Ann held it then"
    assert flag.as_json() == {"hand": 1, "seat": 0, "card": "6C", "message": flag.message}
    assert (hand.needed, hand.to_act) == (c("7C"), "Bob")


def test_no_flag_when_another_player_paid_for_the_card() -> None:
    hand = pay(play(start_hand(THREE), 1, "5C"), 2)
    assert play(hand, 0, "6C").flags == ()


# --- settling -----------------------------------------------------------------------------------


def near_the_end() -> HandState:
    """Dealer Cy; Ann leads holding two cards, Bob holds four, Cy three."""
    return replace(start_hand(THREE, dealer=2, hand=4), cards_left=(2, 4, 3))


def test_the_last_card_settles_the_hand() -> None:
    hand = pay(pay(play(near_the_end(), 0, "9C"), 1), 2)
    hand = play(hand, 0, "10C")
    assert hand.finished and hand.winner == 0 and hand.turn == 0 and hand.needed is None
    assert hand.cards_left == (0, 4, 3)
    assert moves(hand.settlement) == [
        ("Bob", "pay", -1),
        ("Bob", "cards_left", -4),
        ("Cy", "pay", -1),
        ("Cy", "cards_left", -3),
        ("Ann", "pot", 9),
    ]
    assert all(entry.hand == 4 for entry in hand.settlement)
    assert hand.pot == 9
    assert sum(entry.amount for entry in hand.settlement) == 0


def test_a_winner_who_paid_during_play_gets_it_back_with_the_pot() -> None:
    hand = replace(start_hand(THREE, dealer=2), cards_left=(2, 3, 3))
    hand = pay(play(play(hand, 0, "9C"), 1, "10C"), 2)  # Cy pays for JC
    hand = pay(hand, 0)  # so does Ann
    hand = play(play(play(hand, 1, "JC"), 2, "QC"), 0, "KC")
    assert hand.finished and hand.winner == 0 and hand.flags == ()
    assert moves(hand.settlement) == [
        ("Ann", "pay", -1),
        ("Bob", "cards_left", -1),
        ("Cy", "pay", -1),
        ("Cy", "cards_left", -2),
        ("Ann", "pot", 5),
    ]


def test_nothing_happens_after_the_hand_is_over() -> None:
    hand = play(pay(pay(play(near_the_end(), 0, "9C"), 1), 2), 0, "10C")
    with pytest.raises(IllegalPlay, match=exactly('Bob cannot play "JC": hand 4 is over and Ann won it')) as caught:
        play(hand, 1, "JC")
    assert caught.value.code == "hand_over"
    assert not can_pay(hand, 1)
    with pytest.raises(IllegalPlay, match=exactly("Bob cannot pay: hand 4 is over and Ann won it")):
        pay(hand, 1)


def test_the_deal_passes_left() -> None:
    unfinished = near_the_end()
    assert not can_next_hand(unfinished)
    with pytest.raises(IllegalPlay, match="hand 4 cannot be followed by the next one: it is not over yet"):
        verify_next_hand(unfinished)
    following = next_hand(play(pay(pay(play(unfinished, 0, "9C"), 1), 2), 0, "10C"))
    assert (following.hand, following.dealer, following.turn) == (5, 0, 1)
    assert following.cards_left == (17, 18, 17)
    assert not following.finished and following.settlement == () and following.played == ()


def test_hand_as_json() -> None:
    data = pay(play(start_hand(THREE), 1, "QH"), 2).as_json()
    assert data["needed"] == "KH" and data["sequence_start"] == "QH" and data["suits_played"] == ["H"]
    assert data["paid_for"] == [{"seat": 2, "card": "KH"}]
    assert data["turn"] == 0 and data["pot"] == 1 and data["winner"] is None


# --- quick mode ---------------------------------------------------------------------------------


def test_quick_settlement() -> None:
    entries = settle_quick(2, "Bob", "Cy", {"Ann": 4, "Bob": 1, "Cy": 0, "Dee": 7}, {"Ann": 3, "Cy": 1})
    assert moves(entries) == [
        ("Ann", "pay", -3),
        ("Ann", "cards_left", -4),
        ("Bob", "cards_left", -1),
        ("Cy", "pay", -1),
        ("Dee", "cards_left", -7),
        ("Cy", "pot", 16),
    ]
    assert all(entry.hand == 2 for entry in entries)
    assert settle_quick(2, 1, "Cy", {"Ann": 4, "Bob": 1, "Cy": 0, "Dee": 7}, {"Ann": 3, "Cy": 1}) == entries


@pytest.mark.parametrize(
    ("hand", "dealer", "winner", "cards_left", "paid", "message"),
    [
        (1, 0, "Ann", {"Ann": 1, "Bob": 2, "Cy": 3}, {}, 'Ann won the hand, so Ann has 0 cards left, not "1"'),
        (1, 0, "Ann", {"Ann": 0, "Bob": 0, "Cy": 3}, {}, 'Bob did not win the hand, so Bob still holds cards, not "0"'),
        (1, 0, "Ann", {"Ann": 0, "Bob": 19, "Cy": 3}, {}, 'Bob was dealt 18 cards, so cannot hold "19" at the end'),
        (1, 1, "Ann", {"Ann": 0, "Bob": 18, "Cy": 3}, {}, 'Bob was dealt 17 cards, so cannot hold "18" at the end'),
        (1, 0, "Ann", {"Ann": 0, "Bob": -2, "Cy": 3}, {}, 'Bob was dealt 18 cards, so cannot hold "-2" at the end'),
        (1, 0, "Ann", {"Ann": 0, "Bob": 2, "Cy": 3}, {"Cy": -1}, 'Cy cannot have paid "-1" chips during play'),
        (1, 0, "Ann", {"Ann": 0, "Bob": 2, "Cy": 3}, {"Zed": 1}, '"Zed" paid chips but is not a player at this table'),
        (1, 0, "Zed", {"Ann": 0, "Bob": 2, "Cy": 3}, {}, 'the winner "Zed" is not a player at this table'),
        (0, 0, "Ann", {"Ann": 0, "Bob": 2, "Cy": 3}, {}, '"0" is not a hand number'),
        (1, "Zed", "Ann", {"Ann": 0, "Bob": 2, "Cy": 3}, {}, '"Zed" is not a dealer seat at this table'),
        (1, 0, "Ann", {"Ann": 0, "Bob": 2}, {}, "Play or Pay needs 3 to 10 players, not 2"),
    ],
)
def test_bad_quick_settlements_are_refused(
    hand: int, dealer: int | str, winner: str, cards_left: dict[str, int], paid: dict[str, int], message: str
) -> None:
    assert not can_settle_quick(hand, dealer, winner, cards_left, paid)
    with pytest.raises(PlayOrPayError) as caught:
        settle_quick(hand, dealer, winner, cards_left, paid)
    assert str(caught.value).startswith(message)


# --- chips --------------------------------------------------------------------------------------


def test_balances_come_from_the_ledger_and_may_be_owed() -> None:
    ledger = buy_in_entries(THREE, 5) + settle_quick(1, 0, "Bob", {"Ann": 9, "Bob": 0, "Cy": 2}, {"Cy": 1})
    balances = chip_balances(ledger, THREE)
    assert balances == {"Ann": -4, "Bob": 17, "Cy": 2}
    assert sum(balances.values()) == 15
    assert [format_chips(balance) for balance in balances.values()] == ["owes 4 chips", "17 chips", "2 chips"]
    top_up = buy_in_entries(["Ann"], 10, hand=2)
    assert chip_balances(ledger + top_up, THREE)["Ann"] == 6
    assert top_up[0].as_json() == {"hand": 2, "player": "Ann", "kind": "buy_in", "amount": 10}


def test_the_ledger_names_only_players() -> None:
    with pytest.raises(PlayOrPayError, match='the chip ledger names "Zed", who is not a player at this table'):
        chip_balances((ChipEntry(None, "Zed", ChipKind.BUY_IN, 5),), THREE)


def test_live_balances_count_chips_paid_in_an_unsettled_hand() -> None:
    ledger = buy_in_entries(THREE, 10)
    hand = pay(pay(play(near_the_end(), 0, "9C"), 1), 2)
    assert live_balances(ledger, hand) == {"Ann": 10, "Bob": 9, "Cy": 9}
    settled = play(hand, 0, "10C")
    assert live_balances(ledger, settled) == chip_balances(ledger, THREE)  # the settlement is not in the ledger yet
    assert chip_balances(ledger + settled.settlement, THREE) == {"Ann": 19, "Bob": 5, "Cy": 6}


# --- whole hands --------------------------------------------------------------------------------


def deal(deck: list[Card], players: int, dealer: int) -> list[list[Card]]:
    """Deal one card at a time, starting left of the dealer."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for index, card in enumerate(deck):
        hands[(dealer + 1 + index) % players].append(card)
    return hands


def play_honestly(hand: HandState, held: list[list[Card]], rng: random.Random) -> HandState:
    """Play the needed card when holding it, else pay; lead a random held card of an unplayed suit."""
    limit = 52 * (len(held) + 1)
    for _ in range(limit):
        if hand.finished:
            return hand
        seat = hand.turn
        assert hand.cards_left == tuple(len(cards) for cards in held)
        if hand.needed is None:
            card = rng.choice([card for card in held[seat] if card.suit not in hand.suits_played])
        elif hand.needed in held[seat]:
            card = hand.needed
        else:
            hand = pay(hand, seat)
            continue
        held[seat].remove(card)
        hand = play(hand, seat, card)
    raise AssertionError(f"hand {hand.hand} did not finish in {limit} events")


def check_settled(hand: HandState, held: list[list[Card]]) -> None:
    assert hand.finished and hand.winner is not None
    assert held[hand.winner] == []
    assert all(cards for seat, cards in enumerate(held) if seat != hand.winner)
    assert hand.flags == ()
    assert sum(entry.amount for entry in hand.settlement) == 0
    others = sum(len(cards) for seat, cards in enumerate(held) if seat != hand.winner)
    assert hand.pot == sum(hand.paid) + others
    assert len(hand.played) == 52 - sum(len(cards) for cards in held)


def test_a_full_hand_driven_event_by_event_settles_with_chips_conserved() -> None:
    rng = random.Random(564)
    deck = DECK.copy()
    rng.shuffle(deck)
    players = NAMES[:4]
    ledger = buy_in_entries(players, 25)
    hand = start_hand(players, dealer=3)
    held = deal(deck, 4, 3)
    assert [len(cards) for cards in held] == list(hand.cards_left)
    hand = play_honestly(hand, held, rng)
    check_settled(hand, held)
    balances = chip_balances(ledger + hand.settlement, players)
    assert sum(balances.values()) == 100
    assert balances[players[hand.winner or 0]] == 25 + hand.pot - hand.paid[hand.winner or 0]


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(3, 10),
    hands=st.integers(1, 3),
    data=st.data(),
    rng=st.randoms(use_true_random=False),
)
def test_random_hands_settle_and_conserve_chips(
    players: int, hands: int, data: st.DataObject, rng: random.Random
) -> None:
    names = NAMES[:players]
    dealer = data.draw(st.integers(0, players - 1))
    ledger = buy_in_entries(names, data.draw(st.integers(1, 50)))
    bought = sum(entry.amount for entry in ledger)
    hand = start_hand(names, dealer=dealer)
    for _ in range(hands):
        deck = data.draw(st.permutations(DECK))
        held = deal(deck, players, hand.dealer)
        hand = play_honestly(hand, held, rng)
        check_settled(hand, held)
        ledger += hand.settlement
        assert sum(chip_balances(ledger, names).values()) == bought
        hand = next_hand(hand)
    assert hand.dealer == (dealer + hands) % players


# --- the rules page's facts -------------------------------------------------------------------


def test_the_deal_table_agrees_with_the_deal_at_every_seat() -> None:
    rows = deal_table()
    assert [row.players for row in rows] == list(range(3, 11))
    for row in rows:
        assert row.extra == 52 % row.players and row.cards == 52 // row.players
        assert row.extra * row.most + row.rest * row.cards == 52
        for dealer in range(row.players):
            counts = deal_counts(row.players, dealer)
            assert sorted(counts, reverse=True) == [row.most] * row.extra + [row.cards] * row.rest
    four = rows[1]
    assert (four.players, four.cards, four.extra, four.most, four.rest) == (4, 13, 0, 13, 4)


@pytest.mark.parametrize("stack", [0, -1, 10_001, "20", True, 2.5, None])
def test_a_starting_stack_outside_the_option_is_refused(stack: object) -> None:
    with pytest.raises(PlayOrPayError, match="Starting chips: a whole number of chips from 1 to 10000"):
        verify_chips(stack)
    assert verify_chips(CHIPS_OPTION.minimum) == 1 and verify_chips(CHIPS_OPTION.maximum) == 10_000
    assert CHIPS_OPTION.default == 20 and CHIPS_OPTION.key == "chips"


def test_the_rules_in_words_name_section_7() -> None:
    titles = [line.title for line in RULES_IN_SHORT]
    assert titles[:3] == ["Players", "Cards", "The deal"] and "Going out" in titles
    assert "3 to 10" in RULES_IN_SHORT[0].text
    flags = next(line for line in COMPANION_RULES if line.title == "Flags")
    assert "paid a chip for a card and later plays that same card" in flags.text
