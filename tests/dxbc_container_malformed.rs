//! Malformed containers never panic: the compiler fixtures truncated at every byte, with random bits flipped (a
//! fixed xorshift generator, so every run is the same), and with each DWORD set in turn to absurd counts, sizes and
//! offsets. Each case must give an error or a valid parse, and the parse of a few kilobytes must not reserve
//! megabytes: no single allocation the parse asks for may reach [`ALLOCATION_LIMIT`] (see `common`).

// Test code: helpers outside #[test] functions may index, compute and panic too.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used
)]

use iridia::dxbc::reflection::{FeatureFlags, Reflection, Statistics};
use iridia::dxbc::signature::{Signature, SignatureKind};
use iridia::dxbc::{Container, Verify};

mod common;
use common::largest_allocation_in;

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

/// More than any parse of these inputs (at most 6 KB) may justify; less than what an allocation sized by an
/// unchecked count from the file (16M entries or more below) would take.
const ALLOCATION_LIMIT: usize = 1 << 20;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/dxbc-container/{name}.dxbc", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Parses `bytes` and every chunk it has, returning how many parses succeeded (so the work is not optimised away).
fn exercise(bytes: &[u8], verify: Verify) -> usize {
    let Ok(c) = Container::parse(bytes, verify) else {
        return 0;
    };
    let mut ok = 1;
    ok += usize::from(c.input_signature().is_ok());
    ok += usize::from(c.output_signature().is_ok());
    ok += usize::from(c.patch_constant_signature().is_ok());
    ok += usize::from(c.reflection().is_ok());
    ok += usize::from(c.statistics().is_ok());
    ok += usize::from(c.feature_flags().is_ok());
    ok += usize::from(c.program_chunk().is_some());
    // Every chunk through every parser, whatever its code says, as a chunk could be mislabelled.
    for chunk in &c.chunks {
        ok += usize::from(Reflection::parse(chunk.data).is_ok());
        ok += usize::from(Signature::parse(SignatureKind::Isg1, chunk.data).is_ok());
        ok += usize::from(Signature::parse(SignatureKind::Osg5, chunk.data).is_ok());
        ok += usize::from(Signature::parse(SignatureKind::Osgn, chunk.data).is_ok());
    }
    ok
}

/// Every parser over `data` as a chunk.
fn exercise_chunk(data: &[u8]) -> usize {
    let mut ok = usize::from(Reflection::parse(data).is_ok());
    ok += usize::from(Statistics::parse(data).is_ok());
    ok += usize::from(FeatureFlags::parse(data).is_ok());
    for kind in [SignatureKind::Isgn, SignatureKind::Osg5, SignatureKind::Psg1] {
        ok += usize::from(Signature::parse(kind, data).is_ok());
    }
    ok
}

/// xorshift64* (Vigna): a fixed, dependency-free sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn set_dword(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn malformed_containers_give_errors_not_panics_or_large_allocations() {
    let ((), largest) = largest_allocation_in(every_malformed_container_parses_or_fails);
    assert!(largest < ALLOCATION_LIMIT, "a parse asked for {largest} bytes at once");
}

