"""A bare Flask app with one "hello" route: the baseline that benchmarks/load.py measures alongside the companion."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/hello")
def hello() -> str:
    return "hello"
