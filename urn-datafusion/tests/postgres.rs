//! The functions against urn-sql's portable SQL on PostgreSQL: the same inputs (vectors, the
//! generated corpus, proptest strings) give the same keys, NIDs, NSSs, messages and verdicts.
//! Runs when `DATABASE_URL` names a server; under `CI=true` a missing one fails.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    unreachable_pub,
    dead_code
)]

#[path = "../../urn-sql/tests/support/corpus.rs"]
mod corpus;

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, AsArray, StringArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field};
use datafusion::config::ConfigOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};

/// urn-sql's PostgreSQL objects (the migration every install runs).
const UP: &str =
    include_str!("../../urn-sql/migrations/postgres/2026-11-23-000000_urn_types/up.sql");

/// The functions compared, lenient forms: the SQL side guards the strict ones with
/// `urn_valid`, as the DataFusion `try_` forms give NULL where the SQL ones would fail.
const COMPARED: [(&str, &str); 7] = [
    ("urn_valid", "urn_valid(x)::text"),
    ("urn_check", "urn_check(x)"),
    (
        "try_urn_key_v2",
        "CASE WHEN urn_valid(x) THEN urn_key_v2(x) END",
    ),
    (
        "try_urn_key_v1",
        "CASE WHEN urn_valid(x) THEN urn_key_v1(x) END",
    ),
    (
        "try_urn_rfc8141_key",
        "CASE WHEN urn_valid(x) THEN urn_rfc8141_key(x) END",
    ),
    ("try_urn_nid", "CASE WHEN urn_valid(x) THEN urn_nid(x) END"),
    ("try_urn_nss", "CASE WHEN urn_valid(x) THEN urn_nss(x) END"),
];

fn database_url() -> Option<String> {
    match std::env::var("DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => Some(url),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("DATABASE_URL must name a PostgreSQL server under CI=true")
        }
        _ => {
            eprintln!("DATABASE_URL not set: the PostgreSQL comparison is skipped");
            None
        }
    }
}

#[tokio::test]
async fn the_functions_agree_with_the_portable_sql() {
    let Some(url) = database_url() else {
        return;
    };
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let schema = format!("urn_datafusion_{}", std::process::id());
    client
        .batch_execute(&format!(
            "CREATE SCHEMA {schema}; SET search_path = {schema}; BEGIN; {UP} COMMIT;"
        ))
        .await
        .unwrap();
    let mut inputs = corpus::vector_inputs();
    inputs.extend(corpus::generated_inputs());
    inputs.extend(corpus::proptest_strings(20_000));
    inputs.retain(|s| !s.contains('\0'));
    let columns: Vec<&str> = COMPARED.iter().map(|(_, sql)| *sql).collect();
    let rows = client
        .query(
            &format!(
                "SELECT {} FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
                columns.join(", ")
            ),
            &[&inputs],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), inputs.len());
    let array: ArrayRef = Arc::new(StringArray::from(inputs.clone()));
    let functions = urn_datafusion::all();
    let mut differences = Vec::new();
    for (c, (name, _)) in COMPARED.iter().enumerate() {
        let udf = functions.iter().find(|f| f.name() == *name).unwrap();
        let return_type = udf.return_type(&[DataType::Utf8]).unwrap();
        let ColumnarValue::Array(result) = udf
            .invoke_with_args(ScalarFunctionArgs {
                args: vec![ColumnarValue::Array(array.clone())],
                arg_fields: vec![Arc::new(Field::new("x", DataType::Utf8, true))],
                number_rows: inputs.len(),
                return_field: Arc::new(Field::new(*name, return_type, true)),
                config_options: Arc::new(ConfigOptions::default()),
            })
            .unwrap()
        else {
            panic!("a scalar for an array");
        };
        let result = cast(&result, &DataType::Utf8).unwrap();
        for ((input, row), datafusion) in inputs.iter().zip(&rows).zip(result.as_string::<i32>()) {
            let sql: Option<String> = row.get(c);
            if sql.as_deref() != datafusion {
                differences.push(format!(
                    "{name}({input:?}): SQL {sql:?}, DataFusion {datafusion:?}"
                ));
            }
        }
    }
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
    assert!(
        differences.is_empty(),
        "{} differences, the first: {:#?}",
        differences.len(),
        &differences[..differences.len().min(10)]
    );
}
