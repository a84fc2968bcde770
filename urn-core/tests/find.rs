//! `find`: the end-of-URN rule on examples, and against a reference that tries every prefix.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use urn_core::{
    FindOptions, ParseOptions, Syntax, UrnEnd, UrnRef, find, find_with, link, resolvers,
    unwrap_link,
};

/// What `find_with` yields of the URNs written as URNs: (start, text).
fn hits(text: &str, options: FindOptions) -> Vec<(usize, &str)> {
    find_with(text, options.with_as_written(true))
        .map(|f| {
            assert_eq!(&text[f.span()], f.as_str());
            assert_eq!(f.written().map(|u| u.as_str()), Some(f.as_str()));
            (f.start(), &text[f.span()])
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
    // After `=`, a query value: it ends at `&`.
    assert_eq!(
        prose("id=urn:example:a&x=urn:example:b"),
        [(3, "urn:example:a"), (19, "urn:example:b")]
    );
    assert_eq!(
        longest("id=urn:example:a&x=urn:example:b"),
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

/// A URN ends where what the byte before it opened closes: the ways real text writes URNs
/// (each was read past its delimiter before this rule).
#[test]
fn a_urn_ends_where_its_opener_closes() {
    // XMPP's specifications (XEP-0199) write their namespaces in single quotes.
    assert_eq!(
        prose("<iq type='get'><ping xmlns='urn:xmpp:ping'/></iq>"),
        [(28, "urn:xmpp:ping")]
    );
    // An SQL tuple.
    assert_eq!(
        prose("('urn:nbn:fi','URN-NBN-FI.','The National Library')"),
        [(2, "urn:nbn:fi")]
    );
    // An unquoted CSV cell, and cells split by `;`, `|` and tabs.
    assert_eq!(
        prose("42,urn:isbn:0-395-36341-1,The Hobbit"),
        [(3, "urn:isbn:0-395-36341-1")]
    );
    assert_eq!(
        prose("a;urn:example:b;c|urn:example:d|e"),
        [(2, "urn:example:b"), (18, "urn:example:d")]
    );
    // Markdown emphasis, opened before the URN or just before it.
    assert_eq!(
        prose("*see ?client=urn:amazon:webservices*"),
        [(13, "urn:amazon:webservices")]
    );
    assert_eq!(
        prose("_urn:example:a_ and *urn:example:b*"),
        [(1, "urn:example:a"), (21, "urn:example:b")]
    );
    assert_eq!(prose("`urn:example:a`"), [(1, "urn:example:a")]);
    // Brackets the URN opens and closes itself are its own.
    assert_eq!(prose("(urn:example:f(x)y)"), [(1, "urn:example:f(x)y")]);
    assert_eq!(prose("{urn:example:a}"), [(1, "urn:example:a")]);
    // Where what is before the closer is no URN, the prose rule holds.
    assert_eq!(prose("'urn:ex:'a''"), [(1, "urn:ex:'a'")]);
    // After a byte that opens nothing, the URN keeps its characters.
    assert_eq!(prose("see urn:example:it's,x"), [(4, "urn:example:it's,x")]);
    // `=` and quotes do not nest: a query value ends at the first `&`.
    assert_eq!(prose("?id=urn:ex:k=v&next=1"), [(4, "urn:ex:k=v")]);
    // The longest match keeps today's meaning.
    assert_eq!(longest("xmlns='urn:xmpp:ping'/>"), [(7, "urn:xmpp:ping'/")]);
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
}

/// A link of a resolver that holds the NSS alone (doi.org, dx.doi.org) is a hit: the URN is
/// the resolver's prefix and the NSS as written, its span the NSS, its link the link.
#[test]
fn dois_in_links_are_hits() {
    let hits = |text: &str, options: FindOptions| -> Vec<(String, String, Option<String>)> {
        find_with(text, options)
            .map(|f| {
                let link = f.link().map(|l| text[l].to_owned());
                (f.as_str().to_owned(), text[f.span()].to_owned(), link)
            })
            .collect()
    };
    let doi =
        |urn: &str, nss: &str, link: &str| (urn.to_owned(), nss.to_owned(), Some(link.to_owned()));
    // BibTeX, as Crossref and arXiv export it; HTML; a reference list; an older host.
    assert_eq!(
        hits(
            "  url = {https://doi.org/10.1038/nphys1170},",
            FindOptions::new()
        ),
        [doi(
            "urn:doi:10.1038/nphys1170",
            "10.1038/nphys1170",
            "https://doi.org/10.1038/nphys1170"
        )]
    );
    assert_eq!(
        hits(
            "<a href=\"https://doi.org/10.5281/zenodo.1234567\">DOI</a>",
            FindOptions::new()
        ),
        [doi(
            "urn:doi:10.5281/zenodo.1234567",
            "10.5281/zenodo.1234567",
            "https://doi.org/10.5281/zenodo.1234567"
        )]
    );
    assert_eq!(
        hits(
            "Nature 2009 (http://dx.doi.org/10.1038/NPHYS1170).",
            FindOptions::new()
        ),
        [doi(
            "urn:doi:10.1038/NPHYS1170",
            "10.1038/NPHYS1170",
            "http://dx.doi.org/10.1038/NPHYS1170"
        )]
    );
    // The query and fragment are the link's; the key is the DOI's.
    let text = "https://www.doi.org/10.1000/ABC?locatt=mode:legacy";
    let found = find(text).next().unwrap();
    assert_eq!(
        (found.as_str(), found.urn().key().as_str()),
        ("urn:doi:10.1000/ABC", "urn:doi:10.1000/abc")
    );
    assert_eq!(found.written(), None);
    // What the byte before the link opened closes it: an SQL tuple, a CSV row.
    assert_eq!(
        hits(
            "(1,'https://doi.org/10.1038/nphys1170','Nature')",
            FindOptions::new()
        )[0]
        .1,
        "10.1038/nphys1170"
    );
    assert_eq!(
        hits(
            "T,https://doi.org/10.1038/nphys1170,2009",
            FindOptions::new()
        )[0]
        .1,
        "10.1038/nphys1170"
    );
    // Not a link of the table, not at a word start, nothing after the host: no hit.
    assert_eq!(
        hits("https://example.org/10.1000/182", FindOptions::new()),
        []
    );
    assert_eq!(hits("xhttps://doi.org/10.1000/182", FindOptions::new()), []);
    assert_eq!(hits("https://doi.org/", FindOptions::new()), []);
    // As written: only `urn:…`.
    let as_written = FindOptions::new().with_as_written(true);
    assert_eq!(
        hits(
            "https://doi.org/10.1000/182 urn:isbn:0-395-36341-1",
            as_written
        )
        .len(),
        1
    );
    assert_eq!(
        hits(
            "https://doi.org/10.1000/182 urn:isbn:0-395-36341-1",
            FindOptions::new()
        )
        .len(),
        2
    );
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
        Some(b'*') => count(b'*') % 2 == 0,
        _ => true,
    }
}

/// The rule for a URN after an opener, as stated: where the first closer of the byte before
/// `urn:` stands in `run`, after `urn:`, counting the brackets it opens and closes again.
fn closes_at(opener: u8, run: &[u8]) -> Option<usize> {
    let pairs = [
        (b'(', b')'),
        (b'[', b']'),
        (b'<', b'>'),
        (b'{', b'}'),
        (b'=', b'&'),
    ];
    let close = match pairs.iter().find(|(o, _)| *o == opener) {
        Some(&(_, c)) => c,
        None if b"'\"*_`,;|\t".contains(&opener) => opener,
        None => return None,
    };
    let mut open = 0;
    for (j, &b) in run.iter().enumerate().skip(4) {
        if b == close && open == 0 {
            return Some(j);
        } else if b == close {
            open -= 1;
        } else if b == opener && opener != b'=' {
            open += 1;
        }
    }
    None
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
        let longest_in = |run_end: usize| {
            (i + 1..=run_end).rev().map(|end| &text[i..end]).find(|p| {
                (options.end() == UrnEnd::Longest || prose_clean(p))
                    && UrnRef::parse_with(p, options.parse_options()).is_ok()
            })
        };
        let closed = match (options.end(), i.checked_sub(1)) {
            (UrnEnd::Prose, Some(before)) => closes_at(bytes[before], &bytes[i..run_end]),
            _ => None,
        };
        let hit = closed
            .and_then(|cut| longest_in(i + cut))
            .or_else(|| longest_in(run_end));
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
        "?+", "?=", "+", "=", "#", "%", "%2c", "zz", " ", "-", "/", "é", "<", ">", "\"", "[", "*",
        "_", "`", "|", "{", "\t", "&", "=urn:",
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
            // Nor one that holds what closes the byte before it.
            prop_assume!(closes_at(*before.as_bytes().last().unwrap(), urn.as_str().as_bytes()).is_none());
            let found = find(&text).next().unwrap();
            prop_assert_eq!((found.start(), found.as_str()), (before.len(), urn.as_str()));
        }
    }
}
