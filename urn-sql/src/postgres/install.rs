//! The portable install (`migrations/postgres/…/up.sql`, [`UP`](super::UP)), rendered whole:
//! the hand-written template `install.template.sql` with each part that restates a fact of
//! urn-core written from urn-core's tables: `urn_check` ([`check`](super::check): character
//! classes, white space, messages), the key functions ([`key_functions`](super::key_functions):
//! the key-rule table), `urn_key_problem` (messages) and the domains' CHECKs (patterns). A test
//! holds the migration to this rendering byte for byte; `bash .ci/bless` writes it after a
//! change.

use urn_core::{ErrorKind, KeyRules, patterns};

use super::{check, key_functions};
use crate::message::{self, Join};

/// The template: the install's hand-written SQL, with a `@@name@@` line for each rendered part.
const TEMPLATE: &str = include_str!("install.template.sql");

/// The signatures of the portable install's functions that urn_pg adopts into the extension
/// (`%1$I` is the schema), a key function and its inline form for each version of the rules,
/// two to a line.
fn adopted_functions() -> String {
    let key_functions = KeyRules::VERSIONS
        .iter()
        .filter_map(|rules| rules.sql_function())
        .flat_map(|f| [format!("{f}(%1$I.urn)"), format!("{f}_inline(%1$I.urn)")]);
    ["urn_check(pg_catalog.text)", "urn_valid(pg_catalog.text)"]
        .into_iter()
        .map(str::to_owned)
        .chain(key_functions)
        .chain(
            [
                "urn_rfc8141_key(%1$I.urn)",
                "urn_nid(%1$I.urn)",
                "urn_nss(%1$I.urn)",
                "urn_key_index(%1$I.urn_key)",
                "urn_key_index(pg_catalog.text)",
            ]
            .map(str::to_owned),
        )
        .map(|signature| format!("'%1$I.{signature}'"))
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|pair| pair.join(", "))
        .collect::<Vec<_>>()
        .join(",\n                       ")
}

/// What one install's owner check says (the portable install's and urn_pg's, one check):
/// the prefix of its variables (`<var>_schema`, `<var>_schema_oid`, `<var>_obj`) and its
/// words.
struct Wording {
    var: &'static str,
    who: &'static str,
    refusing: &'static str,
    runner: &'static str,
    schema_hint: &'static str,
    comment: &'static str,
    not_domain_hint: &'static str,
    owner: &'static str,
    owner_hint: &'static str,
}

/// The portable install's words.
const INSTALL: Wording = Wording {
    var: "install",
    who: "urn-sql",
    refusing: "not installing into schema",
    runner: "the role running this install",
    schema_hint: "Install into a schema the installing role owns",
    comment: "\n  -- What this install relies on must be its own: in the target schema, a type named urn or\n  \
              -- urn_key must be a domain over text, and it and every function of this install's names\n  \
              -- must belong to the role running it. Anything else another role made, and keeping it\n  \
              -- would run that role's code in every writer's session, or keep its checks.\n",
    not_domain_hint: "Drop or rename it, or install into another schema.",
    owner: "the role running this install",
    owner_hint: "'Run the install as its owner if that role is trusted (or, as a superuser, '\n                     \
                 'ALTER ... OWNER TO the installing role); otherwise drop it: its code would '\n                     \
                 'run in every session that writes a URN.'",
};

/// urn_pg's words.
const URN_PG: Wording = Wording {
    var: "adopt",
    who: "urn_pg",
    refusing: "not creating the extension in schema",
    runner: "the role creating it",
    schema_hint: "Create it in a schema the creating role owns",
    comment: "",
    not_domain_hint: "Install urn_pg into another schema: CREATE EXTENSION urn_pg SCHEMA ...",
    owner: "the role creating the extension",
    owner_hint: "'If that role is trusted, ALTER ... OWNER TO the role creating the '\n                     \
                 'extension (REASSIGN OWNED moves all of them); otherwise drop it.'",
};

