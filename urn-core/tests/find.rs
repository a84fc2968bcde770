//! `find`: the end-of-URN rule on examples, and against a reference that tries every prefix.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use urn_core::{
    FindOptions, ParseOptions, Syntax, UrnEnd, UrnRef, find, find_with, link, resolvers,
    unwrap_link,
};

/// What `find_with` yields: (start, text).
fn hits(text: &str, options: FindOptions) -> Vec<(usize, &str)> {
    find_with(text, options)
        .map(|f| {
            assert_eq!(&text[f.span()], f.as_str());
            (f.start(), f.as_str())
        })
        .collect()
}

fn prose(text: &str) -> Vec<(usize, &str)> {
    hits(text, FindOptions::new())
}

fn longest(text: &str) -> Vec<(usize, &str)> {
    hits(text, FindOptions::new().with_end(UrnEnd::Longest))
}

#[test]
fn where_urns_start() {
    assert_eq!(prose("urn:example:a"), [(0, "urn:example:a")]);
    assert_eq!(prose("x URN:Example:a y"), [(2, "URN:Example:a")]);
    // Not after an ASCII letter or digit; after anything else.
    assert_eq!(prose("Saturn:x:y"), []);
    assert_eq!(prose("1urn:example:a"), []);
    assert_eq!(prose("-urn:example:a"), [(1, "urn:example:a")]);
    assert_eq!(prose("éurn:example:a"), [(2, "urn:example:a")]);
    assert_eq!(
        prose("id=urn:example:a&x=urn:example:b"),
        [(3, "urn:example:a&x=urn:example:b")]
    );
    // Not a URN at that start: the search goes on.
    assert_eq!(prose("urn:x:y urn:ex:z"), [(8, "urn:ex:z")]);
    assert_eq!(prose("urn:ex:"), []);
    assert_eq!(prose("urn:urn:x"), [(0, "urn:urn:x")]);
}

#[test]
fn where_urns_end_in_prose() {
    assert_eq!(prose("See urn:example:a."), [(4, "urn:example:a")]);
    assert_eq!(
        prose("urn:example:a, urn:example:b;"),
        [(0, "urn:example:a"), (15, "urn:example:b")]
    );
    assert_eq!(prose("urn:example:a.b.c..."), [(0, "urn:example:a.b.c")]);
    assert_eq!(prose("(urn:example:a)"), [(1, "urn:example:a")]);
    assert_eq!(prose("(urn:example:f(x))."), [(1, "urn:example:f(x)")]);
    assert_eq!(prose("urn:example:a)b)"), [(0, "urn:example:a)b")]);
    assert_eq!(prose("'urn:example:a'"), [(1, "urn:example:a")]);
    assert_eq!(prose("urn:example:it's"), [(0, "urn:example:it's")]);
    assert_eq!(prose("urn:example:'a'"), [(0, "urn:example:'a'")]);
    assert_eq!(prose("<urn:example:a>"), [(1, "urn:example:a")]);
    assert_eq!(prose("[urn:example:a]"), [(1, "urn:example:a")]);
    assert_eq!(prose("\"urn:example:a\""), [(1, "urn:example:a")]);
    assert_eq!(prose("urn:example:a?!"), [(0, "urn:example:a")]);
    assert_eq!(prose("urn:example:aé"), [(0, "urn:example:a")]);
    assert_eq!(prose("urn:example:a\tb"), [(0, "urn:example:a")]);
    // Components are kept, the parser's end inside the run is taken.
    assert_eq!(
        prose("urn:example:a?+r?=q#f."),
        [(0, "urn:example:a?+r?=q#f")]
    );
    assert_eq!(prose("urn:example:a?b"), [(0, "urn:example:a")]);
    assert_eq!(prose("urn:example:a.%zz"), [(0, "urn:example:a")]);
    assert_eq!(prose("urn:example:a#b#c"), [(0, "urn:example:a#b")]);
    assert_eq!(prose("urn:ab:a?+"), [(0, "urn:ab:a")]);
    assert_eq!(prose("urn:ab:a?+?=q"), [(0, "urn:ab:a")]);
}

