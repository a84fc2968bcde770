//! `find` and `repair` never panic on any text. What `find` yields parses, lies where it says
//! (in order, never overlapping), and its link reads back as it; `repair`'s fixes rebuild the
//! URN from the input, a URN is left as it is, and a failure is the parser's error.
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
            assert_eq!(text.get(found.span()), Some(found.as_str()), "{text:?}");
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
        (None, given) => assert_eq!(repaired.error().copied(), given.err(), "{text:?}"),
    }
});
