"""Printable sheets (companion.services.sheets): PDF text, page counts and sizes, ink on every page, fonts, escaping.

These tests need WeasyPrint and poppler-utils (pdftoppm, pdffonts), not the Flask app.
Each PDF is rendered once per module (fixtures), which keeps the run short.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from companion.services import chart, sheets
from engine import pot as money
from engine.errors import OptionError, PlayerCountError, VariantError
from engine.rules import rule_set
from engine.schedule import schedule


@pytest.fixture(autouse=True, scope="module")
def poppler() -> None:
    """Fail, rather than skip, without poppler-utils: `bash test` installs it first."""
    missing = [tool for tool in ("pdftoppm", "pdffonts") if not shutil.which(tool)]
    if missing:
        not_found = " and ".join(missing)
        pytest.fail(f"{not_found} not found: install poppler-utils (apt-get install poppler-utils)", pytrace=False)


EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
HOSTILE = "<script>alert(1)</script>"
QUOTES = 'Jo "Ace" O\'Neil & Co'
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


# --- sample game states, as GET /api/games/<id> returns them --------------------------------


def _round_scores(players: Sequence[str], number: int, went_out: str) -> dict[str, int]:
    return {name: 0 if name == went_out else (seat * 7 + number * 5) % 41 + 1 for seat, name in enumerate(players)}


def game_state(
    variant: str,
    players: Sequence[str],
    played: int,
    options: dict[str, Any] | None = None,
    with_pot: bool = False,
) -> dict[str, Any]:
    """A game after `played` rounds; the first seat deals round 1; finished after the last round."""
    rules = rule_set(variant, options or {})
    infos = schedule(rules)
    rounds, totals = [], dict.fromkeys(players, 0)
    pot = money.start_pot(players) if with_pot else None
    for info in infos[:played]:
        went_out = players[(info.number * 3) % len(players)]
        scores = _round_scores(players, info.number, went_out)
        points = {name: score * info.multiplier for name, score in scores.items()}
        totals = {name: totals[name] + points[name] for name in players}
        dealer = players[(info.number - 1) % len(players)]
        rounds.append({**info.as_json(), "dealer": dealer, "went_out": went_out, "scores": scores, "points": points})
        if pot is not None:
            pot = money.record_round(pot, info.number, {players[info.number % len(players)]: 1}, went_out)
    finished = played == len(infos)
    lowest = min(totals.values())
    state: dict[str, Any] = {
        "id": "g-42",
        "variant": variant,
        "options": rules.options.as_json(),
        "players": list(players),
        "rounds": rounds,
        "totals": totals,
        "next_round": None,
        "finished": finished,
        "winners": [name for name in players if totals[name] == lowest] if finished else [],
        "created_at": "2026-11-20T19:30:00+00:00",
    }
    if pot is not None:
        state["pot"] = (money.finish_game(pot, totals) if finished else pot).as_json()
    return state


@pytest.fixture(scope="module")
def full_cycle() -> dict[str, Any]:
    return game_state("pay-me", EIGHT, 23, {"full_cycle": True})


@pytest.fixture(scope="module")
def money_game() -> dict[str, Any]:
    return game_state("3-13", EIGHT[:5], 11, with_pot=True)


@pytest.fixture(scope="module")
def short_game() -> dict[str, Any]:
    return game_state("three-thirteen", ["Ann", HOSTILE, QUOTES], 2)


@pytest.fixture(scope="module")
def full_cycle_pdf(full_cycle: dict[str, Any]) -> bytes:
    return sheets.game_sheet_pdf(full_cycle)


@pytest.fixture(scope="module")
def money_pdf(money_game: dict[str, Any]) -> bytes:
    return sheets.game_sheet_pdf(money_game)


@pytest.fixture(scope="module")
def short_pdf(short_game: dict[str, Any]) -> bytes:
    return sheets.game_sheet_pdf(short_game, "letter")


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return sheets.blank_sheet_pdf("pay-me", ["Ann", "", "Cy", ""], options={"full_cycle": True})


@pytest.fixture(scope="module")
def chip_pdf() -> bytes:
    return sheets.chip_tally_pdf(EIGHT[:7])


@pytest.fixture(scope="module")
def all_pdfs(
    full_cycle_pdf: bytes, money_pdf: bytes, short_pdf: bytes, blank_pdf: bytes, chip_pdf: bytes
) -> dict[str, bytes]:
    return {"full": full_cycle_pdf, "money": money_pdf, "short": short_pdf, "blank": blank_pdf, "chips": chip_pdf}


# --- helpers ------------------------------------------------------------------------------


def pdf_pages(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    boxes = [page.mediabox for page in PdfReader(io.BytesIO(pdf)).pages]
    return [(round(float(box.width), 2), round(float(box.height), 2)) for box in boxes]


def rasterise(pdf: bytes, tmp_path: Path, colour: bool = False) -> list[bytes]:
    """Every page as a PGM (grey) or PPM (colour) image at 50 dpi, via pdftoppm."""
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    mode = [] if colour else ["-gray"]
    subprocess.run(["pdftoppm", "-r", "50", *mode, str(source), str(tmp_path / "page")], check=True)
    suffix = "ppm" if colour else "pgm"
    return [path.read_bytes() for path in sorted(tmp_path.glob(f"page*.{suffix}"))]


def pixels(image: bytes) -> bytes:
    """The pixel bytes of a binary PGM/PPM image (header: magic, width height, maxval)."""
    header = re.match(rb"P[56]\s+\d+\s+\d+\s+\d+\s", image)
    assert header, "not a binary PNM image"
    return image[header.end() :]


def dark_share(image: bytes) -> float:
    data = pixels(image)
    return sum(1 for value in data if value < 128) / len(data)


def visible_text(html: str) -> str:
    """The text of an HTML page (what the fonts must draw), tags removed and entities decoded."""

    class Collector(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.skip += tag in ("title", "style")

        def handle_endtag(self, tag: str) -> None:
            self.skip -= tag in ("title", "style")

        def handle_data(self, data: str) -> None:
            if not self.skip:
                self.parts.append(data)

    collector = Collector()
    collector.feed(html)
    return "".join(collector.parts)


# --- content ------------------------------------------------------------------------------


def test_full_cycle_sheet_shows_names_totals_wild_cards_and_winner(
    full_cycle: dict[str, Any], full_cycle_pdf: bytes
) -> None:
    first_page, second_page = pdf_pages(full_cycle_pdf)
    for name, total in full_cycle["totals"].items():
        assert name in first_page
        assert str(total) in first_page
    for wild in ("Jkr, 2, 3", "Jkr, 2, 10", "Jkr, 2, A", "Jkr, 2, K"):
        assert wild in first_page
    assert f"Winner: {full_cycle['winners'][0]}" in first_page
    assert "House rules: Full cycle: yes" in first_page
    assert "2026-11-20" in first_page
    assert "Running totals" in second_page


def test_every_round_of_the_schedule_has_a_row_even_when_not_played(short_game: dict[str, Any]) -> None:
    html = sheets.game_sheet_html(short_game)
    assert html.count('<tr class="played">') == 2
    assert html.count('<tr class="unplayed">') == 9
    assert "2 of 11 rounds played" in html


def test_cells_show_the_round_points_and_the_running_total(short_game: dict[str, Any]) -> None:
    html = sheets.game_sheet_html(short_game)
    name = short_game["players"][2]
    first, second = (short_game["rounds"][number]["points"][name] for number in (0, 1))
    assert second > 0
    assert f'<span class="points">+{second}</span> {first + second}</td>' in html
    footer = html[html.index("<tfoot>") : html.index("</tfoot>")]
    assert re.findall(r'<td class="total-cell">(\d+)</td>', footer)[2] == str(first + second)


def test_dealer_marks_cover_the_rounds_not_played_yet(short_game: dict[str, Any]) -> None:
    html = sheets.game_sheet_html(short_game)
    assert html.count('<span class="dealer" title="dealer">D</span>') == 11


def test_knockers_get_a_box_in_3_13_and_a_star_elsewhere(
    money_game: dict[str, Any], short_game: dict[str, Any]
) -> None:
    knocking = sheets.game_sheet_html(money_game)
    assert knocking.count('class="score knock"') == 11
    assert 'title="went out"' not in knocking
    other = sheets.game_sheet_html(short_game)
    assert other.count('<span class="out-mark" title="went out">★</span>') == 2
    assert 'class="score knock"' not in other


def test_pot_summary_lists_each_kind_and_the_net(money_game: dict[str, Any], money_pdf: bytes) -> None:
    text = "\n".join(pdf_pages(money_pdf))
    assert "Pot, paid out: $0.00 left" in text
    for label in ("Antes", "Second discards", "Knocks", "Payout", "Net"):
        assert label in text
    for cents in money_game["pot"]["net"].values():
        assert money.format_cents(cents) in text


def test_pot_of_a_game_in_progress_shows_its_balance() -> None:
    state = game_state("3-13", EIGHT[:4], 4, with_pot=True)
    html = sheets.game_sheet_html(state)
    assert f"Pot: {money.format_cents(state['pot']['balance'])} in the pot now" in html
    assert "Booby prize" not in html and "Payout" not in html
    assert "Pot" not in sheets.game_sheet_html(game_state("3-13", EIGHT[:4], 4))


def test_only_options_that_differ_from_the_preset_are_listed() -> None:
    state = game_state("3-13", EIGHT[:3], 0, {"ace": "both", "double_rounds": [11]})
    html = sheets.game_sheet_html(state)
    assert "Ace in runs: Both; Doubled rounds: rounds 11" in html
    assert "Lay-offs" not in html
    assert "House rules" not in sheets.game_sheet_html(game_state("3-13", EIGHT[:3], 0))


def test_a_game_without_rounds_or_date_still_prints() -> None:
    state = {"id": "new", "variant": "pay-me", "options": {}, "players": ["Ann", "Bob"], "rounds": []}
    html = sheets.game_sheet_html(state)
    assert html.count('<tr class="unplayed">') == 11
    assert "<svg" in html


# --- pages: count, size, orientation, ink --------------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("full", 2), ("money", 1), ("short", 1), ("blank", 1), ("chips", 1)])
def test_page_counts(all_pdfs: dict[str, bytes], name: str, count: int) -> None:
    assert len(PdfReader(io.BytesIO(all_pdfs[name])).pages) == count


def test_the_whole_score_table_fits_the_first_page_of_a_full_cycle(full_cycle_pdf: bytes) -> None:
    first_page = pdf_pages(full_cycle_pdf)[0]
    assert re.search(r"\b23\s+3\s+Jkr, 2, 3", first_page)
    assert "Total" in first_page


def test_every_page_has_ink(all_pdfs: dict[str, bytes], tmp_path: Path) -> None:
    """At 50 dpi a page with only the small grey footer has 0% dark pixels; the sparsest real page
    (the chart of a full cycle) has about 0.8%, a score table 5% or more."""
    for name, pdf in all_pdfs.items():
        folder = tmp_path / name
        folder.mkdir()
        for number, image in enumerate(rasterise(pdf, folder), start=1):
            assert dark_share(image) > 0.004, f"{name} page {number} is (nearly) blank"


def test_the_chart_is_drawn_in_the_player_colours(full_cycle_pdf: bytes, tmp_path: Path) -> None:
    chart_page = rasterise(full_cycle_pdf, tmp_path, colour=True)[1]
    data = pixels(chart_page)
    triples = {data[index : index + 3] for index in range(0, len(data), 3)}
    for seat in range(5):
        red, green, blue = (int(chart.player_colour(seat)[index : index + 2], 16) for index in (1, 3, 5))
        assert any(abs(pixel[0] - red) + abs(pixel[1] - green) + abs(pixel[2] - blue) < 40 for pixel in triples), (
            f"no pixel of seat {seat}'s colour"
        )


def test_portrait_up_to_six_players_landscape_beyond() -> None:
    for count in (2, 6):
        assert page_sizes(sheets.game_sheet_pdf(game_state("pay-me", EIGHT[:count], 1)))[0] == A4
    seven = page_sizes(sheets.blank_sheet_pdf("pay-me", EIGHT[:7]))[0]
    assert seven == A4[::-1]
    assert seven[0] > seven[1]


def test_all_pages_share_the_orientation(all_pdfs: dict[str, bytes]) -> None:
    assert set(page_sizes(all_pdfs["full"])) == {A4[::-1]}
    assert set(page_sizes(all_pdfs["chips"])) == {A4[::-1]}


def test_full_cycle_on_letter_keeps_the_table_on_the_first_page(full_cycle: dict[str, Any]) -> None:
    pdf = sheets.game_sheet_pdf(full_cycle, "letter")
    assert page_sizes(pdf) == [LETTER[::-1]] * 2
    first_page = pdf_pages(pdf)[0]
    assert "Total" in first_page and "Winner:" in first_page and "Jkr, 2, 3" in first_page


def test_letter_and_a4_sizes(short_pdf: bytes) -> None:
    assert page_sizes(short_pdf) == [LETTER]
    assert page_sizes(sheets.chip_tally_pdf([], "letter")) == [LETTER]
    assert page_sizes(sheets.blank_sheet_pdf("3-13", EIGHT, "LETTER")) == [LETTER[::-1]]


def _column(header: str, dashes: str, title: str) -> slice:
    """Where a column of pdffonts' fixed-width table sits, from its header and its line of dashes."""
    start = header.index(title)
    end = dashes.find(" ", start)
    return slice(start, None if end < 0 else end)


