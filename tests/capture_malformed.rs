//! Malformed captures never panic and never make the reader reserve memory the input does not justify: a small
//! valid capture truncated, with bits flipped (a fixed xorshift generator, so every run is the same), with every
//! 4-byte window of its ZIP directory set to absurd sizes, counts and offsets, and with manifests that declare
//! absurd shapes and sizes. Each case must open with an error or read every draw (or fail to), and no single
//! allocation while doing so may reach [`ALLOCATION_LIMIT`] (see `common`).

#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used,
    clippy::cast_possible_truncation
)]

#[path = "common/capture_edit.rs"]
mod capture_edit;
mod common;

use capture_edit::with_manifest;
use common::largest_allocation_in;
use iridia::api::draw::{ConstantBufferBinding, DrawCall, DrawState, RenderTargetView};
use iridia::api::enums::ResourceDimension;
use iridia::api::resource::{RenderTargetViewDesc, Resource, ShaderResourceView, Texture, TextureShape};
use iridia::capture::{Capture, CaptureWriter, DrawRecord, ResolveRecord};
use iridia::compare::ToleranceSpec;
use iridia::format::Format;
use iridia::replay::replay_resolve;
use serde_json::{Value, json};
use std::sync::Arc;

/// More than reading a capture of a few kilobytes needs (its blobs are at most 1 KiB, its manifest a few), far less
/// than an allocation sized by a declared size or count from the file (2 GiB, 16M entries) would take.
const ALLOCATION_LIMIT: usize = 1 << 20;

/// A capture of two draws sharing a 16x16 texture with 5 mips, a constant buffer, and an 8x8 render target.
fn capture() -> Vec<u8> {
    let shape = |format, size, mips| TextureShape {
        dimension: ResourceDimension::Texture2D,
        format,
        width: size,
        height: size,
        depth: 1,
        array_size: 1,
        mip_levels: mips,
        sample_count: 1,
    };
    let texture_shape = shape(Format::R8G8B8A8Unorm, 16, 5);
    let mips = (0..5)
        .map(|level| {
            let bytes = texture_shape.mip_layout(level).unwrap().bytes as usize;
            (0..bytes)
                .map(|i| (i * 7 + level as usize) as u8)
                .collect::<Vec<_>>()
                .into()
        })
        .collect();
    let texture = Arc::new(Resource::Texture(Texture::new(texture_shape, mips).unwrap()));
    let mut records = Vec::new();
    for index in 0..2u8 {
        let mut state = DrawState::new(
            format!("draw {index}"),
            vec![0x44, 0x58, 0x42, 0x43, index].into(),
            DrawCall::Draw {
                vertex_count: 3,
                start_vertex: 0,
            },
        );
        state.ps.constant_buffers = vec![Some(ConstantBufferBinding::whole(vec![index; 64].into()))];
        state.ps.shader_resources = vec![Some(ShaderResourceView {
            resource: texture.clone(),
            desc: Default::default(),
        })];
        let target = Texture::new(shape(Format::R8G8B8A8Unorm, 8, 1), vec![vec![index; 256].into()]).unwrap();
        state.render_targets = vec![Some(RenderTargetView {
            resource: Arc::new(Resource::Texture(target)),
            desc: RenderTargetViewDesc::default(),
        })];
        let mut record = DrawRecord::new(state);
        record.render_targets_after = vec![Some(vec![index + 1; 256].into())];
        records.push(record);
    }
    // and a resolve between the two draws (format 1.2): a 4x4 texture of 4 samples into a 4x4 one
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&records[0]).unwrap();
    let samples = |count| TextureShape {
        sample_count: count,
        ..shape(Format::R8G8B8A8Unorm, 4, 1)
    };
    writer
        .add_resolve(&ResolveRecord::<[u8]> {
            api_call: None,
            format: Format::R8G8B8A8Unorm,
            source: samples(4),
            source_subresource: 0,
            source_data: (0..=255u8).collect::<Vec<u8>>().into(),
            destination: samples(1),
            destination_subresource: 0,
            destination_before: vec![7; 64].into(),
            destination_after: Some(vec![9; 64].into()),
        })
        .unwrap();
    writer.add_draw(&records[1]).unwrap();
    writer.finish_to_vec().unwrap()
}

