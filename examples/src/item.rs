//! The catalog's data: what a client sends ([`NewItem`]), what the catalog stores and returns
//! ([`Item`]), and why a request body was refused ([`InvalidItem`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use urn_core::{NsUrn, Urn, UrnKey};
use urn_serde::IsbnUrn;
use utoipa::ToSchema;

/// A new catalog item: any URN names it, `isbn` only takes `urn:isbn:` URNs with a valid check
/// digit, `see_also` lists related URNs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewItem {
    /// The item's name; equivalent spellings name the same item.
    pub urn: Urn,
    /// A human-readable title.
    pub title: String,
    /// The ISBN of the book, if the item is one.
    #[serde(default)]
    pub isbn: Option<IsbnUrn>,
    /// Related resources.
    #[serde(default)]
    pub see_also: Vec<Urn>,
}

/// A stored item, as the catalog returns it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ToSchema)]
pub struct Item {
    /// The row id.
    pub id: i64,
    /// The URN as first stored (later equivalent spellings find this item).
    pub urn: Urn,
    /// The canonical key the catalog deduplicates on.
    pub key: UrnKey<'static>,
    /// A human-readable title.
    pub title: String,
    /// The ISBN of the book, if the item is one.
    pub isbn: Option<IsbnUrn>,
    /// Related resources.
    pub see_also: Vec<Urn>,
}

/// Why a request was refused: the message, the field (`see_also[2]`, say) and the byte
/// offset into that field's value, when the problem is in one URN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ToSchema)]
pub struct InvalidItem {
    /// What is wrong, naming the rule and the byte.
    pub error: String,
    /// The field holding the bad value.
    pub field: Option<String>,
    /// The byte offset of the problem inside that value.
    pub offset: Option<usize>,
    /// Whether the body was not JSON at all (HTTP 400) rather than a JSON value that is not
    /// a valid item (HTTP 422).
    #[serde(skip)]
    #[schema(ignore)]
    pub malformed: bool,
}

impl InvalidItem {
    /// A problem with the request as a whole (no field, no offset).
    pub fn general(error: impl Into<String>) -> Self {
        InvalidItem {
            error: error.into(),
            field: None,
            offset: None,
            malformed: false,
        }
    }

    /// A bad URN in `field`: the parser's message and the byte it points at.
    pub fn in_field(
        field: impl Into<String>,
        error: &dyn std::fmt::Display,
        offset: usize,
    ) -> Self {
        InvalidItem {
            field: Some(field.into()),
            offset: Some(offset),
            ..InvalidItem::general(error.to_string())
        }
    }
}

/// The body's shape, with every URN still a string, so each one can be checked on its own and
/// a bad one reported with its field and byte offset.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    urn: String,
    title: String,
    #[serde(default)]
    isbn: Option<String>,
    #[serde(default)]
    see_also: Vec<String>,
}

impl NewItem {
    /// Reads a JSON request body. Accepts exactly what `serde_json::from_slice::<NewItem>`
    /// accepts, but a bad URN is reported with its field and offset instead of only a
    /// message.
    ///
    /// ```
    /// use urn_examples::item::NewItem;
    /// let err = NewItem::from_json(br#"{"urn": "urn:example:a", "title": "A",
    ///     "see_also": ["urn:ietf:rfc:8141", "urn:example:a b"]}"#).unwrap_err();
    /// assert_eq!(err.field.as_deref(), Some("see_also[1]"));
    /// assert_eq!(err.offset, Some(13));
    /// ```
    pub fn from_json(body: &[u8]) -> Result<NewItem, InvalidItem> {
        let raw: RawItem = serde_json::from_slice(body).map_err(|e| InvalidItem {
            malformed: e.is_syntax() || e.is_eof(),
            ..InvalidItem::general(format!("invalid request body: {e}"))
        })?;
        // The strings are moved into the URNs, not copied.
        let urn =
            Urn::try_from(raw.urn).map_err(|e| InvalidItem::in_field("urn", &e, e.offset()))?;
        let isbn = raw
            .isbn
            .map(NsUrn::try_from)
            .transpose()
            .map_err(|e| InvalidItem::in_field("isbn", &e, e.offset()))?;
        let see_also = raw
            .see_also
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                Urn::try_from(s)
                    .map_err(|e| InvalidItem::in_field(format!("see_also[{i}]"), &e, e.offset()))
            })
            .collect::<Result<_, _>>()?;
        Ok(NewItem {
            urn,
            title: raw.title,
            isbn,
            see_also,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// `from_json` and the serde derive (urn-serde's typed fields) accept the same bodies and
    /// read them the same way.
    #[test]
    fn from_json_agrees_with_the_serde_derive() {
        let bodies: &[&str] = &[
            r#"{"urn": "urn:example:a", "title": "A"}"#,
            r#"{"urn": "URN:ISBN:0-395-36341-1", "title": "B", "isbn": "urn:isbn:0395363411"}"#,
            r#"{"urn": "urn:example:a", "title": "A", "isbn": null, "see_also": []}"#,
            r#"{"urn": "urn:example:a", "title": "A", "see_also": ["urn:ietf:rfc:8141"]}"#,
            r#"{"urn": "urn:example:a b", "title": "A"}"#,
            r#"{"urn": "urn:example:a", "title": "A", "isbn": "urn:uuid:x"}"#,
            r#"{"urn": "urn:example:a", "title": "A", "isbn": "urn:isbn:0-395-36341-2"}"#,
            r#"{"urn": "urn:example:a", "title": "A", "see_also": ["urn:x:y"]}"#,
            r#"{"urn": "urn:example:a", "title": "A", "extra": 1}"#,
            r#"{"urn": "urn:example:a"}"#,
            r#"{"urn": 5, "title": "A"}"#,
            r#"{"urn": "urn:example:a", "title": "A""#,
            "not json",
        ];
        for body in bodies {
            let ours = NewItem::from_json(body.as_bytes());
            let derived = serde_json::from_str::<NewItem>(body);
            match (&ours, &derived) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{body}"),
                (Err(_), Err(_)) => {}
                _ => panic!("disagree on {body}: {ours:?} vs {derived:?}"),
            }
        }
    }

    #[test]
    fn errors_name_the_field_and_byte() {
        let err = NewItem::from_json(br#"{"urn": "urn:example:a%zz", "title": "A"}"#).unwrap_err();
        assert_eq!(
            (err.field.as_deref(), err.offset, err.malformed),
            (Some("urn"), Some(13), false)
        );
        let err = NewItem::from_json(
            br#"{"urn": "urn:example:a", "title": "A", "isbn": "urn:isbn:0-395-36341-2"}"#,
        )
        .unwrap_err();
        assert_eq!(err.field.as_deref(), Some("isbn"));
        assert!(err.error.contains("check digit"), "{}", err.error);
        let err =
            NewItem::from_json(br#"{"urn": "urn:example:a", "title": "A", "isbn": "urn:uuid:x"}"#)
                .unwrap_err();
        assert_eq!((err.field.as_deref(), err.offset), (Some("isbn"), Some(4)));
        let err = NewItem::from_json(b"{").unwrap_err();
        assert!(err.malformed && err.field.is_none());
        let err = NewItem::from_json(br#"{"urn": "urn:example:a"}"#).unwrap_err();
        assert!(!err.malformed && err.error.contains("missing field `title`"));
    }
}
