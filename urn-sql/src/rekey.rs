//! Re-keying a live table: moving a keyed table from one version of the key rules to the next
//! (`KeyRules::V1` → `KeyRules::V2`), on every database, as steps that each database module
//! writes ([`Step`]) and that either run as a script in the database's command-line client
//! ([`Dialect::rekey_sql`](crate::Dialect::rekey_sql), `urn sql --rekey v2`) or one by one
//! from Rust (`urn_sql::sqlx::rekey`). The steps are the same either way.
//!
//! What every database's steps guarantee (the guide `docs/rekey.md` says how each does it):
//! - **Collisions first.** Rows that are distinct under the table's rules but one URN under
//!   the new ones are listed (their ids, their URNs, the new key) before anything changes, and
//!   the re-key stops there unless the caller chose [`OnCollision::KeepFirst`].
//! - **Nothing lost.** Until the switch the table keeps refusing two rows equivalent under the
//!   old rules; from the switch on, under the new ones. A row `KeepFirst` takes out of the
//!   table is kept, whole, in a side table, and only if it still collides when it is moved
//!   and no other table's foreign key references it (a foreign key's `ON DELETE` would delete
//!   or change the rows that do): otherwise nothing moves, and the re-key says which
//!   constraint stopped it. Every count it reports is counted by the database.
//! - **Nobody else's code.** It runs as the table's owner (PostgreSQL: a superuser or a
//!   member of the owner's role takes that role for the run), makes every object new or uses
//!   one only if it is its own, and binds only functions of trusted owners.
//! - **Bounded.** Every lock wait has a bound and fails naming the table; the backfill walks
//!   the rows in id order, linear in rows whatever the ids.
//! - **Stopped at any step, the table works as before and the re-key can run again.**

use std::fmt;
use std::future::Future;

use urn_core::KeyRules;

use crate::table::UrnTable;

/// What a re-key does with rows that become one under the new rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OnCollision {
    /// List them and stop before changing anything (the default): merge or delete them, then
    /// run the re-key again.
    #[default]
    Refuse,
    /// Keep the first row (lowest id) of each group in the table and move the others, whole,
    /// into a side table `<table>_<key>_<rules>_collisions` with the id of the row they
    /// collided with. A row that no longer collides when it would move stays; a row another
    /// table's foreign key references stops the move, whatever the key's `ON DELETE` (nothing
    /// moves, and the error names the constraint).
    KeepFirst,
}

impl std::str::FromStr for OnCollision {
    type Err = String;
    /// `refuse` or `keep-first`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "refuse" => Ok(OnCollision::Refuse),
            "keep-first" => Ok(OnCollision::KeepFirst),
            _ => Err(format!(
                "unknown collision policy \"{}\": expected refuse or keep-first",
                s.escape_debug()
            )),
        }
    }
}

/// A re-key that cannot be written: not to the next version of the rules, or a table layout
/// that the re-key does not move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RekeyError(String);

impl fmt::Display for RekeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RekeyError {}

impl RekeyError {
    /// The error `message` says.
    pub(crate) fn new(message: String) -> Self {
        RekeyError(message)
    }
}

/// Rows of a table that are distinct under its rules but one URN under the new ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// Their key under the new rules.
    pub key: String,
    /// Their ids, ascending (the first is the one [`OnCollision::KeepFirst`] keeps).
    pub ids: Vec<i64>,
    /// Their URNs as stored, in the order of `ids`.
    pub urns: Vec<String>,
}

/// What a re-key did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rekeyed {
    /// The collisions it found before changing anything (empty when there were none, or when
    /// the table was re-keyed already).
    pub collisions: Vec<Collision>,
    /// How many rows [`OnCollision::KeepFirst`] moved to the side table, as the database
    /// counted them (a row that no longer collided when it was to move stays, so this may be
    /// fewer than the collisions listed).
    pub moved: u64,
    /// Whether the table is keyed by the new rules now (false: it stopped at the collisions,
    /// and nothing changed). Read from the table itself: false for a table that is not there.
    pub switched: bool,
}

