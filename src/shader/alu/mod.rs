//! What each SM4/SM5 arithmetic, bitwise, comparison, move and conversion instruction does to one lane, on raw
//! register words: a `u32` is one 32-bit component (float bits or an integer), a [`DoubleWords`] is the pair of
//! components an SM5 double occupies (`.xy` or `.zw`, low word first). The interpreter decodes operands, applies
//! swizzles and source modifiers ([`neg`], [`abs`], [`ineg`], [`dneg`], [`dabs`]), calls the function named after the
//! opcode, then applies `_sat` ([`saturate`], [`dsaturate`]) and the write mask. Booleans are `0xFFFFFFFF` (true) and
//! `0` (false), as every comparison in section 22.6 writes them.
//!
//! The rules are the D3D11.3 functional specification's; section numbers below are that document's.
//!
//! - **32-bit float arithmetic** (3.1.3, 22.10). Add, subtract and multiply round to nearest even (0.5 ULP). A
//!   denormal input is read as a zero of its sign and a denormal result is written as a zero of its sign (3.1.3.2:
//!   "Denorms MUST be flushed to sign-preserved zero on input and output of any floating point mathematical
//!   operation"). The spec does not say whether "denormal result" is judged before or after rounding; here a result
//!   is flushed when, rounded to 24 bits with an unbounded exponent, it is below 2^-126 — how x86 SSE's flush-to-zero
//!   (the hardware WARP runs on) detects tininess. So `2^-126 * (1 - 2^-24)` is `+0`, not `2^-126`.
//! - **Moves do not flush** (3.1.3.2: "executing mov instruction or conditional move/swap instruction (excluding min
//!   or max instructions), must not alter data at all"). [`mov`], [`movc`], [`swapc`], [`dmov`], [`dmovc`] and every
//!   bitwise and integer instruction pass bits through untouched; so do the sign modifiers [`neg`] and [`abs`]
//!   (22.18: they "simply flip" / "force" the sign). Every other float instruction flushes, comparisons and
//!   [`min`]/[`max`] included (22.6, 22.10.10).
//! - **NaN.** Any NaN input makes a NaN result, comparisons excepted (3.1.3.1). The spec leaves the bit pattern open
//!   (3.1.3.2), and Rust leaves it platform-dependent, so every float instruction that makes a NaN writes
//!   [`NAN_F32`] (doubles [`NAN_F64`]); the native and wasm builds then agree bit for bit. Moves keep the NaN's bits.
//! - **min/max** (22.10.10-11, 3.1.3.2): a NaN operand yields the other operand, two NaNs yield NaN. Signed zeros
//!   follow the IEEE 754R order the spec recommends but does not enforce: `min(-0, +0) = -0`, `max(-0, +0) = +0`, in
//!   either operand order. Denormals are flushed for the comparison, and the spec lets the result be flushed or not;
//!   here the result is the flushed operand.
//! - **mad and the dot products are not fused.** 3.1.3.2 allows any result at least as accurate as "the worst
//!   possible serial ordering of evaluation of the unfused expansion". Here [`mad`] is [`mul`] then [`add`], each
//!   rounded and flushed, and `dpN` is `((a.x*b.x + a.y*b.y) + a.z*b.z) + a.w*b.w`, left to right as 22.10.3-5 write
//!   it, every product and sum rounded and flushed. WARP's own choice is not published and has not been measured
//!   here; its published descriptions name SSE2 and SSE4.1 as its JIT's targets, which have no fused multiply-add,
//!   and a JIT that runs lanes side by side (one register per component) chains the products in this order. (A
//!   fused `mad` would differ in the last bit on some inputs, and so would a pairwise `dp4` `(xx + yy) + (zz + ww)`,
//!   what SSE4.1's `dpps` computes.)
//! - **div** (22.10.2) divides directly, correctly rounded, so `inf / 1e38` is `inf` (the spec also allows
//!   `a * (1/b)`, which can give NaN there).
//! - **Transcendentals** [`rcp`], [`rsq`], [`exp`], [`log`], [`sincos`] (and [`sqrt`]) flush their input, compute in
//!   f64 and round once to f32 (then flush). The spec's tolerances are loose: `rcp` and `rsq` "maximum relative error
//!   is 2^-21" (22.10.18-19), `exp` "maximum relative error is 2^-21" (22.10.6), `log` "if src0 is [0.5..2], absolute
//!   error must be no more than 2^-21. If src0 is (0..0.5) or (2..+INF], relative error must be no more than 2^-21"
//!   (22.10.8), `sincos` "maximum absolute error is 0.0008 in the interval from -100*Pi to +100*Pi" (22.10.20),
//!   `sqrt` "1 ulp" (22.10.21). The f64 result is within one f64 ULP (relative error below 2^-52) of the exact value,
//!   so after rounding to f32 the error is at most half an f32 ULP plus 2^-52 relative — far inside every bound
//!   above. `rcp` and `sqrt` are correctly rounded outright (one f64 operation rounded to f32 is correctly rounded
//!   for division and square root, since 53 >= 2*24 + 2). The special values are the spec's tables: `rsq(-0) =
//!   -inf`, `log(±0) = -inf`, `log(<0) = NaN`, `exp(-inf) = +0`, `sin(±inf) = NaN`. GPUs and WARP use cheaper
//!   approximations, so their last bits can differ from these correctly rounded values; the libm f64 functions
//!   (glibc natively, Rust's libm port on wasm) agree after rounding to f32 except when the f64 result lies within
//!   one f64 ULP of an f32 rounding midpoint.
//! - **frc** (22.10.7) is `x - round_ni(x)` rounded to f32, as the operation says, so a tiny negative `x` such as
//!   `-2^-30` gives `1.0` (the table's `[+0 to 1)` assumes no rounding).
//! - **Integers** (22.11, 22.12) wrap (no carry out except [`uaddc`]/[`usubb`]); shift amounts and bitfield
//!   widths/offsets use their low 5 bits; [`udiv`] by zero gives `0xFFFFFFFF` for quotient and remainder;
//!   `firstbit_*` give `0xFFFFFFFF` when no bit matches and count from the MSB for `_hi`/`_shi` ("firstbit_hi on
//!   0x10000000 returns 3"); [`msad`] saturates on overflow (the recommended choice; wrapping is also allowed).
//! - **Conversions** (22.13, 3.2.2). [`ftoi`]/[`ftou`] round toward zero, saturate, and turn NaN into 0; [`itof`]/
//!   [`utof`] round to nearest even (recommended, not required). [`f32tof16`] follows 3.2.2, which says float-to-float
//!   conversion to a lower-range format rounds toward zero: a finite value too large becomes the largest half
//!   (65504, `0x7BFF`), not infinity; infinity stays infinity; a value below the half range becomes a half denormal or
//!   a zero of its sign. (Mesa's llvmpipe also converts to half rounding toward zero, noting that GL would prefer
//!   nearest-even; GPUs commonly round to nearest.) The upper 16 bits of the result are 0. [`f16tof32`] is exact,
//!   half denormals becoming normal floats.
//! - **Doubles** (3.1.4, 22.14-22.17) are IEEE 754 binary64 with denormals kept on input and output, rounded to
//!   nearest even; [`dfma`] is fused (one rounding); [`drcp`] is correctly rounded (the spec allows 1 ULP). Where the
//!   spec's result tables for `drcp` and `ddiv` read a double denormal as zero (they were copied from the float
//!   tables: "F means finite real number (flushed to signed 0 if denorm)"), 3.1.4 wins: "instructions do not read
//!   denormalized data as a signed zero - they honor the denorm value", and [`drcp`] must "support NaNs, INFs, and
//!   Denorms appropriately". [`dtof`] rounds to nearest even ("using round-to-nearest-even rounding", 22.17.1), so a
//!   value past the float range becomes infinity; [`dtof`] and [`ftod`] may honor or flush float denormals (22.17.1-2)
//!   and here flush them, as 3.2.2 counts 32-bit floats as a format without denormals. [`dtoi`]/[`dtou`] truncate,
//!   saturate and turn NaN into 0 like their float versions.

