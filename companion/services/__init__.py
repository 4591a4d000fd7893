"""The services: the only layer that writes to the database and the only one that calls the engine.

They take plain values (no request objects) and raise `companion.errors.ServiceError`s with one
sentence. `store` reads and writes games; `rummy`, `pot`, `play_or_pay` and `disputes` are the
games' rules through the engine; `kinds` picks a game's kind; `rules`, `transfer`, `sheets` and
`chart` show, move and print games.
"""
