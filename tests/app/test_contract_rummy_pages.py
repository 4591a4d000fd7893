"""Contract Rummy's pages (issue 15): the rules page, the blank sheet (page and PDF), a game's sheet with
each deal's contract in its row, and the checker's going-down and lay-off checks. Every route and error."""

from __future__ import annotations

import html
import re
import subprocess
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game
from companion.services import sheets
from engine.rules import DECISIONS, OPTION_SPECS, PRESETS, rule_set
from engine.schedule import schedule
from tests.app.test_sheet_routes import error_page, pdf_of, size_of
from tests.app.test_sheets import game_state

CONTRACTS = {
    1: "two sets",
    2: "one set and one run",
    3: "two runs",
    4: "three sets",
    5: "two sets and one run",
    6: "one set and two runs",
    7: "three runs",
}
PRESET = PRESETS["contract-rummy"]
COUNTS = {"one": 1, "two": 2, "three": 3}


def kinds_of(contract: str) -> list[str]:
    """``one set and two runs`` → ["run", "run", "set"]."""
    kinds = []
    for part in contract.split(" and "):
        count, noun = part.split()
        kinds += [noun.removesuffix("s")] * COUNTS[count]
    return sorted(kinds)


def page_of(response: Any, status: int = 200) -> str:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    body: str = response.get_data(as_text=True)
    return body


def plain(page: str) -> str:
    """The page's words, without tags, on one line."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))).replace(" .", ".")


def alert(page: str) -> str:
    """The one sentence of a page's alert."""
    found = re.search(r'<p class="alert" role="alert"[^>]*>([^<]*)</p>', page)
    assert found, page[:500]
    sentence = html.unescape(found.group(1))
    assert sentence.endswith(".") and sentence.count(". ") == 0, sentence
    return sentence


def pdftotext(data: bytes) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return done.stdout.decode()


# ---------------------------------------------------------------- the rules page


def test_the_rules_index_lists_contract_rummy(client: FlaskClient) -> None:
    page = page_of(client.get("/rules"))
    assert 'href="/rules/contract-rummy"' in page and "Contract Rummy" in page


def test_the_rules_page_gives_each_deal_its_cards_and_contract_in_words_and_pictures(client: FlaskClient) -> None:
    page = page_of(client.get("/rules/contract-rummy"))
    words = plain(page)
    assert "Contract Rummy rules" in words and PRESET.summary in words
    table = page[page.index('id="deals-h"') : page.index('id="melds-h"')]
    rows = re.findall(r'<tr id="deal-(\d)"><th scope="row">\d</th><td>(\d+)</td><td>(.*?)</td></tr>', table, re.S)
    assert [(int(number), int(cards)) for number, cards, _ in rows] == [(n, 10 if n <= 4 else 12) for n in range(1, 8)]
    for number, _cards, cell in rows:
        contract = CONTRACTS[int(number)]
        assert f'<span class="cr-words">{contract.capitalize()}</span>' in cell
        fans = re.findall(r'<span class="fan fan-(set|run)" role="img" aria-label="a \1: [a-z ]+"', cell)
        assert sorted(fans) == kinds_of(contract)
        assert '<span class="fan-card' in cell and 'aria-hidden="true"' in cell  # each fan is read by its words
    assert table.count('<span class="fan-card red" aria-hidden="true">') > 0
    assert "To go out, play every card: no final discard." in plain(rows[6][2])
    assert "no final discard" not in plain(rows[5][2])
    # A run in the pictures has the game's run length; a set three cards.
    card = r'<span class="fan-card[^"]*" aria-hidden="true">[^<]+<br>[^<]+</span>'
    run = '<span class="fan fan-run" role="img" aria-label="a run: four or more cards of one suit in sequence">'
    assert re.search(run + "(" + card + "){4}</span>", table)
    a_set = '<span class="fan fan-set" role="img" aria-label="a set: three or more cards of one rank">'
    assert re.search(a_set + "(" + card + "){3}</span>", table)


