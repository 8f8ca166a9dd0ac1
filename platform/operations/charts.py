"""The dashboard's bar charts as geometry the template draws as SVG (no script: the admin pages
run under the Content-Security-Policy): a bar per point, even a point of 0, a value axis with
round ticks and grid lines, the points' labels under the bars and each bar's value on it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

LEFT, RIGHT, TOP, BOTTOM = 72, 12, 24, 56  # margins: value labels left, point labels below
PLOT_HEIGHT = 180
MIN_STEP = 18  # px per bar: a chart of many points grows wider and scrolls
PLOT_WIDTH = 560
LABEL_GAP = 44  # px between two point labels under the axis


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    label: str
    value: int
    text: str
    text_x: float
    text_y: float


@dataclass(frozen=True)
class Tick:
    y: float
    text: str


@dataclass(frozen=True)
class PointLabel:
    x: float
    text: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int  # the y of the category axis (the zero line may lie above it)
    zero: float
    bars: list[Bar]
    ticks: list[Tick]
    labels: list[PointLabel]
    x_title: str
    y_title: str
    vertical_values: bool  # narrow bars carry their value turned upright

    @property
    def tick_x(self) -> int:
        return self.left - 6

    @property
    def label_y(self) -> int:
        return self.bottom + 14

    @property
    def x_title_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def x_title_y(self) -> int:
        return self.height - 8

    @property
    def y_title_y(self) -> float:
        return (self.top + self.bottom) / 2


def nice_step(span: int, *, most: int = 5) -> int:
    """The smallest of 1, 2, 5 × 10ⁿ that covers ``span`` in at most ``most`` steps.

    >>> nice_step(0), nice_step(7), nice_step(10), nice_step(11), nice_step(1234)
    (1, 2, 2, 5, 500)
    """
    if span <= 0:
        return 1
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if step * most >= span:
                return step
        magnitude *= 10


def _ceil_to(value: int, step: int) -> int:
    return -(-value // step) * step


def bar_chart(points: Sequence[tuple[str, int]], *, value_text: Callable[[int], str], x_title: str,
              y_title: str) -> Chart:
    """A bar chart of ``points`` (label, integer value): the value axis runs from the lowest
    value (or 0) to the highest (or 0), rounded out to whole ticks; ``value_text`` writes a value
    (coins for minor units, the count for counts)."""
    values = [v for _label, v in points]
    low, high = min([0, *values]), max([0, *values])
    step = nice_step(high - low)
    low, high = -_ceil_to(-low, step), _ceil_to(high, step) or step
    n = max(len(points), 1)
    bar_step = max(MIN_STEP, PLOT_WIDTH / n)
    plot_w = bar_step * n
    scale = PLOT_HEIGHT / (high - low)

    def y_of(value: int) -> float:
        return round(TOP + (high - value) * scale, 1)

    zero = y_of(0)
    vertical = bar_step < 40
    bars = []
    for i, (label, value) in enumerate(points):
        x = LEFT + i * bar_step
        top, bottom = sorted((y_of(value), zero))
        # an upright value stands on the zero line (inside its bar), a level one above (below) its bar
        text_y = zero - 4 if vertical else top - 4 if value >= 0 else bottom + 12
        bars.append(Bar(x=round(x + 1, 1), y=top, w=round(max(bar_step - 2, 1), 1), h=round(bottom - top, 1),
                        label=label, value=value, text=value_text(value), text_x=round(x + bar_step / 2, 1),
                        text_y=round(text_y, 1)))
    ticks = [Tick(y=y_of(v), text=value_text(v)) for v in range(low, high + 1, step)]
    every = max(1, -(-LABEL_GAP // int(bar_step)))
    last = len(points) - 1
    shown = [i for i in range(len(points)) if i % every == 0]
    if shown and shown[-1] != last:  # the last point is labelled, in place of a neighbour too close to it
        shown[-1 if last - shown[-1] < every else len(shown):] = [last]
    labels = [PointLabel(x=round(LEFT + (i + 0.5) * bar_step, 1), text=points[i][0]) for i in shown]
    return Chart(width=int(LEFT + plot_w + RIGHT), height=TOP + PLOT_HEIGHT + BOTTOM, left=LEFT,
                 right=int(LEFT + plot_w), top=TOP, bottom=TOP + PLOT_HEIGHT, zero=zero, bars=bars,
                 ticks=ticks, labels=labels, x_title=x_title, y_title=y_title, vertical_values=vertical)
