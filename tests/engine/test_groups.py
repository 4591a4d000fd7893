"""engine.groups: settle-up (property-tested against a brute-force minimum), ratings with ties, standings."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.groups import (
    EXACT_SETTLE_LIMIT,
    Payment,
    PlayedGame,
    SettleError,
    head_to_head,
    money,
    ratings,
    settle_up,
    standings,
)

NAMES = [f"P{number}" for number in range(20)]


@st.composite
def zero_sum_balances(draw: st.DrawFn, most: int = 8) -> dict[str, int]:
    amounts = draw(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=most - 1))
    return dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))


def settled(balances: Mapping[str, int], payments: tuple[Payment, ...]) -> dict[str, int]:
    after = dict(balances)
    for payment in payments:
        assert payment.cents > 0 and payment.payer != payment.payee
        after[payment.payer] += payment.cents
        after[payment.payee] -= payment.cents
    return after


def fewest_by_brute_force(balances: Mapping[str, int]) -> int:
    """n - (the most zero-sum parts the non-zero balances split into), by trying every partition."""
    values = [cents for cents in balances.values() if cents]

    def most_parts(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                if first + sum(others[i] for i in chosen) == 0:
                    remaining = tuple(v for i, v in enumerate(others) if i not in chosen)
                    best = max(best, 1 + most_parts(remaining))
        return best

    return len(values) - most_parts(tuple(values))


@given(zero_sum_balances())
def test_any_zero_sum_balances_settle_exactly_within_n_minus_1_payments(balances: dict[str, int]) -> None:
    payments = settle_up(balances)
    assert all(cents == 0 for cents in settled(balances, payments).values())
    non_zero = sum(1 for cents in balances.values() if cents)
    assert len(payments) <= max(non_zero - 1, 0)


@given(zero_sum_balances(most=7))
def test_the_settle_up_is_the_fewest_payments(balances: dict[str, int]) -> None:
    assert len(settle_up(balances)) == fewest_by_brute_force(balances)


@given(st.lists(st.sampled_from([-30, -20, -10, 10, 20, 30]), min_size=1, max_size=7))
def test_small_repeated_amounts_that_pair_off_settle_in_fewest_payments(amounts: list[int]) -> None:
    balances = dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))
    payments = settle_up(balances)
    assert all(cents == 0 for cents in settled(balances, payments).values())
    assert len(payments) == fewest_by_brute_force(balances)


@given(st.lists(st.integers(1, 500) | st.integers(-500, -1), min_size=EXACT_SETTLE_LIMIT + 1, max_size=19))
def test_many_players_still_settle_within_n_minus_1(amounts: list[int]) -> None:
    balances = dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))
    payments = settle_up(balances)
    assert all(cents == 0 for cents in settled(balances, payments).values())
    assert len(payments) <= max(sum(1 for cents in balances.values() if cents) - 1, 0)


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(SettleError, match="sum to -5 cents"):
        settle_up({"Ann": 5, "Bob": -10})


def test_nothing_owed_needs_no_payment() -> None:
    assert settle_up({}) == () and settle_up({"Ann": 0, "Bob": 0}) == ()


def game(number: int, totals: dict[str, int], finished: bool = True) -> PlayedGame:
    return PlayedGame(f"g{number}", tuple(totals), finished, totals, 11)


def test_two_players_tied_for_first_rate_equal_and_above_the_player_behind() -> None:
    history = ratings(["Ann", "Bob", "Cy"], [game(1, {"Ann": 5, "Bob": 5, "Cy": 40})])
    ann, bob, cy = (history[name][-1] for name in ("Ann", "Bob", "Cy"))
    assert ann.mu == bob.mu > cy.mu
    assert ann.mu > 25 > cy.mu  # the tied winners gained, the last player lost


def test_a_tie_for_last_rates_both_below_the_winner() -> None:
    history = ratings(["Ann", "Bob", "Cy"], [game(1, {"Ann": 0, "Bob": 30, "Cy": 30})])
    assert history["Ann"][-1].mu > history["Bob"][-1].mu == history["Cy"][-1].mu


def test_ratings_follow_the_finished_games_in_order_and_grow_surer() -> None:
    games = [game(1, {"Ann": 0, "Bob": 10}), game(2, {"Ann": 0, "Bob": 10}), game(3, {"Ann": 50, "Bob": 0}, False)]
    history = ratings(["Ann", "Bob", "Cy"], games)
    assert [entry.game for entry in history["Ann"]] == ["g1", "g2"]  # the unfinished game is left out
    assert history["Ann"][1].mu > history["Ann"][0].mu and history["Ann"][1].sigma < history["Ann"][0].sigma
    assert history["Cy"] == ()


def test_standings_and_head_to_head_ignore_unfinished_games() -> None:
    games = [game(1, {"Ann": 3, "Bob": 3}), game(2, {"Ann": 0, "Bob": 9}, finished=False)]
    ann, bob = standings(["Ann", "Bob"], games)
    assert (ann.games, ann.wins, bob.wins, ann.best, ann.worst) == (1, 1, 1, 3, 3)
    assert ann.points_per_round == 3 / 11
    assert head_to_head(["Ann", "Bob"], games)["Ann"]["Bob"].tied == 1


def test_money_sums_every_game_including_a_player_who_left_the_members() -> None:
    games = [PlayedGame("g", ("Ann", "Zed"), True, money={"Ann": -5, "Zed": 5})]
    assert money(["Ann"], games) == {"Ann": -5, "Zed": 5}
