//! Viewport, scissor and array-slice selection worked out by hand from 15.8.1, 15.15 and 5.2.
//!
//! The draws use the geometry fixtures' programs (`fixtures/geometry/shaders`): `vs_pass` (position and a `uint4`
//! tag through), `gs_instanced` (`dcl_gsinstances 3`: instance `i` of primitive `p` re-emits the triangle with
//! `SV_RenderTargetArrayIndex = cb0[3p + i].x`, `SV_ViewportArrayIndex = cb0[3p + i].y` and tag `(3p + i, 0x100 +
//! i)`) and `ps_tag_layer` (writes `(tag.x, tag.y, SV_RenderTargetArrayIndex, SV_ViewportArrayIndex)` as it
//! receives them). One triangle, `(-1, 1)`, `(3, 1)`, `(-1, -3)` in clip space at z = 0.5, covers the whole of any
//! viewport (every pixel centre of the viewport lies strictly inside it), so a viewport draws exactly its pixels
//! within its scissor rectangle. The target is 8x8 with 3 array slices; viewport `k` is quadrant `k` (4x4: (0,0),
//! (4,0), (0,4), (4,4)); the scissors are `[0,0,4,4]`, `[4,0,8,2]` (the top 2 rows of viewport 1), `[0,4,8,8]`
//! (wider than viewport 2, whose implicit scissor bounds it) and `[4,4,8,8]`.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use super::*;
use crate::api::draw::{DepthStencilView, RenderTargetView};
use crate::api::resource::{Resource, TextureShape};
use crate::description;
use crate::draw::{DrawOptions, DrawOutput, PreparedDraw, ShaderCache};
use crate::format::Format;
use std::sync::Arc;

const VS: &[u8] = include_bytes!("../../../fixtures/geometry/shaders/vs_pass.dxbc");
const GS: &[u8] = include_bytes!("../../../fixtures/geometry/shaders/gs_instanced.dxbc");
const PS: &[u8] = include_bytes!("../../../fixtures/geometry/shaders/ps_tag_layer.dxbc");

/// The draw described above, the geometry program's `(render-target array index, viewport index)` per instance
/// from `indices`; with `depth`, a D32_FLOAT buffer tested LESS and written.
fn state(indices: [(u32, u32); 3], depth: bool) -> DrawState {
    let cbuffer: Vec<String> = indices
        .iter()
        .flat_map(|&(rt, vp)| [rt, vp, 0, 0])
        .map(|w| w.to_string())
        .collect();
    let corner = |x: f32, y: f32| format!("{x}, {y}, 0.5, 1.0, \"0x0\", \"0x0\", \"0x0\", \"0x0\"");
    let depth_key = if depth {
        r#""depth": {"format": "D32_FLOAT", "enable": true, "write": true, "func": "LESS"},"#
    } else {
        ""
    };
    let json = format!(
        r#"{{
        "vs": "vs", "gs": "gs", "ps": "ps", "width": 8, "height": 8,
        "render_targets": [{{"format": "R32G32B32A32_UINT", "array_size": 3, "clear": [0, 0, 0, 0]}}],
        {depth_key}
        "input_layout": [
            {{"semantic": "POSITION", "format": "R32G32B32A32_FLOAT", "offset": 0}},
            {{"semantic": "TAG", "format": "R32G32B32A32_UINT", "offset": 16}}
        ],
        "rasterizer": {{"cull": "NONE"}},
        "topology": "TRIANGLELIST",
        "vertex_buffers": [{{"stride": 32, "f32": [{}, {}, {}]}}],
        "gs_cbuffers": [{{"slot": 0, "u32": [{}]}}],
        "viewports": [
            {{"x": 0, "y": 0, "w": 4, "h": 4}}, {{"x": 4, "y": 0, "w": 4, "h": 4}},
            {{"x": 0, "y": 4, "w": 4, "h": 4}}, {{"x": 4, "y": 4, "w": 4, "h": 4}}
        ],
        "scissors": [[0, 0, 4, 4], [4, 0, 8, 2], [0, 4, 8, 8], [4, 4, 8, 8]]
    }}"#,
        corner(-1., 1.),
        corner(3., 1.),
        corner(-1., -3.),
        cbuffer.join(", ")
    );
    let files = [("vs", VS), ("gs", GS), ("ps", PS)];
    let mut load = |path: &str| -> crate::Result<Vec<u8>> {
        files
            .iter()
            .find(|(name, _)| *name == path)
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| crate::Error::new("test", format!("no file {path}")))
    };
    let description = description::read(&json, &mut load).unwrap_or_else(|e| panic!("{e}"));
    description.draws.into_iter().next().unwrap()
}

