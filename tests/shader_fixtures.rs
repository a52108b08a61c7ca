//! The interpreter on real compiled programs (`fixtures/dxbc-program`, `fixtures/dxbc-container`: HLSL compiled by the
//! reference tool's `D3DCompile`): every vertex and pixel program builds; a few run with inputs whose results are
//! worked out by hand from their HLSL; and none makes the interpreter panic, whatever the inputs and bindings, nor
//! do thousands of bit-flipped variants of them.

// Test code: expected values from small constants, and unwrap/index/panic as assertions.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use iridia::api::enums::SrvDimension;
use iridia::api::resource::SamplerDesc;
use iridia::dxbc::program::{self, Program, ProgramKind};
use iridia::dxbc::{Container, Verify};
use iridia::shader::uav::SharedMemory;
use iridia::shader::{
    Bindings, Executable, LANES, LevelOfDetail, Machine, RunEnd, ShaderResource, Stage, Trace, Unbound,
};
use iridia::{Error, Result};

/// Every `*.dxbc` under `dir`, recursively.
fn dxbc_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            dxbc_under(&path, found);
        } else if path.extension().is_some_and(|e| e == "dxbc") {
            found.push(path);
        }
    }
}

/// The compiled programs of `fixtures/`: the decoder's fixtures, the shader corpus, and the reference cases'
/// programs (compiled and hand-assembled).
fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut found = Vec::new();
    for dir in ["dxbc-program", "dxbc-container", "shaders", "reference/interp"] {
        dxbc_under(&root.join(dir), &mut found);
    }
    found.sort();
    found
}

/// The program in a DXBC file.
fn program_of(path: &Path) -> Program {
    let bytes = std::fs::read(path).unwrap();
    let container = Container::parse(&bytes, Verify::Skip).unwrap();
    let (_, chunk) = container.program_chunk().unwrap();
    program::decode_bytes(chunk).unwrap()
}

