//! Small text helpers shared by every module that shows bytes or component masks to a person: one spelling each, so
//! a listing, an error message and the viewer print the same thing the same way.

/// `bytes` as lowercase hex digits, two a byte, in order, without separators (`[0xde, 0xad]` → `dead`).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len().saturating_mul(2));
    for &byte in bytes {
        for nibble in [byte >> 4, byte & 0xf] {
            text.push(char::from(DIGITS.get(usize::from(nibble)).copied().unwrap_or(b'?')));
        }
    }
    text
}

/// The component letters of a 4-bit component mask, x first (`xz` for `0b0101`); bits above the fourth are ignored
/// and an empty mask gives an empty string.
pub fn mask_letters(mask: u8) -> String {
    ['x', 'y', 'z', 'w']
        .into_iter()
        .enumerate()
        .filter(|&(bit, _)| mask >> bit & 1 == 1)
        .map(|(_, letter)| letter)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_writes_two_lowercase_digits_a_byte_in_order() {
        assert_eq!(hex(&[]), "");
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
        assert_eq!(hex(&[0xde, 0xad, 0xbe, 0xef]), "deadbeef");
    }

    #[test]
    fn hex_agrees_with_format_for_every_byte() {
        for byte in 0..=u8::MAX {
            assert_eq!(hex(&[byte]), format!("{byte:02x}"));
        }
    }

    #[test]
    fn mask_letters_lists_the_set_components_x_first() {
        assert_eq!(mask_letters(0), "");
        assert_eq!(mask_letters(0b0001), "x");
        assert_eq!(mask_letters(0b0101), "xz");
        assert_eq!(mask_letters(0b1010), "yw");
        assert_eq!(mask_letters(0b1111), "xyzw");
    }

    #[test]
    fn mask_letters_ignores_bits_above_the_fourth() {
        assert_eq!(mask_letters(0xf8), "w");
        assert_eq!(mask_letters(0xf0), "");
    }
}
