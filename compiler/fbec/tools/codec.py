"""`fbec decode` and `fbec encode`: FBE bytes <-> JSON / text with only the schema.

    fbec decode --input=SCHEMA [--type=package.Type] [--model=versioned|final]
                [--format=json|text|value] [--binary=auto|raw|hex|base64] [FILE]
    fbec encode --input=SCHEMA [--type=package.Type] [--model=versioned|final]
                [--from=auto|json|value] [--to=raw|hex|base64] [--output=OUT] [FILE]

The work is done by the Python runtime's dynamic codec (`fbe.dynamic`),
driven by the IR of the schema. Exit status (as every fbec command): 0
success, 1 a schema that does not compile or data that is malformed (what
could be decoded is still printed), 2 bad usage (options, missing files,
a root buffer without `--type`).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import os
import re
import sys
from typing import Any

from ..model.resolve import compile_reported
from . import add_imports


def _runtime() -> Any:
    """`fbe.dynamic`: the Python runtime, which the fbe-toolkit wheel installs beside fbec (code
    generation alone needs only fbec, so it is imported here, by the two commands that use it)."""
    try:
        from fbe import dynamic
    except ImportError as e:
        raise UsageError(f"the Python runtime `fbe` is not importable ({e}): install the toolkit "
                         "(pip install .), or from a checkout run PYTHONPATH=compiler:runtime/python "
                         "python3 -m fbec ...") from None
    return dynamic


class UsageError(Exception):
    """Bad arguments or input that is not data (exit status 2)."""
    status = 2


class InputError(UsageError):
    """A schema with errors (reported above) or input that is malformed (exit status 1)."""
    status = 1


def load_codec(schema: str, imports: list[str]) -> Any:
    if not os.path.isfile(schema):
        raise UsageError(f"schema '{schema}' does not exist")
    ir = compile_reported(schema, imports)
    if ir is None:
        raise InputError(f"schema '{schema}' does not compile")
    return _runtime().DynamicCodec(ir)


def _root(codec: Any, name: str) -> Any:
    """The struct --type names (a UsageError when the schema has none of that name)."""
    try:
        return codec.struct(name)
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None


def _parser(prog: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """The options decode and encode share: the schema, its import folders, the root type, the model."""
    p = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog)
    p.add_argument("-i", "--input", metavar="SCHEMA", required=True, help="the .fbe schema")
    add_imports(p)
    p.add_argument("-t", "--type", metavar="TYPE",
                   help="the root type (package.Type, or Type of the schema's package); "
                        "without it the data is a protocol stream and each frame's type id picks the message")
    p.add_argument("-m", "--model", choices=("versioned", "final"), default="versioned",
                   help="binary model (default: versioned)")
    return p


_HEX = re.compile(rb"^(?:0x)?[0-9a-fA-F\s]+$")
_B64 = re.compile(rb"^[A-Za-z0-9+/=\s]+$")


def read_binary(data: bytes, how: str) -> tuple[bytes, str]:
    """Raw bytes from raw, hex or base64 input; `auto` guesses from the content."""
    if how == "auto":
        stripped = data.strip()
        if stripped and _HEX.match(stripped) and len(re.sub(rb"\s|^0x", b"", stripped)) % 2 == 0:
            how = "hex"
        elif stripped and _B64.match(stripped):
            how = "base64"
        else:
            how = "raw"
    if how == "raw":
        return data, how
    try:
        if how == "hex":
            text = re.sub(rb"\s", b"", data)
            if text[:2].lower() == b"0x":
                text = text[2:]
            return bytes.fromhex(text.decode("ascii")), how
        return base64.b64decode(re.sub(rb"\s", b"", data), validate=True), how
    except (ValueError, binascii.Error, UnicodeDecodeError) as e:
        raise UsageError(f"input is not valid {how}: {e}") from None


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read '{path}': {e.strerror}") from None


def _write_text(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stdout.buffer.flush()


# ---------------------------------------------------------------- decode

def _decode_parser() -> argparse.ArgumentParser:
    p = _parser("fbec decode", "Print an FBE buffer as JSON or text, with only its schema.",
                "Example: fbec decode --input=proto.fbe --type=proto.Account account.bin. Exit status: 0 decoded, "
                "1 malformed data or a schema with errors, 2 usage (a missing file or option, an unknown type, "
                "a single root without --type).")
    p.add_argument("-f", "--format", choices=("json", "text", "value"), default="json",
                   help="json: the FBE JSON mapping; text: the original's printed text; "
                        "value: typed JSON that keeps every bit (what `fbec encode` reads best)")
    p.add_argument("--binary", choices=("auto", "raw", "hex", "base64"), default="auto",
                   help="how FILE holds the bytes (default: auto-detect)")
    p.add_argument("--indent", type=int, default=None, metavar="N", help="indent --format=value output")
    p.add_argument("--verify", action="store_true",
                   help="kept for older scripts: every decode checks type ids and sizes as verify() does")
    p.add_argument("file", nargs="?", metavar="FILE", help="the data (default: standard input)")
    return p


def _render(codec: Any, value: Any, q: str, fmt: str, indent: int | None) -> str:
    if fmt == "json":
        return str(codec.to_json(value, q))
    if fmt == "text":
        return str(codec.to_text(value, q))
    return str(codec.dumps_described(value, q, indent))


def decode(args: argparse.Namespace) -> int:
    try:
        codec = load_codec(args.input, args.imports)
        data, _ = read_binary(_read(args.file), args.binary)
        if args.type is not None:
            root = _root(codec, args.type)
    except UsageError as e:
        print(f"fbec decode: error: {e}", file=sys.stderr)
        return e.status
    dynamic = _runtime()
    from fbe import DecodeError, EncodeError

    if not data:
        print("fbec decode: warning: the input is empty", file=sys.stderr)
    if args.type is None:
        return _decode_stream(codec, data, args, dynamic)
    q = root.qualified
    try:
        value, size = codec.decode(data, q, args.model, check=args.verify)
    except DecodeError as e:
        partial = getattr(e, "partial", None)
        if isinstance(partial, dict):
            try:
                _write_text(_render(codec, partial, q, args.format, args.indent) + "\n")
            except (EncodeError, KeyError, TypeError, ValueError):
                pass
        _report(e, dynamic, "decode", root.name)
        return 1
    _warn_root(codec, data, root, size, args.model)
    try:
        _write_text(_render(codec, value, q, args.format, args.indent) + "\n")
    except EncodeError as e:
        print(f"fbec decode: error: {e}", file=sys.stderr)
        return 1
    return 0


def _report(e: Any, dynamic: Any, tool: str, root: str = "") -> None:
    where = dynamic.path_text(e)
    if root and where:
        where = root + ("" if where.startswith("[") else ".") + where
    msg = e.message if hasattr(e, "message") else str(e)
    at = f" at offset {e.offset}" if getattr(e, "offset", None) is not None else ""
    inside = f" in {where}" if where else (f" in {e.type}" if getattr(e, "type", None) else "")
    print(f"fbec {tool}: error: {msg}{at}{inside}", file=sys.stderr)
    if getattr(e, "partial", None) is not None:
        print(f"fbec {tool}: note: what could be decoded before the error was printed", file=sys.stderr)


def _warn_root(codec: Any, data: bytes, root: Any, size: int, model: str) -> None:
    if size < len(data):
        print(f"fbec decode: warning: {len(data) - size} bytes after the root (size {size}) were ignored",
              file=sys.stderr)
    elif size > len(data):
        print(f"fbec decode: warning: the root says it has {size} bytes, the data has {len(data)}",
              file=sys.stderr)
    try:
        if model == "final":
            tid = int.from_bytes(data[4:8], "little")
        else:
            off = int.from_bytes(data[4:8], "little")
            tid = int.from_bytes(data[off + 4:off + 8], "little")
    except (IndexError, ValueError):
        return
    if tid != root.type_id:
        print(f"fbec decode: warning: the data's type id is {tid}, {root.qualified} has {root.type_id}"
              " (read anyway, as the original reader does)", file=sys.stderr)


def _decode_stream(codec: Any, data: bytes, args: argparse.Namespace, dynamic: Any) -> int:
    from fbe import DecodeError, EncodeError
    status = 0
    try:
        frames = codec.decode_stream(data, args.model)
    except DecodeError as e:
        frames = getattr(e, "partial", None) or []
        status = 1
        error: Any | None = e
    else:
        error = None
    if (error is not None or any(s is None for _, s, _ in frames)) and _one_frame(data):
        # One buffer that is not a message the schema's Receiver dispatches: most likely a
        # single root written by serialize(), which needs its type.
        print(f"fbec decode: error: {_root_hint(codec, data, args.model)}", file=sys.stderr)
        return 2
    for pos, s, value in frames:
        if s is None:
            tid = _frame_type(codec, value, args.model)
            print(f"fbec decode: warning: frame at offset {pos} has type id {tid}, "
                  "which is no message of the schema (skipped, as a receiver does)", file=sys.stderr)
            continue
        try:
            _write_text(_render(codec, value, s.qualified, args.format, args.indent) + "\n")
        except EncodeError as e:
            print(f"fbec decode: error: frame at offset {pos}: {e}", file=sys.stderr)
            status = 1
    if error is not None:
        _report(error, dynamic, "decode")
    return status


def _one_frame(data: bytes) -> bool:
    return len(data) >= 8 and int.from_bytes(data[:4], "little") == len(data)


def _root_hint(codec: Any, data: bytes, model: str) -> str:
    """What to say about one buffer that does not decode as a protocol stream."""
    try:
        tid = _frame_type(codec, data, model)
    except Exception:  # noqa: BLE001 - any malformed header: no type id to suggest
        tid = None
    structs = [] if tid is None else sorted(q for q, s in codec.structs.items() if s.type_id == tid)
    found = f"type id {tid}" if tid is not None else "no readable type id"
    candidates = (" (the schema's structs with that type id: " + ", ".join(structs) + ")") if structs else ""
    return (f"the input is one buffer with {found}, not a stream of messages the schema's Receiver "
            f"dispatches: pass --type=TYPE to decode it as a single root{candidates}")


def _frame_type(codec: Any, frame: bytes, model: str) -> int | None:
    for _, _, tid in codec.frames(frame, model):
        return tid  # type: ignore[no-any-return]
    return None


# ---------------------------------------------------------------- encode

def _encode_parser() -> argparse.ArgumentParser:
    p = _parser("fbec encode", "Write FBE bytes from JSON, with only the schema.",
                "Example: fbec encode --input=proto.fbe --type=proto.Account --to=hex account.json. Exit status: "
                "0 written, 1 malformed JSON, a value that does not fit its field or a schema with errors, "
                "2 usage (a missing file or option, an unknown type).")
    p.add_argument("--from", dest="source", choices=("auto", "json", "value"), default="auto",
                   help="json: the FBE JSON mapping; value: the typed value JSON of `fbec decode --format=value`; "
                        "auto (default): value when the object has an \"@type\" member")
    p.add_argument("--to", choices=("raw", "hex", "base64"), default=None,
                   help="output form (default: raw, or hex when standard output is a terminal)")
    p.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="one JSON value, a JSON array of values or JSON lines (several roots make a "
                        "protocol stream); default: standard input")
    return p


def _documents(text: str) -> list[Any]:
    """One JSON document, or one per non-empty line (JSON lines); read by the runtime's JSON
    parser, so the readers' rules hold (nesting bounded before parsing, no duplicate members)."""
    from fbe import DecodeError, jsonfmt

    def message(e: DecodeError) -> str:
        text = e.message if hasattr(e, "message") else str(e)
        return text if text.startswith("invalid JSON") else f"invalid JSON: {text}"

    try:
        doc = jsonfmt.parse(text)
    except DecodeError as first:
        docs = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    docs.append(jsonfmt.parse(line))
                except DecodeError as e:
                    raise InputError(f"{message(e)} (line {n})" if len(docs) else message(first)) from None
        return docs
    return doc if isinstance(doc, list) else [doc]