/// What the steps every database has say they do (the scripts' comments).
pub(crate) mod what {
    /// Collecting the collisions.
    pub(crate) const COLLECT: &str =
        "the collisions: rows distinct under the old rules, one URN under the new ones";
    /// Listing them.
    pub(crate) const LIST: &str = "the collisions, listed (new key, ids, URNs)";
    /// Refusing them.
    pub(crate) const REFUSE: &str = "refused: the collisions stop the re-key";
    /// Moving them.
    pub(crate) const KEEP_FIRST: &str =
        "keep-first: the later rows of each collision move, whole, to the side table";
    /// How many rows moved.
    pub(crate) const MOVED: &str = "keep-first: how many rows moved, as counted";
    /// Whether the table is re-keyed.
    pub(crate) const DONE: &str = "done: whether the table is keyed by the new rules";
}

/// The message of a re-key that refuses collisions in `table` (as the script names it).
pub(crate) fn refusal(table: &str, from: KeyRules, to: KeyRules) -> String {
    format!(
        "urn-sql: rows of {table} are distinct URNs under the {from} rules but one under the \
         {to} rules (listed above): nothing was changed; merge or delete them, or run the re-key \
         with --on-collision keep-first"
    )
}

/// The message of a re-key whose keep-first would move rows that other tables reference
/// (`constraints`: the foreign keys that reference them).
pub(crate) fn referenced(table: &str, constraints: &str) -> String {
    format!(
        "urn-sql: rows of {table} that keep-first would move are referenced by {constraints}: \
         nothing was moved or changed; point those rows at the row kept, or delete them, and \
         run the re-key again"
    )
}

/// The message of a side table that the re-key did not make (`why`).
pub(crate) fn foreign_side_table(side: &str, why: &str) -> String {
    format!(
        "urn-sql: {side}, where keep-first moves rows, {why}: nothing was moved or changed; \
         rename or drop it (the re-key makes its own)"
    )
}

/// One step of a re-key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// What it does, for the script's comments.
    pub(crate) what: &'static str,
    /// A query of one boolean: the step runs only when it is true (psql's `\if`); `None`:
    /// always (the step checks what it needs itself).
    pub(crate) when: Option<String>,
    /// The statement (one; a database's compound or `DO` statement counts as one).
    pub(crate) sql: String,
    /// What the step's rows are, when it returns rows to show.
    pub(crate) rows: Rows,
    /// For a statement whose failure the database reports without naming the table (an index
    /// built concurrently that waited out its lock bound): what it does, naming the table, for
    /// the message that wraps its error.
    pub(crate) failure: Option<String>,
}

/// A re-key as the helpers run it ([`Dialect::rekey_plan`](crate::Dialect)): its steps, what it
/// sets on the connection, and each step as it is sent (its condition apart, if the database
/// sends one).
pub(crate) struct Plan {
    pub(crate) steps: Vec<Step>,
    pub(crate) restore: Restore,
    pub(crate) statement: fn(&Step) -> (Option<String>, String),
}

/// What a re-key sets on its connection for the run, and how the helpers put it back after,
/// whatever happened: a query of one boolean read first (`None`: nothing to read), and the
/// statements that restore the connection given its answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Restore {
    pub(crate) read: Option<&'static str>,
    pub(crate) statements: fn(bool) -> &'static [&'static str],
}

/// What a step's rows are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rows {
    /// None (or nothing to read).
    None,
    /// The collisions: the new key, the ids and the URNs, each list joined by spaces.
    Collisions,
    /// One integer: how many rows keep-first moved.
    Moved,
    /// The foreign keys of other tables whose rows would lose the row they reference (the
    /// referencing table and columns, and those rows): any row stops the re-key (SQLite's;
    /// the other databases refuse in the step itself).
    References,
    /// One boolean: whether the table is keyed by the new rules.
    Switched,
}

impl Step {
    /// A step that always runs and returns no rows.
    pub(crate) fn always(what: &'static str, sql: String) -> Self {
        Step {
            what,
            when: None,
            sql,
            rows: Rows::None,
            failure: None,
        }
    }

