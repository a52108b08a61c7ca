//! Texture instructions: what the interpreter asks the bound view (the operands, offsets, LOD source), and how it
//! shapes the answer (the resource swizzle, the write mask, resinfo's return types). The view is a recording mock:
//! texel addressing and filtering are `shader::texture`'s and tested there.

use std::cell::RefCell;

use super::{exe, f, fv, run_quads, run_vertices};
use crate::api::enums::AddressMode;
use crate::api::enums::SrvDimension;
use crate::api::resource::SamplerDesc;
use crate::shader::{Bindings, LevelOfDetail, Machine, ShaderResource, Unbound};
use crate::{Error, Result};

/// What the mock was asked.
#[derive(Clone, Debug, PartialEq)]
enum Call {
    Sample {
        coords: [f32; 4],
        offset: [i32; 3],
        lod: LevelOfDetail,
        reference: Option<f32>,
        address_u: AddressMode,
    },
    Gather {
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u8,
        reference: Option<f32>,
    },
    Load {
        address: [i32; 4],
        offset: [i32; 3],
        sample: u32,
    },
    Lod {
        ddx: [f32; 3],
    },
    Raw(u32),
    Structured(u32, u32),
}

/// A view that answers fixed words and records every call.
struct Mock {
    dimension: SrvDimension,
    texel: [u32; 4],
    calls: RefCell<Vec<Call>>,
    fail: bool,
}

impl Mock {
    fn new(dimension: SrvDimension) -> Self {
        Self {
            dimension,
            texel: [10, 20, 30, 40],
            calls: RefCell::new(Vec::new()),
            fail: false,
        }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.borrow().clone()
    }
}

impl ShaderResource for Mock {
    fn dimension(&self) -> SrvDimension {
        self.dimension
    }

    fn sample(
        &self,
        sampler: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 3],
        lod: LevelOfDetail,
        reference: Option<f32>,
    ) -> Result<[u32; 4]> {
        if self.fail {
            return Err(Error::new("texture", "the view could not be read"));
        }
        self.calls.borrow_mut().push(Call::Sample {
            coords,
            offset,
            lod,
            reference,
            address_u: sampler.address_u,
        });
        Ok(self.texel)
    }

    fn gather(
        &self,
        _: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u8,
        reference: Option<f32>,
    ) -> Result<[u32; 4]> {
        self.calls.borrow_mut().push(Call::Gather {
            coords,
            offset,
            channel,
            reference,
        });
        Ok(self.texel)
    }

    fn load(&self, address: [i32; 4], offset: [i32; 3], sample: u32) -> Result<[u32; 4]> {
        self.calls.borrow_mut().push(Call::Load {
            address,
            offset,
            sample,
        });
        Ok(self.texel)
    }

    fn dimensions(&self, level: u32) -> [u32; 4] {
        // A 2D view of 4x2 texels at mip 0 with 3 mips; past mip 2 the sizes are 0 (22.4.14 rule 4).
        match level {
            0 => [4, 2, 0, 3],
            1 => [2, 1, 0, 3],
            2 => [1, 1, 0, 3],
            _ => [0, 0, 0, 3],
        }
    }

    fn buffer_elements(&self) -> u32 {
        96
    }

    fn sample_count(&self) -> u32 {
        4
    }

    fn sample_position(&self, index: u32) -> [f32; 2] {
        if index < 4 {
            [0.125 * index as f32, -0.25]
        } else {
            [0.0, 0.0]
        }
    }

    fn lod(&self, _: &SamplerDesc, _: [f32; 4], ddx: [f32; 3], _: [f32; 3]) -> [f32; 2] {
        self.calls.borrow_mut().push(Call::Lod { ddx });
        [1.5, -2.0]
    }

    fn load_raw(&self, byte_address: u32) -> Result<u32> {
        self.calls.borrow_mut().push(Call::Raw(byte_address));
        Ok(byte_address)
    }

    fn load_structured(&self, index: u32, byte_offset: u32) -> Result<u32> {
        self.calls.borrow_mut().push(Call::Structured(index, byte_offset));
        Ok(index * 1000 + byte_offset)
    }
}

/// Bindings with `view` at t0 and `sampler` at s0.
fn bind<'a>(view: &'a Mock, sampler: &'a SamplerDesc) -> Bindings<'a> {
    let mut bindings = Bindings {
        resources: vec![Some(view as &dyn ShaderResource)],
        ..Bindings::default()
    };
    bindings.samplers[0] = Some(sampler);
    bindings
}

