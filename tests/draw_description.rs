//! The draw description reader: the demo scenes of `d3d11-ref` (`fixtures/draw-description/demo/`, written by its
//! `make_demo.py`), hand-written descriptions that use every key, and bad descriptions, each error checked for the
//! key path it names. Expected values come from the descriptions' text and the README's meaning of each key.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::float_cmp
)]

mod common;

use iridia::api::draw::{DrawCall, DrawState, IndexFormat};
use iridia::api::enums::{
    AddressMode, Blend, BlendOp, ComparisonFunc, CullMode, DepthWriteMask, FillMode, Filter, InputClassification,
    PrimitiveTopology, SrvDimension, StencilOp,
};
use iridia::api::fixed_function::APPEND_ALIGNED_ELEMENT;
use iridia::api::resource::Resource;
use iridia::description::{self, Description};
use iridia::format::Format;
use iridia::input_assembler::{InputAssembler, Options};
use iridia::{Error, Result};
use std::sync::Arc;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/draw-description/demo/");

/// Reads a demo scene; shaders that are not in the fixture folder load as their own name's bytes.
fn demo(name: &str) -> Description {
    let text = std::fs::read_to_string(format!("{DEMO}{name}")).unwrap();
    let mut load = |path: &str| -> Result<Vec<u8>> {
        Ok(std::fs::read(format!("{DEMO}{path}")).unwrap_or_else(|_| path.as_bytes().to_vec()))
    };
    description::read(&text, &mut load).unwrap()
}

/// Reads a hand-written description whose files are `files` (path, bytes).
fn read_with(text: &str, files: &[(&str, &[u8])]) -> Result<Description> {
    let mut load = |path: &str| -> Result<Vec<u8>> {
        files
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| b.to_vec())
            .ok_or_else(|| Error::new("test files", format!("no file {path}")))
    };
    description::read(text, &mut load)
}

fn read(text: &str) -> Result<Description> {
    read_with(
        text,
        &[("vs.dxbc", b"VS"), ("ps.dxbc", b"PS"), ("data.bin", &[1, 2, 3, 4, 5])],
    )
}

