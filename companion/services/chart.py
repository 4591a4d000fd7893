"""A score progression chart drawn on the server as an SVG string: no JavaScript, no chart library.

x is the round number, y the running total; one polyline per player, in seat order.
Text and axes use ``currentColor``, so the chart follows the page's text colour (light or dark);
the line colours sit in a middle luminance band that reads on white and on near-black. The SVG
carries no <style> element (the pages' content security policy blocks inline style): presentation
attributes give its look anywhere (the PDF sheets too), and the pages' stylesheet (.score-chart in
static/app.css) styles it there.

>>> svg = score_chart_svg({"players": ["Ann", "Bob"], "rounds": [{"points": {"Ann": 5, "Bob": 0}}]})
>>> svg.startswith("<svg") and svg.count("<polyline") == 2
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import escape

from engine.rules import PRESETS

# Relative luminance 0.10-0.30: at least 3:1 contrast on white and on #121212 (tests check this).
PALETTE = (
    "#1f78d1",  # blue
    "#e03c31",  # red
    "#2a9d3a",  # green
    "#d9730d",  # orange
    "#9b59d0",  # purple
    "#1a9e9e",  # teal
    "#d6479b",  # pink
    "#8f8f1f",  # olive
    "#a0652d",  # brown
    "#6b7f99",  # slate
)
# Players beyond the palette's first half also get a dash pattern, so no two lines look alike.
DASHES = ("", "", "", "", "", "6 3", "6 3", "6 3", "6 3", "6 3")

PHONE_SIZE = (400, 280)  # px: a chart drawn for a page on a phone; CSS scales it to the column
LEGEND_WIDTH = 150
MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 16, 12, 36, 48
MAX_X_TICKS, MAX_Y_TICKS = 12, 6
LEGEND_ROW = 18
ALL_MARKERS_UP_TO = 12  # rounds; a longer game marks only each line's last point
NAME_CHARACTERS = 16


def player_colour(seat: int) -> str:
    """The line colour of the player in a seat (0-based); colours repeat after ten players."""
    return PALETTE[seat % len(PALETTE)]


def player_dash(seat: int) -> str:
    """The dash pattern (SVG stroke-dasharray) of a seat's line; empty for a solid line."""
    return DASHES[seat % len(DASHES)]


