"""fbe — the Python runtime of the Fast Binary Encoding toolkit.

Generated modules (``fbec --python``) import this package and the standard
library only. The public surface: buffers, the model base classes, the
exception hierarchy, scalar helpers (decimal, uuid, timestamp), text and JSON
formatting helpers and the protocol base classes.
"""

from . import buffer, final, jsonfmt, native, protocol, text, values
from .buffer import Budget, ReadBuffer, Reader, WriteBuffer
from .errors import DecodeError, EncodeError, FBEError, FrameError, RequestError
from .limits import DEFAULT_LIMITS, MAX_DEPTH, Limits
from .model import (
    FinalModel,
    Model,
    decode_final,
    decode_versioned,
    encode_final,
    encode_versioned,
    writable,
)
from .protocol import (
    ClientBase,
    Proxy,
    Receiver,
    Sender,
    attach_stream,
    connect_sender,
    frame_type,
    model_notice,
    wait_response,
)
from .struct import DEFAULT, Codec, Default, Enum, EnumMembers, Flags, Struct, bind, enum_missing, explain
from .text import text_bytes
from .values import (
    EPOCH,
    NIL_UUID,
    decimal_from_double,
    decimal_to_double,
    decode_decimal,
    encode_decimal,
    parse_uuid,
    timestamp_from_datetime,
    timestamp_to_datetime,
    utc,
    uuid1,
    uuid4,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT",
    "DEFAULT_LIMITS",
    "EPOCH",
    "MAX_DEPTH",
    "NIL_UUID",
    "Budget",
    "ClientBase",
    "Codec",
    "DecodeError",
    "Default",
    "EncodeError",
    "Enum",
    "EnumMembers",
    "FBEError",
    "FinalModel",
    "Flags",
    "FrameError",
    "Limits",
    "Model",
    "Proxy",
    "ReadBuffer",
    "Reader",
    "Receiver",
    "RequestError",
    "Sender",
    "Struct",
    "WriteBuffer",
    "attach_stream",
    "bind",
    "buffer",
    "connect_sender",
    "decimal_from_double",
    "decimal_to_double",
    "decode_decimal",
    "decode_final",
    "decode_versioned",
    "encode_decimal",
    "encode_final",
    "encode_versioned",
    "enum_missing",
    "explain",
    "final",
    "frame_type",
    "jsonfmt",
    "model_notice",
    "native",
    "parse_uuid",
    "protocol",
    "text",
    "text_bytes",
    "timestamp_from_datetime",
    "timestamp_to_datetime",
    "utc",
    "uuid1",
    "uuid4",
    "values",
    "wait_response",
    "writable",
]
