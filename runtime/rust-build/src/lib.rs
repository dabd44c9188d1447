//! # fbe-build: `fbec --rust` from a build script
//!
//! As `prost-build` runs `protoc`, this crate runs the FBE compiler `fbec` at build time and puts
//! the generated modules into `OUT_DIR`, so a crate's schemas are compiled with it and never
//! checked in. In `build.rs`:
//!
//! ```no_run
//! fn main() -> std::io::Result<()> {
//!     fbe_build::Config::new().proto(true).compile(&["schemas/shop.fbe"])
//! }
//! ```
//!
//! and in the crate, one module holding a module per schema package (`gen::shop`), which refer to
//! each other as siblings (`super::common`):
//!
//! ```ignore
//! mod gen {
//!     fbe::include_generated!();
//! }
//! ```
//!
//! `fbec` is the command the `fbe` Python package installs (`pip install fbe`); [`Config::fbec`]
//! or the environment variable `FBEC` (shell words: `FBEC="python3 -m fbec"`) name another.
//! A schema's imports are not generated with it: list every schema whose package the code uses.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The file in `OUT_DIR` that [`Config::compile`] writes and `fbe::include_generated!` includes.
pub const GENERATED: &str = "fbe_generated.rs";

/// What to generate and where (the builder of `fbec --rust`'s options).
#[derive(Clone, Debug, Default)]
pub struct Config {
    fbec: Option<Vec<OsString>>,
    options: Vec<&'static str>,
    out_dir: Option<PathBuf>,
}

impl Config {
    /// The types and both binary models of each schema.
    pub fn new() -> Self {
        Self::default()
    }

    /// The compiler's command line (default: `$FBEC` split at whitespace, else `fbec`).
    pub fn fbec<I: IntoIterator<Item = S>, S: Into<OsString>>(&mut self, command: I) -> &mut Self {
        self.fbec = Some(command.into_iter().map(Into::into).collect());
        self
    }

    /// Also the protocol of the schemas' messages (`--proto`: Sender, Receiver, Proxy, Client).
    pub fn proto(&mut self, on: bool) -> &mut Self {
        self.option("--proto", on)
    }

    /// Also the JSON of the generated types (`--json`).
    pub fn json(&mut self, on: bool) -> &mut Self {
        self.option("--json", on)
    }

    /// Serde's `Serialize` and `Deserialize` on the generated types when the crate's feature
    /// `serde` is on (`--rust-serde`; the crate declares the feature, docs/rust.md).
    pub fn serde(&mut self, on: bool) -> &mut Self {
        self.option("--rust-serde", on)
    }

    fn option(&mut self, option: &'static str, on: bool) -> &mut Self {
        self.options.retain(|o| *o != option);
        if on {
            self.options.push(option);
        }
        self
    }

    /// Where the code goes (default: the build script's `OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Runs fbec on each schema, then writes `fbe_generated.rs`: a `pub mod` per generated
    /// package module. Tells cargo to run the build script again when a schema or `FBEC` changes.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> io::Result<()> {
        let out = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => PathBuf::from(std::env::var_os("OUT_DIR").ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotFound, "OUT_DIR is not set: call compile from a build script")
            })?),
        };
        let modules = out.join("fbe");
        if modules.exists() {
            fs::remove_dir_all(&modules)?;
        }
        let command = self.command();
        println!("cargo:rerun-if-env-changed=FBEC");
        for schema in schemas {
            let schema = schema.as_ref();
            println!("cargo:rerun-if-changed={}", schema.display());
            let mut run = Command::new(&command[0]);
            run.args(&command[1..]).args(["-q", "--rust"]).args(&self.options);
            run.arg(format!("--input={}", schema.display())).arg(format!("--output={}", modules.display()));
            let done = run.output().map_err(|e| {
                let name = command[0].to_string_lossy();
                io::Error::new(e.kind(), format!("fbe-build: cannot run `{name}` (install fbe, or set FBEC): {e}"))
            })?;
            if !done.status.success() {
                let said = String::from_utf8_lossy(&done.stderr);
                return Err(io::Error::other(format!("fbe-build: fbec failed on {}: {said}", schema.display())));
            }
        }
        fs::write(out.join(GENERATED), wrap(&modules)?)
    }

    fn command(&self) -> Vec<OsString> {
        if let Some(command) = &self.fbec {
            return command.clone();
        }
        match std::env::var("FBEC") {
            Ok(words) if !words.trim().is_empty() => words.split_whitespace().map(OsString::from).collect(),
            _ => vec![OsString::from("fbec")],
        }
    }
}

/// `pub mod <name> { <file> }` for each generated `<name>.rs` of `dir`, in name order: one file to
/// include (an included file may not begin with the inner doc comments a generated module has, an
/// inline module may). A crate uses part of what a schema declares: the rest is no dead code of its.
fn wrap(dir: &Path) -> io::Result<String> {
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.map(|e| e.path())).collect::<io::Result<_>>()?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    files.retain(|f| f.extension().is_some_and(|x| x == "rs"));
    files.sort();
    let mut text = String::new();
    for file in files {
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        text += &format!("#[allow(dead_code)]\npub mod {name} {{\n{}}}\n", fs::read_to_string(&file)?);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_each_module_in_name_order() {
        let dir = std::env::temp_dir().join(format!("fbe-build-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("shop.rs"), "//! shop\npub struct Order {}\n").unwrap();
        fs::write(dir.join("common.rs"), "//! common\n").unwrap();
        fs::write(dir.join("notes.txt"), "not a module").unwrap();
        let text = wrap(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "#[allow(dead_code)]\npub mod common {\n//! common\n}\n#[allow(dead_code)]\npub mod shop {\n//! shop\npub struct Order {}\n}\n");
    }

    #[test]
    fn options_and_command() {
        let mut c = Config::new();
        c.proto(true).json(true).proto(true).json(false);
        assert_eq!(c.options, ["--proto"]);
        c.fbec(["python3", "-m", "fbec"]);
        assert_eq!(c.command(), ["python3", "-m", "fbec"]);
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let dir = std::env::temp_dir().join(format!("fbe-build-missing-{}", std::process::id()));
        let e = Config::new().fbec(["/nonexistent/fbec"]).out_dir(&dir).compile(&["x.fbe"]).unwrap_err();
        assert!(e.to_string().contains("cannot run `/nonexistent/fbec`"), "{e}");
    }
}
