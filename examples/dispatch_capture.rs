//! Writes a capture holding a dispatch, for the viewer's browser test (`tests/browser/dispatches.test.ts`): draw 0
//! of `fixtures/captures/03-post-process.iridia`, then a compute program over a 16x16 `R8G8B8A8_UINT` texture view
//! `u0` and a counter view `u1` of 256 words, 4x4 groups of 4x4 threads, each thread storing (16 x, 16 y, 128, 255)
//! at its `SV_DispatchThreadID` (x, y) in `u0`, then taking a slot of `u1`'s counter (from 0) and storing the slot's
//! number there. What the GPU left is worked out by hand: `u1` holds 0..255 and its counter 256 whichever thread took
//! which slot; `u0` as stored, with texels (5, 3) and (10, 12) recorded as (0, 0, 0, 255): the replay differs there
//! and nowhere else.
//!
//! ```sh
//! cargo run --example dispatch_capture -- OUT.iridia
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use iridia::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use iridia::api::enums::{ResourceDimension, UavDimension};
use iridia::api::resource::{Resource, Texture, TextureShape};
use iridia::capture::{Capture, CaptureWriter, DispatchRecord, DrawRecord};
use iridia::dispatch::UavContents;
use iridia::format::Format;

/// The compute program: instructions 0..4 are declarations, 5 the shift, 6 the mov, 7 the typed store, 8 the
/// counter's slot, 9 its store.
const PROGRAM: &str = "cs_5_0
dcl_uav_typed_texture2d (uint,uint,uint,uint) u0
dcl_uav_structured_opc u1, 4
dcl_input vThreadID.xy
dcl_temps 2
dcl_thread_group 4, 4, 1
ishl r0.xy, vThreadID.xyxx, l(4, 4, 0, 0)
mov r0.zw, l(0, 0, 128, 255)
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw
imm_atomic_alloc r1.x, u1
store_structured u1.x, r1.x, l(0), r1.x
ret
";

/// The texture's side in texels.
const SIDE: u8 = 16;

/// Its bytes: 16 x 16 texels of 4 bytes.
const BYTES: usize = 1024;

fn run(out: &str) -> Result<(), String> {
    let shape = TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R8G8B8A8Uint,
        width: u32::from(SIDE),
        height: u32::from(SIDE),
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count: 1,
    };
    let texture = Texture::new(shape, vec![Arc::from(vec![0u8; BYTES])]).map_err(|e| e.to_string())?;
    let state = DispatchState {
        compute_shader: iridia::dxbc::asm::assemble(PROGRAM).map_err(|e| e.to_string())?.into(),
        bindings: Default::default(),
        uavs: vec![
            Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Texture(texture)),
                desc: UnorderedAccessViewDesc {
                    format: Format::R8G8B8A8Uint,
                    dimension: UavDimension::Texture2D,
                    ..Default::default()
                },
                initial_count: None,
            }),
            Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Buffer(vec![0u8; BYTES].into())),
                desc: UnorderedAccessViewDesc {
                    dimension: UavDimension::Buffer,
                    num_elements: 256,
                    structure_stride: 4,
                    counter: true,
                    ..Default::default()
                },
                initial_count: Some(0),
            }),
        ],
        groups: [4, 4, 1],
    };
    // what every thread stores, by hand; two texels as if the GPU had left them otherwise
    let mut after = Vec::with_capacity(BYTES);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let altered = (x, y) == (5, 3) || (x, y) == (10, 12);
            after.extend(if altered {
                [0, 0, 0, 255]
            } else {
                [x.wrapping_mul(16), y.wrapping_mul(16), 128, 255]
            });
        }
    }
    let mut record = DispatchRecord::new(state);
    record.api_call = Some("Dispatch(4, 4, 1)".into());
    let slots: Vec<u8> = (0..256u32).flat_map(u32::to_le_bytes).collect();
    record.after = vec![
        Some(UavContents {
            bytes: after,
            counter: None,
        }),
        Some(UavContents {
            bytes: slots,
            counter: Some(256),
        }),
    ];
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/captures/03-post-process.iridia");
    let mut source =
        Capture::open(std::fs::read(fixture).map_err(|e| format!("{fixture}: {e}"))?).map_err(|e| e.to_string())?;
    let mut writer = CaptureWriter::in_memory();
    writer
        .add_draw(&DrawRecord::from(source.draw(0).map_err(|e| e.to_string())?))
        .map_err(|e| e.to_string())?;
    writer.add_dispatch(&record).map_err(|e| e.to_string())?;
    let bytes = writer.finish_to_vec().map_err(|e| e.to_string())?;
    std::fs::write(out, bytes).map_err(|e| format!("{out}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(out) = args.get(1) else {
        eprintln!("usage: dispatch_capture OUT.iridia");
        return ExitCode::from(2);
    };
    match run(out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("dispatch_capture: {message}");
            ExitCode::from(2)
        }
    }
}
