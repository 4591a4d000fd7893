"""Pool rummy, 101 and 201 (RULES.md 11): the cut joker (`cut`), melds and the show (`show`), a
losing hand's count (`count`), one deal's scoring (`deal`), the game replayed (`game`) and the JSON
answers of the command line (`answers`)."""
