//! Keyed loads against `text UNIQUE`, on every database, for several builds of urn-sql in one
//! run (#54). Run by `bash urn-sql/benches/keyed.sh [REV ...]`, which builds each commit's
//! artefacts and passes their directories in `URN_BENCH_BUILDS` (comma-separated).
//!
//! The same 1,000,000 mixed URNs (`URN_BENCH_ROWS` to change) are loaded, each load one
//! transaction into a fresh table, into:
//!
//! - PostgreSQL, by `COPY … FROM STDIN`, in a database whose default collation is libc
//!   `C.UTF-8` and in one whose default is ICU `en-US`: `text UNIQUE`; each build's keyed table
//!   (`urn sql --table t`) on its portable SQL (schema `portable`) and on its urn_pg extension
//!   (`public`), a database per build, so that no backend loads two builds' libraries; and the
//!   floor — the keyed table's columns and index with the key computed by urn-core in this
//!   process before the clock starts, so no URN logic runs in the database;
//! - MariaDB, by multi-row `INSERT` (1,000 rows a statement) and by `LOAD DATA INFILE`: a
//!   `utf8mb4_nopad_bin` `LONGTEXT` column with `UNIQUE`; each build's keyed table, created by the
//!   `mariadb` client from `urn sql --dialect mariadb --table t`; and the floor, the keyed
//!   table's key and UNIQUE on its SHA-256 with the key sent by this process;
//! - SQLite (in memory, 5,000 rows a statement through `json_each`): `TEXT UNIQUE` and each
//!   build's keyed table, its key computed by that build's loadable extension.
//!
//! `URN_BENCH_DATABASES=mariadb` (a comma-separated subset of `postgres,mariadb,sqlite`) runs
//! fewer. One warm-up round, then `URN_BENCH_RUNS` rounds (5; odd, so that a median is one
//! round's); within a round each database's loads run one after another, starting one load later
//! each round, and every figure is the median over the rounds. PostgreSQL checkpoints before each
//! load.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
// Loading each build's SQLite extension is an `unsafe` call (FFI: the library's code runs).
#![allow(unsafe_code)]

mod support;
#[path = "support/postgres.rs"]
mod support_postgres;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::mysql::{MySqlConnectOptions, MySqlPool, MySqlPoolOptions};
use sqlx::postgres::PgPool;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use support::{corpus, median};
use support_postgres::pg_pool;

/// Rounds after the warm-up (`URN_BENCH_RUNS` to change).
fn run_count() -> usize {
    std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap())
}

/// One commit's artefacts, made by keyed.sh.
struct Build {
    dir: PathBuf,
    label: String,
    urn_pg: Option<String>,
}

impl Build {
    fn read(dir: &str) -> Self {
        let dir = PathBuf::from(dir);
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        let label = text("label")
            .unwrap_or_else(|| panic!("{}: no label (made by keyed.sh?)", dir.display()))
            .trim()
            .to_owned();
        let urn_pg = text("urn_pg").map(|n| n.trim().to_owned());
        Self { dir, label, urn_pg }
    }

    fn sql(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap()
    }
}

/// How one variant loads, and into what.
enum Target {
    Postgres {
        pool: PgPool,
        ddl: String,
        /// The client computes the key and sends it as a second column.
        client_key: bool,
    },
    MariaDb {
        pool: MySqlPool,
        database: String,
        /// Run by the `mariadb` client (the rendered DDL has `DELIMITER` lines); else by sqlx.
        client_ddl: bool,
        ddl: String,
        load_data: bool,
        /// The client computes the key and sends it as a second column.
        client_key: bool,
    },
    Sqlite {
        pool: SqlitePool,
        ddl: String,
    },
}

struct Variant {
    group: String,
    name: String,
    target: Target,
    runs: Vec<Duration>,
}

impl Variant {
    fn new(group: &str, name: impl Into<String>, target: Target) -> Self {
        Self {
            group: group.to_owned(),
            name: name.into(),
            target,
            runs: Vec::new(),
        }
    }
}

