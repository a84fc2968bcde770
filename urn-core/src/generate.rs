//! Valid URNs from a stream of choices: the one generator behind the `arbitrary` and `proptest`
//! features, so both produce the same shapes.
//!
//! Every choice is a number below a bound; a source that has run dry answers 0, and choice 0
//! is always the simplest option (no component, the shortest name), so shrinking the source
//! shrinks the URN. Everything here builds text that is valid by construction; the callers
//! parse it once more and the tests check that nothing is ever refused.

use alloc::string::String;
use core::fmt::Write;

use crate::{KnownNamespace, Urn};

/// A source of choices.
pub(crate) trait Choices {
    /// A number in `0..n` (`n >= 1`); 0 once the source has run dry.
    fn below(&mut self, n: u32) -> u32;

    /// True about one time in `n`.
    fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == 1
    }

    /// One of `items` (which must not be empty).
    fn pick<T: Copy>(&mut self, items: &[T], fallback: T) -> T {
        let n = u32::try_from(items.len()).unwrap_or(u32::MAX);
        items
            .get(self.below(n.max(1)) as usize)
            .copied()
            .unwrap_or(fallback)
    }
}

/// Choices read from bytes, two at a time.
pub(crate) struct ByteChoices<'a> {
    bytes: &'a [u8],
}

impl<'a> ByteChoices<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        ByteChoices { bytes }
    }
}

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

/// The shapes the generator covers: each known namespace, any other NID, or a given NID.
#[derive(Clone, Copy)]
enum Shape<'n> {
    Known(KnownNamespace),
    Other,
    Named(&'n str),
}

const HEX: &[u8] = b"0123456789abcdefABCDEF";
const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// pchar without '%' (added as triplets) and ':'/'@' kept apart so names can exclude them.
const PLAIN: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=";

fn push_from(out: &mut String, c: &mut impl Choices, set: &[u8]) {
    out.push(char::from(c.pick(set, b'a')));
}

/// Letters of `text` in random case.
fn push_any_case(out: &mut String, c: &mut impl Choices, text: &str) {
    for ch in text.chars() {
        out.push(if c.one_in(2) {
            ch.to_ascii_uppercase()
        } else {
            ch
        });
    }
}

/// `n` digits, each random.
fn digits(c: &mut impl Choices, n: usize) -> alloc::vec::Vec<u32> {
    (0..n).map(|_| c.below(10)).collect()
}

/// A run of pchar (and `/` after the first when `slash`), `%XX` included: at least one
/// character, never starting with `/`.
fn push_pchars(out: &mut String, c: &mut impl Choices, max: u32, extra: &[u8], slash: bool) {
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
fn generic_nss(out: &mut String, c: &mut impl Choices) {
    push_pchars(out, c, 24, b":@", true);
}

/// A NID that is none of the known namespaces' (2 to 32 letters, digits and inner hyphens).
fn other_nid(out: &mut String, c: &mut impl Choices) {
    let start = out.len();
    loop {
        out.truncate(start);
        let len = 2 + c.below(31) as usize;
        push_from(out, c, ALNUM);
        for _ in 1..len - 1 {
            if c.one_in(6) {
                out.push('-');
            } else {
                push_from(out, c, ALNUM);
            }
        }
        push_from(out, c, ALNUM);
        let nid = out.get(start..).unwrap_or_default();
        if KnownNamespace::from_nid(nid).is_none() {
            return;
        }
        // A known NID by chance: extend it into another one.
        out.push('x');
        if out.len() - start <= 32
            && KnownNamespace::from_nid(out.get(start..).unwrap_or("")).is_none()
        {
            return;
        }
    }
}

/// Digits with hyphens between some of them (never two in a row, never at an end, at most
/// four: an ISBN has at most five groups).
fn push_hyphenated(out: &mut String, c: &mut impl Choices, digits: &[u32], last: char) {
    let mut hyphens = 0;
    let mut hyphen = |out: &mut String, c: &mut _| {
        if hyphens < 4 && Choices::one_in(c, 4) {
            hyphens += 1;
            out.push('-');
        }
    };
    for (i, d) in digits.iter().enumerate() {
        if i > 0 {
            hyphen(out, c);
        }
        out.push(char::from_digit(*d, 10).unwrap_or('0'));
    }
    hyphen(out, c);
    out.push(last);
}

fn isbn(out: &mut String, c: &mut impl Choices) {
    if c.one_in(2) {
        let mut d = alloc::vec![9, 7, if c.one_in(2) { 9 } else { 8 }];
        d.extend(digits(c, 9));
        let sum: u32 = d
            .iter()
            .enumerate()
            .map(|(i, x)| x * if i % 2 == 0 { 1 } else { 3 })
            .sum();
        let check = (10 - sum % 10) % 10;
        push_hyphenated(out, c, &d, char::from_digit(check, 10).unwrap_or('0'));
    } else {
        let d = digits(c, 9);
        let sum: u32 = d.iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
        let check = mod11_check(c, sum);
        push_hyphenated(out, c, &d, check);
    }
}

/// The ISBN-10 / ISSN check character for a weighted digit sum: `X` (in either case) for 10.
fn mod11_check(c: &mut impl Choices, sum: u32) -> char {
    match (11 - sum % 11) % 11 {
        10 if c.one_in(2) => 'x',
        10 => 'X',
        n => char::from_digit(n, 10).unwrap_or('0'),
    }
}

fn issn(out: &mut String, c: &mut impl Choices) {
    let d = digits(c, 7);
    let sum: u32 = d.iter().zip((2..=8).rev()).map(|(x, w)| x * w).sum();
    for (i, x) in d.iter().enumerate() {
        if i == 4 && !c.one_in(4) {
            out.push('-');
        }
        out.push(char::from_digit(*x, 10).unwrap_or('0'));
    }
    out.push(mod11_check(c, sum));
}

fn uuid(out: &mut String, c: &mut impl Choices) {
    for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            out.push('-');
        }
        for _ in 0..n {
            push_from(out, c, HEX);
        }
    }
}

