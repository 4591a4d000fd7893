"""Every error a page shows is a sentence: a capital letter first, a full stop last (issue 13)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import every_game

ROOT = Path(__file__).resolve().parents[2]
ALERT = re.compile(r'<p class="alert" role="alert"[^>]*>(.*?)</p>', re.S)


def alert_of(response: Any) -> str:
    found = ALERT.search(response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)[:500]
    return html.unescape(found.group(1)).strip()


@pytest.mark.parametrize(
    ("variant", "house_rules", "says"),
    [
        ("3-13", {"opt_double_rounds": ["11", "12"]}, "Doubled rounds: round 12 is beyond the game's 11 rounds."),
        (
            "contract-rummy",
            {"opt_ace_points": "x"},
            'Points for an ace: a whole number from 0 to 100, not "x".',
        ),
        ("contract-rummy", {"opt_deal_sizes": "10,12"}, "Cards dealt: one number for every deal or 7 numbers"),
    ],
)
def test_a_bad_house_rule_on_the_new_game_page_is_one_sentence_with_a_capital_and_a_full_stop(
    client: FlaskClient, post_form: Callable[..., Any], variant: str, house_rules: dict[str, Any], says: str
) -> None:
    body = {"variant": variant, "players": "Ann\nBob\nCy", **house_rules}
    refused = post_form(f"/games/new?variant={variant}", body)
    assert refused.status_code == 400
    sentence = alert_of(refused)
    assert sentence.startswith(says)
    assert sentence[0].isupper() and sentence.endswith(".") and not sentence.endswith(".."), sentence
    assert every_game(client) == []


def test_a_services_lowercase_refusal_reaches_the_page_as_a_sentence(
    client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    """The services write their refusals for the API ("the group needs a name"); a page capitalises them."""
    refused = post_form("/groups/new", {"name": " ", "players": "Ann\nBob"})
    assert refused.status_code == 400
    sentence = alert_of(refused)
    assert sentence[0].isupper() and sentence.endswith("."), sentence


def test_every_error_a_template_shows_goes_through_the_sentence_filter() -> None:
    unshaped = []
    for template in (ROOT / "templates").rglob("*.html"):
        for line in template.read_text(encoding="utf-8").splitlines():
            if 'role="alert"' in line or 'class="field-error"' in line:
                unshaped += [
                    f"{template.name}: {shown}"
                    for shown in re.findall(r"\{\{[^}]*\}\}", line)
                    if "sentence" not in shown
                ]
    assert unshaped == []


OPTION_STYLE = re.compile(r"^[A-Z][^:]*: [a-z]")  # "Title: a whole number …", as the engine's option errors


def test_option_errors_of_the_api_read_title_colon_lower_case(client: FlaskClient) -> None:
    for body in (
        {"variant": "3-13", "players": ["Ann", "Bob", "Cy"], "options": {"ante": -5}},
        {"variant": "pay-me", "players": ["Ann", "Bob", "Cy"], "options": {"pot": "maybe"}},
        {"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "options": {"chips": 0}},
        {"variant": "3-13", "players": ["Ann", "Bob", "Cy"], "options": {"double_rounds": [12]}},
    ):
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 400
        assert OPTION_STYLE.match(refused.get_json()["error"]), refused.get_json()


@pytest.mark.parametrize(
    ("url", "data", "says"),
    [
        (
            "/games/new?variant=3-13",
            {"players": "Ann\nBob\nCy", "opt_pot": "y", "opt_ante": "-5"},
            "Ante, each player (cents): a whole number of cents from 0 to 100000.",
        ),
        (
            "/games/new/chips",
            {"players": "Ann\nBob\nCy", "first_dealer": "random", "chips": "0"},
            "Starting chips, each player: a whole number of chips from 1 to 10000.",
        ),
        (
            "/games/new/chips",
            {"players": "Ann\nBob\nCy", "first_dealer": "random", "chips": ""},
            "Starting chips, each player: enter a whole number of chips from 1 to 10000.",
        ),
    ],
)
def test_option_errors_of_the_forms_read_title_colon_lower_case(
    post_form: Callable[..., Any], url: str, data: dict[str, str], says: str
) -> None:
    refused = post_form(url, data)
    assert refused.status_code == 400
    assert alert_of(refused) == says


def test_the_rules_page_says_a_bad_stack_as_the_api_does(client: FlaskClient) -> None:
    page = client.get("/rules/play-or-pay?chips=0")
    assert page.status_code == 400
    assert alert_of(page) == 'Starting chips: a whole number of chips from 1 to 10000, not "0".'
    api = client.post(
        "/api/games", json={"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "options": {"chips": 0}}
    )
    assert api.get_json()["error"] == 'Starting chips: a whole number of chips from 1 to 10000, not "0"'
