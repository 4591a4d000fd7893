"""The 3-13 pot (RULES.md section 6): scenarios paid out to the cent, and properties of the ledger."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.pot import (
    EntryKind,
    LedgerEntry,
    Pot,
    PotError,
    PotSettings,
    ante_entries,
    balance_after_each_round,
    can_finish_game,
    can_record_round,
    end_entries,
    finish_game,
    format_cents,
    ledger_json,
    net,
    pot_balance,
    record_round,
    round_entries,
    split_evenly,
    start_pot,
)

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
FOUR = FIVE[:4]


def moves(entries: tuple[LedgerEntry, ...]) -> list[tuple[str | None, str, int]]:
    return [(entry.player, entry.kind.value, entry.amount) for entry in entries]


def pot_with(players: list[str], balance: int) -> Pot:
    """A pot holding exactly `balance` cents after antes of balance // players (the rest added as pickups)."""
    ante, extra = divmod(balance, len(players))
    pot = start_pot(players, PotSettings(ante=ante, second_discard=1, knock=0))
    return record_round(pot, 1, {players[0]: extra}, players[0])


# --- settings -----------------------------------------------------------------------------------


def test_default_settings_follow_seed_003() -> None:
    settings = PotSettings()
    assert (settings.ante, settings.second_discard, settings.knock) == (50, 5, 15)
    assert (settings.booby_share, settings.booby_cap, settings.booby_min_players) == (4, 50, 5)
    assert not settings.is_simple


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ante": -5}, 'the ante must be a whole number of cents from 0, not "-5"'),
        ({"second_discard": 2.5}, 'the second-discard price must be a whole number of cents from 0, not "2.5"'),
        ({"booby_cap": True}, 'the booby cap must be a whole number of cents from 0, not "True"'),
        ({"booby_share": 0}, 'the booby share must be a whole divisor from 1, not "0"'),
        ({"booby_min_players": 0}, 'the booby prize needs a whole number of players from 1, not "0"'),
    ],
)
def test_bad_settings_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(PotError) as caught:
        PotSettings(**overrides)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, EngineError)


def test_simple_pot_is_ante_and_winner_takes_all() -> None:
    settings = PotSettings.simple(ante=100)
    pot = start_pot(FIVE, settings)
    pot = record_round(pot, 1, {"Bob": 3}, knocker="Ann")
    assert pot.balance == 500
    assert len(pot.entries) == 5  # no pickups charged, no knock paid
    pot = finish_game(pot, {"Ann": 5, "Bob": 0, "Cy": 80, "Dee": 9, "Eve": 12})
    assert moves(pot.entries[5:]) == [("Bob", "payout", -500)]  # no booby in a simple pot


# --- antes and rounds ---------------------------------------------------------------------------


def test_every_player_antes_at_the_start() -> None:
    pot = start_pot(FOUR)
    assert moves(pot.entries) == [(name, "ante", 50) for name in FOUR]
    assert all(entry.round is None for entry in pot.entries)
    assert pot.balance == 200


def test_pickups_are_paid_in_seat_order_before_the_knock() -> None:
    pot = record_round(start_pot(FOUR), 1, {"Dee": 1, "Bob": 2}, knocker="Cy")
    assert moves(pot.entries[4:]) == [("Bob", "second_discard", 10), ("Dee", "second_discard", 5), ("Cy", "knock", -15)]
    assert all(entry.round == 1 for entry in pot.entries[4:])
    assert pot.balance == 200


def test_short_pot_pays_the_knocker_what_is_there_and_never_goes_negative() -> None:
    pot = start_pot(["Ann", "Bob"], PotSettings(ante=10))
    pot = record_round(pot, 1, {}, knocker="Ann")
    assert pot.balance == 5
    pot = record_round(pot, 2, {}, knocker="Bob")
    assert moves(pot.entries[-1:]) == [("Bob", "knock", -5)]
    assert pot.balance == 0
    pot = record_round(pot, 3, {}, knocker="Ann")
    assert pot.balance == 0
    assert pot.entries[-1].round == 2  # an empty pot pays nothing, and no 0-cent entry is written
    pot = record_round(pot, 4, {"Bob": 1}, knocker="Ann")
    assert moves(pot.entries[-2:]) == [("Bob", "second_discard", 5), ("Ann", "knock", -5)]
    assert pot.balance == 0