def test_the_rules_page_covers_section_9_in_plain_words(client: FlaskClient) -> None:
    words = plain(page_of(client.get("/rules/contract-rummy")))
    for fact in (
        "Players 3–8",
        "3–4 2 4 5–8 3 6",  # decks and jokers by table size
        "A run is 4 or more cards of one suit in sequence",
        "A set is 3 or more cards of one rank",
        "A-2-3-4 and J-Q-K-A are both runs, but one run never uses an ace at both ends",
        "K-A-2 is not a run",
        "Jokers are wild",
        "it needs at least one natural card",
        "side by side too",
        "lay down exactly the melds of the deal's contract",
        "no extra melds",
        "In deal 7, going down is going out",
        "Only after going down, on later turns, a player may add cards to any meld on the table: "
        "their own or another player's",
        "A card laid off never replaces a wild card",
        "take the top discard together with one extra card from the stock",
        "Each player buys at most 3 times a deal",
        "held cards count in full",
        "After the 7 deals, the lowest total wins",
    ):
        assert fact in words, fact
    assert "A 15" in words and "Joker 15" in words and "K 10" in words and "7 7" in words
    assert "Exact cut (a house rule, not played here): a player who cuts the deck" in words
    assert "Joker swap (a house rule, not played here): A player who has gone down may take a joker" in words


def test_house_rules_change_the_page(client: FlaskClient) -> None:
    query = "twos_wild=true&joker_swap=true&ace_points=20&joker_points=25&buys_per_deal=1&exact_cut=true"
    page = page_of(client.get(f"/rules/contract-rummy?{query}&deal_sizes=11"))
    words = plain(page)
    assert "House rules changed from the preset:" in words
    assert "Jokers and 2s are wild" in words
    assert "Joker swap (a house rule, played here): A player who has gone down may take a joker" in words
    assert "A card laid off never replaces a wild card" not in words
    assert "A 20" in words and "Joker 25" in words and "2 (wild) 2" in words
    assert "Each player buys at most 1 time a deal" in words
    assert "Exact cut (a house rule, played here)" in words
    assert "scores −50 that deal: 50 points come off what their cards score" in words
    assert re.findall(r'<tr id="deal-\d"><th scope="row">\d</th><td>(\d+)</td>', page) == ["11"] * 7
    nobody = plain(page_of(client.get("/rules/contract-rummy?buys_per_deal=0")))
    assert "This game is played without buying" in nobody and "None: this game is played without buying" in nobody


def test_the_house_rules_shown_are_the_presets_own(client: FlaskClient) -> None:
    page = page_of(client.get("/rules/contract-rummy"))
    section = page[page.index('id="options-h"') :]
    for spec in rule_set("contract-rummy").option_specs():
        assert f'id="option-{spec.key}"' in section
        assert spec.title in section and html.escape(spec.effect, quote=False) in section
    for spec in OPTION_SPECS.values():  # the other presets' house rules are not Contract Rummy's
        assert f'id="option-{spec.key}"' not in page
    assert section.count('class="dp-decision') == len(PRESET.option_keys)


def test_decision_codes_and_option_keys_appear_only_in_headings(client: FlaskClient) -> None:
    page = page_of(client.get("/rules/contract-rummy?twos_wild=true"))
    for decision in rule_set("contract-rummy").decisions():
        assert f"<h3>{decision.id} — {html.escape(decision.title, quote=False)}</h3>" in page
        assert DECISIONS[decision.id].id == decision.id
    without_headings = re.sub(r"<h3>.*?</h3>", "", page, flags=re.S)
    words = plain(re.sub(r"<[^>]+>", " ", without_headings))
    assert not re.search(r"\bD\d+\b", words)
    for key in PRESET.option_keys:
        assert key not in words, key


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/rules/contract-rummy?twos_wild=maybe", 400, 'Twos wild: on or off, not "maybe"'),
        ("/rules/contract-rummy?buys_per_deal=99", 400, 'Buys per deal: a whole number from 0 to 20, not "99"'),
        ("/rules/contract-rummy?deal_sizes=10,12", 400, "Cards dealt: one number for every deal or 7 numbers"),
    ],
)
def test_rules_page_errors_are_one_sentence(client: FlaskClient, url: str, status: int, message: str) -> None:
    sentence = alert(page_of(client.get(url), status))
    assert message.lower() in sentence.lower(), sentence