fn fixture(name: &str) -> Executable {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/dxbc-program")
        .join(name);
    Executable::new(&program_of(&path)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn every_fixture_program_builds() {
    let files = fixture_files();
    assert!(files.len() >= 20, "{} fixtures", files.len());
    for path in files {
        let program = program_of(&path);
        let result = Executable::new(&program);
        // vkd3d 1.14 compiles ps50_primid's `tbuffer TB : register(t4)` into reads of cb0 with no declaration of
        // either (see its .asm): the program reads what it does not declare, which Executable::new refuses.
        if path.ends_with("dxbc-container/ps50_primid.dxbc") {
            let error = result.unwrap_err();
            assert!(error.detail.contains("cb0 is read but not declared"), "{error}");
            continue;
        }
        let exe = result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if program.kind == ProgramKind::Hull {
            // a hull program without a control point phase passes its control points through (10.4)
            assert!(exe.instruction_count() > 0 || exe.passes_control_points_through());
            assert!(exe.patch_phases().iter().all(|phase| phase.instruction_count() > 0));
        } else {
            assert!(exe.instruction_count() > 0);
        }
    }
}

#[test]
fn vs40_transform_computes_its_hlsl_by_hand() {
    // o.position = mul(float4(position, 1), view_projection) with the matrix stored column by column (HLSL's
    // default column_major: cb0[j] is column j). Rows (2,0,0,0), (0,3,0,0), (0,0,4,0), (10,20,30,1) map (1, 2, 3) to
    // (2 + 10, 6 + 20, 12 + 30, 1).
    let exe = fixture("vs40_transform.dxbc");
    let columns = [
        [2.0, 0.0, 0.0, 10.0],
        [0.0, 3.0, 0.0, 20.0],
        [0.0, 0.0, 4.0, 30.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let tint = [2.0, 2.0, 0.5, 1.0];
    let run = |flags: u32| {
        let mut cb: Vec<[u32; 4]> = columns.iter().map(|c| c.map(f32::to_bits)).collect();
        cb.push(tint.map(f32::to_bits));
        cb.push([flags, 0, 0, 0]);
        let mut bindings = Bindings::default();
        bindings.constant_buffers[0] = Some(&cb);
        let mut m = Machine::new();
        m.start_vertices(&exe, 2).unwrap();
        for (lane, id) in [4u32, 5].into_iter().enumerate() {
            m.set_input(lane, 0, [f(1.0), f(2.0), f(3.0), 0]).unwrap();
            m.set_input(lane, 1, [f(0.5), f(0.25), f(1.0), f(0.5)]).unwrap();
            m.set_input(lane, 2, [id, 0, 0, 0]).unwrap();
        }
        m.run(&exe, &bindings, None).unwrap();
        m
    };
    let m = run(0);
    assert_eq!(m.output(0, 0), [f(12.0), f(26.0), f(42.0), f(1.0)]);
    // color * tint = (1, 0.5, 0.5, 0.5); alpha = (int)(0.5 * 255) / 255 = 127 / 255.
    assert_eq!(m.output(0, 1), [f(1.0), f(0.5), f(0.5), f(127.0 / 255.0)]);
    // uv: vertex 4 is corner 1: (1 & 1, 1 >> 1) * 2 - 1 = (1, -1); vertex 5 is corner 2: (-1, 1).
    assert_eq!(m.output(0, 2)[..2], [f(1.0), f(-1.0)]);
    assert_eq!(m.output(1, 2)[..2], [f(-1.0), f(1.0)]);
    // flags & 1: rgb = 1 - rgb.
    let m = run(1);
    assert_eq!(m.output(1, 1), [f(0.0), f(0.5), f(0.5), f(127.0 / 255.0)]);
}

#[test]
fn ps40_switch_icb_computes_its_hlsl_by_hand() {
    let exe = fixture("ps40_switch_icb.dxbc");
    // Inputs: v1.x = tag (uint, constant), v2.xy = uv. cbuffer: mode (int), bits (uint), scale (float).
    let run = |mode: i32, bits: u32, scale: f32, tag: u32, uv: [f32; 2]| {
        let cb = [[mode as u32, bits, f(scale), 0]];
        let mut bindings = Bindings::default();
        bindings.constant_buffers[0] = Some(&cb);
        let mut m = Machine::new();
        m.start_quads(&exe, &[0b1111]).unwrap();
        for lane in 0..4 {
            m.set_input(lane, 1, [tag, 0, 0, 0]).unwrap();
            m.set_input(lane, 2, [f(uv[0]), f(uv[1]), 0, 0]).unwrap();
        }
        m.run(&exe, &bindings, None).unwrap();
        m.output(0, 0)
    };
    let negative_zero = 0x8000_0000;
    // mode 0, tag 7: palette[7 % 5] = (0, 0, 1, 1); rgb *= exp2(1) = (0, 0, 2). i = (0x10 ^ 7) >> 2 = 0x17 >> 2 = 5,
    // u = (0x10 | 7) / 7 = 23 / 7 = 3, so a = min(1, 5 * 0.01 + 3 * 0.02) in float32 (each product and the sum
    // rounded to nearest even). The result is negated: -0 for the zeros.
    let alpha = 5.0f32 * 0.01f32 + 3.0f32 * 0.02f32;
    assert_eq!(
        run(0, 0x10, 1.0, 7, [1.0, 0.0]),
        [negative_zero, negative_zero, f(-2.0), f(-alpha)]
    );
    // default (mode 5), tag 9: palette[4] = (0.25, 0.5, 0.75, 1); b = rsqrt(max(4, 0.001)) = 0.5. i = 9 >> 2 = 2,
    // u = 9 / 9 = 1: a = 2 * 0.01 + 1 * 0.02.
    let alpha = 2.0f32 * 0.01f32 + 1.0f32 * 0.02f32;
    assert_eq!(run(5, 0, 1.0, 9, [4.0, 0.0]), [f(-0.25), f(-0.5), f(-0.5), f(-alpha)]);
    // mode 2, tag 0: palette[0] = (1, 0, 0, 1); rg = (sin 0, cos 0) = (0, 1); i = 0, u = 0 / max(0, 1) = 0: a = 0.
    assert_eq!(
        run(2, 0, 3.0, 0, [0.0, 0.0]),
        [negative_zero, f(-1.0), negative_zero, negative_zero]
    );
}

#[test]
fn vs41_skinning_indexes_its_bone_palette_per_vertex() {
    // bones[i] (float4x3, column_major: three registers per bone, register 3i + j = column j) translates by
    // (i, 0, 0); view_projection (registers 96..99) is the identity. indices (1, 2, 3, 0) with weights 1/4 each move
    // position (1, 2, 3) by (1 + 2 + 3 + 0) / 4 = 1.5 in x: every partial sum is exact. The identity 3x3 part keeps
    // the normal (0, 0, 2), normalised by rsqrt(4) = 0.5 to (0, 0, 1); z = 3 is not past 10, so fog is 0.
    let exe = fixture("vs41_skinning.dxbc");
    let mut cb = vec![[0u32; 4]; 100];
    for bone in 0..32 {
        cb[3 * bone] = [f(1.0), 0, 0, f(bone as f32)];
        cb[3 * bone + 1] = [0, f(1.0), 0, 0];
        cb[3 * bone + 2] = [0, 0, f(1.0), 0];
    }
    for j in 0..4 {
        cb[96 + j][j] = f(1.0);
    }
    let mut bindings = Bindings::default();
    bindings.constant_buffers[0] = Some(&cb);
    let mut m = Machine::new();
    m.start_vertices(&exe, 1).unwrap();
    m.set_input(0, 0, [f(1.0), f(2.0), f(3.0), 0]).unwrap();
    m.set_input(0, 1, [0, 0, f(2.0), 0]).unwrap();
    m.set_input(0, 2, [1, 2, 3, 0]).unwrap();
    m.set_input(0, 3, [f(0.25); 4]).unwrap();
    m.run(&exe, &bindings, None).unwrap();
    assert_eq!(m.output(0, 0), [f(2.5), f(2.0), f(3.0), f(1.0)]);
    assert_eq!(m.output(0, 1), [0, 0, f(1.0), 0]);
}

/// A view answering `(u, v, 0, 1)` for a sample at (u, v), recording the LOD and offsets it was given.
struct UvView {
    calls: RefCell<Vec<([i32; 3], LevelOfDetail)>>,
}

impl ShaderResource for UvView {
    fn dimension(&self) -> SrvDimension {
        SrvDimension::Texture2D
    }
    fn sample(
        &self,
        _: &SamplerDesc,
        c: [f32; 4],
        o: [i32; 3],
        lod: LevelOfDetail,
        _: Option<f32>,
    ) -> Result<[u32; 4]> {
        self.calls.borrow_mut().push((o, lod));
        Ok([f(c[0]), f(c[1]), 0, f(1.0)])
    }
    fn gather(&self, _: &SamplerDesc, _: [f32; 4], _: [i32; 2], _: u8, _: Option<f32>) -> Result<[u32; 4]> {
        Ok([0; 4])
    }
    fn load(&self, _: [i32; 4], _: [i32; 3], _: u32) -> Result<[u32; 4]> {
        Ok([0; 4])
    }
    fn dimensions(&self, _: u32) -> [u32; 4] {
        [0; 4]
    }
    fn buffer_elements(&self) -> u32 {
        0
    }
    fn sample_count(&self) -> u32 {
        1
    }
    fn sample_position(&self, _: u32) -> [f32; 2] {
        [0.0; 2]
    }
    fn lod(&self, _: &SamplerDesc, _: [f32; 4], _: [f32; 3], _: [f32; 3]) -> [f32; 2] {
        [0.0; 2]
    }
    fn load_raw(&self, _: u32) -> Result<u32> {
        Ok(0)
    }
    fn load_structured(&self, _: u32, _: u32) -> Result<u32> {
        Ok(0)
    }
}

#[test]
fn ps50_sample_loop_discard_computes_its_hlsl_by_hand() {
    // c = t.Sample(s, uv, int2(-1, 2)) = (u, v, 0, 1); then n = 5 times c += k[i & 3] * 0.5 with k the identity rows:
    // k0 twice, k1, k2, k3 once: c += (1, 0.5, 0.5, 0.5). Discard when c.x < 0; return saturate(c).
    let exe = fixture("ps50_sample_loop_discard.dxbc");
    let mut cb: Vec<[u32; 4]> = (0..4)
        .map(|i| {
            let mut row = [0u32; 4];
            row[i] = f(1.0);
            row
        })
        .collect();
    cb.push([5, 0, 0, 0]);
    let view = UvView {
        calls: RefCell::new(Vec::new()),
    };
    let sampler = SamplerDesc::default();
    let mut bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource)],
        ..Bindings::default()
    };
    bindings.constant_buffers[0] = Some(&cb);
    bindings.samplers[0] = Some(&sampler);
    let uvs = [(-3.0f32, 0.0f32), (0.25, 0.25), (-0.5, 0.1), (-1.0, -1.0)];
    let mut m = Machine::new();
    m.start_quads(&exe, &[0b1111]).unwrap();
    for (lane, (u, v)) in uvs.iter().enumerate() {
        m.set_input(lane, 1, [f(*u), f(*v), 0, 0]).unwrap();
    }
    m.run(&exe, &bindings, None).unwrap();
    // Lane 0: c.x = -3 + 1 = -2 < 0: discarded.
    assert!(m.is_discarded(0) && !m.writes(0));
    assert_eq!(m.output(1, 0), [f(1.0), f(0.75), f(0.5), f(1.0)]);
    assert_eq!(m.output(2, 0), [f(0.5), f(0.1f32 + 0.5f32), f(0.5), f(1.0)]);
    // Lane 3: c.x = 0, not below 0: kept; c.y = -0.5 saturates to 0.
    assert!(!m.is_discarded(3));
    assert_eq!(m.output(3, 0), [f(0.0), f(0.0), f(0.5), f(1.0)]);
    // The sample's immediate offset and the coarse derivatives of uv: top row u: 0.25 - -3 = 3.25, left column
    // v: 0.1 - 0 = 0.1.
    let (offset, lod) = view.calls.borrow()[0];
    assert_eq!(offset, [-1, 2, 0]);
    assert_eq!(
        lod,
        LevelOfDetail::Implicit {
            ddx: [3.25, 0.25, 3.25],
            ddy: [2.5, 0.1, 2.5]
        }
    );
}

// -- robustness ---------------------------------------------------------------------------------------------------

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A register word: often a special float or a small integer.
    fn word(&mut self) -> u32 {
        const SPECIAL: [u32; 12] = [
            0,
            0x8000_0000,
            0x3F80_0000,
            0xBF80_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x0000_0001,
            0xFFFF_FFFF,
            0x7FFF_FFFF,
            0x8000_0001,
            0x4B80_0000,
        ];
        match self.below(4) {
            0 => SPECIAL[self.below(SPECIAL.len() as u64) as usize],
            1 => self.below(16) as u32,
            _ => self.next() as u32,
        }
    }
}