def test_fonts_are_embedded(all_pdfs: dict[str, bytes], tmp_path: Path) -> None:
    for name, pdf in all_pdfs.items():
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(pdf)
        listing = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout
        header, dashes, *rows = listing.splitlines()
        emb = _column(header, dashes, "emb")
        assert rows, f"{name}: no fonts"
        for row in rows:
            assert "DejaVu" in row, row
            assert row[emb].strip() == "yes", row


# --- fonts cover every character ------------------------------------------------------------


def _dejavu_characters() -> set[int]:
    path = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans"], check=True, capture_output=True, text=True)
    return set(TTFont(path.stdout).getBestCmap())


def test_every_character_on_the_sheets_is_in_the_font(full_cycle: dict[str, Any], money_game: dict[str, Any]) -> None:
    covered = _dejavu_characters()
    pages = [
        sheets.game_sheet_html(full_cycle),
        sheets.game_sheet_html(money_game),
        sheets.blank_sheet_html("3-13", []),
        sheets.chip_tally_html([]),
    ]
    generated = re.findall(r'content: "([^"]*)"', sheets.PRINT_CSS.read_text())
    text = "".join(visible_text(page) for page in pages) + "".join(generated)
    assert "★" in text and "×" in text
    missing = {character for character in text if ord(character) not in covered and not character.isspace()}
    assert not missing


