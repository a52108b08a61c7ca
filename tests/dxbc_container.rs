//! The DXBC container, its checksum, signature and reflection chunks, checked against blobs the real compiler made
//! (`fixtures/dxbc-container/`, Wine's D3DCompile = vkd3d-shader 1.14). Expected values come from the HLSL sources,
//! worked out by hand in the comments, from the chunk layouts, or from the compiler's own stored checksums; where the
//! compiler departs from fxc (Microsoft's compiler) the comment says so and the test follows the blob.

// Test code: helpers outside #[test] functions may index, compute and panic too.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used
)]

use iridia::dxbc::container::{dxbc_checksum, write_container};
use iridia::dxbc::reflection::{
    CbufferType, InputFlags, InputType, ProgramType, Reflection, ReturnType, ShaderType, SrvDimension, Statistics,
    VariableClass, VariableFlags, VariableType,
};
use iridia::dxbc::signature::{
    ComponentType, MinPrecision, NameTable, Signature, SignatureElement, SignatureKind, SystemValue,
};
use iridia::dxbc::{Container, FourCc, Verify};

const FIXTURES: [&str; 15] = [
    "ps40_depth",
    "ps40_longname",
    "ps40_minimal",
    "ps40_targets",
    "ps41_load",
    "ps50_cbuffers",
    "ps50_defaults",
    "ps50_frontface",
    "ps50_primid",
    "ps50_sampleindex",
    "ps50_textures",
    "vs40_ids",
    "vs40_transform",
    "vs41_many",
    "vs50_structs",
];

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/dxbc-container/{name}.dxbc", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn listing(name: &str) -> String {
    let path = format!("{}/fixtures/dxbc-container/{name}.asm", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn dword(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

// ---------------------------------------------------------------------------------------------------------------
// Container and checksum
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn every_compiler_blob_carries_the_checksum_we_compute() {
    // The compiler's stored checksum is the external reference for the MD5 variant. The fixtures are chosen so that
    // the bytes after the whole 64-byte blocks, (size - 20) % 64, cover 0, values under 56 and values of 56 or more:
    // the three ways the last block is laid out.
    let mut remainders = Vec::new();
    for name in FIXTURES {
        let blob = fixture(name);
        let stored: [u8; 16] = blob[4..20].try_into().unwrap();
        assert_eq!(dxbc_checksum(&blob[20..]), stored, "{name}");
        let container = Container::parse(&blob, Verify::Checksum).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(container.checksum, stored, "{name}");
        remainders.push((blob.len() - 20) % 64);
    }
    assert!(remainders.contains(&0), "{remainders:?}");
    assert!(remainders.iter().any(|&r| r > 0 && r < 56), "{remainders:?}");
    assert!(remainders.contains(&56), "{remainders:?}");
    assert!(remainders.iter().any(|&r| r > 56), "{remainders:?}");
}

#[test]
fn a_changed_byte_fails_the_checksum_naming_both_values() {
    let blob = fixture("ps40_minimal");
    let mut bad = blob.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x01; // inside the STAT chunk, the last chunk
    let err = Container::parse(&bad, Verify::Checksum).unwrap_err();
    assert_eq!(err.what, "DXBC");
    assert_eq!(err.at, "byte 0x4");
    let stored: String = blob[4..20].iter().map(|b| format!("{b:02x}")).collect();
    let computed: String = dxbc_checksum(&bad[20..]).iter().map(|b| format!("{b:02x}")).collect();
    assert_ne!(stored, computed);
    assert_eq!(
        err.detail,
        format!("checksum mismatch: stored {stored}, computed {computed}")
    );
    // The same bytes parse when the checksum is not checked.
    assert!(Container::parse(&bad, Verify::Skip).is_ok());
}

#[test]
fn a_hand_made_blob_with_no_checksum_parses_only_when_told_to_skip_it() {
    // 32-byte header + one offset + one 8-byte chunk with 4 data bytes = 48 bytes.
    let mut blob = Vec::new();
    blob.extend_from_slice(b"DXBC");
    blob.extend_from_slice(&[0; 16]);
    for v in [1u32, 48, 1, 36] {
        blob.extend_from_slice(&v.to_le_bytes());
    }
    blob.extend_from_slice(b"ABCD");
    blob.extend_from_slice(&4u32.to_le_bytes());
    blob.extend_from_slice(&[9, 8, 7, 6]);
    assert!(
        Container::parse(&blob, Verify::Checksum)
            .unwrap_err()
            .detail
            .starts_with("checksum mismatch")
    );
    let c = Container::parse(&blob, Verify::Skip).unwrap();
    assert_eq!(c.chunks.len(), 1);
    assert_eq!(c.chunks[0].fourcc, FourCc(*b"ABCD"));
    assert_eq!(c.chunks[0].offset, 36);
    assert_eq!(c.chunks[0].data, &[9, 8, 7, 6]);
    assert_eq!(c.program_chunk(), None);
    assert_eq!(c.reflection().unwrap(), None);
    assert_eq!(c.input_signature().unwrap(), None);
}

#[test]
fn the_chunk_table_lists_the_compiler_chunks_where_their_sizes_put_them() {
    // vkd3d writes ISGN, OSGN, RDEF, SHDR, STAT back to back after the 32-byte header and 5 offsets: the first
    // chunk at 32 + 5 * 4 = 52. ISGN holds 8 header bytes, 3 elements of 24 bytes and the names POSITION\0 (9 bytes,
    // padded to 12), TEXCOORD\0 (12) and NORMAL\0 (7, padded to 8): 8 + 72 + 32 = 112 bytes, so OSGN starts at
    // 52 + 8 + 112 = 172. OSGN: 8 + 72 + SV_Position\0 (12) + TEXCOORD\0 twice (12 + 12) = 116, so RDEF is at
    // 172 + 8 + 116 = 296.
    let blob = fixture("vs40_transform");
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    let codes: Vec<FourCc> = c.chunks.iter().map(|ch| ch.fourcc).collect();
    assert_eq!(
        codes,
        [FourCc::ISGN, FourCc::OSGN, FourCc::RDEF, FourCc::SHDR, FourCc::STAT]
    );
    assert_eq!(c.chunks[0].offset, 52);
    assert_eq!(c.chunks[0].data.len(), 112);
    assert_eq!(c.chunks[1].offset, 172);
    assert_eq!(c.chunks[1].data.len(), 116);
    assert_eq!(c.chunks[2].offset, 296);
    assert_eq!(c.chunks[2].data_offset(), 304);
    // Every chunk ends where the next begins, and the last at the end of the blob.
    for pair in c.chunks.windows(2) {
        assert_eq!(pair[0].data_offset() + pair[0].data.len(), pair[1].offset);
    }
    let last = c.chunks.last().unwrap();
    assert_eq!(last.data_offset() + last.data.len(), blob.len());
}

#[test]
fn the_program_chunk_is_the_compiler_shdr_with_its_version_token() {
    // The program's first DWORD is its version token (d3d12tokenizedprogramformat.hpp: program type in bits 16..32,
    // 0 = pixel, 1 = vertex; major version in bits 4..8; minor in 0..4). vkd3d writes SM5 code as SHDR too.
    for (name, version) in [
        ("ps40_minimal", 0x0000_0040),
        ("ps41_load", 0x0000_0041),
        ("ps50_textures", 0x0000_0050),
        ("vs40_ids", 0x0001_0040),
        ("vs41_many", 0x0001_0041),
        ("vs50_structs", 0x0001_0050),
    ] {
        let blob = fixture(name);
        let c = Container::parse(&blob, Verify::Checksum).unwrap();
        let (fourcc, program) = c.program_chunk().unwrap();
        assert_eq!(fourcc, FourCc::SHDR, "{name}");
        assert_eq!(dword(program, 0), version, "{name}");
        // The second DWORD is the program's length in DWORDs: the whole chunk.
        assert_eq!(dword(program, 4) as usize * 4, program.len(), "{name}");
    }
}

#[test]
fn writing_the_parsed_chunks_gives_back_every_compiler_blob() {
    for name in FIXTURES {
        let blob = fixture(name);
        let c = Container::parse(&blob, Verify::Checksum).unwrap();
        assert_eq!(c.write().unwrap(), blob, "{name}");
    }
}

#[test]
fn the_writer_keeps_unknown_chunks_and_pads_odd_sizes() {
    // Three chunks: 5 data bytes (padded to 8), 0 bytes, 4 bytes. Header 32 + 3 offsets = 44; the first chunk at 44
    // takes 8 + 8 = 16 bytes, the second at 60 takes 8, the third at 68 takes 12: 80 bytes in all.
    let blob = write_container(&[
        (FourCc(*b"XYZ1"), &[1, 2, 3, 4, 5]),
        (FourCc(*b"XYZ2"), &[]),
        (FourCc::SFI0, &[0, 0, 0, 0]),
    ])
    .unwrap();
    assert_eq!(blob.len(), 80);
    assert_eq!(dword(&blob, 24), 80);
    assert_eq!(dword(&blob, 28), 3);
    assert_eq!([dword(&blob, 32), dword(&blob, 36), dword(&blob, 40)], [44, 60, 68]);
    assert_eq!(&blob[44..53], b"XYZ1\x05\0\0\0\x01");
    assert_eq!(&blob[52..60], &[1, 2, 3, 4, 5, 0, 0, 0]);
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    assert_eq!(c.chunks[0].data, &[1, 2, 3, 4, 5]);
    assert_eq!(c.chunks[1].data, &[] as &[u8]);
    assert_eq!(c.chunk(FourCc::SFI0).unwrap().offset, 68);
    // A 4-byte SFI0 is not the 8 bytes the chunk has.
    let err = c.feature_flags().unwrap_err();
    assert_eq!(err.at, "byte 0x4c"); // 68 + 8
}

#[test]
fn unknown_chunks_are_kept_and_the_known_ones_still_parse() {
    let blob = fixture("ps40_depth");
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    let mut chunks: Vec<(FourCc, &[u8])> = vec![(FourCc(*b"Zzz\x01"), b"unknown!")];
    chunks.extend(c.chunks.iter().map(|ch| (ch.fourcc, ch.data)));
    let with_unknown = write_container(&chunks).unwrap();
    let c2 = Container::parse(&with_unknown, Verify::Checksum).unwrap();
    assert_eq!(c2.chunks[0].fourcc, FourCc(*b"Zzz\x01"));
    assert_eq!(c2.chunks[0].data, b"unknown!");
    assert_eq!(c2.chunks[0].fourcc.to_string(), "Zzz\\x01");
    assert_eq!(c2.input_signature().unwrap(), c.input_signature().unwrap());
    assert_eq!(c2.reflection().unwrap(), c.reflection().unwrap());
    assert_eq!(c2.program_chunk(), c.program_chunk());
}

#[test]
fn header_errors_name_the_byte_and_the_problem() {
    let blob = fixture("ps40_minimal");
    let parse = |b: &[u8]| Container::parse(b, Verify::Skip).unwrap_err();

    let e = parse(&blob[..31]);
    assert_eq!(
        (e.at.as_str(), e.detail.as_str()),
        (
            "byte 0x1f",
            "the 31 bytes given are fewer than the 32-byte container header"
        )
    );

    let mut b = blob.clone();
    b[0..4].copy_from_slice(b"DXBD");
    let e = parse(&b);
    assert_eq!(
        (e.at.as_str(), e.detail.as_str()),
        ("byte 0x0", "bad magic 'DXBD', expected 'DXBC'")
    );

    let mut b = blob.clone();
    b[20] = 2;
    let e = parse(&b);
    assert_eq!(
        (e.at.as_str(), e.detail.as_str()),
        ("byte 0x14", "container version 2, expected 1")
    );

    // ps40_minimal is 380 bytes.
    assert_eq!(blob.len(), 380);
    let e = parse(&blob[..376]);
    assert_eq!(
        (e.at.as_str(), e.detail.as_str()),
        (
            "byte 0x18",
            "the header's total size 380 differs from the 376 bytes given"
        )
    );

    // 0xFFFFFFFF chunks cannot fit in the 348 bytes after the header.
    let mut b = blob.clone();
    b[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x1c");
    assert!(
        e.detail.starts_with("the chunk count 4294967295 needs at least"),
        "{}",
        e.detail
    );

    // The 2nd offset (entry at 32 + 4) pointed past the end.
    let mut b = blob.clone();
    b[36..40].copy_from_slice(&400u32.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x24");
    assert_eq!(
        e.detail,
        "chunk 1's offset 0x190 leaves no room for its 8-byte header before the end at 0x17c"
    );

    // An offset into the header and table (5 chunks: the table ends at 32 + 20 = 52 = 0x34).
    let mut b = blob.clone();
    b[32..36].copy_from_slice(&8u32.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x20");
    assert_eq!(
        e.detail,
        "chunk 0's offset 0x8 lies inside the header and offset table (which end at 0x34)"
    );

    // A chunk size past the end: the first chunk (ISGN at 52) claims 0x7FFFFFFF bytes.
    let mut b = blob.clone();
    b[56..60].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x38");
    assert_eq!(
        e.detail,
        format!(
            "chunk 0 ('ISGN') declares 2147483647 bytes but only {} remain",
            380 - 60
        )
    );

    // Two offsets naming the same chunk overlap.
    let mut b = blob.clone();
    let first = dword(&b, 32);
    b[36..40].copy_from_slice(&first.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x34");
    assert!(e.detail.contains("overlaps"), "{}", e.detail);

    // A chunk whose size runs into the next: ISGN (8 data bytes at 60) grown by 4 overlaps OSGN at 68.
    let mut b = blob.clone();
    b[56..60].copy_from_slice(&12u32.to_le_bytes());
    let e = parse(&b);
    assert_eq!(e.at, "byte 0x44");
    assert_eq!(
        e.detail,
        "chunk 1 ('OSGN') overlaps chunk 0 ('ISGN'), which runs from 0x34 to 0x48"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------------------------

/// An expected element: semantic name and index, stored system value, component type, register, mask, rw mask.
type Expected = (&'static str, u32, u32, u32, u32, u8, u8);

const NO_REGISTER: u32 = 0xffff_ffff;
const F: u32 = 3; // float32
const U: u32 = 1; // uint32
const S: u32 = 2; // sint32

fn check_signature(name: &str, sig: &Signature, expected: &[Expected]) {
    let got: Vec<Expected> = sig
        .elements
        .iter()
        .map(|e| {
            let n: &'static str = Box::leak(e.semantic_name.clone().into_boxed_str());
            (
                n,
                e.semantic_index,
                e.system_value.0,
                e.component_type.0,
                e.register,
                e.mask,
                e.rw_mask,
            )
        })
        .collect();
    assert_eq!(got, expected, "{name} {:?}", sig.kind);
    for e in &sig.elements {
        assert_eq!(e.stream, 0);
        assert_eq!(e.min_precision, MinPrecision::DEFAULT);
    }
}

fn signatures(name: &str) -> (Signature, Signature) {
    let blob = fixture(name);
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    (
        c.input_signature().unwrap().unwrap(),
        c.output_signature().unwrap().unwrap(),
    )
}

// How the expected registers and masks below follow from the HLSL (fxc's and vkd3d's rules):
// - Elements take registers in declaration order (parameters, then the return value), each from the lowest free
//   component. An element shares the previous element's register when it fits in the components left and has the
//   same component type and interpolation mode; otherwise it starts the next register.
// - SV_TargetN is register N. SV_Depth has no register (0xFFFFFFFF) and one component.
// - The mask is the element's components; the rw mask of an input is the components the program reads (vkd3d's
//   unoptimised code copies every input whole, so all of them), of an output the components of the register the
//   element never writes: 0xF & !mask, as every output here is written whole.
// - The stored system value is D3D_NAME's for SV_Position (1), SV_RenderTargetArrayIndex (4),
//   SV_ViewportArrayIndex (5), SV_VertexID (6), SV_PrimitiveID (7), SV_InstanceID (8), SV_IsFrontFace (9),
//   SV_SampleIndex (10); 0 for pixel outputs and ordinary semantics.

#[test]
fn vertex_signatures_follow_the_declarations() {
    let (i, o) = signatures("vs40_transform");
    check_signature(
        "vs40_transform",
        &i,
        &[
            ("POSITION", 0, 0, F, 0, 0xf, 0xf),
            ("TEXCOORD", 0, 0, F, 1, 0x3, 0x3),
            ("NORMAL", 0, 0, F, 2, 0x7, 0x7),
        ],
    );
    check_signature(
        "vs40_transform",
        &o,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0x0),
            ("TEXCOORD", 0, 0, F, 1, 0x3, 0xc),
            ("TEXCOORD", 1, 0, F, 2, 0x7, 0x8),
        ],
    );
    assert_eq!(i.kind, SignatureKind::Isgn);
    assert_eq!(o.kind, SignatureKind::Osgn);

    let (i, o) = signatures("vs40_ids");
    check_signature(
        "vs40_ids",
        &i,
        &[("SV_VertexID", 0, 6, U, 0, 1, 1), ("SV_InstanceID", 0, 8, U, 1, 1, 1)],
    );
    // The out parameter COLOR1 comes before the return value SV_Position.
    check_signature(
        "vs40_ids",
        &o,
        &[("COLOR", 1, 0, F, 0, 0xf, 0), ("SV_Position", 0, 1, F, 1, 0xf, 0)],
    );

    // TEXCOORD2 (float2) takes r3.xy and TEXCOORD3 (float) packs beside it in r3.z; BLENDINDICES5 is a uint, so it
    // does not join the floats in r3.w but starts r4.
    let (i, o) = signatures("vs41_many");
    check_signature(
        "vs41_many",
        &i,
        &[("POSITION", 0, 0, F, 0, 0x7, 0x7), ("SV_VertexID", 0, 6, U, 1, 1, 1)],
    );
    check_signature(
        "vs41_many",
        &o,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0x0),
            ("TEXCOORD", 0, 0, F, 1, 0xf, 0x0),
            ("TEXCOORD", 1, 0, F, 2, 0x7, 0x8),
            ("TEXCOORD", 2, 0, F, 3, 0x3, 0xc),
            ("TEXCOORD", 3, 0, F, 3, 0x4, 0xb),
            ("BLENDINDICES", 5, 0, U, 4, 0x1, 0xe),
            ("COLOR", 2, 0, S, 5, 0xf, 0x0),
        ],
    );

    let (i, o) = signatures("vs50_structs");
    check_signature("vs50_structs", &i, &[("POSITION", 0, 0, F, 0, 0xf, 0xf)]);
    check_signature("vs50_structs", &o, &[("SV_Position", 0, 1, F, 0, 0xf, 0)]);
}

#[test]
fn pixel_signatures_follow_the_declarations() {
    // Four targets: float4, uint4, int2, float.
    let (i, o) = signatures("ps40_targets");
    check_signature(
        "ps40_targets",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("COLOR", 0, 0, F, 1, 0xf, 0xf),
            ("BLENDINDICES", 0, 0, U, 2, 1, 1),
        ],
    );
    check_signature(
        "ps40_targets",
        &o,
        &[
            ("SV_Target", 0, 0, F, 0, 0xf, 0x0),
            ("SV_Target", 1, 0, U, 1, 0xf, 0x0),
            ("SV_Target", 2, 0, S, 2, 0x3, 0xc),
            ("SV_Target", 3, 0, F, 3, 0x1, 0xe),
        ],
    );
    for e in &o.elements {
        assert_eq!(e.d3d_name(), SystemValue::TARGET);
    }

    let (i, o) = signatures("ps40_depth");
    check_signature(
        "ps40_depth",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("TEXCOORD", 3, 0, F, 1, 0x3, 0x3),
        ],
    );
    check_signature(
        "ps40_depth",
        &o,
        &[
            ("SV_Target", 0, 0, F, 0, 0xf, 0x0),
            ("SV_Depth", 0, 0, F, NO_REGISTER, 0x1, 0xe),
        ],
    );
    assert_eq!(o.elements[1].d3d_name(), SystemValue::DEPTH);
    assert_eq!(o.elements[1].d3d_name().name(), Some("DEPTH"));
    assert_eq!(i.elements[0].d3d_name(), SystemValue::POSITION);
    assert_eq!(i.elements[1].d3d_name(), SystemValue::UNDEFINED);

    let (i, o) = signatures("ps40_minimal");
    check_signature("ps40_minimal", &i, &[]);
    check_signature("ps40_minimal", &o, &[("SV_Target", 0, 0, F, 0, 0xf, 0)]);

    let (i, _) = signatures("ps40_longname");
    check_signature(
        "ps40_longname",
        &i,
        &[("A_LONG_SEMANTIC_NAME_FOR_MD5X", 0, 0, F, 0, 0xf, 0xf)],
    );

    // nointerpolation int2 TEXCOORD0.
    let (i, _) = signatures("ps41_load");
    check_signature(
        "ps41_load",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("TEXCOORD", 0, 0, S, 1, 0x3, 0x3),
        ],
    );

    // Four interpolation modes: linear (position), constant, noperspective, centroid; none shares a register.
    let (i, _) = signatures("ps50_frontface");
    check_signature(
        "ps50_frontface",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("COLOR", 0, 0, F, 1, 0xf, 0xf),
            ("TEXCOORD", 0, 0, F, 2, 0x3, 0x3),
            ("TEXCOORD", 1, 0, F, 3, 0x1, 0x1),
            ("SV_IsFrontFace", 0, 9, U, 4, 0x1, 0x1),
        ],
    );

    // Three uint system values pack into r1.x, r1.y, r1.z.
    let (i, _) = signatures("ps50_primid");
    check_signature(
        "ps50_primid",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("SV_PrimitiveID", 0, 7, U, 1, 0x1, 0x1),
            ("SV_RenderTargetArrayIndex", 0, 4, U, 1, 0x2, 0x2),
            ("SV_ViewportArrayIndex", 0, 5, U, 1, 0x4, 0x4),
        ],
    );

    let (i, o) = signatures("ps50_sampleindex");
    check_signature(
        "ps50_sampleindex",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("SV_SampleIndex", 0, 10, U, 1, 1, 1),
        ],
    );
    check_signature(
        "ps50_sampleindex",
        &o,
        &[
            ("SV_Target", 0, 0, F, 0, 0xf, 0),
            ("SV_Target", 1, 0, F, 1, 0xf, 0),
            ("SV_Depth", 0, 0, F, NO_REGISTER, 0x1, 0xe),
        ],
    );

    let (i, _) = signatures("ps50_textures");
    check_signature(
        "ps50_textures",
        &i,
        &[
            ("SV_Position", 0, 1, F, 0, 0xf, 0xf),
            ("TEXCOORD", 0, 0, F, 1, 0x7, 0x7),
        ],
    );
    let (i, _) = signatures("ps50_cbuffers");
    check_signature(
        "ps50_cbuffers",
        &i,
        &[("SV_Position", 0, 1, F, 0, 0xf, 0xf), ("NORMAL", 0, 0, F, 1, 0x7, 0x7)],
    );
}

