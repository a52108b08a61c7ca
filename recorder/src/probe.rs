//! The readback layout probe: how a device's staging copies lay out the texels of the packed depth-stencil formats,
//! found by writing known texels and reading them back — never assumed from the host's name.
//!
//! D3D11 defines D24_UNORM_S8_UINT (and its family, R24G8_TYPELESS) as depth in bits 0–23 and stencil in bits
//! 24–31 of a little-endian 32-bit texel, and D32_FLOAT_S8X24_UINT (R32G8X24_TYPELESS) as the depth's 32-bit float
//! followed by a 32-bit word whose bits 0–7 are the stencil. Wine's d3d11 (wined3d on OpenGL) hands a staging copy
//! of a D24S8 resource back in OpenGL's packing instead, `depth24 << 8 | stencil`. The probe, run on the program's
//! own device at the first read of such a format in a capture: a 2×2 texture of the format, cleared through a
//! depth-stencil view to depth 0.25 (0x400000 as 24-bit UNORM, 0x3E800000 as a float) and stencil 0x5A, copied to
//! a staging texture and mapped on the device's immediate context (predication off meanwhile; clears and copies
//! touch no pipeline state). The first texel's bytes decide the layout; readbacks of the format are then converted
//! to D3D11's, and a result the probe does not recognise makes every draw reading or writing the format a draw
//! the capture lists as not recorded, with the bytes the probe read as the reason.

use crate::layout::{Layout, PROBE_DEPTH, PROBE_STENCIL, classify_d24s8, classify_d32s8};
use crate::readback::{Predication, Result, StagingDesc};
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::*;

/// The resource formats whose readback layout is probed, each with the depth-stencil view format that clears it.
pub const PROBED: [(DXGI_FORMAT, DXGI_FORMAT); 4] = [
    (DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT),
    (DXGI_FORMAT_R24G8_TYPELESS, DXGI_FORMAT_D24_UNORM_S8_UINT),
    (DXGI_FORMAT_D32_FLOAT_S8X24_UINT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT),
    (DXGI_FORMAT_R32G8X24_TYPELESS, DXGI_FORMAT_D32_FLOAT_S8X24_UINT),
];

/// The name of a probed format, for the log.
pub fn format_name(format: DXGI_FORMAT) -> &'static str {
    match format {
        DXGI_FORMAT_D24_UNORM_S8_UINT => "D24_UNORM_S8_UINT",
        DXGI_FORMAT_R24G8_TYPELESS => "R24G8_TYPELESS",
        DXGI_FORMAT_D32_FLOAT_S8X24_UINT => "D32_FLOAT_S8X24_UINT",
        DXGI_FORMAT_R32G8X24_TYPELESS => "R32G8X24_TYPELESS",
        _ => "another format",
    }
}

/// Runs the probe for the resource format `format` (cleared through a view of `view_format`) on `device`: the
/// layout found and the bytes read, for the log.
pub fn probe(device: &ID3D11Device, format: DXGI_FORMAT, view_format: DXGI_FORMAT) -> Layout {
    match read_probe(device, format, view_format) {
        Ok(bytes) => {
            let mut texel4 = [0u8; 4];
            let mut texel8 = [0u8; 8];
            if format == DXGI_FORMAT_D24_UNORM_S8_UINT || format == DXGI_FORMAT_R24G8_TYPELESS {
                match bytes.get(..4) {
                    Some(b) => texel4.copy_from_slice(b),
                    None => return Layout::Unknown("the probe read fewer bytes than a texel".to_owned()),
                }
                classify_d24s8(texel4)
            } else {
                match bytes.get(..8) {
                    Some(b) => texel8.copy_from_slice(b),
                    None => return Layout::Unknown("the probe read fewer bytes than a texel".to_owned()),
                }
                classify_d32s8(texel8)
            }
        }
        Err(e) => Layout::Unknown(format!("the readback layout probe failed: {e}")),
    }
}

/// A failure of a call, as text.
fn fail(what: &'static str) -> impl Fn(windows::core::Error) -> String {
    move |e| format!("{what} failed: {e}")
}

/// The probe's GPU work: the cleared texture's first row, as the staging copy gives it.
fn read_probe(device: &ID3D11Device, format: DXGI_FORMAT, view_format: DXGI_FORMAT) -> Result<Vec<u8>> {
    let desc = D3D11_TEXTURE2D_DESC {
        Width: 2,
        Height: 2,
        MipLevels: 1,
        ArraySize: 1,
        Format: format,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Usage: D3D11_USAGE_DEFAULT,
        BindFlags: D3D11_BIND_DEPTH_STENCIL.0 as u32,
        CPUAccessFlags: 0,
        MiscFlags: 0,
    };
    let mut texture = None;
    // SAFETY: a live device; the description is complete; the out-parameter is a local.
    unsafe { device.CreateTexture2D(&desc, None, Some(&mut texture)) }.map_err(fail("CreateTexture2D"))?;
    let texture = texture.ok_or("no probe texture")?;
    let view_desc = D3D11_DEPTH_STENCIL_VIEW_DESC {
        Format: view_format,
        ViewDimension: D3D11_DSV_DIMENSION_TEXTURE2D,
        Flags: 0,
        Anonymous: D3D11_DEPTH_STENCIL_VIEW_DESC_0 {
            Texture2D: D3D11_TEX2D_DSV { MipSlice: 0 },
        },
    };
    let mut view = None;
    // SAFETY: a live device and texture; the description is complete; the out-parameter is a local.
    unsafe { device.CreateDepthStencilView(&texture, Some(&view_desc), Some(&mut view)) }
        .map_err(fail("CreateDepthStencilView"))?;
    let view = view.ok_or("no probe view")?;
    let staging = StagingDesc::texture_2d(desc.Width, desc.Height, format).create(device)?;
    // SAFETY: a live device; the context is AddRef'd and released on drop.
    let context = unsafe { device.GetImmediateContext() }.map_err(fail("GetImmediateContext"))?;
    let predication = Predication::suspend(&context);
    // SAFETY: (these two) a live context, the recorder's own view and textures; no pipeline state is touched.
    unsafe {
        context.ClearDepthStencilView(
            &view,
            D3D11_CLEAR_DEPTH.0 | D3D11_CLEAR_STENCIL.0,
            PROBE_DEPTH,
            PROBE_STENCIL,
        );
        context.CopyResource(&staging, &texture);
    }
    predication.restore(&context);
    let texel_bytes = if view_format == DXGI_FORMAT_D24_UNORM_S8_UINT {
        4
    } else {
        8
    };
    crate::readback::map_rows(&context, &staging, 0, texel_bytes * 2, 1, 1)
}
