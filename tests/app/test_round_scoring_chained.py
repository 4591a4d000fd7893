"""Rounds scored from hands give exactly the engine's chained scoring (D6, D7, D13, D19): the
declarer's hand goes to the engine as cards, and every reading its melds leave open stays open
until a lay-off needs one. Issue 25's examples, and a differential test over random rounds for
every preset with lay-offs and the options that bear on them: API scores = engine scores."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.api import turn_scores_json
from engine.cards import Card, Rank, format_cards
from engine.deck import STANDARD_SUITS
from engine.errors import CannotGoOut
from engine.layoffs import layoff_turns
from engine.rules import rule_set
from engine.schedule import round_info
from engine.solver import going_out
from tests.conftest import api_game, edit_key

PLAYERS = ["Ann", "Bob", "Cy"]


def new_game(client: FlaskClient, variant: str, **options: Any) -> tuple[str, dict[str, str]]:
    game = api_game(client, variant, PLAYERS, PLAYERS[0], **options)
    return game["id"], edit_key(game)


def post_round(client: FlaskClient, game_id: str, key: dict[str, str], **body: Any) -> Any:
    response = client.post(f"/api/games/{game_id}/rounds", json=body, headers=key)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["rounds"][-1]


def skip_rounds(client: FlaskClient, game_id: str, key: dict[str, str], count: int) -> None:
    for _ in range(count):
        post_round(client, game_id, key, went_out="Ann", scores={"Ann": 0, "Bob": 0, "Cy": 0})


# --- the issue's examples -------------------------------------------------------------------

PAY_ME_HANDS = {"Ann": "JK 8D 9D KS KC KH", "Bob": "6D QS QC QH 4C", "Cy": "JD 7S 7C 4D 4H"}


def test_the_issue_example_a_loose_declarer_hand_keeps_its_joker_open(client: FlaskClient) -> None:
    game_id, key = new_game(client, "pay-me-family")
    skip_rounds(client, game_id, key, 2)
    played = post_round(client, game_id, key, went_out="Ann", hands=PAY_ME_HANDS)
    # Bob lays off 6♦ with the joker as 7♦ (4♣ scores 5); then J♦ no longer fits: Cy keeps
    # J♦ (10) and 4♦ 4♥ (5 each), with 7♠ 7♣ too few for a set.
    assert played["scores"] == {"Ann": 0, "Bob": 5, "Cy": 30}
    engine = turn_scores_json(
        "pay-me-family", 3, None, [], [PAY_ME_HANDS["Bob"], PAY_ME_HANDS["Cy"]], 3, PAY_ME_HANDS["Ann"]
    )
    assert [answer["penalty"] for answer in engine if answer] == [5, 30]


def test_melds_entered_with_bars_keep_their_open_readings_too(client: FlaskClient) -> None:
    game_id, key = new_game(client, "pay-me-family")
    skip_rounds(client, game_id, key, 2)
    hands = {**PAY_ME_HANDS, "Ann": "JK 8D 9D | KS KC KH"}
    played = post_round(client, game_id, key, went_out="Ann", hands=hands)
    assert played["scores"] == {"Ann": 0, "Bob": 5, "Cy": 30}
    game_id, key = new_game(client, "pay-me-family")
    skip_rounds(client, game_id, key, 2)
    played = post_round(
        client,
        game_id,
        key,
        went_out="Ann",
        declarer=["JK 8D 9D", "KS KC KH"],
        hands={"Bob": PAY_ME_HANDS["Bob"], "Cy": PAY_ME_HANDS["Cy"]},
    )
    assert played["scores"] == {"Ann": 0, "Bob": 5, "Cy": 30}


def test_the_cards_page_scores_the_issue_example_as_the_api(client: FlaskClient, post_form: Any) -> None:
    made = post_form(
        "/games/new?variant=pay-me-family",
        {
            "variant": "pay-me-family",
            "players": "\n".join(PLAYERS),
            "first_dealer": "0",
            "opt_lay_offs": "y",
            "opt_no_adjacent_wilds": "y",
        },
    )
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["options"]["lay_offs"] is True
    url = f"/games/{game_id}/rounds/cards"
    for _ in range(2):
        zeros = {"action": "save", "went_out": "Ann", "points-0": "0", "points-1": "0", "points-2": "0"}
        assert post_form(url, zeros).status_code == 303
    cards = {f"hand-{seat}": PAY_ME_HANDS[name] for seat, name in enumerate(PLAYERS)}
    preview = post_form(url, {"action": "preview", "went_out": "Ann", **cards})
    assert preview.status_code == 200
    saved = post_form(url, {"action": "save", "went_out": "Ann", **cards})
    assert saved.status_code == 303
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][-1]
    assert played["scores"] == {"Ann": 0, "Bob": 5, "Cy": 30}


@pytest.mark.parametrize(
    "declarer",
    ["JK 2S 2D | 5H 5S 5D", "JK 2S 2D 5H 6H 7H"],
    ids=["melds", "loose"],
)
def test_a_3_13_round_keeps_wild_cards_open_as_the_engine_does(client: FlaskClient, declarer: str) -> None:
    game_id, key = new_game(client, "3-13")
    skip_rounds(client, game_id, key, 3)
    # JK 2S 2D alone is an open all-wild meld: Bob lays 9C 10C off and Cy's AC still fits as
    # J-Q-K-A (D19). In a loose hand the wilds join the hearts, open around them.
    hands = {"Ann": declarer, "Bob": "9C 10C 4H 7S 8D 6S", "Cy": "AC 3H 3S 6D KH 4S"}
    if "|" not in declarer:
        hands |= {"Bob": "8H 9H 4C 7S 8D 6S", "Cy": "AH 3C 3S 6D 10H 4S"}
    played = post_round(client, game_id, key, went_out="Ann", hands=hands)
    engine = turn_scores_json("3-13", 4, None, [], [hands["Bob"], hands["Cy"]], 3, hands["Ann"])
    assert played["scores"] == {"Ann": 0, "Bob": engine[0]["penalty"], "Cy": engine[1]["penalty"]}
    assert engine[0]["layoffs"] and engine[1]["layoffs"]


# --- the differential test ------------------------------------------------------------------

CASES = [
    ("pay-me", {}),
    ("pay-me", {"wild_in_place_natural": True}),
    ("pay-me", {"distinct_suit_sets": True}),
    ("pay-me", {"full_cycle": True}),
    ("pay-me-family", {}),
    ("pay-me-family", {"ace": "both"}),
    ("pay-me-family", {"no_aces_in_runs": True, "no_adjacent_wilds": False}),
    ("three-thirteen", {"lay_offs": True}),
    ("3-13", {}),
    ("3-13", {"ace": "low", "wild_limit": "not_more_than_naturals"}),
    ("3-13", {"wild_in_place_natural": True, "ace": "both"}),
]
SUITS = list(STANDARD_SUITS)
RANKS = list(Rank)


def deck(decks: int, jokers: int) -> list[Card]:
    return [Card(rank, suit) for rank in RANKS for suit in SUITS] * decks + [Card.JOKER] * jokers


def take(pool: Counter[Card], card: Card) -> bool:
    if pool[card] <= 0:
        return False
    pool[card] -= 1
    return True


def declarer_hand(rng: random.Random, pool: Counter[Card], size: int, wilds: list[Card]) -> list[Card] | None:
    """Cards that make melds: sets and short runs, some cards replaced by wild cards."""
    hand: list[Card] = []
    while len(hand) < size:
        left = size - len(hand)
        length = left if left < 6 else rng.randint(3, min(5, left - 3))
        if rng.random() < 0.5:
            rank = rng.choice(RANKS)
            meld = [Card(rank, rng.choice(SUITS)) for _ in range(length)]
        else:
            suit = rng.choice(SUITS)
            start = rng.randint(1, 14 - length)
            meld = [Card(Rank.ACE if place in (1, 14) else Rank(place), suit) for place in range(start, start + length)]
        meld = [rng.choice(wilds) if wilds and rng.random() < 0.2 else card for card in meld]
        for card in meld:
            if not take(pool, card):
                return None
        hand += meld
    return hand


def near_hand(rng: random.Random, pool: Counter[Card], size: int, declared: list[Card]) -> list[Card]:
    """Cards near the declarer's: their ranks and neighbours in their suits, and anything."""
    hand: list[Card] = []
    tries = 0
    while len(hand) < size and tries < 500:
        tries += 1
        base = rng.choice(declared)
        if base.rank is None or rng.random() < 0.25:
            card = rng.choice(list(pool.elements()))
        elif rng.random() < 0.5:
            card = Card(base.rank, rng.choice(SUITS))
        else:
            place = min(max(int(base.rank) + rng.choice([-2, -1, 1, 2]), 1), 13)
            card = Card(Rank(place), base.suit)
        if take(pool, card):
            hand.append(card)
    return hand