/// The check both installs run before they make anything: the target schema is the running
/// role's or a superuser's (the database's owner for a schema of `pg_database_owner`), and a
/// type or function of the install's names there is urn-sql's (a domain over text) and the
/// running role's; each refusal names the object and its owner.
fn owner_check(w: &Wording) -> String {
    let var = w.var;
    format!(
        "  IF NOT EXISTS (\n    \
         SELECT FROM pg_namespace n\n    \
         JOIN pg_roles o ON o.oid = CASE WHEN (SELECT r.rolname FROM pg_roles r WHERE r.oid = n.nspowner)\n                                         \
         = 'pg_database_owner'\n                               \
         THEN (SELECT d.datdba FROM pg_database d\n                                     \
         WHERE d.datname = current_database())\n                               \
         ELSE n.nspowner END\n    \
         WHERE n.oid = {var}_schema_oid AND (o.rolsuper OR o.rolname = current_user)) THEN\n    \
         RAISE EXCEPTION '{who}: {refusing} %: its owner % is neither %, {runner}, nor a superuser',\n      \
         {var}_schema, (SELECT n.nspowner::regrole FROM pg_namespace n WHERE n.oid = {var}_schema_oid), current_user\n      \
         USING ERRCODE = 'insufficient_privilege',\n            \
         HINT = '{schema_hint}: that schema''s owner could '\n                   \
         'drop the key functions, and with CASCADE every keyed table''s index.';\n  \
         END IF;\n{comment}  \
         FOR {var}_obj IN\n    \
         SELECT 'type ' || t.oid::regtype::text AS what, t.typowner AS owner,\n           \
         t.typtype = 'd' AND t.typbasetype = 'text'::regtype::oid AS fits\n    \
         FROM pg_type t\n    \
         WHERE t.typnamespace = {var}_schema_oid AND t.typname IN ('urn', 'urn_key')\n    \
         UNION ALL\n    \
         SELECT 'function ' || p.oid::regprocedure::text, p.proowner, true\n    \
         FROM pg_proc p\n    \
         WHERE p.pronamespace = {var}_schema_oid\n      \
         AND p.proname IN ({names})\n    \
         ORDER BY 1\n  \
         LOOP\n    \
         IF NOT {var}_obj.fits THEN\n      \
         RAISE EXCEPTION '{who}: % (owner %) exists and is not urn-sql''s domain over text',\n        \
         {var}_obj.what, {var}_obj.owner::regrole\n        \
         USING ERRCODE = 'wrong_object_type',\n              \
         HINT = '{not_domain_hint}';\n    \
         ELSIF {var}_obj.owner <> (SELECT oid FROM pg_roles WHERE rolname = current_user) THEN\n      \
         RAISE EXCEPTION '{who}: % is owned by %, not by %, {owner}',\n        \
         {var}_obj.what, {var}_obj.owner::regrole, current_user\n        \
         USING ERRCODE = 'insufficient_privilege',\n              \
         HINT = {owner_hint};\n    \
         END IF;\n  \
         END LOOP;\n",
        who = w.who,
        refusing = w.refusing,
        runner = w.runner,
        schema_hint = w.schema_hint,
        comment = w.comment,
        names = function_names(),
        not_domain_hint = w.not_domain_hint,
        owner = w.owner,
        owner_hint = w.owner_hint,
    )
}

/// urn_pg's install script (`urn-pg/sql/urn_pg.sql`), rendered whole from its template
/// (`urn-pg/sql/urn_pg.template.sql`, read from the repository): the extension keeps the
/// portable `urn_key_index` bodies, which PostgreSQL inlines into the keyed tables' indexes.
pub(crate) fn render_urn_pg(template: &str) -> String {
    template
        .replacen("@@owner_check@@\n", &owner_check(&URN_PG), 1)
        .replacen("@@adopted_functions@@", &adopted_functions(), 1)
        .replacen("@@urn_key_index_urn_key@@\n", &urn_key_index(false), 1)
        .replacen("@@urn_key_index_text@@\n", &urn_key_index(true), 1)
}

/// The names of every function the portable install has made in any revision, a key function
/// and its inline form for each version of the rules (the installs refuse another role's
/// function of these names, and urn_pg adopts or drops them).
fn function_names_list() -> Vec<String> {
    let key_functions = KeyRules::VERSIONS
        .iter()
        .filter_map(|rules| rules.sql_function())
        .flat_map(|f| [f.to_owned(), format!("{f}_inline")]);
    ["urn_check", "urn_check_char", "urn_valid"]
        .into_iter()
        .map(str::to_owned)
        .chain(key_functions)
        .chain(
            [
                "urn_key_index",
                "urn_rfc8141_key",
                "urn_nid",
                "urn_nss",
                "urn_raise_check_violation",
                "urn_key_problem",
                "urn_domain_error",
                "urn_key_domain_error",
            ]
            .map(str::to_owned),
        )
        .collect()
}