#[test]
fn writing_a_parsed_compiler_signature_gives_back_its_bytes() {
    let mut checked = 0;
    for name in FIXTURES {
        let blob = fixture(name);
        let c = Container::parse(&blob, Verify::Checksum).unwrap();
        for chunk in &c.chunks {
            let Some(kind) = SignatureKind::from_fourcc(chunk.fourcc) else {
                continue;
            };
            let sig = Signature::parse(kind, chunk.data).unwrap();
            assert_eq!(
                sig.write(NameTable::PerElement).unwrap(),
                chunk.data,
                "{name} {}",
                chunk.fourcc
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * FIXTURES.len());
}

fn element(name: &str, index: u32, register: u32, mask: u8, stream: u32, precision: MinPrecision) -> SignatureElement {
    SignatureElement {
        semantic_name: name.to_owned(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask,
        rw_mask: mask,
        stream,
        min_precision: precision,
    }
}

#[test]
fn every_signature_kind_writes_and_parses_back_to_equal_fields() {
    for kind in [
        SignatureKind::Isgn,
        SignatureKind::Osgn,
        SignatureKind::Osg5,
        SignatureKind::Isg1,
        SignatureKind::Osg1,
        SignatureKind::Pcsg,
        SignatureKind::Psg1,
    ] {
        let stream = if kind.has_stream() { 2 } else { 0 };
        let precision = if kind.has_min_precision() {
            MinPrecision::FLOAT_16
        } else {
            MinPrecision::DEFAULT
        };
        let mut elements = vec![
            element("TEXCOORD", 0, 0, 0x3, stream, precision),
            element("TEXCOORD", 1, 0, 0xc, 0, MinPrecision::DEFAULT),
            element("SV_TessFactor", 2, 3, 0x1, stream, precision),
            element("A", 7, 4, 0xf, 0, precision),
        ];
        elements[2].system_value = SystemValue::FINAL_QUAD_EDGE_TESSFACTOR;
        elements[3].component_type = ComponentType::SINT32;
        let sig = Signature { kind, elements };
        for names in [NameTable::PerElement, NameTable::Shared] {
            let bytes = sig.write(names).unwrap();
            assert_eq!(Signature::parse(kind, &bytes).unwrap(), sig, "{kind:?} {names:?}");
            // 8 header bytes, 4 elements, then the names: TEXCOORD\0 is 12 bytes padded, SV_TessFactor\0 16, A\0 4.
            let table = 8 + 4 * kind.element_size();
            let names_len = match names {
                NameTable::PerElement => 12 + 12 + 16 + 4,
                NameTable::Shared => 12 + 16 + 4,
            };
            assert_eq!(bytes.len(), table + names_len, "{kind:?} {names:?}");
        }
    }
}

#[test]
fn an_isg1_element_reads_stream_first_and_min_precision_last() {
    // Built by hand: count 1, table at 8, one 32-byte element, then "COLOR\0" + two pad bytes at 40.
    let mut data = Vec::new();
    for v in [
        1u32, 8, /* stream */ 1, /* name */ 40, /* index */ 2, /* sysval */ 0, /* type */ 2,
        /* register */ 5,
    ] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&[0x6, 0x2, 0, 0]); // mask yz, reads y
    data.extend_from_slice(&4u32.to_le_bytes()); // min16int
    data.extend_from_slice(b"COLOR\0\xab\xab");
    let sig = Signature::parse(SignatureKind::Isg1, &data).unwrap();
    let e = &sig.elements[0];
    assert_eq!(
        (
            e.stream,
            e.semantic_name.as_str(),
            e.semantic_index,
            e.component_type,
            e.register
        ),
        (1, "COLOR", 2, ComponentType::SINT32, 5)
    );
    assert_eq!((e.mask, e.rw_mask, e.min_precision), (0x6, 0x2, MinPrecision::SINT_16));
    assert_eq!(e.min_precision.name(), Some("SINT_16"));
    // The writer lays it out the same way.
    assert_eq!(sig.write(NameTable::PerElement).unwrap(), data);

    // OSG5: the same element without the minimum precision, 28 bytes, the name at 36.
    let mut osg5 = data[..36].to_vec();
    osg5[12..16].copy_from_slice(&36u32.to_le_bytes());
    osg5.extend_from_slice(b"COLOR\0\xab\xab");
    let sig = Signature::parse(SignatureKind::Osg5, &osg5).unwrap();
    assert_eq!((sig.elements[0].stream, sig.elements[0].register), (1, 5));
    assert_eq!(sig.elements[0].min_precision, MinPrecision::DEFAULT);
}

#[test]
fn fields_a_chunk_kind_cannot_hold_are_refused_by_the_writer() {
    let sig = Signature {
        kind: SignatureKind::Osgn,
        elements: vec![element("A", 0, 0, 1, 1, MinPrecision::DEFAULT)],
    };
    let e = sig.write(NameTable::PerElement).unwrap_err();
    assert_eq!((e.what.as_str(), e.at.as_str()), ("DXBC OSGN writer", "element 0"));
    assert_eq!(e.detail, "stream 1 cannot be stored in a OSGN chunk");
    let sig = Signature {
        kind: SignatureKind::Osg5,
        elements: vec![element("A", 0, 0, 1, 1, MinPrecision::ANY_16)],
    };
    assert!(
        sig.write(NameTable::PerElement)
            .unwrap_err()
            .detail
            .contains("minimum precision 240")
    );
    let sig = Signature {
        kind: SignatureKind::Isgn,
        elements: vec![element("A\0B", 0, 0, 1, 0, MinPrecision::DEFAULT)],
    };
    assert!(sig.write(NameTable::PerElement).unwrap_err().detail.contains("NUL"));
}

#[test]
fn pixel_outputs_stored_as_undefined_report_their_d3d_name() {
    // D3D11 reflection derives these from the name when the stored value is 0 (any case).
    let mut e = element("sv_depthgreaterequal", 0, NO_REGISTER, 1, 0, MinPrecision::DEFAULT);
    assert_eq!(e.d3d_name(), SystemValue::DEPTH_GREATER_EQUAL);
    e.semantic_name = "SV_DepthLessEqual".into();
    assert_eq!(e.d3d_name(), SystemValue(68));
    e.semantic_name = "SV_COVERAGE".into();
    assert_eq!(e.d3d_name(), SystemValue(66));
    e.semantic_name = "SV_StencilRef".into();
    assert_eq!(e.d3d_name(), SystemValue(69));
    e.semantic_name = "SV_ClipDistance".into();
    assert_eq!(e.d3d_name(), SystemValue::UNDEFINED);
    e.system_value = SystemValue::CLIP_DISTANCE;
    assert_eq!(e.d3d_name().name(), Some("CLIP_DISTANCE"));
    assert_eq!(SystemValue(17).name(), None);
}

#[test]
fn signature_errors_name_the_chunk_and_the_container_byte() {
    let blob = fixture("ps40_minimal");
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    let osgn = c.chunk(FourCc::OSGN).unwrap();
    // OSGN's data starts at 68 + 8 = 76: count 1 and table offset 8, one element whose name offset is 32.
    assert_eq!(osgn.data_offset(), 76);
    let mut data = osgn.data.to_vec();
    data[8..12].copy_from_slice(&1000u32.to_le_bytes());
    let e = Signature::parse(SignatureKind::Osgn, &data).unwrap_err();
    assert_eq!((e.what.as_str(), e.at.as_str()), ("DXBC OSGN chunk", "byte 0x8"));
    assert_eq!(
        e.detail,
        "the offset 0x3e8 of the semantic name of element 0 lies past the end of the 44-byte chunk"
    );

    let mut data = osgn.data.to_vec();
    data[0..4].copy_from_slice(&2u32.to_le_bytes()); // 8 + 2 * 24 = 56 > 44
    let e = Signature::parse(SignatureKind::Osgn, &data).unwrap_err();
    assert_eq!(e.at, "byte 0x0");
    assert_eq!(
        e.detail,
        "2 elements of 24 bytes at 0x8 need more than the 44 bytes of the chunk"
    );

    // Through the container the place is the container's byte: the count at 76 = 0x4c.
    let mut patched = blob.clone();
    patched[76..80].copy_from_slice(&2u32.to_le_bytes());
    let c = Container::parse(&patched, Verify::Skip).unwrap();
    assert_eq!(c.output_signature().unwrap_err().at, "byte 0x4c");

    // A name with no NUL before the end of the chunk: the last byte of "SV_Target\0\xab\xab" made non-zero ...
    let mut data = osgn.data.to_vec();
    let n = data.len();
    data[n - 3] = b'!';
    data[n - 2] = b'!';
    data[n - 1] = b'!';
    let e = Signature::parse(SignatureKind::Osgn, &data).unwrap_err();
    assert_eq!(
        e.detail,
        "the semantic name of element 0 has no terminating NUL before the end of the chunk"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Reflection
// ---------------------------------------------------------------------------------------------------------------

fn reflection(name: &str) -> Reflection {
    let blob = fixture(name);
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    c.reflection().unwrap().unwrap()
}

fn assert_type(ty: &ShaderType, class: VariableClass, base: VariableType, rows: u16, columns: u16, elements: u16) {
    assert_eq!(
        (ty.class, ty.base, ty.rows, ty.columns, ty.elements),
        (class, base, rows, columns, elements),
        "{:?}",
        ty.name
    );
}

#[test]
fn rdef_headers_give_the_target_and_creator() {
    for (name, program, major, minor) in [
        ("ps40_minimal", ProgramType::PIXEL, 4, 0),
        ("ps41_load", ProgramType::PIXEL, 4, 1),
        ("ps50_textures", ProgramType::PIXEL, 5, 0),
        ("vs40_ids", ProgramType::VERTEX, 4, 0),
        ("vs41_many", ProgramType::VERTEX, 4, 1),
        ("vs50_structs", ProgramType::VERTEX, 5, 0),
    ] {
        let r = reflection(name);
        assert_eq!(
            (r.target.program_type(), r.target.major(), r.target.minor()),
            (program, major, minor),
            "{name}"
        );
        assert_eq!(r.creator, "vkd3d-shader 1.14 (Wine bundled)", "{name}");
        // The RD11 sub-header comes with SM5, with the record sizes of the layout (60, 24, 32, 40, 36, 12).
        match r.rd11 {
            Some(h) => {
                assert_eq!(major, 5, "{name}");
                assert_eq!(
                    (
                        h.header_size,
                        h.cbuffer_size,
                        h.binding_size,
                        h.variable_size,
                        h.type_size,
                        h.member_size
                    ),
                    (60, 24, 32, 40, 36, 12)
                );
            }
            None => assert_eq!(major, 4, "{name}"),
        }
    }
    assert_eq!(ProgramType::PIXEL.name(), Some("PIXEL"));
    // No resources at all in the minimal shader.
    let r = reflection("ps40_minimal");
    assert!(r.constant_buffers.is_empty() && r.bindings.is_empty());
}

#[test]
fn a_vs_4_0_cbuffer_holds_a_column_major_matrix_then_a_vector() {
    // cbuffer Globals : register(b0) { float4x4 world; float4 tint; }: world fills registers 0..3 (bytes 0..64),
    // tint register 4 (64..80); the buffer is 80 bytes.
    let r = reflection("vs40_transform");
    assert_eq!(r.constant_buffers.len(), 1);
    let cb = r.constant_buffer("Globals").unwrap();
    assert_eq!((cb.size, cb.kind), (80, CbufferType::CT_CBUFFER));
    let world = cb.variable("world").unwrap();
    assert_eq!((world.offset, world.size), (0, 64));
    assert!(world.flags.contains(VariableFlags::USED));
    assert_type(
        &world.ty,
        VariableClass::SVC_MATRIX_COLUMNS,
        VariableType::SVT_FLOAT,
        4,
        4,
        0,
    );
    let tint = cb.variable("tint").unwrap();
    assert_eq!((tint.offset, tint.size), (64, 16));
    assert_type(&tint.ty, VariableClass::SVC_VECTOR, VariableType::SVT_FLOAT, 1, 4, 0);
    // SM4 records have no type names and no SM5 resource fields.
    assert_eq!((world.ty.name.as_deref(), world.sm5_resources), (None, None));
    assert_eq!(world.default_value, None);
    let b = r.binding("Globals").unwrap();
    assert_eq!(
        (b.input_type, b.bind_point, b.bind_count),
        (InputType::SIT_CBUFFER, 0, 1)
    );
    assert!(b.flags.contains(InputFlags::USERPACKED)); // register(b0) was explicit
}

#[test]
fn sm5_cbuffers_pack_structs_arrays_and_matrices_by_the_hlsl_rules() {
    // HLSL packing: a variable starts at the next free byte unless it would cross a 16-byte register, in which case
    // it starts the next register; arrays, structs and matrices always start a register, each array element but
    // the last takes whole registers, and what follows a struct or array starts a register.
    //   view  float4x4 (column_major)  0..64
    //   rm    row_major float3x4       64..112 (three rows of 4)
    //   scale float2                   112..120
    //   bias  float                    120..124 (fits beside scale)
    //   lights Light[2]                128..192 (Light: dir 0..12, power 12..16, color 16..32; 32 bytes each)
    //   weights float[3]               192..228 (two whole registers, then 4 bytes)
    // The buffer is 228 rounded up to 16: 240.
    let r = reflection("ps50_cbuffers");
    let scene = r.constant_buffer("Scene").unwrap();
    assert_eq!(scene.size, 240);
    let layout: Vec<(&str, u32, u32)> = scene
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.offset, v.size))
        .collect();
    assert_eq!(
        layout,
        [
            ("view", 0, 64),
            ("rm", 64, 48),
            ("scale", 112, 8),
            ("bias", 120, 4),
            ("lights", 128, 64),
            ("weights", 192, 36)
        ]
    );
    let v = |n: &str| scene.variable(n).unwrap();
    assert_type(
        &v("view").ty,
        VariableClass::SVC_MATRIX_COLUMNS,
        VariableType::SVT_FLOAT,
        4,
        4,
        0,
    );
    assert_type(
        &v("rm").ty,
        VariableClass::SVC_MATRIX_ROWS,
        VariableType::SVT_FLOAT,
        3,
        4,
        0,
    );
    assert_type(
        &v("scale").ty,
        VariableClass::SVC_VECTOR,
        VariableType::SVT_FLOAT,
        1,
        2,
        0,
    );
    assert_type(
        &v("bias").ty,
        VariableClass::SVC_SCALAR,
        VariableType::SVT_FLOAT,
        1,
        1,
        0,
    );
    assert_type(
        &v("weights").ty,
        VariableClass::SVC_SCALAR,
        VariableType::SVT_FLOAT,
        1,
        1,
        3,
    );
    // A struct's columns count its scalar components: 3 + 1 + 4 = 8.
    let light = &v("lights").ty;
    assert_type(light, VariableClass::SVC_STRUCT, VariableType::SVT_VOID, 1, 8, 2);
    assert_eq!(light.name.as_deref(), Some("Light"));
    let members: Vec<(&str, u32, Option<&str>)> = light
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.offset, m.ty.name.as_deref()))
        .collect();
    assert_eq!(
        members,
        [
            ("dir", 0, Some("float3")),
            ("power", 12, Some("float")),
            ("color", 16, Some("float4"))
        ]
    );
    assert_type(
        &light.member("dir").unwrap().ty,
        VariableClass::SVC_VECTOR,
        VariableType::SVT_FLOAT,
        1,
        3,
        0,
    );
    for var in &scene.variables {
        assert!(var.flags.contains(VariableFlags::USED), "{}", var.name);
        // fxc writes 0xFFFFFFFF, 0, 0xFFFFFFFF, 0 here; vkd3d-shader zeros.
        assert_eq!(var.sm5_resources, Some([0, 0, 0, 0]));
        assert_eq!(var.ty.sm5_reserved, Some([0, 0, 0, 0]));
    }
    assert_eq!(v("view").ty.name.as_deref(), Some("float4x4"));
    assert_eq!(v("rm").ty.name.as_deref(), Some("float3x4"));

    // cbuffer Material : register(b3) { float4 albedo; int mode; uint flags; bool on; }: 0, 16, 20, 24; 32 bytes.
    let material = r.constant_buffer("Material").unwrap();
    assert_eq!(material.size, 32);
    let types: Vec<(&str, u32, VariableType)> = material
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.offset, v.ty.base))
        .collect();
    assert_eq!(
        types,
        [
            ("albedo", 0, VariableType::SVT_FLOAT),
            ("mode", 16, VariableType::SVT_INT),
            ("flags", 20, VariableType::SVT_UINT),
            ("on", 24, VariableType::SVT_BOOL),
        ]
    );
    // The two buffers are bound at b1 and b3.
    assert_eq!(r.binding("Scene").unwrap().bind_point, 1);
    assert_eq!(r.binding("Material").unwrap().bind_point, 3);
}

