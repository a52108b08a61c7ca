//! Texture sampling against a real D3D11 (Wine's d3d11 on Mesa llvmpipe): the cases of `fixtures/texture/`
//! (`make_fixtures.py` wrote and rendered them; README there). Each case is a 16x16 render target whose pixel (x, y)
//! sampled once at uv = (x + 0.5, y + 0.5) * so.xy + so.zw; here the same samples go through
//! `iridia::shader::texture` and are compared with what llvmpipe returned, within the tolerance of the case's class
//! (see `tolerance` and the README for why llvmpipe differs from the spec's 8-bit arithmetic).

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use iridia::api::enums::{ResourceDimension, SrvDimension};
use iridia::api::resource::{Resource, SamplerDesc, ShaderResourceView, ShaderResourceViewDesc, Texture, TextureShape};
use iridia::format::Format;
use iridia::shader::texture::{LevelOfDetail, TextureView, gather, sample};
use serde::Deserialize;

#[derive(Deserialize)]
struct Manifest {
    size: u32,
    textures: std::collections::BTreeMap<String, TextureEntry>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct TextureEntry {
    format: String,
    width: u32,
    height: u32,
    mip_levels: u32,
    files: Vec<String>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    kind: String,
    texture: String,
    sampler: SamplerDesc,
    so: [f32; 4],
    g: [f32; 4],
    misc: [f32; 4],
    output: String,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/texture")
}

fn load_view(entry: &TextureEntry) -> TextureView {
    let format: Format = entry.format.parse().unwrap();
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format,
        width: entry.width,
        height: entry.height,
        depth: 1,
        array_size: 1,
        mip_levels: entry.mip_levels,
        sample_count: 1,
    };
    let subresources = entry
        .files
        .iter()
        .map(|f| Arc::from(std::fs::read(fixtures().join(f)).unwrap()))
        .collect();
    let resource = Arc::new(Resource::Texture(Texture::new(shape, subresources).unwrap()));
    TextureView::new(&ShaderResourceView {
        resource,
        desc: ShaderResourceViewDesc {
            format,
            dimension: SrvDimension::Texture2D,
            ..Default::default()
        },
    })
    .unwrap()
}

/// The address the pixel program computes at pixel (x, y): `pos * so.xy + so.zw` in float32 (the product is exact,
/// so a fused multiply-add gives the same).
fn uv(case: &Case, x: u32, y: u32) -> [f32; 2] {
    [
        (x as f32 + 0.5) * case.so[0] + case.so[2],
        (y as f32 + 0.5) * case.so[1] + case.so[3],
    ]
}

/// Our result for pixel (x, y) of `case`.
fn ours(case: &Case, view: &TextureView, x: u32, y: u32) -> [f32; 4] {
    let [u, v] = uv(case, x, y);
    let coords = [u, v, 0.0, 0.0];
    // Coarse derivatives (22.5.2): across the quad's top row and down its left column.
    let (qx, qy) = (x & !1, y & !1);
    let [u00, v00] = uv(case, qx, qy);
    let [u10, v10] = uv(case, qx + 1, qy);
    let [u01, v01] = uv(case, qx, qy + 1);
    let ddx = [u10 - u00, v10 - v00, 0.0];
    let ddy = [u01 - u00, v01 - v00, 0.0];
    let s = &case.sampler;
    let m = case.misc[0];
    let words = match case.kind.as_str() {
        "grad" => {
            let lod = LevelOfDetail::Gradient {
                ddx: [case.g[0], case.g[1], 0.0],
                ddy: [case.g[2], case.g[3], 0.0],
            };
            sample(view, s, coords, [0; 3], lod, None)
        }
        "level" => sample(view, s, coords, [0; 3], LevelOfDetail::Explicit(m), None),
        "level_offset" => sample(view, s, coords, [-3, 2, 0], LevelOfDetail::Explicit(m), None),
        "sample" => sample(view, s, coords, [0; 3], LevelOfDetail::Implicit { ddx, ddy }, None),
        "bias" => sample(view, s, coords, [0; 3], LevelOfDetail::Bias { ddx, ddy, bias: m }, None),
        "cmp_lz" => sample(view, s, coords, [0; 3], LevelOfDetail::Zero, Some(m)),
        "cmp" => sample(view, s, coords, [0; 3], LevelOfDetail::Implicit { ddx, ddy }, Some(m)),
        "gather" => gather(view, s, coords, [0, 0], 0, None),
        "gather_alpha" => gather(view, s, coords, [0, 0], 3, None),
        "gather_offset" => gather(view, s, coords, [1, -2], 0, None),
        other => panic!("unknown kind {other}"),
    };
    words.unwrap().map(f32::from_bits)
}

