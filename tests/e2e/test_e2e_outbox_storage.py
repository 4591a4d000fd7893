"""The outbox's storage across an update (issue 24): entries a phone kept in localStorage under the key
names and in the shape the earlier code wrote them ("ctc:outbox:<game id>", one after another, the second
typed against the version the first makes) are read and sent by the shared outbox (js/api-call.js), in
order and once each. Headless Chromium at 360×740 with touch; uses /usr/bin/chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy"]
RESEND_WAIT_MS = 20000


def _old_entry(
    game: dict[str, Any], number: int, went_out: str, scores: dict[str, str], version: int, after: bool
) -> dict[str, Any]:
    """A round entry as js/round-entry.js wrote it before the outbox was shared."""
    url = f"/api/games/{game['id']}/rounds"
    return {
        "key": f"old-entry-{number}",
        "round": number,
        "method": "POST",
        "url": url,
        "made": 1_700_000_000_000 + number,
        "edit": game["edit_key"],
        "body": {"went_out": went_out, "scores": scores, "version": version},
        "values": {},
        "why": "no connection",
        "multiplier": 1,
        "players": PLAYERS,
        "verb": "went out",
        "correct": f"{url}/{number}",
        "after": after,
    }


def test_round_entries_kept_by_the_earlier_outbox_are_sent_after_the_update(phone: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    page, errors = phone
    body = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    version = state["version"]
    kept = [
        _old_entry(game, 1, "Ann", {"Ann": "0", "Bob": "5", "Cy": "6"}, version, after=False),
        _old_entry(game, 2, "Bob", {"Ann": "7", "Bob": "0", "Cy": "8"}, version, after=True),
    ]
    # The storage is filled before any script of the page runs, as on a phone that kept them.
    page.add_init_script(
        f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
        f" localStorage.setItem('ctc:outbox:{game['id']}', {json.dumps(json.dumps(kept))}); }}"
    )
    page.goto(f"{base_url}/games/{game['id']}/join")
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#round-h")).to_contain_text("Round 3", timeout=RESEND_WAIT_MS)
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    assert [(played["went_out"], played["scores"]["Cy"]) for played in state["rounds"]] == [("Ann", 6), ("Bob", 8)]
    assert page.evaluate(f"localStorage.getItem('ctc:outbox:{game['id']}')") is None
    assert errors == []
