//! The interpreter against a real D3D11 (`fixtures/reference/interp/`, rendered by `/work/shared/tools/d3d11-ref`:
//! Wine's d3d11 on Mesa llvmpipe; that directory's README describes the cases). Each description draws a full-viewport
//! triangle per band of rows; the pixel programs read only `SV_Position`, constant buffers and (texture groups)
//! textures and samplers, so each pixel's quad is run here with `SV_Position = (x + 0.5, y + 0.5, 0.5, 1)` and the
//! draw's bindings (textures through `shader::texture`), and its outputs are set against the reference's
//! `R32G32B32A32_UINT` texels.
//!
//! How a band is compared is in its metadata (`iridia.bands[].compare`, per render target where it says so), as the
//! fixture README defines it:
//! - `exact`: the same words (`"nan": "any"`: any NaN matches any NaN); `reference_ulp`: the reference's UNORM/SNORM
//!   conversion is up to that many ulps from the exact quotient ours computes; `"denorm": "flush allowed"`: a
//!   denormal may come back as a zero of its sign; sRGB colour channels: within 0.5 of the sRGB value, measured on
//!   the sRGB side (3.2.3.7);
//! - `tolerance`: floats within the stated absolute (`abs`) or relative (`rel`) error; for textures (`weight_abs`,
//!   `lod_abs`) that error times the spread of the bound textures' values, plus `unit` units of an 8-bit format;
//!   a NaN or infinite filtered reference is not a reference (README: it multiplies texels of weight 0);
//! - `approximate` (anisotropic filtering, which 7.18.11 leaves to the implementation): run, not compared;
//! - `spec_differs`: the reference follows llvmpipe/GLSL, not the spec, there. Where the band lists the spec's
//!   allowed results per case (`spec`), ours must be one of them; the coarse derivative bands are checked against
//!   the spec's definition (one difference per quad, the top row and left column: the reference's fine derivative
//!   at the quad's top-left pixel); other such bands are only run (their rules are tested where they live: `alu`,
//!   `texture`, and this crate's interpreter unit tests);
//! - `no_reference` (not rendered): ours must be among the band's `spec` results.
//!
//! A pixel the program discards keeps the render target's clear value.

// Test code: expected values from small constants, and unwrap/index/panic as assertions.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};

use iridia::api::draw::DrawState;
use iridia::api::resource::Resource;
use iridia::description;
use iridia::dxbc::program::{self, SystemName};
use iridia::dxbc::{Container, Verify};
use iridia::shader::texture::TextureView;
use iridia::shader::{Bindings, Executable, InputRegister, LANES, Machine, ShaderResource, Unbound};
use serde_json::Value;

/// Where the reference cases are (an environment variable may point elsewhere, for cases under construction).
fn root() -> PathBuf {
    std::env::var_os("IRIDIA_INTERP_REFERENCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/reference/interp"))
}

/// Every description with metadata: `(path, parsed JSON)`.
fn descriptions() -> Vec<(PathBuf, Value)> {
    let mut found = Vec::new();
    let mut groups: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap_or_else(|e| panic!("{}: {e}", root().display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    groups.sort();
    for group in groups {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&group)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.to_string_lossy().ends_with(".ref.json"))
            .collect();
        files.sort();
        for path in files {
            let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if value.get("iridia").is_some() {
                found.push((path, value));
            }
        }
    }
    found
}

/// A word from a metadata string (`"0x3f800000"`).
fn hex(value: &Value) -> u32 {
    let text = value.as_str().unwrap();
    u32::from_str_radix(text.trim_start_matches("0x"), 16).unwrap()
}

/// One band's outcome.
#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
}

/// What a lane produced: each render target's four words, or `None` when discarded.
type Pixel = Option<Vec<[u32; 4]>>;

