"""Checks shared by the solver tests."""

from __future__ import annotations

from typing import Any

from games.engine.poker import rank3, rank5

ROWS = ("front", "middle", "back")


def keys(result: dict[str, Any], *, suits: bool) -> tuple[int, int, int]:
    return (
        rank3(result["front"], suits=suits),
        rank5(result["middle"], suits=suits),
        rank5(result["back"], suits=suits),
    )


def assert_legal(results: list[dict[str, Any]], cards: list[int], *, suits: bool, k: int) -> None:
    """Rows from the hand, no card twice, never fouled, distinct row keys, best first."""
    assert 1 <= len(results) <= k
    seen = set()
    for r in results:
        assert set(r) == {"front", "middle", "back", "declare", "score"}
        placed = r["front"] + r["middle"] + r["back"]
        assert [len(r[row]) for row in ROWS] == [3, 5, 5]
        assert len(set(placed)) == 13 and set(placed) <= set(cards)
        assert all(r[row] == sorted(r[row], reverse=True) for row in ROWS)
        f, m, b = keys(r, suits=suits)
        assert f <= m <= b, "fouled"
        seen.add((f, m, b))
        assert isinstance(r["score"], float)
    assert len(seen) == len(results), "alternatives are not distinct"
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
