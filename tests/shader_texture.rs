//! Texture instructions of the interpreter through real views (`shader::texture`): the interpreter's operand
//! decoding, implicit derivatives and result swizzle composed with the texture module's addressing, on cases whose
//! texels are known by construction.

// Test code: expected values from small constants, and unwrap/index/panic as assertions.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::sync::Arc;

use iridia::api::enums::{AddressMode, Filter, ResourceDimension, SrvDimension};
use iridia::api::resource::{Resource, SamplerDesc, ShaderResourceView, ShaderResourceViewDesc, Texture, TextureShape};
use iridia::dxbc::program;
use iridia::format::Format;
use iridia::shader::texture::TextureView;
use iridia::shader::{Bindings, Executable, Machine, ShaderResource};

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A 4x2 R32G32B32A32_FLOAT texture, one mip, whose texel (x, y) is (x, y, 10x + y, 1).
fn texture() -> TextureView {
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R32G32B32A32Float,
        width: 4,
        height: 2,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count: 1,
    };
    let mut bytes = Vec::new();
    for y in 0..2 {
        for x in 0..4 {
            for v in [x as f32, y as f32, (10 * x + y) as f32, 1.0] {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let texture = Texture::new(shape, vec![Arc::from(bytes)]).unwrap();
    let view = ShaderResourceView {
        resource: Arc::new(Resource::Texture(texture)),
        desc: ShaderResourceViewDesc {
            format: Format::R32G32B32A32Float,
            dimension: SrvDimension::Texture2D,
            mip_levels: 1,
            ..ShaderResourceViewDesc::default()
        },
    };
    TextureView::new(&view).unwrap()
}

/// The program, through the crate's assembler (`dxbc::asm`).
fn sample_program() -> Executable {
    // ps_4_0: sample o0, v0.xyxx, t0.zyxw, s0 ; ld o1, v1, t0.xyzw ; resinfo_uint o2, l(0), t0.xyzw.
    let text = "
        ps_4_0
        dcl_sampler s0
        dcl_resource_texture2d (float,float,float,float) t0
        dcl_input_ps linear v0.xy
        dcl_input_ps constant v1.xyzw
        dcl_output o0.xyzw
        dcl_output o1.xyzw
        dcl_output o2.xyzw
        sample o0.xyzw, v0.xyxx, t0.zyxw, s0
        ld(1,0,0) o1.xyzw, v1.xyzw, t0.xyzw
        resinfo_uint o2.xyzw, l(0), t0.xyzw
        ret
    ";
    let program = iridia::dxbc::asm::assemble_program(text).unwrap_or_else(|e| panic!("{e}"));
    let program = program::decode(&program::encode(&program).unwrap()).unwrap();
    Executable::new(&program).unwrap()
}

#[test]
fn point_sampling_at_texel_centres_returns_each_lanes_texel_swizzled() {
    // A quad at pixel (2, 0) of a 4x2 target mapped onto the 4x2 texture: uv = ((x + 0.5) / 4, (y + 0.5) / 2) is a
    // texel centre, so a point sample reads texel (x, y) exactly; .zyxw swizzles it to (10x + y, y, x, 1). The
    // derivatives (1/4, 1/2 per pixel) are one texel: LOD 0, the only mip.
    let exe = sample_program();
    let view = texture();
    let sampler = SamplerDesc {
        filter: Filter::MinMagMipPoint,
        address_u: AddressMode::Clamp,
        address_v: AddressMode::Clamp,
        ..SamplerDesc::default()
    };
    let mut bindings = Bindings {
        resources: vec![Some(&view as &dyn ShaderResource)],
        ..Bindings::default()
    };
    bindings.samplers[0] = Some(&sampler);
    let mut m = Machine::new();
    m.start_quads(&exe, &[0b1111]).unwrap();
    let pixels = [(2u32, 0u32), (3, 0), (2, 1), (3, 1)];
    for (lane, (x, y)) in pixels.iter().enumerate() {
        let uv = [(*x as f32 + 0.5) / 4.0, (*y as f32 + 0.5) / 2.0];
        m.set_input(lane, 0, [f(uv[0]), f(uv[1]), 0, 0]).unwrap();
        // ld at (x - 1, y) with the immediate offset (1, 0): texel (x, y) again; mip 0.
        m.set_input(lane, 1, [x - 1, *y, 0, 0]).unwrap();
    }
    m.run(&exe, &bindings, None).unwrap();
    for (lane, (x, y)) in pixels.iter().enumerate() {
        let (x, y) = (*x as f32, *y as f32);
        assert_eq!(m.output(lane, 0), [f(10.0 * x + y), f(y), f(x), f(1.0)], "lane {lane}");
        assert_eq!(m.output(lane, 1), [f(x), f(y), f(10.0 * x + y), f(1.0)], "lane {lane}");
        // resinfo_uint: width 4, height 2, 0 (a 2D texture has no depth), 1 mip (22.4.14).
        assert_eq!(m.output(lane, 2), [4, 2, 0, 1]);
    }
}
