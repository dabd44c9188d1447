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

from fbec.model.ir import Schema
from fbec.targets.base import GeneratedFile, Options

from . import field_models, models, protocol, types
from . import json as json_target
from .names import naming

__all__ = ["generate"]


def generate(schema: Schema, options: Options) -> list[GeneratedFile]:
    package = schema.main_package
    with naming(schema):
        files = [
            GeneratedFile(f"{package.name}.h", types.generate(schema, package, options)),
            GeneratedFile(f"{package.name}_models.h", models.generate(schema, package, options, False)),
            GeneratedFile(f"{package.name}_field_models.h", field_models.generate(schema, package, options)),
        ]
        if options.final:
            files.append(GeneratedFile(f"{package.name}_final_models.h",
                                       models.generate(schema, package, options, True)))
        if options.json:
            files.append(GeneratedFile(f"{package.name}_json.h", json_target.generate(schema, package, options)))
        if options.proto:
            files.append(GeneratedFile(f"{package.name}_protocol.h", protocol.generate(schema, package, options, False)))
            if options.final:
                files.append(GeneratedFile(f"{package.name}_final_protocol.h",
                                           protocol.generate(schema, package, options, True)))
    return files
