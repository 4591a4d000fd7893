"""Pool rummy, 101 and 201 (RULES.md 11): the cut joker (`cut`), melds and the show (`show`), a
losing hand's count (`count`), one deal's scoring (`deal`), the game replayed over frozen
standings (`game`), the JSON answers of the command line (`answers`) and the rules in words
(`rules_text`). Errors are `engine.pool.errors.PoolError`s, an `EngineError` each."""
