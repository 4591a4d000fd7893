"""Printable score sheets: a played game, a blank sheet for pen and paper, a Play or Pay chip tally.

Each sheet is an HTML page (templates/sheets/) styled by static/css/print.css, and a PDF made from
the same page and the same stylesheet by WeasyPrint. The functions take plain data (the game state
the API returns), never the app's models, so they work with or without Flask.

From a Flask view, render the same templates with the context functions::

    render_template("sheets/game_sheet.html", **game_sheet_context(state, "a4"),
                    stylesheet_href=url_for("static", filename="css/print.css"))

Layout: A4 or US Letter; portrait up to 6 players, landscape beyond.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from companion import paths
from companion.services.chart import PALETTE, score_chart_svg
from companion.services.play_or_pay import Tally
from companion.services.store import HANDS_KIND
from engine.pot import format_cents
from engine.rules import OptionSpec, Preset, RuleSet, get_preset, rule_set, verify_player_count
from engine.schedule import schedule

if TYPE_CHECKING:
    from engine.schedule import RoundInfo

TEMPLATES = paths.templates_folder()
PRINT_CSS = paths.static_folder() / "css" / "print.css"
BASE_URL = str(paths.static_folder().parent)  # relative URLs in a PDF resolve as they would on the site
STYLESHEET_HREF = "/static/css/print.css"

PAPERS = {"a4": "A4", "letter": "Letter"}
PORTRAIT_MAX_PLAYERS = 6
BLANK_COLUMNS = 4  # a blank sheet with no names gets this many blank name boxes
CHIP_HANDS = 20
KNOCKING_VARIANTS = frozenset({"3-13"})  # 3-13 calls going out "knocking": a box around the cell
WILD_LABELS = {"JK": "Jkr"}
LEDGER_KINDS = {
    "ante": "Antes",
    "second_discard": "Second discards",
    "knock": "Knocks",
    "booby": "Booby prize",
    "payout": "Payout",
}


# --- page layout ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """A sheet's paper and orientation; `name` is the CSS named page (print.css)."""

    paper: str
    landscape: bool

    @property
    def name(self) -> str:
        return f"{self.paper}-{'landscape' if self.landscape else 'portrait'}"

    @property
    def description(self) -> str:
        return f"{PAPERS[self.paper]} {'landscape' if self.landscape else 'portrait'}"


def page_layout(paper: str, players: int) -> Page:
    """The page for a sheet: portrait up to 6 players, landscape beyond.

    >>> page_layout("A4", 7).name
    'a4-landscape'
    >>> page_layout("legal", 3)
    Traceback (most recent call last):
    ...
    ValueError: paper must be "a4" or "letter", not "legal".
    """
    key = str(paper).strip().lower()
    if key not in PAPERS:
        raise ValueError(f'paper must be "a4" or "letter", not "{paper}".')
    return Page(key, players > PORTRAIT_MAX_PLAYERS)


# --- rendering --------------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def _render(template: str, context: Mapping[str, Any], stylesheet_href: str | None) -> str:
    return _environment().get_template(template).render(**context, stylesheet_href=stylesheet_href)


@lru_cache(maxsize=2)
def _stylesheet(modified: float) -> Any:
    import weasyprint  # type: ignore[import-untyped]  # imported late: the HTML views do not need it

    return weasyprint.CSS(filename=str(PRINT_CSS))


def _pdf(template: str, context: Mapping[str, Any]) -> bytes:
    """The page as a PDF: the same template, with print.css read from disk and given to WeasyPrint."""
    return html_to_pdf(_render(template, context, stylesheet_href=None))


def load_weasyprint() -> None:
    """Import WeasyPrint and read print.css ahead of the first sheet (about a second)."""
    _stylesheet(PRINT_CSS.stat().st_mtime)


def html_to_pdf(html: str) -> bytes:
    """A sheet's HTML (rendered without a stylesheet link) as a PDF with print.css: the slow part,
    which companion.services.pdfs runs in a process of its own."""
    import weasyprint

    stylesheet = _stylesheet(PRINT_CSS.stat().st_mtime)
    return bytes(weasyprint.HTML(string=html, base_url=BASE_URL).write_pdf(stylesheets=[stylesheet]))


def game_sheet_pdf_html(state: Mapping[str, Any], paper: str = "a4") -> str:
    """The HTML that game_sheet_pdf gives WeasyPrint."""
    return _render("sheets/game_sheet.html", game_sheet_context(state, paper), stylesheet_href=None)


