//! Writes a large capture for the P3 benchmark (docs/performance.md, `scripts/bench.sh`): the first draw of a draw
//! description, recorded again and again until the capture's blobs hold at least the given number of MiB, each time
//! with a render target 0 after it of its own pseudo-random bytes (stored, not deflated: random bytes do not deflate,
//! and storing them keeps the writing quick). What opening and listing a capture costs depends on its entries and
//! its manifest, not on what the blobs hold.
//!
//! ```sh
//! cargo run --release --example large_capture -- DESCRIPTION.json OUT.iridia 1024
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use iridia::capture::{CaptureWriter, DrawRecord};

/// `count` pseudo-random bytes from `seed` (xorshift64*): incompressible, and different for each seed.
fn noise(seed: u64, count: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut out = Vec::with_capacity(count.saturating_add(8));
    while out.len() < count {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        out.extend_from_slice(&state.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(count);
    out
}

fn run(args: &[String]) -> Result<(), String> {
    let [description_path, out_path, mib] = args else {
        return Err("usage: large_capture DESCRIPTION.json OUT.iridia MIB".to_owned());
    };
    let mib: u64 = mib.parse().map_err(|_| format!("'{mib}' is not a number of MiB"))?;
    let description =
        iridia::description::read_file(std::path::Path::new(description_path)).map_err(|e| e.to_string())?;
    let state = description
        .draws
        .first()
        .ok_or_else(|| format!("{description_path}: no draw"))?
        .clone();
    let [width, height] = [description.width, description.height].map(|v| v as usize);
    let target_bytes = width.saturating_mul(height).saturating_mul(4);
    let file = std::fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut writer = CaptureWriter::new(std::io::BufWriter::new(file));
    writer.set_application(Some("large_capture".to_owned()));
    writer.set_deflate_level(0);
    let goal = mib.saturating_mul(1 << 20);
    let mut written = 0u64;
    let mut index = 0u64;
    while written < goal {
        let mut record = DrawRecord::new(state.clone());
        record.name = Some(format!("draw {index} of the large capture"));
        record.render_targets_after = vec![Some(Arc::from(noise(index, target_bytes)))];
        writer.add_draw(&record).map_err(|e| format!("{out_path}: {e}"))?;
        written = written.saturating_add(target_bytes as u64);
        index = index.saturating_add(1);
    }
    writer.finish().map_err(|e| format!("{out_path}: {e}"))?;
    eprintln!("{out_path}: {index} draws, {written} bytes of render targets after them");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}
