//! libFuzzer target: the generated readers of every schema in both models (fbe_fuzz::check).
//! With FBE_FUZZ_SEEDS=DIR it writes the default value of every type into DIR/models (both models)
//! and DIR/json (JSON) and exits.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        if let Some(dir) = std::env::var_os("FBE_FUZZ_SEEDS") {
            fbe_fuzz::write_default_seeds(std::path::Path::new(&dir)).expect("writing the seeds");
            std::process::exit(0);
        }
    },
    |data: &[u8]| fbe_fuzz::models(data)
);
