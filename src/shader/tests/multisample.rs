//! Multisampled resources through whole programs: `ld2dms`, `sampleinfo`, `samplepos` and `resinfo` (22.4.7,
//! 22.4.21, 22.4.22, 22.4.14) on real [`TextureView`]s of multisampled textures and on the rasterizer, the programs
//! written in `fxc`'s syntax and built with the crate's assembler ([`crate::dxbc::asm`]), which must give them back
//! unchanged through the disassembler. Expected values are worked out by hand from the texture's contents and
//! 19.2.4's patterns.

use std::sync::Arc;

use super::{f, fv, run_quads};
use crate::api::enums::{ResourceDimension, SrvDimension};
use crate::api::multisample;
use crate::api::resource::{Resource, ShaderResourceView, ShaderResourceViewDesc, Texture, TextureShape};
use crate::dxbc::program::{Declaration, Opcode, Program};
use crate::dxbc::{asm, disasm};
use crate::format::Format;
use crate::shader::texture::TextureView;
use crate::shader::{Bindings, Executable, Machine, ShaderResource};

/// Builds `listing` with the crate's assembler, after checking that the disassembler gives it back: assembling the
/// disassembly yields the same program.
fn build(listing: &str) -> (Program, Executable) {
    let program = asm::assemble_program(listing).unwrap_or_else(|e| panic!("{e}\n{listing}"));
    let text = disasm::disassemble_program(&program);
    let again = asm::assemble_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, program, "{text}");
    let exe = Executable::new(&program).unwrap_or_else(|e| panic!("{e}"));
    (program, exe)
}

/// A multisampled R32_UINT texture of `w` x `h` texels, `slices` slices, `samples` samples per texel, stored as
/// `api::resource` stores one: per slice, `samples` planes of `w * h` texels, sample 0's first; sample `s` of texel
/// (x, y) of slice `k` holds `value(k, s, x, y)`.
fn multisampled(w: u32, h: u32, slices: u32, samples: u32, value: impl Fn(u32, u32, u32, u32) -> u32) -> Arc<Resource> {
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R32Uint,
        width: w,
        height: h,
        depth: 1,
        array_size: slices,
        mip_levels: 1,
        sample_count: samples,
    };
    let subresources = (0..slices)
        .map(|k| {
            let mut bytes = Vec::new();
            for s in 0..samples {
                for y in 0..h {
                    for x in 0..w {
                        bytes.extend(value(k, s, x, y).to_le_bytes());
                    }
                }
            }
            Arc::from(bytes)
        })
        .collect();
    Arc::new(Resource::Texture(Texture::new(shape, subresources).unwrap()))
}

/// A view of `resource` of `dimension` seeing slices `first..first + count`.
fn view(resource: &Arc<Resource>, dimension: SrvDimension, first: u32, count: u32) -> TextureView {
    TextureView::new(&ShaderResourceView {
        resource: Arc::clone(resource),
        desc: ShaderResourceViewDesc {
            format: Format::R32Uint,
            dimension,
            first_array_slice: first,
            array_size: count,
            ..Default::default()
        },
    })
    .unwrap()
}

/// Bindings with `view` at t0 and the rasterizer's sample count.
fn bind(view: &TextureView, rasterizer_sample_count: u32) -> Bindings<'_> {
    Bindings {
        resources: vec![Some(view as &dyn ShaderResource)],
        rasterizer_sample_count,
        ..Bindings::default()
    }
}

/// Each lane's `v0` from `(x, y, z, w)` integers.
fn lanes(values: &[[u32; 4]]) -> Vec<Vec<(u32, [u32; 4])>> {
    values.iter().map(|v| vec![(0, *v)]).collect()
}

