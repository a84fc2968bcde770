//! Inputs for differential tests: every string in the shared test vectors, plus a
//! combinatorial set aimed at the namespace key rules and the syntax edges.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::Value;

/// Every input, `a` and `b` string of the JSON-lines files in `testdata/`.
pub fn vector_inputs() -> Vec<String> {
    let dir = format!("{}/../testdata", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "test vectors missing in {dir}");
    for path in files {
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).unwrap();
            for field in ["input", "a", "b"] {
                if let Some(s) = v.get(field).and_then(Value::as_str) {
                    out.push(s.to_owned());
                }
            }
        }
    }
    out
}

const NIDS: &[&str] = &[
    "uuid", "UUID", "isbn", "Isbn", "issn", "ISSN", "ietf", "IETF", "nbn", "NBN", "lex", "Lex",
    "mpeg", "MPEG", "oid", "OGC", "ogc", "example", "EX", "urn-7", "a-b", "x", "-ab", "ab-", "a_b",
];

const NSS: &[&str] = &[
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "f81d4fae7dec11d0a76500a0c91e6bf6",
    "f81d4fae-7dec-11d0-a765-00a0c91e6bf%41",
    "F81D4FAE-7DEC-11D0-A7650-0A0C91E6BF6",
    "F81D4FAE-7DEC-11D0A-765-00A0C91E6BF6",
    "F81D4FAE7-DEC-11D0-A765-00A0C91E6BF6",
    "F81D4FAE-7DEC1-1D0-A765-00A0C91E6BF6",
    "F81D4FAE--7DEC-11D0-A765-00A0C91E6BF",
    "F81D4FAE-7DEC-11D0-A765-00A0C91E6BG6",
    "12345-678",
    "1234-567x",
    "12-34-567X",
    "1234-567-X",
    "0378-5955",
    "03785955",
    "03785-955",
    "037-85955",
    "0-395-36341-1",
    "0395363411",
    "0-395-36341-2",
    "978-0-395-36341-6",
    "9780395363416",
    "9790000000001",
    "9770395363416",
    "0-8044-2957-X",
    "080442957x",
    "0--395-36341-1",
    "9-7-8-0-3-95363416",
    "0-3-9-5-363411",
    "0-3-9-5-3-63411",
    "97803953634161",
    // Edges of urn_key_v1_inline's ISBN-13 path: hyphens doubled, leading, trailing, five of
    // them, a wrong check digit, an X, 979, more or fewer digits, a valid EAN-13 that is not an
    // ISBN (977).
    "978--0-395-36341-6",
    "978--0395363416",
    "97803953634--16",
    "978-0-395-36341-6-",
    "-978-0-395-36341-6",
    "97-8-0395-36341-6",
    "978-0-3-9-5-36341-6",
    "978-0-395-36341-7",
    "978-0-395-36341-X",
    "979-10-90636-07-1",
    "978-0-395-36341-61",
    "9780395363416-",
    "-9780395363416",
    "977-0395-36341-7",
    "978-0-395-3634-6",
    // Its one-%XX path: hex in either case, one or two of them, upper case around.
    "ab%2fc-d",
    "ab%2Fc",
    "ab%2f%2Fc",
    "Ab%2fc",
    "%2f",
    "-0395363411",
    "0395363411-",
    "03953634X1",
    "1046-8188",
    "10468188",
    "2434-561x",
    "2434561X",
    "1046-8189",
    "1046-81888",
    "104X-8188",
    "rfc:2141",
    "RFC:2141",
    "Rfc:21a1",
    "id:draft-ietf-x",
    "MTG:Ab-1",
    "params:scim:A",
    "foo:1",
    "rfc:",
    "bcp:%31",
    "fi-fe2010%2f",
    "FI:Ab:cD-X%2f",
    "se:uu:diva-3475",
    "fi-/x",
    "fi:-x",
    "f-1",
    "fi-",
    "it:stato:legge:2003-09-21;456",
    "IT:Stato:Legge%2a",
    "IT",
    "it:",
    "i,t:x",
    "MPEG7:cs:VideoDomainCS:2001",
    "mpeg7:%aa",
    "mpeg7",
    "1.3.6.1.4.1",
    "1.3.6.01",
    "def:crs:EPSG::4326",
    "serviceType:CSW:2.0.2",
    "def:",
    "de-f:x",
    ":x",
    "a%2cb",
    "A%2C%3d",
    "%7e~",
    ":a",
    "a/b/c",
    "a//b:",
    "/a",
    "a b",
    "a%zz",
    "a%4",
    "a%",
    "é",
    "a\"b",
    "",
];