/// Pixel-centre inputs of a quad at (0, 0), `v0.xy`, and `v0.zw` = (x * x, 7).
fn quad_inputs() -> Vec<Vec<(u32, [u32; 4])>> {
    [(0.5f32, 0.5f32), (1.5, 0.5), (0.5, 1.5), (1.5, 1.5)]
        .iter()
        .map(|(x, y)| vec![(0, [f(*x), f(*y), f(x * x), f(7.0)])])
        .collect()
}

#[test]
fn a_sample_result_is_swizzled_by_the_resource_operand_then_masked() {
    // 22.4.15: "The swizzle on srcResource determines how to swizzle the 4-component result ... after which .mask on
    // dest determines which components in dest get updated."
    let exe = exe("
        ps_4_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xyzw
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0, l(1, 1, 1, 1)
        sample r0.xyw, v0.xyxx, t0.yxwz, s0
        mov o0, r0
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let sampler = SamplerDesc::default();
    let m = run_quads(&exe, &[0b1111], &quad_inputs(), &bind(&view, &sampler));
    // Texel (10, 20, 30, 40) swizzled yxwz = (20, 10, 40, 30); z keeps 1.
    assert_eq!(m.output(0, 0), [20, 10, 1, 30]);
    assert_eq!(view.calls().len(), 4);
}

#[test]
fn sample_gets_the_coarse_derivatives_of_its_address_for_every_lane_of_the_quad() {
    // The address's z is x * x: its coarse x derivative is the top row's 1.5^2 - 0.5^2 = 2 for every lane, where a
    // fine one would give the same on the bottom row; y derivatives: v0.y's left column 1.5 - 0.5 = 1, x's 0.
    // (22.4.15: "the same definition that the deriv* Shader instructions use"; the coarse one, 7.18.11.)
    let exe = exe("
        ps_4_0
        dcl_sampler s0
        dcl_resource_texture3d (float,float,float,float) t0
        dcl_input_ps linear v0.xyzw
        dcl_output o0.xyzw
        sample o0, v0.xyzw, t0.xyzw, s0
        ret
    ");
    let view = Mock::new(SrvDimension::Texture3D);
    let sampler = SamplerDesc::default();
    run_quads(&exe, &[0b1000], &quad_inputs(), &bind(&view, &sampler));
    let calls = view.calls();
    // Helpers sample too (their results feed nothing here, but a later derivative could use them).
    assert_eq!(calls.len(), 4);
    for call in &calls {
        let Call::Sample { lod, .. } = call else {
            panic!("{call:?}")
        };
        assert_eq!(
            *lod,
            LevelOfDetail::Implicit {
                ddx: [1.0, 0.0, 2.0],
                ddy: [0.0, 1.0, 0.0]
            }
        );
    }
    let Call::Sample {
        coords,
        offset,
        reference,
        ..
    } = &calls[3]
    else {
        panic!()
    };
    assert_eq!(*coords, [1.5, 1.5, 2.25, 7.0]);
    assert_eq!(*offset, [0, 0, 0]);
    assert_eq!(*reference, None);
}

#[test]
fn sample_variants_pass_their_lod_source_reference_and_offsets() {
    let exe = exe("
        ps_5_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xyzw
        dcl_output o0.xyzw
        sample_b(1,-2,0) o0, v0.xyxx, t0.xyzw, s0, l(-0.5)
        sample_l o0, v0.xyxx, t0.xyzw, s0, v0.w
        sample_d(-8,7,0) o0, v0.xyxx, t0.xyzw, s0, l(1.0, 2.0, 3.0, 4.0), v0.wzyx
        sample_c o0, v0.xyxx, t0.xxxx, s0, l(0.25)
        sample_c_lz o0, v0.xyxx, t0.xxxx, s0, v0.z
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let sampler = SamplerDesc::default();
    run_quads(&exe, &[0b0001], &quad_inputs(), &bind(&view, &sampler));
    // Lane 0's calls are every 4th (each instruction runs for the 4 lanes in turn).
    let lane0: Vec<Call> = view.calls().into_iter().step_by(4).collect();
    let coords = [0.5, 0.5, 0.5, 0.5];
    let implicit = |bias| LevelOfDetail::Bias {
        ddx: [1.0, 0.0, 1.0],
        ddy: [0.0, 1.0, 0.0],
        bias,
    };
    let sample = |offset, lod, reference| Call::Sample {
        coords,
        offset,
        lod,
        reference,
        address_u: AddressMode::Clamp,
    };
    assert_eq!(lane0[0], sample([1, -2, 0], implicit(-0.5), None));
    assert_eq!(lane0[1], sample([0; 3], LevelOfDetail::Explicit(7.0), None));
    // sample_d: the derivative operands' first three components, post-swizzle (v0.wzy = 7, 0.25, 0.5).
    assert_eq!(
        lane0[2],
        sample(
            [-8, 7, 0],
            LevelOfDetail::Gradient {
                ddx: [1.0, 2.0, 3.0],
                ddy: [7.0, 0.25, 0.5]
            },
            None
        )
    );
    assert_eq!(
        lane0[3],
        sample(
            [0; 3],
            LevelOfDetail::Implicit {
                ddx: [1.0, 0.0, 1.0],
                ddy: [0.0, 1.0, 0.0]
            },
            Some(0.25)
        )
    );
    assert_eq!(lane0[4], sample([0; 3], LevelOfDetail::Zero, Some(0.25)));
}

#[test]
fn gather_takes_its_channel_from_the_sampler_operand_and_six_bit_programmable_offsets() {
    // 22.4.2: "The .select_component on srcSampler chooses which component"; 22.4.4: "The 6 least significant bits
    // of each offset value is honored as a signed value": 0x3F is -1, 33 (0b100001) is -31, 0xFFFFFFE0 is -32.
    let exe = exe("
        ps_5_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xyzw
        dcl_output o0.xyzw
        gather4(-1,2,0) o0, v0.xyxx, t0.xyzw, s0.y
        gather4_po o0, v0.xyxx, l(63, 33, 0, 0), t0.xyzw, s0.w
        gather4_po_c o0, v0.xyxx, l(0xFFFFFFE0, 5, 0, 0), t0.xyzw, s0.x, l(0.75)
        gather4_c o0, v0.xyxx, t0.xyzw, s0.x, v0.z
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let sampler = SamplerDesc::default();
    run_quads(&exe, &[0b0001], &quad_inputs(), &bind(&view, &sampler));
    let lane0: Vec<Call> = view.calls().into_iter().step_by(4).collect();
    let gather = |offset, channel, reference| Call::Gather {
        coords: [0.5; 4],
        offset,
        channel,
        reference,
    };
    assert_eq!(
        lane0,
        vec![
            gather([-1, 2], 1, None),
            gather([-1, -31], 3, None),
            gather([-32, 5], 0, Some(0.75)),
            gather([0, 0], 0, Some(0.25)),
        ]
    );
}

#[test]
fn load_passes_integer_addresses_offsets_and_the_sample_index() {
    let exe = exe("
        vs_5_0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_resource_texture2dms (float,float,float,float) t1
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        ld(2,-3,0) o0, v0.xyzw, t0.wzyx
        ld_ms o0.x, v0.xyzw, t1.xyzw, l(3)
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let ms = Mock::new(SrvDimension::Texture2DMs);
    let bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource), Some(&ms)],
        ..Bindings::default()
    };
    let m = run_vertices(&exe, &[&[(0, [5, 0xFFFF_FFFF, 1, 2])]], &bindings);
    assert_eq!(
        view.calls(),
        vec![Call::Load {
            address: [5, -1, 1, 2],
            offset: [2, -3, 0],
            sample: 0
        }]
    );
    assert_eq!(
        ms.calls(),
        vec![Call::Load {
            address: [5, -1, 1, 2],
            offset: [0; 3],
            sample: 3
        }]
    );
    // ld_ms wrote .x = 10 over the ld's swizzled (40, 30, 20, 10).
    assert_eq!(m.output(0, 0), [10, 30, 20, 10]);
}

#[test]
fn resinfo_returns_floats_reciprocals_or_integers() {
    // 22.4.14 on a 2D view of 4x2 texels, 3 mips: (width, height, 0, mips). _rcpFloat takes reciprocals of width
    // and height only; an out-of-range mip gives 0 sizes (so infinite reciprocals) and still the mip count.
    let exe = exe("
        vs_4_0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input v0.x
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        resinfo o0, v0.x, t0.xyzw
        resinfo_rcpfloat o1, v0.x, t0.xyzw
        resinfo_uint o2, v0.x, t0.wzyx
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource)],
        ..Bindings::default()
    };
    let m = run_vertices(&exe, &[&[(0, [0; 4])], &[(0, [9, 0, 0, 0])]], &bindings);
    assert_eq!(m.output(0, 0), fv([4.0, 2.0, 0.0, 3.0]));
    assert_eq!(m.output(0, 1), fv([0.25, 0.5, 0.0, 3.0]));
    assert_eq!(m.output(0, 2), [3, 0, 2, 4]);
    assert_eq!(m.output(1, 1), fv([f32::INFINITY, f32::INFINITY, 0.0, 3.0]));
}

