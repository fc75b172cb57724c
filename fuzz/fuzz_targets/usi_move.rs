//! Arbitrary bytes → `UsiMove` parse and `to_move`; see `banmen_fuzz::check_usi_move`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    banmen_fuzz::check_usi_move(data);
});