/// Runs `draw`'s pixel program over rows `rows` of a `width`-wide target; returns the pixels row by row.
fn run_band(draw: &DrawState, width: u32, rows: (u32, u32), targets: usize) -> Vec<Vec<Pixel>> {
    let container_bytes = draw.pixel_shader.as_ref().unwrap();
    let container = Container::parse(container_bytes, Verify::Skip).unwrap();
    let program = program::decode_bytes(container.program_chunk().unwrap().1).unwrap();
    let exe = Executable::new(&program).unwrap_or_else(|e| panic!("{e}"));
    let position = exe
        .inputs()
        .iter()
        .find(|i| i.system == Some(SystemName::Position))
        .map(|i| match i.register {
            InputRegister::V(n) => n,
            _ => panic!("SV_Position is not a v# register"),
        });
    // Bindings: constant buffers as 16-byte vectors from their first constant; views resolved once.
    let buffers: Vec<Option<Vec<[u32; 4]>>> = draw
        .ps
        .constant_buffers
        .iter()
        .map(|b| {
            b.as_ref().map(|b| {
                let first = b.first_constant as usize * 16;
                let bytes = &b.data[first.min(b.data.len())..];
                bytes
                    .chunks_exact(16)
                    .take(b.num_constants as usize)
                    .map(|c| std::array::from_fn(|i| u32::from_le_bytes(c[i * 4..i * 4 + 4].try_into().unwrap())))
                    .collect()
            })
        })
        .collect();
    let views: Vec<Option<TextureView>> = draw
        .ps
        .shader_resources
        .iter()
        .map(|v| {
            v.as_ref()
                .map(|v| TextureView::new(v).unwrap_or_else(|e| panic!("{e}")))
        })
        .collect();
    // What the real D3D11 did with an empty slot is what the spec says (zeros; the default sampler).
    let mut bindings = Bindings {
        unbound: Unbound::Zero,
        ..Bindings::default()
    };
    for (slot, buffer) in buffers.iter().enumerate() {
        bindings.constant_buffers[slot] = buffer.as_deref();
    }
    bindings.resources = views
        .iter()
        .map(|v| v.as_ref().map(|v| v as &dyn ShaderResource))
        .collect();
    for (slot, sampler) in draw.ps.samplers.iter().enumerate() {
        bindings.samplers[slot] = sampler.as_ref();
    }

    let mut out = vec![vec![None; width as usize]; (rows.1 - rows.0) as usize];
    let mut machine = Machine::new();
    // Quads of two rows; up to LANES / 4 of them per batch, along the row pair.
    for y0 in (rows.0..rows.1).step_by(2) {
        let quads: Vec<u32> = (0..width).step_by(2).collect();
        for batch in quads.chunks(LANES / 4) {
            machine.start_quads(&exe, &vec![0b1111; batch.len()]).unwrap();
            for (q, x0) in batch.iter().enumerate() {
                for lane in 0..4u32 {
                    let (x, y) = (x0 + (lane & 1), y0 + (lane >> 1));
                    if let Some(register) = position {
                        let value = [x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0].map(f32::to_bits);
                        machine.set_input(q * 4 + lane as usize, register, value).unwrap();
                    }
                }
            }
            machine.run(&exe, &bindings, None).unwrap_or_else(|e| panic!("{e}"));
            for (q, x0) in batch.iter().enumerate() {
                for lane in 0..4u32 {
                    let (x, y) = (x0 + (lane & 1), y0 + (lane >> 1));
                    let index = q * 4 + lane as usize;
                    if y >= rows.1 || x >= width {
                        continue;
                    }
                    out[(y - rows.0) as usize][x as usize] = (!machine.is_discarded(index))
                        .then(|| (0..targets as u32).map(|t| machine.output(index, t)).collect());
                }
            }
        }
    }
    out
}

