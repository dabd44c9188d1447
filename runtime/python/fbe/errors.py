"""The exception hierarchy of the FBE runtime.

Every error the runtime or generated code raises on purpose derives from
:class:`FBEError`. Decoders raise :class:`DecodeError` (never ``IndexError``,
``struct.error`` or ``MemoryError``) and say which type, which field and which
absolute buffer offset they were looking at.
"""

from __future__ import annotations

from typing import Any


class FBEError(Exception):
    """Base class of every error raised by ``fbe`` and by generated code."""


class DecodeError(FBEError, ValueError):
    """A buffer (binary or JSON) cannot be decoded.

    ``type`` is the qualified schema type being decoded (``"proto.Account"``),
    ``field`` the field name, ``offset`` the absolute byte position in the
    buffer; each may be ``None`` when unknown.
    """

    def __init__(
        self,
        message: str,
        type: str | None = None,
        field: str | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.type = type
        self.field = field
        self.offset = offset
        self.json_path: str | None = None     # JSON: "shop.Product.tags[1].label" (fbe.jsonfmt.unwind)
        self.json_node: Any = None            # JSON: (object, path below) of the struct being unwound

    def __str__(self) -> str:
        where = []
        if self.json_path is not None:
            where.append(self.json_path)
        elif self.type is not None:
            where.append(self.type + ("." + self.field if self.field else ""))
        elif self.field is not None:
            where.append(self.field)
        if self.offset is not None:
            where.append(f"offset {self.offset}")
        return self.message + (f" ({', '.join(where)})" if where else "")

    def within(self, type: str) -> DecodeError:
        """Record the innermost struct type once (used by generated code)."""
        if self.type is None:
            self.type = type
        return self


class EncodeError(FBEError, ValueError):
    """A value cannot be encoded (out of range, wrong type, NaN in JSON...)."""


class FrameError(FBEError):
    """A protocol stream holds a frame that cannot be valid (size below minimum)."""


class RequestError(FBEError):
    """A Client request failed: rejected, timed out, reset or not sent."""
