from django.urls import path

from history.api import (
    HandChainListApi,
    HandRecordDetailApi,
    HandRecordExportApi,
    HandRecordListApi,
    HandRecordMyExportApi,
)

urlpatterns = [
    path("hands/", HandRecordListApi.as_view(), name="api-history-hands"),
    path("hands/export/", HandRecordMyExportApi.as_view(), name="api-history-my-export"),
    path("hands/<id:hand_id>/", HandRecordDetailApi.as_view(), name="api-history-hand"),
    path("export/", HandRecordExportApi.as_view(), name="api-history-export"),
    path("chains/", HandChainListApi.as_view(), name="api-history-chains"),
]