/// Opens `bytes` and reads every draw and listed blob, with the largest allocation made meanwhile.
fn read_everything(bytes: &[u8]) -> usize {
    let (_, largest) = largest_allocation_in(|| {
        let Ok(mut capture) = Capture::open(bytes.to_vec()) else {
            return;
        };
        let _ = capture.draws();
        for index in 0..capture.draw_count() {
            let _ = capture.draw(index);
        }
        for index in 0..capture.resolves().len() {
            if let Ok(resolve) = capture.resolve(index) {
                let _ = replay_resolve(&resolve, &ToleranceSpec::default());
            }
        }
        for (id, _) in capture.blobs() {
            let _ = capture.blob(&id);
        }
    });
    largest
}

fn check(name: &str, bytes: &[u8]) {
    let largest = read_everything(bytes);
    assert!(largest < ALLOCATION_LIMIT, "{name}: an allocation of {largest} bytes");
}

/// A fixed xorshift sequence.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn the_valid_capture_reads_within_the_limit() {
    let bytes = capture();
    let mut capture = Capture::open(bytes.clone()).unwrap();
    capture.check().unwrap();
    assert!(capture.draw(1).is_ok());
    assert!(capture.resolve(0).is_ok());
    check("valid", &bytes);
}

#[test]
fn truncated_captures_are_errors() {
    let bytes = capture();
    for len in (0..bytes.len()).step_by(37).chain(bytes.len() - 64..bytes.len()) {
        let cut = &bytes[..len];
        assert!(Capture::open(cut.to_vec()).is_err(), "cut at {len}");
        check(&format!("cut at {len}"), cut);
    }
}

#[test]
fn flipped_bits_do_not_panic_or_overallocate() {
    let bytes = capture();
    let mut random = Xorshift(0x9e37_79b9_7f4a_7c15);
    for case in 0..1500 {
        let mut bad = bytes.clone();
        for _ in 0..1 + case % 3 {
            let bit = random.next() as usize % (bad.len() * 8);
            bad[bit / 8] ^= 1 << (bit % 8);
        }
        check(&format!("flip case {case}"), &bad);
    }
}

#[test]
fn absurd_directory_fields_do_not_overallocate() {
    let bytes = capture();
    // The central directory starts at the offset the end record gives (bytes 16..20 of the last 22).
    let eocd = bytes.len() - 22;
    assert_eq!(bytes[eocd..eocd + 4], [0x50, 0x4b, 0x05, 0x06]);
    let directory = u32::from_le_bytes(bytes[eocd + 16..eocd + 20].try_into().unwrap()) as usize;
    for at in directory..bytes.len() - 3 {
        for value in [0xffff_ffffu32, 0x7fff_ffff, 0x8000_0000, 0x0100_0000, 0x0000_ffff, 0] {
            let mut bad = bytes.clone();
            bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
            check(&format!("{value:#x} at byte {at}"), &bad);
        }
    }
}

/// A change to a manifest's JSON.
type ManifestEdit = Box<dyn Fn(&mut Value)>;