fn ietf(out: &mut String, c: &mut impl Choices) {
    match c.below(3) {
        0 => {
            let sub = c.pick(&["rfc", "fyi", "std", "bcp"], "rfc");
            push_any_case(out, c, sub);
            let _ = write!(out, ":{}", 1 + c.below(9999));
        }
        1 => {
            let sub = c.pick(&["id", "mtg"], "id");
            push_any_case(out, c, sub);
            out.push(':');
            let len = 1 + c.below(20);
            for _ in 0..len {
                if c.one_in(8) {
                    out.push('-');
                } else {
                    push_from(out, c, ALNUM);
                }
            }
        }
        _ => {
            push_any_case(out, c, "params");
            for _ in 0..=c.below(4) {
                out.push(':');
                let len = 1 + c.below(12);
                for _ in 0..len {
                    push_from(out, c, PLAIN);
                }
            }
        }
    }
}

fn oid(out: &mut String, c: &mut impl Choices) {
    for i in 0..=c.below(6) {
        if i > 0 {
            out.push('.');
        }
        let _ = match c.below(3) {
            0 => write!(out, "{}", c.below(40)),
            _ => write!(out, "{}", c.below(1_000_000)),
        };
    }
}

fn nbn(out: &mut String, c: &mut impl Choices) {
    let letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    push_from(out, c, letters);
    push_from(out, c, letters);
    for _ in 0..c.below(3) {
        out.push(':');
        for _ in 0..=c.below(6) {
            push_from(out, c, ALNUM);
        }
    }
    out.push('-');
    push_pchars(out, c, 16, b":@-", true);
}

fn lex(out: &mut String, c: &mut impl Choices) {
    push_from(
        out,
        c,
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    );
    for _ in 0..c.below(6) {
        push_from(out, c, b"abcdefghijklmnopqrstuvwxyz0123456789.-");
    }
    out.push(':');
    push_pchars(out, c, 24, b":@;", true);
}

fn mpeg(out: &mut String, c: &mut impl Choices) {
    for _ in 0..=c.below(8) {
        push_from(
            out,
            c,
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-",
        );
    }
    out.push(':');
    if !c.one_in(4) {
        push_pchars(out, c, 16, b":@", true);
    }
}

/// Appends an NSS valid for `ns`.
fn known_nss(out: &mut String, c: &mut impl Choices, ns: KnownNamespace) {
    match ns {
        KnownNamespace::Uuid => uuid(out, c),
        KnownNamespace::Isbn => isbn(out, c),
        KnownNamespace::Issn => issn(out, c),
        KnownNamespace::Ietf => ietf(out, c),
        KnownNamespace::Oid => oid(out, c),
        KnownNamespace::Nbn => nbn(out, c),
        KnownNamespace::Lex => lex(out, c),
        KnownNamespace::Mpeg => mpeg(out, c),
        _ => generic_nss(out, c),
    }
}

/// `?+r`, `?=q` and `#f`, each present or not.
fn components(out: &mut String, c: &mut impl Choices) {
    if c.one_in(4) {
        out.push_str("?+");
        push_pchars(out, c, 12, b":@", true);
    }
    if c.one_in(4) {
        out.push_str("?=");
        push_pchars(out, c, 12, b":@", true);
    }
    if c.one_in(4) {
        out.push('#');
        if !c.one_in(5) {
            push_pchars(out, c, 12, b":@/?", true);
        }
    }
}