#[test]
fn the_longest_match_keeps_punctuation() {
    assert_eq!(longest("See urn:example:a."), [(4, "urn:example:a.")]);
    assert_eq!(longest("(urn:example:a)"), [(1, "urn:example:a)")]);
    assert_eq!(longest("urn:example:a?b"), [(0, "urn:example:a")]);
    assert_eq!(longest("urn:example:a?"), [(0, "urn:example:a")]);
    // An empty component's marker cut off, but not the `?` an r- or q-component may end with.
    assert_eq!(longest("urn:example:a?+b?="), [(0, "urn:example:a?+b?")]);
    assert_eq!(longest("urn:example:a?=b?+"), [(0, "urn:example:a?=b?+")]);
    assert_eq!(longest("urn:example:a?+"), [(0, "urn:example:a")]);
    assert_eq!(longest("urn:example:a?+?=q"), [(0, "urn:example:a")]);
}

#[test]
fn syntax_and_length_cap() {
    let legacy = FindOptions::new().with_parse_options(Syntax::Rfc2141.into());
    assert_eq!(hits("urn:x:y/z", legacy), [(0, "urn:x:y")]);
    assert_eq!(prose("urn:x:y/z"), []);
    let capped = FindOptions::new().with_parse_options(ParseOptions::new().with_max_len(13));
    assert_eq!(
        hits("urn:example:a urn:example:ab", capped),
        [(0, "urn:example:a")]
    );
    // A run longer than the cap is never cut to fit.
    assert_eq!(hits("urn:example:a?b", capped), []);
}

#[test]
fn urns_in_resolver_links() {
    let links = |text: &str| -> Vec<(String, Option<String>)> {
        find(text)
            .map(|f| (f.as_str().to_owned(), f.link().map(|l| text[l].to_owned())))
            .collect()
    };
    let one = |urn: &str, link: Option<&str>| vec![(urn.to_owned(), link.map(str::to_owned))];
    assert_eq!(
        links("see https://nbn-resolving.org/urn:nbn:de:bvb:19-146642."),
        one(
            "urn:nbn:de:bvb:19-146642",
            Some("https://nbn-resolving.org/urn:nbn:de:bvb:19-146642")
        )
    );
    assert_eq!(
        links("(http://urn.fi/URN:NBN:fi-fe2021)"),
        one("URN:NBN:fi-fe2021", Some("http://urn.fi/URN:NBN:fi-fe2021"))
    );
    assert_eq!(
        links("<a href=\"https://urn.kb.se/resolve?urn=urn:nbn:se:kb:publ-19\">"),
        one(
            "urn:nbn:se:kb:publ-19",
            Some("https://urn.kb.se/resolve?urn=urn:nbn:se:kb:publ-19")
        )
    );
    assert_eq!(
        links("HTTPS://www.example.org/a/urn:example:x"),
        one(
            "urn:example:x",
            Some("HTTPS://www.example.org/a/urn:example:x")
        )
    );
    assert_eq!(links("path/urn:example:x"), one("urn:example:x", None));
    assert_eq!(links("https:// /urn:example:x"), one("urn:example:x", None));
    // A DOI link holds no URN as written: unwrap_link reads it.
    assert_eq!(links("https://doi.org/10.1000/182"), []);
}

#[test]
fn links_made_are_links_read() {
    for resolver in resolvers().iter().filter(|r| r.preferred) {
        let urn = format!(
            "{}{}",
            resolver.urns,
            if resolver.urns.ends_with(':') {
                "10.1/x-1"
            } else {
                "x-1"
            }
        );
        let urn = UrnRef::parse(&urn).unwrap();
        let made = link(&urn).unwrap();
        assert!(made.contains(resolver.link), "{made}");
        let read = unwrap_link(&made).unwrap();
        assert_eq!(read.as_str(), urn.assigned_name(), "{made}");
    }
    // Another resolver's URN: read as the generic form reads it.
    assert_eq!(
        unwrap_link("https://resolver.obvsg.at/urn:nbn:de:x")
            .unwrap()
            .as_str(),
        "urn:nbn:de:x"
    );
    for (bad, reason) in [
        (
            "ftp://doi.org/10.1/x",
            "it does not start with http:// or https://",
        ),
        (
            "https://doi.org/10.1/x y",
            "what follows the resolver is not a URN",
        ),
        (
            "https://example.org/1",
            "no resolver of the table, and no /urn: in the link",
        ),
    ] {
        assert_eq!(unwrap_link(bad).unwrap_err().reason(), reason, "{bad}");
    }
}

