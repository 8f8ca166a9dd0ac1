"""The dashboard's charts: a bar per point (zeros too), round ticks that cover every value,
a value written on each bar, labels that do not crowd, negative values below the zero line."""

from hypothesis import given, settings
from hypothesis import strategies as st

from operations.charts import PLOT_HEIGHT, TOP, bar_chart, nice_step


def _chart(values: list[int]):  # type: ignore[no-untyped-def]
    return bar_chart([(f"{i:02d}", v) for i, v in enumerate(values)], value_text=str, x_title="hour",
                     y_title="hands")


@settings(deadline=None)  # a property of the drawing, not of its time
@given(st.lists(st.integers(min_value=-10**12, max_value=10**12), min_size=1, max_size=40))
def test_every_point_has_a_bar_inside_the_plot_and_its_value(values: list[int]) -> None:
    chart = _chart(values)
    assert [b.value for b in chart.bars] == values and [b.text for b in chart.bars] == [str(v) for v in values]
    for bar in chart.bars:
        assert TOP - 0.1 <= bar.y and bar.y + bar.h <= TOP + PLOT_HEIGHT + 0.1 and bar.h >= 0
        assert chart.left <= bar.x and bar.x + bar.w <= chart.right + 0.1
    ticks = [int(t.text) for t in chart.ticks]
    assert ticks == sorted(ticks, reverse=False) and ticks[0] <= min(0, *values) and ticks[-1] >= max(0, *values)
    assert 2 <= len(ticks) <= 12


def test_a_day_of_empty_hours_still_draws_24_bars_and_a_scale() -> None:
    chart = _chart([0] * 24)
    assert len(chart.bars) == 24 and all(b.h == 0 and b.text == "0" for b in chart.bars)
    assert [t.text for t in chart.ticks] == ["0", "1"]
    assert chart.x_title == "hour" and chart.y_title == "hands"


def test_a_bar_is_as_tall_as_its_value_and_a_loss_hangs_below_zero() -> None:
    chart = _chart([10, 5, -5])
    ten, five, loss = chart.bars
    assert abs(ten.h - 2 * five.h) < 0.2 and abs(five.h - loss.h) < 0.2
    assert abs(ten.y + ten.h - chart.zero) < 0.2 and abs(loss.y - chart.zero) < 0.2


def test_labels_under_many_bars_are_thinned_but_keep_the_last() -> None:
    chart = _chart(list(range(90)))
    xs = [label.x for label in chart.labels]
    assert all(b - a >= 40 for a, b in zip(xs, xs[1:], strict=False))
    assert chart.labels[-1].text == "89" and chart.vertical_values
    assert chart.width > 90 * 17  # wide enough to read; the page scrolls it


def test_the_last_label_replaces_a_neighbour_too_close_to_it() -> None:
    texts = [label.text for label in _chart([1] * 24).labels]
    assert texts[-1] == "23" and "22" not in texts and texts[0] == "00"


def test_nice_steps() -> None:
    assert [nice_step(n) for n in (0, 1, 5, 6, 25, 26, 100, 101, 10**12)] == [1, 1, 1, 2, 5, 10, 20, 50, 2 * 10**11]