/// The text of a valid URN of `ns` (any namespace when `None`): the scheme and NID in random
/// case, a valid NSS, and components.
pub(crate) fn urn_text(c: &mut impl Choices, ns: Option<KnownNamespace>) -> String {
    let shape = match ns {
        Some(ns) => Shape::Known(ns),
        None => match c.below(u32::try_from(KnownNamespace::ALL.len()).unwrap_or(1) + 3) as usize {
            i if i < KnownNamespace::ALL.len() => Shape::Known(
                KnownNamespace::ALL
                    .get(i)
                    .copied()
                    .unwrap_or(KnownNamespace::Example),
            ),
            _ => Shape::Other,
        },
    };
    shaped_text(c, shape)
}

/// The text of a valid URN whose NID is `nid` (assumed valid): that namespace's own shape when
/// urn-core knows it, otherwise a generic NSS.
pub(crate) fn urn_text_with_nid(c: &mut impl Choices, nid: &str) -> String {
    match KnownNamespace::from_nid(nid) {
        Some(ns) => shaped_text(c, Shape::Known(ns)),
        None => shaped_text(c, Shape::Named(nid)),
    }
}

/// `urn:`, the NID and `:` (in random case), an NSS of `shape`, components.
fn shaped_text(c: &mut impl Choices, shape: Shape<'_>) -> String {
    let mut out = String::new();
    push_any_case(&mut out, c, "urn:");
    match shape {
        Shape::Known(ns) => {
            push_any_case(&mut out, c, ns.nid());
            out.push(':');
            known_nss(&mut out, c, ns);
        }
        Shape::Other => {
            other_nid(&mut out, c);
            out.push(':');
            generic_nss(&mut out, c);
        }
        Shape::Named(nid) => {
            push_any_case(&mut out, c, nid);
            out.push(':');
            generic_nss(&mut out, c);
        }
    }
    components(&mut out, c);
    out
}

/// A valid URN of `ns` (any when `None`); `None` only if the generator has a bug (the tests
/// check it never happens).
pub(crate) fn urn(c: &mut impl Choices, ns: Option<KnownNamespace>) -> Option<Urn> {
    Urn::parse(&urn_text(c, ns)).ok()
}

/// A respelling of `urn` with the same key: the scheme, NID and `%XX` digits in another case,
/// other components, and (kept only where the key stays the same) letters of the NSS in
/// another case and hyphens added or dropped (ISBN, ISSN).
pub(crate) fn respell(urn: &Urn, c: &mut impl Choices) -> Urn {
    let key = urn.key();
    let mut best = urn.clone();
    // Case of the scheme, the NID and hex digits, and the components: never change the key.
    let mut text = String::new();
    push_any_case(&mut text, c, "urn:");
    push_any_case(&mut text, c, urn.nid());
    text.push(':');
    let mut hex_left = 0;
    for ch in urn.nss().chars() {
        if hex_left > 0 {
            hex_left -= 1;
            text.push(if c.one_in(2) {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            });
        } else {
            hex_left = if ch == '%' { 2 } else { 0 };
            text.push(ch);
        }
    }
    components(&mut text, c);
    keep_if_same_key(&mut best, &text, &key);
    // Letter case and hyphens inside the NSS, one edit at a time, each kept only when the key
    // stays the same (uuid, isbn `x`, ietf, lex, mpeg names, nbn prefixes...).
    for _ in 0..c.below(8) {
        let nss_start = 4 + best.nid().len() + 1;
        let nss_len = best.nss().len();
        let at = nss_start + c.below(u32::try_from(nss_len).unwrap_or(1).max(1)) as usize;
        let current = best.as_str();
        let (head, rest) = (
            current.get(..at).unwrap_or(""),
            current.get(at..).unwrap_or(""),
        );
        let mut chars = rest.chars();
        let mut edited = String::from(head);
        match (c.below(3), chars.next()) {
            (0, Some(ch)) if ch.is_ascii_alphabetic() => {
                edited.push(if ch.is_ascii_lowercase() {
                    ch.to_ascii_uppercase()
                } else {
                    ch.to_ascii_lowercase()
                });
                edited.push_str(chars.as_str());
            }
            (1, Some('-')) => edited.push_str(chars.as_str()),
            (2, Some(_)) => {
                edited.push('-');
                edited.push_str(rest);
            }
            _ => continue,
        }
        keep_if_same_key(&mut best, &edited, &key);
    }
    best
}

/// Replaces `best` with `text` when `text` is a URN with key `key`.
fn keep_if_same_key(best: &mut Urn, text: &str, key: &crate::UrnKey<'_>) {
    if let Ok(candidate) = Urn::parse(text)
        && candidate.key() == *key
    {
        *best = candidate;
    }
}
