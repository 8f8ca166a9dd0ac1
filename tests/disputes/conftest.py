"""The history tests' live tables and people, shared with the dispute tests."""

from tests.history.conftest import _postgres_only, live, people  # noqa: F401