def encode(args: argparse.Namespace) -> int:
    try:
        codec = load_codec(args.input, args.imports)
        raw = _read(args.file)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(f"input is not UTF-8 JSON: {e}") from None
        docs = _documents(text)
        if not docs:
            raise UsageError("no JSON value in the input")
        q = None
        if args.type is not None:
            q = _root(codec, args.type).qualified
    except UsageError as e:
        print(f"fbec encode: error: {e}", file=sys.stderr)
        return e.status
    from fbe import DecodeError, EncodeError

    out = bytearray()
    for n, doc in enumerate(docs):
        where = f"value {n + 1}: " if len(docs) > 1 else ""
        described = args.source == "value" or (args.source == "auto" and isinstance(doc, dict) and "@type" in doc)
        t = q
        if t is None:
            if not (isinstance(doc, dict) and "@type" in doc):
                print(f"fbec encode: error: {where}no --type given and the value has no \"@type\" member",
                      file=sys.stderr)
                return 2
            try:
                t = codec.struct(doc["@type"]).qualified
            except KeyError as e:
                print(f"fbec encode: error: {where}{e.args[0]}", file=sys.stderr)
                return 2
        try:
            value = codec.from_described(doc, t) if described else codec.from_json(doc, t)
            out += codec.encode(value, t, args.model)
        except (EncodeError, DecodeError) as e:
            print(f"fbec encode: error: {where}{e}", file=sys.stderr)
            return 1
    form = args.to or ("hex" if args.output is None and sys.stdout.isatty() else "raw")
    data = bytes(out)
    if form == "hex":
        data = data.hex().encode("ascii") + b"\n"
    elif form == "base64":
        data = base64.b64encode(data) + b"\n"
    if args.output is not None:
        with open(args.output, "wb") as f:
            f.write(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0
