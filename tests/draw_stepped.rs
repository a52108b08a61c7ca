//! A draw run part by part ([`PreparedDraw::start`], [`PreparedDraw::resume`], [`PreparedDraw::finish`]) draws
//! exactly what it draws at once: every draw of every sample capture in `fixtures/captures/`, stepped with the
//! smallest budget (one batch of vertices, one triangle set up or one batch of quads per call) and with a middling
//! one, gives the same target bytes, statistics and ambiguity mask as [`PreparedDraw::run`].

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::capture::Capture;
use iridia::draw::{DrawOptions, DrawOutput, PreparedDraw, ShaderCache};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

/// Every sample capture's bytes, by file name.
fn captures() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures");
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "iridia"))
        .map(|path| {
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect();
    found.sort();
    assert!(found.len() >= 5, "the five sample captures are there");
    found
}

/// The draw run part by part with `budget`, and how many calls it took.
fn stepped(prepared: &mut PreparedDraw<'_>, budget: u64) -> (DrawOutput, u64) {
    let mut run = prepared.start().unwrap();
    let mut calls = 0u64;
    let mut last_done = 0;
    loop {
        calls += 1;
        let finished = prepared.resume(&mut run, budget, None).unwrap();
        // progress never goes back, and reaches the totals at the end
        let progress = run.progress();
        assert!(progress.primitives_done >= last_done);
        last_done = progress.primitives_done;
        if finished {
            assert_eq!(progress.primitives_done, progress.primitives_total);
            assert_eq!(progress.vertices_done, progress.vertices_total);
            break;
        }
    }
    assert!(run.is_finished());
    (prepared.finish(run).unwrap(), calls)
}

#[test]
fn a_draw_run_part_by_part_draws_what_it_draws_at_once() {
    let mut draws = 0;
    for (name, bytes) in captures() {
        let mut capture = Capture::open(bytes).unwrap();
        for index in 0..capture.draw_count() {
            let captured = capture.draw(index).unwrap();
            // A resumed triangle walks its quads from the first to where it stopped (run.rs's
            // `quads().skip(next_quad)`, each quad evaluated), so stepping costs the square of a triangle's quads over
            // the budget: 21-imgui's 1272x773 frame, whose windows' backgrounds are triangles of tens of thousands of
            // quads, took 189 s with budget 1 and 162 s with 64 (every other sample: 8 s; measured 2026-12-02).
            // Frames larger than 256x256 step with 1000 units a call.
            let large = captured
                .targets
                .iter()
                .any(|t| u64::from(t.width) * u64::from(t.height) > 256 * 256);
            let smallest = if large { 1000 } else { 1 };
            let state = Arc::new(captured.state);
            let mut cache = ShaderCache::new();
            let whole = PreparedDraw::new(&state, &mut cache, DrawOptions::default())
                .unwrap()
                .run(None)
                .unwrap();
            for budget in [smallest, 5000] {
                // a fresh prepared draw each time, so that the vertices are shaded in steps too
                let mut prepared = PreparedDraw::shared(state.clone(), &mut cache, DrawOptions::default()).unwrap();
                let (output, calls) = stepped(&mut prepared, budget);
                assert_eq!(output, whole, "{name} draw {index} stepped with budget {budget}");
                if budget == 1 {
                    // one call per vertex batch, triangle or quad batch at least: more than one for any draw
                    // that draws a triangle
                    assert!(calls > whole.stats.triangles, "{name} draw {index}: {calls} calls");
                }
            }
            draws += 1;
        }
    }
    // 1 + 6 + 1 + 26 + 1 draws in 01..05, the 14 of 20-recorded.iridia and the 5 of 21-imgui.iridia
    // (fixtures/captures/README.md)
    assert_eq!(draws, 54);
}

#[test]
fn a_prepared_draw_runs_again_from_its_cached_vertices_in_steps() {
    // the second run of a prepared draw takes its vertices from the cache the first filled
    let (_, bytes) = captures()
        .into_iter()
        .find(|(name, _)| name.starts_with("01-"))
        .unwrap();
    let mut capture = Capture::open(bytes).unwrap();
    let state = Arc::new(capture.draw(0).unwrap().state);
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::shared(state, &mut cache, DrawOptions::default()).unwrap();
    let first = prepared.run(None).unwrap();
    let (second, _) = stepped(&mut prepared, 1);
    assert_eq!(second, first);
}

#[test]
fn a_callback_cancels_a_run_part_way_and_an_unfinished_run_has_no_output() {
    let (_, bytes) = captures()
        .into_iter()
        .find(|(name, _)| name.starts_with("01-"))
        .unwrap();
    let mut capture = Capture::open(bytes).unwrap();
    let state = Arc::new(capture.draw(0).unwrap().state);
    let mut cache = ShaderCache::new();
    let mut prepared = PreparedDraw::shared(state, &mut cache, DrawOptions::default()).unwrap();
    let mut run = prepared.start().unwrap();
    assert!(!prepared.resume(&mut run, 1, None).unwrap());
    let unfinished = prepared.start().unwrap();
    let error = prepared.finish(unfinished).unwrap_err();
    assert_eq!(
        (error.what.as_str(), error.detail.as_str()),
        ("draw 0", "the draw is not finished")
    );
    let mut stop = |_: &iridia::draw::Progress| ControlFlow::Break(());
    let error = prepared.resume(&mut run, 1, Some(&mut stop)).unwrap_err();
    assert_eq!(error.detail, "cancelled");
}