fn texture_bytes(resource: &Resource) -> &[u8] {
    match resource {
        Resource::Texture(t) => &t.subresources[0],
        Resource::Buffer(_) => panic!("not a texture"),
    }
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn the_color_scene_reads_as_its_generator_wrote_it() {
    let d = demo("scene_color.json");
    assert_eq!((d.width, d.height), (64, 64));
    // one R32G32B32A32_FLOAT target cleared to 0 and a D32_FLOAT depth buffer cleared to 1.0
    assert_eq!(d.render_targets.len(), 1);
    assert!(texture_bytes(&d.render_targets[0]).iter().all(|&b| b == 0));
    assert_eq!(texture_bytes(&d.render_targets[0]).len(), 64 * 64 * 16);
    let depth = texture_bytes(d.depth_stencil.as_ref().unwrap());
    assert!(f32s(depth).iter().all(|&v| v == 1.0));
    assert_eq!(d.draws.len(), 1);
    let draw = &d.draws[0];
    assert_eq!(draw.label, "draw");
    assert_eq!(
        &*draw.vertex_shader,
        std::fs::read(format!("{DEMO}vs_5_0.dxbc")).unwrap()
    );
    assert_eq!(draw.pixel_shader.as_deref(), Some(&b"ps_color_5_0.dxbc"[..]));
    // 12 indices, 16-bit, a triangle list
    assert_eq!(
        draw.call,
        DrawCall::DrawIndexed {
            index_count: 12,
            start_index: 0,
            base_vertex: 0
        }
    );
    let ib = draw.index_buffer.as_ref().unwrap();
    assert_eq!(ib.format, IndexFormat::R16Uint);
    assert_eq!(&ib.data[..6], [0, 0, 1, 0, 2, 0]);
    assert_eq!(ib.data.len(), 24);
    assert_eq!(draw.topology, PrimitiveTopology::TriangleList);
    // 12 vertices of 7 floats, stride 28
    let vb = draw.vertex_buffers[0].as_ref().unwrap();
    assert_eq!((vb.stride, vb.offset, vb.data.len()), (28, 0, 12 * 28));
    assert_eq!(f32s(&vb.data)[7..10], [60.0, 8.0, 0.5]);
    let layout = &draw.input_layout;
    assert_eq!(layout.len(), 2);
    assert_eq!(
        (
            layout[1].semantic_name.as_str(),
            layout[1].format,
            layout[1].aligned_byte_offset
        ),
        ("COLOR", Format::R32G32B32A32Float, 12)
    );
    // the matrix's first column: 1/32, 0, 0, 0 (column_major packing)
    let cb = draw.vs.constant_buffer(0).unwrap();
    assert_eq!(cb.data.len(), 64);
    assert_eq!(f32s(&cb.data)[..4], [0.03125, 0.0, 0.0, 0.0]);
    assert_eq!(draw.viewports[0].width, 64.0);
    assert_eq!(draw.rasterizer.cull_mode, CullMode::Back);
    assert!(!draw.rasterizer.scissor_enable);
    assert!(draw.depth_stencil.depth_enable);
    assert_eq!(draw.depth_stencil.depth_func, ComparisonFunc::Less);
    // the draw's views are the description's targets
    assert!(Arc::ptr_eq(
        &draw.render_targets[0].as_ref().unwrap().resource,
        &d.render_targets[0]
    ));
    assert_eq!(draw.depth_stencil_view.as_ref().unwrap().desc.format, Format::D32Float);
}

#[test]
fn the_color_scene_assembles_against_its_vertex_program() {
    // vs.hlsl reads float3 POSITION and float4 COLOR; the first triangle's second vertex is (60, 8, 0.5), green
    let d = demo("scene_color.json");
    let ia = InputAssembler::for_draw(&d.draws[0], Options::default()).unwrap();
    assert_eq!(ia.vertex_count(), 12);
    assert_eq!(ia.primitives().count(), 4);
    let inputs = ia.fetch_instance(0).unwrap();
    let position = inputs.get(1, 0).unwrap().map(f32::from_bits);
    let color = inputs.get(1, 1).unwrap().map(f32::from_bits);
    assert_eq!(position[..3], [60.0, 8.0, 0.5]);
    assert_eq!(color, [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn every_demo_scene_reads() {
    for name in [
        "scene_clip.json",
        "scene_color.json",
        "scene_deriv.json",
        "scene_deriv_sm5.json",
        "scene_discard.json",
        "scene_perspective.json",
        "scene_texture.json",
        "topleft.json",
    ] {
        let d = demo(name);
        assert!(!d.draws.is_empty(), "{name}");
    }
    // perspective: no culling; its matrix entry sqrt(3) = 1.7320508075688774 rounds to the float32 nearest
    let d = demo("scene_perspective.json");
    assert_eq!(d.draws[0].rasterizer.cull_mode, CullMode::None);
    let cb = f32s(&d.draws[0].vs.constant_buffer(0).unwrap().data);
    assert_eq!(cb[0], 1.732_050_8_f32);
    // top-left: depth buffer present but its test off, additive blending into target 0
    let d = demo("topleft.json");
    let draw = &d.draws[0];
    assert!(!draw.depth_stencil.depth_enable);
    let blend = &draw.blend.render_target[0];
    assert!(blend.blend_enable);
    assert_eq!(
        (blend.src_blend, blend.dest_blend, blend.blend_op),
        (Blend::One, Blend::One, BlendOp::Add)
    );
    assert_eq!(draw.call.count_per_instance(), 42);
}

#[test]
fn the_texture_scene_draws_twice_with_the_second_draw_overriding_its_vertices() {
    let d = demo("scene_texture.json");
    assert_eq!(d.draws.len(), 2);
    assert_eq!(
        (d.draws[0].label.as_str(), d.draws[1].label.as_str()),
        ("draws[0]", "draws[1]")
    );
    // draw 0 is the left rectangle (x 0..32), draw 1 the right one (x 32..64), both 4 vertices of 7 floats
    let left = f32s(&d.draws[0].vertex_buffers[0].as_ref().unwrap().data);
    let right = f32s(&d.draws[1].vertex_buffers[0].as_ref().unwrap().data);
    assert_eq!((left[0], left[7]), (0.0, 32.0));
    assert_eq!((right[0], right[7]), (32.0, 64.0));
    // the rest is shared: the same texture object, index buffer contents, sampler
    let t0 = d.draws[0].ps.shader_resource(0).unwrap();
    let t1 = d.draws[1].ps.shader_resource(0).unwrap();
    assert!(Arc::ptr_eq(&t0.resource, &t1.resource));
    assert_eq!(t0.desc.dimension, SrvDimension::Texture2D);
    assert_eq!(
        (t0.desc.format, t0.desc.mip_levels, t0.desc.array_size),
        (Format::R32G32B32A32Float, 1, 1)
    );
    // texel (0, 0) = (0.125, 0.0625, 0, 1)
    assert_eq!(f32s(texture_bytes(&t0.resource))[..4], [0.125, 0.0625, 0.0, 1.0]);
    let sampler = d.draws[1].ps.sampler(0).unwrap();
    assert_eq!(sampler.filter, Filter::MinMagMipLinear);
    assert_eq!(sampler.address_u, AddressMode::Clamp);
    assert_eq!(d.draws[1].index_buffer, d.draws[0].index_buffer);
}

/// A description with every key at the top level and a second draw overriding each overridable key.
const EVERY_KEY: &str = r#"{
  // comments are allowed
  "vs": "vs.dxbc", "ps": "ps.dxbc",
  "width": 8, "height": 4,
  "render_targets": ["R8G8B8A8_UNORM", {"format": "R32G32B32A32_UINT", "clear": [1.9, -3, 1e10, "nan"]},
                     {"format": "R32G32B32A32_SINT", "clear": [-1.9, 3.5, -1e10, 1e10]}],
  "clear_color": [1.0, 0.2, 0.0, "0x3f800000"],
  "depth": {"format": "D24_UNORM_S8_UINT", "enable": true, "write": false, "func": "GREATER_EQUAL",
            "stencil_enable": true, "stencil_read_mask": 15, "stencil_write_mask": 240, "stencil_ref": 9,
            "stencil_front": {"fail": "ZERO", "depth_fail": "INCR_SAT", "pass": "REPLACE", "func": "EQUAL"},
            "stencil_back": {"fail": "DECR", "func": "NEVER"}},
  "clear_depth": 1.0, "clear_stencil": 7,
  "input_layout": [
    {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0},
    {"semantic": "COLOR", "format": "R8G8B8A8_UNORM"},
    {"semantic": "TEXCOORD", "index": 3, "format": "R16G16_FLOAT", "slot": 1, "instance_step": 2},
    {"semantic": "TEXCOORD", "index": 4, "format": "R32_UINT", "slot": 2, "instance_step": 0, "per_instance": true}
  ],
  "vertex_buffers": [{"stride": 16, "offset": 4, "f32": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]},
                     {"stride": 4, "hex": "0011 2233"}, {"stride": 4, "file": "data.bin"}],
  "indices": {"u16": [0, 1, 2]}, "index_format": "DXGI_FORMAT_R16_UINT",
  "topology": "D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP",
  "index_count": 2, "start_index": 1, "base_vertex": -1, "vertex_count": 3, "start_vertex": 0,
  "instance_count": 4, "start_instance": 2,
  "vs_cbuffers": [{"slot": 2, "i32": [-1, 2]}],
  "ps_cbuffers": [{"u32": [1]}, {"slot": 5, "u8": [1, 2, 3], "first_constant": 0, "num_constants": 1}],
  "vs_textures": [{"slot": 1, "format": "R8_UNORM", "width": 3, "height": 2, "mip_levels": 2, "array_size": 2,
                   "subresources": [{"u8": [1, 2, 3, 4, 5, 6]}, {"u8": [7]}, {"u8": [8, 9, 10, 11, 12, 13, 99]},
                                    {"hex": "0e"}]}],
  "ps_textures": [{"format": "R32_FLOAT", "subresources": [{"f32": ["inf"]}]}],
  "vs_samplers": [{"slot": 3}],
  "ps_samplers": [{"filter": "ANISOTROPIC", "address_u": "WRAP", "address_v": "MIRROR", "address_w": 4,
                   "mip_lod_bias": -0.5, "max_anisotropy": 8, "comparison": "LESS",
                   "border_color": [1, 0.5, 0, "-inf"], "min_lod": 1, "max_lod": 3}],
  "viewport": {"x": 1, "y": 2, "w": 5, "h": 2, "min_depth": 0.25, "max_depth": 0.75},
  "scissor": [1, 0, 7, 3],
  "rasterizer": {"fill": "WIREFRAME", "cull": "FRONT", "front_ccw": true, "depth_bias": -5, "depth_bias_clamp": 0.5,
                 "slope_scaled_depth_bias": 2, "depth_clip": false, "multisample": true, "antialiased_line": 1},
  "blend": {"alpha_to_coverage": true, "independent": true, "factor": [0.5, 0.25, 0, 1], "sample_mask": 5,
            "targets": [{}, {"enable": true, "src": "SRC_ALPHA", "dest": "INV_SRC_ALPHA", "op": "REV_SUBTRACT",
                             "src_alpha": "ZERO", "dest_alpha": "DEST_ALPHA", "op_alpha": "MAX", "write_mask": 5}]},
  "draws": [{}, {"vs": "ps.dxbc", "ps": "vs.dxbc", "depth": {"enable": false}, "input_layout": [],
                 "vertex_buffers": [], "indices": [7, 8], "index_format": "R32_UINT", "topology": 12,
                 "index_count": 1, "start_index": 0, "base_vertex": 3, "instance_count": 0, "start_instance": 0,
                 "vs_cbuffers": [], "ps_cbuffers": [], "vs_textures": [], "ps_textures": [], "vs_samplers": [],
                 "ps_samplers": [], "viewport": {}, "scissor": [0, 0, 1, 1], "rasterizer": {}, "blend": {}},
            {"indices": [0, 1, 2, 3], "instance_count": 0, "vertex_count": 5}]
}"#;

#[test]
fn every_key_lands_in_the_draw_state() {
    let d = read(EVERY_KEY).unwrap();
    assert_eq!((d.width, d.height), (8, 4));
    // target 0, R8G8B8A8_UNORM, clear_color (1, 0.2, 0, raw 1.0): 255, 0.2 * 255 = 51, 0, 255
    assert_eq!(&texture_bytes(&d.render_targets[0])[..4], [255, 51, 0, 255]);
    assert_eq!(texture_bytes(&d.render_targets[0]).len(), 8 * 4 * 4);
    // target 1, UINT, its own clear: rounded towards zero, saturated, NaN to 0: 1, 0, 4294967295, 0
    let words: Vec<u32> = texture_bytes(&d.render_targets[1])[..16]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, [1, 0, u32::MAX, 0]);
    // target 2, SINT: -1, 3, -2^31, 2^31 - 1
    let words: Vec<i32> = texture_bytes(&d.render_targets[2])[..16]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, [-1, 3, i32::MIN, i32::MAX]);
    // D24_UNORM_S8_UINT: depth 1.0 = 0xffffff in bits 0-23, stencil 7 in bits 24-31
    let depth = texture_bytes(d.depth_stencil.as_ref().unwrap());
    assert_eq!(u32::from_le_bytes(depth[..4].try_into().unwrap()), 0x07ff_ffff);

    let draw = &d.draws[0];
    assert_eq!(
        (&*draw.vertex_shader, draw.pixel_shader.as_deref()),
        (&b"VS"[..], Some(&b"PS"[..]))
    );
    let ds = &draw.depth_stencil;
    assert!(ds.depth_enable && ds.stencil_enable);
    assert_eq!(ds.depth_write_mask, DepthWriteMask::Zero);
    assert_eq!(ds.depth_func, ComparisonFunc::GreaterEqual);
    assert_eq!(
        (ds.stencil_read_mask, ds.stencil_write_mask, draw.stencil_ref),
        (15, 240, 9)
    );
    assert_eq!(
        (
            ds.front_face.fail,
            ds.front_face.depth_fail,
            ds.front_face.pass,
            ds.front_face.func
        ),
        (
            StencilOp::Zero,
            StencilOp::IncrSat,
            StencilOp::Replace,
            ComparisonFunc::Equal
        )
    );
    assert_eq!(
        (ds.back_face.fail, ds.back_face.depth_fail, ds.back_face.func),
        (StencilOp::Decr, StencilOp::Keep, ComparisonFunc::Never)
    );
    // layout: offsets given and appended, per-instance by step or by "per_instance"
    let layout = &draw.input_layout;
    assert_eq!(layout[1].aligned_byte_offset, APPEND_ALIGNED_ELEMENT);
    assert_eq!((layout[1].input_slot, layout[1].semantic_index), (0, 0));
    assert_eq!(layout[2].input_slot_class, InputClassification::PerInstanceData);
    assert_eq!((layout[2].instance_data_step_rate, layout[2].semantic_index), (2, 3));
    assert_eq!(layout[3].input_slot_class, InputClassification::PerInstanceData);
    assert_eq!(layout[3].instance_data_step_rate, 0);
    // buffers: 13 floats (52 bytes), offset 4; hex bytes; the file's 5 bytes padded to 8
    let vb: Vec<_> = draw.vertex_buffers.iter().map(|b| b.clone().unwrap()).collect();
    assert_eq!((vb[0].stride, vb[0].offset, vb[0].data.len()), (16, 4, 52));
    assert_eq!(&*vb[1].data, [0x00, 0x11, 0x22, 0x33]);
    assert_eq!(&*vb[2].data, [1, 2, 3, 4, 5, 0, 0, 0]);
    // indices as a u16 data object; the call is DrawIndexedInstanced with every count given
    assert_eq!(
        draw.call,
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 2,
            instance_count: 4,
            start_index: 1,
            base_vertex: -1,
            start_instance: 2
        }
    );
    assert_eq!(&*draw.index_buffer.as_ref().unwrap().data, [0, 0, 1, 0, 2, 0, 0, 0]);
    assert_eq!(draw.topology, PrimitiveTopology::TriangleStrip);
    // constant buffers: padded to 16 bytes; -1 as its bits; an 11.1 window
    let cb = draw.vs.constant_buffer(2).unwrap();
    assert_eq!(&cb.data[..8], [0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0]);
    assert_eq!((cb.data.len(), cb.first_constant, cb.num_constants), (16, 0, 1));
    assert!(draw.vs.constant_buffer(0).is_none());
    assert_eq!(draw.ps.constant_buffer(5).unwrap().data.len(), 16);
    assert_eq!(&draw.ps.constant_buffer(0).unwrap().data[..4], [1, 0, 0, 0]);
    // a 3x2 R8 array of 2 mips and 2 slices: subresources mip0 slice0 (6 bytes), mip1 slice0 (1x1), mip0 slice1
    // (6 of the 7 bytes given), mip1 slice1
    let srv = draw.vs.shader_resource(1).unwrap();
    assert_eq!(srv.desc.dimension, SrvDimension::Texture2DArray);
    assert_eq!((srv.desc.mip_levels, srv.desc.array_size), (2, 2));
    let Resource::Texture(t) = srv.resource.as_ref() else {
        panic!()
    };
    assert_eq!(t.subresource(0, 1).unwrap(), [8, 9, 10, 11, 12, 13]);
    assert_eq!(t.subresource(1, 1).unwrap(), [14]);
    assert_eq!(
        f32s(texture_bytes(&draw.ps.shader_resource(0).unwrap().resource)),
        [f32::INFINITY]
    );
    // the reference renderer's sampler defaults: point filtering, border 0
    let s = draw.vs.sampler(3).unwrap();
    assert_eq!(
        (s.filter, s.address_w, s.border_color),
        (Filter::MinMagMipPoint, AddressMode::Clamp, [0.0; 4])
    );
    assert_eq!((s.min_lod, s.max_lod), (-f32::MAX, f32::MAX));
    let s = draw.ps.sampler(0).unwrap();
    assert_eq!(
        (s.filter, s.address_u, s.address_v, s.address_w),
        (
            Filter::Anisotropic,
            AddressMode::Wrap,
            AddressMode::Mirror,
            AddressMode::Border
        )
    );
    assert_eq!(
        (s.mip_lod_bias, s.max_anisotropy, s.comparison),
        (-0.5, 8, ComparisonFunc::Less)
    );
    assert_eq!(s.border_color, [1.0, 0.5, 0.0, f32::NEG_INFINITY]);
    assert_eq!((s.min_lod, s.max_lod), (1.0, 3.0));
    let vp = draw.viewports[0];
    assert_eq!(
        (vp.x, vp.y, vp.width, vp.height, vp.min_depth, vp.max_depth),
        (1.0, 2.0, 5.0, 2.0, 0.25, 0.75)
    );
    assert_eq!(
        (
            draw.scissor_rects[0].left,
            draw.scissor_rects[0].right,
            draw.scissor_rects[0].bottom
        ),
        (1, 7, 3)
    );
    let r = draw.rasterizer;
    assert_eq!(
        (r.fill_mode, r.cull_mode, r.front_counter_clockwise),
        (FillMode::Wireframe, CullMode::Front, true)
    );
    assert_eq!(
        (r.depth_bias, r.depth_bias_clamp, r.slope_scaled_depth_bias),
        (-5, 0.5, 2.0)
    );
    assert!(!r.depth_clip_enable && r.scissor_enable && r.multisample_enable && r.antialiased_line_enable);
    let b = &draw.blend;
    assert!(b.alpha_to_coverage_enable && b.independent_blend_enable);
    assert!(!b.render_target[0].blend_enable);
    let t = &b.render_target[1];
    assert_eq!(
        (
            t.src_blend,
            t.dest_blend,
            t.blend_op,
            t.src_blend_alpha,
            t.dest_blend_alpha,
            t.blend_op_alpha
        ),
        (
            Blend::SrcAlpha,
            Blend::InvSrcAlpha,
            BlendOp::RevSubtract,
            Blend::Zero,
            Blend::DestAlpha,
            BlendOp::Max
        )
    );
    assert_eq!(t.render_target_write_mask, 5);
    assert_eq!((draw.blend_factor, draw.sample_mask), ([0.5, 0.25, 0.0, 1.0], 5));
}

