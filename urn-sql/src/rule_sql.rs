//! SQL text of the key rules that the PostgreSQL and MariaDB renderings write alike.

use urn_core::DigitForm;

/// The characters of `text` (an SQL expression of upper-case letters and digits) as one
/// decimal number, each letter its two-digit value in base 36 (`A` is 10): one `replace` per
/// letter, which PostgreSQL and MariaDB both have (`f` names it as the dialect writes it). An
/// LEI's ISO/IEC 7064 MOD 97-10 check reads this number.
pub(crate) fn base36_digits(text: &str, f: &str) -> String {
    ('A'..='Z').fold(text.to_owned(), |inner, letter| {
        let value = u32::from(letter) - u32::from('A') + 10;
        format!("{f}({inner}, '{letter}', '{value}')")
    })
}

/// `c` percent-encoded with lower-case hex digits: what lower-casing makes of any spelling of
/// its `%XX`.
pub(crate) fn encoded(c: char) -> String {
    format!("%{:02x}", u32::from(c))
}

/// Whether `form`'s check sums its digits read as one hexadecimal number (a nibble each): its
/// weights alternate 1 and 3 towards a last weight of 1, its modulus is 10, it has no `X` and at
/// most 15 digits (60 bits of a 64-bit integer): an ISBN-13. Read so, the digits of weight 1 are
/// the low halves of the number's bytes, those of weight 3 the low halves of the number shifted
/// right by 4, each masked by [`nibble_mask`]; a sum of bytes is the number modulo 255. The
/// digits are read twice, not once per digit (each read recomputes them in both databases).
pub(crate) fn nibble_sum(form: &DigitForm) -> bool {
    form.modulus == 10
        && !form.x_last
        && (2..=15).contains(&form.len())
        && form
            .weights
            .iter()
            .rev()
            .enumerate()
            .all(|(i, &w)| w == if i % 2 == 0 { 1 } else { 3 })
}

/// The hexadecimal digits of a nibble sum's mask for `form` (see [`nibble_sum`]): `0F` for each
/// byte its digits fill.
pub(crate) fn nibble_mask(form: &DigitForm) -> String {
    "0F".repeat(form.len().div_ceil(2))
}

#[cfg(test)]
mod tests {
    #[test]
    fn renderings() {
        assert_eq!(super::encoded('/'), "%2f");
        let digits = super::base36_digits("x", "r");
        assert!(digits.starts_with("r(r(") && digits.ends_with(", 'Z', '35')"));
        assert!(digits.contains("r(x, 'A', '10')"));
    }
}
