//! The capture format's round trip and its reader's checks, on states built here field by field.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use super::manifest::F32;
use super::*;
use crate::api::draw::*;
use crate::api::enums::*;
use crate::api::fixed_function::*;
use crate::api::resource::*;
use crate::api::viewport::{Scissor, Viewport};
use crate::format::Format;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};
use std::sync::Arc;

pub(crate) mod dispatches;
mod events;
mod resolves;

/// Bytes 0, 1, 2 ... scrambled by `seed`, so that different buffers differ.
pub(super) fn bytes(len: usize, seed: u8) -> Arc<[u8]> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn shape(
    dimension: ResourceDimension,
    format: Format,
    size: [u32; 3],
    array: u32,
    mips: u32,
) -> TextureShape {
    TextureShape {
        dimension,
        format,
        width: size[0],
        height: size[1],
        depth: size[2],
        array_size: array,
        mip_levels: mips,
        sample_count: 1,
    }
}

/// A texture of `shape` with each subresource filled from `seed`.
fn texture(shape: TextureShape, seed: u8) -> Texture {
    let subresources = (0..shape.subresource_count() as u32)
        .map(|i| {
            let level = i % shape.mip_levels;
            bytes(
                shape.mip_layout(level).unwrap().bytes as usize,
                seed.wrapping_add(i as u8),
            )
        })
        .collect();
    Texture::new(shape, subresources).unwrap()
}

