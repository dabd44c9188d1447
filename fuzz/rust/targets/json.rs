//! libFuzzer target: the generated JSON readers of every schema (fbe_fuzz::check_json).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fbe_fuzz::json(data));
