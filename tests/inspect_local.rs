//! A pixel inspected without replaying the whole draw (`inspect_pixel`: the pixel's history alone gives the replayed
//! texel, its ambiguity flags and its class) says exactly what the inspection of the finished replay says
//! (`inspect_replayed`, the viewer's click after a replay): on every draw of every sample capture, at the first
//! differing and ambiguous pixels of each target, at a grid of pixels, at every sample of a multisampled target, for
//! a depth-stencil target's depth plane, with the vertex program traced. Issue 12, P2.

// Test code: a failed step is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use iridia::capture::{Capture, TargetSlot};
use iridia::draw::ShaderCache;
use iridia::inspect::{InspectOptions, inspect_pixel, inspect_replayed};
use iridia::replay::{Plane, ReplayOptions, ReplaySession};
use std::path::Path;
use std::sync::Arc;

/// The pixels of a `width` x `height` target looked at: a 4x4 grid with the corners, and the listed ones.
fn pixels(width: u32, height: u32, listed: impl Iterator<Item = (u32, u32)>) -> Vec<(u32, u32)> {
    let mut found: Vec<(u32, u32)> = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            found.push((i * (width - 1) / 3, j * (height - 1) / 3));
        }
    }
    found.extend(listed);
    found.sort_unstable();
    found.dedup();
    found
}

#[test]
fn inspecting_a_pixel_alone_says_what_the_replayed_draw_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures");
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "iridia"))
        .collect();
    names.sort();
    assert!(names.len() >= 7, "the sample captures are missing");
    let (mut inspected, mut differing, mut sampled, mut ambiguous) = (0, 0, 0, 0);
    for path in names {
        let bytes: Arc<[u8]> = std::fs::read(&path).unwrap().into();
        let mut capture = Capture::open(bytes).unwrap();
        for index in 0..capture.draw_count() {
            let what = format!("{} draw {index}", path.display());
            let Ok(draw) = capture.draw(index) else { continue };
            let replay_options = ReplayOptions {
                planes: true,
                ..ReplayOptions::default()
            };
            let mut session = ReplaySession::start(Arc::new(draw), &mut ShaderCache::new(), &replay_options).unwrap();
            session.run_to_end(None).unwrap();
            let replay = session.replay().unwrap().clone();
            for target in &replay.targets {
                let samples = target.samples.max(1);
                let plane_height = target.height / samples;
                // up to 6 listed differences and ambiguous differences, and 6 pixels of the ambiguity mask spread over it
                let mut listed: Vec<(u32, u32)> = target
                    .report
                    .iter()
                    .flat_map(|r| r.first_differences.iter().chain(&r.first_ambiguous).take(6))
                    .map(|d| (d.x, d.y % plane_height))
                    .collect();
                let masked: Vec<usize> = (0..replay.ambiguous.len()).filter(|&i| replay.ambiguous[i]).collect();
                let width = replay.width as usize;
                listed.extend(
                    masked
                        .iter()
                        .step_by(masked.len() / 6 + 1)
                        .map(|&i| ((i % width) as u32, (i / width) as u32 % plane_height)),
                );
                let planes: &[Plane] = if target.slot == TargetSlot::DepthStencil {
                    &[Plane::All, Plane::Depth]
                } else {
                    &[Plane::All]
                };
                for (x, y) in pixels(target.width, plane_height, listed.into_iter()) {
                    for sample in 0..samples {
                        for &plane in planes {
                            let options = InspectOptions {
                                replay: replay_options.clone(),
                                plane,
                                sample,
                                trace_vertex: (x % 2 == 0).then_some((0, 1)),
                                ..InspectOptions::default()
                            };
                            let whole = inspect_replayed(&mut session, x, y, target.slot, &options);
                            let alone = inspect_pixel(
                                &mut capture,
                                index,
                                x,
                                y,
                                target.slot,
                                &mut ShaderCache::new(),
                                &options,
                            );
                            let at = format!("{what} {} ({x}, {y}) sample {sample} {plane:?}", target.slot);
                            let (whole, alone) = match (whole, alone) {
                                (Ok(whole), Ok(alone)) => (whole, alone),
                                (Err(a), Err(b)) => {
                                    assert_eq!(a.to_string(), b.to_string(), "{at}");
                                    continue;
                                }
                                (a, b) => panic!("{at}: {:?} against {:?}", a.err(), b.err()),
                            };
                            assert!(
                                whole.history_agrees,
                                "{at}: the history disagrees with the whole replay"
                            );
                            let (whole_json, alone_json) = (
                                serde_json::to_value(&whole).unwrap(),
                                serde_json::to_value(&alone).unwrap(),
                            );
                            if whole_json != alone_json {
                                let differing: Vec<&String> = whole_json
                                    .as_object()
                                    .unwrap()
                                    .iter()
                                    .filter(|(key, value)| alone_json.get(key.as_str()) != Some(value))
                                    .map(|(key, _)| key)
                                    .collect();
                                panic!("{at}: the inspections differ in {differing:?}");
                            }
                            inspected += 1;
                            differing +=
                                usize::from(whole.recorded.is_some() && whole.recorded != Some(whole.replayed));
                            ambiguous += usize::from(whole.ambiguous);
                            sampled += usize::from(sample > 0);
                        }
                    }
                }
            }
        }
    }
    // the comparison reached differing, ambiguous and multisampled pixels
    assert!(inspected > 1000, "{inspected} pixels inspected");
    assert!(differing > 20, "{differing} differing pixels inspected");
    assert!(ambiguous > 10, "{ambiguous} ambiguous pixels inspected");
    assert!(sampled > 50, "{sampled} samples past the first inspected");
    eprintln!(
        "{inspected} pixels inspected both ways: {differing} differing, {ambiguous} ambiguous, {sampled} samples past the first"
    );
}
