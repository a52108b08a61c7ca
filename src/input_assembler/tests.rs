//! Hand-computed input assembly: fetches of every vertex format, layouts, instancing, topologies, IDs and each
//! validation error. Float results are given as bits with the arithmetic that gives them.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::identity_op
)] // fields written out, zeros included

use super::*;
use crate::api::draw::{IndexBufferBinding, VertexBufferBinding};
use crate::api::enums::{InputClassification, PrimitiveTopology};
use crate::api::fixed_function::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use crate::dxbc::signature::{ComponentType, MinPrecision, SignatureElement, SignatureKind, SystemValue};
use crate::format::Format;

const ONE: u32 = 0x3f80_0000;

fn element(semantic: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElementDesc {
    InputElementDesc {
        semantic_name: semantic.to_owned(),
        semantic_index: index,
        format,
        input_slot: slot,
        aligned_byte_offset: offset,
        input_slot_class: InputClassification::PerVertexData,
        instance_data_step_rate: 0,
    }
}

fn per_instance(mut e: InputElementDesc, step: u32) -> InputElementDesc {
    e.input_slot_class = InputClassification::PerInstanceData;
    e.instance_data_step_rate = step;
    e
}

fn input(semantic: &str, index: u32, register: u32, mask: u8) -> SignatureElement {
    SignatureElement {
        semantic_name: semantic.to_owned(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask,
        rw_mask: mask,
        stream: 0,
        min_precision: MinPrecision::DEFAULT,
    }
}

fn system(semantic: &str, value: SystemValue, register: u32, mask: u8) -> SignatureElement {
    SignatureElement {
        system_value: value,
        component_type: ComponentType::UINT32,
        ..input(semantic, 0, register, mask)
    }
}

fn signature(elements: Vec<SignatureElement>) -> Signature {
    Signature {
        kind: SignatureKind::Isgn,
        elements,
    }
}

fn buffer(data: Vec<u8>, stride: u32, offset: u32) -> Option<VertexBufferBinding> {
    Some(VertexBufferBinding {
        data: data.into(),
        stride,
        offset,
    })
}

fn draw_of(layout: Vec<InputElementDesc>, buffers: Vec<Option<VertexBufferBinding>>, call: DrawCall) -> DrawState {
    let mut draw = DrawState::new("test-draw", Arc::from(Vec::new()), call);
    draw.input_layout = layout;
    draw.vertex_buffers = buffers;
    draw.topology = PrimitiveTopology::TriangleList;
    draw
}

fn draw_call(vertex_count: u32) -> DrawCall {
    DrawCall::Draw {
        vertex_count,
        start_vertex: 0,
    }
}

fn words_le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The words one vertex of `format` fetches from `bytes` into a `float4`/`uint4` input (mask xyzw).
fn fetch_one(format: Format, bytes: &[u8]) -> [u32; 4] {
    let size = bytes.len() as u32;
    let draw = draw_of(
        vec![element("A", 0, format, 0, 0)],
        vec![buffer(bytes.to_vec(), size, 0)],
        draw_call(1),
    );
    let ia = InputAssembler::new(&draw, &signature(vec![input("A", 0, 0, 0xf)]), Options::default()).unwrap();
    ia.fetch_instance(0).unwrap().get(0, 0).unwrap()
}

#[test]
fn float32_data_is_read_without_changing_a_bit() {
    // 8.20: 32-bit float, UINT and SINT data is not converted: a NaN payload and a denormal come through as stored
    let words = [0x3f80_0000, 0xc020_0000, 0x7fc0_0001, 0x0000_0001];
    assert_eq!(fetch_one(Format::R32G32B32A32Float, &words_le(&words)), words);
    assert_eq!(fetch_one(Format::R32G32B32A32Uint, &words_le(&words)), words);
    assert_eq!(fetch_one(Format::R32G32B32A32Sint, &words_le(&words)), words);
}

#[test]
fn missing_components_read_as_0_0_0_1_in_the_format_type() {
    // 19.1.3.3: absent y, z read 0; absent w reads 1.0f for float formats and the integer 1 for UINT/SINT ones
    let data = words_le(&[0xdead_beef, 0x8000_0000, 7]);
    assert_eq!(
        fetch_one(Format::R32G32B32Float, &data),
        [0xdead_beef, 0x8000_0000, 7, ONE]
    );
    assert_eq!(
        fetch_one(Format::R32G32B32Uint, &data),
        [0xdead_beef, 0x8000_0000, 7, 1]
    );
    assert_eq!(
        fetch_one(Format::R32G32B32Sint, &data),
        [0xdead_beef, 0x8000_0000, 7, 1]
    );
    assert_eq!(
        fetch_one(Format::R32G32Float, &data[..8]),
        [0xdead_beef, 0x8000_0000, 0, ONE]
    );
    assert_eq!(
        fetch_one(Format::R32G32Uint, &data[..8]),
        [0xdead_beef, 0x8000_0000, 0, 1]
    );
    assert_eq!(
        fetch_one(Format::R32G32Sint, &data[..8]),
        [0xdead_beef, 0x8000_0000, 0, 1]
    );
    assert_eq!(fetch_one(Format::R32Float, &data[..4]), [0xdead_beef, 0, 0, ONE]);
    assert_eq!(fetch_one(Format::R32Uint, &data[..4]), [0xdead_beef, 0, 0, 1]);
    assert_eq!(fetch_one(Format::R32Sint, &data[..4]), [0xdead_beef, 0, 0, 1]);
}

#[test]
fn float16_converts_exactly_to_float32() {
    // half 0x3c00 = 1.0 (0x3f800000); 0xc000 = -2.0 (0xc0000000); 0x0001 = 2^-24, a float32 normal
    // (exponent 127 - 24 = 103: 0x33800000); 0x7c00 = +inf (0x7f800000)
    let data = [0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0x00, 0x7c];
    assert_eq!(
        fetch_one(Format::R16G16B16A16Float, &data),
        [ONE, 0xc000_0000, 0x3380_0000, 0x7f80_0000]
    );
    assert_eq!(fetch_one(Format::R16G16Float, &data[..4]), [ONE, 0xc000_0000, 0, ONE]);
    assert_eq!(fetch_one(Format::R16Float, &data[6..]), [0x7f80_0000, 0, 0, ONE]);
}

#[test]
fn unorm16_and_snorm16_divide_by_their_maximum() {
    // UNORM16: 0xffff = 1.0; 0x8000 = 32768/65535 = 0.5 + 128.002 * 2^-24 -> 0x3f000080; 0 = 0; 1000/65535 ->
    // 0x3c7a00fa (nearest float32 of 0.015259...)
    let data = [0xff, 0xff, 0x00, 0x80, 0x00, 0x00, 0xe8, 0x03];
    assert_eq!(
        fetch_one(Format::R16G16B16A16Unorm, &data),
        [ONE, 0x3f00_0080, 0, 0x3c7a_00fa]
    );
    assert_eq!(fetch_one(Format::R16G16Unorm, &data[..4]), [ONE, 0x3f00_0080, 0, ONE]);
    assert_eq!(fetch_one(Format::R16Unorm, &data[2..4]), [0x3f00_0080, 0, 0, ONE]);
    // SNORM16 (3.2.3.3): 0x7fff = 1.0; 0x8000 = -32768 clamps to -1.0 (0xbf800000); 0xc000 = -16384/32767 =
    // -(0.5 + 256.008 * 2^-24) -> 0xbf000100; 0xfc18 = -1000/32767 -> 0xbcfa01f4
    let data = [0xff, 0x7f, 0x00, 0x80, 0x00, 0xc0, 0x18, 0xfc];
    assert_eq!(
        fetch_one(Format::R16G16B16A16Snorm, &data),
        [ONE, 0xbf80_0000, 0xbf00_0100, 0xbcfa_01f4]
    );
    assert_eq!(fetch_one(Format::R16G16Snorm, &data[..4]), [ONE, 0xbf80_0000, 0, ONE]);
    assert_eq!(fetch_one(Format::R16Snorm, &data[4..6]), [0xbf00_0100, 0, 0, ONE]);
}

#[test]
fn integers_of_16_and_8_bits_are_zero_or_sign_extended() {
    // UINT: zero-extended; SINT: 0x8000 = -32768 = 0xffff8000, 0xff (8-bit) = -1
    let data = [0xff, 0xff, 0x00, 0x80, 0x05, 0x00, 0x34, 0x12];
    assert_eq!(fetch_one(Format::R16G16B16A16Uint, &data), [0xffff, 0x8000, 5, 0x1234]);
    assert_eq!(
        fetch_one(Format::R16G16B16A16Sint, &data),
        [0xffff_ffff, 0xffff_8000, 5, 0x1234]
    );
    assert_eq!(fetch_one(Format::R16G16Uint, &data[..4]), [0xffff, 0x8000, 0, 1]);
    assert_eq!(
        fetch_one(Format::R16G16Sint, &data[..4]),
        [0xffff_ffff, 0xffff_8000, 0, 1]
    );
    assert_eq!(fetch_one(Format::R16Uint, &data[2..4]), [0x8000, 0, 0, 1]);
    assert_eq!(fetch_one(Format::R16Sint, &data[2..4]), [0xffff_8000, 0, 0, 1]);
    let bytes = [0xff, 0x80, 0x7f, 0x01];
    assert_eq!(fetch_one(Format::R8G8B8A8Uint, &bytes), [255, 128, 127, 1]);
    assert_eq!(
        fetch_one(Format::R8G8B8A8Sint, &bytes),
        [0xffff_ffff, 0xffff_ff80, 127, 1]
    );
    assert_eq!(fetch_one(Format::R8G8Uint, &bytes[..2]), [255, 128, 0, 1]);
    assert_eq!(
        fetch_one(Format::R8G8Sint, &bytes[..2]),
        [0xffff_ffff, 0xffff_ff80, 0, 1]
    );
    assert_eq!(fetch_one(Format::R8Uint, &bytes[1..2]), [128, 0, 0, 1]);
    assert_eq!(fetch_one(Format::R8Sint, &bytes[1..2]), [0xffff_ff80, 0, 0, 1]);
}

#[test]
fn unorm8_and_snorm8_divide_by_their_maximum() {
    // UNORM8: 0xff = 1.0; 0x80 = 128/255 = 0.5 + 32896.502 * 2^-24 -> 0x3f008081; 0x33 = 51/255 = 0.2 exactly
    // -> float32 0.2 = 0x3e4ccccd; 0 = 0
    let bytes = [0xff, 0x80, 0x33, 0x00];
    assert_eq!(
        fetch_one(Format::R8G8B8A8Unorm, &bytes),
        [ONE, 0x3f00_8081, 0x3e4c_cccd, 0]
    );
    assert_eq!(fetch_one(Format::R8G8Unorm, &bytes[..2]), [ONE, 0x3f00_8081, 0, ONE]);
    assert_eq!(fetch_one(Format::R8Unorm, &bytes[2..3]), [0x3e4c_cccd, 0, 0, ONE]);
    // SNORM8: 0x7f = 1.0; 0x80 = -128 and 0x81 = -127 both -1.0; 0x40 = 64/127 = 0.5 + 66052.03 * 2^-24 ->
    // 0x3f010204
    let bytes = [0x7f, 0x80, 0x81, 0x40];
    assert_eq!(
        fetch_one(Format::R8G8B8A8Snorm, &bytes),
        [ONE, 0xbf80_0000, 0xbf80_0000, 0x3f01_0204]
    );
    assert_eq!(
        fetch_one(Format::R8G8Snorm, &bytes[2..]),
        [0xbf80_0000, 0x3f01_0204, 0, ONE]
    );
    assert_eq!(fetch_one(Format::R8Snorm, &bytes[3..]), [0x3f01_0204, 0, 0, ONE]);
}

#[test]
fn packed_formats_split_their_fields() {
    // R10G10B10A2: r = bits 0-9, g = 10-19, b = 20-29, a = 30-31. r = 1023 -> 1.0, g = 0, b = 512 -> 512/1023 =
    // 0.5 + 8200.008 * 2^-24 -> 0x3f002008, a = 3 -> 1.0
    let packed: u32 = 1023 | (0 << 10) | (512 << 20) | (3 << 30);
    assert_eq!(
        fetch_one(Format::R10G10B10A2Unorm, &packed.to_le_bytes()),
        [ONE, 0, 0x3f00_2008, ONE]
    );
    let packed: u32 = 1023 | (5 << 10) | (0 << 20) | (2 << 30);
    assert_eq!(
        fetch_one(Format::R10G10B10A2Uint, &packed.to_le_bytes()),
        [1023, 5, 0, 2]
    );
    // R11G11B10_FLOAT: 11-bit floats (5-bit exponent, bias 15, 6-bit mantissa) in bits 0-10 and 11-21, a 10-bit
    // one (5-bit mantissa) in 22-31. 1.0 = 15 << 6 = 0x3c0; 0.5 = 14 << 6 = 0x380; 2.0 = 16 << 5 = 0x200; 1.5 =
    // 15 << 6 | 32 = 0x3e0
    let packed: u32 = 0x3c0 | (0x380 << 11) | (0x200 << 22);
    assert_eq!(
        fetch_one(Format::R11G11B10Float, &packed.to_le_bytes()),
        [ONE, 0x3f00_0000, 0x4000_0000, ONE]
    );
    let packed: u32 = 0x3e0;
    assert_eq!(
        fetch_one(Format::R11G11B10Float, &packed.to_le_bytes()),
        [0x3fc0_0000, 0, 0, ONE]
    );
    // B8G8R8A8: bytes are blue, green, red, alpha; the shader still sees (r, g, b, a). r = 0x33 -> 0.2, a = 0x66 =
    // 102/255 = 0.4 -> 0x3ecccccd, b = 0xff -> 1.0
    assert_eq!(
        fetch_one(Format::B8G8R8A8Unorm, &[0xff, 0x00, 0x33, 0x66]),
        [0x3e4c_cccd, 0, ONE, 0x3ecc_cccd]
    );
}

#[test]
fn only_vertex_formats_are_accepted() {
    for format in [
        Format::R8G8B8A8UnormSrgb,
        Format::Bc1Unorm,
        Format::D32Float,
        Format::R32G32B32A32Typeless,
    ] {
        let draw = draw_of(
            vec![element("A", 0, format, 0, 0)],
            vec![buffer(vec![0; 16], 16, 0)],
            draw_call(1),
        );
        let e = InputAssembler::new(&draw, &signature(vec![input("A", 0, 0, 0xf)]), Options::default()).unwrap_err();
        assert!(e.detail.contains("is not a vertex format"), "{format}: {e}");
        assert_eq!(e.what, "test-draw input assembler");
        assert_eq!(e.at, "input layout element 0 (A0)");
    }
    assert_eq!(VERTEX_FORMATS.len(), 43);
    assert!(
        VERTEX_FORMATS
            .iter()
            .all(|f| crate::format::TexelCodec::new(*f).is_ok())
    );
}

#[test]
fn a_packed_input_takes_the_format_components_from_its_lowest_mask_component() {
    // TEXCOORD0 in v1.xy and TEXCOORD1 in v1.zw (as compilers pack two float2s): TEXCOORD1's x and y go to z and w
    let data = words_le(&[1, 2, 3, 4]);
    let draw = draw_of(
        vec![
            element("TEXCOORD", 0, Format::R32G32Float, 0, 0),
            element("texcoord", 1, Format::R32G32Float, 0, 8),
        ],
        vec![buffer(data, 16, 0)],
        draw_call(1),
    );
    let sig = signature(vec![input("TEXCOORD", 0, 1, 0b0011), input("TEXCOORD", 1, 1, 0b1100)]);
    let ia = InputAssembler::new(&draw, &sig, Options::default()).unwrap();
    let inputs = ia.fetch_instance(0).unwrap();
    assert_eq!(ia.register_count(), 2);
    assert_eq!(inputs.get(0, 1), Some([1, 2, 3, 4]));
    // v0 is declared by nothing: zeros
    assert_eq!(inputs.get(0, 0), Some([0; 4]));
}

#[test]
fn appended_elements_follow_the_one_before_in_their_slot_aligned() {
    // slot 0: R8 at 0; R32 appended after byte 1, aligned to 4 -> 4; R16G16 after 8 -> 8; slot 1 starts at 0;
    // slot 0's R8G8 after 12 (alignment 2) -> 12; R16 after an R8 at explicit 17 -> 18 (aligned to 2)
    let layout = vec![
        element("A", 0, Format::R8Unorm, 0, APPEND_ALIGNED_ELEMENT),
        element("B", 0, Format::R32Float, 0, APPEND_ALIGNED_ELEMENT),
        element("C", 0, Format::R16G16Unorm, 0, APPEND_ALIGNED_ELEMENT),
        element("D", 0, Format::R32G32B32Float, 1, APPEND_ALIGNED_ELEMENT),
        element("E", 0, Format::R8G8Unorm, 0, APPEND_ALIGNED_ELEMENT),
        element("F", 0, Format::R8Uint, 0, 17),
        element("G", 0, Format::R16Uint, 0, APPEND_ALIGNED_ELEMENT),
    ];
    let draw = draw_of(
        layout,
        vec![buffer(vec![0; 20], 20, 0), buffer(vec![0; 12], 12, 0)],
        draw_call(1),
    );
    let ia = InputAssembler::new(&draw, &signature(vec![]), Options::default()).unwrap();
    assert_eq!(ia.element_offsets(), [0, 4, 8, 0, 12, 17, 18]);
    assert_eq!(element_alignment(1), 1);
    assert_eq!(element_alignment(2), 2);
    assert_eq!(element_alignment(12), 4);
}

#[test]
fn instance_data_steps_every_step_rate_instances_from_the_start_instance() {
    // slot 0 per vertex (3 vertices), slots 1, 2, 3 per instance with step rates 0, 1, 3; each instance element is
    // its own number, so the fetched word says which element was read. Start instance 2, 7 instances:
    // step 0 -> always element 2; step 1 -> 2 + i; step 3 -> 2 + i / 3
    let numbers: Vec<u8> = words_le(&(0..16).collect::<Vec<u32>>());
    let layout = vec![
        element("P", 0, Format::R32Uint, 0, 0),
        per_instance(element("S", 0, Format::R32Uint, 1, 0), 0),
        per_instance(element("S", 1, Format::R32Uint, 2, 0), 1),
        per_instance(element("S", 2, Format::R32Uint, 3, 0), 3),
    ];
    let buffers = vec![
        buffer(numbers.clone(), 4, 0),
        buffer(numbers.clone(), 4, 0),
        buffer(numbers.clone(), 4, 0),
        buffer(numbers, 4, 0),
    ];
    let call = DrawCall::DrawInstanced {
        vertex_count_per_instance: 3,
        instance_count: 7,
        start_vertex: 4,
        start_instance: 2,
    };
    let draw = draw_of(layout, buffers, call);
    let sig = signature(vec![
        input("P", 0, 0, 1),
        input("S", 0, 1, 1),
        input("S", 1, 2, 1),
        input("S", 2, 3, 1),
        system("SV_InstanceID", SystemValue::INSTANCE_ID, 4, 1),
        system("SV_VertexID", SystemValue::VERTEX_ID, 4, 2),
    ]);
    let ia = InputAssembler::new(&draw, &sig, Options::default()).unwrap();
    assert_eq!(ia.instance_count(), 7);
    for instance in 0..7u32 {
        let inputs = ia.fetch_instance(instance).unwrap();
        for vertex in 0..3usize {
            // per-vertex data of vertex 4 + i; SV_VertexID from 0; SV_InstanceID from 0, not from 2 (8.18)
            assert_eq!(inputs.get(vertex, 0).unwrap()[0], 4 + vertex as u32);
            assert_eq!(inputs.get(vertex, 1).unwrap()[0], 2);
            assert_eq!(inputs.get(vertex, 2).unwrap()[0], 2 + instance);
            assert_eq!(inputs.get(vertex, 3).unwrap()[0], 2 + instance / 3);
            assert_eq!(inputs.get(vertex, 4).unwrap(), [instance, vertex as u32, 0, 0]);
        }
    }
}

fn indexed_draw(indices: &[u16], topology: PrimitiveTopology) -> DrawState {
    let mut draw = draw_of(
        vec![],
        vec![],
        DrawCall::DrawIndexed {
            index_count: indices.len() as u32,
            start_index: 0,
            base_vertex: 0,
        },
    );
    draw.topology = topology;
    draw.index_buffer = Some(IndexBufferBinding {
        data: indices.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<u8>>().into(),
        format: IndexFormat::R16Uint,
        offset: 0,
    });
    draw
}

/// The triangles of a draw as (vertex IDs of the three vertices, primitive ID).
fn triangles(draw: &DrawState) -> Vec<([u32; 3], u32)> {
    let ia = InputAssembler::new(draw, &signature(vec![]), Options::default()).unwrap();
    ia.primitives()
        .map(|p| (p.vertices.map(|v| ia.vertices().vertex_id(v as usize).unwrap()), p.id))
        .collect()
}

#[test]
fn a_strip_reverses_every_other_triangle_and_restarts_at_a_cut() {
    // 8.10: triangle k of a strip is k, k+1, k+2, odd ones wound the other way: written k, k+2, k+1 (leading
    // vertex first). The cut 0xffff starts a new strip (8.12): 5, 6, 7 is its even triangle 0. IDs go on (8.6.2).
    let draw = indexed_draw(&[0, 1, 2, 3, 4, 0xffff, 5, 6, 7, 8], PrimitiveTopology::TriangleStrip);
    assert_eq!(
        triangles(&draw),
        [
            ([0, 1, 2], 0),
            ([1, 3, 2], 1),
            ([2, 3, 4], 2),
            ([5, 6, 7], 3),
            ([6, 8, 7], 4)
        ]
    );
    // a cut after two vertices leaves nothing of them (8.13)
    let draw = indexed_draw(&[0, 1, 0xffff, 2, 3, 4], PrimitiveTopology::TriangleStrip);
    assert_eq!(triangles(&draw), [([2, 3, 4], 0)]);
}

#[test]
fn a_cut_in_a_list_drops_the_incomplete_triangle() {
    // 8.12: the cut applies to lists too; 3 is dropped with the cut, 7 at the end (8.13)
    let draw = indexed_draw(&[0, 1, 2, 3, 0xffff, 4, 5, 6, 7], PrimitiveTopology::TriangleList);
    assert_eq!(triangles(&draw), [([0, 1, 2], 0), ([4, 5, 6], 1)]);
}

#[test]
fn adjacency_topologies_draw_their_non_adjacent_vertices() {
    // triangle list with adjacency: 0, 2, 4 of each six (8.10's figure); 12 vertices, 2 triangles
    let draw = indexed_draw(&(0..13).collect::<Vec<u16>>(), PrimitiveTopology::TriangleListAdj);
    assert_eq!(triangles(&draw), [([0, 2, 4], 0), ([6, 8, 10], 1)]);
    // triangle strip with adjacency: a strip over 0, 2, 4, ...; n vertices make (n - 4) / 2 triangles from n = 6
    // (8.4.2's count: the first completes at the 7th vertex or at the strip's end when there are only 6). Odd
    // triangle 1 of 2, 4, 6 (GL's table writes it 4, 2, 6) is reversed: 2, 6, 4.
    let strip = |n: u16| indexed_draw(&(0..n).collect::<Vec<u16>>(), PrimitiveTopology::TriangleStripAdj);
    assert_eq!(triangles(&strip(5)), []);
    assert_eq!(triangles(&strip(6)), [([0, 2, 4], 0)]);
    assert_eq!(triangles(&strip(7)), [([0, 2, 4], 0)]);
    assert_eq!(triangles(&strip(8)), [([0, 2, 4], 0), ([2, 6, 4], 1)]);
    assert_eq!(triangles(&strip(10)), [([0, 2, 4], 0), ([2, 6, 4], 1), ([4, 6, 8], 2)]);
    // a cut restarts it: 6 vertices, cut, 6 vertices -> one triangle each
    let draw = indexed_draw(
        &[0, 1, 2, 3, 4, 5, 0xffff, 10, 11, 12, 13, 14, 15],
        PrimitiveTopology::TriangleStripAdj,
    );
    assert_eq!(triangles(&draw), [([0, 2, 4], 0), ([10, 12, 14], 1)]);
}

#[test]
fn each_index_value_is_shaded_once_and_its_vertex_id_is_the_value() {
    // indices 3, 3, 1, 3, 1, 7: three vertices, in order of first use; SV_VertexID is the index value (8.16)
    let mut draw = indexed_draw(&[3, 3, 1, 3, 1, 7], PrimitiveTopology::TriangleList);
    draw.call = DrawCall::DrawIndexed {
        index_count: 6,
        start_index: 0,
        base_vertex: 10,
    };
    draw.input_layout = vec![element("P", 0, Format::R32Uint, 0, 0)];
    draw.vertex_buffers = vec![buffer(words_le(&(0..20).map(|i| 100 + i).collect::<Vec<u32>>()), 4, 0)];
    let sig = signature(vec![
        input("P", 0, 0, 1),
        system("SV_VertexID", SystemValue::VERTEX_ID, 1, 1),
    ]);
    let ia = InputAssembler::new(&draw, &sig, Options::default()).unwrap();
    assert_eq!(ia.vertices(), &Vertices::Indexed { values: vec![3, 1, 7] });
    let inputs = ia.fetch_instance(0).unwrap();
    // the data is read at base vertex + index (vertex 13, 11, 17: words 113, 111, 117); the ID has no base vertex
    assert_eq!(
        inputs.register(0).iter().map(|w| w[0]).collect::<Vec<_>>(),
        [113, 111, 117]
    );
    assert_eq!(inputs.register(1).iter().map(|w| w[0]).collect::<Vec<_>>(), [3, 1, 7]);
    let slots: Vec<[u32; 3]> = ia.primitives().map(|p| p.vertices).collect();
    assert_eq!(slots, [[0, 0, 1], [0, 1, 2]]);
    // a batch of vertices 1..3 is the same as that part of the whole
    let mut batch = VertexInputs::default();
    ia.fetch(0, 1..3, &mut batch).unwrap();
    assert_eq!(batch.register(0), &inputs.register(0)[1..3]);
}

#[test]
fn a_draw_counts_vertex_ids_from_zero_whatever_its_start_vertex() {
    // Draw(4, 6): data from vertex 6 on, SV_VertexID 0..3 (8.16, 8.4.2); a triangle strip of 4 makes 2 triangles
    let mut draw = draw_of(
        vec![element("P", 0, Format::R32Uint, 0, 0)],
        vec![buffer(words_le(&(0..10).collect::<Vec<u32>>()), 4, 0)],
        DrawCall::Draw {
            vertex_count: 4,
            start_vertex: 6,
        },
    );
    draw.topology = PrimitiveTopology::TriangleStrip;
    let sig = signature(vec![
        input("P", 0, 0, 1),
        system("SV_VertexID", SystemValue::VERTEX_ID, 0, 2),
    ]);
    let ia = InputAssembler::new(&draw, &sig, Options::default()).unwrap();
    let inputs = ia.fetch_instance(0).unwrap();
    assert_eq!(
        inputs.register(0),
        [[6, 0, 0, 0], [7, 1, 0, 0], [8, 2, 0, 0], [9, 3, 0, 0]]
    );
    let prims: Vec<Primitive> = ia.primitives().collect();
    assert_eq!(
        prims,
        [
            Primitive {
                vertices: [0, 1, 2],
                id: 0,
                kind: PrimitiveKind::Triangle
            },
            Primitive {
                vertices: [1, 3, 2],
                id: 1,
                kind: PrimitiveKind::Triangle
            }
        ]
    );
    assert_eq!(ia.statistics(), (4, 2));
}

#[test]
fn the_start_index_and_index_offset_choose_where_indices_are_read() {
    // 32-bit indices 9, 9, 0, 1, 2, 3 at byte offset 4 of the buffer; start index 1 and count 4 read 0, 1, 2, 3
    // (8.6.1: address = start * 4 + offset = 8 is the second index after the offset)
    let mut bytes = vec![0xaa; 4];
    bytes.extend(words_le(&[9, 0, 1, 2, 3]));
    let mut draw = draw_of(
        vec![],
        vec![],
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 4,
            instance_count: 2,
            start_index: 1,
            base_vertex: 0,
            start_instance: 0,
        },
    );
    draw.topology = PrimitiveTopology::TriangleStrip;
    draw.index_buffer = Some(IndexBufferBinding {
        data: bytes.into(),
        format: IndexFormat::R32Uint,
        offset: 4,
    });
    assert_eq!(triangles(&draw), [([0, 1, 2], 0), ([1, 3, 2], 1)]);
    let ia = InputAssembler::new(&draw, &signature(vec![]), Options::default()).unwrap();
    // IAVertices and IAPrimitives over both instances
    assert_eq!(ia.statistics(), (8, 4));
}

/// The error a draw makes, with `signature`.
fn error_of(draw: &DrawState, sig: &Signature) -> Error {
    InputAssembler::new(draw, sig, Options::default()).unwrap_err()
}

fn position_sig() -> Signature {
    signature(vec![input("POSITION", 0, 0, 0xf)])
}

fn position_draw(data_len: usize, stride: u32, offset: u32, call: DrawCall) -> DrawState {
    draw_of(
        vec![element("POSITION", 0, Format::R32G32B32A32Float, 0, 0)],
        vec![buffer(vec![0; data_len], stride, offset)],
        call,
    )
}

#[test]
fn a_vertex_past_its_buffer_is_an_error_naming_the_draw_and_the_binding() {
    // 4 vertices of 16 bytes: 64 bytes; Draw(5) reads vertex 4 at 64..80
    let e = error_of(&position_draw(64, 16, 0, draw_call(5)), &position_sig());
    assert_eq!(e.what, "test-draw input assembler");
    assert_eq!(e.at, "element 0 (POSITION0), vertex buffer slot 0");
    assert!(
        e.detail.contains("vertex 4 reads bytes 64..80 of a 64-byte buffer"),
        "{e}"
    );
    // an index naming vertex 4 does the same
    let mut draw = position_draw(64, 16, 0, draw_call(3));
    draw.index_buffer = indexed_draw(&[0, 1, 4], PrimitiveTopology::TriangleList).index_buffer;
    draw.call = DrawCall::DrawIndexed {
        index_count: 3,
        start_index: 0,
        base_vertex: 0,
    };
    assert!(error_of(&draw, &position_sig()).detail.contains("vertex 4 reads"));
}

#[test]
fn an_offset_or_stride_that_overruns_the_buffer_is_an_error() {
    // offset 64 into a 64-byte buffer: vertex 0 reads 64..80
    let e = error_of(&position_draw(64, 16, 64, draw_call(1)), &position_sig());
    assert!(e.detail.contains("vertex 0 reads bytes 64..80"), "{e}");
    // a stride of 32 over 64 bytes: vertex 2 reads 64..80
    let e = error_of(&position_draw(64, 32, 0, draw_call(3)), &position_sig());
    assert!(e.detail.contains("vertex 2 reads bytes 64..80"), "{e}");
    // a stride over 2048 bytes
    let e = error_of(&position_draw(8192, 4096, 0, draw_call(1)), &position_sig());
    assert!(e.detail.contains("over D3D11's 2048"), "{e}");
}

#[test]
fn an_element_past_its_stride_or_the_buffer_end_is_an_error() {
    // a 16-byte element at offset 8 of a 16-byte stride
    let mut draw = position_draw(64, 16, 0, draw_call(1));
    draw.input_layout[0].aligned_byte_offset = 8;
    let e = error_of(&draw, &position_sig());
    assert!(e.detail.contains("bytes 8..24 of a 16-byte stride"), "{e}");
    // 20 bytes, stride 16: the second vertex's element overlaps the end
    let e = error_of(&position_draw(20, 16, 0, draw_call(2)), &position_sig());
    assert!(
        e.detail.contains("vertex 1 reads bytes 16..32 of a 20-byte buffer"),
        "{e}"
    );
    // misaligned: a 4-byte-aligned format at offset 2
    let mut draw = position_draw(64, 16, 2, draw_call(1));
    draw.input_layout[0].format = Format::R32Float;
    let e = error_of(&draw, &signature(vec![input("POSITION", 0, 0, 1)]));
    assert!(
        e.detail
            .contains("buffer offset 2 is not a multiple of the element's alignment 4"),
        "{e}"
    );
}

#[test]
fn an_index_buffer_too_short_for_the_draw_is_an_error() {
    // three 16-bit indices: 6 bytes; 5 indices from 0, or 3 from start index 1, need 10 and 8
    let mut draw = indexed_draw(&[0, 1, 2], PrimitiveTopology::TriangleList);
    draw.call = DrawCall::DrawIndexed {
        index_count: 5,
        start_index: 0,
        base_vertex: 0,
    };
    let e = error_of(&draw, &signature(vec![]));
    assert_eq!(e.at, "index buffer");
    assert!(e.detail.contains("need 10 bytes; the buffer has 6"), "{e}");
    draw.call = DrawCall::DrawIndexed {
        index_count: 3,
        start_index: 1,
        base_vertex: 0,
    };
    assert!(error_of(&draw, &signature(vec![])).detail.contains("need 8 bytes"));
    draw.index_buffer = None;
    assert!(
        error_of(&draw, &signature(vec![]))
            .detail
            .contains("without an index buffer")
    );
}

#[test]
fn a_base_vertex_taking_an_index_below_zero_or_past_2_to_the_32_is_an_error() {
    let mut draw = position_draw(64, 16, 0, draw_call(3));
    draw.index_buffer = indexed_draw(&[1, 2, 3], PrimitiveTopology::TriangleList).index_buffer;
    draw.call = DrawCall::DrawIndexed {
        index_count: 3,
        start_index: 0,
        base_vertex: -3,
    };
    // -3 + 1 = -2
    let e = error_of(&draw, &position_sig());
    assert!(e.detail.contains("vertex number -2, below 0"), "{e}");
    // 32-bit index 0xfffffff0 (4294967280) + base 100 = 4294967380, past 2^32 - 1
    draw.index_buffer = Some(IndexBufferBinding {
        data: words_le(&[0xffff_fff0, 0, 1]).into(),
        format: IndexFormat::R32Uint,
        offset: 0,
    });
    draw.call = DrawCall::DrawIndexed {
        index_count: 3,
        start_index: 0,
        base_vertex: 100,
    };
    let e = error_of(&draw, &position_sig());
    assert!(e.detail.contains("vertex number 4294967380 is past 2^32 - 1"), "{e}");
}

#[test]
fn an_instance_count_overflowing_the_draw_is_an_error() {
    // 3 vertices x 2^31 instances = 3 * 2^31 > 2^32
    let draw = position_draw(
        48,
        16,
        0,
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 1 << 31,
            start_vertex: 0,
            start_instance: 0,
        },
    );
    let e = error_of(&draw, &position_sig());
    assert!(e.detail.contains("overflow the 2^32 vertices"), "{e}");
    // per-instance data past its buffer: 4 instance elements, 5 instances of step 1 from start 0
    let mut draw = position_draw(
        48,
        16,
        0,
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 5,
            start_vertex: 0,
            start_instance: 0,
        },
    );
    draw.input_layout
        .push(per_instance(element("I", 0, Format::R32Uint, 1, 0), 1));
    draw.vertex_buffers.push(buffer(vec![0; 16], 4, 0));
    let sig = signature(vec![input("POSITION", 0, 0, 0xf), input("I", 0, 1, 1)]);
    let e = error_of(&draw, &sig);
    assert!(
        e.detail
            .contains("instance element 4 reads bytes 16..20 of a 16-byte buffer"),
        "{e}"
    );
    // a step rate of 2 reads elements 0..=2 and fits
    draw.input_layout[1].instance_data_step_rate = 2;
    assert!(InputAssembler::new(&draw, &sig, Options::default()).is_ok());
}