const LOADS: &str = "
ps_5_0
dcl_resource_texture2dms(4) (uint,uint,uint,uint) t0
dcl_input_ps constant v0.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
ldms o0.xyzw, v0.xyzw, t0.xyzw, v0.w
ldms_aoffimmi(1,-1,0) o1.xyzw, v0.xyzw, t0.yxzw, v0.w
sampleinfo_uint o2.x, t0.x
sampleinfo o2.y, rasterizer.x
mov o2.zw, l(0,0,0,0)
samplepos o3.xyzw, t0.xyzw, v0.w
samplepos o4.xyzw, rasterizer.xyzw, v0.w
ret
";

#[test]
fn ld2dms_reads_every_sample_of_a_2x2_4_sample_texture() {
    // Sample s of texel (x, y) holds 100 * s + 10 * y + x + 1: sixteen different values, none 0.
    let resource = multisampled(2, 2, 1, 4, |_, s, x, y| 100 * s + 10 * y + x + 1);
    let t0 = view(&resource, SrvDimension::Texture2DMs, 0, 1);
    let (_, exe) = build(LOADS);
    // v0 = (x, y, ignored, sample). Quad 0 reads one sample of each texel; quad 1 a sample index past the count,
    // an address past the width, a sample index of 0xFFFFFFFF, and the last sample again.
    let inputs = lanes(&[
        [0, 0, 9, 0],
        [1, 0, 9, 1],
        [0, 1, 9, 2],
        [1, 1, 9, 3],
        [1, 1, 0, 4],
        [2, 0, 0, 0],
        [0, 0, 0, u32::MAX],
        [1, 1, 0, 3],
    ]);
    let m = run_quads(&exe, &[0b1111, 0b1111], &inputs, &bind(&t0, 8));
    // R32_UINT: (value, 0, 0, 0x1) (19.1.3.3's integer default for the missing alpha).
    assert_eq!(m.output(0, 0), [1, 0, 0, 1]); // s0 (0,0): 0 + 0 + 0 + 1
    assert_eq!(m.output(1, 0), [102, 0, 0, 1]); // s1 (1,0): 100 + 0 + 1 + 1
    assert_eq!(m.output(2, 0), [211, 0, 0, 1]); // s2 (0,1): 200 + 10 + 0 + 1
    assert_eq!(m.output(3, 0), [312, 0, 0, 1]); // s3 (1,1): 300 + 10 + 1 + 1
    // 22.4.7: out of range (sample 4 of 4, x = 2 of width 2, sample 0xFFFFFFFF): 0 in the format's components,
    // 0x1 in the missing alpha.
    assert_eq!(m.output(4, 0), [0, 0, 0, 1]);
    assert_eq!(m.output(5, 0), [0, 0, 0, 1]);
    assert_eq!(m.output(6, 0), [0, 0, 0, 1]);
    assert_eq!(m.output(7, 0), [312, 0, 0, 1]);
    // _aoffimmi(1,-1): lane 2 reads (0 + 1, 1 - 1) = (1, 0), sample 2: 200 + 0 + 1 + 1 = 202, swizzled .yxzw to
    // (0, 202, 0, 1). Lane 0's (1, -1), lane 1's (2, -1) and lane 3's (2, 0) are out of range: (0, 0, 0, 1)
    // swizzled stays (0, 0, 0, 1).
    assert_eq!(m.output(2, 1), [0, 202, 0, 1]);
    for lane in [0, 1, 3] {
        assert_eq!(m.output(lane, 1), [0, 0, 0, 1], "lane {lane}");
    }
    // sampleinfo: the view's 4 as an integer, the rasterizer's 8 as a float (22.4.21).
    assert_eq!(m.output(0, 2), [4, f(8.0), 0, 0]);
    // samplepos of the view's 4-sample pattern (19.2.4: (-2,-6), (6,-2), (-6,2), (2,6) sixteenths): sample 1 =
    // (0.375, -0.125); sample 4 is past the count: zeros (22.4.22).
    assert_eq!(m.output(1, 3), fv([0.375, -0.125, 0.0, 0.0]));
    assert_eq!(m.output(3, 3), fv([0.125, 0.375, 0.0, 0.0]));
    assert_eq!(m.output(4, 3), [0; 4]);
    // samplepos of the rasterizer's 8-sample pattern ((1,-3), (-1,3), (5,1), (-3,-5), ...): sample 2 = (0.3125,
    // 0.0625), sample 3 = (-0.1875, -0.3125); 0xFFFFFFFF is out of bounds: zeros.
    assert_eq!(m.output(2, 4), fv([0.3125, 0.0625, 0.0, 0.0]));
    assert_eq!(m.output(3, 4), fv([-0.1875, -0.3125, 0.0, 0.0]));
    assert_eq!(m.output(6, 4), [0; 4]);
}

