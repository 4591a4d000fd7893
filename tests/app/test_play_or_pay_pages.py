"""Play or Pay around the hand page: its rules page, the share panel, and the print and export links."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.sharing import links
from engine import play_or_pay as pop
from tests.app.test_sharing import join
from tests.conftest import api_game, read_csrf_token

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
QR = re.compile(r'<img class="qr-code" src="[^"]+" alt="([^"]+)"')
DEAL_ROW = re.compile(r'<div id="deal-(\d+)"( class="dp-here")?><dt>\d+ players</dt><dd>([^<]+)</dd></div>')


def create(client: FlaskClient, players: list[str] | None = None, chips: int | None = None) -> dict[str, Any]:
    names = players or PLAYERS
    options = {} if chips is None else {"chips": chips}
    game: dict[str, Any] = api_game(client, "play-or-pay", names, names[0], **options)
    return game


def give_key(client: FlaskClient, game: dict[str, Any], key: str | None = None) -> None:
    client.set_cookie("edit_key", key or game["edit_key"], path=f"/games/{game['id']}")


def text(response: Any) -> str:
    body: str = response.get_data(as_text=True)
    return body


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(response))))


def deal_rows(page: str) -> dict[int, tuple[bool, str]]:
    section = page[page.index('id="deal-h"') : page.index('id="options-h"')]
    return {int(n): (bool(here), html.unescape(cards)) for n, here, cards in DEAL_ROW.findall(section)}


def hrefs(page: str) -> list[str]:
    return [html.unescape(href) for href in re.findall(r'href="([^"]+)"', page)]


# ---------------------------------------------------------------- the rules page


def test_the_rules_page_states_the_rules_from_the_engine(client: FlaskClient) -> None:
    response = client.get("/rules/play-or-pay")
    assert response.status_code == 200
    words = plain(response)
    assert "Play or Pay rules" in words
    for line in pop.RULES_IN_SHORT:
        assert f"{line.title} {line.text}" in words
    # Section 7 in the page's own words: wrap King to Ace, the thirteenth card, one chip per card.
    assert "King wraps to Ace" in words and "thirteenth card of its suit" in words
    assert "pays 1 chip per card still held" in words and "The deal passes left." in words
    # The companion's part, flags included.
    for line in pop.COMPANION_RULES:
        assert f"{line.title} {line.text}" in words
    assert "A player who paid a chip for a card and later plays that same card in the hand is flagged" in words
    assert "Every game's rules" in words and "Back to the game" not in words


def test_the_deal_table_gives_every_table_size_its_cards(client: FlaskClient) -> None:
    page = text(client.get("/rules/play-or-pay"))
    rows = deal_rows(page)
    assert sorted(rows) == list(range(3, 11))
    for size, (here, cards) in rows.items():
        assert not here  # no game, so no row is this table's
        base, more = divmod(52, size)  # worked out here, independently of the engine
        if more == 1:
            assert cards == f"{base + 1} to the player left of the dealer, {base} to the other {size - 1}"
        elif more:
            assert cards == f"{base + 1} to the first {more} from the dealer's left, {base} to the other {size - more}"
        else:
            assert cards == f"{base} each"
    assert rows[3][1] == "18 to the player left of the dealer, 17 to the other 2"
    assert rows[4][1] == "13 each"
    assert rows[5][1] == "11 to the first 2 from the dealer's left, 10 to the other 3"
    assert rows[10][1] == "6 to the first 2 from the dealer's left, 5 to the other 8"


def test_the_starting_chips_option_and_its_effect(client: FlaskClient) -> None:
    response = client.get("/rules/play-or-pay")
    words = plain(response)
    assert "Starting chips 20 chips each · choices: 1 to 10000" in words
    assert pop.CHIPS_OPTION.effect in words
    assert "Changed from the preset" not in words
    page = text(response)
    assert 'name="chips"' in page and 'value="20"' in page  # the form that shows another stack

    changed = client.get("/rules/play-or-pay?chips=50")
    assert changed.status_code == 200
    words = plain(changed)
    assert "Changed from the preset: Starting chips 50 chips." in words
    assert "50 chips each (preset: 20 chips)" in words
    assert 'id="option-chips" class="dp-here"' in text(changed)
    assert "20 chips each" in plain(client.get("/rules/play-or-pay?chips=%20"))  # blank: the preset


@pytest.mark.parametrize("value", ["0", "10001", "abc", "-3", "2.5", "½"])
def test_a_bad_chips_option_is_a_400_with_the_reason(client: FlaskClient, value: str) -> None:
    response = client.get("/rules/play-or-pay", query_string={"chips": value})
    assert response.status_code == 400
    assert "Starting chips: a whole number of chips from 1 to 10000" in plain(response)


def test_a_game_links_its_own_rules_with_its_chips(client: FlaskClient) -> None:
    game = create(client, chips=30)
    response = client.get(f"/games/{game['id']}/rules")
    assert response.status_code == 200
    words = plain(response)
    assert "The rules of this game, with its starting chips." in words
    assert "Changed from the preset: Starting chips 30 chips." in words
    assert "30 chips each (preset: 20 chips)" in words
    page = text(response)
    assert f'href="/games/{game["id"]}/hand"' in page
    assert 'name="chips"' not in page  # a game's stack is fixed: no form to try another
    rows = deal_rows(page)
    assert [size for size, (here, _) in rows.items() if here] == [5]  # this table of five

    default = create(client, ["Ann", "Bob", "Cy"])
    response = client.get(f"/games/{default['id']}/rules")
    assert "20 chips each" in plain(response) and "Changed from the preset" not in plain(response)
    assert [size for size, (here, _) in deal_rows(text(response)).items() if here] == [3]


def test_a_game_rules_page_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    response = client.get("/games/nope/rules")
    assert response.status_code == 404
    assert "There is no game at this address" in plain(response)


# ---------------------------------------------------------------- the hand page


def test_the_hand_page_links_the_game_rules(app: Flask, client: FlaskClient) -> None:
    game = create(client, chips=30)
    for phone in (client, app.test_client()):  # a viewer sees the link too
        page = text(phone.get(f"/games/{game['id']}/hand"))
        assert f'href="/games/{game["id"]}/rules"' in page
        assert "Play or Pay rules, with this game's house rules" in page
    assert client.get(f"/games/{game['id']}/rules").status_code == 200


def test_a_key_holder_sees_both_codes_and_the_new_key_button(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    give_key(client, game)
    response = client.get(f"/games/{game['id']}/hand")
    page = text(response)
    assert "Follow on another phone" in page and "Let another phone enter scores" in page
    codes = QR.findall(page)
    assert codes == ["QR code of the view-only address", "QR code of the edit link"]
    view = re.search(r'<p class="share-url"><a href="([^"]+)">', page)
    assert view and view.group(1).endswith(f"/games/{game['id']}")
    join = links.join_url(view.group(1), game["edit_key"])
    assert join in page
    sources = re.findall(r'<img class="qr-code" src="([^"]+)"', page)
    assert client.get(sources[0]).data == links.qr_file(view.group(1), "QR code of the view-only address")
    assert client.get(sources[1]).data == links.qr_file(join, "QR code of the edit link")
    assert f'action="/games/{game["id"]}/key"' in page and "Make a new edit key" in page
    assert response.headers["Cache-Control"] == "private"  # it shows the key
    # The sharing panel appears once: the include, not a copy.
    assert page.count('id="share"') == 1 and page.count('id="share-edit"') == 1


def test_a_viewer_sees_only_the_view_code(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    page = text(app.test_client().get(f"/games/{game['id']}/hand"))
    assert "Follow on another phone" in page
    assert QR.findall(page) == ["QR code of the view-only address"]
    assert "join#key" not in page and game["edit_key"] not in page
    assert "Make a new edit key" not in page and f'action="/games/{game["id"]}/key"' not in page


def test_the_edit_code_lets_another_phone_record_cards(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    phone = app.test_client()
    before = text(phone.get(f"/games/{game['id']}/hand"))
    assert "View only" in before and 'class="lead-form"' not in before
    response = join(phone, game["id"], game["edit_key"], follow_redirects=True)
    assert response.status_code == 200
    assert response.request.path == f"/games/{game['id']}/hand"
    page = text(response)
    assert "View only" not in page and 'class="lead-form"' in page
    assert len(QR.findall(page)) == 2


def test_a_new_key_from_the_hand_page_locks_out_the_old_one(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    give_key(client, game)
    other = app.test_client()
    assert join(other, game["id"], game["edit_key"]).status_code == 303

    response = client.post(f"/games/{game['id']}/key", data={"csrf_token": read_csrf_token(client)})
    assert response.status_code == 303
    cookie = next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("edit_key="))
    new_key = cookie.split(";", 1)[0].removeprefix("edit_key=")
    assert new_key and new_key != game["edit_key"]
    followed = client.get(response.headers["Location"], follow_redirects=True)
    assert followed.request.path == f"/games/{game['id']}/hand"
    page = text(followed)
    assert f"join#key={new_key}" in page and game["edit_key"] not in page and 'class="lead-form"' in page

    assert "View only" in text(other.get(f"/games/{game['id']}/hand"))
    play = {"type": "play", "player": "Bob", "card": "7H"}
    refused = client.post(f"/api/games/{game['id']}/events", json=play, headers={"X-Edit-Key": game["edit_key"]})
    assert refused.status_code == 403
    accepted = client.post(f"/api/games/{game['id']}/events", json=play, headers={"X-Edit-Key": new_key})
    assert accepted.status_code == 201


def test_the_hand_page_of_an_unknown_or_rummy_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/games/nope/hand").status_code == 404
    rummy = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/games/{rummy['id']}/hand").status_code == 404


# ---------------------------------------------------------------- print and export


def test_every_print_and_export_link_of_the_hand_page_works(app: Flask, client: FlaskClient) -> None:
    game = create(client, chips=30)
    settle = {
        "type": "settle",
        "winner": "Bob",
        "cards_left": {"Ann": 3, "Bob": 0, "Cy": 2, "Dee": 1, "Eve": 4},
        "paid": {"Ann": 1},
    }
    response = client.post(f"/api/games/{game['id']}/events", json=settle, headers={"X-Edit-Key": game["edit_key"]})
    assert response.status_code == 201
    page = text(app.test_client().get(f"/games/{game['id']}/hand"))  # a viewer can print and export too
    section = page[page.index('id="print"') : page.index("</section>", page.index('id="print"'))]
    links = hrefs(section)
    base = f"/games/{game['id']}"
    expected = [
        f"{base}/sheet.pdf?paper=a4",
        f"{base}/sheet.pdf?paper=letter",
        f"{base}/sheet",
        f"{base}/export.csv",
        f"{base}/export.json",
        "/sheets?preset=play-or-pay",
    ]
    assert [link for link in links if not link.startswith("/static/")] == expected
    reader = app.test_client()
    answers = {link: reader.get(link) for link in expected}
    assert all(answer.status_code == 200 for answer in answers.values())

    for paper in ("a4", "letter"):
        pdf = answers[f"{base}/sheet.pdf?paper={paper}"]
        assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF-")
    assert answers[f"{base}/sheet.pdf?paper=a4"].data != answers[f"{base}/sheet.pdf?paper=letter"].data
    tally = plain(answers[f"{base}/sheet"])
    assert "Play or Pay chip tally" in tally and all(name in tally for name in PLAYERS)

    csv = answers[f"{base}/export.csv"]
    assert csv.mimetype == "text/csv" and "attachment" in csv.headers["Content-Disposition"]
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0].startswith("hand,dealer,went_out,quick,Ann chips,Ann balance")
    assert lines[1] == "1,Ann,Bob,yes,-4,26,11,41,-2,28,-1,29,-4,26"

    exported = answers[f"{base}/export.json"]
    assert exported.mimetype == "application/json"
    data = json.loads(exported.get_data(as_text=True))
    assert data["game"]["variant"] == "play-or-pay" and data["game"]["money"] == {"chips": 30}
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201
    assert imported.get_json()["chips"] == {"Ann": 26, "Bob": 41, "Cy": 28, "Dee": 29, "Eve": 26}

    blank = text(answers["/sheets?preset=play-or-pay"])
    assert '<option value="play-or-pay" selected>' in blank
    assert reader.get("/sheets/play-or-pay.pdf?players=Ann,Bob,Cy").data.startswith(b"%PDF-")
