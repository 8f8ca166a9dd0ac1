"""Each patch of a library's internals (kernel/patches/) was written for the installed version of
that library: an upgrade fails here until someone has reviewed the patch against the new
version and set its ``WRITTEN_FOR`` (kernel/patches/__init__.py says how)."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import pytest

import kernel.patches
from kernel.patches import broker, cache, channel_layer, installed_versions, redis_parsers
from kernel.patches.postgresql import base as postgresql_base


def _assert_written_for_installed(patch: ModuleType) -> None:
    written_for = patch.WRITTEN_FOR
    installed = installed_versions(written_for)
    assert installed == written_for, (
        f"{patch.__name__} was written for {written_for}, installed are {installed}: review the patch "
        "against the new version, run its tests and benchmark, then update WRITTEN_FOR"
    )


def test_the_lean_channel_layer_reader_was_written_for_the_installed_channels_redis_and_hiredis() -> None:
    _assert_written_for_installed(channel_layer)


def test_the_pubsub_parser_was_written_for_the_installed_redis() -> None:
    _assert_written_for_installed(redis_parsers)


def test_the_broker_transport_was_written_for_the_installed_kombu_and_redis() -> None:
    _assert_written_for_installed(broker)


def test_the_redis_cache_was_written_for_the_installed_django_and_redis() -> None:
    _assert_written_for_installed(cache)


def test_the_postgresql_backend_was_written_for_the_installed_django_and_psycopg_pool() -> None:
    _assert_written_for_installed(postgresql_base)


def test_every_module_of_the_patches_package_names_the_versions_it_was_written_for() -> None:
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(kernel.patches.__path__, prefix="kernel.patches.")
        if not info.ispkg
    ]
    assert {m.__name__ for m in modules} >= {"kernel.patches.channel_layer", "kernel.patches.postgresql.base"}
    for module in modules:
        assert isinstance(getattr(module, "WRITTEN_FOR", None), dict), module.__name__
        assert module.WRITTEN_FOR, module.__name__


def test_a_patch_written_for_another_version_than_the_installed_one_fails_the_check() -> None:
    stale = ModuleType("stale_patch")
    stale.WRITTEN_FOR = {"Django": "4.2.0"}  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="review the patch"):
        _assert_written_for_installed(stale)