#[test]
fn queries_of_an_empty_slot_read_zeros_when_asked_to() {
    // 22.4.14 restriction 3: an unbound t# gives 0 sizes and mip count, and _rcpFloat still applies (INF);
    // 22.4.1, 22.4.21: bufinfo and sampleinfo give 0; 7.18.17: sampling gives 0.
    let exe = exe("
        ps_5_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_resource_buffer (float,float,float,float) t1
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        resinfo_rcpfloat o0, l(0), t0.xyzw
        bufinfo o1, t1
        sample o2, v0.xyxx, t0.xyzw, s0
        ret
    ");
    let bindings = Bindings {
        unbound: Unbound::Zero,
        ..Bindings::default()
    };
    let m = run_quads(&exe, &[0b1111], &quad_inputs(), &bindings);
    assert_eq!(m.output(0, 0), fv([f32::INFINITY, f32::INFINITY, 0.0, 0.0]));
    assert_eq!(m.output(0, 1), [0; 4]);
    assert_eq!(m.output(0, 2), [0; 4]);
}

#[test]
fn an_empty_sampler_slot_reads_as_the_default_sampler_when_asked_to() {
    // PSSetSamplers with NULL "invokes the default state"; the mock records the sampler's address mode.
    let exe = exe("
        ps_4_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        sample o0, v0.xyxx, t0.xyzw, s0
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource)],
        unbound: Unbound::Zero,
        ..Bindings::default()
    };
    run_quads(&exe, &[0b0001], &quad_inputs(), &bindings);
    let Call::Sample { address_u, .. } = view.calls()[0].clone() else {
        panic!()
    };
    assert_eq!(address_u, SamplerDesc::default().address_u);
    let wrap = SamplerDesc {
        address_u: AddressMode::Wrap,
        ..SamplerDesc::default()
    };
    let view = Mock::new(SrvDimension::Texture2D);
    run_quads(&exe, &[0b0001], &quad_inputs(), &bind(&view, &wrap));
    let Call::Sample { address_u, .. } = view.calls()[0].clone() else {
        panic!()
    };
    assert_eq!(address_u, AddressMode::Wrap);
}

