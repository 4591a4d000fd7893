"""Issue 25's examples on the command line, word for word (the API and the pages: tests/app/
test_issue25_examples.py; D18's example: test_decisions_d18_d27.py)."""

from __future__ import annotations

import pytest

from tests.engine.test_cli import fails, ok

CR = "contract-rummy"
CLUBS = "9C 10C JC QC"


@pytest.mark.parametrize("run", ["JK 2H 3H 4H", "JH QH KH JK", "JK KH QH JH", "JK=AH 2H 3H 4H"])
def test_the_joker_swap_with_an_ace(run: str) -> None:
    args = ("layoff", "--variant", CR, "--round", "3", "--meld", run, "--meld", CLUBS, "--onto", "1", "AH")
    swapped = ok(args[0], "--set", "joker_swap=on", *args[1:])
    assert (swapped["valid"], swapped["code"]) == (True, None)
    assert swapped["swap"]["card"] == "AH" and swapped["swap"]["joker"] == "JK"
    assert sorted(swapped["table"][0]) == sorted(["AH", "2H", "3H", "4H"] if "2H" in run else ["JH", "QH", "KH", "AH"])
    refused = ok(*args)
    assert (refused["valid"], refused["code"], refused["swap"]) == (False, "replaces_wild", None)
    assert "may not replace a wild card" in refused["reason"] and "gap" not in refused["reason"]


def test_a_second_ace_on_a_run_that_ends_in_an_ace() -> None:
    answer = ok("layoff", "--variant", CR, "--round", "3", "--meld", "10H JH QH KH AH", "--onto", "1", "AH")
    assert answer["reason"] == "AH cannot be laid off on 10H JH QH KH AH: that run already ends in an ace."


def test_the_loose_declarer_hand_keeps_the_joker_open_for_bob_then_cy() -> None:
    declarer = ("--variant", "pay-me-family", "--round", "3")
    bob = ok("best", *declarer, "--declarer-hand", "JK 8D 9D KS KC KH", "6D QS QC QH 4C")
    assert bob["penalty"] == 5
    assert ["6D", "JK=7D", "8D", "9D"] in bob["declarer"]  # Bob's 6♦ fixed the joker as 7♦
    melds = [arg for meld in bob["declarer"] for arg in ("--declarer", " ".join(meld))]
    cy = ok("best", *declarer, *melds, "JD 7S 7C 4D 4H")
    assert cy["penalty"] == 30  # J♦ no longer fits


def test_contract_left_checks_going_out_with_no_discard() -> None:
    melds = ("AH 2H 3H 4H", "5S 6S 7S 8S", "9C 10C JC QC")
    assert ok("contract", "--variant", CR, "--round", "7", "--left", "0", *melds)["valid"] is True
    assert ok("contract", "--variant", CR, "--round", "7", "--left", "1", *melds)["valid"] is False
    assert fails("contract", "--variant", CR, "--round", "7", "--left", "-1", *melds) == (
        "error: --left takes a number of cards from 0, not -1"
    )