/// The end-of-URN rule as stated, one prefix at a time: whether `p` ends as prose ends a name.
fn prose_clean(p: &str) -> bool {
    let count = |c| p.bytes().filter(|&b| b == c).count();
    match p.as_bytes().last() {
        Some(b'.' | b',' | b';' | b':' | b'!' | b'?') => false,
        Some(b')') => count(b')') <= count(b'('),
        Some(b'\'') => count(b'\'') % 2 == 0,
        _ => true,
    }
}

/// `find_with` by brute force: at each word start of `urn:`, the longest prefix of the run
/// that parses (and, in prose, ends as prose ends a name).
fn reference(text: &str, options: FindOptions) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let in_urn = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#%".contains(&b);
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= bytes.len() {
        let word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if !word_start || !bytes[i..i + 4].eq_ignore_ascii_case(b"urn:") {
            i += 1;
            continue;
        }
        let run_end = (i..bytes.len())
            .find(|&j| !in_urn(bytes[j]))
            .unwrap_or(bytes.len());
        let hit = (i + 1..=run_end).rev().map(|end| &text[i..end]).find(|p| {
            (options.end() == UrnEnd::Longest || prose_clean(p))
                && UrnRef::parse_with(p, options.parse_options()).is_ok()
        });
        match hit {
            Some(p) => {
                out.push((i, p));
                i += p.len();
            }
            None => i += 1,
        }
    }
    out
}

/// Texts made of the pieces URNs and prose around them are made of.
fn texts() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "urn:", "URN:", "ex", "ab", "a", "S", "1", ":", ".", ",", ";", "!", ")", "(", "'", "?",
        "?+", "?=", "+", "=", "#", "%", "%2c", "zz", " ", "-", "/", "é", "<", ">", "\"", "[",
    ]);
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn prose_matches_the_reference(text in texts()) {
        prop_assert_eq!(prose(&text), reference(&text, FindOptions::new()));
    }

    #[test]
    fn longest_matches_the_reference(text in texts()) {
        let options = FindOptions::new().with_end(UrnEnd::Longest);
        prop_assert_eq!(hits(&text, options), reference(&text, options));
    }

    #[test]
    fn rfc2141_matches_the_reference(text in texts()) {
        let options = FindOptions::new().with_parse_options(Syntax::Rfc2141.into());
        prop_assert_eq!(hits(&text, options), reference(&text, options));
    }
}

/// A URN put into prose is found where it was put, whole (in prose, one that does not itself
/// end as prose ends a name).
#[cfg(feature = "proptest")]
mod inserted {
    use super::*;

    proptest! {
        #[test]
        fn a_urn_in_prose_is_found(
            urn in urn_core::strategy::urn(),
            before in "[ a-z]{0,8}[ (\\[<\"]",
            punctuation in "[.,;:!?]?",
            after in "([ \\]>\"][ a-z]{0,8})?",
        ) {
            let text = format!("{before}{urn}{punctuation}{after}");
            let longest = FindOptions::new().with_end(UrnEnd::Longest);
            let found = find_with(&text, longest).next().unwrap();
            // The punctuation too, where the parser takes it (`?` is a bare question mark
            // after an assigned name, and part of a q- or f-component).
            let with = format!("{urn}{punctuation}");
            let expected = if UrnRef::parse(&with).is_ok() { with.as_str() } else { urn.as_str() };
            prop_assert_eq!((found.start(), found.as_str()), (before.len(), expected));
            prop_assume!(prose_clean(urn.as_str()));
            let found = find(&text).next().unwrap();
            prop_assert_eq!((found.start(), found.as_str()), (before.len(), urn.as_str()));
        }
    }
}
