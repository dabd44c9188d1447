"""Optional fields with an explicit default read one way in every language (docs/format.md 3.6).

Built at run time over schemas/tests/defaults.fbe, whose `defaults.Zeros` holds an optional of
every scalar kind with a default equal to its type's zero value (false, 0, 0.0, "", an enum's and
flags' 0, the epoch, the nil uuid), one `= null` and one without a default. A versioned root
written by an older writer (a body of its header only, or cut after `id`) is read with each
missing field at its schema default: the explicit defaults present, the other two absent, in
JSON and written back as versioned bytes (issue 21: Rust and C# read them absent).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

P = struct.pack
TYPE = "defaults.Zeros"
TYPE_ID = 1


def _defaults_codec() -> Any:
    """The runner's codec (fbe.dynamic) of schemas/tests/defaults.fbe."""
    from runner import REPO, _codec

    return _codec(str(REPO / "schemas" / "tests" / "defaults.fbe"))


def versioned_root(fields: bytes) -> bytes:
    """A versioned Zeros root (root size, body offset 8) whose body holds only the given field bytes."""
    body = P("<II", 8 + len(fields), TYPE_ID) + fields
    return P("<II", 8 + len(body), 8) + body


def default_cases(add: Callable[..., None]) -> None:
    """Adds the cases through limits.py's `add(name, suite, request, expect, **kw)`."""
    from limits import _binary  # limits.py imports this module: its helpers are taken here

    codec = _defaults_codec()
    suite = "defaults: optional defaults"
    default = codec.default(TYPE)
    for name, fields, value in (("header-only", b"", default), ("cut-after-id", P("<i", 5), dict(default, id=5))):
        data = versioned_root(fields)
        json_text = str(codec.to_json(value, TYPE)).encode()
        versioned = bytes(codec.encode(value, TYPE, "versioned"))
        for out, result in (("json", json_text), ("versioned", versioned)):
            add(f"optional defaults/Zeros.versioned/{name}->{out}", suite,
                _binary("defaults", "Zeros", "versioned", data, out), "result", result=result)