#[test]
fn missing_or_misshapen_bindings_are_errors_naming_the_slot() {
    let exe = exe("
        ps_4_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xy
        dcl_output o0.xyzw
        sample o0, v0.xyxx, t0.xyzw, s0
        ret
    ");
    let run = |bindings: &Bindings| {
        let mut m = Machine::new();
        m.start_quads(&exe, &[0b1111]).unwrap();
        m.run(&exe, bindings, None)
    };
    let view = Mock::new(SrvDimension::Texture2D);
    let sampler = SamplerDesc::default();
    let mut no_sampler = bind(&view, &sampler);
    no_sampler.samplers[0] = None;
    assert_eq!(run(&no_sampler).unwrap_err().at, "s0");
    let mut no_view = bind(&view, &sampler);
    no_view.resources.clear();
    let error = run(&no_view).unwrap_err();
    assert_eq!((error.what.as_str(), error.at.as_str()), ("ps_4_0", "t0"));
    // A 3D view where the program declares a 2D texture.
    let volume = Mock::new(SrvDimension::Texture3D);
    let error = run(&bind(&volume, &sampler)).unwrap_err();
    assert_eq!(error.at, "t0");
    assert!(error.detail.contains("Texture3D"), "{error}");
    // An error from the view names the instruction.
    let failing = Mock {
        fail: true,
        ..Mock::new(SrvDimension::Texture2D)
    };
    let error = run(&bind(&failing, &sampler)).unwrap_err();
    // Token 15: version and length (2), dcl_sampler (3), dcl_resource (4), dcl_input_ps (3), dcl_output (3).
    assert_eq!(error.at, "instruction 4 (token 0xf, sample)");
    assert!(error.detail.contains("could not be read"), "{error}");
}

#[test]
fn sample_info_and_positions_come_from_the_view_or_the_rasterizer() {
    let exe = exe("
        ps_5_0
        dcl_resource_texture2dms (float,float,float,float) t0
        dcl_input_ps constant v0.x
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        sample_info_uint o0.x, t0.x
        sample_info o0.y, rasterizer.x
        sample_pos o1, t0.xyzw, v0.x
        sample_pos o2, rasterizer.yxzw, v0.x
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2DMs);
    let bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource)],
        ..Bindings::default()
    };
    let inputs: Vec<Vec<(u32, [u32; 4])>> = (0..4).map(|i| vec![(0, [i, 0, 0, 0])]).collect();
    let m = run_quads(&exe, &[0b1111], &inputs, &bindings);
    // 4 samples in the view (uint), 1 in the default rasterizer pattern (float).
    assert_eq!(m.output(0, 0)[..2], [4, f(1.0)]);
    // The view's sample 2 is at (0.25, -0.25).
    assert_eq!(m.output(2, 1), fv([0.25, -0.25, 0.0, 0.0]));
    // The rasterizer's sample 0 is the centre; sample 1 does not exist: zeros (22.4.22).
    assert_eq!(m.output(0, 2), [0; 4]);
    assert_eq!(m.output(1, 2), [0; 4]);
}

