//! The comparisons and stencil operations of the depth and stencil tests (17.8, 17.11, 17.12); the test order is in
//! [`super::OutputMerger::depth_stencil`].

use crate::api::enums::{ComparisonFunc, StencilOp};

/// Whether `incoming func stored` holds (17.8's `D3D11_COMPARISON_FUNC`, the incoming value on the left). For floats
/// this is 3.1.3.1's comparison: false with a NaN operand except NOT_EQUAL, which is true; +0 equals -0.
pub fn passes<T: PartialOrd>(func: ComparisonFunc, incoming: T, stored: T) -> bool {
    match func {
        ComparisonFunc::Never => false,
        ComparisonFunc::Less => incoming < stored,
        ComparisonFunc::Equal => incoming == stored,
        ComparisonFunc::LessEqual => incoming <= stored,
        ComparisonFunc::Greater => incoming > stored,
        ComparisonFunc::NotEqual => incoming != stored,
        ComparisonFunc::GreaterEqual => incoming >= stored,
        ComparisonFunc::Always => true,
    }
}

/// The stencil value after `op` on the stored `value` (17.8's `D3D11_STENCIL_OP`), before the write mask: INCR_SAT
/// and DECR_SAT stop at 255 and 0, INCR and DECR wrap, INVERT flips all 8 bits, REPLACE takes the reference.
pub fn stencil_op(op: StencilOp, value: u8, reference: u8) -> u8 {
    match op {
        StencilOp::Keep => value,
        StencilOp::Zero => 0,
        StencilOp::Replace => reference,
        StencilOp::IncrSat => value.saturating_add(1),
        StencilOp::DecrSat => value.saturating_sub(1),
        StencilOp::Invert => !value,
        StencilOp::Incr => value.wrapping_add(1),
        StencilOp::Decr => value.wrapping_sub(1),
    }
}

/// The stored stencil after writing `new` over `old` through `write_mask`: only the mask's bits change.
pub fn masked_stencil(old: u8, new: u8, write_mask: u8) -> u8 {
    (old & !write_mask) | (new & write_mask)
}
