from django.urls import path

from wallet.apis import WalletBalanceApi, WalletStatementApi

urlpatterns = [
    path("balance/", WalletBalanceApi.as_view(), name="api-wallet-balance"),
    path("statement/", WalletStatementApi.as_view(), name="api-wallet-statement"),
]