/// How a case is compared (README "Tolerances").
#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    /// Every result is one texel (point filters, gather): equal but for llvmpipe's own texel conversion — UNORM
    /// reads up to 1 ULP off the exact quotient, sRGB through an approximate curve.
    Texels,
    /// Filtered at a LOD both sides agree on (explicit, zero, or a power of two): within the weight bound.
    Filtered,
    /// Filtered at a LOD computed from derivatives and not a power of two: llvmpipe's LOD is within
    /// `LOD_SLACK` of ours (its log2 is approximate), and at the LOD that fits it best the weight bound holds.
    ComputedLod,
}

/// How far llvmpipe's computed LOD may be from the spec's log2 (measured: at most 0.045 low).
const LOD_SLACK: f32 = 1.0 / 16.0;

fn class(case: &Case) -> Class {
    let f = case.sampler.filter;
    let point = !f.min_linear() && !f.mag_linear() && !f.mip_linear();
    if case.kind.starts_with("gather") || point {
        return Class::Texels;
    }
    let derivative = matches!(case.kind.as_str(), "grad" | "sample" | "bias" | "cmp");
    let lengths = if case.kind == "grad" {
        [case.g[0].hypot(case.g[1]), case.g[2].hypot(case.g[3])]
    } else {
        [case.so[0], case.so[1]]
    };
    let power_of_two = |x: f32| (x * 16.0).log2().fract() == 0.0;
    let isotropic_axes = case.kind != "grad" || (case.g[1] == 0.0 && case.g[2] == 0.0);
    if derivative && !(isotropic_axes && power_of_two(lengths[0].max(lengths[1])) && case.kind != "bias") {
        Class::ComputedLod
    } else {
        Class::Filtered
    }
}

/// The bound on a filtered result's difference, per component, from the texels it reads (their range, as our own
/// minimum and maximum filters over the same footprint give it): llvmpipe's weights and ours may each be up to
/// 1/256 from exact (ours are 7.18.8's 8-bit fractions; llvmpipe's 8-bit path truncates, its float path is exact),
/// on two axes and the mip blend: 3/256 of the range. llvmpipe filters 8-bit formats in 8-bit fixed point, its
/// results multiples of one step (1/255, SNORM 1/127), rounding at each of up to three lerps: + 1.5 steps (measured
/// worst: 0.68). sRGB: + its curve approximation (3.2.3.7's 1/2 step at the steepest point of the curve, 0.0045).
/// Comparison results (0 or 1) have range 1.
fn weight_bound(case: &Case, view: &TextureView, coords: [f32; 4], lod: LevelOfDetail, offset: [i32; 3]) -> [f32; 4] {
    let format = view.format();
    let range: [f32; 4] = if case.kind.starts_with("cmp") {
        [1.0; 4]
    } else {
        let reduce = |bits: u32| {
            let filter = iridia::api::enums::Filter::from_value(case.sampler.filter.value() & 0x7f | bits).unwrap();
            let s = SamplerDesc { filter, ..case.sampler };
            sample(view, &s, coords, offset, lod, None).unwrap().map(f32::from_bits)
        };
        let (lo, hi) = (reduce(0x100), reduce(0x180));
        std::array::from_fn(|c| hi[c] - lo[c])
    };
    let name = format.name();
    let quantum = match format.info().kind {
        _ if !name.starts_with("R8") => 0.0,
        iridia::format::NumericKind::Snorm => 1.5 / 127.0,
        _ => 1.5 / 255.0,
    };
    let curve = if name.ends_with("SRGB") { 0.0045 } else { 0.0 };
    range.map(|r| 3.0 / 256.0 * r + quantum + curve + 1e-6)
}

/// One texel read by both sides: equal within 1 ULP (UNORM quotients), or 0.0045 for sRGB (llvmpipe's curve).
fn texels_agree(format: Format, ours: f32, theirs: f32) -> bool {
    if format.name().ends_with("SRGB") {
        return (ours - theirs).abs() <= 0.0045;
    }
    ours == theirs || (ours.to_bits() as i64 - theirs.to_bits() as i64).abs() <= 1
}

/// The reference render of `case`, as floats per pixel.
fn reference(case: &Case, size: u32) -> Vec<[f32; 4]> {
    let bytes = std::fs::read(fixtures().join(&case.output)).unwrap();
    assert_eq!(bytes.len(), (size * size * 16) as usize, "{}", case.name);
    let mut pixels: Vec<[f32; 4]> = bytes
        .chunks_exact(16)
        .map(|p| std::array::from_fn(|c| f32::from_le_bytes(p[4 * c..4 * c + 4].try_into().unwrap())))
        .collect();
    if case.name == "border_float16" {
        // llvmpipe returns the border colour unclamped (1e6); 7.18.9.1 clamps it into the format's range, which
        // for float16 ends at 65504. Where llvmpipe read the border we expect the clamped value.
        for p in &mut pixels {
            for v in p.iter_mut() {
                *v = v.clamp(-65504.0, 65504.0);
            }
        }
    }
    pixels
}

