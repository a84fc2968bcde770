//! The portable install (`migrations/postgres/…/up.sql`, [`UP`](super::UP)), rendered whole:
//! the hand-written template `install.template.sql` with each part that restates a fact of
//! urn-core written from urn-core's tables: `urn_check` ([`check`](super::check): character
//! classes, white space, messages), the key functions ([`key_functions`](super::key_functions):
//! the key-rule table), `urn_key_problem` (messages) and the domains' CHECKs (patterns). A test
//! holds the migration to this rendering byte for byte; `URN_SQL_BLESS=1 cargo test -p urn-sql
//! --lib postgres` writes it after a change.

use urn_core::{ErrorKind, KeyRules, patterns};

use super::{check, key_functions};
use crate::message::{self, Join};

/// The template: the install's hand-written SQL, with a `@@name@@` line for each rendered part.
const TEMPLATE: &str = include_str!("install.template.sql");

/// urn_pg's install script (`urn-pg/sql/urn_pg.sql`), rendered whole from its template
/// (`urn-pg/sql/urn_pg.template.sql`, read from the repository): the extension keeps the
/// portable `urn_key_index` bodies, which PostgreSQL inlines into the keyed tables' indexes.
pub(crate) fn render_urn_pg(template: &str) -> String {
    template
        .replacen("@@function_names@@", &function_names(), 1)
        .replacen("@@urn_key_index_urn_key@@\n", &urn_key_index(false), 1)
        .replacen("@@urn_key_index_text@@\n", &urn_key_index(true), 1)
}

/// The names of every function the portable install has made in any revision (the installs
/// refuse another role's function of these names, and urn_pg adopts or drops them).
const FUNCTION_NAMES: &[&str] = &[
    "urn_check",
    "urn_check_char",
    "urn_valid",
    "urn_key_v1",
    "urn_key_v1_inline",
    "urn_key_v2",
    "urn_key_v2_inline",
    "urn_key_index",
    "urn_rfc8141_key",
    "urn_nid",
    "urn_nss",
    "urn_raise_check_violation",
    "urn_key_problem",
    "urn_domain_error",
    "urn_key_domain_error",
];

