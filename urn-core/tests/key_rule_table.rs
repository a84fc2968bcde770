//! The key-rule table ([`KnownNamespace::key_rule`], the data urn-sql renders its SQL key
//! functions from) says exactly what urn-core's hand-written key functions do, in every
//! version of the rules: an interpreter of the table, written here from the table's
//! documentation alone, gives `Urn::key_with` on the shared vectors and on generated URNs of
//! every namespace, mutated to break the namespace's syntax in every way the rules look at
//! (letter case, hyphens, separators, check characters, length).
#![cfg(feature = "proptest")]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use regex::Regex;
use urn_core::{CheckDigits, DigitForm, Hyphens, KeyRule, KeyRules, KnownNamespace, Urn, strategy};

/// Whether `nss` matches `when` as the table documents it: `^(?:when)`.
fn matches(when: &str, nss: &str) -> bool {
    Regex::new(&format!("^(?:{when})")).unwrap().is_match(nss)
}

/// The NSS of the key by the table's `rule`, before the generic `%XX` pass; `None` when the
/// rule does not apply (the NSS is not valid for the namespace).
fn by_rule(rule: KeyRule, nss: &str) -> Option<String> {
    match rule {
        KeyRule::Lower { when } => matches(when, nss).then(|| nss.to_ascii_lowercase()),
        KeyRule::LowerBefore { sep, when } => {
            let (head, tail) = nss.split_once(sep)?;
            matches(when, nss).then(|| format!("{}{sep}{tail}", head.to_ascii_lowercase()))
        }
        KeyRule::CheckDigits(digits) => by_check_digits(digits, nss),
        KeyRule::Mod97 { when } => {
            let number: String = nss
                .chars()
                .map(|c| c.to_digit(36).unwrap_or(0).to_string())
                .collect();
            let remainder = number
                .bytes()
                .fold(0u32, |r, d| (r * 10 + u32::from(d - b'0')) % 97);
            (matches(when, nss) && remainder == 1).then(|| nss.to_ascii_uppercase())
        }
        KeyRule::Separated {
            when,
            separators,
            separator,
        } => {
            if !matches(when, nss) {
                return None;
            }
            let at = nss.find(|c| separators.contains(c))?;
            let lower = nss.to_ascii_lowercase();
            let encoded = format!("%{:02x}", u32::from(separator));
            Some(format!(
                "{}{separator}{}",
                &lower[..at],
                lower[at + 1..].replace(&encoded, &separator.to_string())
            ))
        }
        _ => panic!("a rule this interpreter does not know: {rule:?}"),
    }
}

fn by_check_digits(rule: CheckDigits, nss: &str) -> Option<String> {
    let hyphens = nss.bytes().filter(|&b| b == b'-').count();
    let hyphens_ok = match rule.hyphens {
        Hyphens::Between { max } => {
            !nss.starts_with('-') && !nss.ends_with('-') && !nss.contains("--") && hyphens <= max
        }
        Hyphens::OptionalAfter { after } => nss.match_indices('-').all(|(at, _)| at == after),
        _ => panic!("hyphens this interpreter does not know: {:?}", rule.hyphens),
    };
    let chars: String = nss
        .chars()
        .filter(|&c| c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if !hyphens_ok || !rule.forms.iter().any(|form| fits(form, &chars)) {
        return None;
    }
    Some(match rule.key_hyphen_after {
        Some(at) => format!("{}-{}", &chars[..at], &chars[at..]),
        None => chars,
    })
}

fn fits(form: &DigitForm, chars: &str) -> bool {
    let n = form.len();
    let values: Option<Vec<u32>> = chars
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            '0'..='9' => c.to_digit(10),
            'X' if form.x_last && i + 1 == n => Some(10),
            _ => None,
        })
        .collect();
    let Some(values) = values else {
        return false;
    };
    values.len() == n
        && (form.prefixes.is_empty() || form.prefixes.iter().any(|p| chars.starts_with(p)))
        && values
            .iter()
            .zip(form.weights)
            .map(|(v, w)| v * w)
            .sum::<u32>()
            % form.modulus
            == 0
}