/// The inputs of every load.
struct Data {
    urns: Vec<String>,
    /// Each URN's key (urn-core's), in `urns`' order, for the floors.
    keys: Vec<String>,
    /// `urn\tkey` lines for the floor's COPY.
    with_keys: Vec<String>,
    /// The URNs one per line, for `LOAD DATA INFILE`.
    file: PathBuf,
    /// `urn\tkey` lines, for the floor's `LOAD DATA INFILE`.
    keys_file: PathBuf,
    /// The URNs as JSON arrays of 5,000, for SQLite's `json_each`.
    json: Vec<String>,
}

async fn run(target: &Target, data: &Data, mariadb_url: &str) -> Duration {
    match target {
        Target::Postgres {
            pool,
            ddl,
            client_key,
        } => {
            pool.execute("DROP TABLE IF EXISTS public.t").await.unwrap();
            pool.execute(AssertSqlSafe(ddl.clone())).await.unwrap();
            pool.execute("CHECKPOINT").await.unwrap();
            let start = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            let (columns, lines) = if *client_key {
                ("urn, urn_key", &data.with_keys)
            } else {
                ("urn", &data.urns)
            };
            let mut copy = tx
                .copy_in_raw(&format!("COPY public.t ({columns}) FROM STDIN"))
                .await
                .unwrap();
            for chunk in lines.chunks(10_000) {
                let mut buf = String::with_capacity(chunk.len() * 64);
                for line in chunk {
                    buf.push_str(line);
                    buf.push('\n');
                }
                copy.send(buf.into_bytes()).await.unwrap();
            }
            copy.finish().await.unwrap();
            tx.commit().await.unwrap();
            start.elapsed()
        }
        Target::MariaDb {
            pool,
            database,
            client_ddl,
            ddl,
            load_data,
            client_key,
        } => {
            pool.execute("DROP TABLE IF EXISTS t").await.unwrap();
            if *client_ddl {
                mariadb_client(mariadb_url, database, ddl);
            } else {
                pool.execute(AssertSqlSafe(ddl.clone())).await.unwrap();
            }
            let start = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            if *load_data {
                let (file, columns) = if *client_key {
                    (&data.keys_file, "urn, urn_key")
                } else {
                    (&data.file, "urn")
                };
                tx.execute(AssertSqlSafe(format!(
                    "LOAD DATA INFILE '{}' INTO TABLE t CHARACTER SET utf8mb4 \
                     FIELDS TERMINATED BY '\\t' ESCAPED BY '' LINES TERMINATED BY '\\n' \
                     ({columns})",
                    file.display()
                )))
                .await
                .unwrap();
            } else if *client_key {
                let pairs: Vec<(&String, &String)> = data.urns.iter().zip(&data.keys).collect();
                for chunk in pairs.chunks(1_000) {
                    let mut query = sqlx::QueryBuilder::new("INSERT INTO t (urn, urn_key) ");
                    query.push_values(chunk, |mut row, &(urn, key)| {
                        row.push_bind(urn).push_bind(key);
                    });
                    query.build().execute(&mut *tx).await.unwrap();
                }
            } else {
                for chunk in data.urns.chunks(1_000) {
                    let mut query = sqlx::QueryBuilder::new("INSERT INTO t (urn) ");
                    query.push_values(chunk, |mut row, urn| {
                        row.push_bind(urn);
                    });
                    query.build().execute(&mut *tx).await.unwrap();
                }
            }
            tx.commit().await.unwrap();
            start.elapsed()
        }
        Target::Sqlite { pool, ddl } => {
            pool.execute("DROP TABLE IF EXISTS t").await.unwrap();
            pool.execute(AssertSqlSafe(ddl.clone())).await.unwrap();
            let start = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            for batch in &data.json {
                sqlx::query("INSERT INTO t (urn) SELECT value FROM json_each(?)")
                    .bind(batch)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
            start.elapsed()
        }
    }
}

/// Runs `sql` in `database` with the `mariadb` command-line client (as a user installs it).
fn mariadb_client(url: &str, database: &str, sql: &str) {
    let rest = url
        .trim_start_matches("mysql://")
        .trim_start_matches("mariadb://");
    let (user_info, host_port) = rest.split_once('@').unwrap_or(("root", rest));
    let host_port = host_port.split('/').next().unwrap_or("127.0.0.1");
    let (user, password) = user_info.split_once(':').unwrap_or((user_info, ""));
    let (host, port) = host_port.split_once(':').unwrap_or((host_port, "3306"));
    let mut child = Command::new("mariadb")
        .args(["-h", host, "-P", port, "-u", user, database])
        .env("MYSQL_PWD", password)
        .stdin(Stdio::piped())
        .spawn()
        .expect("the mariadb client");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), sql.as_bytes()).unwrap();
    assert!(
        child.wait().unwrap().success(),
        "mariadb {database}: failed"
    );
}

