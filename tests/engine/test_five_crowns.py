"""Five Crowns (RULES.md 10): the fifth suit, the deck, the preset as data, its schedule and penalties,
and the cards and options it refuses; one test per rule and per decision (D-FC1 … D-FC10)."""

from __future__ import annotations

import re

import pytest

from engine.api import best_json, check_json, schedule_json, turn_scores_json, variants_json
from engine.cards import Card, Rank, Suit, format_cards, parse_cards, parse_meld, symbols_in, verify_in_play
from engine.deck import FIVE_CROWNS, STANDARD
from engine.errors import CannotGoOut, CardError, DeckError, EngineError, OptionError, PlayerCountError, RoundError
from engine.layoffs import verify_laid_down
from engine.meldrules import meld_rules
from engine.penalties import card_penalty, max_points, penalty_rows
from engine.play_or_pay.events import PlayEvent
from engine.rules import PRESETS, rule_set
from engine.schedule import round_info, schedule
from engine.solver import going_out

FC = "five-crowns"
RULES = rule_set(FC)


# --- D-FC1: writing the stars ------------------------------------------------------------------


@pytest.mark.parametrize("token", ["7R", "7r", "7★", "7☆", "7⭐", "7⭐\ufe0f", " 7★ "])
def test_stars_are_written_r_or_a_star_symbol(token: str) -> None:
    assert parse_cards(token) == (Card(Rank.SEVEN, Suit.STARS),)


def test_stars_read_with_ten_written_either_way_and_print_as_r_and_a_star() -> None:
    cards = parse_cards("10r T★ qR")
    assert format_cards(cards) == "10R 10R QR"
    assert [card.symbol for card in cards] == ["10★", "10★", "Q★"]
    assert str(parse_meld("JK=7★")[0]) == "JK=7R"


def test_s_stays_spades_and_the_asterisk_stays_a_joker() -> None:
    assert parse_cards("7S")[0].suit is Suit.SPADES
    assert parse_cards("*") == (Card.JOKER,)
    with pytest.raises(CardError, match='"7\\*" at position 1 is not a card'):
        parse_cards("7*")


def test_sentences_show_star_cards_and_suit_lists_as_stars() -> None:
    assert symbols_in("8C 8R 8S mixes suits (C, R)") == "8♣ 8★ 8♠ mixes suits (♣, ★)"


# --- 10.1 and D-FC8, D-FC9: the deck -----------------------------------------------------------


def test_the_deck_is_two_packs_of_five_suits_from_3_to_king_and_six_jokers() -> None:
    deck = PRESETS[FC].deck
    assert deck is FIVE_CROWNS
    assert deck.suits == (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.STARS)
    assert [rank.token for rank in deck.ranks] == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert len(deck.cards()) == 116
    assert sum(rank is None for rank, _ in deck.cards()) == 6


@pytest.mark.parametrize("players", range(2, 8))
def test_every_table_plays_two_packs_and_six_jokers(players: int) -> None:
    entry = schedule_json(FC, None, players)[0]
    assert (entry["decks"], entry["jokers"]) == (2, 6)


@pytest.mark.parametrize("hand", ["5H AS 9C", "5H 2S 9C", "5H 9C AR"])
def test_an_ace_or_a_two_in_five_crowns_is_an_error_naming_the_card(hand: str) -> None:
    card = next(token for token in hand.split() if token[0] in "A2")
    with pytest.raises(CardError, match=f'"{card}" is not a card of Five Crowns: its deck runs from 3 to K'):
        best_json(FC, 3, None, hand)
    with pytest.raises(CardError, match=f'"{card}"'):
        check_json(FC, 3, None, ["5H 6H 7H", hand])


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen", "3-13", "contract-rummy"])
def test_a_star_card_in_another_game_is_an_error_naming_the_card(variant: str) -> None:
    name = re.escape(PRESETS[variant].name)
    with pytest.raises(CardError, match=f'"7R" is not a card of {name}: its deck has no stars'):
        best_json(variant, 3, None, "5H 7★ 9C")
    with pytest.raises(CardError, match='"8R"'):
        check_json(variant, 3, None, ["8R 9R 10R"])


