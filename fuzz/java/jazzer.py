"""Run Jazzer (fuzz/java/pom.xml: com.code-intelligence:jazzer from Maven Central) on the JVM fuzz target
fuzz/java/FuzzReaders.java over a build folder of fuzz/java/build.py (generated Java) or fuzz/kotlin/build.py
(generated Kotlin): its classpath.txt (the target, the generated classes and the runtime) and targets.txt.

    jazzer.py DIR --name java --runs 5000 --seed 1      a short run that repeats: every target at once, a
                                                        fresh corpus, a fixed seed and count (make
                                                        test-java, make test-kotlin)
    jazzer.py DIR --name java --seconds 120             a long one (make fuzz-java, make fuzz-kotlin): the
                                                        binary readers, the JSON readers and the receivers,
                                                        each for that long with its corpus DIR/corpus-GROUP,
                                                        which grows from run to run; a new seed each time

Each run's seed corpus (DIR/seeds-GROUP) is written first by FuzzReaders itself: each struct's default
value in every format and the golden vectors of SHARED, read when it is there (said when it is not). The
inputs in fuzz/java/regressions (failing inputs of past findings; they pick their target by index, in the
targets of SHARED's schemas) join the short run. Only the runtime's and the generated packages' classes are
instrumented for coverage. A finding fails the run; its input is left in build/fuzz/crashes/NAME-GROUP-*
with a Java reproducer beside it, and the log's end is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "tools" / "kotlinc"))

import kotlinc


def jazzer_classpath() -> list[str]:
    """Jazzer's jars, resolved once by Maven from fuzz/java/pom.xml."""
    return kotlinc.maven_classpath(HERE, REPO / "build" / "fuzz" / "jazzer")


def packages(targets: Path) -> list[str]:
    """The generated packages the targets file names (its structs' and its receivers')."""
    found: set[str] = set()
    for line in targets.read_text().splitlines():
        f = line.split("\t")
        found.add(f[1] if f[0] == "receiver" else f[0].rsplit(".", 1)[0])
    return sorted(found)


def fuzz(out: Path, name: str, group: str, budget: list[str], corpus: Path, seed: int) -> bool:
    """One Jazzer run over a group of targets (FuzzReaders: all, binary, json, receivers); prints what it did."""
    targets = out / "targets.txt"
    java = kotlinc.java()
    classpath = (out / "classpath.txt").read_text().strip()
    seeds = out / f"seeds-{group}"
    if seeds.exists():
        shutil.rmtree(seeds)
    r = subprocess.run([java, "-cp", classpath, "FuzzReaders", "seeds", str(targets), group, str(seeds)], check=False)
    if r.returncode != 0:
        return False
    corpus.mkdir(parents=True, exist_ok=True)
    crashes = REPO / "build" / "fuzz" / "crashes"
    crashes.mkdir(parents=True, exist_ok=True)
    include = ":".join(["io.github.fbetoolkit.fbe.**", *(f"{pkg}.**" for pkg in packages(targets))])
    command = [java, "-Xmx2g", "-Xss8m", "-cp", os.pathsep.join([*jazzer_classpath(), classpath]),
               "com.code_intelligence.jazzer.Jazzer", "--target_class=FuzzReaders", f"--target_args={targets} {group}",
               f"--instrumentation_includes={include}", f"--custom_hook_includes={include}",
               f"--reproducer_path={crashes}", f"-artifact_prefix={crashes}/{name}-{group}-", f"-seed={seed}",
               *budget, "-timeout=20", "-rss_limit_mb=4096", "-print_final_stats=1"]
    folders = [str(corpus), str(seeds)]     # libFuzzer adds what it finds to the first
    if group == "all" and (HERE / "regressions").is_dir():
        folders.append(str(HERE / "regressions"))
    log = out / f"jazzer-{group}.log"
    which = "all" if group == "all" else f"the {group}"
    print(f"fuzz-{name}: Jazzer on {which} targets, seed {seed}, {' '.join(budget)} (log: {log})", flush=True)
    with log.open("w") as f:
        r = subprocess.run([*command, *folders], stdout=f, stderr=subprocess.STDOUT, check=False)
    text = log.read_text(errors="replace")
    if r.returncode != 0:
        print("\n".join(text.splitlines()[-80:]))
        print(f"fuzz-{name}: Jazzer found a problem (exit {r.returncode}, seed {seed}): the input is in {crashes}")
        return False
    stats = dict(re.findall(r"^stat::(\w+):\s*(\d+)", text, re.MULTILINE))
    last = [line for line in text.splitlines() if re.match(r"#\d+\s", line)]
    cov = re.search(r"cov: (\d+) ft: (\d+) corp: (\d+)", last[-1]) if last else None
    print(f"fuzz-{name}: {stats.get('number_of_executed_units', '?')} inputs, "
          f"{stats.get('average_exec_per_sec', '?')}/s, " + (f"coverage {cov[1]} edges, {cov[2]} features, "
                                                           f"corpus {cov[3]}, " if cov else "")
          + f"peak RSS {stats.get('peak_rss_mb', '?')} MB: nothing found", flush=True)
    # again on a plain JVM, the allocations counted (Jazzer's hooks allocate too): every input that
    # found new coverage, the seeds and the regressions
    again = subprocess.run([java, "-Xss8m", "-cp", classpath, "FuzzReaders", "run", str(targets), group, *folders],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if again.returncode != 0:
        print(again.stdout)
        print(f"fuzz-{name}: the corpus run again on a plain JVM failed (seed {seed}): the input is named above")
        return False
    print(f"fuzz-{name}: " + again.stdout.strip().splitlines()[-1].removeprefix("fuzz: "))
    return True


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", type=Path)
    p.add_argument("--name", required=True, help="java or kotlin: names the logs and the failing inputs")
    p.add_argument("--runs", type=int, help="inputs to run over all targets at once (a fresh corpus: the run repeats)")
    p.add_argument("--seconds", type=int, help="seconds to run each group (the corpora grow from run to run)")
    p.add_argument("--seed", type=int, default=None, help="libFuzzer's seed (default: the time, printed)")
    a = p.parse_args(argv)
    if (a.runs is None) == (a.seconds is None):
        p.error("give --runs or --seconds")
    out = a.dir.resolve()
    shared = Path(os.environ.get("SHARED", REPO.parent / "shared"))
    if not (shared / "vectors" / "MANIFEST.json").is_file():
        print(f"fuzz-{a.name}: no golden vectors in {shared}/vectors (SHARED): the seeds are default values only")
    seed = a.seed if a.seed is not None else int(time.time()) % (1 << 31)
    if a.runs is not None:
        corpus = out / "corpus-quick"
        if corpus.exists():
            shutil.rmtree(corpus)
        return 0 if fuzz(out, a.name, "all", [f"-runs={a.runs}"], corpus, seed) else 1
    for group in ("binary", "json", "receivers"):
        if not fuzz(out, a.name, group, [f"-max_total_time={a.seconds}"], out / f"corpus-{group}", seed):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