#[test]
fn nested_structs_expand_recursively_and_unused_variables_are_flagged() {
    // struct Inner { float2 a; int b; }           a 0..8, b 8..12: 12 bytes, 3 components
    // struct Outer { Inner inner[2]; float4x3 m; uint2 u; }
    //   inner[2] 0..28 (element 0 at 0, element 1 starts a register at 16); m starts a register at 32 and, column
    //   major, takes 3 columns of 4: 32..80; u 80..88. Outer: 88 bytes, 2 * 3 + 12 + 2 = 20 components.
    // cbuffer Nested : register(b2) { Outer outer; float4 unused; int3 iv; }: outer 0..88, unused starts a register
    //   after the struct at 96, iv at 112..124; 128 bytes.
    let r = reflection("vs50_structs");
    let cb = r.constant_buffer("Nested").unwrap();
    assert_eq!(cb.size, 128);
    let layout: Vec<(&str, u32, u32)> = cb
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.offset, v.size))
        .collect();
    assert_eq!(layout, [("outer", 0, 88), ("unused", 96, 16), ("iv", 112, 12)]);
    assert!(!cb.variable("unused").unwrap().flags.contains(VariableFlags::USED));
    assert!(cb.variable("outer").unwrap().flags.contains(VariableFlags::USED));
    assert_type(
        &cb.variable("iv").unwrap().ty,
        VariableClass::SVC_VECTOR,
        VariableType::SVT_INT,
        1,
        3,
        0,
    );

    let outer = &cb.variable("outer").unwrap().ty;
    assert_type(outer, VariableClass::SVC_STRUCT, VariableType::SVT_VOID, 1, 20, 0);
    assert_eq!(outer.name.as_deref(), Some("Outer"));
    let inner = outer.member("inner").unwrap();
    assert_eq!(inner.offset, 0);
    assert_type(&inner.ty, VariableClass::SVC_STRUCT, VariableType::SVT_VOID, 1, 3, 2);
    assert_eq!(inner.ty.name.as_deref(), Some("Inner"));
    let a = inner.ty.member("a").unwrap();
    assert_eq!(a.offset, 0);
    assert_type(&a.ty, VariableClass::SVC_VECTOR, VariableType::SVT_FLOAT, 1, 2, 0);
    let b = inner.ty.member("b").unwrap();
    assert_eq!(b.offset, 8);
    assert_type(&b.ty, VariableClass::SVC_SCALAR, VariableType::SVT_INT, 1, 1, 0);
    let m = outer.member("m").unwrap();
    assert_eq!(m.offset, 32);
    assert_type(
        &m.ty,
        VariableClass::SVC_MATRIX_COLUMNS,
        VariableType::SVT_FLOAT,
        4,
        3,
        0,
    );
    assert_eq!(m.ty.name.as_deref(), Some("float4x3"));
    let u = outer.member("u").unwrap();
    assert_eq!(u.offset, 80);
    assert_type(&u.ty, VariableClass::SVC_VECTOR, VariableType::SVT_UINT, 1, 2, 0);
    assert_eq!(r.binding("Nested").unwrap().bind_point, 2);
}

