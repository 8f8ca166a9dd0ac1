"""The public frames a process keeps per table (games/public_frames.py)."""

from __future__ import annotations

from games.public_frames import TABLES_KEPT, public_frame_keep, public_frame_newest


def test_a_kept_frame_is_replaced_only_by_a_newer_version():
    public_frame_keep(table_id=1, version=5, text="five")
    public_frame_keep(table_id=1, version=4, text="four")
    assert public_frame_newest(table_id=1, at_least=5) == (5, "five")
    assert public_frame_newest(table_id=1, at_least=6) is None
    assert public_frame_newest(table_id=1, at_least=None) is None  # nothing to compare with


def test_the_oldest_table_is_dropped_past_the_tables_kept():
    for table_id in range(TABLES_KEPT + 1):
        public_frame_keep(table_id=table_id, version=1, text="x")
    assert public_frame_newest(table_id=0, at_least=1) is None
    assert public_frame_newest(table_id=TABLES_KEPT, at_least=1) == (1, "x")
