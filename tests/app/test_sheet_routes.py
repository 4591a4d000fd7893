"""The sheet pages (issue 7): a game's score sheet as PDF and HTML, blank sheets, the chart and print links."""

from __future__ import annotations

import html
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.conftest import api_game

PLAYERS = ["Ann", "Bob", "Cy"]
A4 = (595, 842)
LETTER = (612, 792)


def create(client: FlaskClient, variant: str = "pay-me", players: list[str] | None = None, **options: Any) -> Any:
    names = players or PLAYERS
    return api_game(client, variant, names, names[0], **options)


def play(client: FlaskClient, game: dict[str, Any], went_out: str, scores: dict[str, int]) -> dict[str, Any]:
    body = {"went_out": went_out, "scores": {**scores, went_out: 0}}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    state = create(client)
    play(client, state, "Ann", {"Bob": 12, "Cy": 30})
    return play(client, state, "Bob", {"Ann": 7, "Cy": 4}) | {"edit_key": state["edit_key"]}


def pdf_of(response: Any) -> PdfReader:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    return PdfReader(io.BytesIO(response.data))


def text_of(reader: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def size_of(reader: PdfReader) -> tuple[int, int]:
    box = reader.pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def error_page(response: Any, status: int = 400) -> str:
    assert response.status_code == status
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    message = re.search(r'<p class="alert" role="alert">([^<]*)</p>', page)
    assert message, page[:500]
    sentence = html.unescape(message.group(1))
    assert sentence.endswith(".") and sentence.count(". ") == 0, sentence
    return sentence


# ---------------------------------------------------------------- a game's sheet


def test_game_sheet_pdf_is_a4_by_default_with_names_and_totals(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.get(f"/games/{game['id']}/sheet.pdf")
    reader = pdf_of(response)
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(r'inline; filename="pay-me-\d{4}-\d{2}-\d{2}\.pdf"', disposition), disposition
    assert size_of(reader) == A4
    text = text_of(reader)
    for name in PLAYERS:
        assert name in text
    assert "Pay Me score sheet" in text
    assert game["totals"] == {"Ann": 7, "Bob": 12, "Cy": 34}
    for total in ("34", "12", "7"):
        assert total in text
    assert "Running totals" in text


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER), ("LETTER", LETTER), ("", A4)])
def test_game_sheet_paper(client: FlaskClient, game: dict[str, Any], paper: str, size: tuple[int, int]) -> None:
    assert size_of(pdf_of(client.get(f"/games/{game['id']}/sheet.pdf?paper={paper}"))) == size


@pytest.mark.parametrize("paper", ["legal", "a5", "x" * 500, "a4 "])
def test_bad_paper_is_a_400_page(client: FlaskClient, game: dict[str, Any], paper: str) -> None:
    if paper == "a4 ":
        assert client.get(f"/games/{game['id']}/sheet.pdf?paper={paper}").status_code == 200  # trimmed
        return
    sentence = error_page(client.get(f"/games/{game['id']}/sheet.pdf?paper={paper}"))
    assert sentence == 'Paper must be "a4" or "letter".'
    error_page(client.get(f"/games/{game['id']}/sheet?paper={paper}"))


def test_unknown_game_is_404(client: FlaskClient) -> None:
    for url in ("/games/nope/sheet.pdf", "/games/nope/sheet", "/games/nope/export.csv", "/games/nope/export.json"):
        assert client.get(url).status_code == 404


def test_sheet_is_readable_without_the_edit_key(app: Flask, game: dict[str, Any]) -> None:
    other_phone = app.test_client()
    assert other_phone.get(f"/games/{game['id']}/sheet.pdf").status_code == 200
    assert other_phone.get(f"/games/{game['id']}/export.json").status_code == 200


