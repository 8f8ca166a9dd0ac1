"""Root URLs."""

from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.sign_in import admin_sign_out
from accounts.views import HomeView, set_language
from config.health import healthz
from config.metrics_view import MetricsView
from kernel.bounds import IdConverter

register_converter(IdConverter, "id")

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", MetricsView.as_view(), name="metrics"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/accounts/", include("accounts.api_urls")),
    path("api/wallet/", include("wallet.api_urls")),
    path("api/", include("tables.api_urls")),
    path("api/history/", include("history.api_urls")),
    path("api/disputes/", include("disputes.api_urls")),
    path("history/", include("history.urls")),
    path("disputes/", include("disputes.urls")),
    path("responsible/", include("responsible.urls")),
    path("rewards/", include("rewards.urls")),
    path("friends/", include("friends.urls")),
    path("admin/integrity/", include("integrity.urls")),
    # admin's own log-out, taken before admin.site.urls: it stops play as the site's log-out does
    path("admin/logout/", admin_sign_out, name="admin-logout"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("wallet/", include("wallet.urls")),
    path("", include("tables.urls")),
    path("", HomeView.as_view(), name="home"),
]