def random_round(variant: str, options: dict[str, Any], number: int, rng: random.Random) -> dict[str, str] | None:
    rules = rule_set(variant, options)
    info = round_info(rules, number)
    row = rules.preset.table_for(len(PLAYERS))
    pool = Counter(deck(row.decks, row.jokers))
    wilds = [card for card in pool if info.is_wild(card)]
    declared = declarer_hand(rng, pool, info.cards, wilds)
    if declared is None:
        return None
    try:
        going_out(declared, rules, info)
    except CannotGoOut:
        return None
    hands = {"Ann": format_cards(declared)}
    for name in PLAYERS[1:]:
        held = near_hand(rng, pool, info.cards, declared)
        if len(held) < info.cards:
            return None
        hands[name] = format_cards(held)
    return hands


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("variant", "options"), CASES, ids=[f"{v}-{'-'.join(o) or 'preset'}" for v, o in CASES])
def test_api_round_scores_equal_the_engines_chained_scores(
    client: FlaskClient, variant: str, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(f"{seed}{variant}{sorted(options.items())}")
    game_id, key = new_game(client, variant, **options)
    rules = rule_set(variant, options)
    order = [PLAYERS[seat] for seat in layoff_turns(0, len(PLAYERS))]
    compared = laid_off = 0
    for number in range(1, rules.rounds + 1):
        hands = None
        for _ in range(50):
            hands = random_round(variant, options, number, rng)
            if hands is not None:
                break
        if hands is None:
            skip_rounds(client, game_id, key, 1)
            continue
        played = post_round(client, game_id, key, went_out="Ann", hands=hands)
        engine = turn_scores_json(
            variant, number, options, [], [hands[name] for name in order], len(PLAYERS), hands["Ann"]
        )
        expected = {name: answer["penalty"] for name, answer in zip(order, engine, strict=True) if answer}
        assert {name: played["points"][name] for name in expected} == expected, (number, hands)
        assert played["points"]["Ann"] == 0
        compared += 1
        laid_off += sum(1 for answer in engine if answer and answer["layoffs"])
    assert compared >= rules.rounds - 2
    assert laid_off >= 3  # the rounds make use of lay-offs
