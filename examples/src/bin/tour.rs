//! A guided tour of the urn workspace: parse, explain, compare and key URNs; an API payload
//! through serde with a typed-namespace field; equivalent spellings deduplicated by an embedded
//! SQLite database; a JSON document validated against the generated JSON Schema.
//!
//! Run it with `cargo run -p urn-examples --bin tour`. It needs nothing installed.

use std::collections::HashSet;

use diesel::{Connection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use urn_core::{KeyRules, Syntax, Urn, UrnRef, decode_nss, encode_nss, urn};
use urn_serde::IsbnUrn;
use urn_sql::{Dialect, UrnTable};

/// An API request: any URN as the id, only `urn:isbn:` in `isbn`.
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
struct NewBook {
    id: Urn,
    isbn: Option<IsbnUrn>,
    see_also: Vec<Urn>,
}

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
    let isbn = urn!("URN:ISBN:0-395-36341-1");
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

    println!("\n6. API payloads: plain strings in JSON, typed namespaces, precise errors");
    let body = r#"{"id": "URN:Example:book-7", "isbn": "urn:ISBN:0-395-36341-1", "see_also": ["urn:ietf:rfc:8141"]}"#;
    let book: NewBook = serde_json::from_str(body)?;
    show(
        "isbn key",
        book.isbn.as_ref().map(|i| i.key()).ok_or("no isbn")?,
    );
    show("back to JSON", serde_json::to_string(&book)?);
    let wrong = r#"{"id": "urn:example:b", "isbn": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "see_also": []}"#;
    show(
        "wrong namespace",
        serde_json::from_str::<NewBook>(wrong)
            .err()
            .ok_or("accepted")?,
    );
    let broken = "{\n  \"id\": \"urn:example:a b\", \"see_also\": []\n}";
    show(
        "bad URN",
        serde_json::from_str::<NewBook>(broken)
            .err()
            .ok_or("accepted")?,
    );

    println!("\n7. Storage: equivalent spellings become one row (embedded SQLite, diesel)");
    urn_sql::sqlite::register_for_all_connections()?;
    let mut db = diesel::SqliteConnection::establish(":memory:")?;
    let table = UrnTable::new("books")?;
    diesel::sql_query(Dialect::Sqlite.create_table_sql(&table)).execute(&mut db)?;
    for text in [
        "urn:isbn:0-395-36341-1",
        "URN:ISBN:0395363411?+resolver",
        "urn:Isbn:0-395-363411#page-4",
        "urn:isbn:978-0-395-36341-6",
    ] {
        let stored = urn_sql::diesel::insert_or_get(&mut db, &table, &text.parse()?)?;
        println!(
            "  {text:<32} row {} ({}), stored as {}",
            stored.id,
            if stored.inserted {
                "inserted"
            } else {
                "already there"
            },
            stored.urn
        );
    }
    let probe = Urn::from(urn!("URN:ISBN:0-395-36341-1"));
    let found = urn_sql::diesel::find(&mut db, &table, &probe)?.ok_or("not found")?;
    show("lookup", format!("{probe} finds row {}", found.id));

    println!("\n8. JSON Schema: the pattern accepts exactly what the parser accepts");
    let schema = serde_json::to_value(schemars::schema_for!(NewBook))?;
    let validator = jsonschema::validator_for(&schema)?;
    for doc in [
        serde_json::json!({"id": "urn:example:ok", "isbn": null, "see_also": []}),
        serde_json::json!({"id": "urn:example:ok", "isbn": "urn:isbn:12", "see_also": ["urn:x:1"]}),
    ] {
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| {
                let message = e.to_string();
                let what = message.split(" does not match").next().unwrap_or_default();
                format!(
                    "{} {what} does not match the schema's URN pattern",
                    e.instance_path()
                )
            })
            .collect();
        if errors.is_empty() {
            println!("  {doc} is valid");
        } else {
            println!("  {doc} is invalid:");
            for e in errors {
                println!("    {e}");
            }
        }
    }
    show(
        "document",
        "urn schema --namespace isbn (or urn_schema::namespace_document)",
    );
    Ok(())
}