#[test]
fn sampleinfo_and_samplepos_follow_each_standard_count() {
    let (_, exe) = build(
        "
        ps_5_0
        dcl_resource_texture2dms(0) (uint,uint,uint,uint) t0
        dcl_input_ps constant v0.x
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        sampleinfo_uint o0.xyzw, t0.xyzw
        samplepos o1.xyzw, t0.xyzw, v0.x
        samplepos o2.xyzw, rasterizer.yxzw, v0.x
        ret
        ",
    );
    // (count, last index's position by 19.2.4 in sixteenths / 16, first index's). Lane 0 asks the last sample,
    // lane 1 the one past it (zeros, 22.4.22), lane 2 sample 0.
    let cases: [(u32, [f32; 2], [f32; 2]); 5] = [
        (1, [0.0, 0.0], [0.0, 0.0]),               // (0,0)
        (2, [-0.25, -0.25], [0.25, 0.25]),         // (-4,-4); (4,4)
        (4, [0.125, 0.375], [-0.125, -0.375]),     // (2,6); (-2,-6)
        (8, [0.4375, -0.4375], [0.0625, -0.1875]), // (7,-7); (1,-3)
        (16, [-0.4375, -0.5], [0.0625, 0.0625]),   // (-7,-8); (1,1)
    ];
    for (count, last, first) in cases {
        let resource = multisampled(1, 1, 1, count, |_, s, _, _| s);
        let t0 = view(&resource, SrvDimension::Texture2DMs, 0, 1);
        let inputs = lanes(&[[count - 1, 0, 0, 0], [count, 0, 0, 0], [0; 4], [0; 4]]);
        let m = run_quads(&exe, &[0b1111], &inputs, &bind(&t0, count));
        // 22.4.21: (SampleCount, 0, 0, 0).
        assert_eq!(m.output(0, 0), [count, 0, 0, 0], "{count}");
        assert_eq!(m.output(0, 1), fv([last[0], last[1], 0.0, 0.0]), "{count}");
        assert_eq!(m.output(1, 1), [0; 4], "{count}");
        assert_eq!(m.output(2, 1), fv([first[0], first[1], 0.0, 0.0]), "{count}");
        // The rasterizer's pattern is the same, read through .yxzw.
        assert_eq!(m.output(0, 2), fv([last[1], last[0], 0.0, 0.0]), "{count}");
        assert_eq!(m.output(1, 2), [0; 4], "{count}");
    }
}