fn every_malformed_container_parses_or_fails() {
    let mut parsed = 0usize;
    for name in FIXTURES {
        let blob = fixture(name);
        let container = Container::parse(&blob, Verify::Checksum).unwrap();
        let chunk_ranges: Vec<(usize, usize)> = container
            .chunks
            .iter()
            .map(|c| (c.data_offset(), c.data_offset() + c.data.len()))
            .collect();
        let chunk_offsets: Vec<u32> = container.chunks.iter().map(|c| c.offset as u32).collect();
        assert!(exercise(&blob, Verify::Checksum) > 0, "{name}");

        // Truncated at every byte: as given (the size field then disagrees), and with the size field patched to
        // the new length so parsing goes on to the chunk table.
        for len in 0..blob.len() {
            let cut = &blob[..len];
            assert_eq!(exercise(cut, Verify::Skip), 0, "{name} cut to {len}");
            if len >= 28 {
                let mut patched = cut.to_vec();
                set_dword(&mut patched, 24, len as u32);
                parsed += exercise(&patched, Verify::Skip);
            }
        }
        // Each chunk's data truncated at every byte, through every chunk parser.
        for &(start, end) in &chunk_ranges {
            for len in 0..=(end - start) {
                parsed += exercise_chunk(&blob[start..start + len]);
            }
        }

        // Random bit flips: 1 to 4 bits, anywhere, 2000 times per blob.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ blob.len() as u64);
        for _ in 0..2000 {
            let mut flipped = blob.clone();
            for _ in 0..=rng.below(4) {
                let bit = rng.below(flipped.len() * 8);
                flipped[bit / 8] ^= 1 << (bit % 8);
            }
            parsed += exercise(&flipped, Verify::Skip);
            // With the checksum checked, any real change is caught (a flip can undo an earlier one).
            let changed = flipped != blob;
            assert_eq!(Container::parse(&flipped, Verify::Checksum).is_ok(), !changed, "{name}");
        }

        // Each DWORD in turn set to an absurd value: counts, sizes and offsets of 0, past the end, huge, into other
        // chunks (overlaps), and values whose 16-bit halves are large (type rows/columns/member counts).
        let len = blob.len() as u32;
        let mut values = vec![
            0,
            1,
            4,
            0xffff_ffff,
            0x7fff_ffff,
            0x8000_0000,
            0x0100_0000,
            0xffff,
            0xffff_0000,
            0x0001_0001,
            len,
            len - 4,
            len + 4,
        ];
        values.extend(&chunk_offsets);
        for at in (0..blob.len() - 3).step_by(4) {
            for &value in &values {
                let mut patched = blob.clone();
                set_dword(&mut patched, at, value);
                parsed += exercise(&patched, Verify::Skip);
            }
        }
        // Inside each chunk, offsets that point at each other record of the chunk (cycles, overlaps, self-reference):
        // every DWORD set to every smaller 4-aligned offset would be slow, so one in three.
        for &(start, end) in &chunk_ranges {
            let data = &blob[start..end];
            for at in (0..data.len().saturating_sub(3)).step_by(4) {
                for target in (0..data.len() as u32).step_by(12) {
                    let mut patched = data.to_vec();
                    set_dword(&mut patched, at, target);
                    parsed += exercise_chunk(&patched);
                }
            }
        }
    }
    assert!(parsed > 0);
}

