//! Comparing a replayed target with the recorded one: the render targets and depth-stencil buffer a draw produced
//! on the CPU against what the GPU wrote, pixel by pixel, channel by channel.
//!
//! Both images are raw bytes of one DXGI format, rows packed, top row first ([`Image`]); they must have the same
//! format and size. Only formats whose texels are single elements of separately stored fields are compared (every
//! render-target and depth format); previews take any decodable format.
//!
//! # Matching
//! A channel matches by the [`Tolerance`] of its slot ([`tolerance`] has the rules, the per-format defaults and
//! the `--tolerance` syntax): exact bits, or within an absolute, relative or ULP threshold, with NaN matching any
//! NaN, infinities matching only themselves and +0 matching -0. A pixel matches when every compared channel does.
//!
//! ULP, per format kind (the steps between adjacent representable values, 3.1.2):
//! - UNORM, SRGB, UINT: one code (for SRGB a step of the stored 8-bit code). D16/D24 depth is UNORM.
//! - SNORM, SINT: one code of the two's-complement value; SNORM's two -1.0 codes are 0 ULP apart.
//! - float32/16/11/10 (and D32 depth): the number of representable floats between the two, counting +0 and -0 as
//!   one; within the binade [2^e, 2^(e+1)) one ULP is 2^(e - m) with m = 23, 10, 6, 5 mantissa bits, and the count
//!   carries on across binades and through the denormals. E.g. float16 1.0 (0x3c00) and 1.0009765625 (0x3c01)
//!   are 1 ULP apart; 2.0 and 2.001953125 are also 1 ULP apart.
//!
//! # Position deviation
//! With `position = N` a pixel that does not match in place still matches (class [`PixelClass::Shifted`]) when,
//! as VK-GL-CTS's `intThresholdPositionDeviationCompare` does, both hold: some result pixel within N columns and
//! N rows of it (clipped to the image) matches its reference pixel, and some reference pixel within that window
//! matches its result pixel. So an edge one pixel off matches; a pixel with a wrong colour seen nowhere nearby
//! does not. Neighbours are looked up anywhere in the image, not only in the compared region.
//!
//! # Ambiguity and region
//! An optional ambiguity mask marks pixels whose coverage depends on rounding at a triangle edge (the draw module
//! computes it); a difference there is counted in `ambiguous_pixels` ([`PixelClass::Ambiguous`]), not in
//! `differing_pixels`, and a target [`TargetReport::matches`] when no real difference remains. An optional
//! rectangle and an optional mask select the compared pixels (e.g. viewport ∩ scissor, pixels the draw touched).
//!
//! # Statistics ([`TargetReport`], [`ChannelStats`])
//! Counts of compared, differing, ambiguous and shifted pixels; the bounds of the differences; the first few
//! differing pixels with both values. Per channel, over the measured pixels (the compared ones except the shifted
//! and the ambiguous differences, whose in-place error is an edge's, not the shading's): max and mean absolute
//! error, max error in ULPs, mismatches involving NaN or infinity, and precision in bits:
//! - The normalized error of a channel pair is its ULP distance over the channel's whole range in ULPs (2^n - 1
//!   codes; 2^n - 2 for SNORM) for fixed-point and integer channels, and the relative error |a - b| / max(|a|,
//!   |b|) for floats.
//! - `precision_bits` = -log2(largest normalized error), floored at 0 and capped at the channel's own precision
//!   (n bits for n-bit fixed point/integers; 24, 11, 7, 6 significand bits for float32/16/11/10), so an exact match
//!   reports the cap, one 8-bit code off reports -log2(1/255) = 7.99, and a NaN or infinity mismatch reports 0.
//!   This is the guaranteed agreement: every measured pixel agrees to that many bits.
//! - `mean_square_precision_bits` is apitrace's figure (`Image::compare`, `snapdiff.py`): -log2 of the mean squared
//!   normalized error. apitrace computes it over 8-bit RGB(A) together and adds half an 8-bit LSB squared to avoid
//!   log(0); ours is per channel, capped at twice the channel's precision instead. A uniform error of one code in
//!   8 bits gives 2 * 7.99 = 15.98 (apitrace's default pass threshold is 12).
//!
//! # Pictures ([`render`])
//! The difference mask and the error heatmap of a [`Comparison`] as RGBA8, previews of any target
//! ([`preview_rgba8`]), and PNG bytes of RGBA8 buffers ([`encode_png`]).
//!
//! [`flip`] scores how visible the difference of two sRGB RGBA8 pictures is to a viewer (LDR-FLIP, Andersson et
//! al. 2020): an error in [0, 1] per pixel for a given number of pixels per degree, with its mean, percentiles
//! and a magma heatmap.

mod channel;
mod diff;
pub mod flip;
mod image;
pub mod render;
pub mod tolerance;

pub use diff::{
    ChannelStats, ChannelValues, CompareOptions, Comparison, PixelClass, PixelDifference, Rect, TargetReport, compare,
    describe_pixel,
};
pub use image::{Image, pixel_index};
pub use render::{
    HeatmapScale, PreviewChannels, PreviewOptions, PreviewStatistics, encode_png, preview_rgba8, preview_statistics,
    viridis,
};
pub use tolerance::{ChannelTolerance, MAX_POSITION_DEVIATION, Tolerance, ToleranceSpec};

#[cfg(test)]
mod tests;
