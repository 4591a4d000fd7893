"""Pool rummy against brute force (tests/engine/pool_reference.py): meld validity and purity, the
show and the count on random hands with random cut cards, and random games against a model of 11.4."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank
from engine.deck import STANDARD_SUITS
from engine.pool.answers import game_json
from engine.pool.count import count_hand
from engine.pool.cut import pool_deal
from engine.pool.show import judge_meld, judge_show
from engine.rules import rule_set
from tests.engine.pool_reference import Model, Wilds, count, meld_kinds, show_code

RANKS = list(Rank)
SLOW = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@st.composite
def deals(draw: st.DrawFn) -> tuple[Wilds, Any]:
    """A deal's wild rank (or none), with the meld options a table may set."""
    rank = draw(st.sampled_from([None, *RANKS]))
    long_sets = draw(st.booleans())
    natural = draw(st.booleans())
    rules = rule_set("pool-101", {"long_sets": long_sets, "wild_limit": "at_least_one_natural" if natural else "none"})
    return Wilds(rank, long_sets, natural), pool_deal(rules, rank)


@st.composite
def near_cards(draw: st.DrawFn, size: int) -> list[Card]:
    """Cards close together (two suits, a window of ranks, jokers), so melds are frequent."""
    suits = draw(st.lists(st.sampled_from(STANDARD_SUITS), min_size=1, max_size=2, unique=True))
    low = draw(st.integers(1, 11))
    ranks = [Rank(1 if place == 14 else place) for place in range(low, low + 4)]
    pool = [Card(rank, suit) for rank in ranks for suit in suits] + [Card.JOKER]
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))


def copies_ok(cards: list[Card]) -> bool:
    return all(count <= 2 for count in Counter(cards).values())


def wild_count(cards: list[Card], wilds: Wilds) -> int:
    return sum(1 for card in cards if wilds.wild(card))


@given(deal=deals(), size=st.integers(3, 5), data=st.data())
@SLOW
def test_meld_validity_and_purity_match_brute_force(deal: tuple[Wilds, Any], size: int, data: st.DataObject) -> None:
    wilds, pool = deal
    cards = data.draw(near_cards(size) | st.lists(st.sampled_from([*FULL_DECK]), min_size=size, max_size=size))
    if not copies_ok(cards) or wild_count(cards, wilds) > 2:
        return
    kinds = meld_kinds(cards, wilds)
    judged = judge_meld(tuple(MeldCard(card) for card in cards), pool)
    assert judged.valid == bool(kinds), (cards, wilds, kinds)
    assert judged.pure == (("pure" in kinds) if kinds else None), (cards, wilds, kinds)
    assert judged.can_run == ("run" in kinds)
    if judged.valid:
        assert judged.verdict.kind is not None and judged.verdict.kind.value in kinds


FULL_DECK = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] + [Card.JOKER]


@given(
    deal=deals(),
    sizes=st.sampled_from([(3, 3, 3, 4), (3, 4, 3, 3), (4, 4, 5), (3, 3, 3, 3), (3, 3, 4, 4)]),
    data=st.data(),
)
@SLOW
def test_the_show_matches_brute_force(deal: tuple[Wilds, Any], sizes: tuple[int, ...], data: st.DataObject) -> None:
    wilds, pool = deal
    melds = [data.draw(near_cards(size)) for size in sizes]
    if not copies_ok([card for meld in melds for card in meld]) or any(wild_count(m, wilds) > 2 for m in melds):
        return
    expected = show_code(melds, [meld_kinds(meld, wilds) for meld in melds])
    verdict = judge_show([tuple(MeldCard(card) for card in meld) for meld in melds], pool)
    assert (verdict.failure.value if verdict.failure else None) == expected, (melds, wilds)


@st.composite
def hands(draw: st.DrawFn) -> list[Card]:
    near = draw(st.lists(near_cards(4), min_size=3, max_size=3))
    cards = [card for group in near for card in group] + [draw(st.sampled_from(FULL_DECK))]
    return draw(st.permutations(cards))


@given(deal=deals(), hand=hands() | st.lists(st.sampled_from(FULL_DECK), min_size=13, max_size=13))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_count_matches_brute_force(deal: tuple[Wilds, Any], hand: list[Card]) -> None:
    wilds, pool = deal
    if not copies_ok(hand):
        return

    def kinds_of(group: list[Card]) -> frozenset[str]:
        judged = judge_meld(tuple(MeldCard(card) for card in group), pool)
        if not judged.valid:
            return frozenset()
        return (
            frozenset({"set"} if judged.verdict.kind and judged.verdict.kind.value == "set" else set())
            | ({"run"} if judged.can_run else set())
            | ({"pure"} if judged.pure else set())
        )

    expected, lives = count(hand, wilds, kinds_of)
    found = count_hand(hand, pool)
    assert (found.count, found.lives) == (expected, lives), (hand, wilds)
    assert found.penalty == min(expected, 80)
    assert sorted(map(str, [*(held.card for meld in found.melds for held in meld), *found.unmelded])) == sorted(
        map(str, hand)
    )
    assert sum(wilds.points(card) for card in found.unmelded) == found.count
    for meld in found.melds:
        assert judge_meld(meld, pool).valid, meld


RESULT_WORDS = {"drop": 20, "middle": 40, "full": 80, "wrong": 80}


@given(data=st.data(), players=st.integers(2, 6), pool_201=st.booleans(), no_cutoff=st.booleans())
@settings(max_examples=80, deadline=None)
def test_random_games_match_the_model(data: st.DataObject, players: int, pool_201: bool, no_cutoff: bool) -> None:
    names = [f"P{seat}" for seat in range(players)]
    limit, cutoff = (201, 174) if pool_201 else (101, 79)
    points = {"drop": 25, "middle": 50, "full": 80, "wrong": 80} if pool_201 else RESULT_WORDS
    model = Model(names, limit, None if no_cutoff else cutoff, 500, points)
    record: dict[str, Any] = {"variant": f"pool-{limit}", "players": names, "buy_in": 500, "deals": []}
    if no_cutoff:
        record["options"] = {"rejoin_cutoff": "off"}
    refused = None
    for number in range(1, data.draw(st.integers(1, 14)) + 1):
        left = [name for name in names if name not in model.out]
        winner = data.draw(st.sampled_from(left))
        result = st.sampled_from(["drop", "middle", "full", "wrong"]) | st.integers(0, 100)
        results = {name: "win" if name == winner else data.draw(result) for name in left}
        rejoins = data.draw(st.lists(st.sampled_from(names), max_size=2))
        record["deals"].append({"results": results, "rejoin": rejoins})
        code = model.deal(results)
        if code:
            refused = {"at": number, "code": code}
            break
        for name in rejoins:
            code = model.rejoin(name)
            if code:
                refused = {"at": number, "code": code}
                break
        if refused:
            break
    answer = game_json(json.dumps(record))
    assert answer["totals"] == model.totals
    assert set(answer["out"]) == model.out
    assert answer["pot"] == sum(model.paid.values()) and answer["paid"] == model.paid
    assert (answer["refused"] and {"at": answer["refused"]["at"], "code": answer["refused"]["code"]}) == refused
    if model.over:
        (winner_name,) = (name for name in names if name not in model.out)
        assert answer["winner"] == winner_name and answer["dealer"] is None
        assert sum(answer["nets"].values()) == 0
        assert answer["nets"][winner_name] == answer["pot"] - model.paid[winner_name]
    else:
        assert answer["nets"] is None and answer["dealer"] in answer["in"]
