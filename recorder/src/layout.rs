//! Readback layouts of the packed depth-stencil formats and their conversion to D3D11's (what the probe of
//! `crate::probe` decides from the bytes it reads back), and the multisample copy probe's verdict (`crate::msaa`).
//! Pure byte work, tested on any host.
//!
//! D3D11 defines D24_UNORM_S8_UINT (and its family, R24G8_TYPELESS) as depth in bits 0–23 and stencil in bits
//! 24–31 of a little-endian 32-bit texel, and D32_FLOAT_S8X24_UINT (R32G8X24_TYPELESS) as the depth's 32-bit float
//! followed by a 32-bit word whose bits 0–7 are the stencil. The probe clears to depth
//! 0.25 (0x400000 as 24-bit UNORM, 0x3E800000 as a float) and stencil 0x5A.

/// The depth the probe clears to.
pub const PROBE_DEPTH: f32 = 0.25;
/// 0.25 × (2^24 − 1), rounded to nearest (4194303.75).
pub const PROBE_DEPTH24: u32 = 0x40_0000;
/// The stencil the probe clears to.
pub const PROBE_STENCIL: u8 = 0x5A;

/// How to turn a staging copy's texels into D3D11's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// Already D3D11's layout.
    None,
    /// 32-bit texels `depth24 << 8 | stencil` (OpenGL's packing) to `stencil << 24 | depth24`.
    D24S8FromGl,
    /// 64-bit texels whose second word holds the stencil in bits 24–31 to bits 0–7 (the other bits zeroed).
    D32S8FromHighStencil,
}

impl Conversion {
    /// Converts `bytes` (whole texels of the format) in place.
    pub fn apply(self, bytes: &mut [u8]) {
        match self {
            Conversion::None => {}
            Conversion::D24S8FromGl => {
                for texel in bytes.chunks_exact_mut(4) {
                    let mut word = [0u8; 4];
                    word.copy_from_slice(texel);
                    let gl = u32::from_le_bytes(word);
                    // depth24 << 8 | stencil, rotated right by 8 bits: stencil << 24 | depth24.
                    texel.copy_from_slice(&gl.rotate_right(8).to_le_bytes());
                }
            }
            Conversion::D32S8FromHighStencil => {
                for texel in bytes.chunks_exact_mut(8) {
                    if let Some(second) = texel.get_mut(4..8) {
                        let stencil = second.get(3).copied().unwrap_or(0);
                        second.copy_from_slice(&[stencil, 0, 0, 0]);
                    }
                }
            }
        }
    }
}

/// What the probe found for one format: a conversion, or the bytes it could not place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The probe recognised the layout.
    Known(Conversion),
    /// The probe failed or read bytes it does not recognise: why.
    Unknown(String),
}

/// Decides the layout from the first texel a probe of a 32-bit (D24S8 family) format read back.
pub fn classify_d24s8(texel: [u8; 4]) -> Layout {
    let word = u32::from_le_bytes(texel);
    let near = |depth: u32| depth.abs_diff(PROBE_DEPTH24) <= 1;
    if (word >> 24) as u8 == PROBE_STENCIL && near(word & 0xFF_FFFF) {
        Layout::Known(Conversion::None)
    } else if word as u8 == PROBE_STENCIL && near(word >> 8) {
        Layout::Known(Conversion::D24S8FromGl)
    } else {
        Layout::Unknown(format!(
            "a probe cleared to depth {PROBE_DEPTH}, stencil {PROBE_STENCIL:#x} read back bytes {texel:02x?}, a layout \
             the recorder does not know"
        ))
    }
}

/// Decides the layout from the first texel a probe of a 64-bit (D32S8X24 family) format read back.
pub fn classify_d32s8(texel: [u8; 8]) -> Layout {
    let [d0, d1, d2, d3, s0, s1, s2, s3] = texel;
    let depth = f32::from_le_bytes([d0, d1, d2, d3]);
    if depth != PROBE_DEPTH {
        Layout::Unknown(format!(
            "a probe cleared to depth {PROBE_DEPTH}, stencil {PROBE_STENCIL:#x} read back bytes {texel:02x?} (depth \
             {depth}), a layout the recorder does not know"
        ))
    } else if s0 == PROBE_STENCIL {
        Layout::Known(Conversion::None)
    } else if s3 == PROBE_STENCIL && [s0, s1, s2] == [0, 0, 0] {
        Layout::Known(Conversion::D32S8FromHighStencil)
    } else {
        Layout::Unknown(format!(
            "a probe cleared to depth {PROBE_DEPTH}, stencil {PROBE_STENCIL:#x} read back bytes {texel:02x?}, a layout \
             the recorder does not know"
        ))
    }
}

/// The side of the multisample copy probe's textures (`crate::msaa`).
pub const COPY_PROBE_SIDE: u32 = 2;

/// Whether a `CopyResource` of a multisampled colour texture into the reader's copy keeps every sample, as the copy
/// probe found on a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyProbe {
    /// Each sample of the copy is the source's.
    Keeps,
    /// Each sample of the copy holds the source texel's resolve (Wine's d3d11 into a copy bound as a shader
    /// resource only).
    Resolves,
    /// The probe failed or read something else; the text says what.
    Unknown(String),
}