def test_a_hand_holds_at_most_two_copies_of_a_card_and_six_jokers() -> None:
    assert best_json(FC, 11, None, "7R 7R JK JK JK JK JK JK 5H 5H 9C 9C KD")["penalty"] >= 0
    with pytest.raises(DeckError, match='"7R" appears 3 times'):
        best_json(FC, 3, None, "7R 7R 7R")
    with pytest.raises(DeckError, match="only 6 jokers"):
        best_json(FC, 6, None, "JK JK JK JK JK JK JK 5H")


# --- 10.2 and D-FC7: players, rounds, wild cards -------------------------------------------------


def test_two_to_seven_players() -> None:
    preset = PRESETS[FC]
    assert (preset.min_players, preset.max_players) == (2, 7)
    with pytest.raises(PlayerCountError):
        preset.table_for(8)
    with pytest.raises(PlayerCountError):
        preset.table_for(1)


def test_eleven_rounds_of_3_to_13_cards_the_rounds_rank_and_jokers_wild_none_doubled() -> None:
    rounds = schedule(RULES)
    assert [info.cards for info in rounds] == list(range(3, 14))
    assert [info.round_rank for info in rounds] == [Rank(cards) for cards in range(3, 14)]
    assert all(info.jokers_wild and info.multiplier == 1 for info in rounds)
    assert [info.wild_tokens for info in rounds][::5] == [("JK", "3"), ("JK", "8"), ("JK", "K")]
    assert round_info(RULES, 9).wild_words == "Jokers and Jacks"


def test_no_round_twelve() -> None:
    with pytest.raises(RoundError, match="Five Crowns has rounds 1 to 11"):
        best_json(FC, 12, None, "5H")


def test_variants_lists_five_crowns_with_its_deck_table() -> None:
    entry = next(entry for entry in variants_json() if entry["id"] == FC)
    assert entry["name"] == "Five Crowns"
    assert (entry["min_players"], entry["max_players"], entry["rounds"]) == (2, 7, 11)
    assert entry["decks"] == [{"max_players": 7, "decks": 2, "jokers": 6}]
    assert entry["wild"] == entry["wild"] | {"jokers": True, "twos": False, "round_rank": True}
    assert entry["options"] == {
        "distinct_suit_sets": False,
        "wild_limit": "none",
        "no_adjacent_wilds": False,
        "wild_in_place_natural": False,
        "lay_offs": False,
        "discard_to_go_out": True,
    }


def test_the_schedule_gives_each_rounds_most_possible_points() -> None:
    entries = schedule_json(FC, None, None)
    # Jokers first (50 each, six of them), then the round's rank (20 each, ten of them), then Kings.
    assert [entry["max_points"] for entry in entries] == [150, 200, 250, 300, 320, 340, 360, 380, 400, 420, 440]
    assert all(entry["max_points"] == max_points(RULES, round_info(RULES, entry["round"])) for entry in entries)


# --- 10.5: penalties ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "round_number", "points"),
    [("3H", 2, 3), ("10R", 1, 10), ("JS", 1, 11), ("QD", 1, 12), ("KC", 1, 13), ("KH", 11, 20), ("3C", 1, 20)]
    + [("JK", round_number, 50) for round_number in (1, 11)],
)
def test_penalties_face_value_courts_11_to_13_the_rounds_rank_20_jokers_50(
    token: str, round_number: int, points: int
) -> None:
    assert card_penalty(Card.parse(token), RULES, round_info(RULES, round_number)) == points


def test_the_penalty_table_lists_the_decks_ranks_only() -> None:
    rows = penalty_rows(RULES, round_info(RULES, 3))
    assert rows[0] == ("3", 3)
    assert ("5 (wild)", 20) in rows and ("Joker", 50) in rows
    assert not any(label.startswith(("A", "2")) for label, _ in rows)


# --- 10.6: house options, and those refused ----------------------------------------------------


