//! `urn`: inspect, key, compare, deduplicate, check, find and fix URNs; print SQL and schemas.
#![forbid(unsafe_code)]

mod commands;
mod dirty;
mod input;
mod json;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use urn_core::{FindOptions, KeyRules, KnownNamespace, ParseOptions, Syntax, UrnEnd};

/// Work with URNs (RFC 8141; RFC 2141 with --syntax rfc2141).
///
/// Inputs are the arguments, or one per line on stdin when there are none.
#[derive(Parser, Debug)]
#[command(name = "urn", version, about, long_about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The exit codes of every subcommand (`urn --help`; each subcommand's help repeats its own).
const EXIT_CODES: &str = "Exit codes:
  0  success: every input valid (inspect, key, dedup, check), the two URNs equivalent (eq),
     a URN found (find), every input a URN after repair (fix), the document printed (sql,
     schema)
  1  a negative answer: an invalid input (inspect, key, dedup, check), two valid URNs that are
     not equivalent (eq), no URN found (find), an input not repaired (fix)
  2  a usage error (an unknown subcommand or option, a name sql or schema refuses), an invalid
     URN given to eq, or a failure to read or write";

#[derive(Subcommand, Debug)]
enum Command {
    /// Print one JSON object per input: its components and keys, or the error.
    #[command(after_help = "Example:\n  \
        $ urn inspect 'URN:ISBN:0-395-36341-1#p4'\n  \
        {\"input\":\"URN:ISBN:0-395-36341-1#p4\",\"valid\":true,\"nid\":\"ISBN\",\"nss\":\"0-395-36341-1\",\
        \"r_component\":null,\"q_component\":null,\"f_component\":\"p4\",\"key\":\"urn:isbn:0395363411\",\
        \"rfc8141_key\":\"urn:isbn:0-395-36341-1\",\"nid_status\":\"formal\",\
        \"namespace\":{\"known\":true,\"valid\":true,\"message\":null,\"offset\":null}}\n\n\
        Exit status: 0 when every input is a valid URN (one that breaks its namespace's rules\n\
        included: see \"namespace\"), 1 when any is not.")]
    Inspect(Inputs),
    /// Print the canonical key of each input, one per line.
    #[command(after_help = "Example:\n  \
        $ printf 'URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6\\n' | urn key\n  \
        urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\n\n\
        Exit status: 0 when every input is valid, 1 when any is not (each reported on stderr).")]
    Key {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        rules: RulesArg,
    },
    /// Exit 0 when two URNs are equivalent, 1 when not (2 if either is invalid).
    #[command(after_help = "Example:\n  \
        $ urn eq 'urn:example:a%2c' 'URN:EXAMPLE:a%2C#f' && echo equivalent\n  \
        equivalent\n\n\
        Exit status: 0 equivalent, 1 not, 2 when either is invalid (each invalid one reported on\n\
        stderr).")]
    Eq {
        #[command(flatten)]
        syntax: SyntaxArg,
        #[command(flatten)]
        rules: RulesArg,
        /// The first URN.
        a: String,
        /// The second URN.
        b: String,
    },
    /// Print the first input of each key, in input order.
    #[command(after_help = "Example:\n  \
        $ printf 'urn:isbn:0395363411\\nURN:ISBN:0-395-36341-1\\nurn:isbn:9780395363416\\n' | urn dedup\n  \
        urn:isbn:0395363411\n  \
        urn:isbn:9780395363416\n\n\
        Exit status: 0 when every input is valid, 1 when any is not (each reported on stderr).")]
    Dedup {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        rules: RulesArg,
    },
    /// Print nothing for valid inputs; `line N: <message>` (or `argument N: <message>`) on
    /// stderr for each invalid one.
    #[command(after_help = "Example:\n  \
        $ printf 'urn:example:ok\\nurn:example:a b\\n' | urn check\n  \
        line 2: invalid URN: ' ' at byte 13 is not allowed in the NSS\n  \
        (exit status 1)\n\n\
        Exit status: 0 when every input is valid, 1 when any is not.")]
    Check(Inputs),
    /// Print one JSON object per URN found in text (files, or stdin lines): its line, byte
    /// span in the line, text and key, and the resolver link it was in.
    #[command(after_help = "Example:\n  \
        $ echo 'See https://nbn-resolving.org/urn:nbn:de:bvb:19-146642 and URN:ISBN:0-395-36341-1.' | urn find\n  \
        {\"line\":1,\"start\":30,\"end\":54,\"text\":\"urn:nbn:de:bvb:19-146642\",\"key\":\"urn:nbn:de:bvb:19-146642\",\
        \"link\":{\"start\":4,\"end\":54,\"text\":\"https://nbn-resolving.org/urn:nbn:de:bvb:19-146642\"}}\n  \
        {\"line\":1,\"start\":59,\"end\":81,\"text\":\"URN:ISBN:0-395-36341-1\",\"key\":\"urn:isbn:0395363411\",\"link\":null}\n\n\
        A URN starts at urn: where a word starts. In prose it ends where what the byte before it\n\
        opened closes (' \" ( [ < { * _ ` , ; | a tab, or = closed by &: xmlns='urn:xmpp:ping'/>\n\
        gives urn:xmpp:ping),\n\
        and without a trailing . , ; : ! ? or an unbalanced ) ' or * (--longest keeps them all).\n\
        A doi.org link is a hit too: text urn:doi: and the DOI, span the DOI (--as-written: not).\n\
        With files, each object names its \"file\".\n\n\
        Exit status: 0 when any URN was found, 1 when none, 2 when a file cannot be read.")]
    Find {
        #[command(flatten)]
        syntax: SyntaxArg,
        #[command(flatten)]
        rules: RulesArg,
        /// End each URN where the parser's longest match ends (trailing punctuation kept).
        #[arg(long)]
        longest: bool,
        /// Only URNs written as URNs (not the DOI of a doi.org link).
        #[arg(long)]
        as_written: bool,
        /// Files to read; stdin when none.
        files: Vec<std::path::PathBuf>,
    },
    /// Print one JSON object per input: the URN it is after repair, every fix made (kind, byte
    /// span in the input, before, after), or the parser's error.
    #[command(after_help = "Example:\n  \
        $ urn fix ' isbn:0-395-36341-1'\n  \
        {\"input\":\" isbn:0-395-36341-1\",\"urn\":\"urn:isbn:0-395-36341-1\",\"fixes\":[\
        {\"kind\":\"leading_whitespace\",\"start\":0,\"end\":1,\"before\":\" \",\"after\":\"\"},\
        {\"kind\":\"missing_prefix\",\"start\":1,\"end\":1,\"before\":\"\",\"after\":\"urn:\"}],\"error\":null}\n\n\
        Exit status: 0 when every input is a URN after the fixes, 1 when any is not.")]
    Fix {
        #[command(flatten)]
        syntax: SyntaxArg,
        /// Read each stdin line as a JSON string literal (so inputs may hold newlines or NUL).
        #[arg(long)]
        stdin_json: bool,
        /// Texts to repair; stdin lines when none are given.
        inputs: Vec<String>,
    },
    /// Print the SQL that makes a database deduplicate equivalent URNs (PostgreSQL: domains and
    /// key functions, then the table pattern as a commented example; MariaDB: routines, then
    /// the insert-or-get and lookup statements as comments; SQLite: what to register, as
    /// comments, then a table named items), or with --table one keyed table.
    #[command(after_help = "Examples:\n  \
        $ urn sql --dialect postgres | psql -v ON_ERROR_STOP=1 \"$DATABASE_URL\"\n  \
        $ urn sql --dialect postgres | PGOPTIONS='-c search_path=urn' psql -v ON_ERROR_STOP=1 \"$DATABASE_URL\"\n  \
        $ urn sql --dialect postgres --table books --urn-schema urn | psql -v ON_ERROR_STOP=1 \"$DATABASE_URL\"\n  \
        $ urn sql --dialect mariadb | mariadb my_database\n  \
        $ urn sql --dialect mariadb --table books | mariadb my_database\n  \
        $ (echo '.load /usr/local/lib/liburn_sqlite_ext'; urn sql --dialect sqlite --table books) | sqlite3 books.db\n  \
        $ urn sql --dialect postgres --table books --rekey v2 | psql -v ON_ERROR_STOP=1 \"$DATABASE_URL\"\n\
        (SQLite: the sqlite3 shell computes keys with the loadable extension urn-sqlite-ext.)\n\n\
        Exit status: 0; 2 for a table or schema name that is not a plain SQL identifier,\n\
        --urn-schema with --dialect sqlite or mariadb, or a --rekey to other than the next\n\
        version of the rules.")]
    Sql {
        /// The database to write for.
        #[arg(long, value_enum)]
        dialect: DialectName,
        /// Print the CREATE statements of a keyed table of this name instead (columns id, urn,
        /// urn_key; PostgreSQL: SCHEMA.NAME, or public's), in the form the database's
        /// command-line client takes (PostgreSQL: one statement in a transaction).
        #[arg(long, value_name = "NAME")]
        table: Option<String>,
        /// PostgreSQL: the schema urn-sql's domains and functions were installed into, which
        /// the table's statements name (default: public).
        #[arg(long, value_name = "SCHEMA", requires = "table")]
        urn_schema: Option<String>,
        /// Print instead the script that re-keys the table (keyed by the version before) to
        /// these key rules: online on PostgreSQL and, where MariaDB allows it, MariaDB; one
        /// transaction on SQLite. It lists the rows the new rules make one first, and stops
        /// there unless --on-collision says otherwise; it can run again after a stop.
        #[arg(long, value_name = "RULES", requires = "table", value_parser = parse_rules)]
        rekey: Option<KeyRules>,
        /// With --rekey: refuse (stop before changing anything) or keep-first (keep the first
        /// row of each group, move the others, whole, to a side table).
        #[arg(long, value_name = "POLICY", requires = "rekey", default_value = "refuse",
              value_parser = ["refuse", "keep-first"])]
        on_collision: String,
    },
    /// Print a JSON Schema (draft 2020-12) document for URN strings.
    #[command(after_help = "Examples:\n  \
        $ urn schema                     # any RFC 8141 URN\n  \
        $ urn schema --namespace isbn    # only urn:isbn:, ISBN-shaped\n  \
        $ urn schema --key               # canonical keys\n\n\
        Exit status: 0; 2 for a --namespace that is not a valid NID.")]
    Schema {
        /// Only URNs of this namespace.
        #[arg(long, conflicts_with = "key", long_help = namespace_help())]
        namespace: Option<String>,
        /// The schema of canonical keys instead.
        #[arg(long)]
        key: bool,
    },
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum DialectName {
    Postgres,
    Sqlite,
    Mariadb,
}