/// The copy probe's verdict from the planes' bytes (texel (0, 0) of sample 0 at byte 0, of sample 1 two rows on):
/// colour drawn white over opaque black; depth-stencil as the D24S8 reader packs it, 0 drawn over 0xFFFFFF.
pub fn classify_copy_probe(bytes: &[u8], depth: bool) -> CopyProbe {
    const ROW: usize = COPY_PROBE_SIDE as usize * 4;
    let (Some(sample0), Some(sample1)) = (bytes.get(..4), bytes.get(2 * ROW..2 * ROW + 4)) else {
        return CopyProbe::Unknown(format!("the probe read {} bytes", bytes.len()));
    };
    let (drawn, cleared): ([u8; 4], [u8; 4]) = if depth {
        ([0, 0, 0, 0], [0xff, 0xff, 0xff, 0])
    } else {
        ([0xff; 4], [0, 0, 0, 0xff])
    };
    match (sample0, sample1) {
        (a, b) if a == drawn && b == cleared => CopyProbe::Keeps,
        (a, b) if a == b => CopyProbe::Resolves,
        (a, b) => CopyProbe::Unknown(format!("sample 0 read {a:02x?} and sample 1 {b:02x?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_d3d_and_opengl_packings_of_the_probe_are_told_apart() {
        // D3D11: depth 0x400000 in bits 0-23, stencil 0x5A in 24-31.
        assert_eq!(
            classify_d24s8([0x00, 0x00, 0x40, 0x5A]),
            Layout::Known(Conversion::None)
        );
        // OpenGL: 0x400000 << 8 | 0x5A.
        assert_eq!(
            classify_d24s8([0x5A, 0x00, 0x00, 0x40]),
            Layout::Known(Conversion::D24S8FromGl)
        );
        assert!(matches!(classify_d24s8([1, 2, 3, 4]), Layout::Unknown(_)));
        // 0.25f is 0x3E800000.
        assert_eq!(
            classify_d32s8([0, 0, 0x80, 0x3E, 0x5A, 0, 0, 0]),
            Layout::Known(Conversion::None)
        );
        assert_eq!(
            classify_d32s8([0, 0, 0x80, 0x3E, 0, 0, 0, 0x5A]),
            Layout::Known(Conversion::D32S8FromHighStencil)
        );
        assert!(matches!(
            classify_d32s8([0, 0, 0x80, 0x3F, 0x5A, 0, 0, 0]),
            Layout::Unknown(_)
        ));
    }

    #[test]
    fn opengl_packed_texels_become_d3d11_texels() {
        // A clear to depth 1.0, stencil 0 reads back under Wine as 00 ff ff ff; D3D11's layout is ff ff ff 00.
        let mut bytes = [0x00, 0xFF, 0xFF, 0xFF, 0x5A, 0x00, 0x00, 0x40];
        Conversion::D24S8FromGl.apply(&mut bytes);
        assert_eq!(bytes, [0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x40, 0x5A]);
        let mut bytes = [0, 0, 0x80, 0x3E, 0, 0, 0, 0x5A];
        Conversion::D32S8FromHighStencil.apply(&mut bytes);
        assert_eq!(bytes, [0, 0, 0x80, 0x3E, 0x5A, 0, 0, 0]);
    }

    #[test]
    fn the_copy_probe_tells_kept_samples_from_a_resolve() {
        // Two rows of two RGBA8 texels per sample: texel (0, 0) of sample 0 at byte 0, of sample 1 at byte 16.
        let planes = |s0: [u8; 4], s1: [u8; 4]| -> Vec<u8> {
            let mut bytes = vec![0u8; 4 * 16];
            bytes[..4].copy_from_slice(&s0);
            bytes[16..20].copy_from_slice(&s1);
            bytes
        };
        // colour: white drawn into sample 0 over opaque black
        assert_eq!(
            classify_copy_probe(&planes([255; 4], [0, 0, 0, 255]), false),
            CopyProbe::Keeps
        );
        // Wine's copy: each sample holds the average, (255 + 3 * 0) / 4 rounded, alpha 255
        assert_eq!(
            classify_copy_probe(&planes([64, 64, 64, 255], [64, 64, 64, 255]), false),
            CopyProbe::Resolves
        );
        assert!(matches!(
            classify_copy_probe(&planes([255; 4], [9, 9, 9, 9]), false),
            CopyProbe::Unknown(_)
        ));
        // depth-stencil, as the D24S8 reader packs it: depth 0 drawn into sample 0 over 0xFFFFFF, stencil 0
        assert_eq!(
            classify_copy_probe(&planes([0; 4], [0xff, 0xff, 0xff, 0]), true),
            CopyProbe::Keeps
        );
        assert_eq!(classify_copy_probe(&planes([0; 4], [0; 4]), true), CopyProbe::Resolves);
        // colour bytes read as depth are neither
        assert!(matches!(
            classify_copy_probe(&planes([255; 4], [0, 0, 0, 255]), true),
            CopyProbe::Unknown(_)
        ));
        assert!(matches!(classify_copy_probe(&[0; 8], false), CopyProbe::Unknown(_)));
    }
}