#[test]
fn an_element_reading_an_empty_slot_is_an_error() {
    let mut draw = position_draw(48, 16, 0, draw_call(3));
    draw.input_layout[0].input_slot = 2;
    let e = error_of(&draw, &position_sig());
    assert_eq!(e.at, "element 0 (POSITION0), vertex buffer slot 2");
    assert!(e.detail.contains("no vertex buffer is bound"), "{e}");
}

/// The primitives of a draw assembled with points and lines allowed, as (vertex IDs, primitive ID, kind).
fn primitives_of(draw: &DrawState) -> Vec<([u32; 3], u32, PrimitiveKind)> {
    let options = Options {
        points_and_lines: true,
        ..Options::default()
    };
    let ia = InputAssembler::new(draw, &signature(vec![]), options).unwrap();
    ia.primitives()
        .map(|p| {
            (
                p.vertices.map(|v| ia.vertices().vertex_id(v as usize).unwrap()),
                p.id,
                p.kind,
            )
        })
        .collect()
}

#[test]
fn points_and_lines_are_assembled_as_8_10_draws_them() {
    use PrimitiveKind::{Line, Point};
    // a point a vertex; a cut changes nothing but the count of vertices read
    let draw = indexed_draw(&[4, 0xffff, 7, 9], PrimitiveTopology::PointList);
    assert_eq!(
        primitives_of(&draw),
        [([4, 4, 4], 0, Point), ([7, 7, 7], 1, Point), ([9, 9, 9], 2, Point)]
    );
    // a line list: pairs; the odd vertex left before the cut is dropped (8.13)
    let draw = indexed_draw(&[0, 1, 2, 0xffff, 3, 4, 5], PrimitiveTopology::LineList);
    assert_eq!(primitives_of(&draw), [([0, 1, 1], 0, Line), ([3, 4, 4], 1, Line)]);
    // a line strip: each vertex after the first ends a line from the one before; a cut starts a new strip
    let draw = indexed_draw(&[0, 1, 2, 0xffff, 5, 6], PrimitiveTopology::LineStrip);
    assert_eq!(
        primitives_of(&draw),
        [([0, 1, 1], 0, Line), ([1, 2, 2], 1, Line), ([5, 6, 6], 2, Line)]
    );
    // with adjacency: a list's line is the middle two of each four; a strip's lines leave out its first and last
    let draw = indexed_draw(&(0..9).collect::<Vec<u16>>(), PrimitiveTopology::LineListAdj);
    assert_eq!(primitives_of(&draw), [([1, 2, 2], 0, Line), ([5, 6, 6], 1, Line)]);
    let draw = indexed_draw(&(0..6).collect::<Vec<u16>>(), PrimitiveTopology::LineStripAdj);
    assert_eq!(
        primitives_of(&draw),
        [([1, 2, 2], 0, Line), ([2, 3, 3], 1, Line), ([3, 4, 4], 2, Line)]
    );
    let draw = indexed_draw(&[0, 1, 2], PrimitiveTopology::LineStripAdj);
    assert_eq!(primitives_of(&draw), []);
    // triangles are told apart
    let draw = indexed_draw(&[0, 1, 2], PrimitiveTopology::TriangleList);
    assert_eq!(primitives_of(&draw), [([0, 1, 2], 0, PrimitiveKind::Triangle)]);
}

