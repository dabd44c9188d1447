//! Generates the rpc protocol (../cpp/tcp/rpc.fbe) into OUT_DIR with fbe-build: the fbec of $FBEC,
//! else the repository's compiler run by python3.
use std::path::Path;

fn main() -> std::io::Result<()> {
    let mut config = fbe_build::Config::new();
    if std::env::var_os("FBEC").is_none() {
        let compiler = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../compiler");
        println!("cargo:rerun-if-changed={}", compiler.join("fbec").display());
        std::env::set_var("PYTHONPATH", compiler);
        config.fbec(["python3", "-m", "fbec"]);
    }
    config.proto(true).compile(&["../cpp/tcp/rpc.fbe"])
}
