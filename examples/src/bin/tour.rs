//! A guided tour of the urn workspace: parse, explain, compare and key URNs.
//!
//! Run it with `cargo run -p urn-examples --bin tour`. It needs nothing installed.

use std::collections::HashSet;

use urn_core::{KeyRules, Syntax, Urn, UrnRef, decode_nss, encode_nss};

fn show(label: &str, value: impl std::fmt::Display) {
    println!("  {label:<16} {value}");
}

fn opt(value: Option<&str>) -> String {
    value.map_or_else(|| "(none)".to_owned(), |v| format!("{v:?}"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("1. Parsing keeps the text verbatim and finds every component in one pass");
    let urn: Urn = "URN:Example:weather?+CCResolve:cc=uk?=op=map&lat=39.56#Top".parse()?;
    show("text", &urn);
    show("nid", urn.nid());
    show("nss", urn.nss());
    show("r-component", opt(urn.r_component()));
    show("q-component", opt(urn.q_component()));
    show("f-component", opt(urn.f_component()));
    show("assigned name", urn.assigned_name());
    show("key", urn.key());
    show("nid status", urn.nid_status());

    println!("\n2. Bad input gets the rule and the byte");
    for bad in [
        "urn:example:a b",
        "urn:example:a?b",
        "urn:x:short-nid",
        "urn:trailing-:hyphen",
        "urn:example:/rooted",
        "urn:example:50%",
        "urn:example:a?+",
    ] {
        match Urn::parse(bad) {
            Ok(_) => println!("  {bad:<24} unexpectedly valid"),
            Err(err) => println!("  {bad:<24} {err}"),
        }
    }
    let legacy = Urn::parse_with("urn:trailing-:hyphen", Syntax::Rfc2141)?;
    println!(
        "  RFC 2141 accepts {legacy} (NID {:?}): the legacy syntax is opt-in",
        legacy.nid()
    );

    println!("\n3. Equivalence: the canonical key decides");
    let spellings = [
        "urn:example:a123,z456",
        "URN:EXAMPLE:a123,z456?=lang=en",
        "urn:example:a123,z456#frag",
        "urn:example:a123%2cz456",
        "urn:example:A123,z456",
        "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "URN:ISBN:0-395-36341-1",
        "urn:isbn:0395363411",
    ];
    let mut seen = HashSet::new();
    for s in spellings {
        let urn = UrnRef::parse(s)?;
        let fresh = seen.insert(urn);
        println!(
            "  {s:<48} key {:<46} {}",
            urn.key(),
            if fresh { "new" } else { "duplicate" }
        );
    }
    let isbn = UrnRef::parse("URN:ISBN:0-395-36341-1")?;
    show(
        "rfc8141 key",
        format!(
            "{} (section 3 alone; {} with namespace rules {:?})",
            isbn.rfc8141_key(),
            isbn.key_with(KeyRules::V1),
            KeyRules::V1
        ),
    );

    println!("\n4. Namespace checks go beyond syntax");
    for s in [
        "urn:isbn:0-395-36341-2",
        "urn:oid:1.3.6.01",
        "urn:ietf:rfc:2141",
    ] {
        let urn = UrnRef::parse(s)?;
        match urn.validate_namespace() {
            Ok(()) => println!("  {s:<28} valid for its namespace"),
            Err(err) => println!("  {s:<28} {err}"),
        }
    }

    println!("\n5. Building from native names is lossless");
    let nss = encode_nss("Report 2024/Q1 (draft) – ü+ß");
    let built = Urn::builder("example", &nss).f_component("p2").build()?;
    show("built", &built);
    show("decoded nss", decode_nss(built.nss())?);
    let from_uuid = Urn::from(uuid::Uuid::nil());
    show("from uuid", &from_uuid);
    Ok(())
}