/// The names of every function the portable install has made, as an SQL list, four to a line.
fn function_names() -> String {
    function_names_list()
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
    // A key function and its inline form per version of the rules, oldest first.
    let each_version = |function: fn(KeyRules) -> String| -> String {
        KeyRules::VERSIONS
            .iter()
            .map(|&rules| function(rules))
            .collect()
    };
    let parts: [(&str, String); 10] = [
        ("@@urn_check@@\n", check::urn_check()),
        (
            "@@key_functions@@\n",
            each_version(key_functions::key_function),
        ),
        (
            "@@key_inline_functions@@\n",
            each_version(key_functions::key_inline),
        ),
        ("@@urn_key_problem@@\n", urn_key_problem()),
        ("@@urn_syntax_check@@", urn_syntax_check()),
        ("@@urn_key_canonical_check@@", urn_key_canonical_check()),
        ("@@urn_key_index_urn_key@@\n", urn_key_index(false)),
        ("@@urn_key_index_text@@\n", urn_key_index(true)),
        ("@@owner_check@@\n", owner_check(&INSTALL)),
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

/// A pattern for an SQL literal: `'` doubled (the patterns of [`patterns::sql`] hold no
/// backslash, so `standard_conforming_strings` does not matter).
fn quoted(pattern: &str) -> String {
    pattern.replace('\'', "''")
}

/// The start of the domains' patterns: the scheme and the NID as `[A-Za-z0-9-]*[A-Za-z0-9]`,
/// its first character and length checked apart (fewer regex states), and its `:`.
fn urn_head() -> String {
    format!(
        "^{}{}*{}:",
        patterns::SCHEME,
        patterns::NID_CHAR,
        patterns::NID_EDGE
    )
}

/// The checks of a value's length and its NID's, as the domains write them before their
/// patterns: at most `DEFAULT_MAX_LEN` bytes, a NID of `min` (none: any) to
/// `NID_MAX_LEN` characters.
fn lengths(min: Option<usize>) -> String {
    let nid = "pg_catalog.octet_length(pg_catalog.split_part(VALUE, ':', 2))";
    let nid = match min {
        Some(min) => format!("{nid} BETWEEN {min} AND {}", patterns::NID_MAX_LEN),
        None => format!("{nid} <= {}", patterns::NID_MAX_LEN),
    };
    format!(
        "pg_catalog.octet_length(VALUE) <= {}\n                AND {nid}",
        urn_core::DEFAULT_MAX_LEN
    )
}

/// The `urn` domain's CHECK: each value meets the smallest grammar that decides it.
fn urn_syntax_check() -> String {
    use patterns::sql::{F_COMPONENT, F_COMPONENT_PLAIN, NSS, NSS_PLAIN, Q_COMPONENT, R_COMPONENT};
    let head = urn_head();
    let full = quoted(&format!(
        "{head}{NSS}{R_COMPONENT}{Q_COMPONENT}{F_COMPONENT}$"
    ));
    let no_r = quoted(&format!("{head}{NSS}{Q_COMPONENT}{F_COMPONENT}$"));
    let nss_only = quoted(&format!("{head}{NSS_PLAIN}$"));
    let with_f = quoted(&format!("{head}{NSS_PLAIN}{F_COMPONENT_PLAIN}$"));
    format!(
        r#"      CASE WHEN {lengths}
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
           ELSE urn_domain_error(VALUE) END"#,
        lengths = lengths(Some(urn_core::Syntax::Rfc8141.min_nid_len())),
    )
}

/// The `urn_key` domain's CHECK: the canonical key's pattern, without `%XX` where there is no
/// `%`.
fn urn_key_canonical_check() -> String {
    use patterns::sql::{KEY_NID_CHAR, KEY_NID_EDGE, KEY_NSS, NSS_PLAIN};
    let head = format!("^urn:{KEY_NID_EDGE}{KEY_NID_CHAR}*{KEY_NID_EDGE}:");
    format!(
        r#"      CASE WHEN {lengths}
                AND CASE WHEN pg_catalog.strpos(VALUE, '%') = 0
                  THEN VALUE COLLATE pg_catalog."C" ~ '{plain}'
                  ELSE VALUE COLLATE pg_catalog."C" ~ '{key}'
                  END
           THEN true
           ELSE urn_key_domain_error(VALUE) END"#,
        lengths = lengths(None),
        plain = quoted(&format!("{head}{NSS_PLAIN}$")),
        key = quoted(&format!("{head}{KEY_NSS}$")),
    )
}
