//! Generates every row's code into OUT_DIR at build time, from the schemas of the C++ benchmark
//! (bench/cpp/schemas, field for field the trade model of schemas/trade.fbe): ours with fbec
//! (`$FBE_PYTHON -m fbec --rust --final --json`, the compiler of this checkout), prost's with protoc
//! (prost-build), Cap'n Proto's with the capnp tool (capnpc) and FlatBuffers' with flatc.
//! Nothing is written into the checkout.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(what: &str, command: &mut Command) {
    let status = command.status().unwrap_or_else(|e| panic!("{what}: cannot run {:?}: {e}", command.get_program()));
    assert!(status.success(), "{what}: {command:?} failed ({status})");
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let repo = manifest.join("../..").canonicalize().unwrap();
    let schemas = repo.join("bench/cpp/schemas");
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    let python = env::var("FBE_PYTHON").unwrap_or_else(|_| "python3".into());
    for path in [
        Path::new("schemas/trade.fbe"),
        Path::new("bench/cpp/schemas/trade.proto"),
        Path::new("bench/cpp/schemas/trade.capnp"),
        Path::new("bench/cpp/schemas/trade.fbs"),
        Path::new("compiler/fbec"),
    ] {
        println!("cargo:rerun-if-changed={}", repo.join(path).display());
    }
    println!("cargo:rerun-if-env-changed=FBE_PYTHON");

    run(
        "fbec --rust",
        Command::new(&python)
            .args(["-m", "fbec", "-q", "--rust", "--final", "--json"])
            .arg(format!("--input={}", repo.join("schemas/trade.fbe").display()))
            .arg(format!("--output={}", out.join("fbe").display()))
            .env("PYTHONPATH", repo.join("compiler")),
    );
    // The generated module starts with inner doc comments, which include! refuses: a module file.
    std::fs::write(
        out.join("ours.rs"),
        format!("#[path = {:?}]\npub mod proto;\n", out.join("fbe/proto.rs").display().to_string()),
    )
    .unwrap();
    prost_build::compile_protos(&[schemas.join("trade.proto")], &[&schemas]).expect("prost-build (protoc)");
    capnpc::CompilerCommand::new()
        .src_prefix(&schemas)
        .file(schemas.join("trade.capnp"))
        .run()
        .expect("capnpc (the capnp tool)");
    run("flatc --rust", Command::new("flatc").args(["--rust", "-o"]).arg(&out).arg(schemas.join("trade.fbs")));
}
