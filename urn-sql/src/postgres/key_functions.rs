//! The PostgreSQL key functions of each version of the key rules, `urn_key_v1(urn)`,
//! `urn_key_v2(urn)` (PL/pgSQL) and `urn_key_v1_inline(urn)`, `urn_key_v2_inline(urn)` (SQL
//! expressions PostgreSQL inlines into a keyed table's generated column), rendered from
//! urn-core's key-rule table ([`KnownNamespace::key_rule`]): every namespace arm, every list of
//! NIDs and every length the fast paths test comes from the table, so a namespace or a rule
//! added there reaches the SQL with no edit here (a new shape of rule, a new [`KeyRule`]
//! variant, is rendered here once). The portable migration holds the rendered text (a test
//! checks it byte for byte; `bash .ci/bless` writes it).
//!
//! Two fast paths are written by shape, not by namespace, and each is held to the table:
//! - A check-digit form whose weights alternate 1 and 3 towards its last character, modulus 10
//!   (an ISBN-13), sums its digits by reading them as hexadecimal nibbles
//!   ([`rule_sql::nibble_sum`], as MariaDB's key does) instead of thirteen `ascii(substr(…))`
//!   calls; measured at a third of the cost.
//! - `urn_key_v1_inline` and `urn_key_v2_inline` key such a form's common spellings
//!   (hyphenated, prefix as given) without a PL/pgSQL call.

use std::fmt::Write;

use urn_core::{CheckDigits, DigitForm, Hyphens, KeyRule, KeyRules, KnownNamespace};

use crate::rule_sql;

/// The namespaces with a rule under `rules`, in the table's order.
fn ruled(rules: KeyRules) -> impl Iterator<Item = (KnownNamespace, KeyRule)> {
    KnownNamespace::ALL
        .iter()
        .filter_map(move |&ns| ns.key_rule(rules).map(|rule| (ns, rule)))
}

/// The check-digit namespaces under `rules`.
fn check_digit_namespaces(rules: KeyRules) -> impl Iterator<Item = (KnownNamespace, CheckDigits)> {
    ruled(rules).filter_map(|(ns, rule)| match rule {
        KeyRule::CheckDigits(digits) => Some((ns, digits)),
        _ => None,
    })
}

/// The namespaces whose rule may change an NSS with no upper-case letter and no `%`
/// ([`KeyRule::lower_case_is_key`] false: check digits, upper case, separators), whose URNs the
/// fast paths send to the namespace arms.
fn not_lower_case_namespaces(rules: KeyRules) -> impl Iterator<Item = KnownNamespace> {
    ruled(rules).filter_map(|(ns, rule)| (!rule.lower_case_is_key()).then_some(ns))
}

/// `items` as an SQL list: `'a', 'b'` or `3, 4`.
fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>, quoted: bool) -> String {
    let items: Vec<String> = items
        .into_iter()
        .map(|item| {
            if quoted {
                format!("'{item}'")
            } else {
                item.to_string()
            }
        })
        .collect();
    items.join(", ")
}

