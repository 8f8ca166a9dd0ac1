"""OpenAPI schema generation (drf-spectacular)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema


class AutoSchema(BaseAutoSchema):
    """Names nested serializers after the API that owns them (``MeApi.OutputSerializer`` →
    ``MeOutput``), so every ``<Entity><Action>Api`` may keep its own ``OutputSerializer``."""

    def _get_serializer_name(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> str:
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        cls = serializer if isinstance(serializer, type) else type(serializer)
        owner, _, _ = cls.__qualname__.rpartition(".")
        generic = name in ("Input", "Output", "Filter")
        if generic and owner and not getattr(getattr(cls, "Meta", None), "ref_name", None):
            return owner.split(".")[-1].removesuffix("Api") + name
        return name