#[test]
fn sampling_matches_a_real_d3d11_within_each_case_s_tolerance() {
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("cases.json")).unwrap()).unwrap();
    let views: std::collections::BTreeMap<_, _> = manifest
        .textures
        .iter()
        .map(|(name, entry)| (name.clone(), load_view(entry)))
        .collect();
    let size = manifest.size;
    let mut failures = Vec::new();
    for case in &manifest.cases {
        let view = &views[&case.texture];
        let theirs = reference(case, size);
        let class = class(case);
        // The LOD to evaluate at: ours, or for ComputedLod the one (within LOD_SLACK of ours, in 1/256 steps) that
        // fits llvmpipe's render best.
        let [u, v] = uv(case, 0, 0);
        let [u1, v1] = uv(case, 1, 0);
        let [u2, v2] = uv(case, 0, 1);
        let (ddx, ddy) = if case.kind == "grad" {
            ([case.g[0], case.g[1], 0.0], [case.g[2], case.g[3], 0.0])
        } else {
            ([u1 - u, v1 - v, 0.0], [u2 - u, v2 - v, 0.0])
        };
        let bias = if case.kind == "bias" { case.misc[0] } else { 0.0 };
        let [_, our_lod] = iridia::shader::texture::lod(view, &case.sampler, [u, v, 0.0, 0.0], ddx, ddy);
        let our_lod = our_lod + bias;
        let evaluate = |x: u32, y: u32, fit: Option<f32>| -> ([f32; 4], [f32; 4]) {
            let [u, v] = uv(case, x, y);
            let coords = [u, v, 0.0, 0.0];
            let offset = if case.kind == "level_offset" {
                [-3, 2, 0]
            } else {
                [0; 3]
            };
            let lod = match (fit, case.kind.as_str()) {
                (Some(l), _) => LevelOfDetail::Explicit(l - case.sampler.mip_lod_bias),
                (None, "level" | "level_offset") => LevelOfDetail::Explicit(case.misc[0]),
                (None, "cmp_lz") => LevelOfDetail::Zero,
                _ => LevelOfDetail::Gradient { ddx, ddy },
            };
            let mine = match (fit, case.kind.as_str()) {
                (Some(_), "cmp") => sample(view, &case.sampler, coords, [0; 3], lod, Some(case.misc[0]))
                    .unwrap()
                    .map(f32::from_bits),
                (Some(_), _) => sample(view, &case.sampler, coords, offset, lod, None)
                    .unwrap()
                    .map(f32::from_bits),
                (None, _) => ours(case, view, x, y),
            };
            let bound = if class == Class::Texels {
                [0.0; 4]
            } else {
                weight_bound(case, view, coords, lod, offset)
            };
            (mine, bound)
        };
        let score = |fit: Option<f32>| -> (f32, u32, f32) {
            let (mut worst, mut exact, mut worst_excess) = (0.0f32, 0, f32::NEG_INFINITY);
            for y in 0..size {
                for x in 0..size {
                    let (mine, bound) = evaluate(x, y, fit);
                    let reference = theirs[(y * size + x) as usize];
                    if mine == reference {
                        exact += 1;
                    }
                    for c in 0..4 {
                        let diff = (mine[c] - reference[c]).abs();
                        worst = worst.max(diff);
                        let excess = if class == Class::Texels {
                            if texels_agree(view.format(), mine[c], reference[c]) {
                                -1.0
                            } else {
                                diff
                            }
                        } else {
                            diff - bound[c]
                        };
                        if excess > 0.0 && std::env::var("DEBUG_TEX").is_ok() {
                            println!(
                                "  ({x},{y}) c{c} ours {} theirs {} bound {} uv {:?}",
                                mine[c],
                                reference[c],
                                bound[c],
                                uv(case, x, y)
                            );
                        }
                        worst_excess = worst_excess.max(if diff.is_nan() { f32::INFINITY } else { excess });
                    }
                }
            }
            (worst, exact, worst_excess)
        };
        let (fit, (worst, exact, excess)) = if class == Class::ComputedLod {
            // The shift of LOD (in 1/256 steps) under which llvmpipe's render is matched best.
            let steps = (LOD_SLACK * 256.0) as i32;
            (-steps..=steps)
                .map(|k| {
                    let l = our_lod + k as f32 / 256.0;
                    (Some(l), score(Some(l)))
                })
                .min_by(|a, b| a.1.2.total_cmp(&b.1.2))
                .unwrap()
        } else {
            (None, score(None))
        };
        println!(
            "{:52} {:11} exact {:3}/{}  max diff {:.6}  {}{}",
            case.name,
            format!("{class:?}"),
            exact,
            size * size,
            worst,
            if excess <= 0.0 { "ok" } else { "OUTSIDE" },
            fit.map_or(String::new(), |l| format!(
                "  (our LOD {our_lod:.4}, llvmpipe's fits at {l:.4})"
            ))
        );
        if excess > 0.0 {
            failures.push(case.name.clone());
        }
    }
    assert!(failures.is_empty(), "outside tolerance: {failures:?}");
}