def test_rounds_must_come_in_order() -> None:
    pot = start_pot(FOUR)
    assert not can_record_round(pot, 2, {}, "Ann")
    with pytest.raises(PotError, match='round "2" cannot be recorded: the next round is 1'):
        record_round(pot, 2, {}, "Ann")


@pytest.mark.parametrize(
    ("pickups", "knocker", "message"),
    [
        ({}, "Zed", 'the knocker "Zed" is not a player in this game'),
        ({"Zed": 1}, "Ann", '"Zed" took a second discard but is not a player in this game'),
        ({"Bob": -1}, "Ann", 'Bob cannot have taken the second discard "-1" times'),
        ({"Bob": "2"}, "Ann", 'Bob cannot have taken the second discard "2" times'),
    ],
)
def test_bad_round_input_is_refused(pickups: dict[str, int], knocker: str, message: str) -> None:
    pot = start_pot(FOUR)
    assert not can_record_round(pot, 1, pickups, knocker)
    with pytest.raises(PotError) as caught:
        record_round(pot, 1, pickups, knocker)
    assert str(caught.value) == message


def test_round_entries_need_a_round_number() -> None:
    with pytest.raises(PotError, match='"0" is not a round number'):
        round_entries(100, 0, {}, "Ann", FOUR)


@pytest.mark.parametrize(
    ("players", "message"),
    [(["Ann", "Ann"], '"Ann" sits at the table twice'), (["Ann", " "], '" " is not a player name'), ([], "at least")],
)
def test_bad_players_are_refused(players: list[str], message: str) -> None:
    with pytest.raises(PotError, match=message):
        start_pot(players)


# --- the end of the game ------------------------------------------------------------------------


def test_lowest_tie_splits_odd_cents_in_seat_order() -> None:
    pot = finish_game(pot_with(FOUR, 101), {"Ann": 30, "Bob": 12, "Cy": 50, "Dee": 12})
    assert moves(pot.entries)[-2:] == [("Bob", "payout", -51), ("Dee", "payout", -50)]
    assert pot.balance == 0


def test_three_way_tie_gives_leftover_cents_one_each() -> None:
    assert split_evenly(302, ["Bob", "Cy", "Dee"]) == {"Bob": 101, "Cy": 101, "Dee": 100}
    assert split_evenly(2, ["Bob", "Cy", "Dee"]) == {"Bob": 1, "Cy": 1, "Dee": 0}


def test_a_split_smaller_than_the_tie_pays_only_those_who_get_a_cent() -> None:
    entries = end_entries(2, {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 5}, FOUR)
    assert moves(entries) == [("Ann", "payout", -1), ("Bob", "payout", -1)]


def test_booby_prize_only_from_five_players() -> None:
    four = finish_game(pot_with(FOUR, 200), {"Ann": 10, "Bob": 99, "Cy": 50, "Dee": 20})
    assert moves(four.entries)[-1:] == [("Ann", "payout", -200)]
    five = finish_game(pot_with(FIVE, 200), {"Ann": 10, "Bob": 99, "Cy": 50, "Dee": 20, "Eve": 30})
    assert moves(five.entries)[-2:] == [("Bob", "booby", -50), ("Ann", "payout", -150)]


def test_booby_minimum_is_configurable() -> None:
    settings = PotSettings(booby_min_players=3)
    entries = end_entries(100, {"Ann": 1, "Bob": 2, "Cy": 3}, ["Ann", "Bob", "Cy"], settings)
    assert moves(entries) == [("Cy", "booby", -25), ("Ann", "payout", -75)]


def test_booby_prize_is_a_quarter_rounded_down_and_at_most_50() -> None:
    totals = {"Ann": 10, "Bob": 99, "Cy": 50, "Dee": 20, "Eve": 30}
    assert moves(end_entries(119, totals, FIVE))[0] == ("Bob", "booby", -29)
    assert moves(end_entries(199, totals, FIVE))[0] == ("Bob", "booby", -49)
    assert moves(end_entries(1000, totals, FIVE))[0] == ("Bob", "booby", -50)