/// A view of a random dimension that answers random words and sometimes fails.
struct RandomView {
    dimension: SrvDimension,
    rng: RefCell<Rng>,
}

impl RandomView {
    fn words(&self) -> Result<[u32; 4]> {
        let mut rng = self.rng.borrow_mut();
        if rng.below(64) == 0 {
            return Err(Error::new("texture", "random failure"));
        }
        Ok([rng.word(), rng.word(), rng.word(), rng.word()])
    }
}

impl ShaderResource for RandomView {
    fn dimension(&self) -> SrvDimension {
        self.dimension
    }
    fn sample(&self, _: &SamplerDesc, _: [f32; 4], _: [i32; 3], _: LevelOfDetail, _: Option<f32>) -> Result<[u32; 4]> {
        self.words()
    }
    fn gather(&self, _: &SamplerDesc, _: [f32; 4], _: [i32; 2], _: u8, _: Option<f32>) -> Result<[u32; 4]> {
        self.words()
    }
    fn load(&self, _: [i32; 4], _: [i32; 3], _: u32) -> Result<[u32; 4]> {
        self.words()
    }
    fn dimensions(&self, _: u32) -> [u32; 4] {
        self.words().unwrap_or([0; 4])
    }
    fn buffer_elements(&self) -> u32 {
        self.rng.borrow_mut().word()
    }
    fn sample_count(&self) -> u32 {
        self.rng.borrow_mut().word()
    }
    fn sample_position(&self, _: u32) -> [f32; 2] {
        [0.5, -0.5]
    }
    fn lod(&self, _: &SamplerDesc, _: [f32; 4], _: [f32; 3], _: [f32; 3]) -> [f32; 2] {
        [f32::NAN, 1.0]
    }
    fn load_raw(&self, _: u32) -> Result<u32> {
        self.words().map(|w| w[0])
    }
    fn load_structured(&self, _: u32, _: u32) -> Result<u32> {
        self.words().map(|w| w[1])
    }
}

