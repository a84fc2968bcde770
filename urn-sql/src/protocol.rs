//! The insert-or-get protocol, written once for every client: the statements a database
//! module plans ([`Plan`]), what a conflict looks like, when to look the row up, how often to
//! try again, and what `inserted` means. A client module only runs one statement
//! ([`Client`]) and reads its row.
//!
//! The protocol is async; the blocking clients (diesel, rusqlite) implement [`Client`] with
//! futures that are ready at once, and [`run_blocking`] drives them without a runtime.
// Each client feature uses part of this module; a build with all of them uses all of it.
#![cfg_attr(
    not(all(
        feature = "sqlx-postgres",
        feature = "sqlx-sqlite",
        feature = "sqlx-mariadb",
        feature = "diesel-postgres",
        feature = "diesel-sqlite",
        feature = "diesel-mariadb",
        feature = "tokio-postgres",
        feature = "rusqlite",
        feature = "sea-orm"
    )),
    allow(dead_code)
)]

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use urn_core::{KeyRules, Urn, UrnKey};

use crate::row::StoredUrn;

/// How many times an insert is tried when the row it conflicted with is gone by the time it
/// is looked up (deleted in between by another session).
const ATTEMPTS: usize = 3;

/// A database module's statements for one table. Every statement returns the row as
/// `id, urn, urn_key, inserted` (see [`StoredUrn`]), so one reader serves them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Inserts the URN (bound first) unless its key is stored. An upsert returns the stored
    /// row either way (its `inserted` says whether this call made it); any other insert
    /// returns the row only if it inserted it.
    pub(crate) insert: String,
    /// Reads the row of a key (bound first): the lookup helpers' query.
    pub(crate) find: String,
    /// `find` as the protocol runs it after a conflict: a read that sees rows other
    /// transactions have just committed (MariaDB: a locking read).
    pub(crate) lookup: String,
    /// What a conflict on the key looks like when it is not "no row".
    pub(crate) conflict: Conflict,
    /// `insert` as two statements, the insert without `RETURNING` and the read of the row it
    /// inserted, for a client that cannot read an insert's rows (diesel on MariaDB); `None`
    /// where no client needs them.
    pub(crate) insert_then_read: Option<(String, String)>,
    /// A statement (no parameters, no rows) to run before the others, which fails when what
    /// they name is not to be trusted (PostgreSQL, for a table whose schemas were not named);
    /// `None`: nothing to check.
    pub(crate) check: Option<String>,
    /// The key rules of the table's key column: the key the statements bind.
    pub(crate) rules: KeyRules,
}

/// What installing urn-sql does on a database (each database module says which).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Install {
    /// Runs this script, which makes the objects and changes nothing when they are there
    /// (PostgreSQL: one simple-protocol message, so one transaction; MariaDB commits DDL as it
    /// goes, and running it again finishes an interrupted install).
    Script(&'static str),
    /// Nothing lives in the database (SQLite): runs the query `probe` makes, which fails where
    /// the connection lacks the key functions, and then refuses with the message `refusal`
    /// makes of that failure (how to register them).
    Probe {
        probe: fn() -> String,
        refusal: fn(&dyn std::fmt::Display) -> String,
    },
}

/// How an insert reports that the key is stored already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// It returns no row (`ON CONFLICT … DO NOTHING`).
    NoRow,
    /// It fails with a duplicate-key error naming this unique index or constraint (MariaDB's
    /// ERROR 1062 `… for key '<name>'`); a duplicate of any other key is the caller's error.
    DuplicateKey {
        /// The index's name, unquoted.
        index: String,
    },
}

impl Conflict {
    /// Whether a duplicate-key error's message is about this table's key: in every language
    /// of MariaDB's messages (`lc_messages`), the last quoted name in it is the key's
    /// (`Duplicate entry '…' for key '<index>'`, `… für Schlüssel '<index>'`, `'…' は索引
    /// '<index>' で重複しています。`). (MySQL 8's `'<table>.<index>'` is not accepted: MySQL is
    /// not supported.)
    pub(crate) fn is_key(&self, message: &str) -> bool {
        match self {
            Conflict::NoRow => false,
            Conflict::DuplicateKey { index } => message
                .rsplit_once('\'')
                .and_then(|(before, _)| before.rsplit_once('\''))
                .is_some_and(|(_, key)| key == index),
        }
    }
}

/// What an insert did.
pub(crate) enum Inserted<E> {
    /// A row came back.
    Row(StoredUrn),
    /// No row: the key is stored ([`Conflict::NoRow`]).
    Nothing,
    /// A duplicate-key error about the table's key ([`Conflict::DuplicateKey`]).
    Duplicate,
    /// Any other error.
    Failed(E),
}