/// The distinct lengths of the NIDs with a rule under `rules`, ascending.
fn rule_nid_lengths(rules: KeyRules) -> Vec<usize> {
    let mut lengths: Vec<usize> = ruled(rules).map(|(ns, _)| ns.nid().len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

/// The `urn:<nid>:` prefixes of the namespaces whose rule may change a lower-case NSS, grouped
/// by length (ascending).
fn not_lower_case_prefixes(rules: KeyRules) -> Vec<(usize, Vec<String>)> {
    let mut groups: Vec<(usize, Vec<String>)> = Vec::new();
    for ns in not_lower_case_namespaces(rules) {
        let prefix = format!("urn:{}:", ns.nid());
        match groups.iter_mut().find(|(len, _)| *len == prefix.len()) {
            Some((_, prefixes)) => prefixes.push(prefix),
            None => groups.push((prefix.len(), vec![prefix])),
        }
    }
    groups.sort_by_key(|(len, _)| *len);
    groups
}

/// A pattern of the table as an SQL literal of an anchored regular expression.
fn regex(when: &str) -> String {
    format!("'^(?:{})'", when.replace('\'', "''"))
}

/// One piece of a fixed-shape pattern: a class repeated `count` times, or a literal character.
enum Piece<'p> {
    Class { class: &'p str, count: usize },
    Literal(char),
}

/// Whether `c` is in the class `[…]`: urn-core's reader of its classes (a character outside
/// ASCII is in none).
fn in_class(class: &str, c: char) -> bool {
    u8::try_from(c).is_ok_and(|b| b.is_ascii() && urn_core::patterns::in_class(class, b))
}

/// `when` as a fixed shape, when it is one: classes with a count (`[0-9A-F]{8}`) and literal
/// characters, anchored at the end, every two classes apart by a literal neither holds (a
/// UUID). `None` for any other pattern.
fn fixed_shape(when: &str) -> Option<Vec<Piece<'_>>> {
    let body = when.strip_suffix('$')?;
    let mut pieces = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c == '[' {
            let end = rest.find(']')? + 1;
            let (class, after) = rest.split_at(end);
            if class.starts_with("[^") {
                return None;
            }
            let after = after.strip_prefix('{')?;
            let close = after.find('}')?;
            let count = after.get(..close)?.parse().ok()?;
            pieces.push(Piece::Class { class, count });
            rest = after.get(close + 1..)?;
        } else if c.is_ascii_alphanumeric() || c == '-' || c == ':' {
            pieces.push(Piece::Literal(c));
            rest = rest.get(c.len_utf8()..)?;
        } else {
            return None;
        }
    }
    // Between two classes, a literal neither class holds.
    let mut last_class: Option<&str> = None;
    let mut separated = true;
    for piece in &pieces {
        match piece {
            Piece::Class { class, .. } => {
                if last_class.is_some() && !separated {
                    return None;
                }
                last_class = Some(class);
                separated = false;
            }
            Piece::Literal(c) => {
                if last_class.is_some_and(|k| in_class(k, *c)) {
                    return None;
                }
                separated = true;
            }
        }
    }
    Some(pieces)
}

/// The condition that the NSS `nss` matches `when`. A fixed shape (a UUID) is tested as its
/// length, its literal characters by position and one regex with `+` for each count: PostgreSQL
/// builds a state per repetition of `{n}`, and this form (measured on upper-case UUIDs keyed by
/// `urn_key_v1`) costs about a fifth less; any other pattern is the regex itself.
fn matches(when: &str, nss: &str) -> String {
    let Some(pieces) = fixed_shape(when) else {
        return format!("{nss} COLLATE \"C\" ~ {}", regex(when));
    };
    let (mut len, mut tests, mut loose) = (0, Vec::new(), String::from("^"));
    for piece in &pieces {
        match piece {
            Piece::Class { class, count } => {
                len += count;
                loose.push_str(class);
                loose.push('+');
            }
            Piece::Literal(c) => {
                len += 1;
                tests.push(format!("substr({nss}, {len}, 1) = '{c}'"));
                loose.push(*c);
            }
        }
    }
    let mut condition = format!("length({nss}) = {len}");
    for test in tests {
        condition.push_str(" AND ");
        condition.push_str(&test);
    }
    format!("{condition}\n           AND {nss} COLLATE \"C\" ~ '{loose}$'")
}

/// How built-ins are written: plain in PL/pgSQL (which runs with its own search_path), or
/// `pg_catalog.`-qualified in an SQL-bodied function (bound where it is created).
#[derive(Clone, Copy)]
struct Names {
    qualified: bool,
}

impl Names {
    /// A built-in function's name.
    fn f(self, name: &str) -> String {
        if self.qualified {
            format!("pg_catalog.{name}")
        } else {
            name.to_owned()
        }
    }

    /// A built-in type's name (`bigint` in PL/pgSQL, `pg_catalog.int8` qualified).
    fn int8(self) -> &'static str {
        if self.qualified {
            "pg_catalog.int8"
        } else {
            "bigint"
        }
    }

    /// An integer literal of type bigint where the arithmetic needs both operands bigint.
    fn big(self, n: u32) -> String {
        if self.qualified {
            format!("{n}::pg_catalog.int8")
        } else {
            n.to_string()
        }
    }

    /// `COLLATE "C"`.
    fn c(self) -> &'static str {
        if self.qualified {
            "COLLATE pg_catalog.\"C\""
        } else {
            "COLLATE \"C\""
        }
    }
}