/// The parsing options of the parsing subcommands.
#[derive(Args, Debug, Clone, Copy)]
struct SyntaxArg {
    /// The grammar to parse with.
    #[arg(long, value_enum, default_value_t = SyntaxName::Rfc8141)]
    syntax: SyntaxName,
    /// Refuse URNs longer than this many bytes. Default: no limit (RFC 8141 sets none);
    /// the libraries and databases cap at 65536 (urn_core::DEFAULT_MAX_LEN).
    #[arg(long, value_name = "BYTES")]
    max_len: Option<usize>,
}

/// The key rules of `key`, `eq`, `dedup`, `find`.
#[derive(Args, Debug, Clone, Copy)]
struct RulesArg {
    #[arg(long, value_name = "RULES", default_value = KeyRules::CURRENT.name(), value_parser = parse_rules, help = rules_help())]
    rules: KeyRules,
}

/// `--rules`' help, made from urn-core's table of versions and namespaces: each version with
/// the namespaces that have a rule of their own in it, newest first, then RFC 8141 alone.
fn rules_help() -> String {
    let versions: Vec<String> = KeyRules::VERSIONS
        .iter()
        .rev()
        .map(|&rules| {
            let nids: Vec<&str> = KnownNamespace::ALL
                .iter()
                .filter(|ns| ns.has_key_rule(rules))
                .map(|ns| ns.nid())
                .collect();
            let state = if rules == KeyRules::CURRENT {
                "the current rules"
            } else {
                "frozen: tables keyed before the next version hold it"
            };
            format!(
                "{} ({state}; RFC 8141 section 3 and the rules of {})",
                rules.name(),
                nids.join(", ")
            )
        })
        .collect();
    format!(
        "The key rules: {}, or {} (section 3 alone)",
        versions.join(", "),
        KeyRules::Rfc8141.name()
    )
}

