//! `iridia disasm` and `iridia asm`: a shader blob to its listing and back. Errors name the file and, from the
//! library, the byte (blobs) or line (listings) and what is wrong.

use iridia::dxbc::{Shader, Verify, asm, disasm as listing};
use std::io::Write as _;
use std::path::Path;

/// Reads `path`, naming it in the error.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// Which program of a capture `iridia disasm` prints: `--draw N --stage vs|ps|gs|hs|ds` or `--dispatch N`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ProgramChoice {
    /// The file is a capture: print a program of this draw (from 0).
    #[arg(long, value_name = "N", conflicts_with = "dispatch")]
    pub draw: Option<usize>,
    /// The file is a capture: print this dispatch's compute program (from 0).
    #[arg(long, value_name = "N")]
    pub dispatch: Option<usize>,
    /// The draw's program: vs, ps (the default), gs, hs or ds.
    #[arg(long, value_name = "STAGE", requires = "draw")]
    pub stage: Option<String>,
}

/// The program blob `choice` picks: the file's bytes, or a program of a capture's draw or dispatch.
fn program_blob(path: &Path, choice: &ProgramChoice) -> Result<Vec<u8>, String> {
    let at = |e: iridia::Error| format!("{}: {e}", path.display());
    if let Some(index) = choice.dispatch {
        let mut capture = super::common::open(path)?;
        return Ok(capture.dispatch(index).map_err(at)?.state.compute_shader.to_vec());
    }
    let Some(index) = choice.draw else {
        return read(path);
    };
    let mut capture = super::common::open(path)?;
    let draw = capture.draw(index).map_err(at)?;
    let name = choice.stage.as_deref().unwrap_or("ps");
    let stage = iridia::replay::edit::EditStage::parse(name)
        .ok_or_else(|| format!("--stage {name}: the stage is vs, ps, gs, hs or ds"))?;
    iridia::replay::edit::stage_program(&draw, stage)
        .map(|b| b.to_vec())
        .ok_or_else(|| format!("{}: draw {index} has no {} program", path.display(), stage.name()))
}

/// Prints the listing of the blob at `path` (or of a capture's program, as `choice` says) to stdout.
pub fn disasm(path: &Path, choice: &ProgramChoice) -> Result<(), String> {
    let bytes = program_blob(path, choice)?;
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