def chip_tally_pdf_html(
    players: Sequence[str] | None = None,
    paper: str = "a4",
    results: Sequence[Any] | None = None,
    played: Tally | None = None,
) -> str:
    """The HTML that chip_tally_pdf gives WeasyPrint; `played` (a game's tally) fills in the hands played."""
    context = chip_tally_context(players, paper, CHIP_HANDS, results, played)
    return _render("sheets/chip_tally.html", context, stylesheet_href=None)


def blank_sheet_pdf_html(variant: str, players: Sequence[str] | None = None, paper: str = "a4") -> str:
    """The HTML that blank_sheet_pdf gives WeasyPrint."""
    if _is_chip_game(variant):
        return chip_tally_pdf_html(players, paper)
    if is_pool_variant(variant):
        return _render("sheets/pool_blank.html", pool_blank_context(variant, players, paper), stylesheet_href=None)
    return _render("sheets/blank_sheet.html", blank_sheet_context(variant, players, paper), stylesheet_href=None)


# --- shared pieces ----------------------------------------------------------------------------


def wild_label(tokens: Sequence[str]) -> str:
    """The wild cards of a round for the sheet: ranks as written, jokers as "Jkr".

    >>> wild_label(["JK", "2", "3"])
    'Jkr, 2, 3'
    """
    return ", ".join(WILD_LABELS.get(token, token) for token in tokens) or "none"


def _option_value(spec: OptionSpec, value: Any) -> str:
    kind = spec.kind
    if kind == "choice":  # in words, short: "Three Thirteen", "Both" (of "Both: A-2-3 and Q-K-A, never K-A-2")
        return spec.label(value).split(":")[0]
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "rounds":
        rounds = [str(number) for number in value]
        return "rounds " + ", ".join(rounds) if rounds else "none"
    if isinstance(value, list):  # Contract Rummy's cards dealt per deal
        return ", ".join(str(item) for item in value)
    return str(value).replace("_", " ")


def changed_options(rules: RuleSet) -> list[dict[str, str]]:
    """The options that differ from the preset's defaults, as titles and values in words.

    >>> changed_options(rule_set("pay-me", {"full_cycle": True, "ace": "both"}))
    [{'title': 'Full cycle', 'value': 'yes'}, {'title': 'Ace in runs', 'value': 'Both'}]
    """
    defaults = rules.preset.defaults.as_json(rules.preset.option_keys)
    chosen = rules.options_json()
    return [
        {"title": spec.title, "value": _option_value(spec, chosen[key])}
        for key, spec in ((spec.key, spec) for spec in rules.option_specs())
        if chosen[key] != defaults[key]
    ]


def contract_cell(info: RoundInfo) -> dict[str, Any]:
    """A deal's contract for its row ("two sets"; "" where the game has no contracts), and whether
    going out needs no final discard."""
    return {"contract": info.contract_words if info.contract else "", "no_final_discard": info.no_final_discard}


