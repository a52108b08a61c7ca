//! `iridia explain CAPTURE --draw N [--target T] [--tolerance SPEC] [--json]`: the draw replayed under each variant
//! ([`iridia::draw::variants`]) alone and combined ([`iridia::replay::explain`]), a table of the differing pixels and
//! largest error under each, then the best set and a verdict line. Compares bit for bit unless `--tolerance`.
//! Exit code 0 when nothing differs or a set reproduces the recorded target, 1 when pixels stay unexplained, 2 on an
//! error.

use super::common::{open, print_out};
use iridia::compare::ToleranceSpec;
use iridia::draw::ShaderCache;
use iridia::replay::{ReplayOptions, explain as explain_draw, parse_target};
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::Arc;

/// What `iridia explain` is asked (its command-line arguments).
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The capture (.iridia).
    pub capture: PathBuf,
    /// The draw (from 0).
    #[arg(long, value_name = "N")]
    pub draw: usize,
    /// The target: rt0 to rt7, or depth (by default the compared target with the most differing pixels).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// The tolerance (as for replay; by default every bit counts).
    #[arg(long, value_name = "SPEC")]
    pub tolerance: Option<String>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: super::common::Limits,
}

/// Runs `iridia explain`; `Ok(true)` when nothing stays unexplained.
pub fn explain(args: &ExplainArgs) -> Result<bool, String> {
    let tolerance = match &args.tolerance {
        Some(spec) => ToleranceSpec::parse(spec).map_err(|e| format!("--tolerance: {e}"))?,
        None => ToleranceSpec::exact(),
    };
    let target = args
        .target
        .as_deref()
        .map(parse_target)
        .transpose()
        .map_err(|e| format!("--target: {e}"))?;
    let path = &args.capture;
    let mut capture = open(path)?;
    let mut options = ReplayOptions {
        tolerance,
        ..ReplayOptions::default()
    };
    args.limits.apply(&mut capture, &mut options);
    let count = capture.draw_count();
    if args.draw >= count {
        return Err(format!(
            "{}: there is no draw {}; the capture has {count}",
            path.display(),
            args.draw
        ));
    }
    let draw = Arc::new(
        capture
            .draw(args.draw)
            .map_err(|e| format!("{}: {e}", path.display()))?,
    );
    let bar = std::io::stderr().is_terminal() && !args.json;
    let mut progress = |done: usize, total: usize| {
        if bar {
            eprint!("\rexplaining draw {}: run {done} of {total}", args.draw);
            if done == total {
                eprintln!();
            }
        }
        true
    };
    let explanation = explain_draw(draw, target, &mut ShaderCache::new(), &options, &mut progress)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if args.json {
        let text = serde_json::to_string_pretty(&explanation).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{text}\n"))?;
    } else {
        let mut text = format!(
            "{}: draw {}, {}, tolerance: {}\n{:<26} {:>10} {:>10}  {}\n",
            path.display(),
            explanation.draw,
            explanation.target,
            args.tolerance.as_deref().unwrap_or("exact"),
            "variant",
            "differing",
            "max ULP",
            "what it changes"
        );
        text.push_str(&format!(
            "{:<26} {:>10} {:>10}  the spec's rules\n",
            "(none)", explanation.baseline.differing_pixels, explanation.baseline.max_ulp
        ));
        for variant in &explanation.variants {
            text.push_str(&format!(
                "{:<26} {:>10} {:>10}  {}: {}\n",
                variant.name, variant.differing_pixels, variant.max_ulp, variant.stage, variant.description
            ));
        }
        let best = if explanation.best.variants.is_empty() {
            "(none)".to_owned()
        } else {
            explanation.best.variants.join(",")
        };
        text.push_str(&format!(
            "best: {best} ({} differing, max {} ULP)\n{}\n",
            explanation.best.differing_pixels, explanation.best.max_ulp, explanation.verdict
        ));
        print_out(&text)?;
    }
    Ok(explanation.best.differing_pixels == 0)
}