#[test]
fn points_and_lines_are_refused_to_a_caller_taking_triangles_only_and_patches_always() {
    for (topology, expected) in [
        (PrimitiveTopology::PointList, "points or lines"),
        (PrimitiveTopology::LineList, "points or lines"),
        (PrimitiveTopology::LineStripAdj, "points or lines"),
        (
            PrimitiveTopology::PatchList3,
            "patch list, which only a tessellation draw takes",
        ),
        (PrimitiveTopology::Undefined, "no primitive topology"),
    ] {
        let mut draw = position_draw(48, 16, 0, draw_call(3));
        draw.topology = topology;
        let e = error_of(&draw, &position_sig());
        assert_eq!(e.at, "topology");
        assert!(e.detail.contains(expected), "{topology}: {e}");
    }
}

#[test]
fn the_layout_must_feed_each_input_once_and_keep_its_slot_rules() {
    let draw = position_draw(48, 16, 0, draw_call(3));
    // an input nothing feeds
    let e = error_of(
        &draw,
        &signature(vec![input("POSITION", 0, 0, 0xf), input("COLOR", 0, 1, 0xf)]),
    );
    assert!(
        e.detail
            .contains("no input layout element feeds the vertex program's input COLOR0 (v1)"),
        "{e}"
    );
    // two elements feeding one input
    let mut twice = draw.clone();
    twice.input_layout.push(element("position", 0, Format::R32Float, 0, 0));
    assert!(
        error_of(&twice, &position_sig())
            .detail
            .contains("elements 0 and 1 both feed POSITION0")
    );
    // a per-vertex element with a step rate
    let mut stepped = draw.clone();
    stepped.input_layout[0].instance_data_step_rate = 2;
    assert!(error_of(&stepped, &position_sig()).detail.contains("must be 0"));
    // one slot with a per-vertex and a per-instance element
    let mut mixed = draw.clone();
    mixed
        .input_layout
        .push(per_instance(element("I", 0, Format::R32Float, 0, 0), 1));
    assert!(
        error_of(&mixed, &position_sig())
            .detail
            .contains("share class and step rate")
    );
    // SV_PrimitiveID is no vertex program input
    let e = error_of(
        &draw,
        &signature(vec![system("SV_PrimitiveID", SystemValue::PRIMITIVE_ID, 0, 1)]),
    );
    assert!(e.detail.contains("8.17"), "{e}");
    // an element the program does not read is not fetched, so its empty slot is no error
    let mut unread = draw;
    unread.input_layout.push(element("UNUSED", 0, Format::R32Float, 5, 0));
    assert!(InputAssembler::new(&unread, &position_sig(), Options::default()).is_ok());
}

