//! `fixtures/tessellation`: draws with hull and domain programs rendered by a real D3D11 (d3d11-ref's renderer
//! extended for tessellation, `fixtures/tessellation/refrender`; llvmpipe runs Microsoft's reference tessellator).
//! Iridia draws the same descriptions and compares the render target and the stream-output buffer bit for bit (the
//! targets are integer formats holding the values the programs computed: the domain locations' bits and the patch
//! IDs, so any difference in points, order, winding or leading vertex shows); where the reference deviates from the
//! spec, with the spec's bytes the fixtures' model wrote (`out/NAME.spec.*.bin`). `hs_max_tessfactor_exceeded` is
//! undefined behaviour (10.13): drawn, not compared.

#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "common/reference.rs"]
mod reference;

use std::path::PathBuf;

fn fixtures() -> PathBuf {
    reference::fixture_dir("tessellation")
}

#[test]
fn tessellated_draws_draw_what_the_reference_draws() {
    let cases = std::fs::read_to_string(fixtures().join("cases.txt")).unwrap();
    let mut compared = 0;
    for name in cases
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let description = reference::json(&fixtures().join(format!("{name}.json")));
        match description["iridia"]["compare"].as_str() {
            Some("exact" | "spec_differs") => {
                reference::draw_and_compare(&fixtures(), name, &["iridia"]);
                compared += 1;
            }
            Some("undefined") => reference::draw_only(&fixtures(), name, &["iridia"]),
            other => panic!("{name}: compare mode {other:?}"),
        }
    }
    assert_eq!(compared, 11, "every case but the undefined one is compared");
}

/// A pixel's history in a tessellated draw: the fragment's primitive is a patch's (its ID the patch's, which the
/// pixel program writes in TAG.w's high bits), and each corner is a domain program vertex that names its domain
/// point, the one whose bits the domain program wrote to TAG.xyz (`ds_tri`).
#[test]
fn pixel_history_names_the_patch_and_domain_points() {
    let dir = fixtures();
    let description = iridia::description::read(
        &reference::description_text(&dir, "tri_integer_so_ds_only_spec_differs", &["iridia"]),
        &mut |file| std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string())),
    )
    .unwrap();
    let state = &description.draws[0];
    let options = iridia::draw::DrawOptions::default();
    let mut prepared = iridia::draw::PreparedDraw::new(state, &mut iridia::draw::ShaderCache::new(), options).unwrap();
    let output = prepared.run(None).unwrap();
    let image = output.render_targets[0].as_ref().unwrap();
    let word = |texel: &[u8], k: usize| u32::from_le_bytes(texel[4 * k..4 * k + 4].try_into().unwrap());
    let covered = image.bytes.chunks(16).position(|t| t != [0u8; 16]).unwrap();
    let texel = &image.bytes[covered * 16..covered * 16 + 16];
    let (x, y) = ((covered % 64) as u32, (covered / 64) as u32);
    let history = prepared
        .pixel_history(x, y, iridia::draw::HistoryOptions::default())
        .unwrap();
    let fragment = history.fragments.last().expect("a fragment at a covered pixel");
    assert_eq!(fragment.primitive_id, word(texel, 3) >> 8, "the patch");
    for corner in &fragment.vertices {
        let location = corner.domain_location.expect("a domain program vertex");
        let tag = corner.outputs[1];
        assert_eq!(tag[..3], location.map(f32::to_bits), "{corner:?}");
    }
}

/// A capture carries tessellated draws (format 1.4's `hs` and `ds` stages): each case packed with the real D3D11's
/// render target as its recorded after, `iridia info` lists both programs and `iridia replay` finds every texel equal.
#[test]
fn captures_of_tessellated_draws_replay_equal_to_the_reference() {
    let dir = fixtures();
    let out = std::env::temp_dir().join(format!("iridia-tess-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let iridia = env!("CARGO_BIN_EXE_iridia");
    for name in [
        "tri_integer_cw",
        "quad_fractional_odd",
        "isoline_lines",
        "hs_phases",
        "ds_patch_data",
        "culling",
    ] {
        let capture = out.join(format!("{name}.iridia"));
        let packed = std::process::Command::new(iridia)
            .current_dir(&dir)
            .args(["pack", &format!("{name}.json"), "--recorded", &format!("out/{name}")])
            .arg("-o")
            .arg(&capture)
            .output()
            .unwrap();
        assert!(
            packed.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&packed.stderr)
        );
        let info = std::process::Command::new(iridia)
            .arg("info")
            .arg(&capture)
            .output()
            .unwrap();
        let listing = String::from_utf8_lossy(&info.stdout);
        assert!(
            listing.contains("  hs  hs_5_0") && listing.contains("  ds  ds_5_0"),
            "{name}: {listing}"
        );
        let replayed = std::process::Command::new(iridia)
            .arg("replay")
            .arg(&capture)
            .output()
            .unwrap();
        let table = String::from_utf8_lossy(&replayed.stdout);
        assert_eq!(replayed.status.code(), Some(0), "{name}: {table}");
        assert!(table.contains("1 compared: 1 match"), "{name}: {table}");
    }
    std::fs::remove_dir_all(&out).ok();
}

/// A hull program without a domain program, or the other way round, is undefined (11.8.1): refused, saying so.
#[test]
fn one_tessellation_program_alone_is_refused() {
    let dir = fixtures();
    for missing in ["ds", "hs"] {
        let text = reference::description_text(&dir, "culling", &["iridia", missing]);
        let description = iridia::description::read(&text, &mut |file| {
            std::fs::read(dir.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
        })
        .unwrap();
        let error = iridia::draw::run_sequence(
            &description.draws,
            &mut iridia::draw::ShaderCache::new(),
            iridia::draw::DrawOptions::default(),
            None,
        )
        .unwrap_err();
        assert!(
            error.detail.contains("undefined (11.8.1)"),
            "without {missing}: {error}"
        );
    }
}
