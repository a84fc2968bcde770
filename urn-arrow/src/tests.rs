//! Every op over every string layout against urn-core, value by value.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::sync::Arc;

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, StringViewArray};
use proptest::prelude::*;
use urn_core::{KeyRules, Urn};

use super::*;

/// Every op.
const OPS: [Op; 11] = [
    Op::Key(KeyRules::V1),
    Op::Key(KeyRules::Rfc8141),
    Op::Rfc8141Key,
    Op::Nid,
    Op::Nss,
    Op::IsValid,
    Op::Message,
    Op::Problem,
    Op::Find(KeyRules::V2),
    Op::Find(KeyRules::V1),
    Op::Repair,
];

/// The URNs urn-core finds in `value`, as the kernel's row is written.
fn found(value: &str, rules: KeyRules) -> String {
    urn_core::find(value)
        .map(|f| {
            let link = f
                .link()
                .map_or("-".to_owned(), |l| format!("{}..{}", l.start, l.end));
            format!(
                "{}..{} {} {} {link}",
                f.start(),
                f.end(),
                f.as_str(),
                f.urn().key_with(rules)
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// What urn-core's repair makes of `value`, as the kernel's row is written.
fn repaired(value: &str) -> String {
    let r = urn_core::repair(value);
    let fixes: Vec<String> = r
        .fixes()
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {:?} {:?}",
                f.kind.name(),
                f.start,
                f.end,
                f.before,
                f.after
            )
        })
        .collect();
    let error = r.error().map_or("-".to_owned(), |e| {
        format!("{} {}", e.kind().name(), e.offset())
    });
    format!(
        "{} [{}] {error}",
        r.urn().map_or("-", |u| u.as_str()),
        fixes.join(", ")
    )
}

/// What urn-core says of one value for `op`, as the kernel writes it: text, a flag, a kind
/// and offset, or nothing.
fn expected(op: Op, value: &str) -> Option<String> {
    match op {
        Op::Find(rules) => return Some(found(value, rules)),
        Op::Repair => return Some(repaired(value)),
        _ => {}
    }
    let parsed = Urn::parse(value);
    match (op, parsed) {
        (Op::IsValid, p) => Some(p.is_ok().to_string()),
        (Op::Message, Err(e)) => Some(e.to_string()),
        (Op::Problem, Err(e)) => Some(format!("{} {}", e.kind().name(), e.offset())),
        (Op::Message | Op::Problem, Ok(_)) | (_, Err(_)) => None,
        (Op::Key(rules), Ok(u)) => Some(u.key_with(rules).into_string()),
        (Op::Rfc8141Key, Ok(u)) => Some(u.rfc8141_key().into_string()),
        (Op::Nid, Ok(u)) => Some(u.nid().to_owned()),
        (Op::Nss, Ok(u)) => Some(u.nss().to_owned()),
        (Op::Find(_) | Op::Repair, _) => unreachable!(),
    }
}

/// Row `i` of a result, written as [`expected`] writes it.
fn row(result: &ArrayRef, i: usize) -> Option<String> {
    if result.is_null(i) {
        return None;
    }
    let int = |a: &ArrayRef, i: usize| a.as_primitive::<arrow_array::types::Int64Type>().value(i);
    let text = |a: &ArrayRef, i: usize| a.as_string::<i32>().value(i).to_owned();
    Some(match result.data_type() {
        DataType::Boolean => result.as_boolean().value(i).to_string(),
        DataType::List(_) => {
            let hits = result.as_list::<i32>().value(i);
            let s = hits.as_struct();
            (0..s.len())
                .map(|k| {
                    let c = s.columns();
                    let link = if c[4].is_null(k) {
                        "-".to_owned()
                    } else {
                        format!("{}..{}", int(&c[4], k), int(&c[5], k))
                    };
                    format!(
                        "{}..{} {} {} {link}",
                        int(&c[0], k),
                        int(&c[1], k),
                        text(&c[2], k),
                        text(&c[3], k)
                    )
                })
                .collect::<Vec<_>>()
                .join(" | ")
        }
        DataType::Struct(fields) if fields.len() == 3 => {
            let s = result.as_struct();
            let c = s.columns();
            let urn = if c[0].is_null(i) {
                "-".to_owned()
            } else {
                text(&c[0], i)
            };
            let fixes = c[1].as_list::<i32>().value(i);
            let f = fixes.as_struct().columns().to_vec();
            let fixes: Vec<String> = (0..fixes.len())
                .map(|k| {
                    format!(
                        "{} {} {} {:?} {:?}",
                        text(&f[0], k),
                        int(&f[1], k),
                        int(&f[2], k),
                        text(&f[3], k),
                        text(&f[4], k)
                    )
                })
                .collect();
            let error = if c[2].is_null(i) {
                "-".to_owned()
            } else {
                let e = c[2].as_struct();
                format!("{} {}", text(e.column(0), i), int(e.column(1), i))
            };
            format!("{urn} [{}] {error}", fixes.join(", "))
        }
        DataType::Struct(_) => {
            let s = result.as_struct();
            format!(
                "{} {}",
                s.column(0).as_string::<i32>().value(i),
                s.column(1)
                    .as_primitive::<arrow_array::types::Int64Type>()
                    .value(i)
            )
        }
        DataType::Utf8 => result.as_string::<i32>().value(i).to_owned(),
        DataType::LargeUtf8 => result.as_string::<i64>().value(i).to_owned(),
        DataType::Utf8View => result.as_string_view().value(i).to_owned(),
        DataType::Dictionary(_, _) => {
            let d = result.as_dictionary::<Int32Type>();
            let key = d.keys().value(i) as usize;
            row(d.values(), key)?
        }
        other => panic!("{other}"),
    })
}

/// The values as every layout.
fn layouts(values: &[Option<&str>]) -> Vec<ArrayRef> {
    let mut dictionary = StringDictionaryBuilder::<Int32Type>::new();
    for v in values {
        dictionary.append_option(*v);
    }
    vec![
        Arc::new(StringArray::from(values.to_vec())),
        Arc::new(LargeStringArray::from(values.to_vec())),
        Arc::new(StringViewArray::from(values.to_vec())),
        Arc::new(dictionary.finish()),
    ]
}

/// Each op over each layout gives urn-core's answer row by row, and fails under
/// [`OnInvalid::Error`] exactly when some value it needs a URN for is not one.
fn agrees(values: &[Option<&str>]) -> Result<(), TestCaseError> {
    for array in layouts(values) {
        for op in OPS {
            let result = compute(op, OnInvalid::Null, array.as_ref()).unwrap();
            prop_assert_eq!(result.len(), values.len());
            prop_assert_eq!(
                result.data_type().clone(),
                output_type(op, array.data_type()).unwrap()
            );
            for (i, value) in values.iter().enumerate() {
                let want = value.and_then(|v| expected(op, v));
                prop_assert_eq!(row(&result, i), want, "{:?} {:?}", op, value);
            }
            let strict = compute(op, OnInvalid::Error, array.as_ref());
            let bad = values
                .iter()
                .flatten()
                .find(|v| op.needs_urn() && Urn::parse(v).is_err());
            match (bad, strict) {
                (None, Ok(_)) => {}
                (Some(v), Err(Error::Invalid { value, error })) => {
                    prop_assert_eq!(&value, v);
                    prop_assert_eq!(Some(error), Urn::parse(v).err());
                }
                (bad, got) => prop_assert!(false, "{:?} {:?}: {:?}", op, bad, got),
            }
        }
    }
    Ok(())
}

#[test]
fn every_op_over_every_layout_is_urn_cores() {
    agrees(&[
        Some("URN:ISBN:0-395-36341-1"),
        Some("urn:example:a%2cb?+r?=q#f"),
        None,
        Some("urn:example:a b"),
        Some(" urn:example:a"),
        Some("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"),
        Some("urn:example:a%2cb?+r?=q#f"),
        Some(""),
        Some(&"urn:example:long".repeat(100)),
        Some("see https://nbn-resolving.org/urn:nbn:de:x-1 and (urn:example:b)."),
        Some(" isbn:0\u{2013}395\u{2013}36341\u{2013}1"),
        Some("urn:example:a?b urn:ex:c"),
    ])
    .unwrap();
    agrees(&[]).unwrap();
    agrees(&[None, None]).unwrap();
}

#[test]
fn other_types_are_refused() {
    let ints: ArrayRef = Arc::new(arrow_array::Int32Array::from(vec![1]));
    assert!(matches!(
        compute(Op::Nid, OnInvalid::Null, ints.as_ref()),
        Err(Error::NotStrings(DataType::Int32))
    ));
    assert!(output_type(Op::Nid, &DataType::Int32).is_err());
}

/// A dictionary value no row uses does not fail a strict call.
#[test]
fn unused_dictionary_values_do_not_fail() {
    let keys = arrow_array::Int32Array::from(vec![Some(0), None]);
    let values: ArrayRef = Arc::new(StringArray::from(vec!["urn:example:a", "not a urn"]));
    let dictionary = DictionaryArray::try_new(keys, values).unwrap();
    let keyed = compute(Op::Key(KeyRules::V1), OnInvalid::Error, &dictionary).unwrap();
    assert_eq!(row(&keyed, 0).as_deref(), Some("urn:example:a"));
    assert_eq!(row(&keyed, 1), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_urns_and_mutations(
        urns in prop::collection::vec(urn_core::strategy::urn(), 0..8),
        junk in prop::collection::vec("\\PC{0,20}", 0..4),
    ) {
        let texts: Vec<String> = urns.iter().map(|u| u.to_string()).chain(junk).collect();
        let values: Vec<Option<&str>> = texts.iter().map(|t| Some(t.as_str())).collect();
        agrees(&values)?;
    }
}
