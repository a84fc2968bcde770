//! The audit: finds the rows of a keyed SQLite table whose stored key is not their URN's key.
//!
//! SQLite has no roles: every connection computes a keyed table's generated key with the key
//! function (`urn_key_v2`, `urn_key_v1`) *it* has registered. This crate's (and the
//! `urn-sqlite-ext` extension's) is the parser's key; a connection without one cannot write
//! the table at all; but a program that registers a key function of its own (Python's
//! `sqlite3.Connection.create_function` allows it), or that edits the file or the schema, can
//! store any key, and then two spellings of one URN can both be stored. The audit reads every
//! row and recomputes each key with urn-core, under the table's key rules.
// The client features' `audit` use the collector; a build without them has only its types.
#![cfg_attr(
    not(any(
        feature = "sqlx-sqlite",
        feature = "diesel-sqlite",
        feature = "rusqlite"
    )),
    allow(dead_code)
)]

use std::collections::HashMap;
use std::fmt;

use urn_core::{KeyRules, Urn};

/// What is wrong with one row (see [`AuditFinding`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditProblem {
    /// The URN column holds no valid URN: the parser's message (or that it is NULL, or not
    /// UTF-8).
    InvalidUrn(String),
    /// The stored key is not the URN's key, which is this.
    WrongKey(String),
    /// The URN's key is the key of the URN in an earlier row (this id): the table holds two
    /// spellings of one URN.
    SameUrnAs(i64),
}

/// A row of a keyed table that a correct key function would not have written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditFinding {
    /// The row's id.
    pub id: i64,
    /// The URN column as stored (lossily decoded if it is not UTF-8).
    pub urn: String,
    /// The key column as stored.
    pub stored_key: Option<String>,
    /// What is wrong.
    pub problem: AuditProblem,
}

impl fmt::Display for AuditFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stored = self.stored_key.as_deref().unwrap_or("NULL");
        match &self.problem {
            AuditProblem::InvalidUrn(why) => {
                write!(f, "row {}: {:?} is not a URN ({why})", self.id, self.urn)
            }
            AuditProblem::WrongKey(key) => write!(
                f,
                "row {}: stored key {stored:?} is not the key of {:?}, which is {key:?}",
                self.id, self.urn
            ),
            AuditProblem::SameUrnAs(id) => write!(
                f,
                "row {}: {:?} is the URN of row {id} in another spelling",
                self.id, self.urn
            ),
        }
    }
}

/// One row of the audit's query: the id, and the URN and key columns as bytes.
pub(crate) type AuditRow = (i64, Option<Vec<u8>>, Option<Vec<u8>>);

/// Collects [`AuditFinding`]s over the rows of a keyed table, fed in id order (what
/// [`audit_sql`](super::audit_sql) selects). The client modules' `audit` run the query and feed
/// it.
#[derive(Debug)]
pub(crate) struct Audit {
    /// The table's key rules.
    rules: KeyRules,
    /// Each URN key seen, with the first row that has it.
    first_with_key: HashMap<String, i64>,
    findings: Vec<AuditFinding>,
}

impl Audit {
    /// An audit of a table keyed under `rules`, with no rows yet.
    pub(crate) fn new(rules: KeyRules) -> Self {
        Audit {
            rules,
            first_with_key: HashMap::new(),
            findings: Vec::new(),
        }
    }

    /// The findings of every row of the audit's query (`id, urn, key`, the texts as bytes),
    /// read one at a time: what the blocking clients' `audit` runs.
    #[cfg_attr(
        not(any(feature = "diesel-sqlite", feature = "rusqlite")),
        allow(dead_code)
    )]
    pub(crate) fn of_rows<E>(
        rules: KeyRules,
        rows: impl IntoIterator<Item = Result<AuditRow, E>>,
    ) -> Result<Vec<AuditFinding>, E> {
        let mut audit = Audit::new(rules);
        for row in rows {
            let (id, urn, key) = row?;
            audit.row(id, urn.as_deref(), key.as_deref());
        }
        Ok(audit.finish())
    }

    /// Checks one row: its id, URN column and key column, as bytes (any storage class reads as
    /// bytes with `CAST(… AS BLOB)`; NULL as `None`).
    pub(crate) fn row(&mut self, id: i64, urn: Option<&[u8]>, stored_key: Option<&[u8]>) {
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let stored_key = stored_key.map(text);
        let finding = |urn: String, problem| AuditFinding {
            id,
            urn,
            stored_key: stored_key.clone(),
            problem,
        };
        let Some(urn) = urn else {
            let problem = AuditProblem::InvalidUrn("NULL".into());
            self.findings.push(finding(String::new(), problem));
            return;
        };
        let parsed = std::str::from_utf8(urn)
            .map_err(|e| format!("not UTF-8: {e}"))
            .and_then(|s| Urn::parse(s).map_err(|e| e.to_string()));
        let key = match parsed {
            Ok(parsed) => parsed.key_with(self.rules).into_string(),
            Err(why) => {
                self.findings
                    .push(finding(text(urn), AuditProblem::InvalidUrn(why)));
                return;
            }
        };
        if stored_key.as_deref() != Some(key.as_str()) {
            self.findings
                .push(finding(text(urn), AuditProblem::WrongKey(key.clone())));
        }
        match self.first_with_key.get(&key) {
            Some(&first) => self
                .findings
                .push(finding(text(urn), AuditProblem::SameUrnAs(first))),
            None => {
                self.first_with_key.insert(key, id);
            }
        }
    }

    /// The findings, in row order (a row may have two: a wrong key and a URN stored before).
    pub(crate) fn finish(self) -> Vec<AuditFinding> {
        self.findings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_keys_and_second_spellings_are_found() {
        let mut audit = Audit::new(KeyRules::CURRENT);
        audit.row(
            1,
            Some(b"urn:isbn:0395363411"),
            Some(b"urn:isbn:0395363411"),
        );
        // Written by a connection whose urn_key_v1 only lower-cased:
        audit.row(
            2,
            Some(b"URN:ISBN:0-395-36341-1"),
            Some(b"urn:isbn:0-395-36341-1"),
        );
        audit.row(3, None, None);
        let findings = audit.finish();
        let problems: Vec<&AuditProblem> = findings.iter().map(|f| &f.problem).collect();
        assert_eq!(
            problems,
            [
                &AuditProblem::WrongKey("urn:isbn:0395363411".into()),
                &AuditProblem::SameUrnAs(1),
                &AuditProblem::InvalidUrn("NULL".into()),
            ]
        );
        assert_eq!(
            findings[0].to_string(),
            "row 2: stored key \"urn:isbn:0-395-36341-1\" is not the key of \"URN:ISBN:0-395-36341-1\", which is \"urn:isbn:0395363411\""
        );
    }
}