#[test]
fn the_rasterizer_has_one_sample_at_the_centre_unless_the_draw_says() {
    let (_, exe) = build(
        "
        ps_5_0
        dcl_input_ps constant v0.x
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        sampleinfo o0.xyzw, rasterizer.xyzw
        samplepos o1.xyzw, rasterizer.xyzw, v0.x
        ret
        ",
    );
    let m = run_quads(
        &exe,
        &[0b1111],
        &lanes(&[[0; 4], [1, 0, 0, 0], [0; 4], [0; 4]]),
        &Bindings::default(),
    );
    assert_eq!(Bindings::default().rasterizer_sample_count, 1);
    assert_eq!(m.output(0, 0), [f(1.0), 0, 0, 0]);
    assert_eq!(m.output(0, 1), [0; 4]);
    assert_eq!(m.output(1, 1), [0; 4]);
    // 32 samples: a count with no standard pattern (19.2.4); sampleinfo says 32, samplepos gives zeros.
    let bindings = Bindings {
        rasterizer_sample_count: 32,
        ..Bindings::default()
    };
    let m = run_quads(
        &exe,
        &[0b1111],
        &lanes(&[[0; 4], [31, 0, 0, 0], [0; 4], [0; 4]]),
        &bindings,
    );
    assert_eq!(m.output(0, 0), [f(32.0), 0, 0, 0]);
    assert_eq!(m.output(1, 1), [0; 4]);
    // 4 samples at quality 0 (read as the standard pattern): sample 1 = (6, -2) / 16. At
    // D3D11_CENTER_MULTISAMPLE_PATTERN every sample is the centre (19.2.4). A vendor quality: unknown, zeros.
    let inputs = lanes(&[[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]);
    for (quality, expected) in [
        (0, fv([0.375, -0.125, 0.0, 0.0])),
        (multisample::STANDARD_MULTISAMPLE_PATTERN, fv([0.375, -0.125, 0.0, 0.0])),
        (multisample::CENTER_MULTISAMPLE_PATTERN, [0; 4]),
        (2, [0; 4]),
    ] {
        let bindings = Bindings {
            rasterizer_sample_count: 4,
            rasterizer_sample_quality: quality,
            ..Bindings::default()
        };
        let m = run_quads(&exe, &[0b1111], &inputs, &bindings);
        assert_eq!(m.output(0, 0), [f(4.0), 0, 0, 0], "{quality:#x}");
        assert_eq!(m.output(0, 1), expected, "{quality:#x}");
    }
}

#[test]
fn resinfo_of_a_multisample_array_view_gives_width_height_slices_and_one_mip() {
    // 4x2 texels, 3 slices of 2 samples; the view sees slices 1 and 2.
    let resource = multisampled(4, 2, 3, 2, |k, s, x, y| 1000 * k + 100 * s + 10 * y + x);
    let t0 = view(&resource, SrvDimension::Texture2DMsArray, 1, 2);
    let (_, exe) = build(
        "
        ps_5_0
        dcl_resource_texture2dmsarray(2) (uint,uint,uint,uint) t0
        dcl_input_ps constant v0.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        dcl_output o3.xyzw
        dcl_output o4.xyzw
        resinfo_uint o0.xyzw, v0.x, t0.xyzw
        resinfo o1.xyzw, v0.x, t0.xyzw
        resinfo_rcpFloat o2.xyzw, v0.x, t0.xyzw
        ldms o3.xyzw, v0.yzxx, t0.xyzw, v0.w
        sampleinfo_uint o4.xyzw, t0.xyzw
        ret
        ",
    );
    // v0 = (resinfo's mip, x, y, sample); ldms reads its address through .yzxx: (x, y, slice) = (v0.y, v0.z, v0.x),
    // the slice being the mip word again (0 or 1).
    let inputs = lanes(&[[0, 3, 1, 1], [1, 0, 0, 0], [0, 2, 2, 0], [0, 0, 0, 2]]);
    let m = run_quads(&exe, &[0b1111], &inputs, &bind(&t0, 1));
    // 22.4.14: (width, height, array size, mip count) = (4, 2, 2, 1) at mip 0.
    assert_eq!(m.output(0, 0), [4, 2, 2, 1]);
    assert_eq!(m.output(0, 1), fv([4.0, 2.0, 2.0, 1.0]));
    // _rcpFloat: reciprocals of width and height only, not of the array size nor the mip count.
    assert_eq!(m.output(0, 2), fv([0.25, 0.5, 2.0, 1.0]));
    // Mip 1 is past the view's one level: zero sizes, still 1 mip (infinite reciprocals).
    assert_eq!(m.output(1, 0), [0, 0, 0, 1]);
    assert_eq!(m.output(1, 2), fv([f32::INFINITY, f32::INFINITY, 0.0, 1.0]));
    // ldms address (v0.y, v0.z, v0.x): lane 0 (3, 1, slice 0) sample 1 = resource slice 1: 1000 + 100 + 10 + 3.
    assert_eq!(m.output(0, 3), [1113, 0, 0, 1]);
    // Lane 2 (2, 2, slice 0): y = 2 is past the height: 0.
    assert_eq!(m.output(2, 3), [0, 0, 0, 1]);
    // Lane 1 (0, 0, slice 1) sample 0 = resource slice 2: 2000.
    assert_eq!(m.output(1, 3), [2000, 0, 0, 1]);
    // Lane 3 (0, 0, slice 0) sample 2 of 2: out of range.
    assert_eq!(m.output(3, 3), [0, 0, 0, 1]);
    assert_eq!(m.output(0, 4), [2, 0, 0, 0]);
}

#[test]
fn a_declared_sample_count_must_be_the_view_s() {
    // 22.3.12: `dcl_resource_texture2dms(N)` names the resource's sample count; 0 leaves it open (22.4.7).
    let resource = multisampled(1, 1, 1, 4, |_, s, _, _| s);
    let t0 = view(&resource, SrvDimension::Texture2DMs, 0, 1);
    let run = |count: u32| {
        let (_, exe) = build(&format!(
            "
            ps_5_0
            dcl_resource_texture2dms({count}) (uint,uint,uint,uint) t0
            dcl_output o0.xyzw
            ldms o0.xyzw, l(0,0,0,0), t0.xyzw, l(3)
            ret
            "
        ));
        let mut machine = Machine::new();
        machine.start_quads(&exe, &[0b1111]).unwrap();
        machine.run(&exe, &bind(&t0, 1), None).map(|()| machine.output(0, 0))
    };
    assert_eq!(run(0).unwrap(), [3, 0, 0, 1]);
    assert_eq!(run(4).unwrap(), [3, 0, 0, 1]);
    let error = run(8).unwrap_err();
    assert!(error.detail.contains("8 samples"), "{error}");
    assert_eq!(error.at, "t0");
}

#[test]
fn the_listing_keeps_the_sample_count_and_the_multisample_opcodes() {
    let (program, _) = build(LOADS);
    let declared = program.instructions.iter().find_map(|i| match &i.declaration {
        Some(Declaration::Resource {
            dimension,
            sample_count,
            ..
        }) => Some((*dimension, *sample_count)),
        _ => None,
    });
    assert_eq!(
        declared,
        Some((crate::dxbc::program::ResourceDimension::Texture2DMs, 4))
    );
    let opcodes: Vec<Opcode> = program.instructions.iter().map(|i| i.opcode).collect();
    for opcode in [Opcode::LdMs, Opcode::SampleInfo, Opcode::SamplePos] {
        assert!(opcodes.contains(&opcode), "{opcode:?}");
    }
    let text = disasm::disassemble_program(&program);
    for line in [
        "dcl_resource_texture2dms(4) (uint,uint,uint,uint) t0",
        "ldms_aoffimmi(1,-1,0) o1.xyzw, v0.xyzw, t0.yxzw, v0.w",
        "sampleinfo_uint o2.x, t0.x",
        "samplepos o4.xyzw, rasterizer.xyzw, v0.w",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// A pull model that answers with the question: `register * 1000 + component * 100` plus the location's code
/// (snapped: `(x + 8) * 16 + (y + 8)` + 10,000; sample: `n` + 20,000; centroid: 30,000) plus the lane times 100,000,
/// as a float; `v3` is not an attribute (no answer).
struct Echo;

impl crate::shader::PullModel for Echo {
    fn evaluate(&self, lane: usize, register: u32, component: u8, at: crate::shader::PullLocation) -> Option<u32> {
        use crate::shader::PullLocation;
        if register == 3 {
            return None;
        }
        let code = match at {
            PullLocation::Snapped([x, y]) => 10_000 + (x + 8) * 16 + (y + 8),
            PullLocation::Sample(n) => 20_000 + n as i32,
            PullLocation::Centroid => 30_000,
        };
        let value = lane as i32 * 100_000 + register as i32 * 1000 + i32::from(component) * 100 + code;
        Some((value as f32).to_bits())
    }
}

#[test]
fn eval_instructions_ask_the_pull_model_for_the_swizzled_attribute_at_their_location() {
    // 16.5, 22.4.23-25: the swizzle picks the attribute's component; eval_snapped keeps the low 4 bits of U and V
    // sign-extended (16.5.3): 0x17 is 7, 0xfffffff9 is -7, 8 is -8; the index comes from a register per lane;
    // `v[r1.y + 2]` is v2 through dcl_indexRange; the negate modifier applies to the evaluated value; a register
    // the model has no answer for (v3) reads as it stands
    let (_, exe) = build(
        "ps_5_0\n\
         dcl_input_ps linear v1.xyzw\n\
         dcl_input_ps linear v2.xyzw\n\
         dcl_input_ps linear v3.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_output o2.xyzw\n\
         dcl_output o3.xyzw\n\
         dcl_temps 2\n\
         dcl_indexrange v1.xyzw 2\n\
         mov r1.xyzw, l(3, 0, 0, 0)\n\
         eval_snapped o0.xyzw, v1.wzyx, l(23, -7, 0, 8)\n\
         eval_sample_index o1.xy, -v[r1.y + 2].yxxx, r1.x\n\
         eval_centroid o2.xyzw, v2.zzzz\n\
         eval_centroid o3.xyzw, v3.xyzw\n\
         ret",
    );
    let inputs = vec![vec![(3, [f(1.), f(2.), f(3.), f(4.)])]; 4];
    let bindings = Bindings {
        pull_model: Some(&Echo),
        ..Bindings::default()
    };
    let m = run_quads(&exe, &[0b1111], &inputs, &bindings);
    // snapped at (7, -7): code 10,000 + 15 * 16 + 1 = 10,241; components w z y x of v1
    let snapped = |lane: i32, c: i32| f((lane * 100_000 + 1000 + c * 100 + 10_241) as f32);
    assert_eq!(
        m.output(0, 0),
        [snapped(0, 3), snapped(0, 2), snapped(0, 1), snapped(0, 0)]
    );
    assert_eq!(m.output(2, 0)[0], snapped(2, 3));
    // sample 3 of v2 (v[0 + 2]), components y then x, negated; z and w not written
    let sample = |c: i32| f(-((200_000 + 2000 + c * 100 + 20_003) as f32));
    assert_eq!(m.output(2, 1), [sample(1), sample(0), 0, 0]);
    // centroid of v2.z in every component
    assert_eq!(m.output(1, 2), [f((100_000 + 2000 + 200 + 30_000) as f32); 4]);
    assert_eq!(m.output(1, 3), [f(1.), f(2.), f(3.), f(4.)]);
    // without a model every instruction reads the register as it stands (v1 and v2 are 0 here)
    let m = run_quads(&exe, &[0b1111], &inputs, &Bindings::default());
    assert_eq!(m.output(0, 0), [0; 4]);
    assert_eq!(m.output(0, 1), [f(-0.), f(-0.), 0, 0]);
    assert_eq!(m.output(0, 3), [f(1.), f(2.), f(3.), f(4.)]);
}

#[test]
fn eval_instructions_run_only_in_pixel_programs_on_input_registers() {
    let program =
        asm::assemble_program("vs_5_0\n dcl_input v0.xyzw\n dcl_output o0.xyzw\n eval_centroid o0.xyzw, v0.xyzw\n ret")
            .unwrap();
    let e = Executable::new(&program).unwrap_err().to_string();
    assert!(e.contains("eval_centroid runs only in pixel programs"), "{e}");
    let program = asm::assemble_program(
        "ps_5_0\n dcl_output o0.xyzw\n dcl_temps 1\n eval_snapped o0.xyzw, r0.xyzw, l(0, 0, 0, 0)\n ret",
    )
    .unwrap();
    let e = Executable::new(&program).unwrap_err().to_string();
    assert!(e.contains("evaluates an input register v#"), "{e}");
}
