"""Build and run the Kotlin TCP example: `build.py [ARGS...]` generates the fbec --kotlin --final
--proto code of examples/cpp/tcp/rpc.fbe into examples/kotlin/gen (not checked in), compiles it
with TcpExample.kt by the Kotlin compiler of tools/kotlinc (-Werror -Wextra, cached by content
under build/kotlin) against runtime/java, and runs `TcpExampleKt ARGS...` (no ARGS: a server and a
client on 127.0.0.1, both models). `make example-kotlin` runs it. `build.py --command ARGS...`
compiles and prints the command instead of running it, as shell words (make example-kotlin gives
`--command serve` to tests/tcp_examples)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "tools" / "kotlinc")]

import kotlinc


def group() -> kotlinc.Group:
    """The example's compilation: the generated rpc package and TcpExample.kt."""
    sources = kotlinc.generate([REPO / "examples" / "cpp" / "tcp" / "rpc.fbe"], HERE / "gen")
    return kotlinc.Group("example", [*sources, HERE / "TcpExample.kt"], kotlinc.java_runtime())


def command(g: kotlinc.Group, args: list[str]) -> list[str]:
    """The java command running the example."""
    classpath = os.pathsep.join([str(g.out / "classes"), *g.classpath])
    return [kotlinc.java(), "-cp", classpath, "TcpExampleKt", *args]


def main(args: list[str]) -> int:
    g = group()
    r = kotlinc.compile_groups([g])
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        return r.returncode
    if args[:1] == ["--command"]:
        print(shlex.join(command(g, args[1:])))
        return 0
    return subprocess.run(command(g, args), check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