/// The PostgreSQL variants: per collation, `text UNIQUE`, the floor and each build's keyed
/// tables, each build in a database of its own.
async fn postgres(url: &str, builds: &[Build], variants: &mut Vec<Variant>) {
    let admin = pg_pool(url, "postgres", "public").await;
    for (coll, locale) in [
        ("C.UTF-8", "LOCALE 'C.UTF-8'"),
        (
            "ICU en-US",
            "LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'",
        ),
    ] {
        let group = format!("PostgreSQL {coll}, COPY");
        for (i, build) in builds.iter().enumerate() {
            let name = format!(
                "urn_keyed_{}_{i}",
                if coll.starts_with('C') { "c" } else { "icu" }
            );
            admin
                .execute(AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .await
                .unwrap();
            admin
                .execute(AssertSqlSafe(format!(
                    "CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' {locale}"
                )))
                .await
                .unwrap();
            // keyed-profile.sh finds the build's statements by the database's comment.
            admin
                .execute(AssertSqlSafe(format!(
                    "COMMENT ON DATABASE {name} IS '{}'",
                    build.dir.display().to_string().replace('\'', "''")
                )))
                .await
                .unwrap();
            let setup = pg_pool(url, &name, "public").await;
            setup.execute("CREATE SCHEMA portable").await.unwrap();
            setup.close().await;
            let portable = pg_pool(url, &name, "portable").await;
            portable
                .execute(AssertSqlSafe(build.sql("postgres-install.sql")))
                .await
                .unwrap();
            let pool = pg_pool(url, &name, "public").await;
            if i == 0 {
                let id = "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
                variants.push(Variant::new(
                    &group,
                    "text UNIQUE",
                    Target::Postgres {
                        pool: pool.clone(),
                        ddl: format!("CREATE TABLE public.t ({id}, urn text NOT NULL UNIQUE)"),
                        client_key: false,
                    },
                ));
                variants.push(Variant::new(
                    &group,
                    "floor: key from the client",
                    Target::Postgres {
                        pool: pool.clone(),
                        ddl: format!(
                            "CREATE TABLE public.t ({id}, urn text NOT NULL, \
                             urn_key text COLLATE \"C\" NOT NULL UNIQUE)"
                        ),
                        client_key: true,
                    },
                ));
            }
            variants.push(Variant::new(
                &group,
                format!("{}: portable SQL", build.label),
                Target::Postgres {
                    pool: portable,
                    ddl: build.sql("postgres-table-portable.sql"),
                    client_key: false,
                },
            ));
            if let Some(extension) = &build.urn_pg {
                pool.execute(AssertSqlSafe(format!("CREATE EXTENSION {extension}")))
                    .await
                    .unwrap();
                variants.push(Variant::new(
                    &group,
                    format!("{}: urn_pg", build.label),
                    Target::Postgres {
                        pool,
                        ddl: build.sql("postgres-table-urn_pg.sql"),
                        client_key: false,
                    },
                ));
            }
        }
    }
}

/// The MariaDB variants: per load method, `TEXT UNIQUE` and each build's keyed table.
async fn mariadb(url: &str, builds: &[Build], data: &Data, variants: &mut Vec<Variant>) {
    let server = MySqlPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .unwrap();
    let mut pools = Vec::new();
    for (i, build) in builds.iter().enumerate() {
        let name = format!("urn_keyed_{i}");
        server
            .execute(AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name} COMMENT '{}'",
                build.dir.display().to_string().replace('\'', "''")
            )))
            .await
            .unwrap();
        let options = MySqlConnectOptions::from_str(url).unwrap().database(&name);
        let pool = MySqlPoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .unwrap();
        pools.push((name, pool));
    }
    let probe = pools[0]
        .1
        .execute(AssertSqlSafe(format!(
            "CREATE TEMPORARY TABLE probe (x TEXT); \
             LOAD DATA INFILE '{}' INTO TABLE probe (x); DROP TABLE probe",
            data.file.display()
        )))
        .await;
    let methods: &[(&str, bool)] = match probe {
        Ok(_) => &[("INSERT", false), ("LOAD DATA", true)],
        Err(e) => {
            println!(
                "LOAD DATA INFILE cannot read {} ({e}): skipped",
                data.file.display()
            );
            &[("INSERT", false)]
        }
    };
    for &(method, load_data) in methods {
        let group = format!("MariaDB, {method}");
        let (database, pool) = &pools[0];
        variants.push(Variant::new(
            &group,
            "TEXT UNIQUE",
            Target::MariaDb {
                pool: pool.clone(),
                database: database.clone(),
                client_ddl: false,
                ddl: "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, \
                      urn LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, \
                      UNIQUE (urn))"
                    .into(),
                load_data,
                client_key: false,
            },
        ));
        // The keyed table's columns and UNIQUE (on the key's SHA-256, which the server
        // computes: storage, not URN logic), the key sent by the client: no URN logic.
        variants.push(Variant::new(
            &group,
            "floor: key from the client",
            Target::MariaDb {
                pool: pool.clone(),
                database: database.clone(),
                client_ddl: false,
                ddl: "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, \
                      urn LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, \
                      urn_key MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL, \
                      urn_key_sha256 BINARY(32) AS (UNHEX(SHA2(urn_key, 256))) STORED UNIQUE)"
                    .into(),
                load_data,
                client_key: true,
            },
        ));
        for (build, (database, pool)) in builds.iter().zip(&pools) {
            variants.push(Variant::new(
                &group,
                format!("{}: keyed", build.label),
                Target::MariaDb {
                    pool: pool.clone(),
                    database: database.clone(),
                    client_ddl: true,
                    ddl: build.sql("mariadb-table.sql"),
                    load_data,
                    client_key: false,
                },
            ));
        }
    }
}