/// The condition that the characters `d` (an SQL expression, hyphens dropped, upper case,
/// known to have the form's length and characters) satisfy the form's check. `indent` starts
/// each continuation line.
fn check_sum(form: &DigitForm, d: &str, names: Names, indent: &str) -> String {
    let modulus = names.big(form.modulus);
    if rule_sql::nibble_sum(form) {
        let bits = 4 * form.len();
        let mask = format!("x'{}'::{}", rule_sql::nibble_mask(form), names.int8());
        let n = format!(
            "('x' || {d})::{}({bits})::{}",
            if names.qualified {
                "pg_catalog.bit"
            } else {
                "bit"
            },
            names.int8()
        );
        let m255 = names.big(255);
        let zero = if names.qualified {
            "0::pg_catalog.int8"
        } else {
            "0"
        };
        return format!(
            "((({n}\n{indent}   & {mask}) % {m255})\n\
             {indent}  + {three}\n\
             {indent}    * ((({n}\n\
             {indent}         >> 4) & {mask}) % {m255}))\n\
             {indent} % {modulus} = {zero}",
            three = names.big(3),
        );
    }
    // The characters' codes times their weights, the codes' offset ('0' is 48) taken out at
    // once, and 30 more per weight for an X (88 - 48 is 40, worth 10).
    let (ascii, substr, right) = (names.f("ascii"), names.f("substr"), names.f("right"));
    let mut terms: Vec<String> = form
        .weights
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let code = format!("{ascii}({substr}({d}, {}, 1))", i + 1);
            if w == 1 {
                code
            } else {
                format!("{w} * {code}")
            }
        })
        .collect();
    let total: u32 = form.weights.iter().sum();
    terms.push(format!("{total} * 48"));
    let mut sum = String::from("(");
    for (i, term) in terms.iter().enumerate() {
        match i {
            0 => {}
            _ if i + 1 == terms.len() => write!(sum, "\n{indent} - ").unwrap_or_default(),
            _ if i % 2 == 0 => write!(sum, "\n{indent} + ").unwrap_or_default(),
            _ => sum.push_str(" + "),
        }
        sum.push_str(term);
    }
    if form.x_last {
        let last = form.weights.last().copied().unwrap_or(1);
        write!(
            sum,
            " - CASE WHEN {right}({d}, 1) = 'X' THEN {} ELSE 0 END",
            30 * last
        )
        .unwrap_or_default();
    }
    write!(sum, ") % {} = 0", form.modulus).unwrap_or_default();
    sum
}

/// The pattern of a form's characters (the length is tested apart): its prefixes, digits, and
/// a last `X` where allowed.
fn form_regex(form: &DigitForm) -> String {
    let prefix = match form.prefixes {
        [] => String::new(),
        [one] => (*one).to_owned(),
        many => format!("(?:{})", many.join("|")),
    };
    let last = if form.x_last { "[0-9X]" } else { "" };
    format!("'^{prefix}[0-9]*{last}$'")
}