/// A `--rules` value: a name [`KeyRules`] reads.
fn parse_rules(name: &str) -> Result<KeyRules, String> {
    name.parse()
        .map_err(|e: urn_core::UnknownKeyRules| e.to_string())
}

/// Inputs and options shared by the streaming subcommands.
#[derive(Args, Debug)]
struct Inputs {
    #[command(flatten)]
    syntax: SyntaxArg,
    /// Read each stdin line as a JSON string literal (so inputs may hold newlines or NUL).
    #[arg(long)]
    stdin_json: bool,
    /// URNs to process; stdin lines when none are given.
    urns: Vec<String>,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum SyntaxName {
    Rfc8141,
    Rfc2141,
}

impl From<SyntaxArg> for ParseOptions {
    fn from(arg: SyntaxArg) -> ParseOptions {
        let syntax = match arg.syntax {
            SyntaxName::Rfc8141 => Syntax::Rfc8141,
            SyntaxName::Rfc2141 => Syntax::Rfc2141,
        };
        let options = ParseOptions::unlimited().with_syntax(syntax);
        match arg.max_len {
            Some(max) => options.with_max_len(max),
            None => options,
        }
    }
}

/// The `--namespace` help: the known namespaces, from urn-core's table.
fn namespace_help() -> String {
    let known: Vec<&str> = KnownNamespace::ALL.iter().map(|ns| ns.nid()).collect();
    format!(
        "Only URNs of this namespace: the known namespaces ({}) get their own NSS pattern, \
         title and examples; any other NID gets the generic NSS.",
        known.join(", ")
    )
}

/// `urn schema`: the requested document, or a usage error for an invalid NID.
fn schema(namespace: Option<&str>, key: bool) -> io::Result<ExitCode> {
    let doc = match (namespace, key) {
        (Some(nid), _) => match urn_schema::namespace_document(nid) {
            Some(doc) => doc,
            None => {
                eprintln!(
                    "urn schema: \"{}\" is not a valid NID (2 to 32 letters, digits and '-', \
                     a letter or digit at both ends)",
                    nid.escape_debug()
                );
                return Ok(ExitCode::from(2));
            }
        },
        (None, true) => urn_schema::key_document(),
        (None, false) => urn_schema::urn_document(),
    };
    commands::print(&urn_schema::to_file_text(&doc))
}

/// `urn sql`: the install script, one keyed table's statements, or its re-key; a usage error
/// for a table or schema name that is not a plain SQL identifier, a schema for another
/// database, or a re-key that cannot be written.
fn sql(
    dialect: DialectName,
    table: Option<&str>,
    urn_schema: Option<&str>,
    rekey: Option<(KeyRules, &str)>,
) -> io::Result<ExitCode> {
    let dialect = match dialect {
        DialectName::Postgres => urn_sql::Dialect::Postgres,
        DialectName::Sqlite => urn_sql::Dialect::Sqlite,
        DialectName::Mariadb => urn_sql::Dialect::MariaDb,
    };
    let Some(name) = table else {
        return commands::print(&dialect.install_sql());
    };
    if urn_schema.is_some() && dialect != urn_sql::Dialect::Postgres {
        eprintln!(
            "urn sql: --urn-schema is for PostgreSQL (SQLite and MariaDB have no schemas of urn-sql's objects)"
        );
        return Ok(ExitCode::from(2));
    }
    let table = urn_sql::UrnTable::new(name).and_then(|table| match urn_schema {
        Some(schema) => table.with_urn_schema(schema),
        None => Ok(table),
    });
    let table = match table {
        Ok(table) => table,
        Err(e) => {
            eprintln!("urn sql: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let Some((to, on_collision)) = rekey else {
        return commands::print(&dialect.create_table_script(&table));
    };
    // The table is keyed by the version before `to`.
    let from = KeyRules::VERSIONS
        .iter()
        .position(|&v| v == to)
        .and_then(|at| at.checked_sub(1))
        .and_then(|at| KeyRules::VERSIONS.get(at));
    let script = (|| -> Result<String, String> {
        let policy: urn_sql::OnCollision = on_collision.parse()?;
        let from =
            from.ok_or_else(|| format!("{to} is the first version: nothing to re-key from"))?;
        let table = table.with_key_rules(*from).map_err(|e| e.to_string())?;
        dialect
            .rekey_sql(&table, to, policy)
            .map_err(|e| e.to_string())
    })();
    match script {
        Ok(script) => commands::print(&script),
        Err(e) => {
            eprintln!("urn sql: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Inspect(i) => commands::inspect(&i.urns, i.syntax.into(), i.stdin_json),
        Command::Key { inputs: i, rules } => {
            commands::key(&i.urns, i.syntax.into(), i.stdin_json, rules.rules)
        }
        Command::Eq {
            syntax,
            rules,
            a,
            b,
        } => commands::eq(a, b, (*syntax).into(), rules.rules),
        Command::Dedup { inputs: i, rules } => {
            commands::dedup(&i.urns, i.syntax.into(), i.stdin_json, rules.rules)
        }
        Command::Check(i) => commands::check(&i.urns, i.syntax.into(), i.stdin_json),
        Command::Find {
            syntax,
            rules,
            longest,
            as_written,
            files,
        } => {
            let end = if *longest {
                UrnEnd::Longest
            } else {
                UrnEnd::Prose
            };
            let options = FindOptions::new()
                .with_parse_options((*syntax).into())
                .with_end(end)
                .with_as_written(*as_written);
            dirty::find(files, options, rules.rules)
        }
        Command::Fix {
            syntax,
            stdin_json,
            inputs,
        } => dirty::fix(inputs, *stdin_json, (*syntax).into()),
        Command::Sql {
            dialect,
            table,
            urn_schema,
            rekey,
            on_collision,
        } => sql(
            *dialect,
            table.as_deref(),
            urn_schema.as_deref(),
            rekey.map(|to| (to, on_collision.as_str())),
        ),
        Command::Schema { namespace, key } => schema(namespace.as_deref(), *key),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`urn key | head`) is a normal way for output to end.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "urn: {e}");
            ExitCode::from(2)
        }
    }
}