# --- HTML view and escaping --------------------------------------------------------------


def test_html_view_links_the_shared_print_stylesheet(full_cycle: dict[str, Any]) -> None:
    html = sheets.game_sheet_html(full_cycle)
    assert '<link rel="stylesheet" href="/static/css/print.css">' in html
    assert sheets.PRINT_CSS.is_file()
    custom = sheets.game_sheet_html(full_cycle, stylesheet_href="/assets/print.css?v=2")
    assert 'href="/assets/print.css?v=2"' in custom
    assert "<script" not in html


def test_hostile_names_are_escaped_in_html_and_svg(short_game: dict[str, Any], short_pdf: bytes) -> None:
    html = sheets.game_sheet_html(short_game)
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Jo &#34;Ace&#34; O&#39;Neil &amp; Co" in html
    for other in (sheets.blank_sheet_html("pay-me", [HOSTILE, QUOTES]), sheets.chip_tally_html([HOSTILE, QUOTES, ""])):
        assert "<script" not in other
        assert "&lt;script&gt;" in other
    text = pdf_pages(short_pdf)[0].replace("\n", "")
    assert "alert(1)" in text
    assert "O'Neil & Co" in text


def test_palette_of_the_chart_matches_the_swatches_in_print_css() -> None:
    css = sheets.PRINT_CSS.read_text()
    for seat, colour in enumerate(chart.PALETTE):
        assert f".seat-{seat} {{ background: {colour}; }}" in css


