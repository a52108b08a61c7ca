//! A draw description (the JSON of `iridia draw`) from anywhere, its files one vertex and one pixel program: parsed
//! and checked, as a draw description and as a dispatch description. Anything may fail with an error; nothing may
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// A vertex program passing its inputs through and a pixel program writing a colour (fixtures/draw/demo).
const VS: &[u8] = include_bytes!("../../fixtures/draw/demo/vs_pass_4_0.dxbc");
const PS: &[u8] = include_bytes!("../../fixtures/draw/demo/ps_color_4_0.dxbc");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut load = |name: &str| -> iridia::Result<Vec<u8>> {
        Ok(if name.starts_with("ps") {
            PS.to_vec()
        } else {
            VS.to_vec()
        })
    };
    let _ = iridia::description::read(text, &mut load);
    let _ = iridia::description::read_dispatches(text, &mut load);
});