/// An SM5 `RDEF` of one constant buffer with one variable whose type is `types[0]`: header (60 bytes), cbuffer
/// record at 60, variable record at 84, the names at 124 ("cb\0\0", "v\0\0\0"), then the type records from 132.
/// `types` lists each type's member type indices; member records follow the types.
fn rdef_with_types(types: &[Vec<usize>]) -> Vec<u8> {
    let mut d: Vec<u32> = vec![1, 60, 0, 0, 0xffff_0500, 0, 124]; // creator: the "cb" string
    d.extend([u32::from_le_bytes(*b"RD11"), 60, 24, 32, 40, 36, 12, 0]);
    d.extend([124, 1, 84, 16, 0, 0]); // cbuffer "cb": 1 variable at 84, 16 bytes
    d.extend([128, 0, 16, 2, 132, 0, 0, 0, 0, 0]); // variable "v": offset 0, size 16, type at 132
    d.extend([u32::from_le_bytes(*b"cb\0\0"), u32::from_le_bytes(*b"v\0\0\0")]);
    let type_at = |i: usize| 132 + 36 * i as u32;
    let mut member_at = type_at(types.len());
    let mut members = Vec::new();
    for children in types {
        // class struct (5), base void; rows 1, columns 1; elements 0, member count; member table; 4 reserved; name
        d.extend([
            5,
            1 | 1 << 16,
            (children.len() as u32) << 16,
            member_at,
            0,
            0,
            0,
            0,
            128,
        ]);
        for &child in children {
            members.extend([128, type_at(child), 0]);
            member_at += 12;
        }
    }
    d.extend(members);
    d.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn the_hand_built_type_table_parses_when_it_is_sound() {
    // Type 0 has two members of type 1, which has none: a tree of three nodes.
    let r = Reflection::parse(&rdef_with_types(&[vec![1, 1], vec![]])).unwrap();
    let ty = &r.constant_buffers[0].variables[0].ty;
    assert_eq!(ty.members.len(), 2);
    assert!(ty.members.iter().all(|m| m.ty.members.is_empty()));
}

#[test]
fn a_type_that_contains_itself_is_an_error() {
    // Type 0's only member is type 0.
    let e = Reflection::parse(&rdef_with_types(&[vec![0]])).unwrap_err();
    assert!(e.detail.contains("nest more than 64 deep"), "{}", e.detail);
}

#[test]
fn a_type_table_that_multiplies_itself_stops_at_the_chunk_size() {
    // 40 types, each with two members of the next: 2^40 nodes if expanded, from about 2.5 KB of records.
    let types: Vec<Vec<usize>> = (0..40)
        .map(|i| if i < 39 { vec![i + 1, i + 1] } else { vec![] })
        .collect();
    let rdef = rdef_with_types(&types);
    let (parsed, largest) = largest_allocation_in(|| Reflection::parse(&rdef));
    let e = parsed.unwrap_err();
    assert!(e.detail.contains("more nodes than the chunk has bytes"), "{}", e.detail);
    assert!(
        largest < ALLOCATION_LIMIT,
        "the parse asked for {largest} bytes at once"
    );
    // The same table cut to 9 levels still parses: 2^9 - 1 = 511 nodes from 132 + 9 * 36 + 8 * 24 = 648 bytes, within
    // the budget of one node per byte of the chunk.
    let types: Vec<Vec<usize>> = (0..9)
        .map(|i| if i < 8 { vec![i + 1, i + 1] } else { vec![] })
        .collect();
    assert_eq!(rdef_with_types(&types).len(), 648);
    let r = Reflection::parse(&rdef_with_types(&types)).unwrap();
    fn count(t: &iridia::dxbc::reflection::ShaderType) -> usize {
        1 + t.members.iter().map(|m| count(&m.ty)).sum::<usize>()
    }
    assert_eq!(count(&r.constant_buffers[0].variables[0].ty), 511);
}

#[test]
fn a_signature_whose_elements_all_name_one_long_string_is_an_error_not_gigabytes() {
    // Issue 13: 16,384 ISGN elements (24 bytes each) whose names all point at one 512 KiB string would copy 8 GiB
    // of names. The chunk is 917,513 bytes; its names may copy four times that plus 1 MiB, 4,718,628 bytes: nine
    // copies of 524,288 fit, so the parse stops at the tenth (element 9) with an error naming it.
    const ELEMENTS: usize = 16_384;
    const NAME: usize = 512 * 1024;
    let table = 8;
    let name_at = table + ELEMENTS * 24;
    let mut data = vec![0u8; name_at + NAME + 1];
    data[0..4].copy_from_slice(&(ELEMENTS as u32).to_le_bytes());
    data[4..8].copy_from_slice(&(table as u32).to_le_bytes());
    for element in 0..ELEMENTS {
        let at = table + element * 24;
        data[at..at + 4].copy_from_slice(&(name_at as u32).to_le_bytes());
    }
    data[name_at..name_at + NAME].fill(b'A');
    let (result, largest) = largest_allocation_in(|| Signature::parse(SignatureKind::Isgn, &data));
    let error = result.unwrap_err().to_string();
    assert!(error.contains("semantic name of element 9 "), "{error}");
    assert!(error.contains("referenced over and over"), "{error}");
    assert!(largest < 8 << 20, "the parse asked for {largest} bytes at once");
}
