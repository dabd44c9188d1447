"""fbec.targets.javascript: plain JavaScript for a schema package: `fbec --javascript`.

`fbec --javascript` writes `<package>.js` (an ES module, no build step) and its TypeScript
declarations `<package>.d.ts`: the code of `fbec --typescript` (fbec.targets.typescript) without
its type annotations, and the types in the declarations, emitted directly from the IR
(docs/javascript.md).
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import GeneratedFile, Options
from fbec.targets.typescript import generate_package


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return generate_package(schema, schema.main_package, options, ts=False)
