//! Integer arithmetic (22.12), bitwise instructions (22.11) and integer comparisons (22.6). Every function takes and
//! returns register words; a signed operand is the word read as two's complement. Arithmetic wraps modulo 2^32
//! ("No carry or borrow beyond the 32-bit values of each component is performed", 22.12.1) unless the instruction
//! returns the carry.

use super::mask;

/// The low 5 bits of a shift amount, bitfield width or offset (22.11: "The LSB 5 bits of src1 provide ...").
const FIVE_BITS: u32 = 31;

/// `iadd` (22.12.1): `a + b` modulo 2^32 (signedness does not matter).
#[inline]
pub fn iadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// `ineg` (22.12.7), also the negate modifier on integer operands (22.18.2): the two's complement, so `ineg(0x80000000)
/// = 0x80000000`.
#[inline]
pub fn ineg(a: u32) -> u32 {
    a.wrapping_neg()
}

/// `imul` (22.12.6): the full 64-bit product of `a` and `b` read as signed, as `(destHI, destLO)`.
#[inline]
pub fn imul(a: u32, b: u32) -> (u32, u32) {
    // |a * b| <= 2^62, so the i64 product cannot overflow.
    let product = i64::from(a as i32).wrapping_mul(i64::from(b as i32)) as u64;
    split_u64(product)
}

/// `umul` (22.12.13): the full 64-bit product of `a` and `b` read as unsigned, as `(destHI, destLO)`.
#[inline]
pub fn umul(a: u32, b: u32) -> (u32, u32) {
    // (2^32 - 1)^2 < 2^64, so the u64 product cannot overflow.
    split_u64(u64::from(a).wrapping_mul(u64::from(b)))
}

/// A 64-bit value as `(high word, low word)`.
#[inline]
fn split_u64(value: u64) -> (u32, u32) {
    ((value >> 32) as u32, value as u32)
}

/// `imad` (22.12.3): the low 32 bits of `a * b` (signed) plus `c`, modulo 2^32.
#[inline]
pub fn imad(a: u32, b: u32, c: u32) -> u32 {
    // The low 32 bits of a product do not depend on signedness.
    a.wrapping_mul(b).wrapping_add(c)
}

/// `umad` (22.12.10): the low 32 bits of `a * b` (unsigned) plus `c`, modulo 2^32.
#[inline]
pub fn umad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `udiv` (22.12.9): `(destQUOT, destREM)` of `a / b` unsigned; "Divide by zero returns 0xffffffff for both quotient
/// and remainder."
#[inline]
pub fn udiv(a: u32, b: u32) -> (u32, u32) {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(quotient), Some(remainder)) => (quotient, remainder),
        _ => (u32::MAX, u32::MAX),
    }
}

/// `uaddc` (22.12.8): `(dest0, dest1)` = the sum modulo 2^32 and 1 if the unsigned add carried out, else 0.
#[inline]
pub fn uaddc(a: u32, b: u32) -> (u32, u32) {
    let (sum, carry) = a.overflowing_add(b);
    (sum, u32::from(carry))
}

/// `usubb` (22.12.14): `(dest0, dest1)` = `a - b` modulo 2^32 and 1 if the unsigned subtract borrowed (`a < b`),
/// else 0.
#[inline]
pub fn usubb(a: u32, b: u32) -> (u32, u32) {
    let (difference, borrow) = a.overflowing_sub(b);
    (difference, u32::from(borrow))
}

/// `imin` (22.12.5): the smaller of `a` and `b` read as signed.
#[inline]
pub fn imin(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}

