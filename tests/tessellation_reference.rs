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
