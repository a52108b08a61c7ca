//! The fast paths draw the same bytes as the plain one (issue 12, item 5): every draw description among the fixtures
//! and every draw of every sample capture is run twice — on one thread with every texel decoded where it is read,
//! and in bands of rows on three threads (of 2 rows at least, so that small targets are split too) with every
//! texture subresource decoded whole at its first read — and the outputs (targets, depth, statistics, ambiguity
//! mask) must be equal.

// Test code: a failed step is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use iridia::capture::Capture;
use iridia::description;
use iridia::draw::{DrawOptions, DrawState, ShaderCache, run_sequence};
use iridia::shader::texture::TextureDecoding;
use std::path::{Path, PathBuf};

fn plain() -> DrawOptions {
    DrawOptions {
        threads: 1,
        texture_decoding: TextureDecoding::PerTexel,
        ..DrawOptions::default()
    }
}

fn fast() -> DrawOptions {
    DrawOptions {
        threads: 3,
        texture_decoding: TextureDecoding::Whole,
        ..DrawOptions::default()
    }
}

/// Runs `draws` both ways and requires equal outputs (or both failing); whether they ran.
fn same_both_ways(what: &str, draws: &[DrawState]) -> bool {
    let one = run_sequence(draws, &mut ShaderCache::new(), plain(), None);
    let other = run_sequence(draws, &mut ShaderCache::new(), fast(), None);
    match (one, other) {
        (Ok(one), Ok(other)) => {
            assert_eq!(one.len(), other.len(), "{what}");
            for (i, (a, b)) in one.iter().zip(&other).enumerate() {
                assert!(a == b, "{what}: draw {i} differs between the plain and the fast paths");
            }
            true
        }
        (Err(one), Err(other)) => {
            assert_eq!(one.to_string(), other.to_string(), "{what}: the paths fail differently");
            false
        }
        (one, other) => panic!(
            "{what}: the plain path {} and the fast one {}",
            if one.is_ok() { "ran" } else { "failed" },
            if other.is_ok() { "ran" } else { "failed" }
        ),
    }
}

/// Every `.json` file under `dir` (but the reference's dumps in `out` folders).
fn json_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "out") {
                json_files(&path, found);
            }
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
}

#[test]
fn every_fixture_description_draws_the_same_bytes_on_the_fast_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    let (mut descriptions, mut ran) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let folder = path.parent().unwrap();
        let mut load =
            |file: &str| std::fs::read(folder.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()));
        // other JSON (expectations, case lists) is not a description
        let Ok(description) = description::read(&text, &mut load) else {
            continue;
        };
        descriptions += 1;
        if same_both_ways(&path.display().to_string(), &description.draws) {
            ran += 1;
        }
    }
    // fixtures/lines, texture, multisample, input-assembler, draw and draw-description hold some 600
    assert!(descriptions > 500, "{descriptions} descriptions found");
    assert!(ran > 500, "{ran} of {descriptions} descriptions ran");
}

#[test]
fn every_sample_capture_draws_the_same_bytes_on_the_fast_paths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures");
    let mut captures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "iridia"))
        .collect();
    captures.sort();
    assert!(captures.len() >= 7);
    let mut draws = 0;
    for path in captures {
        let mut capture = Capture::open(std::fs::read(&path).unwrap()).unwrap();
        for index in 0..capture.draw_count() {
            let draw = capture.draw(index).unwrap();
            assert!(
                same_both_ways(&format!("{} draw {index}", path.display()), &[draw.state]),
                "{} draw {index} does not run",
                path.display()
            );
            draws += 1;
        }
    }
    // 1 + 6 + 1 + 26 + 1 + 14 + 5
    assert_eq!(draws, 54);
}