#[test]
fn absurd_manifest_sizes_are_errors_without_allocating_them() {
    let bytes = capture();
    let huge_texture = json!({"dimension": "TEXTURE2D", "format": "R32G32B32A32_FLOAT", "width": 16384,
        "height": 16384, "depth": 1, "array_size": 2048, "mip_levels": 15, "sample_count": 1});
    let edits: Vec<(&str, ManifestEdit)> = vec![
        (
            "a texture of 2048 slices of 16384x16384 texels",
            Box::new(move |m| m["draws"][0]["ps"]["shader_resources"][0]["resource"]["shape"] = huge_texture.clone()),
        ),
        (
            "a blob of 2^62 bytes",
            Box::new(|m| m["draws"][0]["ps"]["constant_buffers"][0]["data"]["size"] = (1u64 << 62).into()),
        ),
        (
            "a render target of 16384x16384",
            Box::new(|m| {
                m["draws"][1]["render_targets"][0]["resource"]["width"] = 16384.into();
                m["draws"][1]["render_targets"][0]["resource"]["height"] = 16384.into();
            }),
        ),
        (
            "a slot of 4 billion",
            Box::new(|m| m["draws"][0]["render_targets"][0]["slot"] = 4_000_000_000u32.into()),
        ),
        (
            "a mip slice past the resource",
            Box::new(|m| m["draws"][0]["render_targets"][0]["view"]["mip_slice"] = 4_000_000_000u32.into()),
        ),
        (
            "a 3D texture of 16384 cubed",
            Box::new(|m| {
                let shape = &mut m["draws"][0]["ps"]["shader_resources"][0]["resource"]["shape"];
                shape["dimension"] = "TEXTURE3D".into();
                shape["depth"] = 16384.into();
                shape["width"] = 16384.into();
                shape["height"] = 16384.into();
            }),
        ),
    ];
    for (name, edit) in edits {
        let bad = with_manifest(&bytes, edit);
        let mut capture = Capture::open(bad.clone()).unwrap();
        let problem = capture.check().unwrap_err();
        assert!(capture.draw(0).is_err() || capture.draw(1).is_err(), "{name}");
        assert!(!problem.detail.is_empty(), "{name}");
        check(name, &bad);
    }
}

#[test]
fn absurd_stage_entries_are_errors_without_allocating_them() {
    // format 1.4's geometry stage, stream output and pixel-stage views, given the draw's 64-byte constant buffer blob
    let bytes = capture();
    let declaration = |count: usize| {
        let entry = json!({"stream": 0, "semantic_name": "POS", "semantic_index": 0, "start_component": 0,
            "component_count": 4, "output_slot": 0});
        Value::Array(vec![entry; count])
    };
    let stream_output = move |m: &mut Value, target: Value, entries: usize| {
        m["draws"][0]["stream_output"] = json!({"declaration": declaration(entries), "strides": [16],
            "rasterized_stream": 0, "targets": [target]});
    };
    let edits: Vec<(&str, ManifestEdit)> = vec![
        (
            "a stream-output buffer of 2^62 bytes",
            Box::new(move |m| {
                let mut data = m["draws"][0]["ps"]["constant_buffers"][0]["data"].clone();
                data["size"] = (1u64 << 62).into();
                stream_output(m, json!({"slot": 0, "data": data, "offset": 0}), 1);
            }),
        ),
        (
            "a stream-output offset of 4 billion",
            Box::new(move |m| {
                let data = m["draws"][0]["ps"]["constant_buffers"][0]["data"].clone();
                stream_output(m, json!({"slot": 0, "data": data, "offset": 4_000_000_000u32}), 1);
            }),
        ),
        (
            "a declaration of 600 entries, past 512",
            Box::new(move |m| {
                let data = m["draws"][0]["ps"]["constant_buffers"][0]["data"].clone();
                stream_output(m, json!({"slot": 0, "data": data, "offset": 0}), 600);
            }),
        ),
        (
            "a view of 4 billion elements",
            Box::new(|m| {
                let data = m["draws"][0]["ps"]["constant_buffers"][0]["data"].clone();
                m["draws"][0]["uavs"] = json!([{"slot": 1, "view": {"format": "R32_TYPELESS", "dimension": "BUFFER",
                    "mip_slice": 0, "first_array_slice": 0, "array_size": 0, "first_element": 0,
                    "num_elements": 4_000_000_000u32, "raw": true, "append": false, "counter": false,
                    "structure_stride": 0}, "resource": {"kind": "buffer", "data": data}}]);
            }),
        ),
        (
            "a view of a texture of 2048 slices of 16384x16384 texels",
            Box::new(|m| {
                let data = m["draws"][0]["ps"]["constant_buffers"][0]["data"].clone();
                m["draws"][0]["uavs"] = json!([{"slot": 1, "view": {"format": "R32_UINT", "dimension": "TEXTURE2DARRAY",
                    "mip_slice": 0, "first_array_slice": 0, "array_size": 2048, "first_element": 0,
                    "num_elements": 0, "raw": false, "append": false, "counter": false, "structure_stride": 0},
                    "resource": {"kind": "texture", "shape": {"dimension": "TEXTURE2D", "format": "R32_UINT",
                    "width": 16384, "height": 16384, "depth": 1, "array_size": 2048, "mip_levels": 1,
                    "sample_count": 1}, "subresources": [data]}}]);
            }),
        ),
        (
            "a geometry stage without its program",
            Box::new(|m| {
                m["draws"][0]["gs"] = json!({"dxbc": null, "constant_buffers": [], "shader_resources": [],
                    "samplers": []});
            }),
        ),
    ];
    for (name, edit) in edits {
        let bad = with_manifest(&bytes, edit);
        let mut capture = Capture::open(bad.clone()).unwrap();
        let problem = capture.check().unwrap_err();
        assert!(problem.at.starts_with("draw 0 "), "{name}: {problem}");
        assert!(capture.draw(0).is_err(), "{name}");
        assert!(capture.draw(1).is_ok(), "{name}");
        check(name, &bad);
    }
}

