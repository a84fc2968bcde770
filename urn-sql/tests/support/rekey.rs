//! The re-key's test scenario, shared by each database's tests: URNs that V2 makes one, the
//! checks of a re-keyed table, the collision scenario, and a writer that writes all along.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use urn_sql::sqlx::{find, insert_or_get, rekey, rekey_collisions};
use urn_sql::{KeyRules, OnCollision, Urn, UrnTable};

/// URNs two by two distinct under V1 and one under V2 (the collisions), and their first
/// spellings' positions: a DOI in two cases and in its two URN forms, an LEI in two cases,
/// a lex name with jurisdiction units, an mpeg name with `_`.
pub const PAIRS: &[(&str, &str)] = &[
    ("urn:doi:10.1000/ABC", "urn:doi:10.1000/abc"),
    (
        "urn:doi:10.1093/nar/gkaa1100",
        "urn:doi:10.1093:NAR%2Fgkaa1100",
    ),
    (
        "urn:lei:7LTWFZYICNSX8D621K86",
        "urn:lei:7ltwfzyicnsx8d621k86",
    ),
    ("urn:lex:ch;glarus:regiere", "urn:lex:CH;Glarus:Regiere"),
    ("urn:mpeg:mpeg_7:schema", "urn:mpeg:MPEG_7:schema"),
];

/// URNs that stay distinct under both rules, `n` of them, of several namespaces.
pub fn distinct(n: usize) -> Vec<Urn> {
    (0..n)
        .map(|i| {
            let text = match i % 5 {
                0 => format!("urn:example:row-{i}"),
                1 => format!("urn:doi:10.{}/Item.{i}", 1000 + i % 7),
                2 => format!("urn:isbn:978-0-{:04}-{:04}-X", i / 10_000, i % 10_000),
                3 => format!("urn:lex:it;roma:legge:{i}"),
                _ => format!("URN:UUID:{:08X}-7DEC-11D0-A765-00A0C91E6BF6", i),
            };
            Urn::parse(&text).unwrap()
        })
        // (An ISBN with a wrong check digit is still a URN: the generic key.)
        .collect()
}

/// The V1 table the tests re-key.
pub fn v1(table: UrnTable) -> UrnTable {
    table.with_key_rules(KeyRules::V1).unwrap()
}

/// What every database must show after a re-key with `KeepFirst`: the kept rows and the
/// moved ones, every stored key the V2 key of its URN, no two rows one URN under V2.
pub fn check_rows(rows: &[(i64, String, String)], expected: usize) {
    assert_eq!(rows.len(), expected);
    let mut keys = HashSet::new();
    for (id, urn, key) in rows {
        let urn = Urn::parse(urn).unwrap();
        assert_eq!(key, urn.key_with(KeyRules::V2).as_str(), "row {id}");
        assert!(keys.insert(key.clone()), "row {id}: {key} twice");
    }
}

/// The scenario every database runs: a V1 table with the pairs and `distinct` rows; the
/// collisions listed, refused (nothing changes), then moved; the table a V2 table after; a
/// second run a no-op. `rows` reads the table; `moved` the side table's ids, URNs and kept ids.
pub async fn collisions_scenario<DB>(
    pool: &sqlx::Pool<DB>,
    table: &UrnTable,
    initial: usize,
    rows: impl AsyncFn() -> Vec<(i64, String, String)>,
    moved: impl AsyncFn() -> Vec<(i64, String, i64)>,
) where
    DB: urn_sql::sqlx::Database,
    for<'a> &'a sqlx::Pool<DB>: sqlx::Acquire<'a, Database = DB>,
{
    let before = rows().await;
    assert_eq!(before.len(), initial);
    let listed = rekey_collisions(pool, table, KeyRules::V2).await.unwrap();
    assert_eq!(listed.len(), PAIRS.len());
    for (collision, (a, b)) in listed.iter().zip(PAIRS) {
        assert_eq!(collision.urns, [*a, *b]);
        assert_eq!(collision.key, Urn::parse(a).unwrap().key().as_str());
    }
    let refused = rekey(pool, table, KeyRules::V2, OnCollision::Refuse)
        .await
        .unwrap();
    assert_eq!(
        (refused.collisions, refused.switched),
        (listed.clone(), false)
    );
    assert_eq!(rows().await, before);
    let again = insert_or_get(pool, table, &"URN:DOI:10.1000/ABC".parse().unwrap())
        .await
        .unwrap();
    assert!(!again.inserted, "the V1 table still takes V1 respellings");
    let done = rekey(pool, table, KeyRules::V2, OnCollision::KeepFirst)
        .await
        .unwrap();
    assert!(done.switched);
    assert_eq!(done.collisions, listed);
    check_rows(&rows().await, initial - PAIRS.len());
    let expected: Vec<(i64, String, i64)> = listed
        .iter()
        .map(|c| (c.ids[1], c.urns[1].clone(), c.ids[0]))
        .collect();
    assert_eq!(moved().await, expected);
    let items = table.clone().with_key_rules(KeyRules::V2).unwrap();
    for (a, b) in PAIRS {
        let row = insert_or_get(pool, &items, &b.parse().unwrap())
            .await
            .unwrap();
        assert!(!row.inserted && row.urn.as_str() == *a, "{b}: {row:?}");
    }
    let fresh = insert_or_get(pool, &items, &"urn:doi:10.5555/NEW".parse().unwrap())
        .await
        .unwrap();
    assert!(fresh.inserted && fresh.key.as_str() == "urn:doi:10.5555/new");
    let found = find(pool, &items, &"urn:doi:10.5555:new".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(found.map(|r| r.id), Some(fresh.id));
    let err = insert_or_get(pool, table, &"urn:doi:10.5555/OTHER".parse().unwrap())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("keyed by other rules"), "{err}");
    check_rows(&rows().await, initial - PAIRS.len() + 2);
    let twice = rekey(pool, table, KeyRules::V2, OnCollision::Refuse)
        .await
        .unwrap();
    assert!(twice.switched && twice.collisions.is_empty());
}