const DIMENSIONS: [SrvDimension; 12] = [
    SrvDimension::Unknown,
    SrvDimension::Buffer,
    SrvDimension::Texture1D,
    SrvDimension::Texture1DArray,
    SrvDimension::Texture2D,
    SrvDimension::Texture2DArray,
    SrvDimension::Texture2DMs,
    SrvDimension::Texture2DMsArray,
    SrvDimension::Texture3D,
    SrvDimension::TextureCube,
    SrvDimension::TextureCubeArray,
    SrvDimension::BufferEx,
];

/// Runs `exe` on a random batch with random bindings; returns whether it ran (an error is fine, a panic is not).
fn run_randomly(exe: &Executable, rng: &mut Rng, budget: u64) -> bool {
    // Constant buffers of random lengths (0 to 40 vectors), some slots empty.
    let buffers: Vec<Vec<[u32; 4]>> = (0..14)
        .map(|_| {
            let n = rng.below(41) as usize;
            (0..n)
                .map(|_| [rng.word(), rng.word(), rng.word(), rng.word()])
                .collect()
        })
        .collect();
    let views: Vec<RandomView> = (0..8)
        .map(|_| RandomView {
            dimension: DIMENSIONS[rng.below(DIMENSIONS.len() as u64) as usize],
            rng: RefCell::new(Rng(rng.next() | 1)),
        })
        .collect();
    let sampler = SamplerDesc::default();
    let mut bindings = Bindings {
        unbound: if rng.below(2) == 0 {
            Unbound::Zero
        } else {
            Unbound::Error
        },
        ..Bindings::default()
    };
    for (slot, buffer) in buffers.iter().enumerate() {
        if rng.below(5) != 0 {
            bindings.constant_buffers[slot] = Some(buffer);
        }
    }
    for view in &views {
        bindings
            .resources
            .push((rng.below(5) != 0).then_some(view as &dyn ShaderResource));
    }
    for slot in 0..16 {
        if rng.below(4) != 0 {
            bindings.samplers[slot] = Some(&sampler);
        }
    }
    let mut m = Machine::new();
    m.set_budget(budget);
    let started = match exe.stage() {
        Stage::Vertex => m.start_vertices(exe, 1 + rng.below(LANES as u64) as usize),
        Stage::Pixel => {
            let quads: Vec<u8> = (0..1 + rng.below(LANES as u64 / 4))
                .map(|_| rng.below(16) as u8)
                .collect();
            m.start_quads(exe, &quads)
        }
        Stage::Compute => m.start_threads(exe, 1 + rng.below(LANES as u64) as usize),
        Stage::Geometry => m.start_primitives(exe, 1 + rng.below(LANES as u64) as usize),
        Stage::Hull | Stage::Domain => m.start_patch_lanes(exe, 1 + rng.below(LANES as u64) as usize),
    };
    started.unwrap();
    for lane in 0..m.lane_count() {
        for register in 0..exe.input_register_count() {
            m.set_input(lane, register, [rng.word(), rng.word(), rng.word(), rng.word()])
                .unwrap();
        }
        m.set_primitive_id(lane, rng.word());
        m.set_input_coverage(lane, rng.word());
    }
    let mut trace = Trace::new(rng.next() as u32);
    trace.limit = 64;
    let trace = (rng.below(4) == 0).then_some(&mut trace);
    let ran = if exe.stage() == Stage::Compute {
        for lane in 0..m.lane_count() {
            let id = [rng.word(), rng.word(), rng.word()];
            m.set_thread(lane, id, id, id, rng.word());
        }
        let shared = SharedMemory::new(exe.shared_words() as usize);
        // Every barrier, then the end (or an error).
        let mut end = m.run_threads(exe, &bindings, &shared, trace);
        while end == Ok(RunEnd::Barrier) {
            end = m.run_threads(exe, &bindings, &shared, None);
        }
        end.is_ok()
    } else {
        m.run(exe, &bindings, trace).is_ok()
    };
    for lane in 0..m.lane_count() {
        for register in 0..exe.output_register_count() {
            m.output(lane, register);
            m.written(lane, register);
        }
        m.depth(lane);
        m.coverage_mask(lane);
    }
    ran
}