#[test]
fn default_values_are_the_initialisers_bytes() {
    // base : packoffset(c0) = (1, 2, 3, 4); gain : packoffset(c2.y) = 0.5 -> byte 2 * 16 + 4 = 36;
    // count : packoffset(c3.z) = 7 -> byte 3 * 16 + 8 = 56. The buffer ends at 60, rounded to 64.
    let r = reflection("ps50_defaults");
    let cb = r.constant_buffer("Defaults").unwrap();
    assert_eq!(cb.size, 64);
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let base = cb.variable("base").unwrap();
    assert_eq!((base.offset, base.size), (0, 16));
    assert_eq!(base.default_value.as_deref(), Some(&f32s(&[1.0, 2.0, 3.0, 4.0])[..]));
    let gain = cb.variable("gain").unwrap();
    assert_eq!((gain.offset, gain.size), (36, 4));
    assert_eq!(gain.default_value.as_deref(), Some(&0.5f32.to_le_bytes()[..]));
    let count = cb.variable("count").unwrap();
    assert_eq!((count.offset, count.size), (56, 4));
    assert_eq!(count.default_value.as_deref(), Some(&7i32.to_le_bytes()[..]));
    assert_eq!(count.ty.base, VariableType::SVT_INT);
}

#[test]
fn texture_and_sampler_bindings_give_kind_dimension_and_register() {
    // Textures t0..t6 as declared, samplers s0 and s2. A texture's flags hold USERPACKED (register() given) and its
    // component count less one in bits 2..3: float4 -> 3 -> 0xc; float -> 0.
    let r = reflection("ps50_textures");
    let expect = [
        ("t1d", SrvDimension::SRV_DIMENSION_TEXTURE1D, 0, 4),
        ("t2da", SrvDimension::SRV_DIMENSION_TEXTURE2DARRAY, 1, 4),
        ("t3d", SrvDimension::SRV_DIMENSION_TEXTURE3D, 2, 4),
        ("tcube", SrvDimension::SRV_DIMENSION_TEXTURECUBE, 3, 4),
        ("tms", SrvDimension::SRV_DIMENSION_TEXTURE2DMS, 4, 4),
        ("buf", SrvDimension::SRV_DIMENSION_BUFFER, 5, 4),
        ("shadow", SrvDimension::SRV_DIMENSION_TEXTURE2D, 6, 1),
    ];
    for (name, dimension, point, components) in expect {
        let b = r.binding(name).unwrap();
        assert_eq!(
            (b.input_type, b.return_type, b.dimension, b.bind_point, b.bind_count),
            (
                InputType::SIT_TEXTURE,
                ReturnType::RETURN_TYPE_FLOAT,
                dimension,
                point,
                1
            ),
            "{name}"
        );
        assert!(b.flags.contains(InputFlags::USERPACKED), "{name}");
        assert_eq!(b.flags.texture_components(), components, "{name}");
        // fxc stores the sample count (4) for tms; vkd3d-shader stores 0xFFFFFFFF for every texture.
        assert_eq!(b.sample_count, 0xffff_ffff, "{name}");
        assert_eq!(b.space_and_id, None);
    }
    for (name, point) in [("lin", 0), ("cmp", 2)] {
        let b = r.binding(name).unwrap();
        assert_eq!(
            (
                b.input_type,
                b.return_type,
                b.dimension,
                b.sample_count,
                b.bind_point,
                b.bind_count
            ),
            (
                InputType::SIT_SAMPLER,
                ReturnType::NONE,
                SrvDimension::SRV_DIMENSION_UNKNOWN,
                0,
                point,
                1
            ),
            "{name}"
        );
        // fxc also sets COMPARISON_SAMPLER (2) for the SamplerComparisonState; vkd3d-shader does not.
        assert_eq!(b.flags, InputFlags(InputFlags::USERPACKED), "{name}");
    }
    assert_eq!(r.bindings.len(), 9);
    assert!(r.constant_buffers.is_empty());

    // Texture2D<uint4> t0, Texture2D<int2> t1, Texture2D<float> t3: return types and component counts 4, 2, 1.
    let r = reflection("ps41_load");
    let got: Vec<(&str, ReturnType, u32, u32)> = r
        .bindings
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.return_type,
                b.bind_point,
                b.flags.texture_components(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("utex", ReturnType::RETURN_TYPE_UINT, 0, 4),
            ("itex", ReturnType::RETURN_TYPE_SINT, 1, 2),
            ("ftex", ReturnType::RETURN_TYPE_FLOAT, 3, 1),
        ]
    );

    let r = reflection("ps40_depth");
    assert_eq!(r.binding("tex").unwrap().bind_point, 2);
    assert_eq!(
        r.binding("tex").unwrap().dimension,
        SrvDimension::SRV_DIMENSION_TEXTURE2D
    );
    assert_eq!(r.binding("samp").unwrap().bind_point, 1);
    assert_eq!(r.binding("samp").unwrap().input_type.name(), Some("SIT_SAMPLER"));

    // vkd3d-shader binds only the array elements used, named "texs[2]" (t0 + 2) and "samps[1]" (s3 + 1); fxc binds
    // the whole arrays. It also writes nothing for the tbuffer.
    let r = reflection("ps50_primid");
    let got: Vec<(&str, InputType, u32, u32)> = r
        .bindings
        .iter()
        .map(|b| (b.name.as_str(), b.input_type, b.bind_point, b.bind_count))
        .collect();
    assert_eq!(
        got,
        [
            ("samps[1]", InputType::SIT_SAMPLER, 4, 1),
            ("texs[2]", InputType::SIT_TEXTURE, 2, 1)
        ]
    );
}

