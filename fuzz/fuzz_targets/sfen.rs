//! Arbitrary bytes → `Position::from_sfen` in both modes; see `banmen_fuzz::check_sfen`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    banmen_fuzz::check_sfen(data);
});