    /// A step that runs when `when` is true.
    pub(crate) fn when(what: &'static str, when: String, sql: String) -> Self {
        Step {
            what,
            when: Some(when),
            sql,
            rows: Rows::None,
            failure: None,
        }
    }

    /// The same step, returning `rows`.
    pub(crate) fn returning(mut self, rows: Rows) -> Self {
        self.rows = rows;
        self
    }

    /// The same step, its errors wrapped in a message saying `failure`.
    pub(crate) fn failing_as(mut self, failure: String) -> Self {
        self.failure = Some(failure);
        self
    }
}

/// Checks that `table` (keyed by its [`UrnTable::key_rules`]) can move to `to`: the version
/// right after its own.
pub(crate) fn check(table: &UrnTable, to: KeyRules) -> Result<KeyRules, RekeyError> {
    let from = table.key_rules();
    let next = KeyRules::VERSIONS
        .iter()
        .position(|&v| v == from)
        .and_then(|at| KeyRules::VERSIONS.get(at + 1));
    match next {
        Some(&next) if next == to => Ok(from),
        _ => Err(RekeyError::new(format!(
            "a table keyed by the {from} rules moves to the next version ({}), not to {to}",
            next.map_or("none: it is keyed by the current rules", |n| n.name())
        ))),
    }
}

/// The error for a partitioned table (PostgreSQL's hash-partitioned layout): its partition
/// key is the key, so every row would move between partitions.
pub(crate) fn partitioned(table: &UrnTable) -> RekeyError {
    RekeyError::new(format!(
        "{} is hash-partitioned on its key: re-keying moves every row to another partition, \
         which is no online change; make a new table keyed by the new rules and copy the rows \
         (docs/rekey.md)",
        table.postgres_name()
    ))
}

/// A connection that runs a re-key's steps (the sqlx helpers').
#[cfg_attr(
    not(any(
        feature = "sqlx-postgres",
        feature = "sqlx-sqlite",
        feature = "sqlx-mariadb"
    )),
    allow(dead_code)
)]
pub(crate) trait Runner {
    /// The client's error.
    type Error;
    /// Runs `sql`, which returns no rows to read.
    fn execute(&mut self, sql: &str) -> impl Future<Output = Result<(), Self::Error>>;
    /// Runs `sql`, which returns rows of three texts.
    fn texts(
        &mut self,
        sql: &str,
    ) -> impl Future<Output = Result<Vec<(String, String, String)>, Self::Error>>;
    /// Runs `sql`, which returns one boolean (or integer).
    fn flag(&mut self, sql: &str) -> impl Future<Output = Result<bool, Self::Error>>;
    /// Runs `sql`, which returns one integer.
    fn count(&mut self, sql: &str) -> impl Future<Output = Result<u64, Self::Error>>;
    /// The client's error for a re-key that cannot be written.
    fn error(error: RekeyError) -> Self::Error;
}

/// Runs a re-key of `table` on one connection (its [`Plan`], or the error of one that cannot be
/// written): the steps [`Dialect::rekey_sql`] prints, each as the script runs it (PostgreSQL: its
/// condition first), the collisions read from their listing. It stops after the listing when
/// `list_only`, or when there are collisions and `on_collision` refuses them (`switched` false:
/// nothing changed). A table re-keyed already is left as it is. On an error, or a stop, the
/// connection's transaction, if one is open (SQLite's), is rolled back; whatever happened, what the
/// re-key set on the connection is put back ([`Restore`]).
///
/// [`Dialect::rekey_sql`]: crate::Dialect::rekey_sql
#[cfg_attr(
    not(any(
        feature = "sqlx-postgres",
        feature = "sqlx-sqlite",
        feature = "sqlx-mariadb"
    )),
    allow(dead_code)
)]
pub(crate) async fn run<R: Runner>(
    runner: &mut R,
    plan: Result<Plan, RekeyError>,
    table: &UrnTable,
    on_collision: OnCollision,
    list_only: bool,
) -> Result<Rekeyed, R::Error>
where
    R::Error: fmt::Display,
{
    let plan = plan.map_err(R::error)?;
    let saved = match plan.restore.read {
        Some(read) => runner.flag(read).await?,
        None => false,
    };
    let name = table.qualified_name().replace('"', "");
    let result = run_steps(runner, &plan, &name, on_collision, list_only).await;
    let mut restored = Ok(());
    for statement in (plan.restore.statements)(saved) {
        if let Err(e) = runner.execute(statement).await {
            restored = Err(e);
        }
    }
    let rekeyed = result?;
    restored.map(|()| rekeyed)
}