#[test]
fn a_draw_overrides_whole_keys_and_keeps_the_rest() {
    let d = read(EVERY_KEY).unwrap();
    let draw = &d.draws[1];
    assert_eq!(draw.label, "draws[1]");
    assert_eq!(
        (&*draw.vertex_shader, draw.pixel_shader.as_deref()),
        (&b"PS"[..], Some(&b"VS"[..]))
    );
    // "depth" replaced whole: only "enable": false, the rest D3D11's defaults, stencil off, reference 0
    assert!(!draw.depth_stencil.depth_enable && !draw.depth_stencil.stencil_enable);
    assert_eq!(
        (draw.depth_stencil.depth_func, draw.stencil_ref),
        (ComparisonFunc::Less, 0)
    );
    assert!(draw.input_layout.is_empty() && draw.vertex_buffers.is_empty());
    // 32-bit indices 7, 8; DrawIndexed of 1 from 0 with base vertex 3
    assert_eq!(&*draw.index_buffer.as_ref().unwrap().data, [7, 0, 0, 0, 8, 0, 0, 0]);
    assert_eq!(
        draw.call,
        DrawCall::DrawIndexed {
            index_count: 1,
            start_index: 0,
            base_vertex: 3
        }
    );
    assert_eq!(draw.topology, PrimitiveTopology::TriangleListAdj);
    assert!(draw.vs.constant_buffers.is_empty() && draw.ps.samplers.is_empty());
    // an empty viewport object is the whole target; empty rasterizer and blend objects are D3D11's defaults
    assert_eq!((draw.viewports[0].width, draw.viewports[0].height), (8.0, 4.0));
    assert_eq!(draw.rasterizer.cull_mode, CullMode::Back);
    assert!(draw.rasterizer.scissor_enable);
    assert_eq!((draw.blend_factor, draw.sample_mask), ([1.0; 4], u32::MAX));
    // the third draw overrides only indices, instance count and vertex count: the top-level index format (16-bit),
    // start index, base vertex and the rest stay; index_count stays 2 from the top level
    let draw = &d.draws[2];
    assert_eq!(
        draw.call,
        DrawCall::DrawIndexed {
            index_count: 2,
            start_index: 1,
            base_vertex: -1
        }
    );
    assert_eq!(&*draw.index_buffer.as_ref().unwrap().data, [0, 0, 1, 0, 2, 0, 3, 0]);
    assert_eq!(draw.depth_stencil.depth_func, ComparisonFunc::GreaterEqual);
    // the shared targets: every draw's view is the same resource
    assert!(Arc::ptr_eq(
        &d.draws[0].render_targets[2].as_ref().unwrap().resource,
        &draw.render_targets[2].as_ref().unwrap().resource
    ));
}

