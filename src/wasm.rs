//! The browser's door into Iridia: a thin wasm-bindgen layer over the library, plain data across the boundary.

use wasm_bindgen::prelude::*;

/// Installs the panic hook, so that a bug reaches the browser console with its message rather than as a bare trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The library's version, for the viewer's about line.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
