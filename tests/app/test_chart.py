"""The score chart (companion.services.chart): well-formed SVG, one line per player, axes, escaping, colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from companion.services.chart import DASHES, PALETTE, nice_step, player_colour, running_totals, score_chart_svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"


def state(players: list[str], rounds: int) -> dict[str, Any]:
    played = [
        {"round": number, "points": {name: (seat + 1) * number for seat, name in enumerate(players)}}
        for number in range(1, rounds + 1)
    ]
    return {"players": players, "rounds": played}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def polyline_points(root: ET.Element) -> list[list[tuple[float, float]]]:
    lines = []
    for polyline in root.iter(f"{SVG}polyline"):
        pairs = [pair.split(",") for pair in polyline.attrib["points"].split()]
        lines.append([(float(x), float(y)) for x, y in pairs])
    return lines


@pytest.mark.parametrize(("players", "rounds"), [(2, 0), (3, 1), (8, 23), (10, 11)])
def test_one_line_per_player_with_a_point_per_round(players: int, rounds: int) -> None:
    names = [f"P{seat}" for seat in range(players)]
    root = parse(score_chart_svg(state(names, rounds)))
    lines = polyline_points(root)
    assert len(lines) == players
    assert all(len(points) == rounds + 1 for points in lines)
    legend = [text for text in texts(root) if text.startswith("P")]
    assert [text.split(" (")[0] for text in legend] == names


def test_empty_game_draws_the_axes() -> None:
    root = parse(score_chart_svg({"players": [], "rounds": []}))
    axis = [path.get("d", "") for path in root.iter(f"{SVG}path") if path.get("class") == "axis"]
    assert len(axis) == 1 and axis[0].count("M") >= 4  # both axes and their ticks, one path
    labels = texts(root)
    assert "Round" in labels and "0" in labels and "1" in labels


def test_axes_have_ticks_that_cover_the_data() -> None:
    game = state(["Ann", "Bob"], 23)
    root = parse(score_chart_svg(game))
    numbers = [int(text) for text in texts(root) if text.lstrip("-").isdigit()]
    highest = running_totals(game["players"], game["rounds"])["Bob"][-1]
    assert max(numbers) >= highest
    assert {0, 2, 10, 22} <= set(numbers)


def test_higher_totals_are_drawn_higher_and_rounds_left_to_right() -> None:
    lines = polyline_points(parse(score_chart_svg(state(["Low", "High"], 5))))
    low, high = lines
    assert all(high_y < low_y for (_, low_y), (_, high_y) in zip(low[1:], high[1:], strict=True))
    assert [x for x, _ in low] == sorted(x for x, _ in low)


def test_size_follows_the_arguments() -> None:
    root = parse(score_chart_svg(state(["Ann"], 3), width=800, height=400))
    assert (root.attrib["width"], root.attrib["height"], root.attrib["viewBox"]) == ("800", "400", "0 0 800 400")


def test_hostile_names_are_escaped() -> None:
    names = [HOSTILE, 'Q"uote', "A & B", "O'Neil"]
    svg = score_chart_svg(state(names, 2))
    assert "<script" not in svg
    legend = texts(parse(svg))
    for name in names:
        assert any(text.startswith(name[:15]) for text in legend), name


def test_long_names_are_shortened_in_the_legend() -> None:
    legend = texts(parse(score_chart_svg(state(["Bartholomew-Maximilian", "Bob"], 1))))
    assert "Bartholomew-Max… (1)" in legend


def test_no_script_and_no_external_references() -> None:
    svg = score_chart_svg(state(["Ann", "Bob"], 3))
    assert "script" not in svg.lower()
    assert "href" not in svg


def test_ten_players_get_ten_different_lines() -> None:
    styles = {(player_colour(seat), DASHES[seat]) for seat in range(10)}
    assert len({player_colour(seat) for seat in range(10)}) == 10
    assert len(styles) == 10


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(int(colour[index : index + 2], 16)) for index in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast(first: float, second: float) -> float:
    return (max(first, second) + 0.05) / (min(first, second) + 0.05)


@pytest.mark.parametrize("colour", PALETTE)
def test_line_colours_read_on_light_and_dark_backgrounds(colour: str) -> None:
    assert _contrast(_luminance(colour), _luminance("#ffffff")) >= 3
    assert _contrast(_luminance(colour), _luminance("#121212")) >= 3


def test_text_and_axes_follow_the_page_colour() -> None:
    svg = score_chart_svg(state(["Ann"], 1))
    assert 'fill="currentColor"' in svg and 'stroke="currentColor"' in svg and "<style" not in svg


def test_nice_steps() -> None:
    assert [nice_step(span, 6) for span in (5, 7, 30, 60, 61, 250, 1300)] == [1, 2, 5, 10, 20, 50, 500]