/// A draw whose every field differs from D3D11's default, with targets that are whole one-surface textures (so
/// the state reads back equal).
pub(super) fn every_field_draw() -> DrawRecord {
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: 6,
        instance_count: 3,
        start_index: 2,
        base_vertex: -4,
        start_instance: 7,
    };
    let mut state = DrawState::new("draw 0", bytes(100, 1), call);
    state.pixel_shader = Some(bytes(120, 2));
    state.input_layout = vec![
        InputElementDesc {
            semantic_name: "POSITION".into(),
            semantic_index: 0,
            format: Format::R32G32B32Float,
            input_slot: 0,
            aligned_byte_offset: 0,
            input_slot_class: InputClassification::PerVertexData,
            instance_data_step_rate: 0,
        },
        InputElementDesc {
            semantic_name: "TEXCOORD".into(),
            semantic_index: 3,
            format: Format::R16G16Unorm,
            input_slot: 3,
            aligned_byte_offset: APPEND_ALIGNED_ELEMENT,
            input_slot_class: InputClassification::PerInstanceData,
            instance_data_step_rate: 2,
        },
    ];
    state.vertex_buffers = vec![
        Some(VertexBufferBinding {
            data: bytes(48, 3),
            stride: 12,
            offset: 0,
        }),
        None,
        None,
        Some(VertexBufferBinding {
            data: bytes(40, 4),
            stride: 4,
            offset: 8,
        }),
    ];
    state.index_buffer = Some(IndexBufferBinding {
        data: bytes(32, 5),
        format: IndexFormat::R16Uint,
        offset: 4,
    });
    state.topology = PrimitiveTopology::TriangleStrip;
    state.vs.constant_buffers = vec![
        None,
        Some(ConstantBufferBinding {
            data: bytes(256, 6),
            first_constant: 4,
            num_constants: 8,
        }),
    ];
    let raw_buffer = Arc::new(Resource::Buffer(bytes(64, 7)));
    state.vs.shader_resources = vec![
        None,
        None,
        Some(ShaderResourceView {
            resource: raw_buffer,
            desc: ShaderResourceViewDesc {
                format: Format::R32Typeless,
                dimension: SrvDimension::BufferEx,
                first_element: 2,
                num_elements: 10,
                raw: true,
                ..Default::default()
            },
        }),
    ];
    state.ps.constant_buffers = vec![Some(ConstantBufferBinding::whole(bytes(64, 8)))];
    let array = Arc::new(Resource::Texture(texture(
        shape(ResourceDimension::Texture2D, Format::R8G8B8A8Typeless, [4, 4, 1], 2, 2),
        9,
    )));
    let volume = Arc::new(Resource::Texture(texture(
        shape(ResourceDimension::Texture3D, Format::R16Float, [4, 2, 3], 1, 2),
        10,
    )));
    state.ps.shader_resources = vec![
        Some(ShaderResourceView {
            resource: array.clone(),
            desc: ShaderResourceViewDesc {
                format: Format::R8G8B8A8UnormSrgb,
                dimension: SrvDimension::Texture2DArray,
                most_detailed_mip: 1,
                mip_levels: 1,
                first_array_slice: 1,
                array_size: 1,
                ..Default::default()
            },
        }),
        None,
        None,
        None,
        None,
        Some(ShaderResourceView {
            resource: volume,
            desc: ShaderResourceViewDesc {
                format: Format::R16Float,
                dimension: SrvDimension::Texture3D,
                ..Default::default()
            },
        }),
        Some(ShaderResourceView {
            resource: array,
            desc: ShaderResourceViewDesc {
                format: Format::R8G8B8A8Unorm,
                dimension: SrvDimension::Texture2DArray,
                array_size: 2,
                ..Default::default()
            },
        }),
    ];
    state.ps.samplers = vec![
        Some(SamplerDesc {
            filter: Filter::ComparisonMinMagMipLinear,
            address_u: AddressMode::Border,
            address_v: AddressMode::MirrorOnce,
            address_w: AddressMode::Wrap,
            mip_lod_bias: -0.75,
            max_anisotropy: 16,
            comparison: ComparisonFunc::GreaterEqual,
            // 0.1 has no exact float; -0.0 keeps its sign; 1e-45 is the smallest denormal
            border_color: [0.1, -0.0, 1e-45, 1.0],
            min_lod: -f32::MAX,
            max_lod: 3.5,
        }),
        None,
        None,
        Some(SamplerDesc::default()),
    ];
    state.rasterizer = RasterizerDesc {
        fill_mode: FillMode::Wireframe,
        cull_mode: CullMode::Front,
        front_counter_clockwise: true,
        depth_bias: -17,
        depth_bias_clamp: 0.125,
        slope_scaled_depth_bias: 1.5,
        depth_clip_enable: false,
        scissor_enable: true,
        multisample_enable: true,
        antialiased_line_enable: true,
        forced_sample_count: 4,
    };
    state.depth_stencil = DepthStencilDesc {
        depth_enable: true,
        depth_write_mask: DepthWriteMask::Zero,
        depth_func: ComparisonFunc::GreaterEqual,
        stencil_enable: true,
        stencil_read_mask: 0x0f,
        stencil_write_mask: 0xf0,
        front_face: StencilFaceDesc {
            fail: StencilOp::Zero,
            depth_fail: StencilOp::Invert,
            pass: StencilOp::IncrSat,
            func: ComparisonFunc::Equal,
        },
        back_face: StencilFaceDesc {
            fail: StencilOp::Replace,
            depth_fail: StencilOp::Decr,
            pass: StencilOp::Incr,
            func: ComparisonFunc::NotEqual,
        },
    };
    state.stencil_ref = 0x5a;
    state.blend.alpha_to_coverage_enable = true;
    state.blend.independent_blend_enable = true;
    state.blend.render_target[0] = RenderTargetBlendDesc {
        blend_enable: true,
        logic_op_enable: false,
        src_blend: Blend::SrcAlpha,
        dest_blend: Blend::InvSrcAlpha,
        blend_op: BlendOp::RevSubtract,
        src_blend_alpha: Blend::BlendFactor,
        dest_blend_alpha: Blend::InvSrc1Alpha,
        blend_op_alpha: BlendOp::Max,
        logic_op: LogicOp::Noop,
        render_target_write_mask: 0b0111,
    };
    state.blend.render_target[7].logic_op_enable = true;
    state.blend.render_target[7].logic_op = LogicOp::AndInverted;
    state.blend_factor = [0.1, 0.2, 1e-40, -0.0];
    state.sample_mask = 0xf0f0;
    state.viewports = vec![
        Viewport {
            x: 0.5,
            y: -1.25,
            width: 3.0,
            height: 2.0,
            min_depth: 0.25,
            max_depth: 0.75,
        },
        Viewport {
            x: 1.0,
            y: 1.0,
            width: 1.0,
            height: 1.0,
            min_depth: 0.0,
            max_depth: 1.0,
        },
    ];
    state.scissor_rects = vec![
        Scissor {
            left: -3,
            top: 1,
            right: 4,
            bottom: 2,
        },
        Scissor::default(),
    ];
    let color = texture(
        shape(ResourceDimension::Texture2D, Format::R8G8B8A8Typeless, [4, 3, 1], 1, 1),
        11,
    );
    let float = texture(
        shape(ResourceDimension::Texture2D, Format::R16G16B16A16Float, [4, 3, 1], 1, 1),
        12,
    );
    let depth = texture(
        shape(ResourceDimension::Texture2D, Format::R24G8Typeless, [4, 3, 1], 1, 1),
        13,
    );
    state.render_targets = vec![
        Some(RenderTargetView {
            resource: Arc::new(Resource::Texture(color)),
            desc: RenderTargetViewDesc {
                format: Format::R8G8B8A8UnormSrgb,
                ..Default::default()
            },
        }),
        None,
        Some(RenderTargetView {
            resource: Arc::new(Resource::Texture(float)),
            desc: RenderTargetViewDesc::default(),
        }),
    ];
    state.depth_stencil_view = Some(DepthStencilView {
        resource: Arc::new(Resource::Texture(depth)),
        desc: DepthStencilViewDesc {
            format: Format::D24UnormS8Uint,
            read_only_stencil: true,
            ..Default::default()
        },
    });
    DrawRecord {
        state,
        name: Some("every field".into()),
        api_call: Some("DrawIndexedInstanced(6, 3, 2, -4, 7)".into()),
        // 4x3 texels: 48 bytes of R8G8B8A8, 96 of R16G16B16A16; the depth buffer 48 bytes of D24S8
        render_targets_after: vec![Some(bytes(48, 20)), None, None],
        depth_stencil_after: Some(bytes(48, 21)),
        uavs_after: Vec::new(),
        stream_output_after: Default::default(),
        indirect: false,
    }
}