mod convert;
mod double;
mod float;
mod integer;

pub use convert::*;
pub use double::*;
pub use float::*;
pub use integer::*;

/// The one NaN every 32-bit float instruction writes when its result is NaN: positive, quiet, no payload.
pub const NAN_F32: u32 = 0x7FC0_0000;

/// The one NaN every double instruction writes when its result is NaN: positive, quiet, no payload.
pub const NAN_F64: u64 = 0x7FF8_0000_0000_0000;

/// A comparison's "true": every bit set (22.6).
pub const TRUE: u32 = 0xFFFF_FFFF;

/// A comparison's "false".
pub const FALSE: u32 = 0;

/// The sign bit of a 32-bit float.
const SIGN_F32: u32 = 0x8000_0000;

/// The exponent field of a 32-bit float.
const EXPONENT_F32: u32 = 0x7F80_0000;

/// A double as the two 32-bit register components it occupies: `[low word, high word]`, the `.x`/`.z` component
/// first and the `.y`/`.w` component second (3.1.4: "One double is stored in .xy with the least significant 32 bits
/// in x, and the most significant 32 bits in y").
pub type DoubleWords = [u32; 2];

/// A comparison result as a register word: [`TRUE`] or [`FALSE`].
#[inline]
pub fn mask(condition: bool) -> u32 {
    if condition { TRUE } else { FALSE }
}