def test_booby_tie_splits_the_prize() -> None:
    totals = {"Ann": 10, "Bob": 99, "Cy": 50, "Dee": 99, "Eve": 99}
    entries = end_entries(140, totals, FIVE)  # a quarter of 140 is 35: 12, 12, 11
    assert moves(entries) == [
        ("Bob", "booby", -12),
        ("Dee", "booby", -12),
        ("Eve", "booby", -11),
        ("Ann", "payout", -105),
    ]


def test_all_equal_totals_means_no_booby_and_everyone_splits() -> None:
    entries = end_entries(251, dict.fromkeys(FIVE, 42), FIVE)
    assert moves(entries) == [("Ann", "payout", -51)] + [(name, "payout", -50) for name in FIVE[1:]]


def test_empty_pot_pays_nothing_at_the_end() -> None:
    assert end_entries(0, {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4, "Eve": 5}, FIVE) == ()


@pytest.mark.parametrize(
    ("totals", "message"),
    [
        ({"Ann": 1, "Bob": 2, "Cy": 3}, "Dee has no total"),
        ({"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4, "Zed": 0}, '"Zed" has a total but is not a player in this game'),
        ({"Ann": 1, "Bob": 2, "Cy": 3, "Dee": "4"}, 'Dee\'s total must be a whole number, not "4"'),
    ],
)
def test_bad_totals_are_refused(totals: dict[str, int], message: str) -> None:
    pot = start_pot(FOUR)
    assert not can_finish_game(pot, totals)
    with pytest.raises(PotError) as caught:
        finish_game(pot, totals)
    assert str(caught.value) == message


def test_nothing_after_the_pot_is_paid_out() -> None:
    totals = dict.fromkeys(FOUR, 0)
    pot = finish_game(start_pot(FOUR), totals)
    assert not can_finish_game(pot, totals)
    assert not can_record_round(pot, 1, {}, "Ann")
    with pytest.raises(PotError, match="already paid out"):
        finish_game(pot, totals)
    with pytest.raises(PotError, match="the game is over"):
        record_round(pot, 1, {}, "Ann")


# --- a whole game -------------------------------------------------------------------------------

ROUNDS: list[tuple[dict[str, int], str]] = [
    ({"Bob": 1}, "Ann"),
    ({"Cy": 2}, "Bob"),
    ({}, "Ann"),
    ({"Dee": 1, "Eve": 1}, "Cy"),
    ({"Bob": 1}, "Dee"),
    ({"Bob": 1}, "Ann"),
    ({}, "Eve"),
    ({"Ann": 1, "Cy": 1}, "Bob"),
    ({}, "Ann"),
    ({"Eve": 1}, "Dee"),
    ({"Eve": 1}, "Cy"),
]


def test_full_five_player_game_is_paid_out_to_the_cent() -> None:
    pot = start_pot(FIVE)
    for number, (pickups, knocker) in enumerate(ROUNDS, start=1):
        pot = record_round(pot, number, pickups, knocker)
    # 250 in antes + 11 pickups of 5 - 11 knocks of 15 = 140.
    assert pot.balance == 140
    assert balance_after_each_round(pot.entries) == {
        1: 240, 2: 235, 3: 220, 4: 215, 5: 205, 6: 195, 7: 180, 8: 175, 9: 160, 10: 150, 11: 140,
    }  # fmt: skip
    pot = finish_game(pot, {"Ann": 41, "Bob": 120, "Cy": 75, "Dee": 41, "Eve": 200})
    # Eve (highest) gets 140 // 4 = 35; Ann and Dee split 105: Ann sits first and gets the odd cent.
    assert moves(pot.entries[-3:]) == [("Eve", "booby", -35), ("Ann", "payout", -53), ("Dee", "payout", -52)]
    assert pot.balance == 0
    # Ann: paid 50 + 5, received 4 knocks (60) + 53; Bob: paid 50 + 15, received 30; ...
    assert net(pot.entries, FIVE) == {"Ann": 58, "Bob": -35, "Cy": -35, "Dee": 27, "Eve": -15}
    assert [format_cents(amount) for amount in net(pot.entries, FIVE).values()] == [
        "$0.58", "-$0.35", "-$0.35", "$0.27", "-$0.15",
    ]  # fmt: skip


def test_ledger_json_matches_the_web_api() -> None:
    pot = record_round(start_pot(["Ann", "Bob"]), 1, {"Bob": 1}, knocker="Ann")
    assert (
        ledger_json(pot.entries, pot.players)
        == pot.as_json()
        == {
            "balance": 90,
            "ledger": [
                {"round": None, "player": "Ann", "kind": "ante", "amount": 50},
                {"round": None, "player": "Bob", "kind": "ante", "amount": 50},
                {"round": 1, "player": "Bob", "kind": "second_discard", "amount": 5},
                {"round": 1, "player": "Ann", "kind": "knock", "amount": -15},
            ],
            "net": {"Ann": -35, "Bob": -55},
        }
    )


def test_net_ignores_table_entries_without_a_player() -> None:
    entries = (*ante_entries(["Ann"]), LedgerEntry(None, None, EntryKind.PAYOUT, -10))
    assert net(entries, ["Ann"]) == {"Ann": -50}
    assert pot_balance(entries) == 40


def test_format_cents() -> None:
    assert [format_cents(amount) for amount in (0, 5, -5, 100, -1234, 270)] == [
        "$0.00", "$0.05", "-$0.05", "$1.00", "-$12.34", "$2.70",
    ]  # fmt: skip


# --- properties ---------------------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@st.composite
def games(draw: st.DrawFn) -> tuple[Pot, list[tuple[dict[str, int], str]], dict[str, int]]:
    players = NAMES[: draw(st.integers(2, 9))]
    settings = draw(
        st.one_of(
            st.builds(PotSettings.simple, ante=st.integers(0, 200)),
            st.builds(
                PotSettings,
                ante=st.integers(0, 100),
                second_discard=st.integers(0, 20),
                knock=st.integers(0, 60),
                booby_share=st.integers(1, 6),
                booby_cap=st.integers(0, 100),
                booby_min_players=st.integers(1, 9),
            ),
        )
    )
    pickups = st.dictionaries(st.sampled_from(players), st.integers(0, 3), max_size=len(players))
    rounds = draw(st.lists(st.tuples(pickups, st.sampled_from(players)), min_size=0, max_size=23))
    totals = {name: draw(st.integers(0, 400)) for name in players}
    return start_pot(players, settings), rounds, totals


def play_out(pot: Pot, rounds: list[tuple[dict[str, int], str]], totals: dict[str, int]) -> list[Pot]:
    stages = [pot]
    for number, (pickups, knocker) in enumerate(rounds, start=1):
        stages.append(record_round(stages[-1], number, pickups, knocker))
    stages.append(finish_game(stages[-1], totals))
    return stages


@given(games())
def test_the_pot_never_goes_negative(game: tuple[Pot, list[tuple[dict[str, int], str]], dict[str, int]]) -> None:
    final = play_out(*game)[-1]
    running = 0
    for entry in final.entries:
        running += entry.amount
        assert running >= 0
        assert entry.amount != 0
    assert final.balance == 0


@given(games())
def test_money_is_conserved(game: tuple[Pot, list[tuple[dict[str, int], str]], dict[str, int]]) -> None:
    for stage in play_out(*game):
        assert sum(net(stage.entries, stage.players).values()) + stage.balance == 0


@given(games())
def test_the_lowest_total_gets_paid_whenever_the_pot_holds_enough(
    game: tuple[Pot, list[tuple[dict[str, int], str]], dict[str, int]],
) -> None:
    stages = play_out(*game)
    before, final = stages[-2], stages[-1]
    lowest = min(game[2].values())
    winners = [name for name in final.players if game[2][name] == lowest]
    payouts = [entry for entry in final.entries if entry.kind is EntryKind.PAYOUT]
    assert {entry.player for entry in payouts} <= set(winners)
    assert sum(-entry.amount for entry in payouts) <= before.balance
    booby = sum(-entry.amount for entry in final.entries if entry.kind is EntryKind.BOOBY)
    if before.balance - booby >= len(winners):
        assert {entry.player for entry in payouts} == set(winners)