/// RFC 8141 section 3's part: the hex digits of every `%XX` upper case.
fn upper_hex(nss: &str) -> String {
    let mut out = String::new();
    let mut hex = 0;
    for c in nss.chars() {
        if hex > 0 {
            out.push(c.to_ascii_uppercase());
            hex -= 1;
        } else {
            hex = if c == '%' { 2 } else { 0 };
            out.push(c);
        }
    }
    out
}

/// The key of `urn` under `rules` as the table says it is.
fn table_key(urn: &Urn, rules: KeyRules) -> String {
    let nid = urn.nid().to_ascii_lowercase();
    let rule = KnownNamespace::from_nid(&nid).and_then(|ns| ns.key_rule(rules));
    let nss = rule
        .and_then(|rule| by_rule(rule, urn.nss()))
        .unwrap_or_else(|| urn.nss().to_owned());
    format!("urn:{nid}:{}", upper_hex(&nss))
}

fn assert_table_key(text: &str) {
    if let Ok(urn) = Urn::parse(text) {
        for &rules in KeyRules::VERSIONS {
            assert_eq!(
                table_key(&urn, rules),
                urn.key_with(rules).as_str(),
                "{text} ({rules})"
            );
        }
    }
}

#[test]
fn the_table_gives_the_key_of_every_vector() {
    let mut checked = 0;
    for file in [
        "rfc-examples.jsonl",
        "peer-vectors.jsonl",
        "rfc-equivalence.jsonl",
        "peer-equivalence.jsonl",
    ] {
        let path = format!("{}/../testdata/{file}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for field in ["input", "a", "b"] {
                if let Some(text) = v[field].as_str() {
                    assert_table_key(text);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 700, "{checked}");
}

/// Each known namespace with its examples' shapes, in every case: what the rules look at.
#[test]
fn the_table_gives_the_key_of_every_example_in_any_case() {
    for &ns in KnownNamespace::ALL {
        for example in ns.examples() {
            for text in [
                example.to_string(),
                example.to_ascii_uppercase(),
                example.to_ascii_lowercase(),
            ] {
                assert_table_key(&text);
            }
        }
    }
}

/// One edit of an NSS: what the namespace rules look at.
#[derive(Clone, Debug)]
enum Edit {
    Upper(usize),
    Lower(usize),
    Insert(usize, char),
    Remove(usize),
    Replace(usize, char),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let c = prop::sample::select(vec![
        '-', ':', 'x', 'X', '0', '7', '9', '/', 'A', 'g', '%', ';', '_', '.', 'F', '2',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Edit::Upper),
        any::<usize>().prop_map(Edit::Lower),
        (any::<usize>(), c.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Remove),
        (any::<usize>(), c).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(nss: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = nss.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match *edit {
            Edit::Upper(i) => {
                if let Some(c) = chars.get_mut(i % len) {
                    *c = c.to_ascii_uppercase();
                }
            }
            Edit::Lower(i) => {
                if let Some(c) = chars.get_mut(i % len) {
                    *c = c.to_ascii_lowercase();
                }
            }
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Remove(i) => {
                if !chars.is_empty() {
                    chars.remove(i % len);
                }
            }
            Edit::Replace(i, c) => {
                if let Some(slot) = chars.get_mut(i % len) {
                    *slot = c;
                }
            }
            Edit::Truncate(i) => chars.truncate(i % len),
        }
    }
    chars.into_iter().collect()
}

fn namespace_urn() -> impl Strategy<Value = (KnownNamespace, Urn)> {
    prop::sample::select(KnownNamespace::ALL.to_vec())
        .prop_flat_map(|ns| strategy::urn_in(ns).prop_map(move |urn| (ns, urn)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Generated URNs of every namespace, with up to four edits of the NSS, and the NID in
    /// either case.
    #[test]
    fn the_table_gives_the_key_of_every_respelling(
        (ns, urn) in namespace_urn(),
        edits in prop::collection::vec(edit(), 0..4),
        upper_nid in any::<bool>(),
    ) {
        let nss = apply(urn.nss(), &edits);
        let nid = if upper_nid { ns.nid().to_ascii_uppercase() } else { ns.nid().to_owned() };
        assert_table_key(&format!("urn:{nid}:{nss}"));
        assert_table_key(&format!("urn:{nid}:{nss}?=q#f"));
    }
}
