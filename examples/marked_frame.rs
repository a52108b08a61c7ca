//! Writes a frame of thousands of events with the program's markers (capture format 1.5), for the viewer's event-list
//! measurement (issue 16: a 5,000-event frame scrolls and filters without a dropped frame): the first draw of a draw
//! description, drawn again and again inside nested marker regions, with clears between passes.
//!
//! The frame: `PASSES` passes (`Pass 0: shadows` ...), each a region holding a clear and `OBJECTS` object regions
//! (`object 7`), each holding `DRAWS` draws and a point marker; every fourth draw named, the others named by their call
//! and state. Each draw's target after it is what Iridia draws for it (the list's speed, not the comparison, is what
//! this capture is for), so every draw matches. 20 passes of 8 objects of 28 draws make 4,480 draws and 5,020 events.
//! With `DIFFER_EVERY` N (not 0), every Nth draw (draws 0, N, 2N ...) is recorded with its first texel's byte 3
//! flipped by 0x40 (a float channel's exponent, an 8-bit channel's 64 codes), so that it differs from its replay: the
//! viewer's group sums then have something to sum.
//!
//! ```sh
//! cargo run --release --example marked_frame -- DESCRIPTION.json OUT.iridia [PASSES OBJECTS DRAWS [DIFFER_EVERY]]
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use iridia::capture::{CaptureWriter, DrawRecord};
use iridia::draw::{ShaderCache, run_draw};

/// What the passes are called, in turn.
const PASS_NAMES: [&str; 5] = ["shadows", "gbuffer", "lighting", "transparent", "post"];

fn run(args: &[String]) -> Result<(), String> {
    let number = |text: &String| text.parse::<usize>().map_err(|_| format!("'{text}' is not a count"));
    let (description_path, out_path, counts) = match args {
        [d, o] => (d, o, [20, 8, 28, 0]),
        [d, o, p, b, n] => (d, o, [number(p)?, number(b)?, number(n)?, 0]),
        [d, o, p, b, n, e] => (d, o, [number(p)?, number(b)?, number(n)?, number(e)?]),
        _ => {
            return Err(
                "usage: marked_frame DESCRIPTION.json OUT.iridia [PASSES OBJECTS DRAWS [DIFFER_EVERY]]".to_owned(),
            );
        }
    };
    let [passes, objects, draws, differ_every] = counts;
    let description =
        iridia::description::read_file(std::path::Path::new(description_path)).map_err(|e| e.to_string())?;
    let state = description
        .draws
        .first()
        .ok_or_else(|| format!("{description_path}: no draw"))?
        .clone();
    let output = run_draw(&state, &mut ShaderCache::new(), None).map_err(|e| format!("{description_path}: {e}"))?;
    let after: Vec<Option<Arc<[u8]>>> = output
        .render_targets
        .iter()
        .map(|t| t.as_ref().map(|t| Arc::from(t.bytes.as_slice())))
        .collect();
    // the same targets with the first texel's byte 3 flipped, for the draws that are to differ
    let altered: Vec<Option<Arc<[u8]>>> = after
        .iter()
        .map(|bytes| {
            bytes.as_ref().map(|bytes| {
                let mut changed = bytes.to_vec();
                if let Some(byte) = changed.get_mut(3) {
                    *byte ^= 0x40;
                }
                Arc::from(changed)
            })
        })
        .collect();
    let file = std::fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut writer = CaptureWriter::new(std::io::BufWriter::new(file));
    writer.set_application(Some("marked_frame".to_owned()));
    let mut index = 0usize;
    for pass in 0..passes {
        let pass_name = PASS_NAMES
            .get(pass.checked_rem(PASS_NAMES.len()).unwrap_or(0))
            .copied()
            .unwrap_or("pass");
        writer.add_event("begin", Some(&format!("Pass {pass}: {pass_name}")));
        writer.add_event("clear", Some("ClearRenderTargetView(rt0, 0, 0, 0, 1)"));
        for object in 0..objects {
            writer.add_event(
                "begin",
                Some(&format!(
                    "object {}",
                    pass.saturating_mul(objects).saturating_add(object)
                )),
            );
            for draw in 0..draws {
                let mut record = DrawRecord::new(state.clone());
                record.name = draw.is_multiple_of(4).then(|| format!("{pass_name} mesh {index}"));
                let differs = differ_every != 0 && index.is_multiple_of(differ_every);
                record.render_targets_after = if differs { altered.clone() } else { after.clone() };
                writer.add_draw(&record).map_err(|e| format!("{out_path}: {e}"))?;
                index = index.saturating_add(1);
            }
            writer.add_event("marker", Some("object done"));
            writer.add_event("end", None);
        }
        writer.add_event("end", None);
    }
    writer.finish().map_err(|e| format!("{out_path}: {e}"))?;
    eprintln!("{out_path}: {index} draws in {passes} passes of {objects} objects");
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