def test_a_game_without_rounds_prints(client: FlaskClient) -> None:
    state = create(client, "3-13", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"])
    reader = pdf_of(client.get(f"/games/{state['id']}/sheet.pdf?paper=letter"))
    assert size_of(reader) == (792, 612)  # seven players: landscape
    assert "Gus" in text_of(reader)


def test_a_3_13_game_prints_its_pot(client: FlaskClient) -> None:
    state = create(client, "3-13", ["Ann", "Bob", "Cy"])
    play(client, state, "Bob", {"Ann": 5, "Cy": 9})
    text = text_of(pdf_of(client.get(f"/games/{state['id']}/sheet.pdf")))
    assert "3-13 score sheet" in text
    if state.get("pot"):  # the pot belongs to issue 6
        assert "Pot" in text and "Net" in text
    assert client.get(f"/games/{state['id']}/sheet").status_code == 200


def test_html_sheet_uses_the_shared_print_stylesheet_and_no_inline_style(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    response = client.get(f"/games/{game['id']}/sheet")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<link rel="stylesheet" href="/static/css/print.css">' in page
    assert "<style" not in page and "style=" not in page and "<script" not in page
    assert "<svg" in page and 'class="score-chart"' in page
    assert "Cy (34)" in page  # the chart's legend
    assert "default-src 'self'" in response.headers.get("Content-Security-Policy", "default-src 'self'")
    assert client.get("/static/css/print.css").status_code == 200


def test_the_sheet_page_links_back_to_the_game_and_to_its_pdfs_but_the_pdf_does_not(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    page = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    nav = re.search(r'<nav class="sheet-nav".*?</nav>', page, re.S)
    assert nav is not None
    anchors = re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', nav[0])
    links = {text: html.unescape(href) for href, text in anchors}
    assert links == {
        "← Back to the game": f"/games/{game['id']}",
        "PDF (A4)": f"/games/{game['id']}/sheet.pdf?paper=a4",
        "PDF (Letter)": f"/games/{game['id']}/sheet.pdf?paper=letter",
    }
    assert client.get(links["← Back to the game"]).status_code == 200
    for paper in ("PDF (A4)", "PDF (Letter)"):
        assert client.get(links[paper]).data.startswith(b"%PDF")
    # The PDF is made from the same template: the links stay off paper.
    text = text_of(pdf_of(client.get(links["PDF (A4)"])))
    assert "Back to the game" not in text and "PDF (A4)" not in text
    # A Play or Pay game's sheet (the chip tally) has the same way back.
    chips = create(client, "play-or-pay", ["Ann", "Bob", "Cy"])
    tally = client.get(f"/games/{chips['id']}/sheet").get_data(as_text=True)
    assert f'href="/games/{chips["id"]}">← Back to the game</a>' in tally


def test_hostile_names_are_escaped_on_the_sheet(client: FlaskClient) -> None:
    state = create(client, "pay-me", ["<b>Ann</b>", "Bob & Co", '"Cy"'])
    play(client, state, "Bob & Co", {"<b>Ann</b>": 5, '"Cy"': 2})
    page = client.get(f"/games/{state['id']}/sheet").get_data(as_text=True)
    assert "<b>Ann</b>" not in page
    assert "&lt;b&gt;Ann&lt;/b&gt;" in page
    assert "<b>Ann</b>" in text_of(pdf_of(client.get(f"/games/{state['id']}/sheet.pdf")))


def test_a_play_or_pay_game_prints_its_chip_tally_with_the_names(client: FlaskClient) -> None:
    state = create(client, "play-or-pay", ["Ann", "Bob", "Cy", "Dee"])
    response = client.get(f"/games/{state['id']}/sheet.pdf")
    text = text_of(pdf_of(response))
    assert "Play or Pay chip tally" in text
    assert "Dee" in text
    assert response.headers["Content-Disposition"].startswith('inline; filename="play-or-pay-')
    page = client.get(f"/games/{state['id']}/sheet").get_data(as_text=True)
    assert "chip tally" in page and "Dee" in page


# ---------------------------------------------------------------- the game page


def test_game_page_has_print_buttons_exports_and_the_chart(client: FlaskClient, game: dict[str, Any]) -> None:
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'href="/games/{game["id"]}/sheet.pdf?paper=a4"' in page
    assert f'href="/games/{game["id"]}/sheet.pdf?paper=letter"' in page
    assert "Print (A4)" in page and "Print (Letter)" in page
    assert f'href="/games/{game["id"]}/export.csv"' in page
    assert f'href="/games/{game["id"]}/export.json"' in page
    chart = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="score-chart"') :]
    chart = chart[: chart.index("</svg>")]
    assert chart.count("<polyline") == 3
    assert "<style" not in chart and "style=" not in chart
    assert 'stroke="currentColor"' in chart
    assert "/static/css/sheet-links.css" in page


def test_game_page_without_rounds_has_no_chart(client: FlaskClient) -> None:
    state = create(client)
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert "score-chart" not in page
    assert "Print (A4)" in page


def test_chart_names_are_escaped_on_the_game_page(client: FlaskClient) -> None:
    state = create(client, "pay-me", ["<img src=x>", "Bob", "Cy"])
    play(client, state, "Bob", {"<img src=x>": 5, "Cy": 2})
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert "<img src=x>" not in page
    assert "&lt;img src=x&gt; (5)" in page


def test_the_chart_keeps_its_look_without_a_style_element() -> None:
    """The pages' CSP allows no inline style: presentation attributes draw the chart instead."""
    from companion.services.chart import score_chart_svg

    svg = score_chart_svg({"players": ["Ann"], "rounds": [{"points": {"Ann": 3}}]})
    assert "<style" not in svg
    assert svg.count('class="axis" stroke="currentColor"') == svg.count('class="axis"') > 0
    assert 'fill="currentColor"' in svg.split(">", 1)[0]


# ---------------------------------------------------------------- blank sheets


def test_blank_sheet_without_names_has_four_blank_columns(client: FlaskClient) -> None:
    response = client.get("/sheets/pay-me.pdf")
    reader = pdf_of(response)
    assert size_of(reader) == A4
    assert text_of(reader).count("Points") == 4
    assert response.headers["Content-Disposition"] == 'inline; filename="pay-me-blank-sheet.pdf"'


@pytest.mark.parametrize(("players", "columns"), [(",,,", 4), (",", 2), (",,,,,", 6)])
def test_blank_name_boxes(client: FlaskClient, players: str, columns: int) -> None:
    text = text_of(pdf_of(client.get(f"/sheets/pay-me.pdf?players={players}")))
    assert text.count("Points") == columns


def test_blank_sheet_with_names_and_letter_paper(client: FlaskClient) -> None:
    reader = pdf_of(client.get("/sheets/3-13.pdf?players=Ann,Bob,,Dee&paper=letter"))
    assert size_of(reader) == LETTER
    text = text_of(reader)
    assert "Ann" in text and "Dee" in text
    assert "3-13 score sheet" in text


def test_blank_play_or_pay_is_the_chip_tally(client: FlaskClient) -> None:
    text = text_of(pdf_of(client.get("/sheets/play-or-pay.pdf?players=Ann,Bob,Cy")))
    assert "Play or Pay chip tally" in text and "Cy" in text


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("/sheets/poker.pdf", "There is no game called that"),
        ("/sheets/pay-me.pdf?paper=legal", 'Paper must be "a4" or "letter"'),
        ("/sheets/pay-me.pdf?players=Ann", "2"),
        ("/sheets/three-thirteen.pdf?players=A,B,C,D,E", "4"),
        ("/sheets/play-or-pay.pdf?players=A,B", "3"),
        ("/sheets/pay-me.pdf?players=" + "A" * 41 + ",Bob", "at most 40 characters"),
        ("/sheets/pay-me.pdf?players=An%0An,Bob", "line break"),
        ("/sheets/pay-me.pdf?players=" + ",".join(["Ann"] * 200), "too long"),
        ("/sheets/print?preset=nope", "There is no game called that"),
        ("/sheets/print?preset=pay-me&blanks=zero", "blank columns"),
        ("/sheets/print?preset=pay-me&blanks=99", "blank columns"),
    ],
)
def test_bad_blank_sheet_requests_are_400_pages(client: FlaskClient, url: str, words: str) -> None:
    sentence = error_page(client.get(url))
    assert words in sentence, sentence


def test_sheets_page_is_a_get_form_with_sensible_defaults(client: FlaskClient) -> None:
    response = client.get("/sheets")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<form method="get" action="/sheets/print"' in page
    assert "csrf_token" not in page
    assert "Print blank sheet" in page
    assert '<option value="pay-me" selected>' in page
    assert 'value="a4" checked' in page
    assert '<option value="4" selected>' in page
    assert "style=" not in page and "<script>" not in page
    assert '<option value="3-13" selected>' in client.get("/sheets?preset=3-13").get_data(as_text=True)


def test_the_sheets_form_leads_to_the_pdf(client: FlaskClient) -> None:
    response = client.get("/sheets/print?preset=pay-me&paper=a4&players=&blanks=4")
    assert response.status_code == 303
    assert response.headers["Location"] == "/sheets/pay-me.pdf?players=,,,&paper=a4"
    pdf_of(client.get(response.headers["Location"]))
    named = client.get("/sheets/print?preset=3-13&paper=letter&players=Ann, Bob ,Cy&blanks=4")
    assert named.headers["Location"] == "/sheets/3-13.pdf?players=Ann,Bob,Cy&paper=letter"


def test_home_page_links_to_blank_sheets(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/sheets"' in page and "Blank sheet" in page
