//! What the recorder keeps on the program's own objects as private data (`SetPrivateData`), because it cannot be
//! queried later: each shader's DXBC and each input layout's elements. The device's hooks store it when the
//! object is made; the capture reads it back at a draw.

use windows::Win32::Graphics::Direct3D11::ID3D11DeviceChild;
use windows::core::GUID;

/// The private-data key of a shader's DXBC container.
pub const DXBC_KEY: GUID = GUID::from_u128(0x6b1d2f0e_5a7c_4e3b_9d21_1f0a8c3e7d01);

/// The private-data key of an input layout's elements (JSON of `Vec<iridia::api::fixed_function::InputElementDesc>`).
pub const LAYOUT_KEY: GUID = GUID::from_u128(0x6b1d2f0e_5a7c_4e3b_9d21_1f0a8c3e7d02);

/// The private-data key of a geometry shader made by `CreateGeometryShaderWithStreamOutput`: its stream-output
/// declaration, strides and rasterized stream (JSON of `iridia::capture::manifest::StreamOutputStateEntry` with no
/// targets).
pub const STREAM_OUTPUT_KEY: GUID = GUID::from_u128(0x6b1d2f0e_5a7c_4e3b_9d21_1f0a8c3e7d03);

/// The private data `key` of `object`, if it has some.
pub fn private_data(object: &ID3D11DeviceChild, key: &GUID) -> Option<Vec<u8>> {
    let mut size = 0u32;
    // SAFETY: asks for the size only (no buffer).
    unsafe { object.GetPrivateData(key, &mut size, None) }.ok()?;
    let mut bytes = vec![0u8; size as usize];
    // SAFETY: `bytes` is writable for `size` bytes.
    unsafe { object.GetPrivateData(key, &mut size, Some(bytes.as_mut_ptr().cast())) }.ok()?;
    bytes.truncate(size as usize);
    Some(bytes)
}
