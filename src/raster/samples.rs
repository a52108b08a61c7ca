//! Where a pixel's samples are for the rasterizer: the pattern a draw's targets use, one of the fixed sample patterns
//! of D3D10.1+ (19.2.4 "Specification of Sample Positions", which 3.5.3 points to) from their one table in
//! [`crate::api::multisample`], which `samplepos` reads too.
//!
//! Each position is an offset from the pixel centre in 1/16 pixel, x right and y down, as the tables of 19.2.4's
//! figures (`D3D11_3_MSAAPatterns_2_4.png`, `D3D11_3_MSAAPatterns_8_16.png`) write them, listed in sample-index order:
//! the spec's figures list each pattern's samples in braces, and sample `i` of a resource is the `i`-th of the list.
//! The grid spans -8 ..= 7 (the top and left edges of the pixel are -8/16; the right and bottom, +8/16, are not on it).
//!
//! - **Standard patterns (`D3D11_STANDARD_MULTISAMPLE_PATTERN`, quality `0xFFFFFFFF`).** Defined for 1 (the centre),
//!   2, 4, 8 and 16 samples. 19.2.4 lets hardware "pretend QualityLevel = 0 behaves the same as" the standard pattern;
//!   quality 0 is read so here (WARP exposes one quality level per count and uses the standard patterns).
//! - **Centre patterns (`D3D11_CENTER_MULTISAMPLE_PATTERN`, quality `0xFFFFFFFE`).** The same counts, every sample at
//!   the pixel centre (19.2.4.1: sample-frequency execution is then undefined; here it simply runs at the centre).
//! - **32 samples.** 19.2.4 postpones patterns above 16 samples ("until the sub-pixel grid can be finer"), so a
//!   32-sample target has no known sample positions and is refused.

use crate::error::ErrorKind;
use crate::{Error, Result};

pub use crate::api::multisample::{
    CENTER_MULTISAMPLE_PATTERN, STANDARD_MULTISAMPLE_PATTERN, center_pattern, standard_pattern,
};

/// The most samples a pixel has here (the 16-sample standard pattern; 19.2.4 defines none larger).
pub const MAX_SAMPLES: usize = 16;

/// The one-sample pattern: the pixel centre (19.2.4: "1(trivial)").
const CENTRE_ONLY: [[i8; 2]; 1] = [[0, 0]];

/// A pixel's sample positions: the pattern a draw's targets were created with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplePattern {
    /// Offsets from the pixel centre in 1/16 pixel (x right, y down), in sample-index order.
    offsets: &'static [[i8; 2]],
}

impl Default for SamplePattern {
    /// One sample, at the pixel centre.
    fn default() -> Self {
        Self { offsets: &CENTRE_ONLY }
    }
}

impl SamplePattern {
    /// The pattern of `count` samples at quality level `quality` (`DXGI_SAMPLE_DESC`): 0 or
    /// [`STANDARD_MULTISAMPLE_PATTERN`] for the standard pattern, [`CENTER_MULTISAMPLE_PATTERN`] for the centre one.
    /// Fails for a count 19.2.4 defines no pattern for (32) and for vendor quality levels, whose positions are
    /// not known.
    pub fn new(count: u32, quality: u32) -> Result<SamplePattern> {
        let offsets = match quality {
            0 | STANDARD_MULTISAMPLE_PATTERN => standard_pattern(count),
            CENTER_MULTISAMPLE_PATTERN => center_pattern(count),
            _ if count == 1 => Some(&CENTRE_ONLY[..]),
            _ => {
                return Err(Error::of_kind(
                    ErrorKind::Unsupported,
                    "sample pattern",
                    format!(
                        "quality level {quality:#x} of {count} samples is a vendor pattern whose positions are not known \
                         (only 0, the standard 0xFFFFFFFF and the centre 0xFFFFFFFE patterns are: 19.2.4)"
                    ),
                ));
            }
        };
        offsets.map(|offsets| SamplePattern { offsets }).ok_or_else(|| {
            Error::of_kind(
                ErrorKind::Unsupported,
                "sample pattern",
                format!("{count} samples per pixel has no standard sample pattern (19.2.4 defines 1, 2, 4, 8 and 16)"),
            )
        })
    }

    /// The number of samples.
    pub fn count(&self) -> u32 {
        self.offsets.len() as u32
    }

    /// The mask of every sample: bits `0..count`.
    pub fn full_mask(&self) -> u32 {
        full_mask(self.count())
    }

    /// Each sample's offset from the pixel centre in 1/16 pixel, in sample-index order.
    pub fn offsets(&self) -> &'static [[i8; 2]] {
        self.offsets
    }

    /// Sample `sample`'s offset from the pixel centre in 1/256 pixel (the 16.8 grid coverage is tested on); the
    /// centre for a sample past the pattern.
    pub fn offset_256(&self, sample: u32) -> [i64; 2] {
        let [dx, dy] = usize::try_from(sample)
            .ok()
            .and_then(|s| self.offsets.get(s))
            .copied()
            .unwrap_or([0, 0]);
        [i64::from(dx).saturating_mul(16), i64::from(dy).saturating_mul(16)]
    }

    /// The least and greatest offsets in 1/256 pixel along x and along y: `[[min_x, max_x], [min_y, max_y]]`.
    pub fn extent_256(&self) -> [[i64; 2]; 2] {
        let along = |axis: usize| {
            let values = self
                .offsets
                .iter()
                .map(|o| i64::from(o.get(axis).copied().unwrap_or(0)).saturating_mul(16));
            let low = values.clone().min().unwrap_or(0);
            let high = values.max().unwrap_or(0);
            [low, high]
        };
        [along(0), along(1)]
    }
}

/// The mask of the first `count` samples (bits `0..count`; all 32 for 32 or more).
pub fn full_mask(count: u32) -> u32 {
    1u32.checked_shl(count).map_or(u32::MAX, |bit| bit.wrapping_sub(1))
}