/// `bits` with a denormal (zero exponent, non-zero fraction) replaced by a zero of its sign; other values unchanged.
/// This is how every float instruction but the moves reads its inputs (3.1.3.2).
#[inline]
pub fn flush_denorm(bits: u32) -> u32 {
    if bits & EXPONENT_F32 == 0 {
        bits & SIGN_F32
    } else {
        bits
    }
}

/// The negate source modifier on a float operand: the sign flipped, infinities and NaNs included, nothing else
/// touched (22.18.2). Integer operands negate with [`ineg`].
#[inline]
pub fn neg(bits: u32) -> u32 {
    bits ^ SIGN_F32
}

/// The absolute-value source modifier on a float operand: the sign cleared, nothing else touched (22.18.1). `-x_abs`
/// is `neg(abs(x))`.
#[inline]
pub fn abs(bits: u32) -> u32 {
    bits & !SIGN_F32
}

/// The `_sat` result modifier on a float result: `min(1.0, max(0.0, x))` with [`min`] and [`max`]'s rules (22.19.1),
/// so NaN becomes `+0`, `-0` becomes `+0` and a denormal becomes `+0`.
#[inline]
pub fn saturate(bits: u32) -> u32 {
    min(1.0f32.to_bits(), max(0, bits))
}

/// A float input as an instruction reads it: denormals flushed (3.1.3.2), widened exactly to f64 so that one
/// operation and one rounding (by [`round_to_f32`]) give the correctly rounded float result.
#[inline]
fn read_f32(bits: u32) -> f64 {
    f64::from(f32::from_bits(flush_denorm(bits)))
}

/// 2^64, to scale a tiny value into the normal float range without losing bits.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// The smallest normal float, 2^-126, scaled by 2^64: 2^-62 (biased exponent 65).
const MIN_NORMAL_TIMES_TWO_POW_64: f32 = f32::from_bits(65 << 23);

