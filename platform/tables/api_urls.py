from django.urls import path

from tables.api import StakeLevelListApi, TableListApi

urlpatterns = [
    path("stake-levels/", StakeLevelListApi.as_view(), name="api-stake-levels"),
    path("tables/", TableListApi.as_view(), name="api-tables"),
]
