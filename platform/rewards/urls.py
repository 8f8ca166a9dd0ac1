from django.urls import path

from rewards.views import DailyBonusClaimView

app_name = "rewards"
urlpatterns = [
    path("daily-bonus/", DailyBonusClaimView.as_view(), name="daily-bonus"),
]