/// [`run`]'s steps.
async fn run_steps<R: Runner>(
    runner: &mut R,
    plan: &Plan,
    table: &str,
    on_collision: OnCollision,
    list_only: bool,
) -> Result<Rekeyed, R::Error>
where
    R::Error: fmt::Display,
{
    let mut rekeyed = Rekeyed::default();
    // Re-keyed already: nothing to run (SQLite's guard would refuse the table).
    let steps = &plan.steps;
    if let Some(done) = steps.iter().find(|step| step.rows == Rows::Switched) {
        let (_, sql) = (plan.statement)(done);
        if runner.flag(&sql).await? {
            rekeyed.switched = true;
            return Ok(rekeyed);
        }
    }
    for step in steps {
        let (when, sql) = (plan.statement)(step);
        if let Some(when) = when
            && !runner.flag(&when).await?
        {
            continue;
        }
        let result = match step.rows {
            Rows::None => runner.execute(&sql).await,
            Rows::Collisions => runner.texts(&sql).await.map(|rows| {
                rekeyed.collisions = rows
                    .into_iter()
                    .map(|(key, ids, urns)| collision(key, &ids, &urns))
                    .collect();
            }),
            Rows::Moved => runner.count(&sql).await.map(|moved| {
                rekeyed.moved = moved;
            }),
            Rows::References => match runner.texts(&sql).await {
                Ok(rows) if rows.is_empty() => Ok(()),
                Ok(rows) => {
                    let listed: Vec<String> = rows
                        .into_iter()
                        .map(|(reference, rows, _)| format!("{reference} (rows {rows})"))
                        .collect();
                    Err(R::error(RekeyError::new(referenced(
                        table,
                        &listed.join(", "),
                    ))))
                }
                Err(e) => Err(e),
            },
            Rows::Switched => runner.flag(&sql).await.map(|switched| {
                rekeyed.switched = switched;
            }),
        };
        // (Nothing to roll back outside a transaction: PostgreSQL and MariaDB only warn.)
        if let Err(e) = result {
            let _ = runner.execute("ROLLBACK").await;
            return Err(match &step.failure {
                Some(failure) => R::error(RekeyError::new(format!("urn-sql: {failure}: {e}"))),
                None => e,
            });
        }
        let refused = on_collision == OnCollision::Refuse && !rekeyed.collisions.is_empty();
        if step.rows == Rows::Collisions && (list_only || refused) {
            let _ = runner.execute("ROLLBACK").await;
            return Ok(rekeyed);
        }
    }
    Ok(rekeyed)
}

/// Reads the collisions a step of [`Rows::Collisions`] returned.
pub(crate) fn collision(key: String, ids: &str, urns: &str) -> Collision {
    Collision {
        key,
        ids: ids
            .split_whitespace()
            .filter_map(|id| id.parse().ok())
            .collect(),
        urns: urns.split_whitespace().map(str::to_owned).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_next_version() {
        let v1 = UrnTable::new("t")
            .unwrap()
            .with_key_rules(KeyRules::V1)
            .unwrap();
        assert_eq!(check(&v1, KeyRules::V2), Ok(KeyRules::V1));
        assert!(check(&v1, KeyRules::V1).is_err());
        let v2 = UrnTable::new("t").unwrap();
        let err = check(&v2, KeyRules::V2).unwrap_err().to_string();
        assert!(err.contains("keyed by the current rules"), "{err}");
        assert_eq!("keep-first".parse(), Ok(OnCollision::KeepFirst));
        assert!("first".parse::<OnCollision>().is_err());
        let c = collision("urn:x:a".into(), "3 9", "urn:x:a urn:X:a");
        assert_eq!((c.ids, c.urns.len()), (vec![3, 9], 2));
    }
}
