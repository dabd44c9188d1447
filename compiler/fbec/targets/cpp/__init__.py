"""The C++ target: `fbec --cpp [--final]`.

Files of the main package, named as the original compiler's:

* `<package>.h`                - enums, flags and structs, with printing (`types.py`)
* `<package>_models.h`         - the versioned model (`models.py`)
* `<package>_field_models.h`   - its field models, the original's in-place API (`field_models.py`)
* `<package>_final_models.h`   - the final model, with --final (`models.py`)
* `<package>_json.h`           - JSON conversion (RapidJSON), with --json (`json.py`)
* `<package>_protocol.h`       - Sender, Receiver, Proxy and Client of versioned frames, with --proto
* `<package>_final_protocol.h` - the same for final frames, with --proto --final (`protocol.py`)

The generated code is thin: struct definitions plus, per struct, straight-line
field code at offsets taken from the IR. Buffers, slot codecs, decimal,
uuid and printing live in the header-only runtime (runtime/cpp/include/fbe).
"""

from __future__ import annotations

from collections.abc import Callable

from fbec.model.ir import Schema
from fbec.targets.base import GeneratedFile, Options

from . import field_models, models, protocol, types
from . import json as json_target
from .names import naming

__all__ = ["generate"]


def generate(schema: Schema, options: Options) -> list[GeneratedFile]:
    package = schema.main_package
    # (the file's suffix after the package name, whether the options ask for it, its text)
    files: list[tuple[str, bool, Callable[[], str]]] = [
        ("", True, lambda: types.generate(schema, package, options)),
        ("_models", True, lambda: models.generate(schema, package, options, False)),
        ("_field_models", True, lambda: field_models.generate(schema, package, options)),
        ("_final_models", options.final, lambda: models.generate(schema, package, options, True)),
        ("_json", options.json, lambda: json_target.generate(schema, package, options)),
        ("_protocol", options.proto, lambda: protocol.generate(schema, package, options, False)),
        ("_final_protocol", options.proto and options.final, lambda: protocol.generate(schema, package, options, True)),
    ]
    with naming(schema):
        return [GeneratedFile(f"{package.name}{suffix}.h", text()) for suffix, wanted, text in files if wanted]
