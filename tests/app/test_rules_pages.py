"""The rules pages (issue 5): one per preset, and a game's own rules with its options applied."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.rules import DECISIONS, PRESETS, RUMMY_PRESETS, rule_set


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def test_the_index_links_every_preset(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    for preset in (*RUMMY_PRESETS, "play-or-pay"):
        assert f'href="/rules/{preset}"' in page
        assert PRESETS[preset].name in page
    assert page.count('href="/rules/') == len(PRESETS)


ROUND_PRESETS = [variant for variant in RUMMY_PRESETS if not PRESETS[variant].has_contracts]  # contracts: below


@pytest.mark.parametrize("variant", ROUND_PRESETS)
def test_each_preset_page_covers_its_rules(client: FlaskClient, variant: str) -> None:
    response = client.get(f"/rules/{variant}")
    assert response.status_code == 200
    words = plain(response)
    preset = PRESETS[variant]
    for fact in (preset.summary, preset.wild_text, preset.going_out_text, preset.after_going_out_text):
        assert fact in words
    assert "Rounds" in words and "Penalties in round 1" in words
    for decision in preset.decisions:
        assert f'id="{decision}"' in response.get_data(as_text=True)
        assert DECISIONS[decision].title in words
    for spec in rule_set(variant).option_specs():  # the preset's own options only
        assert spec.title in words
    page = response.get_data(as_text=True)
    table = page[page.index('id="rounds-h"') : page.index('id="penalty-h"')]
    rows = re.findall(r'<tr><th scope="row">(\d+)</th><td>(\d+)</td>', table)
    assert rows == [(str(n), str(n + 2)) for n in range(1, 12)]


def test_the_pay_me_page_states_the_full_cycle_discrepancy(client: FlaskClient) -> None:
    words = plain(client.get("/rules/pay-me"))
    assert "The original Pay Me rules say 22 rounds" in words and "23 deals" in words
    assert "D1 — A wild card is always wild" in words
    assert "House rule: Wild in its own place is natural , here off." in words  # the title in <strong>


def test_options_in_the_query_are_applied(client: FlaskClient) -> None:
    response = client.get("/rules/pay-me?full_cycle=true&round=12")
    words = plain(response)
    assert "House rules changed from the preset: Full cycle on." in words
    assert "Penalties in round 12" in words
    assert "Aces" in words
    page = response.get_data(as_text=True)
    assert '<tr><th scope="row">23</th>' in page
    assert '<input type="hidden" name="full_cycle" value="true">' in page


def test_penalty_tables_follow_the_round(client: FlaskClient) -> None:
    words = plain(client.get("/rules/3-13?round=10"))
    assert "Penalties in round 10" in words and "×2" in words
    assert "A 30" in words  # an ace scores 15, doubled
    family = plain(client.get("/rules/pay-me-family?round=3"))
    assert "5 (wild) 5" in family  # D4: the round's rank scores by its own tier
    assert "D3 — Jokers in Pay Me (family rules)" in family and "D4 —" in family


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/rules/nope", 404, "There is no preset"),
        ("/rules/play-or-pay?chips=0", 400, "Starting chips: a whole number of chips from 1 to 10000"),
        ("/rules/pay-me?ace=sideways", 400, "Ace in runs: low, high or both, not &#34;sideways&#34;"),
        ("/rules/pay-me?round=12", 400, "Round 12 does not exist"),
        ("/rules/pay-me?round=x", 400, "Round must be a whole number"),
        ("/games/nope/rules", 404, "There is no game"),
    ],
)
def test_rules_page_errors(client: FlaskClient, url: str, status: int, message: str) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)


def test_a_game_links_its_own_rules_with_its_options(client: FlaskClient) -> None:
    game = client.post(
        "/api/games",
        json={"variant": "pay-me", "players": ["Ann", "Bob", "Cy"], "options": {"full_cycle": True, "lay_offs": False}},
    ).get_json()
    response = client.get(f"/games/{game['id']}/rules")
    assert response.status_code == 200
    words = plain(response)
    assert "The rules of this game, with its house rules applied." in words
    assert "Full cycle on; Lay-offs off" in words
    assert "D5 —" not in words and "D6 —" not in words  # no lay-offs, so no lay-off decisions
    assert "D2 — Full Cycle length" in words
    assert 'class="dp-here"><th scope="row">3–4</th>' in response.get_data(as_text=True)
    assert '<tr><th scope="row">23</th>' in response.get_data(as_text=True)
    assert client.get(f"/games/{game['id']}/rules?round=23").status_code == 200