#[test]
fn no_fixture_program_panics_on_random_inputs_and_bindings() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut ran = 0;
    let mut failed = 0;
    for path in fixture_files() {
        let Ok(exe) = Executable::new(&program_of(&path)) else {
            continue;
        };
        for _ in 0..40 {
            for phase in exe.patch_phases() {
                run_randomly(phase, &mut rng, 1 << 16);
            }
            if run_randomly(&exe, &mut rng, 1 << 16) {
                ran += 1;
            } else {
                failed += 1;
            }
        }
    }
    // Both outcomes happen: runs that finish and runs refused for a missing or misshapen binding.
    assert!(ran > 0 && failed > 0, "ran {ran}, failed {failed}");
}

#[test]
fn no_bit_flipped_fixture_program_panics() {
    // Flip 1 to 3 random bits of a real program's tokens (not the version and length); whatever still decodes and
    // builds must run (or fail) without panicking.
    let mut rng = Rng(0x0DDB_A11C_AFE5_EED5);
    let mut built = 0;
    for path in fixture_files() {
        let program = program_of(&path);
        let tokens = program::encode(&program).unwrap();
        for _ in 0..150 {
            let mut mutated = tokens.clone();
            for _ in 0..1 + rng.below(3) {
                let at = 2 + rng.below(mutated.len() as u64 - 2) as usize;
                mutated[at] ^= 1 << rng.below(32);
            }
            let Ok(decoded) = program::decode(&mutated) else {
                continue;
            };
            let Ok(exe) = Executable::new(&decoded) else {
                continue;
            };
            built += 1;
            run_randomly(&exe, &mut rng, 4096);
        }
    }
    assert!(built > 100, "only {built} mutated programs built");
}