fn run(state: &DrawState) -> DrawOutput {
    PreparedDraw::new(state, &mut ShaderCache::new(), DrawOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .run(None)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// An 8x8 slice: `texel` inside the pixel rectangle `[left, right) x [top, bottom)`, `outside` elsewhere.
fn slice<const N: usize>(rect: Option<[u32; 4]>, texel: [u32; N], outside: [u32; N]) -> Vec<[u32; N]> {
    (0..64)
        .map(|i| {
            let (x, y) = (i % 8, i / 8);
            match rect {
                Some([left, top, right, bottom]) if (left..right).contains(&x) && (top..bottom).contains(&y) => texel,
                _ => outside,
            }
        })
        .collect()
}

/// A target image's slices as texels of `N` words.
fn texels<const N: usize>(image: &TargetImage) -> Vec<Vec<[u32; N]>> {
    (0..image.slices)
        .map(|s| {
            image
                .slice_bytes(s)
                .unwrap()
                .chunks_exact(4 * N)
                .map(|t| std::array::from_fn(|k| u32::from_le_bytes(t[4 * k..4 * k + 4].try_into().unwrap())))
                .collect()
        })
        .collect()
}

#[test]
fn an_index_selects_within_its_range_and_zero_past_it() {
    // 15.8.1: meaningful values are [0, n - 1] with n = 16 viewports; others are treated as 0
    assert_eq!(viewport_slot(0), 0);
    assert_eq!(viewport_slot(3), 3);
    assert_eq!(viewport_slot(15), 15);
    assert_eq!(viewport_slot(16), 0);
    assert_eq!(viewport_slot(17), 0);
    assert_eq!(viewport_slot(u32::MAX), 0);
    // 15.15: out of range of the view's array, the 0-th slice
    assert_eq!(array_slice(0, 1), 0);
    assert_eq!(array_slice(5, 1), 0);
    assert_eq!(array_slice(2, 3), 2);
    assert_eq!(array_slice(3, 3), 0);
    assert_eq!(array_slice(u32::MAX, 3), 0);
}

#[test]
fn a_views_array_size_is_what_it_sees_of_the_texture() {
    let shape = |dimension, depth, array_size| TextureShape {
        dimension,
        format: Format::R8G8B8A8Unorm,
        width: 4,
        height: 4,
        depth,
        array_size,
        mip_levels: 2,
        sample_count: 1,
    };
    let texture = |shape: TextureShape| {
        let subresources = (0..shape.subresource_count())
            .map(|i| {
                let mip = u32::try_from(i).unwrap() % shape.mip_levels;
                let len = shape.mip_layout(mip).unwrap().bytes;
                Arc::from(vec![0u8; usize::try_from(len).unwrap()])
            })
            .collect();
        Texture::new(shape, subresources).unwrap()
    };
    let array = texture(shape(ResourceDimension::Texture2D, 1, 6));
    let view = |dimension, first, size| RenderTargetViewDesc {
        format: Format::R8G8B8A8Unorm,
        dimension,
        mip_slice: 1,
        first_array_slice: first,
        array_size: size,
    };
    // 5.2: slices 2, 3, 4 of six
    assert_eq!(
        render_target_slices(&array, &view(RtvDimension::Texture2DArray, 2, 3)),
        3
    );
    // asking past the end sees the slices there are: 4 and 5
    assert_eq!(
        render_target_slices(&array, &view(RtvDimension::Texture2DArray, 4, 5)),
        2
    );
    // a TEXTURE2D view sees one slice
    assert_eq!(render_target_slices(&array, &view(RtvDimension::Texture2D, 0, 6)), 1);
    // a 3D texture of depth 8 has depth 4 at mip 1: from depth slice 1, WSize -1 (all) sees 3
    let volume = texture(shape(ResourceDimension::Texture3D, 8, 1));
    assert_eq!(
        render_target_slices(&volume, &view(RtvDimension::Texture3D, 1, u32::MAX)),
        3
    );
    let depth = DepthStencilViewDesc {
        dimension: DsvDimension::Texture2DArray,
        first_array_slice: 1,
        array_size: 4,
        ..DepthStencilViewDesc::default()
    };
    assert_eq!(depth_stencil_slices(&array, &depth), 4);
}

/// Each instance draws through the viewport and scissor its index picks into the slice its index picks; index 17
/// (past 15) draws through viewport 0 and scissor 0 (15.8.1); the pixel program reads 17 unclamped.
#[test]
fn the_indices_pick_viewport_scissor_and_slice() {
    let output = run(&state([(0, 1), (1, 2), (2, 17)], false));
    let image = output.render_targets[0].as_ref().unwrap();
    assert_eq!(image.slices, 3);
    let slices = texels::<4>(image);
    let clear = [0; 4];
    // instance 0: viewport 1 (x 4..8, y 0..4) within scissor 1 (y 0..2)
    assert_eq!(slices[0], slice(Some([4, 0, 8, 2]), [0, 0x100, 0, 1], clear));
    // instance 1: viewport 2 (x 0..4, y 4..8), scissor 2 wider
    assert_eq!(slices[1], slice(Some([0, 4, 4, 8]), [1, 0x101, 1, 2], clear));
    // instance 2: viewport index 17 is treated as 0
    assert_eq!(slices[2], slice(Some([0, 0, 4, 4]), [2, 0x102, 2, 17], clear));
}

/// Render-target array indices 3 and 0xFFFFFFFF are past the 3 slices: slice 0 (15.15), the pixel program reading
/// them unclamped. Viewport index 5 is within [0, 15] but never set: a viewport of all zeros (15.6) draws nothing.
#[test]
fn out_of_range_indices_write_slice_zero_and_an_unset_viewport_draws_nothing() {
    let output = run(&state([(3, 0), (u32::MAX, 3), (1, 5)], false));
    let slices = texels::<4>(output.render_targets[0].as_ref().unwrap());
    let clear = [0; 4];
    let mut expected = slice(Some([0, 0, 4, 4]), [0, 0x100, 3, 0], clear);
    for (i, texel) in slice(Some([4, 4, 8, 8]), [1, 0x101, u32::MAX, 3], clear)
        .into_iter()
        .enumerate()
    {
        if texel != clear {
            expected[i] = texel;
        }
    }
    assert_eq!(slices[0], expected);
    assert_eq!(slices[1], slice(None, clear, clear));
    assert_eq!(slices[2], slice(None, clear, clear));
    assert_eq!(output.stats.written, 32);
}

/// A depth-stencil view of 3 slices: every instance draws quadrant 0 at depth 0.5 into its own slice, each slice
/// tested against its own depths (cleared to 1.0), so all three pass (one shared buffer would fail the second and
/// third: 0.5 < 0.5 is false).
#[test]
fn each_slice_has_its_own_depth() {
    let mut state = state([(0, 0), (1, 0), (2, 0)], true);
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::D32Float,
        width: 8,
        height: 8,
        depth: 1,
        array_size: 3,
        mip_levels: 1,
        sample_count: 1,
    };
    let cleared: Arc<[u8]> = 1f32.to_bits().to_le_bytes().repeat(64).into();
    let texture = Texture::new(shape, vec![cleared; 3]).unwrap();
    state.depth_stencil_view = Some(DepthStencilView {
        resource: Arc::new(Resource::Texture(texture)),
        desc: DepthStencilViewDesc {
            format: Format::D32Float,
            dimension: DsvDimension::Texture2DArray,
            first_array_slice: 0,
            array_size: 3,
            ..DepthStencilViewDesc::default()
        },
    });
    let output = run(&state);
    let colours = texels::<4>(output.render_targets[0].as_ref().unwrap());
    let depths = texels::<1>(output.depth_stencil.as_ref().unwrap());
    let (half, one) = ([0.5f32.to_bits()], [1f32.to_bits()]);
    for s in 0..3u32 {
        let tag = [s, 0x100 + s, s, 0];
        assert_eq!(colours[s as usize], slice(Some([0, 0, 4, 4]), tag, [0; 4]), "slice {s}");
        assert_eq!(depths[s as usize], slice(Some([0, 0, 4, 4]), half, one), "slice {s}");
    }
}

/// A view of slices 1 and 2 of a 4-slice texture: index 0 is texture slice 1, index 1 slice 2, and index 2 is past
/// the view's 2 slices, so view slice 0 again (5.2: out of range is the view's). The draw's output holds the view's
/// 2 slices; written back, texture slices 0 and 3 keep their contents.
#[test]
fn slices_count_from_the_views_first() {
    let mut state = state([(0, 1), (1, 2), (2, 17)], false);
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R32G32B32A32Uint,
        width: 8,
        height: 8,
        depth: 1,
        array_size: 4,
        mip_levels: 1,
        sample_count: 1,
    };
    let filled: Arc<[u8]> = 7u32.to_le_bytes().repeat(256).into();
    let texture = Texture::new(shape, vec![filled; 4]).unwrap();
    state.render_targets = vec![Some(RenderTargetView {
        resource: Arc::new(Resource::Texture(texture)),
        desc: RenderTargetViewDesc {
            format: Format::R32G32B32A32Uint,
            dimension: RtvDimension::Texture2DArray,
            mip_slice: 0,
            first_array_slice: 1,
            array_size: 2,
        },
    })];
    let output = run(&state);
    let image = output.render_targets[0].as_ref().unwrap();
    assert_eq!(image.slices, 2);
    let slices = texels::<4>(image);
    let mut first = slice(Some([4, 0, 8, 2]), [0, 0x100, 0, 1], [7; 4]);
    for (i, texel) in slice(Some([0, 0, 4, 4]), [2, 0x102, 2, 17], [7; 4])
        .into_iter()
        .enumerate()
    {
        if texel != [7; 4] {
            first[i] = texel;
        }
    }
    assert_eq!(slices[0], first);
    assert_eq!(slices[1], slice(Some([0, 4, 4, 8]), [1, 0x101, 1, 2], [7; 4]));
    let updated = output.updated_targets(&state).unwrap();
    let (_, after) = updated.render_targets[0].as_ref().unwrap();
    let Resource::Texture(after) = after.as_ref() else {
        panic!("a texture");
    };
    for s in [0, 3] {
        assert!(
            after
                .subresource(0, s)
                .unwrap()
                .iter()
                .copied()
                .eq(7u32.to_le_bytes().repeat(256))
        );
    }
    assert_eq!(after.subresource(0, 1).unwrap(), image.slice_bytes(0).unwrap());
    assert_eq!(after.subresource(0, 2).unwrap(), image.slice_bytes(1).unwrap());
}

