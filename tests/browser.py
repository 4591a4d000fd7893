"""What the browser tests share: the system Chromium, how to launch it, and the phone-layout checks.

Uses the system Chromium (/usr/bin/chromium, or the one the CHROMIUM environment variable names);
never downloads a browser. Without it the browser tests fail: `bash test` installs it first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
PHONE = {"width": 360, "height": 740}  # the phone every browser test is written for
CHROMIUM = Path(os.environ.get("CHROMIUM") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
_SERIOUS_VIOLATIONS = """
async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))
"""


def serious_violations(page: Any) -> list[str]:
    """What axe-core finds serious or critical on the page as it is now, a line a rule."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(_SERIOUS_VIOLATIONS)
    return found


_SMALL_TAP_TARGETS = """
([selector, exclude]) => Array.from(document.querySelectorAll(selector))
  .filter(el => el.offsetParent !== null && !(exclude && el.closest(exclude)))
  .map(el => [el.textContent.trim() || el.name || el.id, el.getBoundingClientRect().height])
  .filter(([, height]) => height < 44)
"""


def require_chromium() -> None:
    """Fail without the system Chromium: a browser test that does not run must not pass as skipped."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Chromium (apt-get install chromium)", pytrace=False)


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Headless Chromium, closed afterwards."""
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # A condition is waited for up to 15 s, not Playwright's 5 s: a loaded 2-core machine can take
    # that long to swap a page, and a test asserts what the page shows, never how fast (benchmarks do).
    expect.set_options(timeout=15_000)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def small_tap_targets(page: Any, selector: str, exclude: str | None = None) -> list[Any]:
    """The visible elements matching `selector` (outside `exclude`) less than 44 px tall."""
    page.wait_for_load_state("load")  # stylesheets applied: sizes measured before that are not final
    found: list[Any] = page.evaluate(_SMALL_TAP_TARGETS, [selector, exclude])
    return found


def check_phone_layout(page: Any, tap_targets: str, exclude: str | None = None) -> None:
    """Nothing wider than a 360 px phone, and every tap target at least 44 px tall."""
    assert small_tap_targets(page, tap_targets, exclude) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


class HeldRequests:
    """A page's own requests for `address` held on their way, as on a slow Wi-Fi, until `release()`.
    The page's context must block service workers (service_workers="block"), or their fetches pass."""

    def __init__(self, page: Any, address: str) -> None:
        self.routes: list[Any] = []
        self.holding = True
        page.route(address, self._hold)

    def _hold(self, route: Any) -> None:
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()
