//! The source of choices behind the `arbitrary` and `proptest` generators, and the small
//! builders of valid text the namespaces' own generators are written with.
//!
//! Every choice is a number below a bound; a source that has run dry answers 0, and choice 0
//! is always the simplest option (no component, the shortest name), so shrinking the source
//! shrinks the URN.

use alloc::string::String;
use alloc::vec::Vec;

/// A source of choices.
pub(crate) trait Choices {
    /// A number in `0..n` (`n >= 1`); 0 once the source has run dry.
    fn below(&mut self, n: u32) -> u32;

    /// True about one time in `n`.
    fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == 1
    }
}

/// One of `items` (`fallback` when it is empty).
pub(crate) fn pick<T: Copy>(c: &mut dyn Choices, items: &[T], fallback: T) -> T {
    let n = u32::try_from(items.len()).unwrap_or(u32::MAX);
    items
        .get(c.below(n.max(1)) as usize)
        .copied()
        .unwrap_or(fallback)
}

/// Choices read from bytes, two at a time (the proptest strategies draw their bytes).
#[cfg(feature = "proptest")]
pub(crate) struct ByteChoices<'a> {
    bytes: &'a [u8],
}

#[cfg(feature = "proptest")]
impl<'a> ByteChoices<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        ByteChoices { bytes }
    }
}

#[cfg(feature = "proptest")]
impl Choices for ByteChoices<'_> {
    fn below(&mut self, n: u32) -> u32 {
        let (value, rest) = match self.bytes {
            [a, b, rest @ ..] => (u32::from(*a) << 8 | u32::from(*b), rest),
            [a] => (u32::from(*a), &[][..]),
            [] => return 0,
        };
        self.bytes = rest;
        value % n.max(1)
    }
}

pub(crate) const HEX: &[u8] = b"0123456789abcdefABCDEF";
pub(crate) const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
pub(crate) const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// pchar without '%' (added as triplets) and ':'/'@' kept apart so names can exclude them.
pub(crate) const PLAIN: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=";

/// One byte of `set`.
pub(crate) fn push_from(out: &mut String, c: &mut dyn Choices, set: &[u8]) {
    out.push(char::from(pick(c, set, b'a')));
}

/// Letters of `text` in random case.
pub(crate) fn push_any_case(out: &mut String, c: &mut dyn Choices, text: &str) {
    for ch in text.chars() {
        out.push(if c.one_in(2) {
            ch.to_ascii_uppercase()
        } else {
            ch
        });
    }
}

/// `n` digits, each random.
pub(crate) fn digits(c: &mut dyn Choices, n: usize) -> Vec<u32> {
    (0..n).map(|_| c.below(10)).collect()
}

/// A run of pchar (and `/` after the first when `slash`), `%XX` included: at least one
/// character, never starting with `/`.
pub(crate) fn push_pchars(
    out: &mut String,
    c: &mut dyn Choices,
    max: u32,
    extra: &[u8],
    slash: bool,
) {
    let len = 1 + c.below(max.max(1));
    for i in 0..len {
        match c.below(12) {
            1 => {
                out.push('%');
                push_from(out, c, HEX);
                push_from(out, c, HEX);
            }
            2 if !extra.is_empty() => push_from(out, c, extra),
            3 if slash && i > 0 => out.push('/'),
            _ => push_from(out, c, PLAIN),
        }
    }
}

/// An NSS any RFC 8141 URN may have.
pub(crate) fn generic_nss(c: &mut dyn Choices, out: &mut String) {
    push_pchars(out, c, 24, b":@", true);
}

/// The ISBN-10 / ISSN check character for a weighted digit sum: `X` (in either case) for 10.
pub(crate) fn mod11_check(c: &mut dyn Choices, sum: u32) -> char {
    match (11 - sum % 11) % 11 {
        10 if c.one_in(2) => 'x',
        10 => 'X',
        n => char::from_digit(n, 10).unwrap_or('0'),
    }
}
