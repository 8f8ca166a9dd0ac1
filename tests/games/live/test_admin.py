import pytest
from django.urls import reverse

from games.services import seating
from games.services.hands import hand_start_if_ready

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_see_hands_in_admin_but_cannot_change_them(client, funded, table_for, make_user):
    table = table_for("thirteen")
    for i, user in enumerate([funded(), funded()]):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"a{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    assert client.get(reverse("admin:games_hand_changelist")).status_code == 200
    page = client.get(reverse("admin:games_hand_change", args=[hand.pk])).content.decode()
    assert 'name="_save"' not in page
    assert client.post(reverse("admin:games_hand_delete", args=[hand.pk]), {"post": "yes"}).status_code == 403