#[test]
fn every_field_of_a_draw_reads_back_as_written() {
    let record = every_field_draw();
    let archive = write_capture(std::slice::from_ref(&record), Some("test".into())).unwrap();
    let mut capture = Capture::open(archive).unwrap();
    assert_eq!(capture.manifest().application.as_deref(), Some("test"));
    capture.check().unwrap();
    let draw = capture.draw(0).unwrap();
    assert_eq!(draw.state, record.state);
    assert_eq!(draw.name, record.name);
    assert_eq!(draw.api_call, record.api_call);
    // Writing what was read gives the same record again.
    assert_eq!(DrawRecord::from(draw.clone()), record);
    let slots: Vec<_> = draw.targets.iter().map(|t| t.target).collect();
    assert_eq!(
        slots,
        [
            TargetSlot::RenderTarget(0),
            TargetSlot::RenderTarget(2),
            TargetSlot::DepthStencil
        ]
    );
    let rt0 = &draw.targets[0];
    assert_eq!((rt0.format, rt0.width, rt0.height), (Format::R8G8B8A8UnormSrgb, 4, 3));
    assert_eq!(rt0.after.as_deref(), Some(&bytes(48, 20)[..]));
    assert_eq!(draw.targets[1].after, None);
    assert_eq!(draw.targets[2].format, Format::D24UnormS8Uint);
}

#[test]
fn the_summary_lists_programs_and_targets_from_the_manifest_alone() {
    let record = every_field_draw();
    let archive = write_capture(std::slice::from_ref(&record), None).unwrap();
    let capture = Capture::open(archive).unwrap();
    let summary = &capture.draws()[0];
    assert_eq!(summary.index, 0);
    assert_eq!(summary.call, record.state.call);
    assert_eq!(summary.programs.len(), 2);
    assert_eq!(summary.programs[0].stage, ShaderStage::Vertex);
    assert_eq!(summary.programs[0].blob.size, 100);
    assert_eq!(summary.programs[1].blob.sha256, BlobId::of(&bytes(120, 2)));
    let targets: Vec<_> = summary
        .targets
        .iter()
        .map(|t| (t.target.to_string(), t.format, t.width, t.height, t.after_recorded))
        .collect();
    assert_eq!(
        targets,
        [
            ("rt0".to_owned(), Format::R8G8B8A8UnormSrgb, 4, 3, true),
            ("rt2".to_owned(), Format::R16G16B16A16Float, 4, 3, false),
            ("depth".to_owned(), Format::D24UnormS8Uint, 4, 3, true),
        ]
    );
    assert!(summary.problem.is_none());
}

