//! Shared by the tests that compare with the reference fixtures of `fixtures/compute`, `fixtures/geometry`,
//! `fixtures/pixel-uav` and `fixtures/tessellation`: where a fixture directory is, its JSON files, the sorted comparison the fixtures use where
//! the spec leaves which invocation writes which element open, and a description drawn and compared target by target.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)] // test code; not every test binary uses every helper

use iridia::description;
use iridia::draw::{DrawOptions, ShaderCache, run_sequence};

use std::path::{Path, PathBuf};

/// `fixtures/NAME` of the workspace.
pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

/// A JSON file.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `bytes` as elements of `words` 32-bit words, sorted.
pub fn sorted(bytes: &[u8], words: usize) -> Vec<Vec<u32>> {
    let all: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut elements: Vec<Vec<u32>> = all.chunks(words.max(1)).map(<[u32]>::to_vec).collect();
    elements.sort();
    elements
}

/// Description `name` of `dir` without `strip_keys` (the notes for the reference renderer and the tests).
pub fn description_text(dir: &Path, name: &str, strip_keys: &[&str]) -> String {
    let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let strip = |object: &mut serde_json::Value| {
        if let Some(map) = object.as_object_mut() {
            for key in strip_keys.iter().copied() {
                map.remove(key);
            }
        }
    };
    strip(&mut value);
    if let Some(draws) = value.get_mut("draws").and_then(serde_json::Value::as_array_mut) {
        draws.iter_mut().for_each(strip);
    }
    value.to_string()
}

/// Draws fixture description `name` of `dir` (without `strip_keys`, top level and per draw) and compares, bit for
/// bit, its render target 0 with the reference's `out/NAME.rt0.bin`, every stream-output buffer the reference dumped
/// (`out/NAME.soN.bin`; `out/NAME.spec.*.bin` instead where the fixtures give the spec's bytes) and the spec's
/// stream-output statistics the description states (`iridia.so_statistics`).
pub fn draw_and_compare(dir: &Path, name: &str, strip_keys: &[&str]) {
    let outputs = draw_sequence(dir, name, strip_keys);
    let ours = outputs.last().unwrap().render_targets[0].as_ref().unwrap();
    // where the reference follows Wine rather than D3D11, the fixtures' model gives the spec's bytes
    let spec = dir.join(format!("out/{name}.spec.rt0.bin"));
    let expected_file = if spec.exists() {
        spec
    } else {
        dir.join(format!("out/{name}.rt0.bin"))
    };
    let expected = std::fs::read(expected_file).unwrap();
    assert_eq!(ours.bytes.len(), expected.len(), "{name}: rt0's size");
    let texel = 16;
    let differing: Vec<(usize, usize)> = ours
        .bytes
        .chunks(texel)
        .zip(expected.chunks(texel))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| (i % ours.width as usize, i / ours.width as usize))
        .collect();
    assert!(
        differing.is_empty(),
        "{name}: {} texels of rt0 differ from the reference, first at {:?}",
        differing.len(),
        differing.first()
    );
    // every stream-output buffer the reference dumped (or the spec's bytes), and the spec's statistics
    for slot in 0..4usize {
        let spec = dir.join(format!("out/{name}.spec.so{slot}.bin"));
        let file = if spec.exists() {
            spec
        } else {
            dir.join(format!("out/{name}.so{slot}.bin"))
        };
        let Ok(expected) = std::fs::read(&file) else {
            continue;
        };
        // the buffer as the last draw that streamed out left it
        let ours = outputs
            .iter()
            .rev()
            .find_map(|o| o.stream_output.as_ref().and_then(|s| s.buffers[slot].clone()))
            .unwrap_or_default();
        let first = ours.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(
            ours.len() == expected.len() && first.is_none(),
            "{name}: stream-output buffer {slot} differs from {} (lengths {} and {}, first at byte {first:?})",
            file.display(),
            ours.len(),
            expected.len()
        );
    }
    let description: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    // the statistics query spans every draw of the description
    if let Some(statistics) = description["iridia"]["so_statistics"].as_array() {
        let total = |stream: usize| {
            outputs
                .iter()
                .filter_map(|o| o.stream_output.as_ref())
                .fold((0, 0), |(w, n), s| (w + s.written[stream], n + s.needed[stream]))
        };
        for entry in statistics {
            let stream = entry["stream"].as_u64().unwrap() as usize;
            assert_eq!(
                total(stream),
                (
                    entry["primitives_written"].as_u64().unwrap(),
                    entry["primitives_storage_needed"].as_u64().unwrap()
                ),
                "{name}: stream {stream}'s SO statistics"
            );
        }
    }
}

/// Draws fixture description `name` of `dir` (without `strip_keys`), which must draw without an error; nothing is
/// compared (for cases whose result the spec leaves undefined).
pub fn draw_only(dir: &Path, name: &str, strip_keys: &[&str]) {
    draw_sequence(dir, name, strip_keys);
}

/// Fixture description `name` of `dir` (without `strip_keys`) read and its draws run in order; panics naming the
/// case on an error.
pub fn draw_sequence(dir: &Path, name: &str, strip_keys: &[&str]) -> Vec<iridia::draw::DrawOutput> {
    let text = description_text(dir, name, strip_keys);
    let description = description::read(&text, &mut |file| {
        std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    run_sequence(
        &description.draws,
        &mut ShaderCache::new(),
        DrawOptions::default(),
        None,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}
