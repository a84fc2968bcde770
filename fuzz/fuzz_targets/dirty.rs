//! `find` and `repair` never panic on any text. What `find` yields parses, lies where it says
//! (in order, never overlapping), and its link reads back as it; `repair`'s fixes rebuild the
//! URN from the input, a URN is left as it is, and a failure is the parser's error (or the
//! namespace's, on a URN the fixes made).
#![no_main]

use libfuzzer_sys::fuzz_target;
use urn_core::{FindOptions, UrnEnd, UrnRef, find_with, repair, unwrap_link};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for end in [UrnEnd::Prose, UrnEnd::Longest] {
        let mut after = 0;
        for found in find_with(text, FindOptions::new().with_end(end)) {
            assert!(found.start() >= after, "{text:?}: overlapping");
            // Written as a URN, the span is it; the NSS in a doi.org link, the span is the NSS.
            let span = &text[found.span()];
            match found.written() {
                Some(urn) => assert_eq!((span, urn.as_str()), (found.as_str(), found.as_str())),
                None => assert_eq!(
                    found.as_str().get("urn:doi:".len()..),
                    Some(span),
                    "{text:?}"
                ),
            }
            assert!(UrnRef::parse(found.as_str()).is_ok(), "{text:?}");
            if let Some(link) = found.link() {
                assert_eq!(link.end, found.end());
                let read = unwrap_link(&text[link]).expect("a link find reported reads back");
                assert_eq!(read.as_str(), found.as_str());
            }
            after = found.end();
        }
    }
    let repaired = repair(text);
    match (repaired.urn(), UrnRef::parse(text)) {
        (Some(urn), given) => {
            let mut rebuilt = String::new();
            let mut at = 0;
            for fix in repaired.fixes() {
                assert!(fix.start >= at && fix.end >= fix.start, "{text:?}");
                assert_eq!(text.get(fix.start..fix.end), Some(fix.before.as_str()));
                rebuilt.push_str(&text[at..fix.start]);
                rebuilt.push_str(&fix.after);
                at = fix.end;
            }
            rebuilt.push_str(&text[at..]);
            assert_eq!(rebuilt, urn.as_str(), "{text:?}");
            if given.is_ok_and(|u| !u.nid().eq_ignore_ascii_case("urn")) {
                assert!(repaired.fixes().is_empty(), "{text:?}");
            }
        }
        // No URN: the parser's error on the text, or the namespace's on what the fixes made.
        (None, given) => match repaired.refused() {
            None => assert_eq!(repaired.error().copied(), given.err(), "{text:?}"),
            Some(refused) => assert_eq!(
                repaired.error().map(|e| (e.kind(), e.offset())),
                Some((urn_core::ErrorKind::InvalidNss, refused.offset())),
                "{text:?}"
            ),
        },
    }
});
