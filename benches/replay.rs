//! Replay speed on the sample captures: `cargo bench --bench replay [-- CAPTURE...]` (by default every
//! `fixtures/captures/*.iridia`). For each capture it reads every draw once (inflating its blobs) and then replays
//! all its draws, each replay drawing on the CPU and comparing every target with the recorded one, as
//! `iridia replay --all` does with one shader cache for the run; with the ambiguity mask (the default) and without
//! it. Each figure is the median of several passes of at least 0.3 s in all. It prints a table: draws per second,
//! covered pixels shaded per second, shader invocations (vertex, pixel and helper lanes) per second. Figures measured
//! on the development machine are in `docs/performance.md`. Not a test: nothing here asserts a time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_precision_loss,
    clippy::indexing_slicing
)]

use iridia::capture::{Capture, CapturedDraw};
use iridia::draw::{DrawOptions, DrawStats, ShaderCache};
use iridia::replay::{ReplayOptions, replay_captured};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The shortest time the passes of one measurement take together.
const MIN_TOTAL: Duration = Duration::from_millis(300);
/// The fewest passes of one measurement.
const MIN_PASSES: usize = 5;

/// The median time of a pass of `pass`, run at least [`MIN_PASSES`] times and for at least [`MIN_TOTAL`].
fn median_time(mut pass: impl FnMut()) -> Duration {
    pass(); // warm up: shader cache, page cache
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < MIN_PASSES || start.elapsed() < MIN_TOTAL {
        let t = Instant::now();
        pass();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// A capture's totals over its draws.
#[derive(Default)]
struct Work {
    draws: u64,
    vertices: u64,
    triangles: u64,
    shaded: u64,
    helpers: u64,
    written: u64,
}

impl Work {
    fn add(&mut self, stats: &DrawStats) {
        self.draws += 1;
        self.vertices += stats.vertices_shaded;
        self.triangles += stats.triangles;
        self.shaded += stats.shaded;
        self.helpers += stats.helper_invocations;
        self.written += stats.written;
    }
}

/// Replays every draw of `draws` once.
fn replay_all(draws: &[CapturedDraw], cache: &mut ShaderCache, options: &ReplayOptions) -> Work {
    let mut work = Work::default();
    for draw in draws {
        let replay = replay_captured(draw, cache, options, None).unwrap_or_else(|e| panic!("{e}"));
        work.add(&replay.stats);
    }
    work
}

fn per_second(count: u64, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64()
}

fn bench(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let read = median_time(|| {
        let mut capture = Capture::open(bytes.clone()).unwrap();
        for index in 0..capture.draw_count() {
            capture.draw(index).unwrap();
        }
    });
    let mut capture = Capture::open(bytes.clone()).unwrap();
    let draws: Vec<CapturedDraw> = (0..capture.draw_count())
        .map(|index| capture.draw(index).unwrap())
        .collect();
    let mut cache = ShaderCache::new();
    for (mode, ambiguity) in [("mask", true), ("no mask", false)] {
        let options = ReplayOptions {
            draw: DrawOptions {
                ambiguity,
                ..DrawOptions::default()
            },
            ..ReplayOptions::default()
        };
        let work = replay_all(&draws, &mut cache, &options);
        let time = median_time(|| {
            replay_all(&draws, &mut cache, &options);
        });
        let invocations = work.vertices + work.shaded + work.helpers;
        println!(
            "{name:<18} {mode:<8} {:>5} {:>6} {:>7} {:>8} {:>8} {:>9.2} {:>9.2} {:>9.1} {:>8.2} {:>8.2}",
            work.draws,
            work.triangles,
            work.vertices,
            work.shaded,
            work.helpers,
            read.as_secs_f64() * 1e3,
            time.as_secs_f64() * 1e3,
            per_second(work.draws, time),
            per_second(work.shaded, time) / 1e6,
            per_second(invocations, time) / 1e6,
        );
    }
}

fn main() {
    let mut paths: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if paths.is_empty() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures");
        paths = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "iridia"))
            .collect();
        paths.sort();
    }
    println!(
        "{:<18} {:<8} {:>5} {:>6} {:>7} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "capture",
        "mode",
        "draws",
        "tris",
        "verts",
        "pixels",
        "helpers",
        "read ms",
        "replay ms",
        "draws/s",
        "Mpix/s",
        "Minv/s"
    );
    for path in &paths {
        bench(path);
    }
}