@pytest.mark.parametrize(
    "option",
    ["full_cycle", "no_aces_in_runs", "ace", "penalty_table", "double_rounds", "twos_wild", "deal_sizes", "exact_cut"],
)
def test_options_five_crowns_does_not_take_are_refused(option: str) -> None:
    with pytest.raises(OptionError, match='Five Crowns has no house rule "'):
        rule_set(FC, {option: "true" if option != "ace" else "both"})


def test_the_five_crowns_penalty_table_is_no_choice_for_other_games() -> None:
    with pytest.raises(OptionError, match="Penalty table"):
        rule_set("pay-me", {"penalty_table": "five-crowns"})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("distinct_suit_sets", True),
        ("wild_limit", "not_more_than_naturals"),
        ("no_adjacent_wilds", True),
        ("wild_in_place_natural", True),
        ("lay_offs", True),
        ("discard_to_go_out", False),
    ],
)
def test_the_house_options_are_taken(option: str, value: object) -> None:
    assert rule_set(FC, {option: value}).options_json()[option] == value


# --- 10.3, D-FC10: the run's ends, as the meld rules read them --------------------------------


def test_runs_use_places_3_to_king_and_hold_eleven_cards_at_most() -> None:
    meld = meld_rules(RULES, round_info(RULES, 4))
    assert (meld.lowest, meld.highest, meld.max_run, meld.no_aces) == (3, 13, 11, True)
    assert meld.suits == FIVE_CROWNS.suits
    assert meld.ranks == FIVE_CROWNS.ranks


def test_other_games_keep_their_four_suits_and_thirteen_ranks() -> None:
    for variant in ("pay-me", "3-13", "contract-rummy"):
        rules = rule_set(variant)
        assert rules.preset.deck is STANDARD
        meld = meld_rules(rules, round_info(rules, 1))
        assert len(meld.suits) == 4 and meld.max_run == 13


def test_decisions_of_five_crowns_are_on_its_rules_page_in_order() -> None:
    shown = [decision.id for decision in RULES.decisions()]
    assert shown[-10:] == [f"D-FC{number}" for number in range(1, 11)]
    assert "D5" not in shown and "D14" not in shown
    assert {"D5", "D6", "D11"} <= {decision.id for decision in rule_set(FC, {"lay_offs": True}).decisions()}


def test_every_error_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        best_json(FC, 3, None, "AH")


# --- 10.3, D-FC2, D-FC3: books and runs ---------------------------------------------------------


def valid(round_number: int, meld: str, **options: object) -> bool:
    return bool(check_json(FC, round_number, options, [meld])["valid"])


def test_books_have_no_upper_size_and_repeat_suits() -> None:
    assert valid(3, "9S 9S 9H 9H 9D 9D 9C 9C 9R 9R JK JK")
    assert valid(3, "KS KD KH KH")


def test_runs_are_one_suit_from_3_to_king_and_never_wrap() -> None:
    assert valid(1, "8R 9R 10R")
    assert not valid(2, "QH KH 3H")
    assert "K-3-4 is not a run" in check_json(FC, 2, None, ["QH KH 3H"])["melds"][0]["reason"]
    assert not valid(1, "JK KH JK") or check_json(FC, 1, None, ["JK KH JK"])["melds"][0]["kind"] == "set"


def test_a_wild_never_stands_below_3_or_above_king() -> None:
    answer = check_json(FC, 11, None, ["4S 5S JK"])["melds"][0]  # the joker can only be 3♠ or 6♠
    assert answer["valid"] and answer["read_as"] in (["3S", "4S", "5S"], ["4S", "5S", "6S"])
    top = check_json(FC, 1, None, ["QS KS JK"])["melds"][0]
    assert sorted(top["read_as"]) == ["JS", "KS", "QS"]


def test_melds_of_wild_cards_only_read_as_cards_of_the_deck() -> None:
    answer = check_json(FC, 2, None, ["JK JK JK"])["melds"][0]
    assert answer["valid"]
    assert all(Card.parse(token).rank not in (Rank.ACE, Rank.TWO) for token in answer["read_as"])