/// One arm of the first CASE of a key function (PL/pgSQL, variables `nss`, `k`): the key's
/// NSS by a rule that only changes letter case (skipped when the case is already the key's),
/// an LEI's or a DOI's, or for a check-digit rule the NSS when it is its own key whatever its
/// validity, and otherwise NULL (decided in the second step).
fn first_arm(rule: &KeyRule) -> String {
    match rule {
        KeyRule::Lower { when } => format!(
            "CASE\n\
             \x20     WHEN nss = lower(nss COLLATE \"C\") THEN nss\n\
             \x20     WHEN {}\n\
             \x20       THEN lower(nss COLLATE \"C\")\n\
             \x20     ELSE nss END",
            matches(when, "nss")
        ),
        KeyRule::LowerBefore { sep, when } => {
            let head = format!("left(nss, strpos(nss, '{sep}'))");
            format!(
                "CASE\n\
                 \x20     WHEN {head} = lower({head} COLLATE \"C\") THEN nss\n\
                 \x20     WHEN {}\n\
                 \x20       THEN lower({head} COLLATE \"C\") || substr(nss, strpos(nss, '{sep}') + 1)\n\
                 \x20     ELSE nss END",
                matches(when, "nss")
            )
        }
        KeyRule::CheckDigits(digits) => {
            let no_x = if digits.forms.iter().any(|f| f.x_last) {
                " AND strpos(nss, 'x') = 0"
            } else {
                ""
            };
            let lengths: Vec<usize> = digits.forms.iter().map(DigitForm::len).collect();
            let same_length = lengths.windows(2).all(|w| w.first() == w.last());
            match (digits.key_hyphen_after, digits.hyphens, lengths.first()) {
                // No hyphen in the key: an NSS without one (and without an `x`) is its key.
                (None, _, _) => format!("CASE WHEN strpos(nss, '-') = 0{no_x} THEN nss END"),
                // The key's one hyphen where the only one may stand: an NSS of the form's
                // length plus one is its key if valid, and the generic key if not.
                (Some(at), Hyphens::OptionalAfter { after }, Some(&len))
                    if at == after && same_length =>
                {
                    format!("CASE WHEN length(nss) = {}{no_x} THEN nss END", len + 1)
                }
                _ => "NULL".to_owned(),
            }
        }
        KeyRule::Mod97 { when } => format!(
            "CASE\n\
             \x20     WHEN {}\n\
             \x20          AND ({})::numeric % 97 = 1\n\
             \x20       THEN upper(nss COLLATE \"C\")\n\
             \x20     ELSE nss END",
            matches(when, "nss"),
            rule_sql::base36_digits("upper(nss COLLATE \"C\")", "replace"),
        ),
        KeyRule::Separated {
            when,
            separators,
            separator,
        } => {
            let prefix = format!("substring(nss COLLATE \"C\" from '^[^{separators}]*')");
            format!(
                "CASE\n\
                 \x20     WHEN {}\n\
                 \x20       THEN lower({prefix}) || '{separator}'\n\
                 \x20            || replace(lower(substr(nss, length({prefix}) + 2) COLLATE \"C\"), '{}', '{separator}')\n\
                 \x20     ELSE nss END",
                matches(when, "nss"),
                rule_sql::encoded(*separator),
            )
        }
        _ => "nss".to_owned(),
    }
}

/// One arm of the second step of a key function (variables `nss` and `d`, the NSS without
/// hyphens, upper case): the key's NSS when the check-digit identifier is valid, else the NSS.
fn second_arm(digits: &CheckDigits) -> String {
    let names = Names { qualified: false };
    let mut arm = String::from("CASE\n");
    let bad_hyphens = match digits.hyphens {
        Hyphens::Between { max } => format!(
            "left(nss, 1) = '-' OR right(nss, 1) = '-' OR strpos(nss, '--') > 0\n\
             \x20            OR length(nss) - length(d) > {max}"
        ),
        Hyphens::OptionalAfter { after } => format!(
            "strpos(nss, '-') NOT IN (0, {}) OR length(nss) - length(d) > 1",
            after + 1
        ),
        _ => "true".to_owned(),
    };
    writeln!(arm, "        WHEN {bad_hyphens}\n          THEN nss").unwrap_or_default();
    let key = match digits.key_hyphen_after {
        Some(at) => format!("left(d, {at}) || '-' || substr(d, {})", at + 1),
        None => "d".to_owned(),
    };
    for form in digits.forms {
        writeln!(
            arm,
            "        WHEN length(d) = {} AND d COLLATE \"C\" ~ {}\n\
             \x20            AND {}\n\
             \x20         THEN {key}",
            form.len(),
            form_regex(form),
            check_sum(form, "d", names, "                 "),
        )
        .unwrap_or_default();
    }
    arm.push_str("        ELSE nss END");
    arm
}