# --- blank sheets and the chip tally -------------------------------------------------------


def test_blank_sheet_preprints_the_schedule_and_blank_name_boxes(blank_pdf: bytes) -> None:
    html = sheets.blank_sheet_html("pay-me", ["Ann", "", "Cy", ""], options={"full_cycle": True})
    assert html.count('class="player name-box"') == 2
    text = pdf_pages(blank_pdf)[0]
    assert "Ann" in text and "Cy" in text
    assert "Jkr, 2, A" in text
    assert "Total" in text and "Winner:" in text


def test_blank_sheet_without_names_has_four_blank_columns() -> None:
    html = sheets.blank_sheet_html("three-thirteen", [])
    assert html.count('class="player name-box"') == sheets.BLANK_COLUMNS == 4
    assert html.count('<tr>\n      <th class="round" scope="row">') == 11


def test_blank_sheet_player_counts_follow_the_preset() -> None:
    with pytest.raises(PlayerCountError):
        sheets.blank_sheet_html("pay-me", ["A"])
    with pytest.raises(PlayerCountError):
        sheets.blank_sheet_html("three-thirteen", ["", "", "", "", ""])
    assert sheets.blank_sheet_html("3-13", [""] * 9).count("name-box") == 9


def test_blank_play_or_pay_sheet_is_the_chip_tally() -> None:
    html = sheets.blank_sheet_html("play-or-pay", ["Ann", "Bob", "Cy"])
    assert "Play or Pay chip tally" in html
    assert html.count('<td class="paid"></td>') == 3 * sheets.CHIP_HANDS


