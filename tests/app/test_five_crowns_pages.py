"""Five Crowns on the pages (issue 29, RULES.md 10): the new-game page with its trademark line and
house rules, each round's panel, round entry checked against the round's most possible points,
"score from the cards", the checker, the rules page, the score sheets (page, PDF, blank), the CSV
export and the import, and the card picker's deck on every card field. Every route and error."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from engine.penalties import max_points
from engine.rules import OPTION_SPECS, PRESETS, rule_set
from engine.schedule import round_info
from tests.app.test_contract_rummy_pages import alert, page_of, pdftotext, plain
from tests.app.test_groups_pages import make_group
from tests.app.test_sheet_routes import pdf_of
from tests.conftest import api_game, edit_key

Post = Callable[..., Any]
FC = "five-crowns"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TRADEMARK = "Five Crowns® is a trademark of its publisher; this companion is not affiliated."
FC_OPTIONS = (
    "distinct_suit_sets",
    "wild_limit",
    "no_adjacent_wilds",
    "wild_in_place_natural",
    "lay_offs",
    "discard_to_go_out",
)
FC_PICKER = 'data-suits="S H D C R" data-ranks="3 4 5 6 7 8 9 10 J Q K"'


def start(post_form: Post, **options: str) -> str:
    """A 4-player game started on the new-game page (Ann deals first); its id."""
    form = {"variant": FC, "players": "\n".join(PLAYERS), "first_dealer": "0", "opt_discard_to_go_out": "y", **options}
    made = post_form("/games/new", form)
    assert made.status_code == 303, made.get_data(as_text=True)[:500]
    return str(made.headers["Location"].rsplit("/", 1)[1])


def save_round(client: FlaskClient, game: dict[str, Any], went_out: str, scores: dict[str, int]) -> dict[str, Any]:
    body = {"went_out": went_out, "scores": {went_out: 0, **scores}}
    saved = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert saved.status_code == 201, saved.get_json()
    state: dict[str, Any] = saved.get_json()
    return state


# ---------------------------------------------------------------- the new-game page


def test_the_new_game_page_offers_five_crowns_with_its_trademark_line(client: FlaskClient) -> None:
    everyone = page_of(client.get("/games/new"))
    assert f'href="/games/new?variant={FC}"' in everyone and "2–7 players" in plain(everyone)
    assert TRADEMARK not in html.unescape(everyone)  # only where the game is named
    page = page_of(client.get(f"/games/new?variant={FC}"))
    words = plain(page)
    assert TRADEMARK in words
    assert PRESETS[FC].summary in words
    assert "(2 to 7)" in words


def test_the_new_game_page_shows_only_the_house_rules_five_crowns_takes(client: FlaskClient) -> None:
    page = page_of(client.get(f"/games/new?variant={FC}"))
    for key in FC_OPTIONS:
        spec = OPTION_SPECS[key]
        assert f'name="opt_{key}"' in page, key
        assert html.escape(spec.title, quote=False) in page
    for key in ("full_cycle", "no_aces_in_runs", "ace", "penalty_table", "double_rounds"):
        assert f'name="opt_{key}"' not in page, key
    assert re.search(r'<input checked id="opt_discard_to_go_out"', page)  # on by default (D-FC4)
    assert not re.search(r'<input checked id="opt_lay_offs"', page)
    for key in FC_OPTIONS:  # the page names each house rule in words, never by its key
        assert key not in plain(re.sub(r'(name|id|for)="[^"]*"', "", page))


def test_a_game_started_on_the_page(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form, opt_lay_offs="y")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["variant"] == FC and state["players"] == PLAYERS
    assert state["options"]["lay_offs"] is True and state["options"]["discard_to_go_out"] is True


def test_eight_players_are_refused_in_one_sentence(client: FlaskClient, post_form: Post) -> None:
    names = "\n".join(f"P{number}" for number in range(1, 9))
    refused = post_form("/games/new", {"variant": FC, "players": names, "first_dealer": "0"})
    assert refused.status_code == 400
    assert "2 to 7 players" in plain(page_of(refused, 400))
    assert client.get("/api/games").status_code in (200, 403)


# ---------------------------------------------------------------- each round's panel


def test_the_round_panel_gives_the_deal_and_the_wild_rank_as_cards(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    page = page_of(client.get(f"/games/{game_id}"))
    words = plain(page)
    rules = rule_set(FC)
    first = round_info(rules, 1)
    assert "3 cards each" in words and first.wild_words in words
    assert re.search(r"<dt>Dealer</dt><dd>Ann</dd>", page) and re.search(r"<dt>Plays first</dt><dd>Bob</dd>", page)
    assert "2 decks + 6 jokers" in words
    assert PRESETS[FC].discard_pile_text in words
    # A wild rank in every suit of the deck: the four suits and the stars, stars in a colour of their own.
    chip = re.search(r'<span class="chip" title="3 of every suit">(.*?)</span>\s*</span>', page, re.S)
    assert chip, page[page.index("Wild") :][:800]
    assert '<link rel="stylesheet" href="/static/css/stars.css">' in page  # the stars' colour
    pay_me = post_form("/games/new", {"variant": "pay-me", "players": "Ann\nBob", "first_dealer": "0"})
    other = page_of(client.get(pay_me.headers["Location"]))
    assert "stars.css" not in other and "★" not in other  # nothing more to load on a game without stars
    assert re.findall(r'<span class="suit ?([a-z]*)">(.)', chip.group(1)) == [
        ("", "♠"),
        ("red", "♥"),
        ("red", "♦"),
        ("", "♣"),
        ("star", "★"),
    ]


def test_each_round_has_its_own_wild_rank(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    rules = rule_set(FC)
    for number, went_out in enumerate(["Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann", "Bob", "Cy"], start=1):
        state = save_round(client, game, went_out, {name: number for name in PLAYERS if name != went_out})
        plan = state["next_round"]
        info = round_info(rules, number + 1)
        assert plan["cards"] == number + 3 and plan["wild"] == list(info.wild_tokens)
        assert plan["dealer"] == PLAYERS[number % 4] and plan["first_player"] == PLAYERS[(number + 1) % 4]
    page = plain(page_of(client.get(f"/games/{game['id']}")))
    assert "13 cards each" in page and round_info(rules, 11).wild_words in page


# ---------------------------------------------------------------- round entry


def test_a_score_above_the_rounds_most_possible_points_is_refused(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    rules = rule_set(FC)
    most = max_points(rules, round_info(rules, 1), 4)
    entry = page_of(client.get(f"/games/{game_id}/rounds/new"))
    assert "css/stars.css" in entry and '<span class="suit star">★</span>' in entry
    form = {"went_out": "Bob", "scores-0": str(most + 1), "scores-1": "0", "scores-2": "5", "scores-3": "0"}
    refused = post_form(f"/games/{game_id}/rounds/new", form)
    assert refused.status_code == 400
    sentence = alert(page_of(refused, 400))
    assert "Ann" in sentence and str(most) in sentence
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"] == []
    form["scores-0"] = str(most)
    assert post_form(f"/games/{game_id}/rounds/new", form).status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["totals"]["Ann"] == most


# ---------------------------------------------------------------- score from the cards


def test_score_from_the_cards_reads_stars_and_the_rounds_wild_rank(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    page = page_of(client.get(f"/games/{game_id}/rounds/cards"))
    assert page.count(FC_PICKER) >= 5  # the declarer's melds and each player's hand
    assert "Five Crowns has no lay-offs" in plain(page)
    form = {
        "went_out": "Bob",
        "meld-0": "4R 5R 6R",
        "hand-0": "3H 3S KD",  # 3s wild: a book of Kings, 0
        "points-1": "",
        "hand-2": "4H 5S 9R",  # 18
        "hand-3": "JK 10R QR",  # a joker in a run, 0
        "action": "preview",
    }
    preview = post_form(f"/games/{game_id}/rounds/cards", form)
    words = plain(page_of(preview))
    assert "Best: 18" in words and "Best: 0" in words
    assert 'class="dp-card star">9★</span>' in page_of(preview)
    saved = post_form(f"/games/{game_id}/rounds/cards", {**form, "action": "save"})
    assert saved.status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == {"Ann": 0, "Bob": 0, "Cy": 18, "Dee": 0}


def test_score_from_the_cards_refuses_an_ace_naming_it(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    form = {"went_out": "Bob", "hand-0": "AH 5S 9R", "hand-2": "4H", "hand-3": "5H", "action": "save"}
    refused = post_form(f"/games/{game_id}/rounds/cards", form)
    assert refused.status_code == 400
    assert '"A♥" is not a card of Five Crowns' in html.unescape(alert(page_of(refused, 400)))
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"] == []


def test_a_star_card_in_another_game_is_refused_naming_it(client: FlaskClient, post_form: Post) -> None:
    made = post_form("/games/new", {"variant": "pay-me", "players": "Ann\nBob\nCy", "first_dealer": "0"})
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    page = page_of(client.get(f"/games/{game_id}/rounds/cards"))
    assert 'data-suits="S H D C" data-ranks="A 2 3 4 5 6 7 8 9 10 J Q K"' in page
    refused = post_form(f"/games/{game_id}/rounds/cards", {"went_out": "Bob", "hand-0": "7R 8S", "hand-2": "4H"})
    assert refused.status_code == 400
    assert '"7★" is not a card of Pay Me: its deck has no stars' in html.unescape(alert(page_of(refused, 400)))


# ---------------------------------------------------------------- the checker


def test_the_checker_judges_going_out_and_the_last_turn(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    checker = page_of(client.get(f"/games/{game_id}/check?round=1"))
    assert FC_PICKER in checker
    going_out = post_form(
        f"/games/{game_id}/rounds/1/declarer", {"declarer": "Bob", "meld-0": "7R 8R JK", "discard": "KS"}
    )
    assert going_out.status_code == 303
    chain = page_of(client.get(going_out.headers["Location"]))
    words = plain(chain)
    assert "Bob goes out" in words
    assert "Five Crowns has no lay-offs: after Bob went out, each other player (Cy, Dee, Ann)" in words
    # Each other player's last-turn melds, checked with the round's wilds and kept in the log.
    last_turn = {"round": "1", "action": "melds", "meld-0": "QR QS 3H", "meld-1": "9R 10R"}
    melds = post_form(f"/games/{game_id}/check", last_turn)
    assert melds.status_code == 303
    result = plain(page_of(client.get(melds.headers["Location"])))
    assert "Q★ Q♠ 3♥ legal set read as Q★ Q♠ Q♥ (3♥ as Q♥)" in result
    assert "9★ 10★ not legal : 9★ 10★: a meld needs at least 3 cards" in result
    bad = post_form(f"/games/{game_id}/check", {"round": "1", "action": "melds", "meld-0": "AS AH AD"})
    assert bad.status_code == 400 and '"A♠"' in html.unescape(alert(page_of(bad, 400)))


def test_the_standalone_checker_takes_five_crowns(client: FlaskClient) -> None:
    page = page_of(client.get(f"/check?variant={FC}&round=5&meld-0=9D+7C+JD&meld-1=8C+8R+8S&hand=4H+5S+9C+KR"))
    words = plain(page)
    assert f'<option value="{FC}" selected>Five Crowns</option>' in page
    assert FC_PICKER in page
    assert "read as 9♦ 10♦ J♦" in words.lower() or "Read as 9♦ 10♦ J♦" in words
    assert "8♣ 8★ 8♠" in words
    refused = page_of(client.get(f"/check?variant={FC}&round=12&meld-0=9D+7C+JD"), 400)
    assert "12" in alert(refused)
    ace = page_of(client.get(f"/check?variant={FC}&round=1&hand=AS+5S+5D"), 400)
    assert '"A♠" is not a card of Five Crowns' in html.unescape(alert(ace))


# ---------------------------------------------------------------- the rules page


def test_the_rules_page_says_the_rules_in_words(client: FlaskClient) -> None:
    index = page_of(client.get("/rules"))
    assert f'href="/rules/{FC}"' in index
    page = page_of(client.get(f"/rules/{FC}"))
    words = plain(page)
    assert TRADEMARK in words
    assert "Players 2–7" in words and "2–7 2 6" in words  # two packs and six jokers for every table
    assert "Each deck: the suits ♠ ♥ ♦ ♣ ★, Three to King, 55 cards." in words
    assert words.count("Jokers") >= 1 and "Kings" in words
    rounds = page[page.index('id="rounds-h"') : page.index('id="penalty-h"')]
    rows = re.findall(r'<tr><th scope="row">(\d+)</th><td>(\d+)</td>', rounds)
    assert [(int(number), int(cards)) for number, cards in rows] == [(n, n + 2) for n in range(1, 12)]
    for decision in rule_set(FC).decisions():
        assert f"<h3>{decision.id} — {html.escape(decision.title, quote=False)}</h3>" in page
    without_headings = plain(re.sub(r"<h3>.*?</h3>", "", page, flags=re.S))
    assert not re.search(r"\bD(-FC)?\d+\b", without_headings)
    for key in FC_OPTIONS:
        assert f'id="option-{key}"' in page
    for key in ("full_cycle", "ace", "double_rounds"):
        assert f'id="option-{key}"' not in page


def test_the_rules_page_refuses_an_option_five_crowns_does_not_take(client: FlaskClient) -> None:
    words = plain(page_of(client.get(f"/rules/{FC}?full_cycle=true")))
    assert "House rules changed" not in words  # another preset's house rule in the query is not Five Crowns'
    refused = client.get(f"/rules/{FC}?lay_offs=maybe")
    assert refused.status_code == 400 and "maybe" in alert(page_of(refused, 400))


# ---------------------------------------------------------------- sheets, export and import


def test_the_score_sheet_page_and_pdf(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    save_round(client, game, "Bob", {"Ann": 150, "Cy": 12, "Dee": 3})
    sheet = page_of(client.get(f"/games/{game['id']}/sheet"))
    words = plain(sheet)
    assert "Five Crowns" in words and "150" in words
    pdf = client.get(f"/games/{game['id']}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdftotext(pdf.get_data())
    assert "Five Crowns" in text and "150" in text and "Dee" in text
    assert len(pdf_of(pdf).pages) == 1


def test_the_blank_sheet_page_and_pdf(client: FlaskClient) -> None:
    page = page_of(client.get(f"/sheets/{FC}?players=Ann,Bob,Cy,Dee"))
    words = plain(page)
    assert "Five Crowns" in words and "Dee" in words
    rows = re.findall(
        r'<th class="round" scope="row">(\d+)</th>\s*<td class="cards">(\d+)</td>\s*<td class="wild">([^<]*)</td>', page
    )
    assert [(int(number), int(cards)) for number, cards, _ in rows] == [(n, n + 2) for n in range(1, 12)]
    assert rows[0][2] == "Jkr, 3" and rows[10][2] == "Jkr, K"
    index = page_of(client.get("/sheets"))
    assert f'<option value="{FC}">Five Crowns (2–7 players)</option>' in index
    chosen = client.get(f"/sheets/print?preset={FC}&players=Ann,Bob")
    assert chosen.status_code in (302, 303) and f"/sheets/{FC}.pdf" in chosen.headers["Location"]
    pdf = client.get(f"/sheets/{FC}.pdf?players=Ann,Bob,Cy,Dee")
    assert pdf.status_code == 200
    assert "Five Crowns" in pdftotext(pdf.get_data())
    too_many = client.get(f"/sheets/{FC}?players=" + ",".join(f"P{n}" for n in range(1, 9)))
    assert too_many.status_code == 400 and "2 to 7 players" in alert(page_of(too_many, 400))


def test_csv_and_json_exports_and_the_import_page(client: FlaskClient, post_form: Post) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    save_round(client, game, "Cy", {"Ann": 20, "Bob": 7, "Dee": 50})
    csv = client.get(f"/games/{game['id']}/export.csv")
    assert csv.status_code == 200
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[1].startswith("1,3,JK 3,1,Ann,Cy,20,20,20,7,7,7,0,0,0,50,50,50")
    document = client.get(f"/games/{game['id']}/export.json")
    assert document.status_code == 200
    data = document.get_data()
    imported = post_form("/games/import", {"document": (io.BytesIO(data), "game.json")})
    assert imported.status_code == 303, imported.get_data(as_text=True)[:500]
    copy_id = imported.headers["Location"].rsplit("/", 1)[1]
    copy = client.get(f"/api/games/{copy_id}").get_json()
    assert copy["variant"] == FC and copy["totals"] == {"Ann": 20, "Bob": 7, "Cy": 0, "Dee": 50}


# ---------------------------------------------------------------- groups


def test_a_group_page_starts_a_five_crowns_game_and_counts_it(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    page = page_of(client.get(f"/groups/{group_id}"))
    assert f'<option value="{FC}">Five Crowns</option>' in page
    started = post_form(f"/groups/{group_id}/games", {"variant": FC, "players": "Ann\nBob\nCy\nDee"})
    assert started.status_code == 303
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["group"] == group_id
    listed = plain(page_of(client.get(f"/groups/{group_id}")))
    assert "Five Crowns" in listed and "Not finished" in listed
    eight = "\n".join(f"P{number}" for number in range(1, 9))
    refused = post_form(f"/groups/{group_id}/games", {"variant": FC, "players": eight})
    assert refused.status_code == 400 and "2 to 7 players" in plain(page_of(refused, 400))