#[test]
fn defaults_are_the_reference_renderers() {
    let d = read(r#"{"vs": "vs.dxbc", "vertex_buffers": [{"stride": 12, "f32": [1, 2, 3, 4, 5, 6, 7]}]}"#).unwrap();
    // 64 x 64, one R32G32B32A32_FLOAT target cleared to 0, no depth buffer
    assert_eq!((d.width, d.height, d.render_targets.len()), (64, 64, 1));
    assert!(d.depth_stencil.is_none());
    let draw: &DrawState = &d.draws[0];
    assert_eq!(
        draw.render_targets[0].as_ref().unwrap().desc.format,
        Format::R32G32B32A32Float
    );
    assert!(draw.pixel_shader.is_none());
    // vertex count: whole vertices of buffer 0, 28 bytes / 12 = 2 (the padding not counted)
    assert_eq!(
        draw.call,
        DrawCall::Draw {
            vertex_count: 2,
            start_vertex: 0
        }
    );
    assert_eq!(draw.topology, PrimitiveTopology::TriangleList);
    // no depth buffer: depth and stencil tests off
    assert!(!draw.depth_stencil.depth_enable && !draw.depth_stencil.stencil_enable);
    assert_eq!(draw.rasterizer, iridia::api::fixed_function::RasterizerDesc::default());
    assert_eq!(draw.viewports[0].max_depth, 1.0);
    // 16-bit indices given as a data object: the count is the 3 given, not the 4 the padding makes
    let d = read(r#"{"vs": "vs.dxbc", "indices": {"u16": [4, 5, 6]}, "index_format": "R16_UINT"}"#).unwrap();
    assert_eq!(d.draws[0].call.count_per_instance(), 3);
    // indices without a format are 32-bit; an empty "render_targets" draws into no target; "draws": [] is none
    let d = read(r#"{"vs": "vs.dxbc", "indices": [1], "render_targets": [], "draws": []}"#).unwrap();
    assert!(d.render_targets.is_empty() && d.draws.is_empty());
}

#[test]
fn vertex_counts_and_starts_make_draw_and_draw_instanced() {
    let d = read(
        r#"{"vs": "vs.dxbc", "vertex_count": 7, "start_vertex": 2, "start_instance": 5,
                     "draws": [{}, {"instance_count": 3, "start_instance": 1}]}"#,
    )
    .unwrap();
    // instance_count 0 (the default): Draw, whatever start_instance says
    assert_eq!(
        d.draws[0].call,
        DrawCall::Draw {
            vertex_count: 7,
            start_vertex: 2
        }
    );
    assert_eq!(
        d.draws[1].call,
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 7,
            instance_count: 3,
            start_vertex: 2,
            start_instance: 1
        }
    );
}

/// A bad description's error: its place and a fragment of its detail.
fn fails(text: &str, at: &str, detail: &str) {
    let e = read(text).unwrap_err();
    assert_eq!(
        e.what,
        if at.starts_with("line ") {
            "draw description JSON"
        } else {
            "draw description"
        },
        "{text}"
    );
    assert_eq!(e.at, at, "{text}: {e}");
    assert!(e.detail.contains(detail), "{text}: {e}");
}

#[test]
fn a_bad_description_names_the_key_path_and_the_problem() {
    fails(
        r#"{"vs": "vs.dxbc", "draws": [{}, {}, {"vertex_buffers": [{"stride": 4, "f32": [1, 2, 3, 4, 5, 6, 7, "x"]}]}]}"#,
        "draws[2].vertex_buffers[0].f32[7]",
        "\"x\" is not a float",
    );
    fails("{}", "the top level", "no vertex shader");
    fails(
        r#"{"vs": "vs.dxbc", "draws": [{"width": 3}]}"#,
        "draws[0].width",
        "unknown key",
    );
    fails(r#"{"vs": "vs.dxbc", "draws": [3]}"#, "draws[0]", "expected an object");
    fails(r#"{"vs": "vs.dxbc", "widht": 3}"#, "widht", "unknown key \"widht\"");
    fails(r#"{"vs": "missing.dxbc"}"#, "vs", "cannot read \"missing.dxbc\"");
    fails(
        r#"{"vs": "vs.dxbc", "rt_format": "D32_FLOAT"}"#,
        "rt_format",
        "not a render target format",
    );
    fails(
        r#"{"vs": "vs.dxbc", "rt_format": "R8_UNORM", "render_targets": []}"#,
        "rt_format",
        "not both",
    );
    fails(
        r#"{"vs": "vs.dxbc", "render_targets": [{"format": "BC1_UNORM"}]}"#,
        "render_targets[0]",
        "not a render target format",
    );
    fails(
        r#"{"vs": "vs.dxbc", "clear_color": [0, 0, 0]}"#,
        "clear_color",
        "expected 4 numbers",
    );
    fails(r#"{"vs": "vs.dxbc", "width": 0}"#, "width", "side of 0");
    fails(r#"{"vs": "vs.dxbc", "height": 16385}"#, "height", "outside 0..=16384");
    fails(
        r#"{"vs": "vs.dxbc", "depth": {"format": "R32_FLOAT"}}"#,
        "depth.format",
        "not a depth format",
    );
    fails(
        r#"{"vs": "vs.dxbc", "depth": {"format": "D32_FLOAT"}, "clear_depth": 2}"#,
        "clear_depth",
        "outside 0..=1",
    );
    fails(
        r#"{"vs": "vs.dxbc", "clear_depth": 0.5}"#,
        "clear_depth",
        "no depth buffer",
    );
    fails(
        r#"{"vs": "vs.dxbc", "depth": {"format": "D32_FLOAT", "clear_stencil": 256}}"#,
        "depth.clear_stencil",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "depth": {"func": "SOMETIMES"}}"#,
        "depth.func",
        "not a D3D11 ComparisonFunc",
    );
    fails(
        r#"{"vs": "vs.dxbc", "depth": {"stencil_front": {"pass": "KEEP_IT"}}}"#,
        "depth.stencil_front.pass",
        "StencilOp",
    );
    fails(
        r#"{"vs": "vs.dxbc", "topology": "TRIANGLEFAN"}"#,
        "topology",
        "PrimitiveTopology",
    );
    fails(
        r#"{"vs": "vs.dxbc", "input_layout": [{"semantic": "P"}]}"#,
        "input_layout[0]",
        "needs a \"format\"",
    );
    fails(
        r#"{"vs": "vs.dxbc", "input_layout": [{"format": "R32_FLOATY"}]}"#,
        "input_layout[0].format",
        "not a DXGI_FORMAT name",
    );
    fails(
        r#"{"vs": "vs.dxbc", "input_layout": [{"format": 2, "slot": -1}]}"#,
        "input_layout[0].slot",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"stride": -4, "u8": []}]}"#,
        "vertex_buffers[0].stride",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"stride": 4}]}"#,
        "vertex_buffers[0]",
        "no data",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"u8": [1], "hex": "01"}]}"#,
        "vertex_buffers[0]",
        "several data keys",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"u16": [65536]}]}"#,
        "vertex_buffers[0].u16[0]",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"i32": [-2147483649]}]}"#,
        "vertex_buffers[0].i32[0]",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_buffers": [{"file": "nope.bin"}]}"#,
        "vertex_buffers[0].file",
        "no file nope.bin",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vertex_count": 1e12}"#,
        "vertex_count",
        "outside 0..=4294967295",
    );
    fails(
        r#"{"vs": "vs.dxbc", "base_vertex": 2147483648}"#,
        "base_vertex",
        "outside",
    );
    fails(
        r#"{"vs": "vs.dxbc", "indices": [0, 1, 70000], "index_format": "R16_UINT"}"#,
        "indices[2]",
        "outside 0..=65535",
    );
    fails(
        r#"{"vs": "vs.dxbc", "indices": [0], "index_format": "R8_UINT"}"#,
        "index_format",
        "not an index format",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_textures": [{"width": 2, "height": 2, "subresources": [{"f32": [1]}]}]}"#,
        "ps_textures[0].subresources[0]",
        "4 bytes, and mip 0 (2x2 of R32G32B32A32_FLOAT) needs 64",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_textures": [{"mip_levels": 2, "subresources": [{"f32": [1]}, {"f32": [1]}]}]}"#,
        "ps_textures[0]",
        "2 mip levels, but a largest side of 1 allows 1",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_textures": [{"array_size": 2, "subresources": [{"f32": [1, 2, 3, 4]}]}]}"#,
        "ps_textures[0].subresources",
        "1 subresources given, and 1 mip levels x 2 slices need 2",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_textures": [{"format": "R8_TYPELESS", "subresources": [{"u8": [1]}]}]}"#,
        "ps_textures[0]",
        "cannot be read through a default view",
    );
    let tex = r#"{"slot": 3, "format": "R8_UNORM", "subresources": [{"u8": [1]}]}"#;
    fails(
        &format!(r#"{{"vs": "vs.dxbc", "ps_textures": [{tex}, {tex}]}}"#),
        "ps_textures",
        "slot 3 is bound twice",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_samplers": [{"filter": "BILINEAR"}]}"#,
        "ps_samplers[0].filter",
        "Filter",
    );
    fails(
        r#"{"vs": "vs.dxbc", "ps_samplers": [{"slot": 16}]}"#,
        "ps_samplers[0].slot",
        "outside 0..=15",
    );
    fails(
        r#"{"vs": "vs.dxbc", "vs_cbuffers": [{"slot": 14, "f32": []}]}"#,
        "vs_cbuffers[0].slot",
        "outside 0..=13",
    );
    fails(
        r#"{"vs": "vs.dxbc", "scissor": [0, 0, 4]}"#,
        "scissor",
        "expected [left, top, right, bottom]",
    );
    fails(
        r#"{"vs": "vs.dxbc", "viewport": {"w": "wide"}}"#,
        "viewport.w",
        "expected a number",
    );
    fails(
        r#"{"vs": "vs.dxbc", "rasterizer": {"cull": "SIDEWAYS"}}"#,
        "rasterizer.cull",
        "CullMode",
    );
    fails(
        r#"{"vs": "vs.dxbc", "rasterizer": {"front_ccw": "yes"}}"#,
        "rasterizer.front_ccw",
        "true or false",
    );
    fails(
        r#"{"vs": "vs.dxbc", "blend": {"targets": [{"write_mask": 16}]}}"#,
        "blend.targets[0].write_mask",
        "outside 0..=15",
    );
    fails(
        r#"{"vs": "vs.dxbc", "blend": {"factor": [1, 1]}}"#,
        "blend.factor",
        "expected 4 numbers",
    );
    fails(
        r#"{"vs": "vs.dxbc", "render_targets": [1, 2, 3, 4, 5, 6, 7, 8, 9]}"#,
        "render_targets",
        "9 items, more than the 8",
    );
    fails(
        "{\"vs\": \"vs.dxbc\",\n \"width\": 64 64}",
        "line 2, column 14",
        "expected ',' or '}'",
    );
}

#[test]
fn a_description_asking_for_huge_targets_is_refused_without_allocating_them() {
    // two 16384 x 16384 targets of 16 bytes a texel would be 8 GiB; the limit is 512 MiB together
    let text = r#"{"vs": "vs.dxbc", "width": 16384, "height": 16384,
                   "render_targets": ["R32G32B32A32_FLOAT", "R32G32B32A32_FLOAT"]}"#;
    let (result, largest) = common::largest_allocation_in(|| read(text));
    let e = result.unwrap_err();
    assert_eq!(e.at, "render_targets[0]");
    assert!(e.detail.contains("more than the 536870912"), "{e}");
    assert!(largest < 1 << 20, "{largest} bytes allocated at once");
    // a texture claiming 16384 x 16384 texels with one texel of data: refused before any texture memory is made
    let text = r#"{"vs": "vs.dxbc", "width": 1, "height": 1, "ps_textures": [{"width": 16384, "height": 16384,
                   "subresources": [{"f32": [1, 2, 3, 4]}]}]}"#;
    let (result, largest) = common::largest_allocation_in(|| read(text));
    assert!(result.unwrap_err().detail.contains("needs 4294967296"));
    assert!(largest < 1 << 20, "{largest} bytes allocated at once");
}
