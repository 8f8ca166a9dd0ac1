"""The house dashboard's admin page and its CSV (docs/OPERATIONS.md "House dashboard"): the
figures of :func:`operations.selectors.dashboard`, every code in the page's language and every
amount in coins, the charts drawn as SVG by the template (:mod:`operations.charts`)."""

from __future__ import annotations

import csv
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.roles import is_auditor
from operations import labels, selectors
from operations.charts import Chart, bar_chart
from wallet.money import format_coins


def may_see_dashboard(user: Any) -> bool:
    return bool(user.is_active and user.is_staff and (
        user.is_superuser or is_auditor(user) or user.has_perm("operations.view_dashboard")))


def dashboard_board(request: HttpRequest) -> selectors.Dashboard:
    """The figures for the window the address asks for (``?days=7|30|90``), to those who may see them."""
    if not may_see_dashboard(request.user):
        raise PermissionDenied
    try:
        days = int(request.GET.get("days", "7"))
    except ValueError:
        days = selectors.PERIODS[0]
    return selectors.dashboard(days=days)


def _coins(minor: int) -> str:
    return format_coins(minor, grouping=True)


def _count(n: int) -> str:
    return formats.number_format(n, force_grouping=True)


def dashboard_charts(board: selectors.Dashboard) -> dict[str, Chart]:
    day_label = "m-d"
    hands = [(formats.date_format(r.day, day_label), r.hands) for r in board.by_day]
    take = [(formats.date_format(r.day, day_label), sum(r.lines.values())) for r in board.by_day]
    hours = [(timezone.localtime(hour).strftime("%H"), n) for hour, n in board.hands_per_hour]
    return {
        "hands_chart": bar_chart(hands, value_text=_count, x_title=_("day"), y_title=_("hands")),
        "take_chart": bar_chart(take, value_text=_coins, x_title=_("day"), y_title=_("coins")),
        "hourly_chart": bar_chart(hours, value_text=_count, x_title=_("hour"), y_title=_("hands")),
    }


def dashboard_context(board: selectors.Dashboard) -> dict[str, Any]:
    """The page's rows, labelled in the active language, each line of a row in the order of
    ``board.houses``."""
    houses = board.houses
    return {
        "board": board,
        "house_columns": [labels.house_label(h) for h in houses],
        "level_rows": [{
            "game": labels.game_label(r.game), "mode": labels.mode_label(r.game, r.mode),
            "stake": labels.stake_label(r.game, r.unit), "name": r.name, "hands": r.hands,
            "lines": [r.lines.get(h, 0) for h in houses],
        } for r in board.by_level],
        "level_totals": {"hands": sum(r.hands for r in board.by_level),
                         "lines": [sum(r.lines.get(h, 0) for r in board.by_level) for h in houses]},
        "day_rows": [{"day": r.day, "hands": r.hands, "lines": [r.lines.get(h, 0) for h in houses],
                      "take": sum(r.lines.values())} for r in reversed(board.by_day)],
        "money_rows": [{"house": labels.house_label(h), "kind": labels.kind_label(k), "coins": c}
                       for h, k, c in board.house_money],
        "dispute_rows": [(_dispute_age(bucket), n) for bucket, n in board.disputes_by_age],
        **dashboard_charts(board),
    }


def _dispute_age(bucket: str) -> str:
    """``"1-3"`` as "1–3 days", ``"7-"`` as "7 days or more"."""
    low, _sep, high = bucket.partition("-")
    if not high:
        return _("%(low)s days or more") % {"low": low}
    return _("%(low)s–%(high)s days") % {"low": low, "high": high}


def dashboard_csv(board: selectors.Dashboard) -> HttpResponse:
    """The dashboard's figures, one a row, by their codes; amounts in minor units."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="dashboard-{board.days}d.csv"'
    out = csv.writer(response)
    out.writerow(["figure", "key", "game", "mode", "level", "house", "kind", "value"])
    for row in board.by_day:
        out.writerow(["hands_by_day", row.day.isoformat(), "", "", "", "", "", row.hands])
        for house, coins in row.lines.items():
            out.writerow(["house_line_by_day", row.day.isoformat(), "", "", "", house, "", coins])
    for lv in board.by_level:
        out.writerow(["hands_by_level", lv.level_id, lv.game, lv.mode, lv.name, "", "", lv.hands])
        for house, coins in lv.lines.items():
            out.writerow(["house_line_by_level", lv.level_id, lv.game, lv.mode, lv.name, house, "", coins])
    for house, kind, coins in board.house_money:
        out.writerow(["house_by_kind", "", "", "", "", house, kind, coins])
    out.writerow(["house_net", "", "", "", "", "", "", board.house_net])
    for hour, n in board.hands_per_hour:
        out.writerow(["hands_per_hour", hour.isoformat(), "", "", "", "", "", n])
    for key, value in (("tables_live", board.tables_live), ("players_seated", board.players_seated),
                       ("coins_in_wallets", board.in_wallets), ("coins_in_escrow", board.in_escrow)):
        out.writerow([key, "", "", "", "", "", "", value])
    for bucket, n in board.disputes_by_age:
        out.writerow(["open_disputes_by_age_days", bucket, "", "", "", "", "", n])
    return response
