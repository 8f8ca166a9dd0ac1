"""A seat the server played on time-out is marked in every view (the table shows it)."""

from games.engine import samgong


def test_a_timed_out_seat_is_marked_auto_in_every_view() -> None:
    seats = [{"player": str(i), "stack": 10_000} for i in range(3)]
    state = samgong.plugin.new_hand(rules={"mode": "all_compare"}, seats=seats, carry=None, server_seed="ab" * 32, now=0.0)
    state, _ = samgong.plugin.apply(state, 0, {"type": "bet", "multiplier": 2}, now=1.0)
    state, events = samgong.plugin.on_deadline(state, now=state["deadline"] + 1)
    assert {e["seat"] for e in events if e.get("auto")} == {1, 2}
    for viewer in (0, 1, None):
        assert [s["auto"] for s in samgong.plugin.view(state, viewer)["seats"]] == [False, True, True]