/// [`FUNCTION_NAMES`] as an SQL list, four to a line.
fn function_names() -> String {
    FUNCTION_NAMES
        .chunks(4)
        .map(|names| {
            names
                .iter()
                .map(|name| format!("'{name}'"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect::<Vec<_>>()
        .join(",\n                        ")
}

/// `urn_key_index(urn_key)` (or with `text`, `urn_key_index(text)`): the value a keyed table's
/// UNIQUE index stores, the key up to 2,048 bytes and its SHA-256 beyond. The `urn_key`
/// version binds what revision 2's did (a session keeps an index's expression as it was
/// inlined when first used: see the template).
fn urn_key_index(text: bool) -> String {
    let (param, value) = if text {
        ("pg_catalog.text", "k")
    } else {
        ("urn_key", "k::pg_catalog.text")
    };
    format!(
        "CREATE OR REPLACE FUNCTION urn_key_index(k {param}) RETURNS pg_catalog.text\n  \
         LANGUAGE sql IMMUTABLE PARALLEL SAFE\n  \
         RETURN CASE WHEN pg_catalog.octet_length(k) <= 2048 THEN {value}\n              \
         ELSE 'sha256:' || pg_catalog.encode(pg_catalog.sha256(k::pg_catalog.bytea), 'hex') END;\n"
    )
}

/// The whole migration.
pub(crate) fn render() -> String {
    let parts: [(&str, String); 12] = [
        ("@@urn_check@@\n", check::urn_check()),
        (
            "@@urn_key_v1@@\n",
            key_functions::key_function(KeyRules::V1),
        ),
        (
            "@@urn_key_v2@@\n",
            key_functions::key_function(KeyRules::V2),
        ),
        (
            "@@urn_key_v1_inline@@\n",
            key_functions::key_inline(KeyRules::V1),
        ),
        (
            "@@urn_key_v2_inline@@\n",
            key_functions::key_inline(KeyRules::V2),
        ),
        ("@@urn_key_problem@@\n", urn_key_problem()),
        ("@@urn_syntax_check@@", urn_syntax_check()),
        ("@@urn_key_canonical_check@@", urn_key_canonical_check()),
        ("@@urn_key_index_urn_key@@\n", urn_key_index(false)),
        ("@@urn_key_index_text@@\n", urn_key_index(true)),
        ("@@function_names@@", function_names()),
        (
            "@@join_upper_hex@@\n",
            key_functions::JOIN_UPPER_HEX.to_owned(),
        ),
    ];
    let mut sql = TEMPLATE.to_owned();
    for (placeholder, part) in &parts {
        sql = sql.replacen(placeholder, part, 1);
    }
    sql
}

/// `urn_key_problem(v, k)`: why a valid URN is not a canonical key.
fn urn_key_problem() -> String {
    format!(
        r#"CREATE OR REPLACE FUNCTION urn_key_problem(v pg_catalog.text, k pg_catalog.text)
  RETURNS pg_catalog.text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  -- The assigned name ends at the first '?' or '#' (a valid URN is ASCII: chars are bytes).
  n    int := length(split_part(split_part(v, '?', 1), '#', 1));
  same int := 0;                                -- the first `same` characters agree,
  diff int := greatest(length(v), length(k));  -- the first `diff` do not
  mid  int;
BEGIN
  IF n < length(v) THEN
    RETURN {has_component};
  ELSIF v = k THEN
    RETURN NULL;
  END IF;
  -- The first character that differs, by halving: log2(length) comparisons of prefixes
  -- (revision 3 compared character by character, each substr scanning from the start: 28 s
  -- for a 64 KiB key).
  WHILE diff - same > 1 LOOP
    mid := (same + diff) / 2;
    IF left(v, mid) = left(k, mid) THEN
      same := mid;
    ELSE
      diff := mid;
    END IF;
  END LOOP;
  RETURN {not_canonical};
END
$fn$;
"#,
        has_component = message::message(ErrorKind::KeyHasComponent, "n", &[], Join::Pipes),
        not_canonical = message::message(ErrorKind::KeyNotCanonical, "diff - 1", &[], Join::Pipes),
    )
}

/// `pattern` as the domains write it: the NID's bounded repetition left to a length check,
/// `%XX` as two classes, `\?` and `\+` as classes (no backslash, whatever
/// `standard_conforming_strings` says), SQL quoting. (PostgreSQL's regex engine makes a state
/// per repetition of `{n}`: measured 35% slower.)
fn in_sql(pattern: &str) -> String {
    let hex = patterns::HEX_DIGIT;
    pattern
        .replace("{0,30}", "*")
        .replace("\\?", "[?]")
        .replace("\\+", "[+]")
        .replace(&format!("{hex}{{2}}"), &format!("{hex}{hex}"))
        .replace("[0-9A-F]{2}", "[0-9A-F][0-9A-F]")
        .replace('\'', "''")
}

/// The URN grammar of `urn_syntax`: the NID as `[A-Za-z0-9-]*[A-Za-z0-9]`, its first character
/// and length checked apart (fewer regex states).
fn urn_regex(pattern: &str) -> String {
    in_sql(pattern).replace(
        &format!("[Uu][Rr][Nn]:{}", in_sql(patterns::NID)),
        "[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]",
    )
}

/// `regex` without the `%XX` alternatives: for values without a `%`.
fn without_percent(regex: &str) -> String {
    let hex = patterns::HEX_DIGIT;
    let mut out = regex.to_owned();
    for triplet in [format!("%{hex}{hex}"), "%[0-9A-F][0-9A-F]".to_owned()] {
        for class in [
            patterns::PCHAR,
            patterns::PCHAR_SLASH,
            patterns::PCHAR_SLASH_QUESTION,
        ] {
            let class = class.replace('\'', "''");
            out = out
                .replace(&format!("({class}|{triplet})*"), &format!("{class}*"))
                .replace(&format!("({class}|{triplet})"), &class);
        }
    }
    out
}

/// The `urn` domain's CHECK: each value meets the smallest grammar that decides it.
fn urn_syntax_check() -> String {
    let full = urn_regex(patterns::URN);
    // The components: ?+r, then ?=q and #f.
    let (r_component, q_and_f) = patterns::COMPONENTS
        .split_once("(\\?=")
        .map(|(r, rest)| (r, format!("(\\?={rest}")))
        .unwrap_or_default();
    let f_component = q_and_f
        .split_once(")?(#")
        .map(|(_, f)| format!("(#{f}"))
        .unwrap_or_default();
    let no_r = urn_regex(&patterns::URN.replace(r_component, ""));
    let nss_only = without_percent(&urn_regex(&format!(
        "^[Uu][Rr][Nn]:{}:{}$",
        patterns::NID,
        patterns::NSS
    )));
    let with_f = format!(
        "{}{}$",
        nss_only.trim_end_matches('$'),
        without_percent(&in_sql(&f_component))
    );
    format!(
        r#"      CASE WHEN pg_catalog.octet_length(VALUE) <= 65536
                AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, ':', 2)) BETWEEN 2 AND 32
                AND pg_catalog.substr(VALUE, 5, 1) <> '-'
                AND CASE
                  WHEN pg_catalog.strpos(VALUE, '%') = 0 AND pg_catalog.strpos(VALUE, '?') = 0 THEN CASE
                    WHEN pg_catalog.strpos(VALUE, '#') = 0
                      THEN VALUE COLLATE pg_catalog."C" ~ '{nss_only}'
                    ELSE VALUE COLLATE pg_catalog."C" ~ '{with_f}'
                    END
                  WHEN pg_catalog.strpos(VALUE, '?+') = 0
                    THEN VALUE COLLATE pg_catalog."C" ~ '{no_r}'
                  ELSE VALUE COLLATE pg_catalog."C" ~ '{full}'
                  END
           THEN true
           ELSE urn_domain_error(VALUE) END"#
    )
}

/// The `urn_key` domain's CHECK: the canonical key's pattern, without `%XX` where there is no
/// `%`.
fn urn_key_canonical_check() -> String {
    let key = in_sql(patterns::URN_KEY).replace("{0,30}", "*");
    format!(
        r#"      CASE WHEN pg_catalog.octet_length(VALUE) <= 65536
                AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, ':', 2)) <= 32
                AND CASE WHEN pg_catalog.strpos(VALUE, '%') = 0
                  THEN VALUE COLLATE pg_catalog."C" ~ '{}'
                  ELSE VALUE COLLATE pg_catalog."C" ~ '{key}'
                  END
           THEN true
           ELSE urn_key_domain_error(VALUE) END"#,
        without_percent(&key),
    )
}