/// The end of each PL/pgSQL key that splits its NSS at the `%`s into `parts` (each piece but
/// the first starts with its two hex digits): the digits upper-cased and the key returned, one
/// pass however many there are (the key functions and `urn_rfc8141_key` in the template).
pub(crate) const JOIN_UPPER_HEX: &str = r#"  FOR i IN 2..array_length(parts, 1) LOOP
    parts[i] := upper(left(parts[i], 2) COLLATE "C") || substr(parts[i], 3);
  END LOOP;
  RETURN 'urn:' || nid || ':' || array_to_string(parts, '%');
"#;

/// `CREATE OR REPLACE FUNCTION urn_key_v1(u urn)` (or `urn_key_v2`, … for `rules`), as the
/// portable migration holds it.
pub(crate) fn key_function(rules: KeyRules) -> String {
    let join_upper_hex = JOIN_UPPER_HEX;
    let name = rules.sql_function().unwrap_or_default();
    let prefixes = not_lower_case_prefixes(rules)
        .iter()
        .map(|(len, prefixes)| format!(" AND left(u, {len}) NOT IN ({})", list(prefixes, true)))
        .collect::<String>();
    let lengths = list(rule_nid_lengths(rules), false);
    let mut first = String::new();
    for (ns, rule) in ruled(rules) {
        writeln!(first, "    WHEN '{}' THEN {}", ns.nid(), first_arm(&rule)).unwrap_or_default();
    }
    let mut second = String::new();
    for (ns, digits) in check_digit_namespaces(rules) {
        writeln!(
            second,
            "      WHEN '{}' THEN {}",
            ns.nid(),
            second_arm(&digits)
        )
        .unwrap_or_default();
    }
    format!(
        r#"CREATE OR REPLACE FUNCTION {name}(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid text;
  nss text;
  k   text;  -- the NSS of the key, before its %XX are upper-cased
  d   text;
  p   int;
  parts text[];  -- k split at its '%'s
BEGIN
  IF strpos(u, '%') = 0 AND strpos(u, '?') = 0 AND strpos(u, '#') = 0
     AND lower(u COLLATE "C") = u{prefixes} THEN
    RETURN u;
  END IF;
  nid := lower(split_part(u, ':', 2) COLLATE "C");
  -- The NSS ends at the first '?' or '#', which it cannot contain.
  nss := CASE WHEN strpos(u, '?') = 0 AND strpos(u, '#') = 0
           THEN substr(u, length(nid) + 6)
           ELSE split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1) END;
  -- The lengths of the NIDs with a rule: one test sends the others to the generic key.
  k := CASE WHEN length(nid) NOT IN ({lengths}) THEN nss ELSE CASE nid
{first}    ELSE nss END END;
  -- The common case: no %XX to upper-case.
  IF strpos(k, '%') = 0 THEN
    RETURN 'urn:' || nid || ':' || k;
  END IF;
  IF k IS NULL THEN
    -- A check-digit identifier whose key may differ from it. Valid (hyphens where allowed,
    -- X only as the last character where allowed, the check right): the key is its
    -- characters, X upper case; otherwise the generic key.
    d := upper(replace(nss, '-', '') COLLATE "C");
    k := CASE nid
{second}      ELSE nss END;
    IF strpos(k, '%') = 0 THEN
      RETURN 'urn:' || nid || ':' || k;
    END IF;
  END IF;
  -- RFC 8141 section 3: upper-case the two hex digits after every '%' (never decode).
  p := strpos(k, '%');
  -- One %XX (most such names): no loop.
  IF strpos(substr(k, p + 3), '%') = 0 THEN
    RETURN 'urn:' || nid || ':'
      || overlay(k PLACING upper(substr(k, p + 1, 2) COLLATE "C") FROM p + 1 FOR 2);
  END IF;
  -- More: split at the '%'s (each piece but the first starts with its two hex digits) and
  -- join again, one pass over the name however many there are (revision 3 rewrote the whole
  -- name per %XX: 22 s for 64 KiB of them).
  parts := string_to_array(k, '%');
{join_upper_hex}END
$fn$;
"#
    )
}