/// The namespaces whose rules changed in `KeyRules::V2` (and a generic one), in two cases each.
const V2_NIDS: &[&str] = &[
    "doi", "DOI", "lei", "Lei", "lex", "LEX", "mpeg", "MPEG", "example",
];

/// NSSs for the rules `KeyRules::V2` added, valid and not: taken with [`V2_NIDS`] only.
const V2_NSS: &[&str] = &[
    // Jurisdiction units (V2 keys them): valid, an empty unit, a unit with '-' or '%XX'.
    "ch;glarus:regiere:erlass:2007-10-15;963",
    "CH;Glarus:Regiere",
    "br;sao.paulo;Campinas:governo:decreto",
    "ch;:x",
    "ch;a-b:X",
    "ch;gl%C3%A4rus:X",
    // Standard names with '_' (V2 keys them).
    "MPEG_7:cs:VideoDomainCS:2001",
    "mpeg_21:dii",
    "_:x",
    // DOI names (V2 keys them): both URN forms, a %2F in either case, a directory without a
    // registrant code, a prefix 10 without one, upper-case suffixes.
    "10.1000/182",
    "10.1000/ABC",
    "10.123:456ABC%2Fzyz",
    "10.123:456abc%2fZYZ",
    "10.123/456ABC/zyz",
    "10.1093/NAR/gkaa1100",
    "10.1093:nar%2Fgkaa1100",
    "10/abc",
    "5.6:X",
    "10.1000/",
    "10.:x",
    "10.1000/A%2F%2c",
    // LEIs (V2 keys them): valid in either case, a wrong check, 19 and 21 characters.
    "7LTWFZYICNSX8D621K86",
    "7ltwfzyicnsx8d621k86",
    "506700GE1G29325QX363",
    "213800KUD8LXJWSQ9D15",
    "213800KUD8LAJWSQ9D1",
    "213800KUD8LAJWSQ9D150",
];

const SUFFIXES: &[&str] = &[
    "",
    "?+r",
    "?=q",
    "#f",
    "#",
    "?+R/?=Q?#F/?",
    "?+",
    "?=",
    "?+/",
    "#a#b",
    "?x",
    "?=q?+r",
    "#%zz",
    "?+%41",
];

/// The combinatorial set: scheme spellings x NIDs x NSS x component suffixes (45,475), and
/// the same for the rules `KeyRules::V2` added (4,131), the
/// edges of the length policy, long URNs, and URNs with white space, a byte order mark or
/// nothing around them.
pub fn generated_inputs() -> Vec<String> {
    let mut out = Vec::new();
    let sets = [(NIDS, NSS), (V2_NIDS, V2_NSS)];
    for scheme in ["urn", "URN", "uRn", "urx"] {
        for (nids, nsss) in sets {
            for (nid, nss) in nids
                .iter()
                .flat_map(|nid| nsss.iter().map(move |nss| (nid, nss)))
            {
                for suffix in SUFFIXES {
                    if scheme != "urn" && !suffix.is_empty() {
                        continue;
                    }
                    out.push(format!("{scheme}:{nid}:{nss}{suffix}"));
                }
            }
        }
    }
    // The length policy's edge: 65,536 bytes is valid, one more is not.
    out.push(format!("urn:example:{}", "a".repeat(65_536 - 12)));
    out.push(format!("urn:example:{}", "a".repeat(65_536 - 11)));
    out.push(format!("urn:{}:a", "a".repeat(32)));
    out.push(format!("urn:{}:a", "a".repeat(33)));
    out.extend(long_urns().into_iter().map(|(text, _)| text));
    // What comes around a URN rather than in it: white space, a byte order mark, nothing.
    let around = [
        "", " ", "\t", "\r\n", "\u{a0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{feff}", "\u{200b}",
    ];
    for space in around {
        out.push(space.to_owned());
        out.push(format!("{space}{space}"));
        for urn in [
            "urn:example:a",
            "urn:ex:a?+r?",
            "urn:ex:a#",
            "urn:ex:a?+",
            "urn:ex:",
            "urn:ex",
        ] {
            out.push(format!("{space}{urn}"));
            out.push(format!("{urn}{space}"));
            out.push(format!("{urn}{space}{space}"));
            out.push(format!("{urn}{space}x"));
        }
    }
    out
}

