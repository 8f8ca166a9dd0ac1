from django.urls import path

from accounts.api import MeApi

urlpatterns = [path("me/", MeApi.as_view(), name="api-me")]
