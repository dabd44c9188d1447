//! libFuzzer target: the protocol Receiver on any stream in any chunking (fbe_fuzz::receiver).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fbe_fuzz::receiver(data));