/// One client's way of running the plan's statements on one connection.
pub(crate) trait Client {
    /// The client's error.
    type Error;

    /// Runs `plan.insert` with `urn` bound, and says what happened (a duplicate-key error is
    /// [`Inserted::Duplicate`] only when [`Conflict::is_key`] says it is this table's).
    fn insert(&mut self, plan: &Plan, urn: &Urn) -> impl Future<Output = Inserted<Self::Error>>;

    /// Runs `sql` (the plan's `find` or `lookup`) with `key` bound.
    fn find(
        &mut self,
        sql: &str,
        key: &UrnKey<'_>,
    ) -> impl Future<Output = Result<Option<StoredUrn>, Self::Error>>;

    /// Runs `sql`, which binds nothing (the plan's `check`, an install).
    fn execute(&mut self, sql: &str) -> impl Future<Output = Result<(), Self::Error>>;

    /// The client's error for `message` (an install's probe that failed), where the client
    /// can make one; `None` keeps the database's own error.
    fn refused(message: String) -> Option<Self::Error>;

    /// The client's error for a row whose stored key is not the key under the table's rules
    /// (`message` says which); `None` for a client that checks the key column against the
    /// plan's rules while it reads the row (tokio-postgres, which makes errors only of failed
    /// conversions).
    fn key_error(message: String) -> Option<Self::Error>;

    /// [`Client::find`] for the last try: no row is the client's own "no rows" error (sqlx's
    /// `RowNotFound`, diesel's `NotFound`, …).
    fn find_one(
        &mut self,
        sql: &str,
        key: &UrnKey<'_>,
    ) -> impl Future<Output = Result<StoredUrn, Self::Error>>;
}

/// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either way:
/// the insert; on a conflict, the lookup by key; if the conflicting row is gone by then, the
/// insert again, [`ATTEMPTS`] times in all, the last lookup's "no rows" being the client's
/// error. `inserted` is true only in the row an insert returned as its own. The plan's
/// `check`, if any, runs first.
pub(crate) async fn insert_or_get<C: Client>(
    client: &mut C,
    plan: &Plan,
    urn: &Urn,
) -> Result<StoredUrn, C::Error> {
    check(client, plan).await?;
    let key = urn.key_with(plan.rules);
    let mut attempt = 1;
    loop {
        match client.insert(plan, urn).await {
            Inserted::Row(row) => return keyed_alike::<C>(row, &key, plan.rules),
            Inserted::Nothing | Inserted::Duplicate => {}
            Inserted::Failed(e) => return Err(e),
        }
        if attempt == ATTEMPTS {
            return client.find_one(&plan.lookup, &key).await;
        }
        if let Some(row) = client.find(&plan.lookup, &key).await? {
            return Ok(row);
        }
        attempt += 1;
    }
}

/// `row`, which an insert of a URN whose key under `rules` is `key` returned, if its stored
/// key is that key: otherwise the table computes its keys by other rules than the
/// [`UrnTable`](crate::UrnTable) says (a V1 table used as a V2 one), and the caller's error
/// says so (a lookup by that key would miss rows).
fn keyed_alike<C: Client>(
    row: StoredUrn,
    key: &UrnKey<'_>,
    rules: KeyRules,
) -> Result<StoredUrn, C::Error> {
    if row.key == *key {
        return Ok(row);
    }
    let message = format!(
        "the table stored the key {} for {}, whose key under the key rules {rules} is {key}: \
         the table is keyed by other rules (declare them with UrnTable::with_key_rules, or \
         re-key the table: urn sql --rekey)",
        row.key, row.urn
    );
    match C::key_error(message) {
        Some(error) => Err(error),
        None => Ok(row),
    }
}

/// Installs urn-sql's objects, or checks that the connection has what the database needs.
pub(crate) async fn install<C: Client>(client: &mut C, install: Install) -> Result<(), C::Error>
where
    C::Error: std::fmt::Display,
{
    match install {
        Install::Script(sql) => client.execute(sql).await,
        Install::Probe { probe, refusal } => match client.execute(&probe()).await {
            Ok(()) => Ok(()),
            Err(e) => Err(C::refused(refusal(&e)).unwrap_or(e)),
        },
    }
}

/// The row holding `urn` in any equivalent spelling (the plan's `find`, with its `check`
/// first).
pub(crate) async fn find<C: Client>(
    client: &mut C,
    plan: &Plan,
    urn: &Urn,
) -> Result<Option<StoredUrn>, C::Error> {
    check(client, plan).await?;
    client.find(&plan.find, &urn.key_with(plan.rules)).await
}