def test_an_unknown_rules_page_is_a_404(client: FlaskClient) -> None:
    assert 'There is no preset "contract-rumy"' in html.unescape(page_of(client.get("/rules/contract-rumy"), 404))


def test_other_presets_house_rules_in_the_query_are_not_contract_rummys(client: FlaskClient) -> None:
    words = plain(page_of(client.get("/rules/contract-rummy?full_cycle=true")))
    assert "House rules changed" not in words and "The 7 deals" in words


# ---------------------------------------------------------------- blank sheets


def test_the_blank_sheet_pdf_prints_each_deals_contract_in_its_row(client: FlaskClient) -> None:
    response = client.get("/sheets/contract-rummy.pdf?players=Ann,Bob,Cy,Dee")
    reader = pdf_of(response)
    assert size_of(reader) == (595, 842)
    assert response.headers["Content-Disposition"] == 'inline; filename="contract-rummy-blank-sheet.pdf"'
    text = pdftotext(response.data)
    assert "Contract Rummy score sheet" in text and "7 deals" in text
    assert "Contract" in text and "Wild in every deal: Jkr" in text
    # Each row starts with the deal, its cards and its contract (long ones wrap onto the line above).
    lines = text.splitlines()
    for number, contract in CONTRACTS.items():
        cards = "10" if number <= 4 else "12"
        at = next(index for index, line in enumerate(lines) if line.split()[:2] == [str(number), cards])
        near = " ".join(
            " ".join(line.split()[2:] if index == at else line.split())
            for index, line in enumerate(lines[at - 1 : at + 2], start=at - 1)
        )
        assert all(word in near.replace(";", " ").split() for word in contract.split()), (contract, near)
    assert "no discard" in " ".join(text.split())  # deal 7, wrapped in its cell
    assert text.count("Points") == 4 and "Ann" in text and "Dee" in text


def test_the_blank_sheet_pdf_keeps_each_contract_next_to_its_deal_number() -> None:
    html_sheet = sheets.blank_sheet_html("contract-rummy", [""] * 5)
    rows = re.findall(
        r'<th class="round" scope="row">(\d)</th>\s*<td class="cards">(\d+)</td>\s*'
        r'<td class="wild contract">([^<]*)</td>',
        html_sheet,
    )
    assert [(int(number), contract) for number, _cards, contract in rows] == [
        (number, contract + ("; out with no discard" if number == 7 else "")) for number, contract in CONTRACTS.items()
    ]


def test_the_blank_sheet_follows_the_house_rules() -> None:
    text = pdftotext(sheets.blank_sheet_pdf("contract-rummy", ["Ann", "Bob", "Cy"], "letter", {"deal_sizes": "11"}))
    assert "Cards dealt: 11, 11, 11, 11, 11, 11, 11" in text
    assert [line.split()[1] for line in text.splitlines() if re.match(r"\s*[1-7]\s+\d+\s", line)] == ["11"] * 7


def test_the_blank_sheet_page_links_its_pdfs(client: FlaskClient) -> None:
    page = page_of(client.get("/sheets/contract-rummy?players=Ann,Bob,Cy"))
    assert '<link rel="stylesheet" href="/static/css/print.css">' in page
    assert 'href="/sheets/contract-rummy.pdf?players=Ann,Bob,Cy&amp;paper=a4"' in page
    assert 'href="/sheets/contract-rummy.pdf?players=Ann,Bob,Cy&amp;paper=letter"' in page
    assert 'href="/sheets?preset=contract-rummy"' in page
    assert '<td class="wild contract">three runs; out with no discard</td>' in page
    assert "style=" not in page and "<script" not in page
    assert page_of(client.get("/sheets/pay-me")).count('<td class="wild">') == 11
    assert "Play or Pay chip tally" in page_of(client.get("/sheets/play-or-pay"))


