//! `decode_nss(encode_nss(s)) == s` for any text; every URN `UrnBuilder` builds parses back to
//! the same parts. The input is a NID, NSS and components separated by newlines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urn_core::{Urn, decode_nss, encode_nss};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let encoded = encode_nss(text);
    let decoded = decode_nss(&encoded).expect("an encoded NSS decodes");
    assert_eq!(decoded, text);
    if !text.is_empty() && !text.starts_with('/') {
        let urn = Urn::builder("example", &encoded)
            .build()
            .unwrap_or_else(|e| panic!("encoded {text:?} as {encoded:?}: {e}"));
        assert_eq!(urn.nss_decoded().expect("decodes"), text);
    }

    let mut parts = text.split('\n');
    let (nid, nss) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let r = parts.next().filter(|s| !s.is_empty());
    let q = parts.next().filter(|s| !s.is_empty());
    let f = parts.next();
    if let Ok(urn) = Urn::builder(nid, nss)
        .r_component(r)
        .q_component(q)
        .f_component(f)
        .build()
    {
        let again = Urn::parse(urn.as_str()).expect("a built URN parses");
        assert!(again.eq_text(&urn));
        assert_eq!(
            (
                again.nid(),
                again.nss(),
                again.r_component(),
                again.q_component(),
                again.f_component()
            ),
            (nid, nss, r, q, f)
        );
    }
});