/// Runs the plan's `check`, if it has one.
async fn check<C: Client>(client: &mut C, plan: &Plan) -> Result<(), C::Error> {
    match &plan.check {
        Some(sql) => client.execute(sql).await,
        None => Ok(()),
    }
}

/// Runs a future of a blocking client, which is ready the first time it is polled, to its end
/// on this thread.
pub(crate) fn run_blocking<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_keys_own_duplicate_counts() {
        let conflict = Conflict::DuplicateKey {
            index: "items_urn_key_unique".into(),
        };
        assert!(conflict.is_key("Duplicate entry '\u{1}' for key 'items_urn_key_unique'"));
        assert!(!conflict.is_key("Duplicate entry 'x' for key 'other.items_urn_key_unique'"));
        for message in [
            "Doppelter Eintrag 'x' für Schlüssel 'items_urn_key_unique'",
            "'x' は索引 'items_urn_key_unique' で重複しています。",
            "重复条目'x'键'items_urn_key_unique'",
        ] {
            assert!(conflict.is_key(message), "{message}");
        }
        assert!(!conflict.is_key("'items_urn_key_unique' は索引 'PRIMARY' で重複しています。"));
        assert!(!conflict.is_key("Duplicate entry 'x' for key 'items_sku_unique'"));
        assert!(!conflict.is_key("Duplicate entry 'items_urn_key_unique' for key 'PRIMARY'"));
        assert!(!Conflict::NoRow.is_key("Duplicate entry 'x' for key 'items_urn_key_unique'"));
    }

    /// A client whose statements answer from a script, to follow the protocol's steps.
    struct Scripted {
        inserts: Vec<Inserted<String>>,
        finds: Vec<Option<StoredUrn>>,
        calls: Vec<&'static str>,
    }

    impl Client for Scripted {
        type Error = String;
        async fn insert(&mut self, _: &Plan, _: &Urn) -> Inserted<String> {
            self.calls.push("insert");
            self.inserts.remove(0)
        }
        async fn find(&mut self, _: &str, _: &UrnKey<'_>) -> Result<Option<StoredUrn>, String> {
            self.calls.push("find");
            Ok(self.finds.remove(0))
        }
        async fn execute(&mut self, _: &str) -> Result<(), String> {
            self.calls.push("check");
            Ok(())
        }
        fn refused(message: String) -> Option<String> {
            Some(message)
        }
        fn key_error(message: String) -> Option<String> {
            Some(message)
        }
        async fn find_one(&mut self, sql: &str, key: &UrnKey<'_>) -> Result<StoredUrn, String> {
            self.find(sql, key)
                .await?
                .ok_or_else(|| "no rows".to_owned())
        }
    }

    fn row(inserted: bool) -> StoredUrn {
        let urn: Urn = "urn:example:a".parse().unwrap_or_else(|e| panic!("{e}"));
        StoredUrn {
            id: 1,
            key: urn.key().into_owned(),
            urn,
            inserted,
        }
    }

    fn plan() -> Plan {
        Plan {
            insert: String::new(),
            find: String::new(),
            lookup: String::new(),
            conflict: Conflict::NoRow,
            insert_then_read: None,
            check: None,
            rules: KeyRules::CURRENT,
        }
    }

    #[test]
    fn conflicts_are_looked_up_and_vanished_rows_retried() {
        let urn: Urn = "urn:example:a".parse().unwrap_or_else(|e| panic!("{e}"));
        let mut client = Scripted {
            inserts: vec![
                Inserted::Nothing,
                Inserted::Duplicate,
                Inserted::Row(row(true)),
            ],
            finds: vec![None, None],
            calls: Vec::new(),
        };
        let got = run_blocking(insert_or_get(&mut client, &plan(), &urn));
        assert_eq!(got, Ok(row(true)));
        assert_eq!(client.calls, ["insert", "find", "insert", "find", "insert"]);
        let mut client = Scripted {
            inserts: vec![Inserted::Nothing, Inserted::Nothing, Inserted::Nothing],
            finds: vec![None, None, None],
            calls: Vec::new(),
        };
        let got = run_blocking(insert_or_get(&mut client, &plan(), &urn));
        assert_eq!(got, Err("no rows".to_owned()));
        let mut client = Scripted {
            inserts: vec![Inserted::Failed("boom".into())],
            finds: vec![],
            calls: Vec::new(),
        };
        let got = run_blocking(insert_or_get(&mut client, &plan(), &urn));
        assert_eq!(got, Err("boom".to_owned()));
        let mut client = Scripted {
            inserts: vec![Inserted::Duplicate],
            finds: vec![Some(row(false))],
            calls: Vec::new(),
        };
        let got = run_blocking(insert_or_get(&mut client, &plan(), &urn));
        assert_eq!(got, Ok(row(false)));
    }
}
