//! Prints, as JSON, how each render target of each draw of the captures named on the command line compares with
//! what the GPU wrote: `[{capture, draw, target, compared_pixels, differing_pixels, ambiguous_pixels,
//! first_difference}]`. The viewer's browser tests (`tests/browser/real-captures.test.ts`) run it to learn the
//! numbers the page must show, from the library run natively and as a whole ([`iridia::draw::run_draw`], not the
//! viewer's stepped replay in `viewer_api`), with each format's default tolerance and the draw's ambiguity mask; a
//! multisampled target as its sample planes stacked.
//!
//! ```sh
//! cargo run --example expected_differences -- fixtures/captures/*.iridia
//! ```

use std::process::ExitCode;

use iridia::capture::{Capture, TargetSlot};
use iridia::compare::{CompareOptions, Image, Tolerance, compare};
use iridia::draw::{ShaderCache, run_draw};
use serde_json::{Value, json};

/// Every render target of every draw of the capture at `path`, compared.
fn capture_rows(path: &str) -> Result<Vec<Value>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut capture = Capture::open(bytes).map_err(|e| format!("{path}: {e}"))?;
    let mut cache = ShaderCache::new();
    let mut rows = Vec::new();
    for index in 0..capture.draw_count() {
        let draw = capture.draw(index).map_err(|e| format!("{path}: {e}"))?;
        let output = run_draw(&draw.state, &mut cache, None).map_err(|e| format!("{path} draw {index}: {e}"))?;
        for target in &draw.targets {
            let TargetSlot::RenderTarget(slot) = target.target else {
                continue;
            };
            let (Some(recorded), Some(Some(replayed))) = (&target.after, output.render_targets.get(slot as usize))
            else {
                continue;
            };
            // a multisampled target's sample planes are stacked (sample 0's on top), as the draw's ambiguity mask
            // holds them
            let height = target.height.saturating_mul(target.resource.sample_count.max(1));
            let image = |data| Image::new(target.format, target.width, height, data);
            let mut options = CompareOptions::new(Tolerance::for_format(target.format));
            if output.ambiguous.len() == (target.width as usize).saturating_mul(height as usize) {
                options.ambiguous = Some(&output.ambiguous);
            }
            let recorded = image(recorded).map_err(|e| e.to_string())?;
            let replayed = image(&replayed.bytes).map_err(|e| e.to_string())?;
            let report = compare(&recorded, &replayed, &options)
                .map_err(|e| e.to_string())?
                .report;
            rows.push(json!({
                "capture": path,
                "draw": index,
                "target": format!("rt{slot}"),
                "compared_pixels": report.compared_pixels,
                "differing_pixels": report.differing_pixels,
                "ambiguous_pixels": report.ambiguous_pixels,
                "first_difference": report.first_differences.first().map(|d| json!({"x": d.x, "y": d.y})),
            }));
        }
    }
    Ok(rows)
}

fn main() -> ExitCode {
    let mut rows = Vec::new();
    for path in std::env::args().skip(1) {
        match capture_rows(&path) {
            Ok(found) => rows.extend(found),
            Err(message) => {
                eprintln!("expected_differences: {message}");
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", Value::Array(rows));
    ExitCode::SUCCESS
}
