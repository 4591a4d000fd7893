"""End to end in headless Chromium on a 360×740 phone screen: a three-round game.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import ROOT, create_app

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing, and CI needs the browser tests to run")
    pytest.skip(f"{CHROMIUM} is missing")


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    app = create_app(
        {"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e2e.sqlite3'}"},
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def browser() -> Iterator[object]:
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, .grid th a, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)
SMALL_TAP_TARGETS = """
(selector) => Array.from(document.querySelectorAll(selector))
  .filter(el => el.offsetParent !== null)
  .map(el => [el.textContent.trim() || el.name || el.id, el.getBoundingClientRect().height])
  .filter(([, height]) => height < 44)
"""


def _check_phone_layout(page: object) -> None:
    page.wait_for_load_state("load")  # type: ignore[attr-defined]  # stylesheets applied before measuring
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # type: ignore[attr-defined]
    assert page.evaluate(SMALL_TAP_TARGETS, TAP_TARGETS) == []  # type: ignore[attr-defined]


def test_three_round_game_on_a_phone(browser: object, base_url: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(base_url + "/")
    _check_phone_layout(page)
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name="Pay Me 2–8 players").click()
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    expect(page.locator("#first_dealer option[value='0']")).to_have_text("Ann")
    page.select_option("#first_dealer", "0")
    _check_phone_layout(page)
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator("#round-h")).to_contain_text("Round 1")
    expect(page.locator("#round")).to_contain_text("Jokers, 2s and Threes")
    expect(page.locator("#round")).to_contain_text("2 decks + 4 jokers")
    red = page.locator("#round .suit.red").first
    assert red.evaluate("el => getComputedStyle(el).color") == "rgb(192, 0, 0)"
    _check_phone_layout(page)

    rounds = [
        ("Bob", {"Ann": "12", "Cy": "30"}),
        ("Cy", {"Ann": "10+5+5", "Bob": "15"}),
        ("Ann", {"Bob": "5", "Cy": "8"}),
    ]
    for number, (went_out, scores) in enumerate(rounds, start=1):
        page.get_by_role("link", name=f"Enter round {number} scores").click()
        expect(page.locator("#missing")).to_contain_text("who went out")
        # The browser refuses to submit a round with missing entries.
        form_url = page.url
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator("input:invalid").first).to_be_visible()
        assert page.url == form_url
        page.locator("label.radio", has_text=went_out).click()
        expect(page.get_by_role("textbox", name=went_out, exact=True)).to_have_value("0")
        for name, points in scores.items():
            page.get_by_role("textbox", name=name, exact=True).fill(points)
        if "+" in scores.get("Ann", ""):
            expect(page.locator("#scores-0-sum")).to_have_text("= 20")
        expect(page.locator("#missing")).to_have_text("")
        _check_phone_layout(page)
        if number == 2:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "round-form.png"), full_page=True)
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator("#standings")).to_be_visible()
        assert "/rounds/new" not in page.url

    expect(page.locator("#round-h")).to_contain_text("Round 4")
    standings = page.locator(".standings li")
    expect(standings.nth(0)).to_contain_text("Bob")
    expect(standings.nth(0)).to_contain_text("leader")
    expect(standings.nth(0)).to_contain_text("20")
    expect(page.locator(".grid tfoot")).to_contain_text("32")
    expect(page.locator(".grid tfoot")).to_contain_text("38")

    # Correct round 1; the old values go into the history.
    page.get_by_role("link", name="Correct round 1").click()
    page.get_by_role("textbox", name="Cy", exact=True).fill("25")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#history")).to_contain_text("Round 1 corrected")
    expect(page.locator(".grid tfoot")).to_contain_text("33")
    _check_phone_layout(page)
    assert errors == []

    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(page.url.split("#")[0])
    page.screenshot(path=str(ARTIFACTS / "game.png"), full_page=True)

    # Another phone at the table sees the standings, without edit controls.
    viewer = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")  # type: ignore[attr-defined]
    watching = viewer.new_page()
    watching.goto(page.url)
    expect(watching.locator(".note")).to_contain_text("View only")
    expect(watching.locator("#standings")).to_contain_text("Bob")
    assert watching.get_by_role("link", name="Enter round 4 scores").count() == 0
    assert watching.get_by_role("button", name="Undo round 3").count() == 0
    background = watching.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 11, 11)"
    watching.screenshot(path=str(ARTIFACTS / "game-dark-viewer.png"), full_page=True)
    viewer.close()
    context.close()
    assert (ARTIFACTS / "game.png").stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOT"):
        shutil.copyfile(ARTIFACTS / "game.png", ROOT / "docs" / "screenshot.png")
