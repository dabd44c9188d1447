"""The native core: generated classes read and write through it when it is importable.

``fbe_native`` (built from ``runtime/python-native``, a Rust extension module) interprets the
table every generated module holds (``FBE_CORE``, written by ``fbec --python``): one reader and
one writer of each binary model for every schema. A call gives exactly what the generated
Python code gives, or None, and then the class runs that code (which also raises every error,
with its text). docs/python.md, "Native core", says what it covers.

``FBE_NATIVE=0`` in the environment turns the core off; ``FBE_NATIVE=1`` requires it (an
ImportError when it is missing); unset, it is used when importable.
"""

from __future__ import annotations

import os
import uuid
from types import ModuleType
from typing import Any, Protocol

from .limits import Limits
from .values import decode_decimal, encode_decimal


class Core(Protocol):
    """The table of one generated module, interpreted by the native core."""

    def covers(self, index: int) -> bool: ...

    def to_fbe(self, index: int, value: Any) -> bytes | None: ...

    def from_fbe(self, index: int, data: Any, limits: Limits | None = None) -> Any: ...

    def verify(self, index: int, data: Any, limits: Limits | None = None) -> bool | None: ...

    def to_final(self, index: int, value: Any) -> bytes | None: ...

    def from_final(self, index: int, data: Any, limits: Limits | None = None) -> Any: ...

    def verify_final(self, index: int, data: Any, limits: Limits | None = None) -> bool | None: ...


def _load() -> ModuleType | None:
    wanted = os.environ.get("FBE_NATIVE", "")
    if wanted == "0":
        return None
    try:
        import fbe_native  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        if wanted == "1":
            raise
        return None
    return fbe_native  # type: ignore[no-any-return,unused-ignore]


module = _load()
"""The extension module ``fbe_native``, or None (pure Python)."""


def _uuid(raw: bytes) -> uuid.UUID:
    return uuid.UUID(bytes=raw)


def core(table: tuple[Any, ...]) -> Core | None:
    """The native core of a generated module's table, or None (pure Python)."""
    if module is None:
        return None
    c: Core = module.Core(table, decode_decimal, encode_decimal, _uuid)
    return c