def test_a_card_of_the_rounds_rank_is_wild_even_in_its_own_place() -> None:
    # Round 5, 7s wild: 6♦ 7♦ 8♦ holds one wild card; 7♦ 7♣ 8♦ holds two, more than its one natural,
    # unless a wild standing for itself counts natural.
    limited = {"wild_limit": "not_more_than_naturals"}
    assert valid(5, "6D 7D 8D", **limited)
    assert not valid(5, "7D 7C 8D", **limited)
    assert valid(5, "7D 7C 8D", **limited, wild_in_place_natural=True)


def test_wilds_side_by_side_unless_the_option_forbids_it() -> None:
    assert valid(5, "6D 7R 7H 9D")
    assert not valid(5, "6D 7R 7H 9D", no_adjacent_wilds=True)


# --- 10.4, D-FC4 … D-FC6: going out and the last turn ------------------------------------------


def test_going_out_discards_the_last_card_which_may_fit_a_meld() -> None:
    info = round_info(RULES, 1)
    out = going_out(parse_cards("5H 6H 7H 9C"), RULES, info)
    assert (out.melds, out.discard) == ((parse_cards("5H 6H 7H"),), Card.parse("9C"))
    assert going_out(parse_cards("5H 6H 7H 8H"), RULES, info).discard is not None


def test_going_out_without_a_discard_only_with_the_option_off() -> None:
    info = round_info(RULES, 1)
    with pytest.raises(CannotGoOut, match="the 4th drawn card is discarded"):
        verify_laid_down(["5H 6H 7H 8H"], (), RULES, info)
    relaxed = rule_set(FC, {"discard_to_go_out": False})
    assert len(verify_laid_down(["5H 6H 7H 8H"], (), relaxed, round_info(relaxed, 1))) == 1


def test_the_last_turn_scores_the_cards_left_with_no_lay_offs() -> None:
    scores = turn_scores_json(FC, 3, None, ["6H 7H 8H", "KS KD KR"], ["9H QC 5C", "9S 9D 9R 4C JK"])
    first, second = scores
    assert first is not None and second is not None
    assert (first["penalty"], first["layoffs"]) == (9 + 12 + 20, [])  # 5♣ is wild in round 3
    assert second["penalty"] == 4  # a book of 9s (the joker joins it or not) and 4♣ left
    with_lay_offs = turn_scores_json(FC, 3, {"lay_offs": True}, ["6H 7H 8H"], ["9H QC 5C"])[0]
    assert with_lay_offs is not None and with_lay_offs["penalty"] == 12  # 9♥ and the wild 5♣ laid off


def test_going_out_on_the_last_turn_scores_0() -> None:
    assert best_json(FC, 2, None, "8S 8S 8R JK")["penalty"] == 0


def test_verify_in_play_refuses_stars_unless_the_deck_holds_them() -> None:
    with pytest.raises(CardError, match='"7R" is not a card of this game: its deck has no stars'):
        verify_in_play(parse_cards("7R"), decks=2, jokers=4)
    verify_in_play(parse_cards("7R 7R"), decks=2, jokers=6, deck=FIVE_CROWNS, game="Five Crowns")


def test_play_or_pay_refuses_a_star_card() -> None:
    with pytest.raises(CardError, match='"7R" is not a card of Play or Pay'):
        PlayEvent.from_fields({"player": "Ann", "card": "7★"}, ("Ann", "Bob", "Cy"))


def test_the_high_card_draw_names_the_decks_own_low_rank() -> None:
    from engine.dealing import FirstDealerMethod, first_dealer_methods
    from engine.rules import PRESETS

    five_crowns = FirstDealerMethod.HIGH_CARD.how_in(PRESETS["five-crowns"])
    assert "King is high, Three is low" in five_crowns and "Ace" not in five_crowns
    assert "King is high, Ace is low" in FirstDealerMethod.HIGH_CARD.how_in(PRESETS["pay-me"])
    assert FirstDealerMethod.HIGH_CARD in first_dealer_methods(PRESETS["five-crowns"])