def contract_columns(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A game played in contracts shows each deal's contract where other sheets show the wild cards,
    which are then the same in every deal and named once, in the legend."""
    has_contract = any(row["contract"] for row in rows)
    return {"has_contract": has_contract, "wild_every_deal": rows[0]["wild"] if has_contract and rows else ""}


def sheet_date(created_at: object) -> str:
    """The game's date as YYYY-MM-DD, from an ISO date string; today when missing or unreadable.

    >>> sheet_date("2026-11-21T08:49:03+00:00")
    '2026-11-21'
    """
    if isinstance(created_at, str):
        try:
            return datetime.fromisoformat(created_at).date().isoformat()
        except ValueError:
            pass
    return date.today().isoformat()


def _player_headers(names: Sequence[str]) -> list[dict[str, Any]]:
    """Each seat's name; `swatch` is the CSS class of its chart colour (print.css .seat-N)."""
    return [{"name": name, "swatch": f"seat-{seat % len(PALETTE)}"} for seat, name in enumerate(names)]


# --- the game sheet ---------------------------------------------------------------------------


def _first_dealer_seat(state: Mapping[str, Any], players: Sequence[str]) -> int | None:
    """The seat that dealt round 1, worked out from any round that names its dealer (the deal passes left)."""
    for known in [*state.get("rounds", []), state.get("next_round") or {}]:
        dealer, number = known.get("dealer"), known.get("round")
        if dealer in players and isinstance(number, int):
            return (players.index(dealer) - (number - 1)) % len(players)
    return None


def _score_cell(played: Mapping[str, Any], name: str, dealer: str | None, running: dict[str, int]) -> dict[str, Any]:
    """One player's cell of a round; adds the round's points to `running`."""
    points = (played.get("points") or {}).get(name)
    if points is not None:
        running[name] += int(points)
    return {
        "points": None if points is None else int(points),
        "total": None if points is None else running[name],
        "dealer": name == dealer,
        "went_out": bool(played) and played.get("went_out") == name,
    }


def sheet_players(state: Mapping[str, Any]) -> list[str]:
    """The sheet's columns: the players at the table, then those who left (issue 27)."""
    return [str(name) for name in [*state.get("players", []), *(state.get("left") or [])]]


def _coming_dealer(state: Mapping[str, Any], number: int) -> str | None:
    """Who deals a round not played yet: the deal passes left from the next round's dealer, among the
    players at the table now (a round before the next one was played, and names its own dealer)."""
    coming = state.get("next_round") or {}
    seated = [str(name) for name in state.get("players", [])]
    dealer, first = coming.get("dealer"), coming.get("round")
    if dealer not in seated or not isinstance(first, int):
        return None
    return seated[(seated.index(dealer) + number - first) % len(seated)]


def _score_rows(state: Mapping[str, Any], rules: RuleSet, players: Sequence[str]) -> list[dict[str, Any]]:
    """One row per round of the schedule; the rounds not played yet have empty cells (and their dealer)."""
    played_rounds = {played.get("round"): played for played in state.get("rounds", [])}
    first_dealer = _first_dealer_seat(state, players)
    given = state.get("totals") or {}
    scored = {name: sum(int((p.get("points") or {}).get(name, 0)) for p in played_rounds.values()) for name in players}
    running = {name: int(given.get(name, scored[name])) - scored[name] for name in players}  # a late player's start
    rows = []
    for info in schedule(rules):
        played = played_rounds.get(info.number, {})
        dealer = _coming_dealer(state, info.number)
        if dealer is None and first_dealer is not None:
            dealer = players[(first_dealer + info.number - 1) % len(players)]
        dealer = played.get("dealer", dealer)
        rows.append(
            {
                "number": info.number,
                "cards": info.cards,
                "wild": wild_label(info.wild_tokens),
                "multiplier": info.multiplier,
                **contract_cell(info),
                "played": bool(played),
                "cells": [_score_cell(played, name, dealer, running) for name in players],
            }
        )
    return rows


def _totals(state: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[int | None]:
    given = state.get("totals") or {}
    computed = {name: sum(row["cells"][seat]["points"] or 0 for row in rows) for seat, name in enumerate(players)}
    if not any(row["played"] for row in rows) and not given:
        return [None for _ in players]
    return [int(given.get(name, computed[name])) for name in players]


def pot_summary(pot: Mapping[str, Any] | None, players: Sequence[str]) -> dict[str, Any] | None:
    """The pot ledger summed by kind for each player, from the player's side (money in is positive)."""
    if not pot:
        return None
    sums: dict[str, dict[str, int]] = {}
    for entry in pot.get("ledger", []):
        if entry.get("player") in players:
            by_player = sums.setdefault(str(entry.get("kind")), dict.fromkeys(players, 0))
            by_player[entry["player"]] -= int(entry.get("amount", 0))
    rows = [
        {
            "label": LEDGER_KINDS.get(kind, kind.replace("_", " ").capitalize()),
            "amounts": _cents_row(sums[kind], players),
        }
        for kind in [*LEDGER_KINDS, *sorted(set(sums) - set(LEDGER_KINDS))]
        if kind in sums
    ]
    net = pot.get("net") or {}
    return {
        "balance": format_cents(int(pot.get("balance", 0))),
        "rows": rows,
        "net": _cents_row({name: int(net.get(name, 0)) for name in players}, players),
    }


def _cents_row(amounts: Mapping[str, int], players: Sequence[str]) -> list[str]:
    return [format_cents(amounts[name]) if amounts[name] else "–" for name in players]


def game_sheet_context(state: Mapping[str, Any], paper: str = "a4") -> dict[str, Any]:
    """What templates/sheets/game_sheet.html shows for a game state (the API's JSON)."""
    players = sheet_players(state)
    rules = rule_set(str(state.get("variant")), state.get("options") or {})
    page = page_layout(paper, len(players))
    rows = _score_rows(state, rules, players)
    return {
        "page": page,
        "title": f"{rules.preset.name} score sheet",
        "preset": rules.preset,
        "game_id": state.get("id"),
        "date": sheet_date(state.get("created_at")),
        "options": changed_options(rules),
        "players": _player_headers(players),
        "rows": rows,
        **contract_columns(rows),
        "totals": _totals(state, rows, players),
        "winners": [str(name) for name in state.get("winners", [])],
        "finished": bool(state.get("finished")),
        "marker": "knock" if rules.preset.id in KNOCKING_VARIANTS else "out",
        "has_multiplier": any(row["multiplier"] != 1 for row in rows),
        "pot": pot_summary(state.get("pot"), players),
        "chart": Markup(score_chart_svg(state)),
        "buys": buy_rows(state, players),
    }


def buy_rows(state: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, Any]]:
    """Contract Rummy: the buys of each played deal where someone bought, one count per player.

    >>> buy_rows({"rounds": [{"round": 1}, {"round": 2, "buys": {"Bob": 2}}]}, ["Ann", "Bob"])
    [{'number': 2, 'counts': [0, 2]}]
    """
    return [
        {"number": played.get("round"), "counts": [int(played["buys"].get(name, 0)) for name in players]}
        for played in state.get("rounds", [])
        if played.get("buys")
    ]


def game_sheet_html(state: Mapping[str, Any], paper: str = "a4", *, stylesheet_href: str = STYLESHEET_HREF) -> str:
    """The score sheet of a game as an HTML page linking print.css."""
    return _render("sheets/game_sheet.html", game_sheet_context(state, paper), stylesheet_href)


def game_sheet_pdf(state: Mapping[str, Any], paper: str = "a4") -> bytes:
    """The score sheet of a game as a PDF: players across, rounds down, totals, winners, chart."""
    return _pdf("sheets/game_sheet.html", game_sheet_context(state, paper))


# --- blank sheets for pen and paper -----------------------------------------------------------


def _seat_names(players: Sequence[str] | None, preset: Preset) -> list[str]:
    """The names to print, blanks allowed; no names at all means BLANK_COLUMNS blank columns."""
    names = [str(player).strip() for player in players or []] or [""] * BLANK_COLUMNS
    verify_player_count(preset, len(names))
    return names


def blank_sheet_context(
    variant: str, players: Sequence[str] | None = None, paper: str = "a4", options: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """What templates/sheets/blank_sheet.html shows: the schedule pre-printed, the score cells empty."""
    rules = rule_set(variant, options or {})
    names = _seat_names(players, rules.preset)
    rows = [
        {
            "number": info.number,
            "cards": info.cards,
            "wild": wild_label(info.wild_tokens),
            "multiplier": info.multiplier,
            **contract_cell(info),
        }
        for info in schedule(rules)
    ]
    return {
        "page": page_layout(paper, len(names)),
        "title": f"{rules.preset.name} score sheet",
        "preset": rules.preset,
        "options": changed_options(rules),
        "players": _player_headers(names),
        "rows": rows,
        "has_multiplier": any(row["multiplier"] != 1 for row in rows),
        **contract_columns(rows),
        "marker": "knock" if rules.preset.id in KNOCKING_VARIANTS else "out",
        "has_pot": rules.preset.money == "pot",  # 3-13: boxes for the second discards, the knock and the pot
    }


def chip_tally_context(
    players: Sequence[str] | None = None,
    paper: str = "a4",
    hands: int = CHIP_HANDS,
    results: Sequence[Any] | None = None,
    played: Tally | None = None,
) -> dict[str, Any]:
    """What templates/sheets/chip_tally.html shows: hands down, chips paid and balance per player; for a game
    the table has ended, each player's result (D17: rows with name, held, bought, result, from the engine).

    `played` (play_or_pay.tally) fills in a game's hands played, its date and starting
    stack; blank rows follow for the hands still to come, unless the table has ended the game."""
    preset = get_preset("play-or-pay")
    names = _seat_names(players, preset)
    if not 1 <= hands <= 60:
        raise ValueError(f"a chip tally takes 1 to 60 hands, not {hands}.")
    done = list(played.hands) if played is not None else []
    blank_rows = 0 if played is not None and played.finished else max(hands - len(done), 3 if done else hands)
    return {
        "page": page_layout(paper, len(names)),
        "title": f"{preset.name} chip tally",
        "preset": preset,
        "players": _player_headers(names),
        "played": done,
        "stack": played.stack if played is not None else None,
        "date": played.date if played is not None else None,
        "hands": list(range(len(done) + 1, len(done) + blank_rows + 1)),
        "results": list(results) if results else [],
    }


def _is_chip_game(variant: str) -> bool:
    return get_preset(variant).kind == HANDS_KIND


def blank_sheet_html(
    variant: str,
    players: Sequence[str] | None = None,
    paper: str = "a4",
    options: Mapping[str, object] | None = None,
    *,
    stylesheet_href: str = STYLESHEET_HREF,
) -> str:
    """A blank score sheet as HTML; for Play or Pay, the chip tally."""
    if _is_chip_game(variant):
        return chip_tally_html(players, paper, stylesheet_href=stylesheet_href)
    if is_pool_variant(variant):
        return _render("sheets/pool_blank.html", pool_blank_context(variant, players, paper, options), stylesheet_href)
    return _render("sheets/blank_sheet.html", blank_sheet_context(variant, players, paper, options), stylesheet_href)


def blank_sheet_pdf(
    variant: str, players: Sequence[str] | None = None, paper: str = "a4", options: Mapping[str, object] | None = None
) -> bytes:
    """A blank score sheet as a PDF, to play with pen and paper; for Play or Pay, the chip tally (no options)."""
    if _is_chip_game(variant):
        return chip_tally_pdf(players, paper)
    if is_pool_variant(variant):
        return _pdf("sheets/pool_blank.html", pool_blank_context(variant, players, paper, options))
    return _pdf("sheets/blank_sheet.html", blank_sheet_context(variant, players, paper, options))


def chip_tally_html(
    players: Sequence[str] | None = None,
    paper: str = "a4",
    hands: int = CHIP_HANDS,
    *,
    stylesheet_href: str = STYLESHEET_HREF,
) -> str:
    """The Play or Pay chip tally sheet as HTML."""
    return _render("sheets/chip_tally.html", chip_tally_context(players, paper, hands), stylesheet_href)


def chip_tally_pdf(
    players: Sequence[str] | None = None,
    paper: str = "a4",
    hands: int = CHIP_HANDS,
    results: Sequence[Any] | None = None,
) -> bytes:
    """The Play or Pay chip tally sheet as a PDF: hands down, chips paid and running balance across."""
    return _pdf("sheets/chip_tally.html", chip_tally_context(players, paper, hands, results))


# --- pool rummy: deals, a knock-out and a pot ---------------------------------------------------

POOL_KIND = "pool"
POOL_BLANK_DEALS = 18  # a blank pool sheet's rows: more deals than most games of 101 take
POOL_PORTRAIT_MAX_PLAYERS = 4  # a result and a total per player: wider tables turn the page
RESULT_WORDS = {"win": "show", "drop": "drop", "middle": "middle", "full": "full", "wrong": "wrong"}


def is_pool_variant(variant: str) -> bool:
    return get_preset(variant).kind == POOL_KIND


def _pool_page(paper: str, players: int) -> Page:
    page = page_layout(paper, players)
    return Page(page.paper, players > POOL_PORTRAIT_MAX_PLAYERS)


def _pool_cell(deal: Mapping[str, Any], name: str, before: int) -> dict[str, Any]:
    """One player's cell of a deal: the result as entered (a word, or the count), its points, the total
    the deal made (`before` the deal plus its points) and, after a rejoin, the total they came back at."""
    results = deal.get("results") or {}
    if name not in results:
        return {"playing": False}
    result = results[name]
    word = RESULT_WORDS.get(str(result), "") if isinstance(result, str) else ""
    points = int((deal.get("points") or {}).get(name, 0))
    return {
        "playing": True,
        "word": word,
        "count": result if isinstance(result, int) and points != result else None,  # a count above the cap
        "points": points,
        "total": before + points,
        "back_at": int((deal.get("totals") or {}).get(name, 0)),
        "dealer": deal.get("dealer") == name,
        "out": name in (deal.get("put_out") or []),
        "rejoined": name in (deal.get("rejoined") or []),
    }


def _cut_label(deal: Mapping[str, Any]) -> str:
    cut, wild = deal.get("cut"), deal.get("wild")
    if isinstance(cut, str):
        return "Jkr" if cut == "JK" else cut
    if isinstance(wild, str):
        return "Jkr only" if wild == "none" else f"{wild} wild"
    return ""


def _pool_standings(state: Mapping[str, Any], players: Sequence[str], buy_in: int) -> list[dict[str, Any]]:
    rejoins = state.get("rejoins") or {}
    drops = state.get("drops_left") or {}
    nets = state.get("nets") or {}
    shares = ((state.get("split") or {}).get("shares")) or {}
    winner = state.get("winner")
    return [
        {
            "name": name,
            "total": int((state.get("totals") or {}).get(name, 0)),
            "still_in": name in (state.get("in") or []),
            "rejoins": int(rejoins.get(name, 0)),
            "rejoin_cost": format_cents(int(rejoins.get(name, 0)) * buy_in) if rejoins.get(name) else "–",
            "paid": format_cents(int((state.get("paid") or {}).get(name, 0))),
            "drops_left": drops.get(name),
            "takes": format_cents(int(shares[name]))
            if name in shares
            else (format_cents(int(state.get("pot", 0))) if name == winner else ""),
            "net": (("+" if int(nets[name]) > 0 else "") + format_cents(int(nets[name]))) if name in nets else "",
        }
        for name in players
    ]


def pool_sheet_context(state: Mapping[str, Any], paper: str = "a4") -> dict[str, Any]:
    """What templates/sheets/pool_sheet.html shows for a pool game (companion.services.pool's state)."""
    options = dict(state.get("options") or {})
    buy_in = int(options.pop("buy_in", 0) or 0)
    rules = rule_set(str(state.get("variant")), options)
    players = [str(name) for name in state.get("players", [])]
    deals = list(state.get("deals", []))
    split = state.get("split")
    return {
        "page": _pool_page(paper, len(players)),
        "title": f"{rules.preset.name} score sheet",
        "preset": rules.preset,
        "game_id": state.get("id"),
        "date": sheet_date(state.get("created_at")),
        "options": changed_options(rules),
        "limit": rules.options.pool_limit,
        "buy_in": format_cents(buy_in),
        "players": _player_headers(players),
        "rows": _pool_rows(deals, players),
        "standings": _pool_standings(state, players, buy_in),
        "rejoin_cost": format_cents(buy_in),
        "pot": format_cents(int(state.get("pot", 0))),
        "winner": state.get("winner"),
        "split": None if not split else {"method": split.get("method")},
        "finished": bool(state.get("finished")),
        "dealer": state.get("dealer"),
        "drops": {"first": rules.options.first_drop, "middle": rules.options.middle_drop},
        "full_count": rules.options.full_count,
        "wrong_show": rules.options.wrong_show,
    }


def _pool_rows(deals: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    totals = dict.fromkeys(players, 0)
    for deal in deals:
        rows.append(
            {
                "number": deal.get("number"),
                "cut": _cut_label(deal),
                "cells": [_pool_cell(deal, name, totals[name]) for name in players],
                "put_out": list(deal.get("put_out") or []),
                "rejoined": list(deal.get("rejoined") or []),
            }
        )
        totals = {name: int((deal.get("totals") or {}).get(name, totals[name])) for name in players}
    return rows


def pool_sheet_pdf_html(state: Mapping[str, Any], paper: str = "a4") -> str:
    """The HTML that a pool game's sheet PDF gives WeasyPrint."""
    return _render("sheets/pool_sheet.html", pool_sheet_context(state, paper), stylesheet_href=None)


def pool_blank_context(
    variant: str, players: Sequence[str] | None = None, paper: str = "a4", options: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """What templates/sheets/pool_blank.html shows: a deal per row, each player's result and total,
    the rejoins and the pot, for a table to fill by hand."""
    rules = rule_set(variant, options or {})
    names = _seat_names(players, rules.preset)
    return {
        "page": _pool_page(paper, len(names)),
        "title": f"{rules.preset.name} score sheet",
        "preset": rules.preset,
        "options": changed_options(rules),
        "players": _player_headers(names),
        "deals": list(range(1, POOL_BLANK_DEALS + 1)),
        "limit": rules.options.pool_limit,
        "drops": {"first": rules.options.first_drop, "middle": rules.options.middle_drop},
        "full_count": rules.options.full_count,
        "wrong_show": rules.options.wrong_show,
        "cutoff": rules.options.rejoin_cutoff,
    }
