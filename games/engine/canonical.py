"""The one canonical JSON text of the platform: hand records are hashed as it
(docs/HAND_HISTORY.md) and ledger idempotency payloads are compared as it.

>>> canonical_json({"b": [1, 2], "a": "十三张"})
'{"a":"十三张","b":[1,2]}'
"""

from __future__ import annotations

import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 (not ``\\u`` escapes), and no NaN or infinity."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