#[test]
fn a_view_of_one_surface_reads_back_as_a_one_surface_texture() {
    // A 2D array of 8x4 textures, 2 mips, 3 slices; the view writes mip 1 (4x2) of slice 2: subresource 1 + 2 * 2 = 5.
    let array = texture(
        shape(ResourceDimension::Texture2D, Format::R32Float, [8, 4, 1], 3, 2),
        30,
    );
    let surface = array.subresources[5].clone();
    // A 3D texture of 4x4x4, 1 mip; the view writes depth slice 3, the last 4x4 floats of the subresource.
    let volume = texture(
        shape(ResourceDimension::Texture3D, Format::R32Float, [4, 4, 4], 1, 1),
        31,
    );
    let depth_slice = volume.subresources[0][3 * 64..].to_vec();
    let mut state = DrawState::new(
        "d",
        bytes(10, 1),
        DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        },
    );
    let array_view = RenderTargetViewDesc {
        format: Format::R32Float,
        dimension: RtvDimension::Texture2DArray,
        mip_slice: 1,
        first_array_slice: 2,
        array_size: 1,
    };
    let volume_view = RenderTargetViewDesc {
        format: Format::R32Float,
        dimension: RtvDimension::Texture3D,
        mip_slice: 0,
        first_array_slice: 3,
        array_size: 1,
    };
    let array_shape = array.shape;
    state.render_targets = vec![
        Some(RenderTargetView {
            resource: Arc::new(Resource::Texture(array)),
            desc: array_view,
        }),
        Some(RenderTargetView {
            resource: Arc::new(Resource::Texture(volume)),
            desc: volume_view,
        }),
    ];
    let mut record = DrawRecord::new(state);
    record.render_targets_after = vec![Some(bytes(32, 40)), Some(bytes(64, 41))];
    let mut capture = Capture::open(write_capture(&[record], None).unwrap()).unwrap();
    let draw = capture.draw(0).unwrap();

    let rt0 = &draw.targets[0];
    assert_eq!((rt0.width, rt0.height), (4, 2));
    assert_eq!(&rt0.before[..], &surface[..]);
    assert_eq!(rt0.resource, array_shape);
    assert_eq!(rt0.view, TargetViewDesc::RenderTarget(array_view));
    let bound = draw.state.render_targets[0].as_ref().unwrap();
    let one = bound.texture().unwrap();
    assert_eq!(
        one.shape,
        shape(ResourceDimension::Texture2D, Format::R32Float, [4, 2, 1], 1, 1)
    );
    assert_eq!(&one.subresources[0][..], &surface[..]);
    assert_eq!(
        bound.desc,
        RenderTargetViewDesc {
            mip_slice: 0,
            first_array_slice: 0,
            ..array_view
        }
    );

    let rt1 = &draw.targets[1];
    assert_eq!(&rt1.before[..], &depth_slice[..]);
    let bound = draw.state.render_targets[1].as_ref().unwrap();
    assert_eq!(bound.texture().unwrap().shape.depth, 1);
    assert_eq!(bound.desc.first_array_slice, 0);
}

#[test]
fn a_blob_referenced_by_many_slices_is_inflated_once_for_the_draw_even_past_the_cache_limit() {
    // a 64-slice array whose slices are equal: one blob, referenced 64 times; with no cache at all, the read draw's
    // slices are still one allocation (each reference used to inflate the blob again)
    let mut record = every_field_draw();
    let slices = 64u32;
    let array_shape = shape(
        ResourceDimension::Texture2D,
        Format::R8G8B8A8Unorm,
        [16, 16, 1],
        slices,
        1,
    );
    let slice = bytes(16 * 16 * 4, 42);
    let array = Texture::new(array_shape, vec![slice; slices as usize]).unwrap();
    record.state.ps.shader_resources.push(Some(ShaderResourceView {
        resource: Arc::new(Resource::Texture(array)),
        desc: ShaderResourceViewDesc {
            format: Format::R8G8B8A8Unorm,
            dimension: SrvDimension::Texture2DArray,
            array_size: slices,
            ..Default::default()
        },
    }));
    let mut capture = Capture::open(write_capture(&[record], None).unwrap()).unwrap();
    capture.set_cache_limit(0);
    let draw = capture.draw(0).unwrap();
    let view = draw.state.ps.shader_resources.last().cloned().flatten().unwrap();
    let Resource::Texture(texture) = &*view.resource else {
        panic!("the array reads back as a buffer");
    };
    assert_eq!(texture.subresources.len(), slices as usize);
    let first = &texture.subresources[0];
    assert!(
        texture.subresources.iter().all(|s| Arc::ptr_eq(s, first)),
        "each slice inflated apart"
    );
}

#[test]
fn identical_buffers_are_stored_once() {
    // Two draws with the same shaders, buffers and targets; the second's after differs from the first's.
    let first = every_field_draw();
    let mut second = first.clone();
    second.render_targets_after = vec![Some(bytes(48, 99))];
    let archive = write_capture(&[first.clone(), second], None).unwrap();
    let capture = Capture::open(archive).unwrap();
    // The distinct blobs of one draw: vs, ps, 2 vertex buffers, index buffer, 2 constant buffers, the raw buffer,
    // 4 subresources of the array and 2 of the volume, the three targets' before, two afters: 19. The second
    // draw adds one after.
    assert_eq!(capture.blobs().len(), 19 + 1);
}

#[test]
fn a_shared_buffer_is_hashed_once_but_a_changed_one_again() {
    let mut writer = CaptureWriter::in_memory();
    let data: Arc<[u8]> = bytes(16, 1);
    let first = writer.add_shared(&data).unwrap();
    let again = writer.add_shared(&data).unwrap();
    assert_eq!(first, again);
    let other: Arc<[u8]> = bytes(16, 2);
    assert_ne!(writer.add_shared(&other).unwrap().sha256, first.sha256);
    assert_eq!(first.sha256, BlobId::of(&data));
}

