"""The Rust target's output for every schema (the project's and ../shared's) compiles against
runtime/rust clean under `cargo clippy --all-targets -D warnings` and `cargo fmt --check`;
vectors.rs reads and writes the original's golden vectors byte for byte through it, names.rs the
hostile-names corpus's value, and keys.rs checks that sets and maps hold each key once
(docs/targets.md 9, docs/rust.md). Run by `make test-rust`, which needs cargo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gen_crate import REPO, SHARED, generate_modules, groups, sync

sys.path.insert(0, str(REPO / "tests" / "names"))
import hostile  # tests/names: the hostile-names corpus's value by the reference codec

CARGO = os.environ.get("CARGO") or shutil.which("cargo") or str(Path.home() / ".cargo/bin/cargo")
BUILD = REPO / "build" / "rust-gen"


def cargo(args: list[str], extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARGO_TARGET_DIR": str(REPO / "build" / "rust"), "CARGO_TERM_COLOR": "never",
           "SHARED": str(SHARED), **(extra_env or {})}
    command = [CARGO, args[0], *([] if args[0] == "fmt" else ["--offline"]), *args[1:]]
    return subprocess.run(command, cwd=BUILD, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def crate() -> Path:
    """build/rust-gen: a crate of every schema's generated modules and tests/rust/vectors.rs. It is
    written beside it first and then only the files that changed are copied in, so that a warm run
    does not rebuild the generated crate."""
    assert Path(CARGO).exists(), f"no cargo command at {CARGO} (set CARGO)"
    stage = BUILD.with_name(BUILD.name + ".new")
    if stage.exists():
        shutil.rmtree(stage)
    (stage / "tests").mkdir(parents=True)
    lib = generate_modules(stage / "src", groups())
    (stage / "src" / "lib.rs").write_text(
        "//! Every schema's `fbec --rust` output, one module per group of schemas.\n\n"
        + "".join(f"pub mod {g};\n" for g in sorted(lib)))
    (stage / "Cargo.toml").write_text(
        '[package]\nname = "generated"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n'
        f'[dependencies]\nfbe = {{ path = "{REPO / "runtime" / "rust"}" }}\n\n[dev-dependencies]\nserde_json = "1"\n')
    shutil.copy(REPO / "runtime" / "rust" / "Cargo.lock", stage / "Cargo.lock")
    # A user's generated modules often sit in a binary or behind a private `mod`, where clippy
    # lints what it spares a library's exported API (enum_variant_names, wrong_self_convention):
    # lint the generated code as such a user's crate sees it.
    (stage / "clippy.toml").write_text("avoid-breaking-exported-api = false\n")
    for test in ("keys.rs", "hostile.rs", "depth.rs", "chars.rs", "reuse.rs", "names.rs", "enums.rs"):
        shutil.copy(Path(__file__).parent / test, stage / "tests" / test)
    shutil.copytree(Path(__file__).parent / "common", stage / "tests" / "common")
    if "shared" in lib:
        for test in ("vectors.rs", "protocol.rs", "json.rs"):
            shutil.copy(Path(__file__).parent / test, stage / "tests" / test)
    sync(stage, BUILD, keep=set())
    shutil.rmtree(stage)
    return BUILD


def test_generated_rust_is_rustfmt_clean(crate: Path) -> None:
    r = cargo(["fmt", "--check"])
    assert r.returncode == 0, f"cargo fmt --check:\n{r.stdout[:20000]}{r.stderr[:5000]}"


def test_generated_rust_is_clippy_clean(crate: Path) -> None:
    r = cargo(["clippy", "--all-targets", "--", "-D", "warnings"])
    assert r.returncode == 0, f"cargo clippy:\n{r.stderr[-20000:]}"


@pytest.mark.parametrize("test", ["keys", "hostile", "depth", "chars", "reuse", "enums"])
def test_generated_rust_tests(crate: Path, test: str) -> None:
    """keys.rs: sets and maps hold each key once; hostile.rs: the limits policy's shapes; depth.rs: nesting;
    chars.rs: a set or map of char in the order of C++'s signed char; reuse.rs: reading into a value, and a
    reused writer; enums.rs: a byte enum's table of every wire byte."""
    r = cargo(["test", "--test", test])
    assert r.returncode == 0, f"cargo test:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"
    assert " 0 failed" in r.stdout, r.stdout


def test_generated_rust_round_trips_the_hostile_names(crate: Path) -> None:
    """names.rs: the hostile-names corpus's value (written by the reference codec) in both models,
    JSON and text, byte for byte."""
    hostile.write_vectors(BUILD / "hostile")
    r = cargo(["test", "--test", "names"], {"HOSTILE_VECTORS": str(BUILD / "hostile")})
    assert r.returncode == 0, f"cargo test:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"
    assert " 0 failed" in r.stdout, r.stdout


@pytest.mark.parametrize("test", ["vectors", "protocol"])
def test_generated_rust_reads_and_writes_the_golden_vectors(crate: Path, test: str) -> None:
    """vectors.rs: every case in both models; protocol.rs: the protocol streams, bad frames, the model
    notice, the proxy and the client's requests over bytes and a socket."""
    if not (crate / "tests" / f"{test}.rs").exists():
        pytest.skip(f"the golden vectors of ../shared are not available ({SHARED})")
    r = cargo(["test", "--test", test])
    assert r.returncode == 0, f"cargo test:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"
    assert " 0 failed" in r.stdout, r.stdout


def test_generated_rust_json_keeps_the_rules(crate: Path) -> None:
    """json.rs: docs/limits.md 7 through the generated code of ../shared's and the project's schemas."""
    if not (crate / "tests" / "json.rs").exists():
        pytest.skip(f"the schemas of ../shared are not available ({SHARED})")
    r = cargo(["test", "--test", "json"])
    assert r.returncode == 0, f"cargo test:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"
    assert " 0 failed" in r.stdout, r.stdout
