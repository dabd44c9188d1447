"""`fbec --rust --rust-serde` (docs/rust.md, Serde): trade.fbe's types, the hostile-names corpus
(tests/names), serde_names/serde.fbe (names of serde's own) and serde_names/cases.fbe (every key
type, unnamed enum values and flag bits, the value types, optional structs, nested collections,
imports, long arrays) in a crate that declares a feature `serde` forwarding to fbe/serde. Without
the feature the crate is what it was, clippy clean (the `cfg_attr`s name a feature it declares);
with it, serde.rs round-trips an Account, the runtime's value types, the corpus's value,
serde.fbe's and cases.fbe's through serde_json (checking the JSON) and cases.fbe's through
bincode. Run by `make test-rust`, which needs cargo."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gen_crate import REPO, generate_modules, sync
from test_rust_generated import CARGO, hostile

BUILD = REPO / "build" / "rust-serde"
MANIFEST = f'''[package]
name = "generated"
version = "0.1.0"
edition = "2021"
publish = false

[features]
serde = ["dep:serde", "fbe/serde"]

[dependencies]
fbe = {{ path = "{REPO / "runtime" / "rust"}" }}
serde = {{ version = "1", features = ["derive"], optional = true }}

[dev-dependencies]
serde_json = "1"
bincode = {{ version = "2", default-features = false, features = ["std", "serde"] }}

[[test]]
name = "serde"
required-features = ["serde"]
'''


def cargo(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARGO_TARGET_DIR": str(REPO / "build" / "rust"), "CARGO_TERM_COLOR": "never",
           "HOSTILE_VECTORS": str(BUILD / "hostile")}
    command = [CARGO, args[0], *([] if args[0] in ("fmt", "fetch") else ["--offline"]), *args[1:]]
    return subprocess.run(command, cwd=BUILD, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def crate() -> Path:
    assert Path(CARGO).exists(), f"no cargo command at {CARGO} (set CARGO)"
    stage = BUILD.with_name(BUILD.name + ".new")
    if stage.exists():
        shutil.rmtree(stage)
    (stage / "tests").mkdir(parents=True)
    names = [hostile.IMPORTS / "market.fbe", hostile.SCHEMA,
             *sorted((Path(__file__).parent / "serde_names").glob("*.fbe"))]
    lib = generate_modules(stage / "src", {"trade": [REPO / "schemas" / "trade.fbe"], "names": names},
                           ("--rust-serde", f"--import={hostile.IMPORTS}"))
    (stage / "src" / "lib.rs").write_text(
        "//! `fbec --rust --rust-serde` output: trade.fbe's, and the hostile names' with serde's own.\n\n"
        + "".join(f"pub mod {g};\n" for g in lib))
    (stage / "Cargo.toml").write_text(MANIFEST)
    shutil.copy(REPO / "runtime" / "rust" / "Cargo.lock", stage / "Cargo.lock")
    (stage / "clippy.toml").write_text("avoid-breaking-exported-api = false\n")
    shutil.copy(Path(__file__).parent / "serde.rs", stage / "tests" / "serde.rs")
    sync(stage, BUILD, keep={"hostile"})
    shutil.rmtree(stage)
    hostile.write_vectors(BUILD / "hostile")
    # The crate's own dev-dependencies (bincode) are in no Cargo.lock of the repo: fetched from
    # crates.io once (as make test-rust fetches the runtime's), so a fresh machine builds it offline.
    r = cargo(["fetch"])
    assert r.returncode == 0, f"cargo fetch:\n{r.stderr[-5000:]}"
    return BUILD


def test_serde_crate_is_rustfmt_clean(crate: Path) -> None:
    r = cargo(["fmt", "--check"])
    assert r.returncode == 0, f"cargo fmt --check:\n{r.stdout[:20000]}{r.stderr[:5000]}"


@pytest.mark.parametrize("features", [[], ["--features", "serde"]], ids=["without", "with"])
def test_serde_crate_is_clippy_clean(crate: Path, features: list[str]) -> None:
    r = cargo(["clippy", "--all-targets", *features, "--", "-D", "warnings"])
    assert r.returncode == 0, f"cargo clippy:\n{r.stderr[-20000:]}"


def test_serde_round_trips_the_values(crate: Path) -> None:
    """An Account, the value types, the hostile names' value (by the reference codec), serde.fbe's
    and cases.fbe's."""
    r = cargo(["test", "--features", "serde", "--test", "serde"])
    assert r.returncode == 0, f"cargo test:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"
    assert "9 passed" in r.stdout, r.stdout[-5000:]