#[test]
fn raw_and_structured_loads_read_the_words_the_swizzle_names() {
    // 22.4.10: the four words at the byte offset, then the resource swizzle: .wzyx reads offset + 12 first. 22.4.12:
    // structure 3, byte offset 8 (the mock answers index * 1000 + offset).
    let exe = exe("
        vs_5_0
        dcl_resource_raw t0
        dcl_resource_structured t1, 20
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        ld_raw o0.xyz, v0.x, t0.wzyx
        ld_structured o1.xy, v0.y, v0.z, t1.zwxy
        ret
    ");
    let raw = Mock::new(SrvDimension::BufferEx);
    let structured = Mock::new(SrvDimension::BufferEx);
    let bindings = Bindings {
        resources: vec![Some(&raw as &dyn ShaderResource), Some(&structured)],
        ..Bindings::default()
    };
    let m = run_vertices(
        &exe,
        &[&[(0, [100, 3, 8, 0])], &[(0, [0xFFFF_FFF8, 0, 0xFFFF_FFFC, 0])]],
        &bindings,
    );
    assert_eq!(m.output(0, 0), [112, 108, 104, 0]);
    // .zwxy: x reads the word at offset + 8, y at offset + 12.
    assert_eq!(m.output(0, 1), [3016, 3020, 0, 0]);
    // Lane 1: 0xFFFFFFF8 + 12 and + 8 are past 32 bits: out of bounds, 0, and the view is not asked; + 4 is not.
    assert_eq!(m.output(1, 0), [0, 0, 0xFFFF_FFFC, 0]);
    assert!(!raw.calls().contains(&Call::Raw(4)));
    // Structure 0 at offset 0xFFFFFFFC + 8 or + 12: past 32 bits too.
    assert_eq!(m.output(1, 1), [0, 0, 0, 0]);
    assert_eq!(
        structured.calls(),
        vec![Call::Structured(3, 16), Call::Structured(3, 20)]
    );
}

#[test]
fn lod_returns_the_views_clamped_and_unclamped_lod_swizzled() {
    let exe = exe("
        ps_4_1
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xyzw
        dcl_output o0.xyzw
        lod o0, v0.zwxx, t0.yxzw, s0
        ret
    ");
    let view = Mock::new(SrvDimension::Texture2D);
    let sampler = SamplerDesc::default();
    let m = run_quads(&exe, &[0b1111], &quad_inputs(), &bind(&view, &sampler));
    // (clamped, unclamped, 0, 0) = (1.5, -2, 0, 0), swizzled yxzw.
    assert_eq!(m.output(0, 0), fv([-2.0, 1.5, 0.0, 0.0]));
    // The address is (x * x, 7, x): coarse x derivatives along the top row 2, 0 and 1.
    assert_eq!(view.calls()[0], Call::Lod { ddx: [2.0, 0.0, 1.0] });
}
