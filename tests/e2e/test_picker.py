"""The card picker widget (static/js/picker.js) in headless Chromium on a 360×740 phone screen.

No server: each test loads the widget into a blank page. Uses the system Chromium; never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import ARTIFACTS, ROOT, launched_chromium

PICKER_JS = ROOT / "static" / "js" / "picker.js"
PICKER_CSS = ROOT / "static" / "css" / "picker.css"
APP_CSS = ROOT / "static" / "app.css"
VIEWPORT = {"width": 360, "height": 740}
HAND_PAGE = (
    "<!doctype html><html><head></head><body><form>"
    "<input type=text name=hand data-card-picker data-decks=2 data-jokers=4>"
    "</form></body></html>"
)
THIRTEEN = "AS 5S 9S 3H 7H JH QH 2D 8D KD 4C 10C JK"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium() as browser:
        yield browser


def open_picker(chromium: Any, html: str = HAND_PAGE, *, app_css: bool = False, dark: bool = False) -> Any:
    page = chromium.new_page(viewport=VIEWPORT, color_scheme="dark" if dark else "light")
    page.set_content(html)
    if app_css:
        page.add_style_tag(path=str(APP_CSS))
    page.add_style_tag(path=str(PICKER_CSS))
    page.add_script_tag(path=str(PICKER_JS))
    return page


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    page = open_picker(chromium)
    yield page
    page.close()


class Taps:
    """Clicks picker buttons, counting every tap."""

    def __init__(self, page: Any, picker: int = 0) -> None:
        self.panel = page.locator(".cp-panel").nth(picker)
        self.count = 0

    def tap(self, selector: str) -> None:
        self.panel.locator(selector).click()
        self.count += 1

    def suit(self, code: str) -> None:
        self.tap(f"[data-suit={code}]")

    def rank(self, rank: str) -> None:
        self.tap(f'[data-rank="{rank}"]')

    def joker(self) -> None:
        self.tap("[data-action=joker]")

    def sticky_suit(self) -> str | None:
        pressed = self.panel.locator(".cp-suit[aria-pressed=true]")
        return pressed.get_attribute("data-suit") if pressed.count() else None

    def enter(self, hand: str) -> None:
        """Suit first (sticky), then one tap per rank: the fast way."""
        for code in hand.split():
            if code == "JK":
                self.joker()
                continue
            rank, suit = code[:-1], code[-1]
            if self.sticky_suit() != suit:
                self.suit(suit)
            self.rank(rank)

    def chips(self) -> list[str]:
        return self.panel.locator(".cp-chip").evaluate_all("chips => chips.map(c => c.dataset.card)")

    def message(self) -> str:
        return self.panel.locator(".cp-msg").inner_text().strip()


def hand_input(page: Any, index: int = 0) -> Any:
    return page.locator("[data-card-picker]").nth(index)


def test_thirteen_card_hand_takes_fewer_than_30_taps(page: Any) -> None:
    taps = Taps(page)
    taps.enter(THIRTEEN)
    assert hand_input(page).input_value() == THIRTEEN
    assert taps.chips() == THIRTEEN.split()
    assert taps.count < 30
    assert taps.count == 17  # 13 cards + 4 suit changes
    assert taps.panel.locator(".cp-count").inner_text() == "13 cards"


def test_rank_then_suit_entry(page: Any) -> None:
    taps = Taps(page)
    taps.rank("10")
    assert taps.panel.locator('[data-rank="10"]').get_attribute("aria-pressed") == "true"
    assert "10 chosen" in taps.panel.locator(".cp-mode").inner_text()
    taps.suit("H")
    taps.rank("Q")
    taps.suit("S")
    assert hand_input(page).input_value() == "10H QS"
    assert taps.sticky_suit() is None  # rank-then-suit does not make the suit sticky
    # A mixed 13-card hand, every card rank-then-suit, still takes fewer than 30 taps.
    taps.count = 0
    hand = "2H 3S 4D 5C 6H 7S 8D 9C 10H JS QD KC AH"
    for code in hand.split():
        taps.rank(code[:-1])
        taps.suit(code[-1])
    assert hand_input(page).input_value() == "10H QS " + hand
    assert taps.count == 26


def test_sticky_suit_mode_and_labels(page: Any) -> None:
    taps = Taps(page)
    ten = taps.panel.locator('[data-rank="10"]')
    hearts = taps.panel.locator("[data-suit=H]")
    assert ten.get_attribute("aria-label") == "10 (ten)"
    assert hearts.get_attribute("aria-label") == "Hearts"
    taps.suit("H")
    assert hearts.get_attribute("aria-pressed") == "true"
    assert ten.get_attribute("aria-label") == "10 (ten of hearts)"
    assert "Adding ♥ hearts" in taps.panel.locator(".cp-mode").inner_text()
    assert ten.inner_text().replace("\n", "") == "10♥"
    taps.suit("H")  # tapping the sticky suit again releases it
    assert taps.sticky_suit() is None
    assert ten.get_attribute("aria-label") == "10 (ten)"


def test_duplicates_allowed_up_to_decks_then_refused(page: Any) -> None:
    taps = Taps(page)
    taps.enter("7H 7H")
    assert hand_input(page).input_value() == "7H 7H"
    taps.rank("7")
    assert hand_input(page).input_value() == "7H 7H"
    message = taps.panel.locator(".cp-msg")
    assert message.get_attribute("aria-live") == "polite"
    assert message.is_visible()
    assert taps.message() == "No more 7♥: 2 decks hold only 2"
    taps.rank("8")  # the next good pick clears the refusal
    assert hand_input(page).input_value() == "7H 7H 8H"
    assert taps.message() == ""


def test_joker_limit(page: Any) -> None:
    taps = Taps(page)
    joker = taps.panel.locator("[data-action=joker]")
    for _ in range(4):
        taps.joker()
    assert hand_input(page).input_value() == "JK JK JK JK"
    assert joker.is_disabled()
    taps.tap("[data-action=backspace]")
    assert joker.is_enabled()


def test_no_joker_button_without_jokers(chromium: Any) -> None:
    page = open_picker(chromium, "<!doctype html><body><input type=text data-card-picker></body>")
    try:
        assert not page.locator(".cp-panel [data-action=joker]").is_visible()
        page.fill("[data-card-picker]", "JK")
        assert hand_input(page).get_attribute("aria-invalid") == "true"
        assert "no jokers" in Taps(page).message()
    finally:
        page.close()


def test_max_cards(chromium: Any) -> None:
    page = open_picker(chromium, "<!doctype html><body><input type=text data-card-picker data-max-cards=3></body>")
    try:
        taps = Taps(page)
        taps.enter("AS 2S 3S 4S")
        assert hand_input(page).input_value() == "AS 2S 3S"
        assert taps.message() == "A hand holds at most 3 cards"
    finally:
        page.close()


def test_backspace_and_chip_removal(page: Any) -> None:
    taps = Taps(page)
    taps.enter("AS 5S 9S QD")
    taps.tap("[data-action=backspace]")
    assert hand_input(page).input_value() == "AS 5S 9S"
    chip = taps.panel.locator(".cp-chip").first
    assert chip.get_attribute("aria-label") == "A♠: remove ace of spades"  # starts with the card shown (axe)
    chip.click()
    assert hand_input(page).input_value() == "5S 9S"
    assert taps.chips() == ["5S", "9S"]
    assert taps.panel.locator(".cp-count").inner_text() == "2 cards"
    taps.tap("[data-action=clear]")
    assert hand_input(page).input_value() == ""
    assert taps.chips() == []
    # Backspace first cancels a rank waiting for its suit.
    taps.suit("D")  # diamonds were sticky: a second tap releases them
    taps.rank("K")
    assert taps.panel.locator('[data-rank="K"]').get_attribute("aria-pressed") == "true"
    taps.tap("[data-action=backspace]")
    assert taps.panel.locator("[aria-pressed=true]").count() == 0


def test_typed_text_syncs_chips(page: Any) -> None:
    taps = Taps(page)
    taps.rank("5")
    page.fill("[data-card-picker]", "T♥, jk  qs 2♣\ufe0f")
    assert taps.panel.locator("[aria-pressed=true]").count() == 0  # typing cancels a rank waiting for its suit
    assert taps.chips() == ["10H", "JK", "QS", "2C"]
    assert taps.panel.locator(".cp-chip").first.inner_text().startswith("10♥")
    assert taps.panel.locator(".cp-count").inner_text() == "4 cards"
    assert hand_input(page).get_attribute("aria-invalid") is None
    assert hand_input(page).input_value() == "T♥, jk  qs 2♣\ufe0f"  # typing is never rewritten
    taps.enter("3C")
    assert hand_input(page).input_value() == "10H JK QS 2C 3C"


def test_invalid_token_marks_input(page: Any) -> None:
    taps = Taps(page)
    page.fill("[data-card-picker]", "AS 2s 7X 9H")
    assert hand_input(page).get_attribute("aria-invalid") == "true"
    assert taps.message() == '"7X" at position 3 is not a card'
    assert taps.panel.locator(".cp-msg").is_visible()
    assert taps.chips() == ["AS", "2S", "9H"]
    described = hand_input(page).get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == taps.message()
    taps.enter("KH")  # a pick keeps the bad token where it was typed
    assert hand_input(page).input_value() == "AS 2S 7X 9H KH"
    page.fill("[data-card-picker]", "AS 2S 7H")
    assert hand_input(page).get_attribute("aria-invalid") is None
    assert taps.message() == ""


def test_typed_copies_beyond_decks_are_flagged(page: Any) -> None:
    page.fill("[data-card-picker]", "7h 7H 7♥")
    assert hand_input(page).get_attribute("aria-invalid") == "true"
    assert Taps(page).message() == '"7H" appears 3 times, but 2 decks hold only 2'


def test_input_event_fires_on_pick(page: Any) -> None:
    page.evaluate(
        """() => { window.seen = [];
        document.addEventListener('input', e => window.seen.push([e.target.name, e.target.value, e.bubbles])); }"""
    )
    Taps(page).enter("KC")
    assert page.evaluate("window.seen") == [["hand", "KC", True]]


@pytest.mark.parametrize("app_css", [False, True], ids=["picker-css", "with-app-css"])
def test_tap_targets_and_no_horizontal_overflow(chromium: Any, app_css: bool) -> None:
    if app_css and not APP_CSS.exists():
        pytest.skip("no static/app.css")
    page = open_picker(chromium, app_css=app_css)
    try:
        Taps(page).enter("10H QS 10D KC 10S 9H 8H 7H 6H 5H 4H 3H JK")  # a full row of wide chips
        small = page.evaluate(
            """() => Array.from(document.querySelectorAll('.cp-panel button'))
            .filter(b => b.offsetParent !== null)
            .map(b => [b.getAttribute('aria-label') || b.textContent, b.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44 || r.right > 360 || r.left < 0)
            .map(([name, r]) => `${name}: ${r.width}x${r.height} at ${r.left}`)"""
        )
        assert small == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.locator(".cp-panel button:visible").count() == 4 + 13 + 2 + 1 + 13
    finally:
        page.close()


def test_two_pickers_work_independently(chromium: Any) -> None:
    html = (
        "<!doctype html><body><form>"
        "<input type=text name=a data-card-picker data-decks=1>"
        "<textarea name=b data-card-picker data-decks=3 data-jokers=2></textarea>"
        "</form></body>"
    )
    page = open_picker(chromium, html)
    try:
        first, second = Taps(page, 0), Taps(page, 1)
        first.enter("9S 9S")
        second.enter("9S 9S JK")
        assert hand_input(page, 0).input_value() == "9S"
        assert "1 deck holds only 1" in first.message()
        assert hand_input(page, 1).input_value() == "9S 9S JK"
        assert second.message() == ""
        assert first.panel.locator("[data-action=joker]").is_hidden()
        first.suit("H")
        assert second.sticky_suit() == "S"
        ids = page.locator(".cp-msg").evaluate_all("nodes => nodes.map(n => n.id)")
        assert len(set(ids)) == 2
    finally:
        page.close()


def test_wild_ranks_are_marked(chromium: Any) -> None:
    html = "<!doctype html><body><input type=text data-card-picker data-wild-ranks='2 k'></body>"
    page = open_picker(chromium, html)
    try:
        taps = Taps(page)
        assert taps.panel.locator(".cp-rank.cp-wild").evaluate_all("b => b.map(x => x.dataset.rank)") == ["2", "K"]
        assert taps.panel.locator('[data-rank="2"]').get_attribute("aria-label") == "2 (two, wild)"
        taps.enter("2C 3C")
        assert taps.panel.locator(".cp-chip.cp-wild").evaluate_all("c => c.map(x => x.dataset.card)") == ["2C"]
    finally:
        page.close()


def test_parse_and_format_api(page: Any) -> None:
    result = page.evaluate("CardPicker.format(CardPicker.parse('10h T♠, joker * 🃏').cards)")
    assert result == "10H 10S JK JK JK"
    bad = page.evaluate("CardPicker.parse('AS 1H JK=7H')")
    assert [card["code"] for card in bad["cards"]] == ["AS"]
    assert bad["errors"] == [
        '"1H" at position 2 is not a card',
        '"JK=7H" at position 3: a hand takes plain cards, not wild roles',
    ]
    meld = page.evaluate("CardPicker.format(CardPicker.parse('9c jk=7h 2d=JC', {roles: true}).cards)")
    assert meld == "9C JK=7H 2D=JC"
    assert page.evaluate("CardPicker.attach(document.querySelector('input')) !== null")
    assert page.locator(".cp-panel").count() == 1  # attaching twice does not add a second panel


def test_works_under_strict_csp(chromium: Any) -> None:
    csp = "default-src 'self'; script-src 'self'; style-src 'self'"
    html = (
        '<!doctype html><html><head><link rel=stylesheet href="/static/css/picker.css">'
        '<script src="/static/js/picker.js" defer></script></head>'
        "<body><input type=text name=hand data-card-picker data-jokers=1>"
        "<script src='/violations.js'></script></body></html>"
    )
    violations_js = (
        "window.violations = [];"
        "document.addEventListener('securitypolicyviolation', e => window.violations.push(e.violatedDirective));"
    )
    files = {
        "/": ("text/html", html),
        "/violations.js": ("text/javascript", violations_js),
        "/static/js/picker.js": ("text/javascript", PICKER_JS.read_text()),
        "/static/css/picker.css": ("text/css", PICKER_CSS.read_text()),
    }

    def serve(route: Any) -> None:
        path = "/" + route.request.url.split("/", 3)[3]
        if path not in files:
            route.fulfill(status=404, body="")
            return
        content_type, body = files[path]
        route.fulfill(status=200, body=body, headers={"Content-Type": content_type, "Content-Security-Policy": csp})

    page = chromium.new_page(viewport=VIEWPORT)
    try:
        page.route("http://picker.test/**", serve)
        page.goto("http://picker.test/")
        taps = Taps(page)
        taps.enter("QH JK")
        assert hand_input(page).input_value() == "QH JK"
        assert page.evaluate("window.violations") == []
        assert page.locator(".cp-rank").first.evaluate("b => getComputedStyle(b).minHeight") == "48px"
    finally:
        page.close()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshot(chromium: Any, dark: bool) -> None:
    page = open_picker(chromium, app_css=APP_CSS.exists(), dark=dark)
    try:
        taps = Taps(page)
        taps.enter("AS 5S 9S 3H 7H JH QH 2D 8D JK 9S")
        taps.suit("H")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = "picker-dark.png" if dark else "picker.png"
        page.screenshot(path=str(ARTIFACTS / name), full_page=True)
        assert (ARTIFACTS / name).stat().st_size > 0
    finally:
        page.close()


FIVE_CROWNS_FIELD = (
    "<!doctype html><body><input type=text data-card-picker data-decks=2 data-jokers=6"
    " data-suits='S H D C R' data-ranks='3 4 5 6 7 8 9 10 J Q K' data-wild-ranks=5></body>"
)


def test_five_crowns_deck_offers_stars_and_no_aces_or_twos(chromium: Any) -> None:
    page = open_picker(chromium, FIVE_CROWNS_FIELD)
    try:
        taps = Taps(page)
        shown_suits = taps.panel.locator(".cp-suit:visible").evaluate_all("b => b.map(x => x.dataset.suit)")
        assert shown_suits == ["S", "H", "D", "C", "R"]
        stars = taps.panel.locator("[data-suit=R]")
        assert stars.inner_text() == "★" and stars.get_attribute("aria-label") == "Stars"
        shown_ranks = taps.panel.locator(".cp-rank:visible").evaluate_all("b => b.map(x => x.dataset.rank)")
        assert shown_ranks == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        taps.enter("5H JK 7R KR")
        assert hand_input(page).input_value() == "5H JK 7R KR"
        star_chips = taps.panel.locator(".cp-chip.cp-star").evaluate_all("c => c.map(x => x.textContent)")
        assert star_chips == ["7★×", "K★×"]
        assert taps.panel.locator(".cp-chip.cp-wild").evaluate_all("c => c.map(x => x.dataset.card)") == ["5H"]
        assert taps.panel.locator('[data-rank="7"]').inner_text().replace("\n", "") == "7★"  # stars still sticky
        # Stars have a colour of their own, apart from the red suits and the black ones.
        colours = taps.panel.locator(".cp-suit").evaluate_all("b => b.map(x => getComputedStyle(x).color)")
        assert len(set(colours)) == 3 and colours[4] not in colours[:4]
    finally:
        page.close()


def test_cards_outside_the_deck_are_flagged(chromium: Any) -> None:
    page = open_picker(chromium, FIVE_CROWNS_FIELD)
    try:
        field = hand_input(page)
        field.fill("7☆ 8⭐ AH")
        assert chips_of(page) == ["7R", "8R", "AH"]
        assert Taps(page).message() == '"AH" is not a card of this game: its deck runs from 3 to K'
        assert field.get_attribute("aria-invalid") == "true"
        field.fill("7★ 2S")
        assert Taps(page).message() == '"2S" is not a card of this game: its deck runs from 3 to K'
    finally:
        page.close()
    standard = open_picker(chromium)  # four suits, Ace to King: a star is no card of the deck
    try:
        assert standard.locator(".cp-suit:visible").count() == 4
        hand_input(standard).fill("AS 7R")
        assert Taps(standard).message() == '"7R" is not a card of this game: its deck has no stars'
    finally:
        standard.close()


def chips_of(page: Any) -> list[str]:
    return Taps(page).chips()