#[test]
fn more_vertices_than_the_limit_are_refused() {
    let draw = position_draw(48, 16, 0, draw_call(3));
    let options = Options {
        max_vertices: 2,
        ..Options::default()
    };
    let e = InputAssembler::new(&draw, &position_sig(), options).unwrap_err();
    assert!(e.detail.contains("more than the 2 Iridia assembles"), "{e}");
}

#[test]
fn reading_zero_follows_the_specification_out_of_bounds() {
    let read_zero = Options {
        out_of_bounds: OutOfBounds::ReadZero,
        ..Options::default()
    };
    // R32G32_FLOAT: vertex 0 in bounds, vertex 1 partly past the 12-byte buffer -> (0, 0) and the defaults 0, 1.0
    let mut draw = draw_of(
        vec![
            element("A", 0, Format::R32G32Float, 0, 0),
            element("B", 0, Format::R32G32B32A32Uint, 1, 0),
        ],
        vec![buffer(words_le(&[5, 6, 7]), 8, 0)],
        draw_call(2),
    );
    let sig = signature(vec![input("A", 0, 0, 0xf), input("B", 0, 1, 0xf)]);
    let ia = InputAssembler::new(&draw, &sig, read_zero).unwrap();
    let inputs = ia.fetch_instance(0).unwrap();
    assert_eq!(inputs.get(0, 0), Some([5, 6, 0, ONE]));
    assert_eq!(inputs.get(1, 0), Some([0, 0, 0, ONE]));
    // slot 1 has no buffer: 0 in every component, no default w (8.20)
    assert_eq!(inputs.get(0, 1), Some([0; 4]));
    // the same draw is an error when reads must be in bounds
    assert!(InputAssembler::new(&draw, &sig, Options::default()).is_err());
    // a base vertex of -1 with index 0: vertex 0xffffffff, address 0 + 8 * 0xffffffff wraps to 0xfffffff8, past
    // the buffer (8.19.1); index 3 of a 2-index buffer reads as 0 (8.19.2) and so reads vertex -1 + 0 too
    draw.index_buffer = Some(IndexBufferBinding {
        data: vec![0, 0, 1, 0].into(),
        format: IndexFormat::R16Uint,
        offset: 0,
    });
    draw.call = DrawCall::DrawIndexed {
        index_count: 3,
        start_index: 0,
        base_vertex: -1,
    };
    let ia = InputAssembler::new(&draw, &sig, read_zero).unwrap();
    assert_eq!(ia.vertices(), &Vertices::Indexed { values: vec![0, 1] });
    let inputs = ia.fetch_instance(0).unwrap();
    assert_eq!(inputs.get(0, 0), Some([0, 0, 0, ONE]));
    // index 1 + base -1 = vertex 0: in bounds
    assert_eq!(inputs.get(1, 0), Some([5, 6, 0, ONE]));
    // a buffer offset past the vertex: the address is below the offset after wrapping -> out of bounds
    draw.vertex_buffers[0] = buffer(words_le(&[5, 6, 7, 8]), 8, 8);
    draw.call = DrawCall::DrawIndexed {
        index_count: 2,
        start_index: 0,
        base_vertex: -1,
    };
    let ia = InputAssembler::new(&draw, &sig, read_zero).unwrap();
    let inputs = ia.fetch_instance(0).unwrap();
    // index 1 - 1 = vertex 0 at 8: (7, 8); index 0 - 1 = vertex 0xffffffff at 8 - 8 = 0, below the offset: zeros
    assert_eq!(inputs.get(0, 0), Some([0, 0, 0, ONE]));
    assert_eq!(inputs.get(1, 0), Some([7, 8, 0, ONE]));
}