#[test]
fn statistics_count_what_the_listing_shows() {
    // vkd3d's listing has the version line, then one line per instruction (declarations included). The counters
    // checked: the instruction count (lines after the first), the temp count (dcl_temps N), movs, movcs and
    // conversions (ftoi, ftou, utof: vkd3d counts itof among the int instructions); the chunk has 29 DWORDs for SM4
    // and 37 for SM5.
    for name in FIXTURES {
        let blob = fixture(name);
        let c = Container::parse(&blob, Verify::Checksum).unwrap();
        let stat: Statistics = c.statistics().unwrap().unwrap();
        let text = listing(name);
        // Lines inside if/loop blocks are indented.
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let starts = |p: &str| lines.iter().filter(|l| l.starts_with(p)).count() as u32;
        assert_eq!(stat.instruction_count as usize, lines.len() - 1, "{name}");
        let temps = lines
            .iter()
            .find_map(|l| l.strip_prefix("dcl_temps "))
            .map_or(0, |n| n.trim().parse::<u32>().unwrap());
        assert_eq!(stat.temp_register_count, temps, "{name}");
        assert_eq!(stat.mov_instruction_count, starts("mov "), "{name}");
        assert_eq!(stat.movc_instruction_count, starts("movc "), "{name}");
        assert_eq!(
            stat.conversion_instruction_count,
            starts("ftoi ") + starts("ftou ") + starts("utof "),
            "{name}"
        );
        assert_eq!(stat.unknown_28, Some(0), "{name}");
        assert_eq!(stat.sm5.is_some(), name.contains("50_"), "{name}");
    }
    // One `?:` gives ps50_frontface its one movc; vs40_ids has one `and` (bitwise) and one `ushr` (uint).
    let blob = fixture("ps50_frontface");
    let stat = Container::parse(&blob, Verify::Checksum)
        .unwrap()
        .statistics()
        .unwrap()
        .unwrap();
    assert_eq!(stat.movc_instruction_count, 1);
    let blob = fixture("vs40_ids");
    let stat = Container::parse(&blob, Verify::Checksum)
        .unwrap()
        .statistics()
        .unwrap()
        .unwrap();
    assert_eq!((stat.bitwise_instruction_count, stat.uint_instruction_count), (1, 1));
    // ps41_load reads three textures with ld.
    let blob = fixture("ps41_load");
    let stat = Container::parse(&blob, Verify::Checksum)
        .unwrap()
        .statistics()
        .unwrap()
        .unwrap();
    assert_eq!(stat.texture_load_instructions, 3);
}

