"""Root serialization and the model classes generated code derives from.

``AccountModel`` (versioned) and ``AccountFinalModel`` (final) keep the
original's vocabulary: ``serialize(value) -> size``, ``deserialize() ->
(value, size)``, ``verify() -> bool``, ``attach(data)`` / ``attach_buffer``,
``buffer``. Generated code only supplies the per-struct functions and the
module's native core, asked first (docs/python.md, Native core).

``verify()`` is ``deserialize()`` without keeping the value (docs/limits.md,
section 4): one decode, the same checks, the same limits.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .buffer import BytesLike, ReadBuffer, Reader, WriteBuffer, pack_u32x2_into, unpack_u32x2
from .errors import DecodeError, EncodeError, FBEError
from .limits import MAX_DEPTH, Limits

if TYPE_CHECKING:
    from .struct import Struct  # which imports this module

T = TypeVar("T")

VersionedWrite = Callable[[bytearray, T], int]
VersionedRead = Callable[[Reader, int], T]
FinalWrite = Callable[[bytearray, T], None]
FinalRead = Callable[[Reader, int], tuple[T, int]]


def _as_bytes(data: BytesLike | WriteBuffer | ReadBuffer) -> bytes:
    if isinstance(data, WriteBuffer):
        return bytes(data.buffer)
    if isinstance(data, ReadBuffer):
        return data.data
    return data if isinstance(data, bytes) else bytes(data)


def writable(within_depth: bool, value: T) -> T:
    """``value`` when its structs nest within MAX_DEPTH (generated ``fbe_dn_<Name>``), else an
    EncodeError: no writer writes what no reader reads (docs/limits.md)."""
    if not within_depth:
        raise EncodeError(f"cannot encode {type(value).__name__}: structs nested deeper than {MAX_DEPTH}")
    return value


def _cannot_encode(value: object, error: Exception) -> EncodeError:
    """A writer's error, explained (fbe.explain)."""
    from .struct import explain  # fbe.struct imports this module

    return EncodeError(explain(value, error))


def encode_versioned(write: VersionedWrite[T], value: T) -> bytearray:
    """A versioned root: ``u32 total size | u32 struct offset (8) | body | data``."""
    w = bytearray(8)
    try:
        p = write(w, value)
    except (EncodeError, struct.error, OverflowError, TypeError, AttributeError, ValueError, KeyError,
            RecursionError) as e:
        raise _cannot_encode(value, e) from None
    pack_u32x2_into(w, 0, len(w), p)
    return w


def decode_versioned(read: VersionedRead[T], data: BytesLike, limits: Limits | None = None) -> tuple[T, int]:
    """Decode a versioned root; returns the value and the root's ``total_size``."""
    n = len(data)
    if n < 8:
        raise DecodeError("versioned root shorter than 8 bytes", None, None, 0)
    total, off = unpack_u32x2(data, 0)
    if total < 16:
        raise DecodeError(f"versioned root size {total} below 16", None, None, 0)
    if total > n:
        raise DecodeError(f"versioned root size {total} beyond the buffer of {n} bytes", None, None, 0)
    r = Reader(data, total, limits)
    if off < 8:
        raise DecodeError(f"root struct offset {off} below 8", None, None, 4)
    return read(r, off), total


def encode_final(write: FinalWrite[T], value: T, type_id: int) -> bytearray:
    """A final root: ``u32 size | u32 type id | fields``."""
    w = bytearray(8)
    try:
        write(w, value)
    except (EncodeError, struct.error, OverflowError, TypeError, AttributeError, ValueError, KeyError,
            RecursionError) as e:
        raise _cannot_encode(value, e) from None
    pack_u32x2_into(w, 0, len(w), type_id)
    return w


def decode_final(read: FinalRead[T], data: BytesLike, type_id: int, limits: Limits | None = None) -> tuple[T, int]:
    """Decode a final root; returns the value and the number of bytes it covers (as the original)."""
    n = len(data)
    if n < 8:
        raise DecodeError("final root shorter than 8 bytes", None, None, 0)
    size, tid = unpack_u32x2(data, 0)
    if size < 8:
        raise DecodeError(f"final root size {size} below 8", None, None, 0)
    if tid != type_id:
        raise DecodeError(f"type id {tid} where {type_id} was expected", None, None, 4)
    if size > n:
        raise DecodeError(f"final root size {size} beyond the buffer of {n} bytes", None, None, 0)
    r = Reader(data, size, limits)
    value, end = read(r, 8)
    if end != size:
        raise DecodeError(f"final root covers {end} bytes, its size says {size}", None, None, 0)
    return value, end


class _ModelBase(Generic[T]):
    fbe_type: int = 0
    """The type id of the struct (its ``fbe_type``)."""
    fbe_struct: ClassVar[type[Struct]]
    """The generated struct class whose values the model reads and writes (its ``fbe_codec``)."""
    _final = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "fbe_struct" in vars(cls):  # a generated model class names its struct
            cls.fbe_type = cls.fbe_struct.fbe_type

    def __init__(self, buffer: WriteBuffer | ReadBuffer | None = None, limits: Limits | None = None) -> None:
        self.buffer: WriteBuffer | ReadBuffer = buffer if buffer is not None else WriteBuffer()
        self.limits = limits
        """The limits of verify() and deserialize() (None: the defaults of docs/limits.md)."""

    def _data(self) -> bytes:
        return _as_bytes(self.buffer)

    def attach(self, data: BytesLike | WriteBuffer | ReadBuffer) -> None:
        """Read from ``data`` (bytes, or another model's buffer)."""
        self.buffer = ReadBuffer(_as_bytes(data))

    def attach_buffer(self, buffer: BytesLike | WriteBuffer | ReadBuffer) -> None:
        self.attach(buffer)

    def reset(self) -> None:
        self.buffer = WriteBuffer()

    def serialize(self, value: T) -> int:
        """Serialize ``value`` as the only root of the buffer; return its size."""
        c = self.fbe_struct.fbe_codec
        native = None if c.core is None else (c.core.to_final if self._final else c.core.to_fbe)(c.index, value)
        data = c.encode(value, self._final) if native is None else bytearray(native)
        buf = WriteBuffer()
        buf.buffer = data
        self.buffer = buf
        return len(data)

    def deserialize(self, value: T | None = None) -> tuple[T, int]:
        """Decode the buffer; returns ``(value, size)``. Raises :class:`DecodeError`."""
        data = self._data()
        c = self.fbe_struct.fbe_codec
        if c.core is not None:
            v = (c.core.from_final if self._final else c.core.from_fbe)(c.index, data, self.limits)
            if v is not None:  # the root's size: what the Python reader returns (versioned: total_size)
                return v, unpack_u32x2(data, 0)[0]
        return c.decode(data, self._final, self.limits)

    def verify(self) -> bool:
        """True when the buffer holds a well-formed root of this type: exactly when deserialize() succeeds."""
        data = self._data()
        c = self.fbe_struct.fbe_codec
        if c.core is not None:
            verdict = (c.core.verify_final if self._final else c.core.verify)(c.index, data, self.limits)
            if verdict is not None:
                return verdict
        try:
            c.decode(data, self._final, self.limits)
        except FBEError:
            return False
        return True


class Model(_ModelBase[T]):
    """Versioned model of one root type (generated ``<Name>Model`` derive from it)."""


class FinalModel(_ModelBase[T]):
    """Final model of one root type (generated ``<Name>FinalModel`` derive from it)."""

    _final = True