/// The lengths the storage tests use: around the 2,704-byte btree entry limit, past the old
/// 8 KiB cap, and near the 64 KiB one.
pub const LONG_LENGTHS: [usize; 4] = [2_600, 2_800, 8_000, 60_000];

/// Valid URNs of exactly [`LONG_LENGTHS`] bytes whose NSS is random (incompressible: pglz and
/// TOAST cannot shrink them below the btree limit), each paired with a different spelling of
/// the same URN (upper-case scheme and NID, the other case of every `%XX`, a component added).
pub fn long_urns() -> Vec<(String, String)> {
    const CHARS: &[u8] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/";
    const HEX: &[u8] = b"0123456789abcdefABCDEF";
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        // xorshift64*: deterministic, so a failure reproduces.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    LONG_LENGTHS
        .iter()
        .map(|&len| {
            let mut text = String::from("urn:example:x");
            while text.len() < len {
                if next(12) == 0 && text.len() + 3 <= len {
                    text.push('%');
                    text.push(char::from(HEX[next(HEX.len())]));
                    text.push(char::from(HEX[next(HEX.len())]));
                } else {
                    text.push(char::from(CHARS[next(CHARS.len())]));
                }
            }
            let respelled = format!(
                "URN:EXAMPLE:{}#respelled",
                swap_hex_case(&text["urn:example:".len()..])
            );
            (text, respelled)
        })
        .collect()
}

/// `s` with the letters of every `%XX` in the other case.
fn swap_hex_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut hex_left = 0;
    for c in s.chars() {
        if hex_left > 0 {
            hex_left -= 1;
            out.push(if c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            });
        } else {
            hex_left = if c == '%' { 2 } else { 0 };
            out.push(c);
        }
    }
    out
}

/// Characters that break URNs in interesting ways, for the mutations.
const EDITS: &[char] = &[
    ' ', '%', '?', '#', '/', ':', '-', '+', '=', 'é', 'A', 'z', '0', 'X', '\t', '\\', '\'', '"',
    '[', '~', '\u{feff}',
];

/// `n` strings from proptest (deterministic): valid URNs of every shape, respellings of them,
/// valid URNs with one character inserted, replaced or deleted, near-URN text and any text.
pub fn proptest_strings(n: usize) -> Vec<String> {
    let valid = urn_core::strategy::urn().prop_map(|u| u.to_string());
    let respelled = urn_core::strategy::urn()
        .prop_flat_map(|u| urn_core::strategy::equivalent_spellings(&u))
        .prop_map(|u| u.to_string());
    let mutated = (
        urn_core::strategy::urn(),
        any::<prop::sample::Index>(),
        prop::sample::select(EDITS),
        0u8..3,
    )
        .prop_map(|(urn, at, edit, op)| {
            let mut text = urn.to_string();
            // Generated URNs are ASCII, so every index is a character boundary.
            let i = at.index(text.len() + 1);
            match op {
                0 => text.insert(i, edit),
                1 if i < text.len() => text.replace_range(i..=i, edit.encode_utf8(&mut [0; 4])),
                _ if i < text.len() => {
                    text.remove(i);
                }
                _ => text.push(edit),
            }
            text
        });
    let strings = prop_oneof![
        valid,
        respelled,
        mutated,
        "[uU][rR][nN]:[A-Za-z0-9-]{0,34}:[A-Za-z0-9%/?#+=:._~!$&'()*,;@ é-]{0,40}",
        "\\PC{0,40}",
    ];
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| strings.new_tree(&mut runner).unwrap().current())
        .collect()
}
