"""Players who join late, leave or were misspelt (issue 27): who plays and deals each round, where a
late player sits, the start score, and the pot's ante from a late player."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import seating as seats
from engine.errors import EngineError
from engine.pot import PotError, PotSettings, net, record_round, reseat, start_pot
from engine.schedule import dealer_seat
from engine.seating import SeatingError, StartChoice, Table


def table(*names: str, first: str | None = None) -> Table:
    return seats.founders(list(names), first or names[0])


# ---------------------------------------------------------------- dealing


def test_without_changes_the_deal_passes_left_as_the_schedule_says() -> None:
    players = ("Ann", "Bob", "Cy", "Dee")
    for first in range(4):
        founders = table(*players, first=players[first])
        assert [seats.dealer(founders, n) for n in range(1, 14)] == [
            players[dealer_seat(first, n, 4)] for n in range(1, 14)
        ]


def test_a_late_player_sits_left_of_the_next_dealer_plays_first_and_deals_next() -> None:
    seated = seats.join(table("Ann", "Bob", "Cy"), "Eve", 4, start=30, max_players=6)
    assert seats.dealer(seated, 4) == "Ann"  # round 4 of three: Ann deals again
    assert seats.everyone(seated) == ("Ann", "Eve", "Bob", "Cy")
    assert seats.first_player(seated, 4) == "Eve"
    assert [seats.dealer(seated, n) for n in (5, 6, 7, 8)] == ["Eve", "Bob", "Cy", "Ann"]
    assert seats.seated(seated, 3) == ("Ann", "Bob", "Cy")
    assert seats.seated(seated, 4) == ("Ann", "Eve", "Bob", "Cy")


def test_a_player_who_leaves_no_longer_deals_and_the_order_skips_them() -> None:
    gone = seats.leave(table("Ann", "Bob", "Cy", "Dee"), "Cy", 3, min_players=2)
    assert [seats.dealer(gone, n) for n in (1, 2, 3, 4, 5, 6)] == ["Ann", "Bob", "Dee", "Ann", "Bob", "Dee"]
    assert seats.seated(gone, 2) == ("Ann", "Bob", "Cy", "Dee")
    assert seats.seated(gone, 3) == ("Ann", "Bob", "Dee")
    assert seats.left_players(gone, 3) == ("Cy",)
    assert seats.left_players(gone, 2) == ()


def test_when_the_next_dealer_leaves_the_player_on_their_left_deals() -> None:
    gone = seats.leave(table("Ann", "Bob", "Cy"), "Bob", 2, min_players=2)
    assert seats.dealer(gone, 2) == "Cy"
    assert seats.first_player(gone, 2) == "Ann"


def test_the_first_dealer_leaving_before_round_1_hands_the_deal_left() -> None:
    gone = seats.leave(table("Ann", "Bob", "Cy"), "Ann", 1, min_players=2)
    assert seats.dealer(gone, 1) == "Bob"


# ---------------------------------------------------------------- refusals


def test_a_name_already_at_the_table_whatever_its_case_cannot_join_or_be_taken() -> None:
    founders = table("Ann", "Bob")
    with pytest.raises(SeatingError, match='"BOB" cannot join: "Bob" is already at this table'):
        seats.join(founders, "BOB", 2, max_players=6)
    with pytest.raises(SeatingError, match='"Ann" cannot be renamed "bob": "Bob" is already at this table'):
        seats.rename(founders, "Ann", "bob")
    gone = seats.leave(table("Ann", "Bob", "Cy"), "Cy", 2, min_players=2)
    assert not seats.can_join(gone, "cy", 2, 6)  # a player who left keeps their name
    assert seats.can_rename(founders, "Ann", "ANN")  # a change of case alone is a rename


def test_the_preset_s_limits_hold() -> None:
    with pytest.raises(SeatingError, match='"Eve" cannot join: this game takes at most 3 players, and 3 play'):
        seats.join(table("Ann", "Bob", "Cy"), "Eve", 2, max_players=3)
    with pytest.raises(SeatingError, match='"Bob" cannot leave: this game needs at least 2 players'):
        seats.leave(table("Ann", "Bob"), "Bob", 2, min_players=2)
    gone = seats.leave(table("Ann", "Bob", "Cy", "Dee"), "Cy", 2, min_players=2)
    assert seats.can_join(gone, "Eve", 2, 4)  # the seat of a player who left is free again


def test_nobody_leaves_twice_and_a_stranger_cannot_leave_or_be_renamed() -> None:
    gone = seats.leave(table("Ann", "Bob", "Cy"), "Cy", 2, min_players=2)
    with pytest.raises(SeatingError, match='"Cy" cannot leave: they do not play round 2'):
        seats.leave(gone, "Cy", 2, min_players=2)
    with pytest.raises(SeatingError, match='"Zed" is not a player in this game'):
        seats.verify_leave(gone, "Zed", 2, 2)
    with pytest.raises(SeatingError, match='"Zed" is not a player in this game'):
        seats.rename(gone, "Zed", "Zoe")
    with pytest.raises(SeatingError, match='"Ann" is already called "Ann"'):
        seats.rename(gone, "Ann", "Ann")


def test_undoing_a_join_or_a_leave_gives_the_table_back() -> None:
    founders = table("Ann", "Bob", "Cy")
    assert seats.undo_join(seats.join(founders, "Eve", 3, max_players=6), "Eve") == founders
    assert seats.undo_leave(seats.leave(founders, "Bob", 3, min_players=2), "Bob") == founders
    with pytest.raises(SeatingError, match='"Bob" has not left this table'):
        seats.undo_leave(founders, "Bob")


def test_a_rename_carries_the_first_dealer_and_the_seat() -> None:
    renamed = seats.rename(seats.join(table("Bbo", "Ann"), "Eve", 2, start=9, max_players=6), "Bbo", "Bob")
    assert renamed.first_dealer == "Bob"
    assert seats.dealer(renamed, 1) == "Bob"
    assert renamed.seat("Eve") == seats.Seat("Eve", joined=2, start=9)
    assert Table.from_json(renamed.as_json()) == renamed


# ---------------------------------------------------------------- the start score


@pytest.mark.parametrize(
    ("choice", "expected"),
    [("highest", 41), ("average", 21), ("zero", 0), (17, 17), (-50, -50)],
)
def test_a_late_player_starts_from_the_table_s_choice(choice: object, expected: int) -> None:
    assert seats.start_points(choice, {"Ann": 0, "Bob": 41, "Cy": 22}) == expected


def test_the_average_rounds_half_up_and_an_empty_table_starts_at_zero() -> None:
    assert seats.start_points("average", {"Ann": 1, "Bob": 2}) == 2
    assert seats.start_points("average", {"Ann": 1, "Bob": 1, "Cy": 2}) == 1
    assert seats.start_points(StartChoice.HIGHEST.value, {}) == 0


@pytest.mark.parametrize("choice", ["lowest", True, 10**9, 2.5, None])
def test_a_start_that_makes_no_sense_is_refused_quoting_it(choice: object) -> None:
    with pytest.raises(SeatingError, match=str(choice)[:5]):
        seats.start_points(choice, {"Ann": 3})
    assert isinstance(SeatingError("x"), EngineError)


# ---------------------------------------------------------------- the pot


def test_a_late_player_pays_the_ante_and_a_leaver_s_money_stays() -> None:
    pot = record_round(start_pot(["Ann", "Bob", "Cy"]), 1, {"Bob": 1}, "Ann")
    assert pot.balance == 150 + 5 - 15
    joined = reseat(pot, ["Ann", "Eve", "Bob", "Cy"])
    assert joined.balance == pot.balance + 50
    assert joined.entries[-1].player == "Eve"
    gone = reseat(joined, ["Ann", "Eve", "Bob"])
    assert gone.left == ("Cy",)
    assert net(gone.entries, gone.everyone)["Cy"] == -50
    with pytest.raises(PotError, match='"Cy" left this game and cannot sit down again'):
        reseat(gone, ["Ann", "Eve", "Bob", "Cy"])
    assert reseat(start_pot(["Ann", "Bob"], PotSettings.simple(ante=0)), ["Ann", "Bob", "Eve"]).balance == 0


# ---------------------------------------------------------------- a property against a reference


def reference_dealers(founders: list[str], first: str, changes: dict[int, list[tuple[str, str]]], rounds: int) -> list:
    """The deal walked round the table by hand: a circle of the players seated now and the next
    dealer; a leaver who was to deal hands it to their left; a newcomer sits left of the next dealer."""
    circle = list(founders)
    next_dealer = first
    played = []
    for number in range(1, rounds + 1):
        for kind, name in changes.get(number, []):
            if kind == "leave":
                if name == next_dealer:
                    next_dealer = circle[(circle.index(name) + 1) % len(circle)]
                circle.remove(name)
            else:
                circle.insert(circle.index(next_dealer) + 1, name)
        played.append((next_dealer, tuple(circle)))
        next_dealer = circle[(circle.index(next_dealer) + 1) % len(circle)]
    return played


@st.composite
def games(draw: st.DrawFn) -> tuple[list[str], str, dict[int, list[tuple[str, str]]], int]:
    founders = [f"P{index}" for index in range(draw(st.integers(2, 6)))]
    rounds = draw(st.integers(1, 12))
    seated, fresh = list(founders), 0
    changes: dict[int, list[tuple[str, str]]] = {}
    for number in range(1, rounds + 1):
        for _ in range(draw(st.integers(0, 2))):
            if draw(st.booleans()) and len(seated) > 2:
                name = draw(st.sampled_from(seated))
                seated.remove(name)
                changes.setdefault(number, []).append(("leave", name))
            elif len(seated) < 8:
                fresh += 1
                seated.append(f"N{fresh}")
                changes.setdefault(number, []).append(("join", f"N{fresh}"))
    return founders, draw(st.sampled_from(founders)), changes, rounds


@settings(max_examples=300, deadline=None)
@given(games())
def test_who_plays_and_deals_each_round_matches_the_deal_walked_round_the_table(
    game: tuple[list[str], str, dict[int, list[tuple[str, str]]], int],
) -> None:
    founders, first, changes, rounds = game
    current = seats.founders(founders, first)
    for number in range(1, rounds + 1):
        for kind, name in changes.get(number, []):
            if kind == "leave":
                current = seats.leave(current, name, number, min_players=2)
            else:
                current = seats.join(current, name, number, max_players=8)
    expected = reference_dealers(founders, first, changes, rounds)
    assert [(seats.dealer(current, n), seats.seated(current, n)) for n in range(1, rounds + 1)] == expected


@settings(max_examples=100, deadline=None)
@given(games())
def test_the_dealers_in_one_walk_are_the_dealer_of_each_round(
    game: tuple[list[str], str, dict[int, list[tuple[str, str]]], int],
) -> None:
    founders, first, changes, rounds = game
    current = seats.founders(founders, first)
    for number in range(1, rounds + 1):
        for kind, name in changes.get(number, []):
            if kind == "leave":
                current = seats.leave(current, name, number, min_players=2)
            else:
                current = seats.join(current, name, number, max_players=8)
    assert seats.dealers(current, rounds) == tuple(seats.dealer(current, n) for n in range(1, rounds + 1))
