"""Decisions D17's last sentence and D18-D27 on the rules pages (issue 25): each stated in words
under a heading that alone carries its code, on the pages of the presets it applies to; and the
high-card draw's instructions on the new-game forms (D21)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.rules import DECISIONS


def page_of(response: Any) -> str:
    assert response.status_code == 200
    body: str = response.get_data(as_text=True)
    return body


def plain(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def decision_article(page: str, code: str) -> str:
    """The words of the decision's article on the page, its heading left out."""
    found = re.search(rf'<article class="dp-decision" id="{code}">(.*?)</article>', page, flags=re.S)
    assert found, code
    return plain(re.sub(r"<h3>.*?</h3>", "", found.group(1), flags=re.S))


PAGES = {
    "D18": ["3-13"],
    "D19": ["pay-me", "pay-me-family", "3-13", "three-thirteen?lay_offs=true"],
    "D20": ["pay-me", "pay-me-family"],
    "D21": ["pay-me", "pay-me-family", "three-thirteen", "3-13", "contract-rummy"],
    "D22": ["contract-rummy"],
    "D23": ["contract-rummy"],
    "D24": ["contract-rummy"],
    "D25": ["contract-rummy"],
    "D26": ["contract-rummy"],
    "D27": ["contract-rummy"],
}
# A phrase of each decision, as the page must say it.
SAYS = {
    "D18": "no meld, laid down or made longer by lay-offs, holds more than 13 cards",
    "D19": "rules out only the readings that no longer fit the cards laid so far",
    "D20": "need not draw or discard on that turn",
    "D21": "pick their seats in the order of their cards, highest first, and the highest card deals first",
    "D22": "15 points held becomes −35, and nothing held becomes −50",
    "D23": "An ace takes a joker that stands for an ace at either end of a run",
    "D24": "Two runs of the same suit count as two runs, even when they touch",
    "D25": "a 2 left in hand scores its face value, 2",
    "D26": "Cards dealt: 6 to 15 a deal",
    "D27": "its buy counter counts the buys the table reports",
}


@pytest.mark.parametrize(("code", "url"), [(code, url) for code, urls in PAGES.items() for url in urls])
def test_each_decision_is_said_in_words_under_its_heading(client: FlaskClient, code: str, url: str) -> None:
    page = page_of(client.get(f"/rules/{url}"))
    decision = DECISIONS[code]
    assert f"<h3>{code} — {html.escape(decision.title, quote=False)}</h3>" in page
    words = decision_article(page, code)
    assert SAYS[code] in words
    assert not re.search(r"\bD\d+\b", words)


@pytest.mark.parametrize(
    ("code", "url"),
    [("D18", "pay-me"), ("D18", "contract-rummy"), ("D20", "3-13"), ("D22", "pay-me"), ("D19", "three-thirteen")],
)
def test_a_decision_is_not_shown_where_it_does_not_apply(client: FlaskClient, code: str, url: str) -> None:
    assert f'id="{code}"' not in page_of(client.get(f"/rules/{url}"))


@pytest.mark.parametrize("url", ["pay-me", "pay-me-family", "three-thirteen", "3-13", "contract-rummy"])
def test_decision_codes_appear_only_in_headings(client: FlaskClient, url: str) -> None:
    page = page_of(client.get(f"/rules/{url}"))
    words = plain(re.sub(r"<h3>.*?</h3>", "", page, flags=re.S))
    assert not re.search(r"\bD\d+\b", words)


def test_play_or_pay_says_why_a_game_ends_only_between_hands(client: FlaskClient) -> None:
    words = plain(page_of(client.get("/rules/play-or-pay")))
    assert "The game ends when the table says so, and only between hands" in words
    assert "until it is settled the chips paid during it lie in the pot and belong to no one" in words
    assert not re.search(r"\bD\d+\b", plain(re.sub(r"<h3>.*?</h3>", "", page_of(client.get("/rules/play-or-pay")))))


@pytest.mark.parametrize("url", ["/games/new?variant=pay-me", "/games/new/chips"])
def test_the_high_card_draw_says_how_seats_are_taken(client: FlaskClient, url: str) -> None:
    words = plain(page_of(client.get(url)))
    assert "Players then pick their seats in the order of their cards, highest first" in words
    assert "the highest card deals first" in words