#[test]
fn a_stat_chunk_of_another_size_is_an_error() {
    assert!(Statistics::parse(&[0; 112]).unwrap().unknown_28.is_none());
    let e = Statistics::parse(&[0; 120]).unwrap_err();
    assert_eq!(
        e.detail,
        "a STAT chunk has 28, 29 or 37 DWORDs (112, 116 or 148 bytes), not 120 bytes"
    );
}

#[test]
fn feature_flags_name_their_bits() {
    use iridia::dxbc::reflection::FeatureFlags;
    // Bits 0 (doubles), 4 (minimum precision), 13 (viewport/RT index from any stage) and 40 (not a D3D11 flag).
    let bytes = (1u64 | 0x10 | 0x2000 | (1 << 40)).to_le_bytes();
    let f = FeatureFlags::parse(&bytes).unwrap();
    assert_eq!(
        f.names(),
        [
            "DOUBLES",
            "MINIMUM_PRECISION",
            "VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER"
        ]
    );
    assert_eq!(f.unknown_bits(), 1 << 40);
    assert!(FeatureFlags::parse(&bytes[..4]).is_err());
    // The compiler here writes no SFI0.
    let blob = fixture("ps50_textures");
    assert_eq!(
        Container::parse(&blob, Verify::Checksum)
            .unwrap()
            .feature_flags()
            .unwrap(),
        None
    );
}