/// Without a geometry program writing the indices, an array view is drawn in its first slice through viewport 0
/// (15.8.1, 15.15), and the draw gives that slice alone.
#[test]
fn without_indices_the_first_slice_and_viewport_zero() {
    let mut state = state([(0, 0); 3], false);
    state.geometry_shader = None;
    state.gs = Default::default();
    let output = run(&state);
    let image = output.render_targets[0].as_ref().unwrap();
    assert_eq!(image.slices, 1);
    // quadrant 0 within scissor 0: 16 pixels, the vertex program's tag (0) and indices 0
    assert_eq!(output.stats.written, 16);
    assert_eq!(texels::<4>(image)[0], slice(None, [0; 4], [0; 4]));
}

/// A view asking for slices its texture lacks (as a capture's replay holds only the view's first slice) is refused
/// when the geometry program selects slices, rather than drawn into the wrong one.
#[test]
fn selecting_slices_the_texture_lacks_is_refused() {
    let mut state = state([(0, 0), (1, 0), (2, 0)], false);
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R32G32B32A32Uint,
        width: 8,
        height: 8,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count: 1,
    };
    let texture = Texture::new(shape, vec![Arc::from(vec![0u8; 1024])]).unwrap();
    state.render_targets = vec![Some(RenderTargetView {
        resource: Arc::new(Resource::Texture(texture)),
        desc: RenderTargetViewDesc {
            format: Format::R32G32B32A32Uint,
            dimension: RtvDimension::Texture2DArray,
            mip_slice: 0,
            first_array_slice: 0,
            array_size: 3,
        },
    })];
    let error = PreparedDraw::new(&state, &mut ShaderCache::new(), DrawOptions::default())
        .unwrap()
        .run(None)
        .unwrap_err();
    assert!(error.to_string().contains("slices 0 to 2"), "{error}");
}

/// A pixel's history follows the views' first slices, each primitive through its own viewport: at (5, 1) instance 0
/// (slice 0, viewport 1) is the one fragment; at (1, 1) only instance 2 draws, into slice 2, so the history of slice
/// 0 has none there.
#[test]
fn a_pixel_history_is_of_the_first_slices() {
    let state = state([(0, 1), (1, 2), (2, 17)], false);
    let mut prepared = PreparedDraw::new(&state, &mut ShaderCache::new(), DrawOptions::default()).unwrap();
    let history = prepared.pixel_history(5, 1, Default::default()).unwrap();
    assert_eq!(history.fragments.len(), 1);
    let after = history.after.render_targets[0].as_ref().unwrap();
    assert_eq!(after.words, [0, 0x100, 0, 1]);
    let history = prepared.pixel_history(1, 1, Default::default()).unwrap();
    assert!(history.fragments.is_empty());
}