/// The SQLite variants: `TEXT UNIQUE` and each build's keyed table with its extension.
async fn sqlite(builds: &[Build], variants: &mut Vec<Variant>) {
    let group = "SQLite, in memory".to_owned();
    for (i, build) in builds.iter().enumerate() {
        let extension = build.dir.join("liburn_sqlite_ext");
        // SAFETY: the library is this build's urn-sqlite-ext, made by keyed.sh.
        let options = unsafe {
            SqliteConnectOptions::from_str("sqlite::memory:")
                .unwrap()
                .extension(extension.display().to_string())
        };
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await
            .unwrap();
        if i == 0 {
            variants.push(Variant::new(
                &group,
                "TEXT UNIQUE",
                Target::Sqlite {
                    pool: pool.clone(),
                    ddl: "CREATE TABLE t (id INTEGER PRIMARY KEY, urn TEXT NOT NULL UNIQUE)".into(),
                },
            ));
        }
        variants.push(Variant::new(
            &group,
            format!("{}: keyed", build.label),
            Target::Sqlite {
                pool,
                ddl: build.sql("sqlite-table.sql"),
            },
        ));
    }
}

fn main() {
    let Ok(dirs) = std::env::var("URN_BENCH_BUILDS") else {
        println!("URN_BENCH_BUILDS not set: run `bash urn-sql/benches/keyed.sh`");
        return;
    };
    let builds: Vec<Build> = dirs.split(',').map(Build::read).collect();
    let rows = std::env::var("URN_BENCH_ROWS").map_or(1_000_000, |r| r.parse().unwrap());
    let urns = corpus(rows);
    let keys: Vec<String> = urns
        .iter()
        .map(|u| urn_core::Urn::parse(u).unwrap().key().to_string())
        .collect();
    let with_keys: Vec<String> = urns
        .iter()
        .zip(&keys)
        .map(|(u, k)| format!("{u}\t{k}"))
        .collect();
    let file = std::env::temp_dir().join(format!("urn-keyed-{}.txt", std::process::id()));
    std::fs::write(&file, urns.join("\n") + "\n").unwrap();
    let keys_file = file.with_extension("keys.txt");
    std::fs::write(&keys_file, with_keys.join("\n") + "\n").unwrap();
    let json = urns
        .chunks(5_000)
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    let data = Data {
        urns,
        keys,
        with_keys,
        file,
        keys_file,
        json,
    };
    let mariadb_url = std::env::var("MARIADB_URL").unwrap_or_default();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut variants = Vec::new();
        let only = std::env::var("URN_BENCH_DATABASES")
            .unwrap_or_else(|_| "postgres,mariadb,sqlite".into());
        let runs = |database: &str| only.split(',').any(|d| d == database);
        match std::env::var("DATABASE_URL") {
            Ok(url) if url.starts_with("postgres") && runs("postgres") => {
                postgres(&url, &builds, &mut variants).await;
            }
            _ => println!("PostgreSQL skipped (DATABASE_URL, URN_BENCH_DATABASES)"),
        }
        if (mariadb_url.starts_with("mysql") || mariadb_url.starts_with("mariadb")) && runs("mariadb")
        {
            mariadb(&mariadb_url, &builds, &data, &mut variants).await;
        } else {
            println!("MariaDB skipped (MARIADB_URL, URN_BENCH_DATABASES)");
        }
        if runs("sqlite") {
            sqlite(&builds, &mut variants).await;
        }
        let groups: Vec<String> = variants.iter().fold(Vec::new(), |mut g, v| {
            if !g.contains(&v.group) {
                g.push(v.group.clone());
            }
            g
        });
        // Round 0 warms up; each round starts each database's loads one load later.
        for round in 0..=run_count() {
            for group in &groups {
                let members: Vec<usize> = (0..variants.len())
                    .filter(|&i| &variants[i].group == group)
                    .collect();
                for k in 0..members.len() {
                    let v = members[(round + k) % members.len()];
                    let took = run(&variants[v].target, &data, &mariadb_url).await;
                    eprintln!(
                        "round {round}  {group:<28} {:<30} {:>7.3} s",
                        variants[v].name,
                        took.as_secs_f64()
                    );
                    if round > 0 {
                        variants[v].runs.push(took);
                    }
                }
            }
        }
        println!(
            "\n{rows} URNs; median of {} rounds after a warm-up; time against the first row of each database, per round",
            run_count()
        );
        // The ratio: the median over the rounds of each round's time against that round's first
        // row (loads of one round ran minutes apart at most, beside the same other load).
        for group in &groups {
            let members: Vec<&Variant> = variants.iter().filter(|v| &v.group == group).collect();
            let base = &members[0].runs;
            for v in &members {
                let mut ratios: Vec<f64> = v
                    .runs
                    .iter()
                    .zip(base)
                    .map(|(t, b)| t.as_secs_f64() / b.as_secs_f64())
                    .collect();
                ratios.sort_by(f64::total_cmp);
                let mut runs = v.runs.clone();
                runs.sort();
                println!(
                    "{group:<28} {:<30} {:>7.3} s  {:>5.2}x   (ratios {:.2}–{:.2})",
                    v.name,
                    median(runs).as_secs_f64(),
                    ratios[ratios.len() / 2],
                    ratios[0],
                    ratios[ratios.len() - 1]
                );
            }
        }
    });
    let _ = std::fs::remove_file(&data.file);
    let _ = std::fs::remove_file(&data.keys_file);
}