#[test]
fn fetching_past_the_vertices_or_instances_is_an_error() {
    let draw = position_draw(48, 16, 0, draw_call(3));
    let ia = InputAssembler::new(&draw, &position_sig(), Options::default()).unwrap();
    let mut out = VertexInputs::default();
    assert!(ia.fetch(1, 0..3, &mut out).is_err());
    assert!(ia.fetch(0, 2..4, &mut out).is_err());
    assert!(ia.fetch(0, 0..3, &mut out).is_ok());
    assert_eq!((out.vertex_count(), out.register_count()), (3, 1));
}

/// The patches of `draw` as (control points' vertex IDs, primitive ID).
fn patches_of(draw: &DrawState) -> Vec<(Vec<u32>, u32)> {
    let options = Options {
        points_and_lines: true,
        ..Options::default()
    };
    let ia = InputAssembler::new(draw, &signature(vec![]), options).unwrap();
    assert_eq!(
        ia.primitives().count(),
        0,
        "a patch list gives no points, lines or triangles"
    );
    let mut walk = ia.primitives();
    let mut points = Vec::new();
    let mut out = Vec::new();
    while let Some(id) = walk.next_patch(&mut points) {
        let ids = points
            .iter()
            .map(|v| ia.vertices().vertex_id(*v as usize).unwrap())
            .collect();
        out.push((ids, id));
    }
    assert_eq!(ia.primitive_count(), out.len() as u64);
    out
}

