"""Lay-offs onto the declarer's melds (D5, D6), and scoring a hand with them (D7): the public names
of the four modules that do each job, in one place.

* engine.layoff_table: the declarer's melds on the table, read as written or split from a loose
  hand, each with every reading its cards leave open (D8, D13);
* engine.layoff_check: THE lay-off check (`verify_layoff` / `can_lay_off` / `lay_off`) and where
  each card laid off went (`placements`);
* engine.layoff_search: the least penalty of a hand with lay-offs (`score_with_layoffs`), and the
  other players in turn order (`score_in_turn`), trying the candidates of engine.layoff_candidates;
* engine.layoff_quick: the fast paths, each held to the check it stands in for by a test.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("pay-me-family")
>>> info = round_info(rules, 5)
>>> melds = table_melds(["AH 2H 3H"], rules, info)
>>> melds = lay_off(melds, 0, parse_meld("4H"), rules, info)
>>> str(melds[0])
'AH 2H 3H 4H'
>>> lay_off(melds, 0, parse_meld("4H"), rules, info)
Traceback (most recent call last):
...
engine.errors.IllegalLayoff: 4H cannot be laid off on AH 2H 3H 4H: that place (4H) is already filled.
"""

from __future__ import annotations

from engine.cards import parse_meld
from engine.layoff_check import Place, Placement, can_lay_off, lay_off, placements, verify_layoff
from engine.layoff_search import LayoffScore, layoff_turns, score_in_turn, score_with_layoffs
from engine.layoff_table import can_lay_down, declarer_melds, split_declarer_hand, table_melds, verify_laid_down
from engine.tablemeld import TableMeld

__all__ = [
    "LayoffScore",
    "Place",
    "Placement",
    "TableMeld",
    "can_lay_down",
    "can_lay_off",
    "declarer_melds",
    "lay_off",
    "layoff_turns",
    "parse_meld",
    "placements",
    "score_in_turn",
    "score_with_layoffs",
    "split_declarer_hand",
    "table_melds",
    "verify_laid_down",
    "verify_layoff",
]
