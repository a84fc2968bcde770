//! Valid URNs from a stream of [`Choices`]: the one generator behind the `arbitrary` and
//! `proptest` features, so both produce the same shapes. Each known namespace's NSS comes from
//! its own module's generator; this module adds the scheme, other NIDs, components and
//! respellings. Everything here builds text that is valid by construction; the callers parse
//! it once more and the tests check that nothing is ever refused.

use alloc::string::String;

use crate::choices::{self, ALNUM, Choices, push_any_case, push_from, push_pchars};
use crate::{KnownNamespace, Urn};

/// The shapes the generator covers: each known namespace, any other NID, or a given NID.
#[derive(Clone, Copy)]
enum Shape<'n> {
    Known(KnownNamespace),
    Other,
    Named(&'n str),
}

/// A NID that is none of the known namespaces' (2 to 32 letters, digits and inner hyphens).
fn other_nid(out: &mut String, c: &mut dyn Choices) {
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

/// `?+r`, `?=q` and `#f`, each present or not.
fn components(out: &mut String, c: &mut dyn Choices) {
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
pub(crate) fn urn_text(c: &mut dyn Choices, ns: Option<KnownNamespace>) -> String {
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
pub(crate) fn urn_text_with_nid(c: &mut dyn Choices, nid: &str) -> String {
    match KnownNamespace::from_nid(nid) {
        Some(ns) => shaped_text(c, Shape::Known(ns)),
        None => shaped_text(c, Shape::Named(nid)),
    }
}

/// `urn:`, the NID and `:` (in random case), an NSS of `shape`, components.
fn shaped_text(c: &mut dyn Choices, shape: Shape<'_>) -> String {
    let mut out = String::new();
    push_any_case(&mut out, c, "urn:");
    match shape {
        Shape::Known(ns) => {
            push_any_case(&mut out, c, ns.nid());
            out.push(':');
            (ns.spec().generate)(c, &mut out);
        }
        Shape::Other => {
            other_nid(&mut out, c);
            out.push(':');
            choices::generic_nss(c, &mut out);
        }
        Shape::Named(nid) => {
            push_any_case(&mut out, c, nid);
            out.push(':');
            choices::generic_nss(c, &mut out);
        }
    }
    components(&mut out, c);
    out
}

/// A valid URN of `ns` (any when `None`); `None` only if the generator has a bug (the tests
/// check it never happens).
pub(crate) fn urn(c: &mut dyn Choices, ns: Option<KnownNamespace>) -> Option<Urn> {
    Urn::parse(&urn_text(c, ns)).ok()
}

/// A respelling of `urn` with the same key: the scheme, NID and `%XX` digits in another case,
/// other components, and (kept only where the key stays the same) letters of the NSS in
/// another case and hyphens added or dropped (ISBN, ISSN).
#[cfg(feature = "proptest")]
pub(crate) fn respell(urn: &Urn, c: &mut dyn Choices) -> Urn {
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
    // Letter case, hyphens and slashes inside the NSS, one edit at a time, each kept only when
    // the key stays the same (where a namespace's rule folds case or drops hyphens).
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
        match (c.below(4), chars.next()) {
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
            // A DOI's separator in its other spelling, a later `/` percent-encoded.
            (3, Some('/')) => {
                edited.push_str(if c.one_in(2) { ":" } else { "%2F" });
                edited.push_str(chars.as_str());
            }
            _ => continue,
        }
        keep_if_same_key(&mut best, &edited, &key);
    }
    best
}

/// Replaces `best` with `text` when `text` is a URN with key `key`.
#[cfg(feature = "proptest")]
fn keep_if_same_key(best: &mut Urn, text: &str, key: &crate::UrnKey<'_>) {
    if let Ok(candidate) = Urn::parse(text)
        && candidate.key() == *key
    {
        *best = candidate;
    }
}
