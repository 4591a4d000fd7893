"""Play or Pay players who join or leave between hands (issue 27): where they sit, who deals, the
chips they bring and keep, refusals during a hand, and results that still sum to zero."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.play_or_pay import (
    Event,
    JoinEvent,
    LeaveEvent,
    PlayEvent,
    SeatError,
    SettleEvent,
    apply_event,
    can_join,
    can_leave,
    join,
    leave,
    replay,
    start_game,
    undo_last_event,
)
from engine.play_or_pay.errors import EventError

PLAYERS = ["Ann", "Bob", "Cy"]


def test_a_late_player_sits_left_of_the_dealer_leads_and_buys_the_starting_stack() -> None:
    game = join(start_game(PLAYERS, 15, first_dealer=0), "Eve")
    assert game.players == ("Ann", "Eve", "Bob", "Cy")
    assert game.players[game.hand.dealer] == "Ann"
    assert game.hand.to_act == "Eve"
    assert game.balances == {"Ann": 15, "Eve": 15, "Bob": 15, "Cy": 15}
    assert game.results == dict.fromkeys(("Ann", "Eve", "Bob", "Cy"), 0)
    assert game.hand.cards_left == (13, 13, 13, 13)  # four players share the deck


def test_a_player_who_leaves_keeps_chips_and_result_and_the_deal_passes_on() -> None:
    game = apply_event(
        start_game([*PLAYERS, "Dee"], 10), SettleEvent("Bob", (("Ann", 2), ("Bob", 0), ("Cy", 1), ("Dee", 1)))
    )
    assert game.players[game.hand.dealer] == "Bob"
    game = leave(game, "Bob")
    assert game.players == ("Ann", "Cy", "Dee")
    assert game.players[game.hand.dealer] == "Cy"  # Bob was to deal: the player on his left deals
    assert game.left == ("Bob",)
    assert game.results["Bob"] > 0
    assert sum(game.results.values()) == 0
    assert game.balances["Bob"] == game.settled_balances["Bob"]


def test_players_change_only_between_hands() -> None:
    midway = apply_event(start_game([*PLAYERS, "Dee"]), PlayEvent("Bob", Card.parse("7H")))
    with pytest.raises(SeatError, match='"Eve" cannot join now: hand 1 is being played'):
        join(midway, "Eve")
    with pytest.raises(SeatError, match='"Dee" cannot leave now: hand 1 is being played'):
        leave(midway, "Dee")
    assert not can_join(midway, "Eve")
    assert not can_leave(midway, "Dee")


def test_names_stay_unique_and_the_table_keeps_its_limits() -> None:
    game = leave(start_game([*PLAYERS, "Dee"]), "Dee")
    with pytest.raises(SeatError, match='"dee" cannot join: "Dee" is already at this table'):
        join(game, "dee")
    with pytest.raises(SeatError, match="needs at least 3 players"):
        leave(game, "Cy")
    full = start_game([f"P{seat}" for seat in range(10)])
    with pytest.raises(SeatError, match="at most 10 players"):
        join(full, "Eve")
    with pytest.raises(EventError, match='"Zed" is not a player at this table'):
        Event.parse({"type": "leave", "player": "Zed"}, PLAYERS)


def test_a_join_or_a_leave_replays_and_undoes_like_any_event() -> None:
    events = [{"type": "join", "player": "Eve"}, {"type": "leave", "player": "Bob"}]
    game = replay(PLAYERS, 20, 1, events)
    assert game.events == (JoinEvent("Eve"), LeaveEvent("Bob"))
    assert game.players == ("Ann", "Eve", "Cy")
    assert undo_last_event(game).players == ("Ann", "Bob", "Eve", "Cy")
    assert undo_last_event(undo_last_event(game)) == start_game(PLAYERS, 20, 1)


@st.composite
def nights(draw: st.DrawFn) -> list[dict[str, object]]:
    seated, fresh = list(PLAYERS), 0
    events: list[dict[str, object]] = []
    for _ in range(draw(st.integers(1, 12))):
        what = draw(st.sampled_from(["settle", "join", "leave"]))
        if what == "join" and len(seated) < 10:
            fresh += 1
            seated.insert(0, f"N{fresh}")  # the engine decides the seat; the name is what matters here
            events.append({"type": "join", "player": f"N{fresh}"})
        elif what == "leave" and len(seated) > 3:
            name = draw(st.sampled_from(seated))
            seated.remove(name)
            events.append({"type": "leave", "player": name})
        else:
            winner = draw(st.sampled_from(seated))
            left = {name: 0 if name == winner else draw(st.integers(1, 4)) for name in seated}
            events.append({"type": "settle", "winner": winner, "cards_left": left})
    return events


@settings(max_examples=150, deadline=None)
@given(nights())
def test_chips_only_move_between_players_whoever_comes_and_goes(events: list[dict[str, object]]) -> None:
    game = replay(PLAYERS, 20, 0, events)
    assert sum(game.results.values()) == 0
    assert set(game.results) == set(game.players) | set(game.left)
    assert sum(game.bought.values()) == 20 * (len(game.players) + len(game.left))
    assert game.players[game.hand.dealer] in game.players