/// `imax` (22.12.4): the larger of `a` and `b` read as signed.
#[inline]
pub fn imax(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

/// `umin` (22.12.12): the smaller of `a` and `b` read as unsigned.
#[inline]
pub fn umin(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// `umax` (22.12.11): the larger of `a` and `b` read as unsigned.
#[inline]
pub fn umax(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// `msad` (22.12.15): `accum` plus the sum of absolute differences of the byte pairs of `reference` and `source`,
/// skipping the bytes where `reference` is 0. On overflow the result saturates to `0xFFFFFFFF` — the spec's
/// recommended behaviour ("wrapping is allowed"), and what its reference code does.
#[inline]
pub fn msad(reference: u32, source: u32, accum: u32) -> u32 {
    let mut total = accum;
    for (reference_byte, source_byte) in reference.to_le_bytes().into_iter().zip(source.to_le_bytes()) {
        if reference_byte == 0 {
            continue;
        }
        match total.checked_add(u32::from(reference_byte.abs_diff(source_byte))) {
            Some(sum) => total = sum,
            None => return u32::MAX,
        }
    }
    total
}

/// `and` (22.11.1): bitwise AND.
#[inline]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

/// `or` (22.11.10): bitwise OR.
#[inline]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// `xor` (22.11.13): bitwise exclusive OR.
#[inline]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `not` (22.11.9): the one's complement.
#[inline]
pub fn not(a: u32) -> u32 {
    !a
}

/// `ishl` (22.11.7): `a` shifted left by the low 5 bits of `shift`, zeros in; a shift of 32 is a shift of 0.
#[inline]
pub fn ishl(a: u32, shift: u32) -> u32 {
    a.wrapping_shl(shift & FIVE_BITS)
}

/// `ishr` (22.11.8): `a` shifted right by the low 5 bits of `shift`, copies of bit 31 in (arithmetic).
#[inline]
pub fn ishr(a: u32, shift: u32) -> u32 {
    (a as i32).wrapping_shr(shift & FIVE_BITS) as u32
}

/// `ushr` (22.11.12): `a` shifted right by the low 5 bits of `shift`, zeros in (logical).
#[inline]
pub fn ushr(a: u32, shift: u32) -> u32 {
    a.wrapping_shr(shift & FIVE_BITS)
}

/// `bfi` (22.11.2): the low `width` bits of `insert` placed at bit `offset` of `base`, the rest of `base` kept; `width`
/// and `offset` are the low 5 bits of their words. As the spec writes it: `bitmask = (((1 << width) - 1) << offset) &
/// 0xffffffff`, `dest = ((insert << offset) & bitmask) | (base & ~bitmask)` — bits shifted past bit 31 are lost, and a
/// width of 0 (or 32) leaves `base` unchanged.
#[inline]
pub fn bfi(width: u32, offset: u32, insert: u32, base: u32) -> u32 {
    let width = width & FIVE_BITS;
    let offset = offset & FIVE_BITS;
    let bitmask = 1u32.wrapping_shl(width).wrapping_sub(1).wrapping_shl(offset);
    (insert.wrapping_shl(offset) & bitmask) | (base & !bitmask)
}

/// `ubfe` (22.11.11): the `width` bits of `value` from bit `offset`, moved to bit 0, zeros above; `width` and `offset`
/// are the low 5 bits of their words. As the spec writes it: width 0 gives 0; if `width + offset < 32` the field is
/// shifted up to bit 31 and back down; otherwise the result is `value >> offset` (the field runs out at bit 31).
#[inline]
pub fn ubfe(width: u32, offset: u32, value: u32) -> u32 {
    let width = width & FIVE_BITS;
    let offset = offset & FIVE_BITS;
    let end = width.wrapping_add(offset); // at most 62
    if width == 0 {
        0
    } else if end < 32 {
        ushr(ishl(value, 32u32.wrapping_sub(end)), 32u32.wrapping_sub(width))
    } else {
        ushr(value, offset)
    }
}

/// `ibfe` (22.11.6): as [`ubfe`], but the field's top bit is copied into the bits above it (sign extension); when
/// `width + offset >= 32` the result is `value >> offset` arithmetic, extending bit 31.
#[inline]
pub fn ibfe(width: u32, offset: u32, value: u32) -> u32 {
    let width = width & FIVE_BITS;
    let offset = offset & FIVE_BITS;
    let end = width.wrapping_add(offset); // at most 62
    if width == 0 {
        0
    } else if end < 32 {
        ishr(ishl(value, 32u32.wrapping_sub(end)), 32u32.wrapping_sub(width))
    } else {
        ishr(value, offset)
    }
}

/// `bfrev` (22.11.3): the 32 bits in reverse order (`0x12345678` becomes `0x1e6a2c48`).
#[inline]
pub fn bfrev(a: u32) -> u32 {
    a.reverse_bits()
}

/// `countbits` (22.11.4): the number of bits set.
#[inline]
pub fn countbits(a: u32) -> u32 {
    a.count_ones()
}

/// What every `firstbit` variant returns when no bit matches (22.11.5: "~0").
const NOT_FOUND: u32 = u32::MAX;

/// `firstbit_hi` (22.11.5): the position of the first set bit counted from the MSB (bit 31 is position 0), so
/// `0x10000000` gives 3; `0xFFFFFFFF` when `a` is 0.
#[inline]
pub fn firstbit_hi(a: u32) -> u32 {
    if a == 0 { NOT_FOUND } else { a.leading_zeros() }
}

/// `firstbit_lo` (22.11.5): the position of the first set bit counted from the LSB, so `0x00000001` gives 0;
/// `0xFFFFFFFF` when `a` is 0.
#[inline]
pub fn firstbit_lo(a: u32) -> u32 {
    if a == 0 { NOT_FOUND } else { a.trailing_zeros() }
}

/// `firstbit_shi` (22.11.5): for a negative `a`, the position of the first 0 counted from the MSB; otherwise of the
/// first 1. `0xFFFFFFFF` when there is none, that is for 0 and for -1.
#[inline]
pub fn firstbit_shi(a: u32) -> u32 {
    let first_differing = if (a as i32) < 0 {
        a.leading_ones()
    } else {
        a.leading_zeros()
    };
    if first_differing == 32 {
        NOT_FOUND
    } else {
        first_differing
    }
}

/// `ieq` (22.6.4): `a == b`.
#[inline]
pub fn ieq(a: u32, b: u32) -> u32 {
    mask(a == b)
}

/// `ine` (22.6.6): `a != b`.
#[inline]
pub fn ine(a: u32, b: u32) -> u32 {
    mask(a != b)
}

/// `ilt` (22.6.5): `a < b`, signed.
#[inline]
pub fn ilt(a: u32, b: u32) -> u32 {
    mask((a as i32) < (b as i32))
}

/// `ige` (22.6.3): `a >= b`, signed.
#[inline]
pub fn ige(a: u32, b: u32) -> u32 {
    mask((a as i32) >= (b as i32))
}

/// `ult` (22.6.10): `a < b`, unsigned.
#[inline]
pub fn ult(a: u32, b: u32) -> u32 {
    mask(a < b)
}

/// `uge` (22.6.9): `a >= b`, unsigned.
#[inline]
pub fn uge(a: u32, b: u32) -> u32 {
    mask(a >= b)
}

#[cfg(test)]
mod tests {
    use super::super::{FALSE, TRUE};
    use super::*;

    #[test]
    fn iadd_wraps_modulo_two_to_the_32() {
        assert_eq!(iadd(2, 3), 5);
        assert_eq!(iadd(0xFFFF_FFFF, 1), 0); // -1 + 1 = 0, or the unsigned carry dropped
        assert_eq!(iadd(0x7FFF_FFFF, 1), 0x8000_0000); // signed overflow wraps
        assert_eq!(iadd(5, ineg(7)), 0xFFFF_FFFE); // 5 - 7 = -2
    }

    #[test]
    fn ineg_takes_the_twos_complement() {
        assert_eq!(ineg(1), 0xFFFF_FFFF);
        assert_eq!(ineg(0), 0);
        assert_eq!(ineg(0x8000_0000), 0x8000_0000); // -(-2^31) wraps to itself
        assert_eq!(ineg(0xFFFF_FFFE), 2);
    }

    #[test]
    fn imul_gives_the_signed_64_bit_product() {
        // -1 * -1 = 1: hi 0, lo 1.
        assert_eq!(imul(0xFFFF_FFFF, 0xFFFF_FFFF), (0, 1));
        // -2 * 3 = -6 = 0xFFFFFFFF_FFFFFFFA.
        assert_eq!(imul(0xFFFF_FFFE, 3), (0xFFFF_FFFF, 0xFFFF_FFFA));
        // (-2^31)^2 = 2^62 = 0x40000000_00000000.
        assert_eq!(imul(0x8000_0000, 0x8000_0000), (0x4000_0000, 0));
        // 0x10000 * 0x10000 = 2^32: hi 1, lo 0.
        assert_eq!(imul(0x1_0000, 0x1_0000), (1, 0));
    }

    #[test]
    fn umul_gives_the_unsigned_64_bit_product() {
        // (2^32 - 1)^2 = 2^64 - 2^33 + 1 = 0xFFFFFFFE_00000001.
        assert_eq!(umul(0xFFFF_FFFF, 0xFFFF_FFFF), (0xFFFF_FFFE, 1));
        // 2^31 * 2 = 2^32.
        assert_eq!(umul(0x8000_0000, 2), (1, 0));
        assert_eq!(umul(6, 7), (0, 42));
    }

    #[test]
    fn imad_and_umad_keep_the_low_32_bits() {
        // 0x10000 * 0x10000 = 2^32, whose low word is 0; + 5 = 5.
        assert_eq!(imad(0x1_0000, 0x1_0000, 5), 5);
        assert_eq!(umad(0x1_0000, 0x1_0000, 5), 5);
        // -3 * 4 + 2 = -10 = 0xFFFFFFF6.
        assert_eq!(imad(ineg(3), 4, 2), 0xFFFF_FFF6);
        // 0xFFFFFFFF * 2 = 0x1_FFFFFFFE; low word + 3 = 0x1_00000001 -> 1.
        assert_eq!(umad(0xFFFF_FFFF, 2, 3), 1);
    }

    #[test]
    fn udiv_gives_quotient_and_remainder() {
        assert_eq!(udiv(7, 2), (3, 1));
        assert_eq!(udiv(0xFFFF_FFFF, 1), (0xFFFF_FFFF, 0));
        assert_eq!(udiv(0xFFFF_FFFF, 0x1_0000), (0xFFFF, 0xFFFF));
        assert_eq!(udiv(3, 7), (0, 3));
    }

    #[test]
    fn udiv_by_zero_gives_all_ones_for_both() {
        // 22.12.9: "Divide by zero returns 0xffffffff for both quotient and remainder."
        assert_eq!(udiv(7, 0), (0xFFFF_FFFF, 0xFFFF_FFFF));
        assert_eq!(udiv(0, 0), (0xFFFF_FFFF, 0xFFFF_FFFF));
    }

    #[test]
    fn uaddc_reports_the_carry_out() {
        assert_eq!(uaddc(1, 2), (3, 0));
        assert_eq!(uaddc(0xFFFF_FFFF, 1), (0, 1)); // 2^32: wraps to 0, carry
        assert_eq!(uaddc(0xFFFF_FFFF, 0xFFFF_FFFF), (0xFFFF_FFFE, 1)); // 2^33 - 2
        assert_eq!(uaddc(0xFFFF_FFFF, 0), (0xFFFF_FFFF, 0)); // the edge without a carry
    }

    #[test]
    fn usubb_reports_the_borrow() {
        assert_eq!(usubb(5, 3), (2, 0));
        assert_eq!(usubb(3, 3), (0, 0)); // equal: no borrow
        assert_eq!(usubb(0, 1), (0xFFFF_FFFF, 1)); // 0 - 1 wraps, borrow
        assert_eq!(usubb(0x7FFF_FFFF, 0x8000_0000), (0xFFFF_FFFF, 1));
    }

    #[test]
    fn min_and_max_read_signed_or_unsigned() {
        // -1 against 1.
        assert_eq!(imin(0xFFFF_FFFF, 1), 0xFFFF_FFFF);
        assert_eq!(imax(0xFFFF_FFFF, 1), 1);
        assert_eq!(umin(0xFFFF_FFFF, 1), 1);
        assert_eq!(umax(0xFFFF_FFFF, 1), 0xFFFF_FFFF);
        // The signed extremes.
        assert_eq!(imax(0x8000_0000, 0x7FFF_FFFF), 0x7FFF_FFFF);
        assert_eq!(imin(0x8000_0000, 0x7FFF_FFFF), 0x8000_0000);
    }

    #[test]
    fn msad_sums_absolute_byte_differences_where_the_reference_is_nonzero() {
        // |1-4| + |2-3| + |3-2| + |4-1| = 3 + 1 + 1 + 3 = 8, plus the accumulator 0.
        assert_eq!(msad(0x0102_0304, 0x0403_0201, 0), 8);
        // Reference bytes (low first) 0x10, 0x00, 0xFF, 0x00 against 0x20, 0xFF, 0x00, 0xFF: the zero reference bytes
        // are skipped, so 10 + |0x10 - 0x20| + |0xFF - 0x00| = 10 + 16 + 255 = 281.
        assert_eq!(msad(0x00FF_0010, 0xFF00_FF20, 10), 281);
        // An all-zero reference adds nothing.
        assert_eq!(msad(0, 0x1234_5678, 5), 5);
    }

    #[test]
    fn msad_saturates_on_overflow() {
        // 0xFFFFFF00 + 255 = 0xFFFFFFFF exactly; the next 255 would overflow: saturate.
        assert_eq!(msad(0xFFFF_FFFF, 0, 0xFFFF_FF00), 0xFFFF_FFFF);
        // 0xFFFFFFF0 + 255 overflows on the first byte.
        assert_eq!(msad(0x0000_00FF, 0, 0xFFFF_FFF0), 0xFFFF_FFFF);
        // With one non-zero reference byte, 0xFFFFFF00 + 255 = 0xFFFFFFFF fits exactly, and + 254 is one short.
        assert_eq!(msad(0x0000_00FF, 0, 0xFFFF_FF00), 0xFFFF_FFFF);
        assert_eq!(msad(0x0000_00FF, 1, 0xFFFF_FF00), 0xFFFF_FFFE);
    }

    #[test]
    fn bitwise_operations_combine_bits() {
        assert_eq!(and(0xFF00_FF00, 0x0FF0_0FF0), 0x0F00_0F00);
        assert_eq!(or(0xFF00_FF00, 0x0FF0_0FF0), 0xFFF0_FFF0);
        assert_eq!(xor(0xFF00_FF00, 0x0FF0_0FF0), 0xF0F0_F0F0);
        assert_eq!(not(0xFF00_FF00), 0x00FF_00FF);
    }

    #[test]
    fn shifts_use_the_low_five_bits_of_the_amount() {
        assert_eq!(ishl(1, 31), 0x8000_0000);
        assert_eq!(ishl(1, 32), 1); // 32 & 31 = 0
        assert_eq!(ishl(1, 33), 2); // 33 & 31 = 1
        assert_eq!(ishl(0xFFFF_FFFF, 0xFFFF_FFFF), 0x8000_0000); // amount 31
        assert_eq!(ushr(0x8000_0000, 31), 1);
        assert_eq!(ushr(0x8000_0000, 32), 0x8000_0000);
        assert_eq!(ushr(0x8000_0000, 36), 0x0800_0000); // amount 4
        assert_eq!(ishr(0x8000_0000, 31), 0xFFFF_FFFF); // bit 31 copied in
        assert_eq!(ishr(0xFFFF_FFF8, 33), 0xFFFF_FFFC); // -8 >> 1 = -4
        assert_eq!(ishr(0x4000_0000, 30), 1); // positive: zeros in
        assert_eq!(ishr(0x8000_0000, 64), 0x8000_0000); // amount 0
    }

    #[test]
    fn bfi_inserts_a_field() {
        // Width 8 at offset 4: mask 0x00000FF0; (0xAB << 4) & mask = 0xAB0; base 0xFFFFFFFF keeps its other bits.
        assert_eq!(bfi(8, 4, 0xAB, 0xFFFF_FFFF), 0xFFFF_FABF);
        // Only the low `width` bits of the insert are used: 0x1AB -> 0xAB.
        assert_eq!(bfi(8, 4, 0x1AB, 0), 0x0000_0AB0);
    }

    #[test]
    fn bfi_with_width_zero_or_thirty_two_keeps_the_base() {
        // Width 0: mask 0. Width 32 is 32 & 31 = 0.
        assert_eq!(bfi(0, 4, 0xFFFF_FFFF, 0x1234_5678), 0x1234_5678);
        assert_eq!(bfi(32, 0, 0xFFFF_FFFF, 0x1234_5678), 0x1234_5678);
    }

    #[test]
    fn bfi_loses_bits_shifted_past_bit_31_and_masks_the_offset() {
        // Width 31 at offset 31: ((2^31 - 1) << 31) & 0xffffffff = 0x80000000; insert 1 << 31 = 0x80000000.
        assert_eq!(bfi(31, 31, 0x0000_0001, 0x1234_5678), 0x9234_5678);
        // Width 16 at offset 24: mask 0xFF000000 (the top 8 bits of the field are lost).
        assert_eq!(bfi(16, 24, 0xABCD, 0x1234_5678), 0xCD34_5678);
        // Offset 36 is 36 & 31 = 4; width 40 is 8.
        assert_eq!(bfi(40, 36, 0xAB, 0), 0x0000_0AB0);
    }

    #[test]
    fn ubfe_extracts_a_field_with_zeros_above() {
        // Bits 4..11 of 0x12345678 are 0x67.
        assert_eq!(ubfe(8, 4, 0x1234_5678), 0x67);
        assert_eq!(ubfe(1, 31, 0x8000_0000), 1); // width + offset = 32: the else branch, >> 31
        assert_eq!(ubfe(4, 28, 0xF000_0000), 0xF); // width + offset = 32
        assert_eq!(ubfe(31, 0, 0xFFFF_FFFF), 0x7FFF_FFFF);
    }

    #[test]
    fn ubfe_with_a_field_past_bit_31_takes_the_bits_that_exist() {
        // Width 8 at offset 28: width + offset = 36 >= 32, so value >> 28 — only 4 bits.
        assert_eq!(ubfe(8, 28, 0xF000_0000), 0xF);
        // Width 40 is 40 & 31 = 8; offset 36 is 4.
        assert_eq!(ubfe(40, 36, 0x1234_5678), 0x67);
    }

    #[test]
    fn ubfe_and_ibfe_with_width_zero_give_zero() {
        assert_eq!(ubfe(0, 4, 0xFFFF_FFFF), 0);
        assert_eq!(ibfe(0, 4, 0xFFFF_FFFF), 0);
        assert_eq!(ubfe(32, 0, 0xFFFF_FFFF), 0); // width 32 is 0
        assert_eq!(ibfe(32, 0, 0xFFFF_FFFF), 0);
    }

    #[test]
    fn ibfe_sign_extends_the_field() {
        // Bits 4..11 of 0x00000F80 are 0xF8, top bit set: 0xFFFFFFF8.
        assert_eq!(ibfe(8, 4, 0x0000_0F80), 0xFFFF_FFF8);
        // Bits 4..11 of 0x00000780 are 0x78, top bit clear: 0x78.
        assert_eq!(ibfe(8, 4, 0x0000_0780), 0x78);
        assert_eq!(ibfe(1, 0, 1), 0xFFFF_FFFF); // a one-bit field holding 1 is -1
    }

    #[test]
    fn ibfe_with_a_field_reaching_bit_31_shifts_arithmetically() {
        // Width 4 at offset 28 (sum 32): ishr 0x80000000 by 28 = 0xFFFFFFF8.
        assert_eq!(ibfe(4, 28, 0x8000_0000), 0xFFFF_FFF8);
        // Width 8 at offset 28 (sum 36): 0x70000000 ishr 28 = 7 (bit 31 clear).
        assert_eq!(ibfe(8, 28, 0x7000_0000), 7);
        // Width 31 at offset 1 (sum 32): 0x80000000 ishr 1 = 0xC0000000.
        assert_eq!(ibfe(31, 1, 0x8000_0000), 0xC000_0000);
    }

    #[test]
    fn bfrev_reverses_the_bits() {
        assert_eq!(bfrev(0x1234_5678), 0x1E6A_2C48); // 22.11.3's example
        assert_eq!(bfrev(1), 0x8000_0000);
        assert_eq!(bfrev(0), 0);
    }

    #[test]
    fn countbits_counts_set_bits() {
        assert_eq!(countbits(0), 0);
        assert_eq!(countbits(0xFFFF_FFFF), 32);
        // Nibbles 1,2,3,4,5,6,7,8 have 1,1,2,1,2,2,3,1 bits: 13.
        assert_eq!(countbits(0x1234_5678), 13);
    }

    #[test]
    fn firstbit_hi_counts_from_the_msb() {
        assert_eq!(firstbit_hi(0x1000_0000), 3); // 22.11.5's example
        assert_eq!(firstbit_hi(0x8000_0000), 0);
        assert_eq!(firstbit_hi(1), 31);
        assert_eq!(firstbit_hi(0xFFFF_FFFF), 0);
        assert_eq!(firstbit_hi(0), 0xFFFF_FFFF); // not found
    }

    #[test]
    fn firstbit_lo_counts_from_the_lsb() {
        assert_eq!(firstbit_lo(1), 0); // 22.11.5's example
        assert_eq!(firstbit_lo(0x8000_0000), 31);
        assert_eq!(firstbit_lo(0x0000_0F00), 8);
        assert_eq!(firstbit_lo(0xFFFF_FFFF), 0);
        assert_eq!(firstbit_lo(0), 0xFFFF_FFFF); // not found
    }

    #[test]
    fn firstbit_shi_finds_the_first_bit_unlike_the_sign() {
        assert_eq!(firstbit_shi(1), 31); // positive: first 1 from the MSB
        assert_eq!(firstbit_shi(0x7FFF_FFFF), 1);
        assert_eq!(firstbit_shi(0xF000_0000), 4); // negative: first 0 from the MSB
        assert_eq!(firstbit_shi(0x8000_0000), 1);
        assert_eq!(firstbit_shi(0xFFFF_FFFE), 31); // -2
        // Neither 0 nor -1 has a bit unlike its sign.
        assert_eq!(firstbit_shi(0), 0xFFFF_FFFF);
        assert_eq!(firstbit_shi(0xFFFF_FFFF), 0xFFFF_FFFF);
    }

    #[test]
    fn integer_comparisons_read_signed_or_unsigned() {
        // -1 against 0.
        assert_eq!(ilt(0xFFFF_FFFF, 0), TRUE);
        assert_eq!(ige(0xFFFF_FFFF, 0), FALSE);
        assert_eq!(ult(0xFFFF_FFFF, 0), FALSE);
        assert_eq!(uge(0xFFFF_FFFF, 0), TRUE);
        assert_eq!(ige(5, 5), TRUE);
        assert_eq!(uge(5, 5), TRUE);
        assert_eq!(ilt(0x8000_0000, 0x7FFF_FFFF), TRUE);
        assert_eq!(ieq(0x8000_0000, 0x8000_0000), TRUE);
        assert_eq!(ieq(0, 0x8000_0000), FALSE); // +0 and -0 as floats are different integers
        assert_eq!(ine(0, 0x8000_0000), TRUE);
        assert_eq!(ine(7, 7), FALSE);
    }
}