#[test]
fn a_patch_list_groups_control_points_and_a_cut_drops_a_partial_patch() {
    // 8.10: N vertices a patch; 7 vertices of 3-point patches make 2 patches, the last vertex left over
    let mut draw = position_draw(7 * 16, 16, 0, draw_call(7));
    draw.topology = PrimitiveTopology::PatchList3;
    assert_eq!(patches_of(&draw), [(vec![0, 1, 2], 0), (vec![3, 4, 5], 1)]);
    // 8.12/8.13: the cut value ends a partly read patch, which is dropped; IDs count the patches made
    let draw = indexed_draw(&[4, 5, 0xFFFF, 6, 7, 8, 9, 1, 2, 3, 3], PrimitiveTopology::PatchList4);
    assert_eq!(patches_of(&draw), [(vec![6, 7, 8, 9], 0), (vec![1, 2, 3, 3], 1)]);
    // 32 control points, the most (8.10)
    let mut draw = position_draw(64 * 16, 16, 0, draw_call(64));
    draw.topology = PrimitiveTopology::PatchList32;
    let patches = patches_of(&draw);
    assert_eq!(patches.len(), 2);
    assert_eq!(patches[1].0, (32..64).collect::<Vec<u32>>());
}

/// The geometry program's input primitives of `draw` as (vertex IDs of `v[0]`, `v[1]`..., primitive ID).
fn geometry_inputs(draw: &DrawState) -> Vec<(Vec<u32>, u32)> {
    let options = Options {
        points_and_lines: true,
        ..Options::default()
    };
    let ia = InputAssembler::new(draw, &signature(vec![]), options).unwrap();
    let mut walk = ia.primitives();
    let mut out = Vec::new();
    while let Some(input) = walk.next_for_geometry() {
        let ids = input.vertices[..input.count]
            .iter()
            .map(|v| ia.vertices().vertex_id(*v as usize).unwrap())
            .collect();
        out.push((ids, input.primitive.id));
    }
    out
}