/// The inlined fast path for one check-digit namespace whose first fitting form takes the
/// nibble sum (an ISBN-13): its hyphenated spellings keyed by built-ins, the rest by the key
/// function `name`. `None` for a namespace without such a form.
fn inline_check_digits(ns: KnownNamespace, digits: &CheckDigits, name: &str) -> Option<String> {
    let Hyphens::Between { max } = digits.hyphens else {
        return None;
    };
    let form = digits.forms.iter().find(|f| rule_sql::nibble_sum(f))?;
    if digits.key_hyphen_after.is_some() || form.prefixes.is_empty() {
        return None;
    }
    let names = Names { qualified: true };
    let c = names.c();
    let prefix = format!("urn:{}:", ns.nid());
    let start = prefix.len() + 1;
    let (n, plen) = (form.len(), prefix.len());
    let prefix_len = form.prefixes.first().map_or(0, |p| p.len());
    if form.prefixes.iter().any(|p| p.len() != prefix_len) {
        return None;
    }
    let digits = format!("pg_catalog.replace(pg_catalog.substr(u, {start}), '-', '')");
    Some(format!(
        "CASE\n\
         \x20     WHEN pg_catalog.length(u) BETWEEN {min} AND {max_len} AND pg_catalog.strpos(u, '--') = 0\n\
         \x20          AND pg_catalog.right(u, 1) <> '-'\n\
         \x20          AND pg_catalog.substr(u, {start}) {c} ~ '^[0-9][0-9-]*$'\n\
         \x20          AND pg_catalog.length(pg_catalog.replace(u, '-', '')) = {min}\n\
         \x20          AND pg_catalog.substr(pg_catalog.replace(u, '-', ''), {start}, {prefix_len}) IN ({prefixes})\n\
         \x20          AND {sum}\n\
         \x20       THEN '{prefix}' || {digits}\n\
         \x20     ELSE {name}(u) END",
        min = plen + n,
        max_len = plen + n + max,
        prefixes = list(form.prefixes, true),
        sum = check_sum(form, &digits, names, "               "),
    ))
}

