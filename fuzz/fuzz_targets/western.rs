//! Arbitrary bytes → `banmen_formats::read` as Western; see `banmen_fuzz::check_record`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    banmen_fuzz::check_record(data, banmen_fuzz::Format::Western);
});
