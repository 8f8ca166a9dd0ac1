"""Celery tasks: each one line into a service, idempotent by the phase sequence number."""

from config.celery_app import app


@app.task(name="games.expire_phase", ignore_result=True)
def expire_phase(hand_id: int, phase_seq: int) -> None:
    from games.services.hands import hand_expire
    from games.services.retry import with_retries

    with_retries(hand_expire)(hand_id=hand_id, phase_seq=phase_seq)


@app.task(name="games.start_hand", ignore_result=True)
def start_hand(table_id: int, hands_played: int | None = None) -> None:
    from games.services.hands import hand_start_if_ready
    from games.services.retry import with_retries

    with_retries(hand_start_if_ready)(table_id=table_id, hands_played=hands_played)


@app.task(name="games.sweep", ignore_result=True)
def sweep() -> None:
    from games.services.sweeper import hands_sweep

    hands_sweep()
