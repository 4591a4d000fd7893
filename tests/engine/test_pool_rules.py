"""Pool rummy, rule by rule and decision by decision (RULES.md 11, D-PR1 to D-PR20)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import Card, parse_cards, parse_meld
from engine.errors import DeckError, OptionError
from engine.pool.answers import deal_for, game_json
from engine.pool.count import count_hand
from engine.pool.cut import PoolDeal, deal_by_cut, deal_by_wild
from engine.pool.deal import parse_result, score_deal
from engine.pool.errors import CutError, Refusal, ResultError
from engine.pool.game import drops_left, end_game, play_deal, refusal_deal, rejoin, split_by_drops, start
from engine.pool.show import judge_meld, judge_show
from engine.rules import rule_set

POOL_101 = rule_set("pool-101")
POOL_201 = rule_set("pool-201")


def cut(card: str, **options: object) -> PoolDeal:
    return deal_by_cut(rule_set("pool-101", options) if options else POOL_101, card)


def meld(text: str, deal: PoolDeal) -> tuple[bool, bool | None]:
    judged = judge_meld(parse_meld(text), deal)
    return judged.valid, judged.pure


def show_code(deal: PoolDeal, *melds: str) -> str | None:
    verdict = judge_show([parse_meld(text) for text in melds], deal)
    return verdict.failure.value if verdict.failure else None


# --- 11.1 cards and the cut joker ---------------------------------------------------------------


def test_two_decks_and_a_printed_joker_each_d_pr1() -> None:
    deal = cut("7H")
    deal.verify_cards(list(parse_cards("7H 7H JK JK")))
    with pytest.raises(DeckError, match='"KS" appears 3 times'):
        deal.verify_cards(list(parse_cards("KS KS KS")))
    with pytest.raises(DeckError, match="only 2 jokers"):
        deal.verify_cards(list(parse_cards("JK JK JK")))
    cut("7H", jokers_per_deck=2).verify_cards(list(parse_cards("JK JK JK JK")))
    with pytest.raises(OptionError, match="Printed jokers per deck"):
        rule_set("pool-101", {"jokers_per_deck": 3})


def test_every_card_of_the_cut_rank_is_wild_d_pr2() -> None:
    deal = cut("9C")
    assert all(deal.is_wild(card) for card in parse_cards("9S 9H 9D 9C JK"))
    assert not deal.is_wild(Card.parse("8C"))
    no_cut = deal_for(rule_set("pool-101", {"cut_joker": "off"}), None, None)
    assert no_cut.wild_rank is None and no_cut.is_wild(Card.JOKER)
    with pytest.raises(CutError, match="--cut is not allowed"):
        cut("9C", cut_joker="off")


def test_a_printed_joker_cut_makes_aces_wild_d_pr3() -> None:
    assert cut("JK").is_wild(Card.parse("AS"))
    only = cut("JK", printed_joker_cut="jokers_only")
    assert not only.is_wild(Card.parse("AS")) and only.is_wild(Card.JOKER)
    assert deal_by_wild(POOL_101, "none").wild_rank is None


def test_the_cut_card_stays_in_play_d_pr20() -> None:
    found = count_hand(parse_cards("7H 7H 2S 3S 4S 5D 6D 8D KC KD QH QS 9C"), cut("7H"))
    assert found.lives and found.count == 29  # both 7♥ are wild: 5♦ 6♦ 7♥ 8♦ and K♣ K♦ 7♥ leave Q♥ Q♠ 9♣


# --- 11.2 melds, the pure sequence and the show --------------------------------------------------


def test_a_wild_in_its_own_place_is_natural_d_pr4() -> None:
    eights = cut("8D")
    assert meld("8C 9C 10C", eights) == (True, True)
    assert meld("8C 10C JC", eights) == (True, False)
    assert meld("5H 5H 6H 7H", cut("5S")) == (True, False)
    assert meld("5H 6H JK", cut("5S")) == (True, False)  # a printed joker is never natural


def test_sets_show_each_suit_once_d_pr5() -> None:
    deal = cut("2C")
    assert meld("7S 7H 7D", deal) == (True, False)
    assert meld("7S 7H 7D 7C", deal) == (True, False)
    assert meld("7S 7S 7H", deal)[0] is False
    assert meld("7S 7S 7H JK", deal)[0] is False
    assert meld("7S 7H 7D 7C JK", deal)[0] is False
    assert meld("7S 7H 7D 7C JK", cut("2C", long_sets="on"))[0] is True
    assert meld("7S 7S 7H 7C JK", cut("2C", long_sets="on"))[0] is False


def test_aces_low_or_high_never_both_d_pr6() -> None:
    deal = cut("7C")
    assert meld("AH 2H 3H", deal) == (True, True)
    assert meld("QH KH AH", deal) == (True, True)
    assert meld("KH AH 2H", deal)[0] is False
    assert meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", deal)[0] is False


def test_wild_cards_only_make_a_meld_never_pure_d_pr7() -> None:
    deal = cut("7C")
    assert meld("JK JK 7S", deal) == (True, False)
    assert meld("7S 7H 7D JK", deal) == (True, False)
    natural = cut("7C", wild_limit="at_least_one_natural")
    assert meld("JK JK 7S", natural) == (True, False)  # 7♠ may stand for itself
    assert meld("JK JK 7S 7S", natural)[0] is True
    assert meld("JK JK AS", cut("JK", wild_limit="at_least_one_natural"))[0] is True
    assert show_code(deal, "2H 3H 4H", "JK JK 7S 7D", "KC KD KH", "9D 9S 9C") is None  # the second sequence


def test_the_show_fails_in_order_d_pr8() -> None:
    deal = cut("7H")
    assert show_code(deal, "2H 3H 4H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C") is None
    assert show_code(deal, "2H 3H 4H", "KC KD KH", "9D 9S 9C") == "card_count"
    assert show_code(deal, "2H 3H 5H", "5S 6S JK 8S 9S", "KC KD KH", "9D 9S 9C") == "card_count"
    assert show_code(deal, "2H 3H 5H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C") == "bad_meld"
    assert show_code(deal, "2H 3H 7C", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C") == "no_pure_sequence"
    assert show_code(deal, "2H 3H 4H", "5S 5D 5C 5H", "KC KD KH", "9D 9S 9C") == "no_second_sequence"
    assert show_code(deal, "2H 3H 4H", "5S 6S 7S 8S", "KC KD KH", "9D 9S 9C") is None  # two pure
    verdict = judge_show([parse_meld(text) for text in ("2H 3H 5H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C")], deal)
    assert verdict.reason is not None and verdict.reason.startswith("meld 1 is not a meld: 2H 3H 5H")


# --- 11.3 scoring a deal ------------------------------------------------------------------------


def test_a_count_with_and_without_lives_d_pr9() -> None:
    deal = cut("7C")
    found = count_hand(parse_cards("2H 3H 4H 5S 6S JK KC KD 9D 9S QC 5D 8C"), deal)
    assert found.lives and found.count == 5 + 6 + 10 + 9 + 9 + 5 + 8  # the joker makes Q♣ K♣ A♣, not 5♠ 6♠ 7♠
    assert count_hand(parse_cards("2H 3H 4H 5S 5D 5C KC KD KH 9D 9S 9C 6H"), deal).count == 87
    capped = count_hand(parse_cards("KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 6S"), deal)
    assert (capped.count, capped.penalty, capped.lives) == (120, 80, False)
    low_cap = count_hand(parse_cards("KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 6S"), cut("7C", full_count=60))
    assert low_cap.penalty == 60
    assert count_hand(parse_cards("7S 7D JK AS"), deal).count == 10  # wild cards count 0


def test_results_score_by_the_table_d_pr10_d_pr11_d_pr18() -> None:
    scored = score_deal(POOL_201, [parse_result(text) for text in ("drop", "middle", "full", "wrong", "win", "120")])
    assert scored.points == (25, 50, 80, 80, 0, 80) and scored.winner == 4
    assert parse_result(120).to_json() == 120  # the record keeps what the cards said
    with pytest.raises(ResultError, match="exactly one win, not 2"):
        score_deal(POOL_101, [parse_result("win"), parse_result("win")])
    with pytest.raises(ResultError, match='"-3" is not a result'):
        parse_result("-3")
    with pytest.raises(ResultError, match="from 0"):
        parse_result(-3)


# --- 11.4 the game ------------------------------------------------------------------------------


def replay(**record: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"variant": "pool-101", "players": ["A", "B", "C"], "buy_in": 100}
    return game_json(json.dumps(base | record))


def test_out_on_reaching_the_limit_or_only_above_it_d_pr12() -> None:
    reach = replay(deals=[{"results": {"A": "win", "B": 80, "C": 20}}, {"results": {"A": 21, "B": "win", "C": 81}}])
    assert reach["totals"]["C"] == 100 and reach["in"] == ["A", "B", "C"]
    reach = replay(deals=[{"results": {"A": "win", "B": 80, "C": 21}}, {"results": {"A": 21, "B": "win", "C": 80}}])
    assert reach["out"] == ["C"] and reach["totals"]["C"] == 101
    passing = replay(
        options={"eliminated_at": "pass"},
        deals=[{"results": {"A": "win", "B": 80, "C": 21}}, {"results": {"A": 21, "B": "win", "C": 80}}],
    )
    assert passing["out"] == [] and passing["drops_left"]["C"] == 0


def test_rejoins_after_the_same_deal_take_the_same_total_d_pr13() -> None:
    four = ["A", "B", "C", "D"]
    deals = [
        {"results": {"A": "win", "B": 80, "C": 80, "D": 10}},
        {"results": {"A": 30, "B": 40, "C": 40, "D": "win"}, "rejoin": ["C", "B"]},
    ]
    answer = replay(players=four, deals=deals)
    assert answer["totals"] == {"A": 30, "B": 31, "C": 31, "D": 10} and answer["pot"] == 600
    late = replay(
        players=four, deals=[*deals[:1], {**deals[1], "rejoin": []}, {"results": {"A": "win", "D": 5}, "rejoin": ["B"]}]
    )
    assert late["refused"]["code"] == "rejoin_late" and late["refused"]["at"] == 3
    not_out = replay(players=four, deals=[{**deals[0], "rejoin": ["A"]}])
    assert not_out["refused"]["code"] == "rejoin_not_out"
    limited = replay(
        players=four,
        options={"max_rejoins": 0},
        deals=deals,
    )
    assert limited["refused"]["code"] == "rejoin_limit" and limited["out"] == ["B", "C"]


def test_without_a_cutoff_a_rejoin_that_is_itself_out_is_refused_d_pr13() -> None:
    deals = [
        {"results": {"A": "win", "B": 80, "C": 80}},
        {"results": {"A": "win", "B": 20, "C": 21}, "rejoin": ["C"]},
    ]
    answer = replay(players=["A", "B", "C"], options={"rejoin_cutoff": "off"}, deals=deals)
    assert answer["refused"]["code"] == "rejoin_at_limit" and answer["out"] == ["C"]  # B stayed in at 100
    four = ["A", "B", "C", "D"]
    deals = [
        {"results": {"A": "win", "B": 80, "C": 80, "D": 50}},
        {"results": {"A": "win", "B": 20, "C": 25, "D": 50}, "rejoin": ["C"]},
    ]
    answer = replay(players=four, options={"rejoin_cutoff": "off"}, deals=deals)
    assert answer["refused"]["code"] == "rejoin_at_limit" and answer["totals"]["B"] == 100


def test_the_last_player_standing_takes_the_pot_d_pr14() -> None:
    deals = [
        {"results": {"A": "win", "B": 80, "C": 80}},
        {"results": {"A": "win", "B": 30, "C": 40}, "rejoin": ["C"]},
    ]
    answer = replay(deals=deals)
    assert answer["winner"] == "A" and answer["dealer"] is None
    assert answer["nets"] == {"A": 200, "B": -100, "C": -100} and answer["out"] == ["B", "C"]
    assert answer["refused"] == {"at": 2, "code": "game_over", "reason": "the game is over: no one may rejoin"}
    after = replay(deals=[*deals[:1], {"results": {"A": "win", "B": 30, "C": 40}}, {"results": {"A": "win"}}])
    assert after["refused"]["code"] == "game_over" and after["refused"]["at"] == 3


def test_the_split_d_pr15() -> None:
    game = start(POOL_101, ("A", "B", "C"), 100)
    assert split_by_drops(game) == (100, 100, 100)  # drops left 5, 5, 5: the pot shared equally
    game = play_deal(game, {"A": "win", "B": 60, "C": 0})
    assert [drops_left(game, seat) for seat in range(3)] == [5, 2, 5]
    assert split_by_drops(game) is None  # 300 - 3 × 100 leaves nothing to share
    with pytest.raises(Refusal, match="less than one buy-in"):
        end_game(game, "drops")
    equal = end_game(game, "equal")
    assert equal.taken == (100, 100, 100) and equal.nets == (0, 0, 0)
    odd = end_game(start(POOL_101, ("A", "B", "C"), 101), "equal")
    assert odd.taken == (101, 101, 101)
    amounts = replay(
        deals=[{"results": {"A": "win", "B": 60, "C": 0}}], end={"split": "amounts", "shares": {"A": 200, "B": 100}}
    )
    assert amounts["refused"]["code"] == "split_amounts"
    amounts = replay(
        deals=[{"results": {"A": "win", "B": 60, "C": 0}}],
        end={"split": "amounts", "shares": {"A": 200, "B": 50, "C": 50}},
    )
    assert amounts["split"] == {"method": "amounts", "shares": {"A": 200, "B": 50, "C": 50}}
    assert amounts["nets"] == {"A": 100, "B": -50, "C": -50}


def test_leftover_cents_go_one_each_from_the_first_seat() -> None:
    game = start(POOL_101, ("A", "B", "C"), 100)
    game = play_deal(game, {"A": 20, "B": "win", "C": 0})
    game = end_game(game, "drops")  # drops left 4, 5, 5: B and C first get 100 each, 100 is left
    assert game.taken == (34, 133, 133)


def test_the_deal_passes_left_skipping_players_out_d_pr16() -> None:
    record = {"players": ["A", "B", "C", "D"], "first_dealer": "B"}
    first = {"results": {"A": "win", "B": 20, "C": 20, "D": 80}}
    second = {"results": {"A": 20, "B": "win", "C": 20, "D": 30}}
    answer = replay(**record, deals=[first, second])
    assert answer["dealer"] == "A" and answer["out"] == ["D"]  # B and C dealt; D is out
    answer = replay(**record, deals=[first, {**second, "rejoin": ["D"]}])
    assert answer["dealer"] == "D" and answer["totals"]["D"] == 41


def test_a_limit_on_drops_d_pr17() -> None:
    deals = [
        {"results": {"A": "win", "B": "drop", "C": "middle"}},
        {"results": {"A": "win", "B": "middle", "C": 3}},
    ]
    answer = replay(options={"max_drops": 1}, deals=deals)
    assert answer["refused"]["code"] == "max_drops" and answer["drops_left"] == {"A": 1, "B": 0, "C": 0}


def test_a_deals_refusals_come_in_order() -> None:
    game = start(POOL_101, ("A", "B"), 100)
    codes = [
        ({"Z": "win", "A": 3, "B": 3}, "unknown_player"),
        ({"A": "win"}, "missing_result"),
        ({"A": "win", "B": "nap"}, "bad_result"),
        ({"A": 3, "B": 4}, "winner_count"),
    ]
    for results, code in codes:
        refusal = refusal_deal(game, results)
        assert refusal is not None and refusal.code == code
    three = play_deal(start(POOL_101, ("A", "B", "C"), 100), {"A": "win", "B": "full", "C": 0})
    three = play_deal(three, {"A": "win", "B": "wrong", "C": 0})
    refusal = refusal_deal(three, {"A": "win", "B": 3, "C": 3})
    assert refusal is not None and refusal.code == "not_in_game"
    with pytest.raises(Refusal, match="not out of the game"):
        rejoin(three, "A")


def test_the_rules_in_words_name_every_decision_and_no_code_or_option_key() -> None:
    from engine.pool.rules_text import DECISIONS, rules_in_short
    from engine.rules import POOL_OPTION_KEYS

    assert [decision.id for decision in DECISIONS] == [f"D-PR{number}" for number in range(1, 21)]
    lines = rules_in_short(rule_set("pool-101", {"rejoin_cutoff": "off", "eliminated_at": "pass"}))
    words = [text for line in lines for text in (line.title, line.text)]
    words += [text for decision in DECISIONS for text in (decision.title, decision.text)]
    assert "goes above 101" in " ".join(words) and "at any total" in " ".join(words)
    for text in words:
        assert "D-PR" not in text and not any(key in text for key in POOL_OPTION_KEYS if "_" in key), text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "every card of the rank cut after the deal; a printed joker cut makes the aces wild."),
        ({"printed_joker_cut": "jokers_only"}, "a printed joker cut makes nothing more wild."),
        ({"cut_joker": False}, "The printed jokers only: no card is cut."),
        ({"jokers_per_deck": 0}, "Every card of the rank cut after the deal."),
        ({"jokers_per_deck": 0, "cut_joker": False}, "No wild cards: no card is cut."),
    ],
)
def test_the_rules_in_words_name_the_wild_cards_the_options_make(options: dict[str, Any], words: str) -> None:
    from engine.pool.rules_text import rules_in_short

    wild = next(line.text for line in rules_in_short(rule_set("pool-101", options)) if line.title == "Wild cards")
    assert wild.endswith(words)