def running_totals(players: Sequence[str], rounds: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Each player's running total after every round, starting from 0 before round 1.

    >>> running_totals(["Ann"], [{"points": {"Ann": 5}}, {"points": {"Ann": 2}}])
    {'Ann': [0, 5, 7]}
    """
    series = {name: [0] for name in players}
    for played in rounds:
        points = played.get("points") or {}
        for name in players:
            series[name].append(series[name][-1] + int(points.get(name, 0)))
    return series


def nice_step(span: float, max_ticks: int) -> int:
    """A tick step of 1, 2 or 5 times a power of ten that needs at most `max_ticks` steps.

    >>> nice_step(10, 12), nice_step(23, 12), nice_step(437, 6), nice_step(0, 6)
    (1, 2, 100, 1)
    """
    if span <= max_ticks:
        return 1
    magnitude = int(10 ** math.floor(math.log10(span / max_ticks)))
    return next(factor * magnitude for factor in (1, 2, 5, 10) if span / (factor * magnitude) <= max_ticks)


@dataclass(frozen=True)
class Frame:
    """The plot area in pixels and the data range it shows."""

    left: float
    top: float
    width: float
    height: float
    x_max: int
    y_min: int
    y_max: int

    def x(self, value: float) -> float:
        return self.left + self.width * value / self.x_max

    def y(self, value: float) -> float:
        return self.top + self.height * (self.y_max - value) / (self.y_max - self.y_min)

    @property
    def bottom(self) -> float:
        return self.top + self.height

    @property
    def right(self) -> float:
        return self.left + self.width


def _frame(series: Mapping[str, list[int]], width: int, height: int) -> Frame:
    values = [value for points in series.values() for value in points] or [0]
    rounds = max((len(points) - 1 for points in series.values()), default=0)
    y_step = nice_step(max(values) - min(0, *values), MAX_Y_TICKS)
    y_min = math.floor(min(0, *values) / y_step) * y_step
    y_max = max(math.ceil(max(values) / y_step) * y_step, y_min + y_step)
    plot_width = max(width - LEGEND_WIDTH - MARGIN_LEFT - MARGIN_RIGHT, 40)
    plot_height = max(height - MARGIN_TOP - MARGIN_BOTTOM, 40)
    return Frame(MARGIN_LEFT, MARGIN_TOP, plot_width, plot_height, max(rounds, 1), y_min, y_max)


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


_LOOKS = {  # presentation attributes, which no content security policy blocks
    "axis": 'stroke="currentColor"',  # stroke-width 1 is the default
    "gridline": 'stroke="currentColor" stroke-opacity=".18"',
}


def _path(moves: list[str], css_class: str) -> str:
    """Straight strokes of one look as one path: "M x y" starts each, "H x" or "V y" draws it."""
    return f'<path class="{css_class}" {_LOOKS[css_class]} fill="none" d="{"".join(moves)}"/>'


def _move(x: float, y: float, draw: str) -> str:
    return f"M{_number(x)} {_number(y)}{draw}"


def _text(x: float, y: float, content: object, anchor: str = "middle") -> str:
    return f'<text x="{_number(x)}" y="{_number(y)}" text-anchor="{anchor}">{escape(str(content))}</text>'


def _axes(frame: Frame, x_label: str) -> list[str]:
    """Both axes with their ticks (one path), the grid (another) and the labels."""
    strokes = [_move(frame.left, frame.top, f"V{_number(frame.bottom)}H{_number(frame.right)}")]
    grid: list[str] = []
    labels: list[str] = []
    y_step = nice_step(frame.y_max - frame.y_min, MAX_Y_TICKS)
    for value in range(frame.y_min, frame.y_max + 1, y_step):
        y = frame.y(value)
        grid.append(_move(frame.left, y, f"H{_number(frame.right)}"))
        strokes.append(_move(frame.left - 4, y, "h4"))
        labels.append(_text(frame.left - 7, y + 4, value, anchor="end"))
    for value in range(0, frame.x_max + 1, nice_step(frame.x_max, MAX_X_TICKS)):
        x = frame.x(value)
        strokes.append(_move(x, frame.bottom, "v4"))
        labels.append(_text(x, frame.bottom + 15, value))
    labels.append(_text(frame.left + frame.width / 2, frame.bottom + 30, x_label))
    return [_path(grid, "gridline"), _path(strokes, "axis"), *labels]


def _dash_attribute(seat: int) -> str:
    dash = player_dash(seat)
    return f' stroke-dasharray="{dash}"' if dash else ""


def _series(frame: Frame, seat: int, totals: list[int]) -> str:
    colour = player_colour(seat)
    points = " ".join(f"{_number(frame.x(index))},{_number(frame.y(value))}" for index, value in enumerate(totals))
    first_marker = 1 if len(totals) <= ALL_MARKERS_UP_TO + 1 else len(totals) - 1
    markers = "".join(
        f'<circle cx="{_number(frame.x(index))}" cy="{_number(frame.y(totals[index]))}" r="2.2"/>'
        for index in range(max(first_marker, 1), len(totals))
    )
    return (
        f'<g class="series" stroke="{colour}" fill="{colour}">'
        f'<polyline fill="none" stroke-width="2"{_dash_attribute(seat)} points="{points}"/>{markers}</g>'
    )


def _short_name(name: str) -> str:
    return name if len(name) <= NAME_CHARACTERS else name[: NAME_CHARACTERS - 1] + "…"


def shortened_names(players: Sequence[str]) -> list[tuple[str, str]]:
    """The names the chart legend cuts short, each with its whole name (the page lists them).

    >>> shortened_names(["Ann", "Maximiliana Rosalind"])
    [('Maximiliana Ros…', 'Maximiliana Rosalind')]
    """
    return [(_short_name(name), name) for name in players if _short_name(name) != name]


def _legend(frame: Frame, series: Mapping[str, list[int]], height: int) -> list[str]:
    left = frame.right + 16
    row = min(LEGEND_ROW, (height - MARGIN_TOP) / max(len(series), 1))
    parts = []
    for seat, (name, totals) in enumerate(series.items()):
        y = frame.top + row * seat + row / 2
        parts.append(
            f'<line x1="{_number(left)}" y1="{_number(y)}" x2="{_number(left + 20)}" y2="{_number(y)}" '
            f'stroke="{player_colour(seat)}" stroke-width="3"{_dash_attribute(seat)}/>'
        )
        label = _text(left + 26, y + 4, f"{_short_name(name)} ({totals[-1]})", anchor="start")
        if _short_name(name) != name:  # the whole name on hover or long press
            label = label.replace("</text>", f"<title>{escape(name)}</title></text>")
        parts.append(label)
    return parts


def score_chart_svg(state: Mapping[str, Any], width: int = 640, height: int = 320) -> str:
    """The running totals of a game state (the API's JSON) as a standalone SVG document string; the
    x axis counts rounds, or deals in a game with contracts (Contract Rummy)."""
    preset = PRESETS.get(str(state.get("variant")))
    x_label = "Deal" if preset is not None and preset.has_contracts else "Round"
    players = [str(name) for name in [*state.get("players", []), *(state.get("left") or [])]]
    series = running_totals(players, state.get("rounds", []))
    return series_chart_svg(series, f"Running totals by {x_label.lower()}", width, height, x_label)


def series_chart_svg(
    series: Mapping[str, list[int]], label: str, width: int = 640, height: int = 320, x_label: str = "Round"
) -> str:
    """Lines of whole numbers by step (0, 1, 2…), one per name in order, as a standalone SVG document string.

    >>> series_chart_svg({"Ann": [25, 27]}, "Ratings", x_label="Games").count("<polyline")
    1
    """
    frame = _frame(series, width, height)
    body = [
        *_axes(frame, x_label),
        *(_series(frame, seat, totals) for seat, totals in enumerate(series.values())),
        *_legend(frame, series, height),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
        f'fill="currentColor" font-family="DejaVu Sans, sans-serif" font-size="11">'
        f"{''.join(body)}</svg>"
    )
