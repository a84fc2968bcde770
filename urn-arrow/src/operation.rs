//! The one table of operations ([`operations`]): each as every engine names it, what it
//! computes per value ([`Op`]) and what it returns ([`output_type`](crate::output_type)).
//! urn-datafusion's UDFs, urnkit's Arrow and Polars functions and its Spark functions are made
//! from these rows; every one of them runs [`compute`](crate::compute), so each name means one
//! thing in every engine.

use urn_core::KeyRules;

/// What a function computes from each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Op {
    /// The canonical key under these rules (`Urn::key_with`).
    Key(KeyRules),
    /// The RFC 8141 section 3 key alone (`Urn::rfc8141_key`).
    Rfc8141Key,
    /// The NID as written.
    Nid,
    /// The NSS as written (percent-encoding kept).
    Nss,
    /// Whether the value is a URN (RFC 8141): a boolean.
    IsValid,
    /// Null for a URN, otherwise the parser's message (`ParseError`'s `Display`).
    Message,
    /// Null for a URN, otherwise a struct of the error's kind (`ErrorKind::name`) and byte
    /// offset ([`problem_fields`](crate::problem_fields)).
    Problem,
    /// The URNs in the value's text (`urn_core::find`), a list of structs
    /// ([`found_fields`](crate::found_fields): byte span, text, key under these rules, the
    /// link's span or null).
    Find(KeyRules),
    /// What `urn_core::repair` makes of the value: a struct
    /// ([`repair_fields`](crate::repair_fields)) of the URN (or null), the list of fixes and
    /// the parser's error (or null).
    Repair,
}

impl Op {
    /// Whether the value must be a URN for there to be an answer (the ops that
    /// [`OnInvalid::Error`](crate::OnInvalid::Error) makes fail).
    #[must_use]
    pub const fn needs_urn(self) -> bool {
        matches!(self, Op::Key(_) | Op::Rfc8141Key | Op::Nid | Op::Nss)
    }
}

/// An operation: its name in the column APIs (urnkit, Polars, Spark: `key_v1`), its SQL name
/// (DataFusion, Spark SQL and urn-sql's databases: `urn_key_v1`), what it computes and what it
/// says it returns.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operation {
    name: String,
    sql_name: String,
    op: Op,
    doc: String,
}

impl Operation {
    fn new(
        name: impl Into<String>,
        sql_name: impl Into<String>,
        op: Op,
        doc: impl Into<String>,
    ) -> Self {
        Operation {
            name: name.into(),
            sql_name: sql_name.into(),
            op,
            doc: doc.into(),
        }
    }

    /// The name in the column APIs (`key`, `key_v1`, `check`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The SQL function's name (`urn_key`, `urn_key_v1`, `urn_check`): the form that fails on
    /// a value that is not a URN where the operation needs one.
    #[must_use]
    pub fn sql_name(&self) -> &str {
        &self.sql_name
    }

    /// The SQL name of the form that gives NULL instead of failing (`try_urn_key_v1`), for an
    /// operation that needs a URN ([`Op::needs_urn`]); the others never fail.
    #[must_use]
    pub fn try_sql_name(&self) -> Option<String> {
        self.op
            .needs_urn()
            .then(|| format!("try_{}", self.sql_name))
    }

    /// What it computes from each value.
    #[must_use]
    pub fn op(&self) -> Op {
        self.op
    }

    /// What it returns, in words (the engines' docstrings), for a valid URN where
    /// [`Op::needs_urn`]: each engine says what it does with an invalid one.
    #[must_use]
    pub fn doc(&self) -> &str {
        &self.doc
    }
}

/// Every operation, in the order the engines list them: the key under the current rules
/// (`key`, `urn_key`) and under each version of [`KeyRules::VERSIONS`] (`key_v1`,
/// `urn_key_v1`, …), the RFC 8141 key, the NID and NSS, whether a value is a URN, why it is not
/// (`check`: the parser's message; `problem`: its kind and byte), the URNs in a text and what
/// `repair` makes of it.
///
/// ```
/// let names: Vec<String> = urn_arrow::operations().iter().map(|o| o.name().to_owned()).collect();
/// assert_eq!(names, ["key", "key_v1", "key_v2", "rfc8141_key", "nid", "nss", "is_valid", "check", "problem", "find", "repair"]);
/// let v1 = urn_arrow::operation("urn_key_v1").unwrap();
/// assert_eq!((v1.name(), v1.try_sql_name().as_deref()), ("key_v1", Some("try_urn_key_v1")));
/// ```
#[must_use]
pub fn operations() -> Vec<Operation> {
    let current = KeyRules::CURRENT.name().to_ascii_uppercase();
    let mut rows = vec![Operation::new(
        "key",
        "urn_key",
        Op::Key(KeyRules::CURRENT),
        format!("the canonical key (the current rules, {current})"),
    )];
    rows.extend(KeyRules::VERSIONS.iter().filter_map(|&rules| {
        let sql = rules.sql_function()?;
        Some(Operation::new(
            format!("key_{}", rules.name()),
            sql,
            Op::Key(rules),
            format!(
                "the key under the {} rules (a table keyed by them holds it)",
                rules.name().to_ascii_uppercase()
            ),
        ))
    }));
    rows.extend([
        Operation::new(
            "rfc8141_key",
            "urn_rfc8141_key",
            Op::Rfc8141Key,
            "the RFC 8141 section 3 key alone (no namespace rules)",
        ),
        Operation::new("nid", "urn_nid", Op::Nid, "the NID as written"),
        Operation::new(
            "nss",
            "urn_nss",
            Op::Nss,
            "the NSS as written (percent-encoding kept)",
        ),
        Operation::new(
            "is_valid",
            "urn_valid",
            Op::IsValid,
            "whether the value is a URN (RFC 8141)",
        ),
        Operation::new(
            "check",
            "urn_check",
            Op::Message,
            "why the value is not a URN: the parser's message, null for a valid URN",
        ),
        Operation::new(
            "problem",
            "urn_problem",
            Op::Problem,
            "why the value is not a URN: struct{kind: str, offset: i64} (the rule's name and its byte), null for a valid URN",
        ),
        Operation::new(
            "find",
            "urn_find",
            Op::Find(KeyRules::CURRENT),
            "the URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes",
        ),
        Operation::new(
            "repair",
            "urn_repair",
            Op::Repair,
            "what repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}",
        ),
    ]);
    rows
}

/// The operation of this name in the column APIs or in SQL (`key_v1`, `urn_key_v1`,
/// `try_urn_key_v1`).
#[must_use]
pub fn operation(name: &str) -> Option<Operation> {
    operations().into_iter().find(|o| {
        o.name == name || o.sql_name == name || o.try_sql_name().is_some_and(|t| t == name)
    })
}