def test_chip_tally_has_hands_down_and_paid_and_balance_columns(chip_pdf: bytes) -> None:
    text = pdf_pages(chip_pdf)[0]
    assert "Paid" in text and "Balance" in text and "Out first" in text
    assert re.search(r"\b20\b", text)
    assert all(name in text for name in EIGHT[:7])
    with pytest.raises(PlayerCountError):
        sheets.chip_tally_html(["Ann", "Bob"])
    assert sheets.chip_tally_html([], hands=5).count('<td class="paid"></td>') == 4 * 5
    with pytest.raises(ValueError, match="1 to 60 hands"):
        sheets.chip_tally_html([], hands=0)


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["legal", "", "A5"])
def test_bad_paper_is_a_value_error(short_game: dict[str, Any], paper: str) -> None:
    with pytest.raises(ValueError, match=r'^paper must be "a4" or "letter", not ".*"\.$'):
        sheets.game_sheet_pdf(short_game, paper)
    with pytest.raises(ValueError, match="paper must be"):
        sheets.blank_sheet_pdf("pay-me", [], paper)


def test_bad_variant_is_a_variant_error(short_game: dict[str, Any]) -> None:
    with pytest.raises(VariantError):
        sheets.game_sheet_pdf({**short_game, "variant": "gin"})
    with pytest.raises(VariantError):
        sheets.blank_sheet_pdf("gin", [])


def test_play_or_pay_has_no_rounds_to_print(short_game: dict[str, Any]) -> None:
    with pytest.raises(VariantError, match="played in hands"):
        sheets.game_sheet_html({**short_game, "variant": "play-or-pay", "options": {}})


def test_bad_options_are_option_errors(short_game: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        sheets.game_sheet_html({**short_game, "options": {"full_cycel": True}})