/// A float instruction's result: `value` rounded to the nearest 32-bit float (ties to even), written as [`NAN_F32`]
/// if NaN, and flushed to a zero of its sign if tiny, judged after rounding to 24 bits with an unbounded exponent
/// (x86's rule; see the module docs). `value` must be the exact result or one rounded to f64 from an operation for
/// which double rounding through f64 is innocuous (+, -, *, /, sqrt of floats), or an f64 approximation whose final
/// rounding is what is wanted.
#[inline]
fn round_to_f32(value: f64) -> u32 {
    if value.is_nan() {
        return NAN_F32;
    }
    // `as` rounds to nearest even, to infinity on overflow, and into the denormal range on underflow.
    let rounded = value as f32;
    if rounded != 0.0 && rounded.abs() <= f32::MIN_POSITIVE {
        // Below 2^-126 the denormal format has fewer bits; round with full precision instead by scaling up, so a
        // value just under 2^-126 that only reaches 2^-126 in the denormal format's coarser rounding is still tiny.
        let scaled = (value * TWO_POW_64) as f32;
        if scaled.abs() < MIN_NORMAL_TIMES_TWO_POW_64 {
            return rounded.to_bits() & SIGN_F32;
        }
    }
    rounded.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_writes_all_ones_for_true() {
        assert_eq!(mask(true), 0xFFFF_FFFF);
        assert_eq!(mask(false), 0);
    }

    #[test]
    fn flush_denorm_zeroes_denormals_keeping_the_sign() {
        assert_eq!(flush_denorm(0x0000_0001), 0x0000_0000); // 2^-149
        assert_eq!(flush_denorm(0x807F_FFFF), 0x8000_0000); // -(2^-126 - 2^-149)
        assert_eq!(flush_denorm(0x0080_0000), 0x0080_0000); // 2^-126, normal: kept
        assert_eq!(flush_denorm(0x7FC1_2345), 0x7FC1_2345); // NaN: kept
        assert_eq!(flush_denorm(0x8000_0000), 0x8000_0000);
    }

    #[test]
    fn sign_modifiers_touch_only_the_sign_bit() {
        // 22.18: negate flips the sign, abs clears it, on infinities and NaNs too; -x_abs is neg(abs(x)).
        assert_eq!(neg(0x3F80_0000), 0xBF80_0000);
        assert_eq!(neg(0x8000_0000), 0x0000_0000);
        assert_eq!(neg(0x7F80_0000), 0xFF80_0000);
        assert_eq!(neg(0x0000_0001), 0x8000_0001); // a denormal stays a denormal
        assert_eq!(abs(0xFFC1_2345), 0x7FC1_2345); // the NaN payload stays
        assert_eq!(abs(0x3F80_0000), 0x3F80_0000);
        assert_eq!(neg(abs(0x4000_0000)), 0xC000_0000);
        assert_eq!(neg(abs(0xC000_0000)), 0xC000_0000);
    }

    #[test]
    fn saturate_clamps_to_zero_one_and_turns_nan_into_zero() {
        // 22.19.1: min(1, max(0, x)); "sat(NaN) returns 0".
        assert_eq!(saturate(NAN_F32), 0);
        assert_eq!(saturate(0xFFC1_2345), 0);
        assert_eq!(saturate(0x4000_0000), 0x3F80_0000); // 2 -> 1
        assert_eq!(saturate(0x3F00_0000), 0x3F00_0000); // 0.5 stays
        assert_eq!(saturate(0xBF80_0000), 0); // -1 -> +0
        assert_eq!(saturate(0x8000_0000), 0); // -0 -> +0, as max(+0, -0) = +0
        assert_eq!(saturate(0x8000_0001), 0); // -denorm -> +0
        assert_eq!(saturate(0x0000_0001), 0); // +denorm -> +0 (flushed)
        assert_eq!(saturate(0x7F80_0000), 0x3F80_0000); // +inf -> 1
        assert_eq!(saturate(0xFF80_0000), 0); // -inf -> 0
    }

    #[test]
    fn round_to_f32_rounds_to_nearest_even_and_overflows_to_infinity() {
        // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even, 1.
        assert_eq!(round_to_f32(1.0 + f64::powi(2.0, -24)), 0x3F80_0000);
        // Just above the tie: up.
        assert_eq!(
            round_to_f32(1.0 + f64::powi(2.0, -24) + f64::powi(2.0, -40)),
            0x3F80_0001
        );
        // 2^128 is past the float range.
        assert_eq!(round_to_f32(f64::powi(2.0, 128)), 0x7F80_0000);
        assert_eq!(round_to_f32(-f64::powi(2.0, 128)), 0xFF80_0000);
        assert_eq!(round_to_f32(f64::NAN), NAN_F32);
    }

    #[test]
    fn round_to_f32_flushes_values_tiny_after_rounding() {
        let min_normal = f64::powi(2.0, -126);
        // 2^-127: tiny, +0; its negative, -0.
        assert_eq!(round_to_f32(min_normal / 2.0), 0);
        assert_eq!(round_to_f32(-min_normal / 2.0), 0x8000_0000);
        // 2^-126 - 2^-150 rounds to itself with 24 bits (fraction all ones at exponent -127): tiny, +0.
        assert_eq!(round_to_f32(min_normal - f64::powi(2.0, -150)), 0);
        // 2^-126 - 2^-151 is a tie between 2^-126 - 2^-150 (odd) and 2^-126 (even): rounds to 2^-126, not tiny.
        assert_eq!(round_to_f32(min_normal - f64::powi(2.0, -151)), 0x0080_0000);
        assert_eq!(round_to_f32(-(min_normal - f64::powi(2.0, -152))), 0x8080_0000);
        // 2^-126 itself is kept.
        assert_eq!(round_to_f32(min_normal), 0x0080_0000);
    }
}