/// The URNs of the collision scenario: `distinct(200)` and the pairs.
pub fn scenario_urns() -> Vec<Urn> {
    let mut urns = distinct(200);
    for (a, b) in PAIRS {
        urns.push(a.parse().unwrap());
        urns.push(b.parse().unwrap());
    }
    urns
}

/// How many rows the online tests re-key (`URN_REKEY_ROWS`; BENCHMARKS.md's figures are for
/// 1,000,000).
pub fn online_rows() -> usize {
    std::env::var("URN_REKEY_ROWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000)
}

/// A writer that, until stopped, writes (each database's test says how: a new URN through the
/// V1 table's insert-or-get, and every third write an initial row's URN respelled and another
/// initial row deleted), timing each write.
pub struct Writer {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    task: tokio::task::JoinHandle<WriterReport>,
}

/// What the writer did.
#[derive(Debug)]
pub struct WriterReport {
    pub inserted: usize,
    pub deleted: usize,
    pub updated: usize,
    /// The longest write.
    pub longest: Duration,
}

impl WriterReport {
    /// The rows a table that held `initial` rows holds after the writer.
    pub fn rows(&self, initial: usize) -> usize {
        initial + self.inserted - self.deleted
    }
}

/// A boxed future of the tests' own.
pub type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The writer's `i`th write on the table named `name` in SQL: a new URN through `insert`
/// (insert-or-get on the V1 table, which must insert it), and every third write row `i + 1`'s
/// URN respelled and row `i + 2` deleted, each by `execute` (the rows it changed).
pub fn standard_write(
    insert: Arc<dyn Fn(Urn) -> Boxed<bool> + Send + Sync>,
    execute: Arc<dyn Fn(String) -> Boxed<usize> + Send + Sync>,
    name: String,
) -> impl Fn(usize) -> Write + Send + 'static {
    move |i| {
        let (insert, execute, name) = (insert.clone(), execute.clone(), name.clone());
        Box::pin(async move {
            let urn: Urn = format!("urn:example:written-{i}").parse().unwrap();
            assert!(insert(urn).await);
            if i % 3 != 0 {
                return (1, 0, 0);
            }
            let updated = execute(format!(
                "UPDATE {name} SET urn = 'URN:EXAMPLE:row-{i}' WHERE id = {}",
                i + 1
            ))
            .await;
            let deleted = execute(format!("DELETE FROM {name} WHERE id = {}", i + 2)).await;
            (1, updated, deleted)
        })
    }
}

/// One write of the writer: the number of rows it inserted, updated and deleted.
pub type Write = Pin<Box<dyn Future<Output = (usize, usize, usize)> + Send>>;

impl Writer {
    /// Starts the writer; `write(i)` does its `i`th write.
    pub fn start(write: impl Fn(usize) -> Write + Send + 'static) -> Writer {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let task = tokio::spawn(async move {
            let mut report = WriterReport {
                inserted: 0,
                deleted: 0,
                updated: 0,
                longest: Duration::ZERO,
            };
            let mut i = 0usize;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                let started = Instant::now();
                let (inserted, updated, deleted) = write(i).await;
                report.inserted += inserted;
                report.updated += updated;
                report.deleted += deleted;
                report.longest = report.longest.max(started.elapsed());
                if started.elapsed() > Duration::from_millis(300)
                    && std::env::var("URN_REKEY_TRACE").is_ok()
                {
                    eprintln!("slow write {i}: {:?}", started.elapsed());
                }
                i += 1;
                tokio::task::yield_now().await;
            }
            report
        });
        Writer { stop, task }
    }

    pub async fn stop(self) -> WriterReport {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.task.await.unwrap()
    }
}