/// `CREATE OR REPLACE FUNCTION urn_key_v1_inline(u urn)` (or `urn_key_v2_inline`, … for
/// `rules`), as the portable migration holds it.
pub(crate) fn key_inline(rules: KeyRules) -> String {
    let name = rules.sql_function().unwrap_or_default();
    // Outside the namespaces sent to their arms first, every rule only lower-cases: a
    // lower-case NSS is its own key, and a NID of another length than a ruled one's takes the
    // generic key.
    let lengths = list(rule_nid_lengths(rules).iter().map(|len| len + 1), false);
    let rest = format!(
        r#"CASE
      WHEN pg_catalog.strpos(u, '%') = 0 THEN CASE
        WHEN pg_catalog.strpos(u, '?') = 0 AND pg_catalog.strpos(u, '#') = 0 THEN CASE
          WHEN pg_catalog.lower(u COLLATE pg_catalog."C") = u::pg_catalog.text THEN u::pg_catalog.text
          WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z]*$'
            THEN pg_catalog.lower(u COLLATE pg_catalog."C")
          WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN ({lengths})
            THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                  COLLATE pg_catalog."C")
                 || pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5)
          ELSE {name}(u) END
        WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z?#]*[?#]'
          THEN pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1)
        WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN ({lengths})
          THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                COLLATE pg_catalog."C")
               || pg_catalog.split_part(pg_catalog.split_part(
                    pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5), '?', 1), '#', 1)
        ELSE {name}(u) END
      WHEN u::pg_catalog.text COLLATE pg_catalog."C"
           ~ '^[^:]*:[^:]*:[^A-Z?#%]*%[0-9A-Fa-f][0-9A-Fa-f][^A-Z?#%]*([?#]|$)'
        THEN pg_catalog.overlay(
               pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1),
               pg_catalog.upper(pg_catalog.substr(u, pg_catalog.strpos(u, '%') + 1, 2) COLLATE pg_catalog."C"),
               pg_catalog.strpos(u, '%') + 1, 2)
      ELSE {name}(u) END"#
    );
    // The namespaces whose rule changes a lower-case NSS first: one simple CASE on the
    // shortest of their prefixes' lengths, so that each row lower-cases one prefix (a CASE per
    // length cost every row one more `lower(left(u, n))`). A longer prefix's arm checks its
    // remaining characters; a URN whose NID only starts like a ruled one (`urn:isbnx:`) goes to
    // the key function, which keys anything. Each arm: a check-digit namespace's fast path, or
    // the key function.
    let call = format!("{name}(u)");
    let prefixes: Vec<String> = not_lower_case_prefixes(rules)
        .into_iter()
        .flat_map(|(_, prefixes)| prefixes)
        .collect();
    let body = match prefixes.iter().map(String::len).min() {
        None => rest,
        Some(short) => {
            // (prefix's first `short` characters, [(its remaining characters, its arm)]).
            let mut arms: Vec<(&str, Vec<(&str, String)>)> = Vec::new();
            for prefix in &prefixes {
                let fast = check_digit_namespaces(rules)
                    .find(|(ns, _)| format!("urn:{}:", ns.nid()) == *prefix)
                    .and_then(|(ns, digits)| inline_check_digits(ns, &digits, name));
                let arm = fast.unwrap_or_else(|| call.clone());
                let (head, tail) = prefix.split_at(short);
                match arms.iter_mut().find(|(h, _)| *h == head) {
                    Some((_, members)) => members.push((tail, arm)),
                    None => arms.push((head, vec![(tail, arm)])),
                }
            }
            let mut text = String::new();
            for (head, members) in &arms {
                let arm = match members.as_slice() {
                    [("", arm)] => arm.clone(),
                    _ if members.iter().all(|(_, arm)| *arm == call) => call.clone(),
                    _ => {
                        let mut inner = String::from("CASE");
                        for (tail, arm) in members {
                            let at = short + 1;
                            let len = tail.len();
                            // A tail of the NID's last characters and its ':'; letters in any case.
                            let tail_of_u = if tail.bytes().any(|b| b.is_ascii_alphabetic()) {
                                format!(
                                    "pg_catalog.lower(pg_catalog.substr(u, {at}, {len}) COLLATE pg_catalog.\"C\")"
                                )
                            } else {
                                format!("pg_catalog.substr(u, {at}, {len})")
                            };
                            write!(inner, "\n      WHEN {tail_of_u} = '{tail}' THEN {arm}")
                                .unwrap_or_default();
                        }
                        write!(inner, "\n      ELSE {call} END").unwrap_or_default();
                        inner
                    }
                };
                writeln!(text, "    WHEN '{head}' THEN {arm}").unwrap_or_default();
            }
            format!(
                "CASE pg_catalog.lower(pg_catalog.left(u, {short}) COLLATE pg_catalog.\"C\")\n\
                 {text}    ELSE {rest} END"
            )
        }
    };
    format!(
        "CREATE OR REPLACE FUNCTION {name}_inline(u urn) RETURNS pg_catalog.text\n  \
         LANGUAGE sql IMMUTABLE PARALLEL SAFE\n  \
         RETURN {body};\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed shape is tested by length, positions and a loose regex only where that is the
    /// same language: classes with counts, apart by literals no class holds.
    #[test]
    fn fixed_shapes_are_recognised_only_where_they_are_exact() {
        let uuid = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$";
        assert_eq!(fixed_shape(uuid).map(|p| p.len()), Some(9));
        for not_fixed in [
            "[a-z]{2}[0-9]{3}$",        // two classes with nothing between
            "[0-9-]{2}-[0-9]{3}$",      // the literal is in the class
            "[0-9]{2}-[0-9]{3}",        // not anchored at the end
            "[A-Za-z][A-Za-z0-9.-]*:.", // not counts
            "(?:[0-9]{2}|[a-z]{3})$",   // alternatives
        ] {
            assert!(fixed_shape(not_fixed).is_none(), "{not_fixed}");
        }
        assert_eq!(
            matches("[0-9]{2}-[a-f]{3}$", "n"),
            "length(n) = 6 AND substr(n, 3, 1) = '-'\n           AND n COLLATE \"C\" ~ '^[0-9]+-[a-f]+$'"
        );
    }
}
