//! SQL text of the key rules that the PostgreSQL and MariaDB renderings write alike.

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