#[test]
fn absurd_resolve_sizes_are_errors_without_allocating_them() {
    let bytes = capture();
    let edits: Vec<(&str, ManifestEdit)> = vec![
        (
            "a source of 16384x16384 texels of 32 samples",
            Box::new(|m| {
                let shape = &mut m["resolves"][0]["source"]["resource"];
                shape["width"] = 16384.into();
                shape["height"] = 16384.into();
                shape["sample_count"] = 32.into();
                shape["format"] = "R32G32B32A32_FLOAT".into();
            }),
        ),
        (
            "source data of 2^62 bytes",
            Box::new(|m| m["resolves"][0]["source"]["data"]["size"] = (1u64 << 62).into()),
        ),
        (
            "a destination after of 2^31 bytes",
            Box::new(|m| m["resolves"][0]["destination"]["after"]["size"] = (1u64 << 31).into()),
        ),
        (
            "a subresource of 4 billion",
            Box::new(|m| m["resolves"][0]["destination"]["subresource"] = 4_000_000_000u32.into()),
        ),
        (
            "a destination of 2048 slices of 16384x16384",
            Box::new(|m| {
                let shape = &mut m["resolves"][0]["destination"]["resource"];
                shape["width"] = 16384.into();
                shape["height"] = 16384.into();
                shape["array_size"] = 2048.into();
            }),
        ),
        (
            "a resolve after 2^63 draws",
            Box::new(|m| m["resolves"][0]["before_draw"] = (1u64 << 63).into()),
        ),
    ];
    for (name, edit) in edits {
        let bad = with_manifest(&bytes, edit);
        let mut capture = Capture::open(bad.clone()).unwrap();
        let problem = capture.check().unwrap_err();
        assert!(problem.at.starts_with("resolve 0"), "{name}: {problem}");
        assert!(capture.resolve(0).is_err(), "{name}");
        // the draws still read
        assert!(capture.draw(0).is_ok() && capture.draw(1).is_ok(), "{name}");
        check(name, &bad);
    }
}

#[test]
fn a_huge_manifest_with_a_typed_error_is_not_read_again_as_a_value_tree() {
    // Issue 13: a typed error in a manifest made the reader parse it again as a value tree to name the draw; a
    // manifest holding an array of 9 million zeros (18 MB of JSON) then asks for a 256 MiB vector of values at once
    // (the 4 GiB of the issue at 256 MiB of JSON). Past 16 MiB the error keeps the parser's line and column.
    let bytes = capture();
    let bad = with_manifest(&bytes, |m| {
        m["draws"][0]["call"] = json!("not a call");
        m["x"] = Value::Array(vec![json!(0); 9_000_000]);
    });
    let (result, largest) = largest_allocation_in(|| Capture::open(bad.clone()).map(|_| ()));
    let error = result.unwrap_err().to_string();
    assert!(error.contains("the manifest does not read"), "{error}");
    assert!(largest < 64 << 20, "the open asked for {largest} bytes at once");
}
