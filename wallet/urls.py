from django.urls import path

from wallet.views import StatementCsvView, WalletView

app_name = "wallet"
urlpatterns = [
    path("", WalletView.as_view(), name="wallet"),
    path("statement.csv", StatementCsvView.as_view(), name="statement-csv"),
]
