"""Names the C and C++ standard headers define as macros, which would replace a schema name used as a
C++ identifier (a field named `EOF` or `INT32_MAX`, a struct named `assert`): the list in macros.txt
(what it holds and how it was measured is said there), data beside this module.
"""

from pathlib import Path

STANDARD_MACROS = frozenset(name for line in (Path(__file__).parent / "macros.txt").read_text().splitlines()
                            if not line.startswith("#") for name in line.split())
