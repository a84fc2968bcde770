//! Every shared test vector (RFC examples, peer-library vectors, equivalence pairs) against
//! the parser, the components and the keys. Any disagreement fails, listing all of them.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::Value;
use urn_core::{ErrorKind, Syntax, Urn, UrnKey};

fn lines(name: &str) -> Vec<Value> {
    let path = format!("{}/../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn s(v: &Value) -> Option<&str> {
    v.as_str()
}

struct Report(Vec<String>);

impl Report {
    fn check<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, input: &str, got: T, want: T) {
        if got != want {
            self.0
                .push(format!("{what} for {input:?}: got {got:?}, want {want:?}"));
        }
    }
    fn finish(self, total: usize) {
        assert!(
            self.0.is_empty(),
            "{} disagreements in {total} vectors:\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

fn check_vector(report: &mut Report, v: &Value, key_field: &str) {
    let input = v["input"].as_str().unwrap();
    let want8141 = v["rfc8141_valid"].as_bool().unwrap();
    let want2141 = v["rfc2141_valid"].as_bool().unwrap();
    let got8141 = Urn::parse(input);
    let got2141 = Urn::parse_with(input, Syntax::Rfc2141);
    report.check("RFC 8141 verdict", input, got8141.is_ok(), want8141);
    report.check("RFC 2141 verdict", input, got2141.is_ok(), want2141);
    if let Ok(urn) = &got8141 {
        report.check("nid", input, Some(urn.nid()), s(&v["nid"]));
        report.check("nss", input, Some(urn.nss()), s(&v["nss"]));
        report.check("r", input, urn.r_component(), s(&v["r_component"]));
        report.check("q", input, urn.q_component(), s(&v["q_component"]));
        report.check("f", input, urn.f_component(), s(&v["f_component"]));
        report.check(
            "rfc8141 key",
            input,
            Some(urn.rfc8141_key().as_str()),
            s(&v[key_field]),
        );
        report.check("display", input, urn.to_string().as_str(), input);
        // The key is itself a canonical key, and parsing it back gives an equal URN.
        let key = urn.key();
        report.check(
            "key reparses",
            input,
            UrnKey::parse(key.as_str()).map(|k| k.into_string()),
            Ok(key.as_str().to_owned()),
        );
        report.check("key urn equals urn", input, &Urn::from(key.clone()), urn);
    } else if let Ok(urn) = &got2141 {
        // Only RFC 2141-valid: the vector's decomposition is the RFC 2141 one.
        report.check("2141 nid", input, Some(urn.nid()), s(&v["nid"]));
        report.check("2141 nss", input, Some(urn.nss()), s(&v["nss"]));
    }
    if let (Ok(a), Ok(b)) = (&got8141, &got2141) {
        report.check(
            "2141 and 8141 agree",
            input,
            (a.nid(), a.nss()),
            (b.nid(), b.nss()),
        );
    }
}

#[test]
fn rfc_examples() {
    let vectors = lines("rfc-examples.jsonl");
    assert_eq!(vectors.len(), 133);
    let mut report = Report(vec![]);
    for v in &vectors {
        check_vector(&mut report, v, "key");
    }
    report.finish(vectors.len());
}

#[test]
fn peer_vectors() {
    let vectors = lines("peer-vectors.jsonl");
    assert_eq!(vectors.len(), 426);
    let mut report = Report(vec![]);
    for v in &vectors {
        check_vector(&mut report, v, "equivalence_key");
    }
    report.finish(vectors.len());
}

/// Compares two inputs under the rule level the pair belongs to.
fn equivalent(report: &mut Report, a: &str, b: &str, level: &str, want: bool) {
    let pair = format!("{a} | {b} ({level})");
    match level {
        // RFC 8141 section 3: the generic key decides; `==` (which adds namespace rules) may
        // only merge, never split.
        "rfc8141" => {
            let (x, y) = (Urn::parse(a).unwrap(), Urn::parse(b).unwrap());
            report.check(
                "rfc8141 key equality",
                &pair,
                x.rfc8141_key() == y.rfc8141_key(),
                want,
            );
            if want {
                report.check("== keeps generic equivalence", &pair, x == y, true);
            }
            if x == y && !want {
                report.check(
                    "== merges only through a namespace rule",
                    &pair,
                    x.namespace().is_some(),
                    true,
                );
            }
        }
        "rfc2141" => {
            let x = Urn::parse_with(a, Syntax::Rfc2141).unwrap();
            let y = Urn::parse_with(b, Syntax::Rfc2141).unwrap();
            report.check(
                "rfc2141 equality",
                &pair,
                x.rfc8141_key() == y.rfc8141_key(),
                want,
            );
        }
        // Namespace-aware answers: `==` (KeyRules::V1) must give them.
        "namespace" => {
            let (x, y) = (Urn::parse(a).unwrap(), Urn::parse(b).unwrap());
            report.check("namespace equality", &pair, x == y, want);
        }
        // The drafts' answers agree with RFC 8141 wherever both inputs are RFC 8141 URNs;
        // the inputs that are not use a bare '?' query, which RFC 8141 makes a syntax error.
        "draft-03" | "draft-09" => match (Urn::parse(a), Urn::parse(b)) {
            (Ok(x), Ok(y)) => report.check("draft equality", &pair, x == y, want),
            (x, y) => {
                for err in [x.err(), y.err()].into_iter().flatten() {
                    report.check(
                        "draft input error",
                        &pair,
                        err.kind(),
                        ErrorKind::BareQuestionMark,
                    );
                }
            }
        },
        other => panic!("unknown level {other}"),
    }
}

#[test]
fn rfc_equivalence_pairs() {
    let pairs = lines("rfc-equivalence.jsonl");
    assert_eq!(pairs.len(), 215);
    let mut report = Report(vec![]);
    for p in &pairs {
        equivalent(
            &mut report,
            p["a"].as_str().unwrap(),
            p["b"].as_str().unwrap(),
            p["level"].as_str().unwrap(),
            p["equivalent"].as_bool().unwrap(),
        );
    }
    report.finish(pairs.len());
}

#[test]
fn peer_equivalence_pairs() {
    let pairs = lines("peer-equivalence.jsonl");
    assert_eq!(pairs.len(), 61);
    let mut report = Report(vec![]);
    for p in &pairs {
        let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
        equivalent(
            &mut report,
            a,
            b,
            "rfc8141",
            p["equivalent"].as_bool().unwrap(),
        );
        let x = Urn::parse(a).unwrap();
        let y = Urn::parse(b).unwrap();
        report.check("key_a", a, Some(x.rfc8141_key().as_str()), s(&p["key_a"]));
        report.check("key_b", b, Some(y.rfc8141_key().as_str()), s(&p["key_b"]));
    }
    report.finish(pairs.len());
}

/// Every input of the shared vectors, and of the equivalence pairs.
fn all_inputs() -> Vec<String> {
    let mut inputs = Vec::new();
    for file in ["rfc-examples.jsonl", "peer-vectors.jsonl"] {
        inputs.extend(
            lines(file)
                .iter()
                .filter_map(|v| s(&v["input"]).map(str::to_owned)),
        );
    }
    for file in ["rfc-equivalence.jsonl", "peer-equivalence.jsonl"] {
        for p in lines(file) {
            inputs.extend(
                ["a", "b"]
                    .iter()
                    .filter_map(|k| s(&p[*k]).map(str::to_owned)),
            );
        }
    }
    inputs
}

/// The RFC 3553 fix (a name on both sides of every `:` of `urn:ietf:params:`) changes which URNs
/// are valid ietf URNs, never a `KeyRules::V1` key: a `params:` name, valid or not, keeps the
/// generic RFC 8141 key, over the whole corpus and the spellings the fix rejects.
#[test]
fn ietf_params_validation_leaves_every_v1_key_unchanged() {
    let mut inputs = all_inputs();
    for nss in [
        "params:dns:",
        "params:dns::soa",
        "PARAMS::x",
        "Params:xml:ns:Yang:1",
        "params:scim:schemas:core:2.0:User",
    ] {
        for head in ["urn:ietf:", "URN:IETF:", "urn:Ietf:"] {
            for tail in ["", "?+r", "?=q", "#f"] {
                inputs.push(format!("{head}{nss}{tail}"));
            }
        }
    }
    let mut params = 0;
    for input in &inputs {
        let Ok(urn) = Urn::parse(input) else { continue };
        let is_params = urn.nid().eq_ignore_ascii_case("ietf")
            && urn
                .nss()
                .get(..7)
                .is_some_and(|h| h.eq_ignore_ascii_case("params:"));
        if is_params {
            params += 1;
            assert_eq!(urn.key(), urn.rfc8141_key(), "{input}");
        }
    }
    assert!(params >= 60, "{params}");
    for invalid in ["urn:ietf:params:dns:", "urn:ietf:params:dns::soa"] {
        let urn = Urn::parse(invalid).unwrap();
        let err = urn.validate_namespace().unwrap_err();
        assert_eq!(err.offset(), 20, "{invalid}");
        assert_eq!(urn.key().as_str(), invalid);
    }
}