#[test]
fn floats_keep_their_bits() {
    // NaN with a payload, infinities, -0 and the smallest denormal are written as bits or exact numbers.
    for bits in [
        0x7fc0_0001u32,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x3dcc_cccd,
        0x7f7f_ffff,
    ] {
        let text = serde_json::to_string(&F32(f32::from_bits(bits))).unwrap();
        let back: F32 = serde_json::from_str(&text).unwrap();
        assert_eq!(back.0.to_bits(), bits, "{text}");
    }
    assert_eq!(serde_json::to_string(&F32(f32::NAN)).unwrap(), "\"0x7fc00000\"");
    assert_eq!(serde_json::to_string(&F32(0.5)).unwrap(), "0.5");
    // The accepted spellings: numbers, "nan", "inf", "-inf", "0x" bits.
    let read: Vec<F32> = serde_json::from_str(r#"[1, -2, 0.1, "nan", "-inf", "0x3f800000", "INF"]"#).unwrap();
    let bits: Vec<u32> = read.iter().map(|f| f.0.to_bits()).collect();
    assert_eq!(
        bits,
        [
            0x3f80_0000,
            0xc000_0000,
            0x3dcc_cccd,
            0x7fc0_0000,
            0xff80_0000,
            0x3f80_0000,
            0x7f80_0000
        ]
    );
    assert!(serde_json::from_str::<F32>("1e39").is_err());
    assert!(serde_json::from_str::<F32>("\"0x123456789\"").is_err());
}

#[test]
fn blob_names_are_64_lowercase_hex_digits() {
    let id = BlobId::of(b"abc");
    // FIPS 180-2's example: SHA-256("abc").
    assert_eq!(
        id.to_string(),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(id.to_string().parse::<BlobId>().unwrap(), id);
    assert!(id.to_string().to_uppercase().parse::<BlobId>().is_err());
    assert!("ba7816bf".parse::<BlobId>().is_err());
}

/// A copy of `archive` with its manifest's JSON changed by `edit`.
pub(crate) fn with_manifest(archive: &[u8], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    rezip(archive, |name, data| {
        if name == MANIFEST_NAME {
            let mut value: serde_json::Value = serde_json::from_slice(data).unwrap();
            edit(&mut value);
            Some(serde_json::to_vec(&value).unwrap())
        } else {
            Some(data.to_vec())
        }
    })
}

/// A copy of `archive` with each entry's data replaced by `edit`'s (`None` drops the entry).
pub(super) fn rezip(archive: &[u8], mut edit: impl FnMut(&str, &[u8]) -> Option<Vec<u8>>) -> Vec<u8> {
    let mut zip = zip::ZipArchive::new(Cursor::new(archive)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for index in 0..zip.len() {
        let mut file = zip.by_index(index).unwrap();
        let name = file.name().unwrap().into_owned();
        let mut data = Vec::new();
        file.read_to_end(&mut data).unwrap();
        if let Some(data) = edit(&name, &data) {
            out.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
            out.write_all(&data).unwrap();
        }
    }
    out.finish().unwrap().into_inner()
}

pub(super) fn simple_archive() -> Vec<u8> {
    write_capture(&[every_field_draw()], None).unwrap()
}

#[test]
fn unknown_fields_and_a_later_minor_version_are_read() {
    let archive = with_manifest(&simple_archive(), |m| {
        m["version"] = "1.7".into();
        m["frame_time_ms"] = 16.6.into();
        m["draws"][0]["gpu_duration_ns"] = 1234.into();
        m["draws"][0]["rasterizer"]["conservative"] = true.into();
    });
    let mut capture = Capture::open(archive).unwrap();
    assert_eq!(capture.draw(0).unwrap().state, every_field_draw().state);
}

#[test]
fn another_major_version_is_refused_naming_the_versions_read() {
    let archive = with_manifest(&simple_archive(), |m| m["version"] = "2.0".into());
    let error = Capture::open(archive).unwrap_err();
    assert_eq!(
        error.to_string(),
        "capture at manifest.json: format version 2.0 is not one this reader reads: it reads versions 1.x"
    );
}

#[test]
fn a_missing_field_is_named_with_its_draw_and_part() {
    let archive = with_manifest(&simple_archive(), |m| {
        m["draws"][0]["rasterizer"].as_object_mut().unwrap().remove("cull_mode");
    });
    let error = Capture::open(archive).unwrap_err();
    assert_eq!(error.at, "draw 0 rasterizer");
    assert!(error.detail.contains("missing field `cull_mode`"), "{error}");

    let archive = with_manifest(&simple_archive(), |m| {
        m["draws"][0]["ps"]["samplers"][1]["filter"] = "BILINEAR".into();
    });
    let error = Capture::open(archive).unwrap_err();
    assert_eq!(error.at, "draw 0 ps samplers[1]");
    assert!(error.detail.contains("BILINEAR"), "{error}");
}

#[test]
fn a_missing_blob_is_a_problem_of_the_draws_that_use_it() {
    // Drop the blob of the pixel program's texture array's first subresource.
    let record = every_field_draw();
    let Some(Resource::Texture(array)) = record.state.ps.shader_resources[0]
        .as_ref()
        .map(|v| v.resource.as_ref())
    else {
        panic!("slot 0 holds the array")
    };
    let gone = BlobId::of(&array.subresources[0]);
    let archive = rezip(&simple_archive(), |name, data| {
        (name != gone.entry_name()).then(|| data.to_vec())
    });
    let mut capture = Capture::open(archive).unwrap();
    assert_eq!(capture.draws().len(), 1);
    let error = capture.draw(0).unwrap_err();
    assert_eq!(error.at, "draw 0 ps shader_resources[0] resource subresources[0]");
    assert_eq!(
        error.detail,
        format!("blob {}… is missing from the archive", gone.short())
    );
    assert_eq!(capture.check().unwrap_err(), error);
}

#[test]
fn opening_inflates_no_blob() {
    // A blob whose bytes do not match its name is found only when a draw needs it.
    let record = every_field_draw();
    let vs = BlobId::of(&record.state.vertex_shader);
    let archive = rezip(&simple_archive(), |name, data| {
        let mut data = data.to_vec();
        if name == vs.entry_name() {
            data[0] ^= 1;
        }
        Some(data)
    });
    let mut capture = Capture::open(archive).unwrap();
    capture.check().unwrap();
    let error = capture.draw(0).unwrap_err();
    assert_eq!(error.at, "draw 0 vs dxbc");
    assert!(error.detail.contains("not the one it is named by"), "{error}");
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn opening_a_large_capture_reads_its_directory_and_manifest_only() {
    // A render target of 1024x1024 R8G8B8A8 (4 MiB) of incompressible bytes before and after: the archive is
    // above 8 MiB; opening and listing read the directory and the small manifest.
    let noise = |seed: u64| -> Arc<[u8]> {
        let mut x = seed;
        (0..4 << 20)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect::<Vec<_>>()
            .into()
    };
    let target = Texture::new(
        shape(
            ResourceDimension::Texture2D,
            Format::R8G8B8A8Unorm,
            [1024, 1024, 1],
            1,
            1,
        ),
        vec![noise(1)],
    )
    .unwrap();
    let mut state = DrawState::new(
        "d",
        bytes(10, 1),
        DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        },
    );
    state.render_targets = vec![Some(RenderTargetView {
        resource: Arc::new(Resource::Texture(target)),
        desc: RenderTargetViewDesc::default(),
    })];
    let mut record = DrawRecord::new(state);
    record.render_targets_after = vec![Some(noise(2))];
    let archive = write_capture(&[record], None).unwrap();
    assert!(archive.len() > 8 << 20);
    let read = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let capture = Capture::from_reader(Counting {
        inner: Cursor::new(archive),
        read: read.clone(),
    })
    .unwrap();
    assert_eq!(capture.draws()[0].targets[0].width, 1024);
    let read = read.load(std::sync::atomic::Ordering::Relaxed);
    assert!(read < 64 << 10, "opening read {read} bytes");
}

#[test]
fn a_draw_without_targets_is_refused_by_the_writer() {
    let state = DrawState::new(
        "d",
        bytes(10, 1),
        DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        },
    );
    let error = write_capture(&[DrawRecord::new(state)], None).unwrap_err();
    assert_eq!(error.at, "draw 0");
    assert!(error.detail.contains("no render target"), "{error}");
}

#[test]
fn an_after_of_the_wrong_size_is_refused_by_the_writer() {
    let mut record = every_field_draw();
    record.render_targets_after = vec![Some(bytes(47, 1))];
    let error = write_capture(&[record], None).unwrap_err();
    assert_eq!(error.at, "draw 0 render target slot 0");
    assert!(error.detail.contains("47 bytes where the surface takes 48"), "{error}");
}

#[test]
fn the_call_text_is_the_apis() {
    let call = DrawCall::DrawIndexed {
        index_count: 36,
        start_index: 0,
        base_vertex: -2,
    };
    assert_eq!(api_call_text(call), "DrawIndexed(36, 0, -2)");
}

#[test]
fn the_same_capture_gives_the_same_bytes() {
    assert_eq!(simple_archive(), simple_archive());
}

/// A one-triangle draw into `target` (slot 0) and, when given, a depth-stencil view.
fn draw_into(target: RenderTargetView, depth: Option<DepthStencilView>) -> DrawState {
    let mut state = DrawState::new(
        "d",
        bytes(10, 1),
        DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        },
    );
    state.render_targets = vec![Some(target)];
    state.depth_stencil_view = depth;
    state
}

#[test]
fn a_multisampled_target_reads_back_with_every_sample_plane() {
    // 3x2 RGBA8 with 4 samples: each plane 24 bytes, the surface 96; D24S8 with 4 samples: 4 planes of 24 bytes.
    let mut colour_shape = shape(ResourceDimension::Texture2D, Format::R8G8B8A8Unorm, [3, 2, 1], 1, 1);
    colour_shape.sample_count = 4;
    let mut depth_shape = shape(ResourceDimension::Texture2D, Format::D24UnormS8Uint, [3, 2, 1], 1, 1);
    depth_shape.sample_count = 4;
    let colour = texture(colour_shape, 50);
    let depth = texture(depth_shape, 60);
    let colour_before = colour.subresources[0].clone();
    assert_eq!(colour_before.len(), 96);
    let view = RenderTargetViewDesc {
        format: Format::R8G8B8A8Unorm,
        dimension: RtvDimension::Texture2DMs,
        mip_slice: 0,
        first_array_slice: 0,
        array_size: 1,
    };
    let depth_view = DepthStencilViewDesc {
        format: Format::D24UnormS8Uint,
        dimension: DsvDimension::Texture2DMs,
        ..DepthStencilViewDesc::default()
    };
    let state = draw_into(
        RenderTargetView {
            resource: Arc::new(Resource::Texture(colour)),
            desc: view,
        },
        Some(DepthStencilView {
            resource: Arc::new(Resource::Texture(depth)),
            desc: depth_view,
        }),
    );
    let mut record = DrawRecord::new(state.clone());
    record.render_targets_after = vec![Some(bytes(96, 70))];
    record.depth_stencil_after = Some(bytes(96, 71));
    let archive = write_capture(&[record], None).unwrap();
    let mut capture = Capture::open(archive.clone()).unwrap();
    let summary = capture.draw_summary(0).unwrap();
    assert_eq!(summary.targets[0].resource.sample_count, 4);
    let draw = capture.draw(0).unwrap();
    assert_eq!(&draw.targets[0].before[..], &colour_before[..]);
    assert_eq!(&draw.targets[0].after.as_ref().unwrap()[..], &bytes(96, 70)[..]);
    let bound = draw.state.render_targets[0].as_ref().unwrap();
    assert_eq!(bound.texture().unwrap().shape, colour_shape);
    assert_eq!(bound.desc.dimension, RtvDimension::Texture2DMs);
    let depth_bound = draw.state.depth_stencil_view.as_ref().unwrap();
    assert_eq!(depth_bound.texture().unwrap().shape.sample_count, 4);

    // An after of one plane's size is refused, naming the surface's size with all its samples.
    let mut short = DrawRecord::new(state.clone());
    short.render_targets_after = vec![Some(bytes(24, 70))];
    let error = write_capture(&[short], None).unwrap_err();
    assert!(error.detail.contains("24 bytes where the surface takes 96"), "{error}");

    // A single-sampled view of a multisampled resource, and a multisampled view of a single-sampled one, are not
    // views D3D11 creates (5.2).
    let mut wrong_view = state.clone();
    if let Some(target) = wrong_view.render_targets[0].as_mut() {
        target.desc.dimension = RtvDimension::Texture2D;
    }
    let error = write_capture(&[DrawRecord::new(wrong_view)], None).unwrap_err();
    assert!(
        error.detail.contains("of 4 samples per texel is not a target"),
        "{error}"
    );
    let single = texture(
        shape(ResourceDimension::Texture2D, Format::R8G8B8A8Unorm, [3, 2, 1], 1, 1),
        52,
    );
    let wrong_resource = draw_into(
        RenderTargetView {
            resource: Arc::new(Resource::Texture(single)),
            desc: view,
        },
        None,
    );
    assert!(write_capture(&[DrawRecord::new(wrong_resource)], None).is_err());

    // A shader resource of 2 samples is stored with both planes; a manifest that gives it mips is refused.
    let archive = with_manifest(&archive, |m| {
        m["draws"][0]["render_targets"][0]["resource"]["mip_levels"] = 2.into();
    });
    let capture = Capture::open(archive).unwrap();
    let problem = capture.problem(0).unwrap();
    assert!(problem.detail.contains("only a 2D texture of one mip"), "{problem}");
}

#[test]
fn unrecorded_draws_are_listed_after_the_draws_before_them() {
    let mut writer = CaptureWriter::in_memory();
    let unrecorded = |reason: &str| UnrecordedDrawEntry {
        before_draw: 99, // the writer sets it
        name: None,
        api_call: Some("Draw(3, 0)".into()),
        reason: reason.into(),
        targets: vec![UnrecordedTargetEntry {
            target: "rt0".into(),
            format: Format::R8G8B8A8Unorm,
            width: 64,
            height: 32,
            sample_count: 8,
        }],
    };
    writer.add_unrecorded(unrecorded("first"));
    writer.add_draw(&every_field_draw()).unwrap();
    writer.add_unrecorded(unrecorded("second"));
    assert_eq!(writer.unrecorded_count(), 2);
    let capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
    assert_eq!(capture.manifest().version, "1.5");
    let listed = capture.unrecorded_draws();
    assert_eq!(listed.len(), 2);
    assert_eq!((listed[0].before_draw, listed[0].reason.as_str()), (0, "first"));
    assert_eq!((listed[1].before_draw, listed[1].reason.as_str()), (1, "second"));
    assert_eq!(listed[1].targets[0].sample_count, 8);
    // A 1.0 capture has none, and a capture without any is written without the field.
    let plain = simple_archive();
    let capture = Capture::open(plain.clone()).unwrap();
    assert!(capture.unrecorded_draws().is_empty());
    let mut manifest = String::new();
    zip::ZipArchive::new(Cursor::new(plain))
        .unwrap()
        .by_name("manifest.json")
        .unwrap()
        .read_to_string(&mut manifest)
        .unwrap();
    assert!(!manifest.contains("unrecorded_draws"));
}

/// An output that takes `room` bytes and then fails every write, having written part of the one that crossed it
/// (a disk filling up).
struct FillingDisk {
    bytes: Vec<u8>,
    room: usize,
}

impl Write for FillingDisk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let left = self.room.saturating_sub(self.bytes.len());
        if left == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "no space left on device",
            ));
        }
        let taken = left.min(buf.len());
        self.bytes.extend_from_slice(&buf[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_that_fails_mid_entry_stops_the_writer_and_leaves_the_last_snapshot_readable() {
    // Issue 13: a write error in the middle of an entry put every later offset out of step, so the rest of the
    // capture was unreadable. Two draws and a snapshot fit; the disk fills in the third draw's blobs. From then on
    // every write fails at once, naming the first failure, and what is on the disk is the two-draw capture.
    let record = every_field_draw();
    let mut other = every_field_draw();
    other.render_targets_after = vec![Some(bytes(48, 77)), None, None];
    let mut third = every_field_draw();
    third.render_targets_after = vec![Some(bytes(48, 99)), None, None];
    let mut sized = CaptureWriter::in_memory();
    sized.add_draw(&record).unwrap();
    sized.add_draw(&other).unwrap();
    sized.snapshot().unwrap();
    let snapshot_length = usize::try_from(sized.zip_len_for_tests()).unwrap();
    // room for the snapshot and a few bytes of the third draw's first new blob's local header
    let mut writer = CaptureWriter::new(FillingDisk {
        bytes: Vec::new(),
        room: snapshot_length + 7,
    });
    writer.add_draw(&record).unwrap();
    writer.add_draw(&other).unwrap();
    writer.snapshot().unwrap();
    assert!(writer.failed().is_none());
    let error = writer.add_draw(&third).unwrap_err();
    assert!(error.to_string().contains("no space left"), "{error}");
    assert!(writer.failed().is_some_and(|why| why.contains("no space left")));
    // nothing more is written, whatever is asked: every later write fails at once, naming the first failure
    let written = writer.zip_len_for_tests();
    let again = writer
        .add_draw(&record)
        .map(|_| ())
        .and_then(|()| writer.snapshot())
        .unwrap_err();
    assert!(
        again.to_string().contains("an earlier write failed (no space left"),
        "{again}"
    );
    assert_eq!(writer.zip_len_for_tests(), written);
    // the disk holds the two-draw capture and the start of a blob after it
    let bytes = writer.into_output_for_tests().bytes;
    assert_eq!(bytes.len(), snapshot_length + 7);
    let mut capture = Capture::open(bytes).unwrap();
    assert_eq!(capture.draw_count(), 2);
    assert_eq!(
        capture.draw(1).unwrap().targets[0].after.as_deref(),
        Some(&bytes_of(&other)[..])
    );
}

/// The first render target's after of a record.
fn bytes_of(record: &DrawRecord) -> Vec<u8> {
    record.render_targets_after[0].as_deref().unwrap().to_vec()
}