/// What a tolerance is measured in for a draw's textures: the spread of their float texel values (largest minus
/// smallest finite value of any component over every texel of every level 0, read with `ld`), and one unit of an
/// 8-bit normalised format (the reference filters those in 8-bit fixed point, per the fixture README), else 0.
fn texel_measures(draw: &DrawState) -> (f64, f64) {
    let mut low = f64::INFINITY;
    let mut high = f64::NEG_INFINITY;
    let mut unit = 0.0f64;
    for view in draw.ps.shader_resources.iter().flatten() {
        let name = format!("{:?}", view.desc.format);
        if name.contains('8') && name.contains("Unorm") {
            unit = unit.max(1.0 / 255.0);
        } else if name.contains('8') && name.contains("Snorm") {
            unit = unit.max(1.0 / 127.0);
        }
        let Ok(texture) = TextureView::new(view) else { continue };
        let [width, height, layers, _] = ShaderResource::dimensions(&texture, 0);
        for z in 0..layers.max(1) {
            for y in 0..height {
                for x in 0..width {
                    let address = [x as i32, y as i32, z as i32, 0];
                    let Ok(words) = ShaderResource::load(&texture, address, [0; 3], 0) else {
                        continue;
                    };
                    for v in words.map(f32::from_bits) {
                        if v.is_finite() {
                            low = low.min(f64::from(v));
                            high = high.max(f64::from(v));
                        }
                    }
                }
            }
        }
    }
    let spread = if high >= low { high - low } else { 0.0 };
    (spread, unit)
}

/// Cases whose `spec` list does not describe the band's program: `(file, band, case)`. The program is vkd3d's SM4
/// integer lowering of `f32tof16`, which for 70000.0 (case 4) computes 0x7c45 where the instruction's spec list
/// has 0x7bff / 0x7c00; D3D runs the bytecode, whose integer instructions are exact, so the expected result is what
/// the code computes — the reference's, which ran the same code. (Reported to the fixtures' owner.)
const SPEC_LIST_ERRORS: &[(&str, &str, usize)] =
    &[("alu_convert_spec_differs.json", "f32tof16_rounding_sm4_lowered", 4)];

/// Whether `draw`'s pixel program contains an instruction the band is about (`iridia.bands[].opcodes`). A band
/// whose program does not (vkd3d lowers SM4's `f32tof16` into integer code) runs that code, not the instruction,
/// so the instruction's spec list does not describe it.
fn runs_band_opcodes(draw: &DrawState, band: &Value) -> bool {
    let Some(opcodes) = band["opcodes"].as_array() else {
        return true;
    };
    let container = Container::parse(draw.pixel_shader.as_ref().unwrap(), Verify::Skip).unwrap();
    let program = program::decode_bytes(container.program_chunk().unwrap().1).unwrap();
    opcodes.iter().filter_map(Value::as_str).any(|name| {
        program
            .instructions
            .iter()
            .any(|i| i.opcode.name() == name || i.opcode.name().starts_with(&format!("{name}_")))
    })
}