#[test]
fn a_stripped_shader_has_no_reflection_and_that_is_not_an_error() {
    let blob = fixture("ps50_cbuffers");
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    let kept: Vec<(FourCc, &[u8])> = c
        .chunks
        .iter()
        .filter(|ch| ch.fourcc != FourCc::RDEF && ch.fourcc != FourCc::STAT)
        .map(|ch| (ch.fourcc, ch.data))
        .collect();
    let stripped = write_container(&kept).unwrap();
    let s = Container::parse(&stripped, Verify::Checksum).unwrap();
    assert_eq!(s.reflection().unwrap(), None);
    assert_eq!(s.statistics().unwrap(), None);
    assert!(s.input_signature().unwrap().is_some());
    assert!(s.program_chunk().is_some());
}

#[test]
fn rdef_errors_name_what_and_where() {
    let blob = fixture("vs40_transform");
    let c = Container::parse(&blob, Verify::Checksum).unwrap();
    let rdef = c.chunk(FourCc::RDEF).unwrap().data.to_vec();
    // Constant buffer count 1 at 0, table at 0x44: count raised to 1000 needs 24000 bytes.
    let mut bad = rdef.clone();
    bad[0..4].copy_from_slice(&1000u32.to_le_bytes());
    let e = Reflection::parse(&bad).unwrap_err();
    assert_eq!((e.what.as_str(), e.at.as_str()), ("DXBC RDEF chunk", "byte 0x0"));
    assert_eq!(
        e.detail,
        format!(
            "1000 constant buffers of 24 bytes at 0x44 need more than the {} bytes of the chunk",
            rdef.len()
        )
    );
    // An SM5 target without the RD11 sub-header.
    let mut bad = rdef.clone();
    bad[17] = 0x05; // target 0xFFFE0400 -> 0xFFFE0500
    let e = Reflection::parse(&bad).unwrap_err();
    assert_eq!(e.at, "byte 0x1c");
    assert!(e.detail.contains("'RD11'"), "{}", e.detail);
}
