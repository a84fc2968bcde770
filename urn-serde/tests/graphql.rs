//! The async-graphql scalars (feature `async-graphql`) in a real schema: valid, invalid, null
//! and list inputs in queries, mutations and variables, and the SDL the schema prints.
#![cfg(feature = "async-graphql")]
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use async_graphql::{EmptySubscription, Object, SDLExportOptions, Schema, Variables};
use serde_json::json;
use urn_serde::{IsbnUrn, Urn, UrnKey};

urn_serde::namespace!(pub Gpp, "3gpp");

struct Query;

#[Object]
impl Query {
    /// The URN as written.
    async fn echo(&self, urn: Urn) -> Urn {
        urn
    }

    /// The key of an optional URN.
    async fn key(&self, urn: Option<Urn>) -> Option<UrnKey<'static>> {
        urn.map(|u| u.key().into_owned())
    }

    /// The keys of a list of URNs.
    async fn keys(&self, urns: Vec<Urn>) -> Vec<UrnKey<'static>> {
        urns.iter().map(|u| u.key().into_owned()).collect()
    }

    /// The NSS of an ISBN URN.
    async fn isbn(&self, urn: IsbnUrn) -> String {
        urn.nss().to_owned()
    }

    /// A URN of a namespace whose NID begins with a digit.
    async fn gpp(&self, urn: urn_serde::NsUrn<Gpp>) -> urn_serde::NsUrn<Gpp> {
        urn
    }

    /// A key given as input, back.
    async fn same_key(&self, key: UrnKey<'static>) -> UrnKey<'static> {
        key
    }
}

struct Mutation;

#[Object]
impl Mutation {
    /// Stores nothing; answers the typed URN it was given.
    async fn add_book(&self, urn: IsbnUrn) -> IsbnUrn {
        urn
    }
}

fn schema() -> Schema<Query, Mutation, EmptySubscription> {
    Schema::new(Query, Mutation, EmptySubscription)
}

async fn run(query: &str, variables: serde_json::Value) -> (serde_json::Value, Vec<String>) {
    let request = async_graphql::Request::new(query).variables(Variables::from_json(variables));
    let response = schema().execute(request).await;
    let data = response.data.into_json().unwrap();
    let errors = response.errors.iter().map(|e| e.message.clone()).collect();
    (data, errors)
}

#[tokio::test]
async fn valid_inputs_come_back_as_written_and_keyed() {
    let (data, errors) = run(
        r#"{ echo(urn: "URN:Example:a%2c?=q#f") key(urn: "URN:ISBN:0-395-36341-1")
             none: key(urn: null) keys(urns: ["urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:example:x"])
             isbn(urn: "urn:isbn:0-395-36341-1") sameKey(key: "urn:isbn:0395363411") }"#,
        json!({}),
    )
    .await;
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        data,
        json!({
            "echo": "URN:Example:a%2c?=q#f",
            "key": "urn:isbn:0395363411",
            "none": null,
            "keys": ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:example:x"],
            "isbn": "0-395-36341-1",
            "sameKey": "urn:isbn:0395363411",
        })
    );
}

#[tokio::test]
async fn variables_and_mutations_run_the_parser() {
    let (data, errors) = run(
        "mutation($u: IsbnUrn!) { addBook(urn: $u) }",
        json!({ "u": "URN:ISBN:0-395-36341-1" }),
    )
    .await;
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(data, json!({ "addBook": "URN:ISBN:0-395-36341-1" }));

    let (_, errors) = run(
        "mutation($u: IsbnUrn!) { addBook(urn: $u) }",
        json!({ "u": "urn:isbn:0-395-36341-2" }),
    )
    .await;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("the check digit does not match (byte 21)"),
        "{errors:?}"
    );

    let (_, errors) = run(
        "query($l: [Urn!]!) { keys(urns: $l) }",
        json!({ "l": ["urn:example:a", "urn:example:a b"] }),
    )
    .await;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("' ' at byte 13 is not allowed in the NSS"),
        "{errors:?}"
    );
}

#[tokio::test]
async fn invalid_literals_name_the_rule_and_byte() {
    for (query, expected) in [
        (
            r#"{ echo(urn: "urn:example:a b") }"#,
            r#"Failed to parse "Urn": invalid URN: ' ' at byte 13 is not allowed in the NSS"#,
        ),
        (
            r#"{ echo(urn: "not a urn") }"#,
            r#"Failed to parse "Urn": invalid URN: expected 'urn:' at byte 0"#,
        ),
        (
            r#"{ echo(urn: 5) }"#,
            r#"Expected input type "Urn", found 5."#,
        ),
        (
            r#"{ echo(urn: null) }"#,
            r#"Invalid value for argument "urn", expected type "Urn""#,
        ),
        (
            r#"{ isbn(urn: "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6") }"#,
            r#"Failed to parse "IsbnUrn": expected a URN in namespace "isbn", found "uuid""#,
        ),
        (
            r#"{ sameKey(key: "URN:ISBN:0395363411") }"#,
            r#"Failed to parse "UrnKey": invalid URN: not a canonical URN key: byte 0 differs from the key"#,
        ),
        (
            r#"{ keys(urns: ["urn:example:a", "urn:ex:%4"]) }"#,
            r#"Failed to parse "Urn": invalid URN: '%' at byte 7 in the NSS must be followed by two hex digits (occurred while parsing "[Urn!]")"#,
        ),
    ] {
        let (_, errors) = run(query, json!({})).await;
        assert_eq!(errors, [expected], "{query}");
    }
}

#[test]
fn the_sdl_names_and_describes_the_scalars() {
    let sdl = schema().sdl_with_options(SDLExportOptions::new().include_specified_by());
    for scalar in ["Urn", "UrnKey", "IsbnUrn"] {
        assert!(
            sdl.contains(&format!(
                "scalar {scalar} @specifiedBy(url: \"https://www.rfc-editor.org/rfc/rfc8141\")"
            )),
            "{scalar}:\n{sdl}"
        );
    }
    assert!(sdl.contains("A URN (RFC 8141), kept as written."), "{sdl}");
    assert!(sdl.contains("The canonical key of a URN"), "{sdl}");
    assert!(
        sdl.contains("A URN of one namespace, kept as written"),
        "{sdl}"
    );
    // GraphQL names cannot begin with a digit.
    assert!(sdl.contains("gpp(urn: _3gppUrn!): _3gppUrn!"), "{sdl}");
    assert!(sdl.contains("addBook(urn: IsbnUrn!): IsbnUrn!"), "{sdl}");
    assert!(sdl.contains("keys(urns: [Urn!]!): [UrnKey!]!"), "{sdl}");
}