def test_the_sheets_form_offers_contract_rummy_and_leads_to_its_pdf(client: FlaskClient) -> None:
    assert '<option value="contract-rummy">Contract Rummy (3–8 players)</option>' in page_of(client.get("/sheets"))
    response = client.get("/sheets/print?preset=contract-rummy&paper=a4&players=&blanks=4")
    assert response.status_code == 303
    assert response.headers["Location"] == "/sheets/contract-rummy.pdf?players=,,,&paper=a4"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("/sheets/contract-rummy.pdf?players=Ann,Bob", "Contract Rummy takes 3 to 8 players, not 2"),
        ("/sheets/contract-rummy?players=" + ",".join("ABCDEFGHI"), "Contract Rummy takes 3 to 8 players, not 9"),
        ("/sheets/contract-rummy?paper=legal", 'Paper must be "a4" or "letter"'),
        ("/sheets/contract-rumy", "There is no game called that"),
        ("/sheets/contract-rummy?players=An%0An,Bob,Cy", "line break"),
    ],
)
def test_bad_blank_sheet_requests_are_400_pages(client: FlaskClient, url: str, words: str) -> None:
    sentence = error_page(client.get(url))
    assert words in sentence, sentence


# ---------------------------------------------------------------- a game's sheet


def contract_game(played: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Contract Rummy game's state after `played` deals, its options as the app stores them (the preset's own)."""
    state = game_state("pay-me", ["Ann", "Bob", "Cy", "Dee"], played)
    rules = rule_set("contract-rummy", options or {})
    rounds = [
        {**info.as_json(), **{key: value for key, value in played_round.items() if key not in info.as_json()}}
        for info, played_round in zip(schedule(rules), state["rounds"], strict=False)
    ]
    return state | {"variant": "contract-rummy", "options": rules.options_json(), "rounds": rounds}


def test_a_games_sheet_shows_each_deals_contract_in_its_row() -> None:
    state = contract_game(3)
    page = sheets.game_sheet_html(state)
    rows = re.findall(
        r'<th class="round" scope="row">(\d)</th>\s*<td class="cards">\d+</td>\s*'
        r'<td class="wild contract">([^<]*)</td>',
        page,
    )
    assert [int(number) for number, _ in rows] == list(range(1, 8))
    assert [contract for _, contract in rows][:6] == [CONTRACTS[number] for number in range(1, 7)]
    assert rows[6][1] == "three runs; out with no discard"
    assert '<th class="wild" scope="col">Contract</th>' in page
    text = pdftotext(sheets.game_sheet_pdf(state))
    assert "3 of 7 deals played" in text and "Wild in every deal: Jkr" in text
    assert " round" not in text.lower().replace("rummy", "")  # Contract Rummy says "deal" (issue 27)
    assert "two sets" in text and "one set and two" in text


def test_the_other_presets_sheets_keep_their_wild_column() -> None:
    page = sheets.game_sheet_html(game_state("pay-me", ["Ann", "Bob"], 2))
    assert '<th class="wild" scope="col">Wild</th>' in page and 'class="wild contract"' not in page
    assert "Wild in every deal" not in page


def test_a_games_sheet_lists_its_contract_house_rules() -> None:
    page = sheets.game_sheet_html(contract_game(1, {"twos_wild": True, "buys_per_deal": 2}))
    assert "Twos wild: yes" in page and "Buys per deal: 2" in page
    assert "Wild in every deal: Jkr, 2" in page
    assert [info.cards for info in schedule(rule_set("contract-rummy"))] == [10, 10, 10, 10, 12, 12, 12]


# ---------------------------------------------------------------- the checker


def check(client: FlaskClient, status: int = 200, **fields: str) -> str:
    return page_of(client.get("/check", query_string={"variant": "contract-rummy", **fields}), status)


def test_the_checker_has_a_contract_mode_for_contract_rummy_only(client: FlaskClient) -> None:
    page = check(client, round="3")
    assert 'data-mode="contract"' in page
    words = plain(page)
    assert "Going down: the melds laid down" in words and "Laying off, after going down" in words
    assert "Contract Rummy deal 3: 10 cards, contract two runs" in words
    assert page.count('<span class="fan fan-run" role="img"') == 2
    assert 'href="/rules/contract-rummy"' in page
    for variant in ("pay-me", "3-13"):
        other = page_of(client.get("/check", query_string={"variant": variant, "round": "3"}))
        assert 'data-mode="contract"' not in other and "Melds to check" in other


def test_going_down_with_one_run_in_the_deal_of_two_runs(client: FlaskClient) -> None:
    page = check(client, round="3", **{"meld-0": "5H 6H 7H 8H"})
    words = plain(page)
    assert "✗ Not the contract" in words
    assert "Deal 3 needs two runs; this is one run" in words
    assert "5♥ 6♥ 7♥ 8♥" in words and "Legal run" in words


def test_going_down_with_the_contract(client: FlaskClient) -> None:
    page = check(client, round="3", **{"meld-0": "5H 6H 7H 8H", "meld-1": "9S 10S JK QS"})
    words = plain(page)
    assert "✓ Going down: this is the contract" in words
    assert "(🃏 as J♠)" in words


def test_going_down_twice_in_a_deal_is_refused_with_the_engines_reason(client: FlaskClient) -> None:
    melds = {"meld-0": "5H 6H 7H 8H", "meld-1": "9S 10S JK QS"}
    first = check(client, round="3", already="not-yet", **melds)
    assert "✓ Going down: this is the contract" in plain(first)
    assert '<option value="not-yet" selected>has not gone down this deal</option>' in first
    again = check(client, round="3", already="already", **melds)
    words = plain(again)
    assert "✗ May not go down again" in words and "This player has already gone down this deal" in words
    assert "✓ Going down" not in words
    assert '<option value="already" selected>has already gone down this deal</option>' in again
    # The melds are still judged one by one, and a lay-off on the same page is judged on its own.
    assert "Legal run" in words


def test_going_down_asks_whether_the_player_went_down_in_plain_words(client: FlaskClient) -> None:
    page = check(client, round="3")
    assert '<label for="already">The player going down</label>' in page
    bad = plain(check(client, 400, round="3", already="twice", **{"meld-0": "5H 6H 7H 8H"}))
    assert "Choose whether the player going down has already gone down this deal." in bad
    assert "already_down" not in bad


def test_an_illegal_meld_is_named_with_cards_as_symbols(client: FlaskClient) -> None:
    words = plain(check(client, round="2", **{"meld-0": "9C 9D 9S", "meld-1": "5H 6H 7H"}))
    assert "Meld 2 is not a legal meld: 5♥ 6♥ 7♥: a run needs at least 4 cards in this game" in words
    extra = plain(check(client, round="1", **{"meld-0": "9C 9D 9S", "meld-1": "KC KD JK", "meld-2": "4S 4H 4D"}))
    assert "Deal 1 needs two sets; these are three sets" in extra
    wilds = plain(check(client, round="1", **{"meld-0": "9C 9D 9S", "meld-1": "JK JK JK"}))
    assert "🃏 🃏 🃏 has only wild cards; a meld needs at least one natural card" in wilds


def test_laying_off_onto_another_players_meld_and_the_players_own(client: FlaskClient) -> None:
    table = {"table-0": "5H 6H 7H 8H", "table-1": "9S 10S JK QS"}
    page = check(client, round="3", onto="2", cards="KS", **table)
    words = plain(page)
    assert "✓ The lay-off is legal" in words
    assert "Laid off: K♠ on meld 2, at the high end" in words
    assert "9♠ 10♠ 🃏 Q♠ K♠" in words
    onto_joker = plain(check(client, round="3", onto="2", cards="JS", **table))
    assert "✗ The lay-off is not legal" in onto_joker
    assert "J♠ cannot be laid off on 9♠ 10♠ 🃏 as J♠ Q♠" in onto_joker
    low = plain(check(client, round="3", onto="1", cards="4H 3H", **table))
    assert "✓ The lay-off is legal" in low and "3♥ 4♥ 5♥ 6♥ 7♥ 8♥" in low


def test_only_a_player_down_on_an_earlier_turn_lays_off(client: FlaskClient) -> None:
    table = {"table-0": "5H 6H 7H 8H", "onto": "1", "cards": "9H"}
    assert "✓ The lay-off is legal" in plain(check(client, round="3", down="earlier", **table))
    not_yet = check(client, round="3", down="not-yet", **table)
    words = plain(not_yet)
    assert "✗ The lay-off is not legal" in words
    assert "This player has not gone down yet; only a player who has gone down lays off" in words
    assert "5♥ 6♥ 7♥ 8♥ 9♥" not in words and '<option value="not-yet" selected>' in not_yet
    this_turn = plain(check(client, round="3", down="this-turn", **table))
    assert "This player went down this turn; lay-offs start on this player's next turn" in this_turn


def test_the_cards_held_count_in_full(client: FlaskClient) -> None:
    words = plain(check(client, round="7", hand="AH KS JK 5C 5D 5H"))
    assert "The cards held score" in words and "55 points" in words
    assert "A♥ 15 + K♠ 10 + 🃏 15 + 5♣ 5 + 5♦ 5 + 5♥ 5 = 55" in words


def test_a_hand_grown_by_buys_fits_the_picker(client: FlaskClient) -> None:
    page = check(client, round="7")
    assert re.search(r'id="hand"[^>]*data-max-cards="19"', page)  # 12 dealt, 3 buys of 2, 1 drawn


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"round": "8"}, 400, "Round 8 does not exist: Contract Rummy has rounds 1 to 7"),
        ({"round": "x"}, 400, 'Deal must be a whole number, not "x"'),
        ({"round": "1", "meld-0": "9C 7X 9S"}, 400, '"7X" at position 2 is not a card'),
        ({"round": "1", "cards": "9H"}, 400, "Enter the melds on the table"),
        ({"round": "1", "table-0": "5H 6H 7H 8H"}, 400, "Enter the cards laid off"),
        ({"round": "1", "table-1": "5H 6H 7H 8H", "onto": "1", "cards": "9H"}, 400, "Meld 1 on the table is empty"),
        ({"round": "1", "table-0": "5H 6H 7H 8H", "onto": "9", "cards": "9H"}, 400, "from 1 to 4"),
        ({"round": "1", "table-0": "5H 6H 7H 8H", "cards": "9X"}, 400, '"9X" at position 1 is not a card'),
        ({"round": "1", "hand": "AH " * 61}, 400, "A hand holds at most 60 cards"),
        ({"round": "1", "table-0": "5H 6H 7H 8H", "cards": "9H", "down": "soon"}, 400, "Choose when the player"),
    ],
)
def test_checker_errors_are_one_sentence(
    client: FlaskClient, fields: dict[str, str], status: int, message: str
) -> None:
    sentence = alert(check(client, status, **fields))
    assert message in sentence, sentence


def test_an_unknown_variant_is_a_404(client: FlaskClient) -> None:
    response = client.get("/check", query_string={"variant": "contract-rumy"})
    assert response.status_code == 404
    assert "There is no preset" in response.get_data(as_text=True)


def test_the_checker_takes_the_house_rules_and_the_table_size(client: FlaskClient) -> None:
    swap = check(client, round="3", joker_swap="true", onto="1", cards="JS", **{"table-0": "9S 10S JK QS"})
    words = plain(swap)
    assert "Joker swap: J♠ takes the place of 🃏, and 🃏 goes back to the player's hand." in words
    assert "House rules: Joker swap on" in words and '<option value="true" selected>on</option>' in swap
    twos = plain(
        check(client, round="3", players="4", twos_wild="true", **{"meld-0": "2H 5H 6H 7H", "meld-1": "9S 10S 2C QS"})
    )
    assert "✓ Going down: this is the contract" in twos
    assert "Jokers and 2s wild · 2 decks + 4 jokers" in twos
    assert "(2♣ as J♠)" in twos


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"round": "3", "players": "x"}, 'Players must be a whole number, not "x"'),
        ({"round": "3", "players": "2"}, "Contract Rummy takes 3 to 8 players, not 2"),
        ({"round": "3", "ace_points": "x"}, 'Points for an ace: a whole number from 0 to 100, not "x"'),
        ({"round": "3", "twos_wild": "maybe"}, 'Twos wild: on or off, not "maybe"'),
    ],
)
def test_bad_house_rules_in_the_checker_are_400_pages(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    sentence = alert(check(client, 400, **fields))
    assert message in sentence, sentence


# ---------------------------------------------------------------- a game's pages


@pytest.fixture
def game_id(app: Flask) -> str:
    """A Contract Rummy game of four with twos wild, stored as the app stores a game (its options the preset's own)."""
    with app.app_context():
        game = Game(
            id="cr-game",
            variant="contract-rummy",
            options=rule_set("contract-rummy", {"twos_wild": True}).options_json(),
            players=["Ann", "Bob", "Cy", "Dee"],
            first_dealer=0,
            edit_key_hash="unused",
            version=1,
        )
        db.session.add(game)
        db.session.commit()
        return game.id


def test_a_games_rules_page_is_the_contract_page_with_its_house_rules(client: FlaskClient, game_id: str) -> None:
    page = page_of(client.get(f"/games/{game_id}/rules"))
    words = plain(page)
    assert "The rules of this game, with its house rules applied." in words
    assert "House rules changed from the preset: Twos wild on." in words
    assert "Jokers and 2s are wild" in words
    assert 'class="dp-here"><th scope="row">3–4</th>' in page
    assert page.count('<span class="fan fan-') == sum(len(kinds_of(contract)) for contract in CONTRACTS.values())


def test_a_games_sheet_page_and_pdf_show_each_deals_contract(client: FlaskClient, game_id: str) -> None:
    page = page_of(client.get(f"/games/{game_id}/sheet"))
    assert '<td class="wild contract">one set and two runs</td>' in page
    assert "Wild in every deal: Jkr, 2" in page
    response = client.get(f"/games/{game_id}/sheet.pdf")
    pdf_of(response)
    text = pdftotext(response.data)
    assert "Contract" in text and "two runs" in text and "three sets" in text


def test_the_in_game_checker_links_the_going_down_check(client: FlaskClient, game_id: str) -> None:
    page = page_of(client.get(f"/games/{game_id}/check"))
    link = re.search(r'id="going-down-link" href="([^"]*)">([^<]*)</a>', page)
    assert link, page[:500]
    assert link.group(2) == "Check a lay-off in deal 1 (not kept in the log)"
    assert "Melds checked here are checked for going down in deal 1: exactly two sets." in page
    target = html.unescape(link.group(1))
    assert target == "/check?variant=contract-rummy&round=1&players=4&twos_wild=true"
    words = plain(page_of(client.get(target + "&meld-0=5H 5S 2D&meld-1=KC KD JK")))
    assert "✓ Going down: this is the contract" in words and "2 decks + 4 jokers" in words


def test_the_game_page_the_rules_page_and_the_checker_draw_the_same_fans(client: FlaskClient, game_id: str) -> None:
    pages = [
        page_of(client.get(f"/games/{game_id}")),
        page_of(client.get("/rules/contract-rummy")),
        check(client, round="1"),
    ]
    for page in pages:
        assert "/static/css/fans.css" in page
        fan = r'<span class="fan fan-set( labelled)?" role="img" aria-label="a set: three or more cards of one rank">'
        assert re.search(fan, page)
    assert "cr-fan" not in "".join(pages) and "cr-card" not in "".join(pages)