/// The sRGB value (0..255, unrounded) whose ideal SRGB -> FLOAT conversion is `linear`: 3.2.3.8's FLOAT -> SRGB
/// without the final rounding, as 3.2.3.7 measures its tolerance.
fn srgb_of(linear: f32) -> f64 {
    let l = f64::from(linear).clamp(0.0, 1.0);
    let s = if l <= 0.003_130_8 {
        12.92 * l
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    s * 255.0
}

/// Whether a band's program takes coarse derivatives (`deriv_rt*_coarse`, or SM4's `deriv_rtx`/`deriv_rty`).
fn coarse_derivatives(band: &Value) -> bool {
    band["opcodes"].as_array().is_some_and(|opcodes| {
        opcodes.iter().any(|o| {
            matches!(
                o.as_str(),
                Some("deriv_rtx_coarse" | "deriv_rty_coarse" | "deriv_rtx" | "deriv_rty")
            )
        })
    })
}

/// Whether a word is a zero or a float32 denormal (what a flush makes of a denormal).
fn zero_or_denormal(word: u32) -> bool {
    word & 0x7F80_0000 == 0
}

/// The distance in ulps between two floats of the same sign.
fn ulps(a: u32, b: u32) -> Option<u32> {
    (a >> 31 == b >> 31).then(|| a.abs_diff(b))
}

/// Whether `ours` matches `theirs` under `compare` (the fixture README's modes and their options); `spread` and
/// `unit` are the draw's texture measures for texture tolerances.
fn matches(compare: &Value, ours: u32, theirs: u32, spread: f64, unit: f64) -> bool {
    let mode = compare["mode"].as_str().unwrap_or("exact");
    let (a, b) = (f32::from_bits(ours), f32::from_bits(theirs));
    let nan_any = compare.get("nan").and_then(Value::as_str) != Some("exact");
    if ours == theirs || (nan_any && a.is_nan() && b.is_nan()) {
        return true;
    }
    let number = |key: &str| compare.get(key).and_then(Value::as_f64);
    // "denorm": "flush allowed": a float32 denormal may come back as a zero of its sign.
    if compare.get("denorm").and_then(Value::as_str) == Some("flush allowed")
        && zero_or_denormal(ours)
        && zero_or_denormal(theirs)
        && ours >> 31 == theirs >> 31
    {
        return true;
    }
    // "reference_ulp": the reference is up to that many ulps from the exact result the spec asks for.
    if let Some(n) = number("reference_ulp")
        && a.is_finite()
        && b.is_finite()
        && ulps(ours, theirs).is_some_and(|d| f64::from(d) <= n)
    {
        return true;
    }
    if mode != "tolerance" {
        return false;
    }
    // Next to NaN / inf texels the reference's filtered results are NaN (or infinite): not references (the fixture
    // README: it multiplies texels of weight 0).
    if !b.is_finite() && number("weight_abs").is_some() {
        return true;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return false;
    }
    let difference = (f64::from(a) - f64::from(b)).abs();
    let mut allowed = 0.0f64;
    if let Some(abs) = number("abs") {
        allowed = allowed.max(abs);
    }
    if let Some(rel) = number("rel") {
        allowed = allowed.max(rel * f64::from(b).abs());
    }
    if let Some(abs) = number("abs_in_0.5_2") {
        // log's absolute bound holds for inputs in [0.5, 2], whose results lie in [-1, 1].
        if f64::from(b).abs() <= 1.0 {
            allowed = allowed.max(abs);
        }
    }
    // Texture tolerances: a weight (or LOD) error times the texels' spread, plus one unit of the format.
    for key in ["weight_abs", "lod_abs"] {
        if let Some(w) = number(key) {
            allowed = allowed.max(w * spread + number("unit").unwrap_or(0.0) * unit);
        }
    }
    difference <= allowed
}

/// Whether `word` is a float16 NaN in its low half (what `f32tof16` writes for a NaN: 3.2.2 keeps NaN a NaN and
/// leaves the payload open).
fn half_nan(word: u32) -> bool {
    word >> 16 == 0 && word & 0x7C00 == 0x7C00 && word & 0x03FF != 0
}

/// The reference texels of render target `index` of description `path`.
fn reference_target(path: &Path, index: usize, width: u32, height: u32) -> Vec<[u32; 4]> {
    let stem = path.file_stem().unwrap().to_string_lossy();
    let file = path.with_file_name(format!("{stem}.ref.rt{index}.bin"));
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert_eq!(bytes.len(), (width * height * 16) as usize, "{}", file.display());
    bytes
        .chunks_exact(16)
        .map(|t| std::array::from_fn(|i| u32::from_le_bytes(t[i * 4..i * 4 + 4].try_into().unwrap())))
        .collect()
}

/// The clear value of render target `index` (its first texel before the draws).
fn clear_value(description: &description::Description, index: usize) -> [u32; 4] {
    let Resource::Texture(texture) = &*description.render_targets[index] else {
        panic!("a render target is a texture");
    };
    let texel = &texture.subresources[0][..16];
    std::array::from_fn(|i| u32::from_le_bytes(texel[i * 4..i * 4 + 4].try_into().unwrap()))
}

/// Checks one description; returns one line per band for the report.
fn check_description(path: &Path, value: &Value) -> Vec<(String, Tally)> {
    let meta = value["iridia"].clone();
    let mut stripped = value.clone();
    stripped.as_object_mut().unwrap().remove("iridia");
    // `tools/refrender_ext`'s `"depth": true` on a texture makes the reference create it as a depth texture viewed as
    // R32_FLOAT; for the interpreter it is R32_FLOAT data (the fixture README), and the description reader does not
    // know the key.
    let without_depth = |textures: Option<&mut Value>| {
        for texture in textures.and_then(Value::as_array_mut).into_iter().flatten() {
            texture.as_object_mut().map(|t| t.remove("depth"));
        }
    };
    without_depth(stripped.get_mut("ps_textures"));
    for draw in stripped
        .get_mut("draws")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        without_depth(draw.get_mut("ps_textures"));
    }
    let directory = path.parent().unwrap().to_path_buf();
    let description = description::read(&serde_json::to_string(&stripped).unwrap(), &mut |file| {
        std::fs::read(directory.join(file)).map_err(|e| iridia::Error::new(file, e.to_string()))
    })
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (width, height) = (description.width, description.height);
    let targets = description.render_targets.len();
    // `not_rendered` descriptions (opcodes the reference cannot run) have only the spec's results.
    let rendered = meta.get("not_rendered").and_then(Value::as_bool) != Some(true);
    let references: Vec<Vec<[u32; 4]>> = (0..targets)
        .map(|t| {
            if rendered {
                reference_target(path, t, width, height)
            } else {
                vec![[0; 4]; (width * height) as usize]
            }
        })
        .collect();
    let clears: Vec<[u32; 4]> = (0..targets).map(|t| clear_value(&description, t)).collect();
    // The reference renderer clears a UINT target to its clear colour's float bits, where the description reader
    // (and ClearRenderTargetView's documentation) converts the float to an integer: a discarded pixel may show either.
    let clear_bits: Vec<[u32; 4]> = (0..targets)
        .map(|t| {
            let clear = &value["render_targets"][t]["clear"];
            std::array::from_fn(|c| clear[c].as_f64().map_or(0, |v| (v as f32).to_bits()))
        })
        .collect();
    let mut report = Vec::new();
    for band in meta["bands"].as_array().unwrap() {
        let name = band["name"].as_str().unwrap().to_string();
        let draw = &description.draws[band["draw"].as_u64().unwrap() as usize];
        let rows = (
            band["rows"][0].as_u64().unwrap() as u32,
            band["rows"][1].as_u64().unwrap() as u32,
        );
        let pixels = run_band(draw, width, rows, targets);
        let (spread, unit) = texel_measures(draw);
        let spec_applies = runs_band_opcodes(draw, band);
        let srgb = name.contains("SRGB");
        let mut tally = Tally::default();
        for target in 0..targets {
            let compare = match band["compare"].get(format!("rt{target}")) {
                Some(per_target) => per_target.clone(),
                None => band["compare"].clone(),
            };
            let mode = compare["mode"].as_str().unwrap_or("exact").to_string();
            for (row, line) in pixels.iter().enumerate() {
                for (x, pixel) in line.iter().enumerate() {
                    let y = rows.0 as usize + row;
                    let ours = pixel.as_ref().map_or(clears[target], |p| p[target]);
                    let theirs = references[target][y * width as usize + x];
                    if rendered && pixel.is_none() && theirs == clear_bits[target] {
                        tally.compared += 4;
                        continue;
                    }
                    // The top-left pixel of this pixel's quad, in the reference.
                    let top_left = references[target][(y & !1) * width as usize + (x & !1)];
                    for c in 0..4 {
                        let ok = match mode.as_str() {
                            // Coarse derivatives (and SM4's, which are coarse here): the spec's one difference per
                            // quad, the top row's for x and the left column's for y (22.5.2), is what a fine
                            // derivative gives at the quad's top-left pixel, which the reference computes.
                            "spec_differs" if coarse_derivatives(band) => ours[c] == top_left[c],
                            // 3.2.3.7: an sRGB colour channel read as a float is within 0.5 of the sRGB value,
                            // measured on the sRGB side (the reference's value rounds to that sRGB value).
                            "exact" if srgb && c < 3 && f32::from_bits(theirs[c]).is_finite() => {
                                (srgb_of(f32::from_bits(ours[c])) - srgb_of(f32::from_bits(theirs[c])).round()).abs()
                                    <= 0.5
                            }
                            "exact" | "tolerance" => matches(&compare, ours[c], theirs[c], spread, unit),
                            // A program that does not run the band's instruction: the reference ran the same code.
                            "spec_differs" if !spec_applies => ours[c] == theirs[c],
                            "spec_differs" | "no_reference" => match band.get("spec") {
                                // Case k is component k % 4 of band-local pixel k / 4, row by row.
                                Some(spec) => {
                                    let case = (row * width as usize + x) * 4 + c;
                                    let file = path.file_name().unwrap().to_string_lossy();
                                    if SPEC_LIST_ERRORS.contains(&(&*file, name.as_str(), case)) {
                                        tally.compared += 1;
                                        if ours[c] != theirs[c] {
                                            tally
                                                .mismatches
                                                .push(format!("{name} case {case}: not the reference's"));
                                        }
                                        continue;
                                    }
                                    match spec.get(case) {
                                        Some(allowed) => allowed.as_array().unwrap().iter().any(|v| {
                                            let v = hex(v);
                                            v == ours[c]
                                                || (f32::from_bits(v).is_nan() && f32::from_bits(ours[c]).is_nan())
                                                || (half_nan(v) && half_nan(ours[c]))
                                        }),
                                        None => continue, // lanes past the band's cases repeat case 0
                                    }
                                }
                                None => continue,
                            },
                            _ => continue,
                        };
                        tally.compared += 1;
                        if !ok && tally.mismatches.len() < 4 {
                            tally.mismatches.push(format!(
                                "rt{target} ({x}, {y}).{}: ours {:#010x} ({}), reference {:#010x} ({})",
                                ['x', 'y', 'z', 'w'][c],
                                ours[c],
                                f32::from_bits(ours[c]),
                                theirs[c],
                                f32::from_bits(theirs[c])
                            ));
                        } else if !ok {
                            tally.mismatches.push(String::new());
                        }
                    }
                }
            }
        }
        report.push((format!("{} {name}", path.file_name().unwrap().to_string_lossy()), tally));
    }
    report
}

#[test]
fn every_reference_case_matches_the_real_d3d11_where_the_spec_and_it_agree() {
    let descriptions = descriptions();
    assert!(
        !descriptions.is_empty(),
        "no reference descriptions under {}",
        root().display()
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    for (path, value) in &descriptions {
        for (band, tally) in check_description(path, value) {
            compared += tally.compared;
            if !tally.mismatches.is_empty() {
                let shown: Vec<&String> = tally.mismatches.iter().filter(|m| !m.is_empty()).collect();
                failures.push(format!(
                    "{band}: {} of {} differ, e.g. {shown:?}",
                    tally.mismatches.len(),
                    tally.compared
                ));
            }
        }
    }
    eprintln!(
        "{compared} components compared over {} descriptions",
        descriptions.len()
    );
    assert!(compared > 100_000, "only {compared} components compared");
    assert!(
        failures.is_empty(),
        "{} bands differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
