//! `iridia disasm` and `iridia asm`: a shader blob to its listing and back. Errors name the file and, from the
//! library, the byte (blobs) or line (listings) and what is wrong.

use iridia::dxbc::{Shader, Verify, asm, disasm as listing};
use std::io::Write as _;
use std::path::Path;

/// Reads `path`, naming it in the error.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// Prints the listing of the blob at `path` to stdout.
pub fn disasm(path: &Path) -> Result<(), String> {
    let bytes = read(path)?;
    let shader = Shader::parse(&bytes, Verify::Checksum).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = listing::disassemble(&shader);
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| format!("cannot write the listing: {e}"))
}

/// Assembles the listing at `path` into a blob written to `output`.
pub fn asm(path: &Path, output: &Path) -> Result<(), String> {
    let bytes = read(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: byte {:#x}: the listing is not UTF-8 text",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let blob = asm::assemble(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(output, blob).map_err(|e| format!("{}: cannot write: {e}", output.display()))
}