#[test]
fn a_triangle_strip_with_adjacency_reaches_the_geometry_program_as_13_10s_figures_show() {
    // 13.10's figure "GS invocations from TriStrip w/Adjacency": a strip of 10 vertices, three invocations with
    // v[0..6] = 0 1 2 6 4 3, then 2 5 6 8 4 0, then 4 2 6 9 8 7 (read off the figure)
    let strip = |n: u16| indexed_draw(&(0..n).collect::<Vec<u16>>(), PrimitiveTopology::TriangleStripAdj);
    let figure = [
        (vec![0, 1, 2, 6, 4, 3], 0),
        (vec![2, 5, 6, 8, 4, 0], 1),
        (vec![4, 2, 6, 9, 8, 7], 2),
    ];
    assert_eq!(geometry_inputs(&strip(10)), figure);
    // its "incomplete" twin: a dangling vertex 10 changes nothing
    assert_eq!(geometry_inputs(&strip(11)), figure);
    // with a vertex 11, 10 joins the 4th triangle (6, 8, 10; the figure's note): the 3rd's far neighbour is 10 now,
    // and the 4th (odd, wound the other way) is 6, 9, 10, 11, 8, 4 (its neighbours 9, 11 (the strip's end), 4)
    let mut twelve = figure.to_vec();
    twelve[2] = (vec![4, 2, 6, 10, 8, 7], 2);
    twelve.push((vec![6, 9, 10, 11, 8, 4], 3));
    assert_eq!(geometry_inputs(&strip(12)), twelve);
    // one triangle alone: its neighbours are 1, 5, 3; fewer than 6 vertices make none
    assert_eq!(geometry_inputs(&strip(6)), [(vec![0, 1, 2, 5, 4, 3], 0)]);
    assert_eq!(geometry_inputs(&strip(5)), []);
    // a cut ends a strip (its last triangle then) and starts another; primitive IDs go on (8.6.2)
    let draw = indexed_draw(
        &[0, 1, 2, 3, 4, 5, 6, 7, 0xffff, 20, 21, 22, 23, 24, 25],
        PrimitiveTopology::TriangleStripAdj,
    );
    assert_eq!(
        geometry_inputs(&draw),
        [
            (vec![0, 1, 2, 6, 4, 3], 0),
            (vec![2, 5, 6, 7, 4, 0], 1),
            (vec![20, 21, 22, 25, 24, 23], 2)
        ]
    );
}

#[test]
fn without_tessellation_a_patch_is_one_geometry_program_input() {
    // 11.8.1.1: the GS sees a patch's control points as its input vertices; a cut drops a partial patch (8.13)
    let draw = indexed_draw(
        &[4, 5, 0xFFFF, 6, 7, 8, 9, 1, 2, 3, 3, 7],
        PrimitiveTopology::PatchList4,
    );
    assert_eq!(geometry_inputs(&draw), [(vec![6, 7, 8, 9], 0), (vec![1, 2, 3, 3], 1)]);
    // and the other topologies as before: a line strip with adjacency's line k is vertices k..k+3
    let draw = indexed_draw(&[0, 1, 2, 3, 4], PrimitiveTopology::LineStripAdj);
    assert_eq!(geometry_inputs(&draw), [(vec![0, 1, 2, 3], 0), (vec![1, 2, 3, 4], 1)]);
    let draw = indexed_draw(&(0..12).collect::<Vec<u16>>(), PrimitiveTopology::TriangleListAdj);
    assert_eq!(
        geometry_inputs(&draw),
        [(vec![0, 1, 2, 3, 4, 5], 0), (vec![6, 7, 8, 9, 10, 11], 1)]
    );
}
