//! MariaDB renderings: the canonical key as one expression of built-in functions (a keyed
//! table's generated column and the body of `urn_key_v1`: the same text in both, so they
//! cannot disagree), its namespace arms rendered from urn-core's key-rule table
//! ([`KnownNamespace::key_rule`]), and the check that finds the parser's message for a value
//! (the body of `urn_check`, `urn_refuse` and the keyed tables' triggers).
//!
//! Why an expression: MariaDB refuses a stored function in a generated column (ERROR 1901),
//! and a routine compiles each regular expression it evaluates again on every call (what an
//! ad-hoc call costs: BENCHMARKS.md, MariaDB), while a generated column's expressions are
//! compiled once, when the table is opened. No name in it is looked up: only
//! built-ins, which no user can replace.
//!
//! Every regular expression starts with `(?-imsxU)`: `default_regex_flags` (a session
//! setting, in force where the expression is compiled) cannot make one case-blind,
//! multi-line, extended or lazy. No literal holds a backslash (`NO_BACKSLASH_ESCAPES` would
//! change its meaning). The comparisons that case could change compare bytes
//! (`CAST(… AS BINARY)`), so even a column declared with a case-insensitive collation gets
//! exact keys. The `%XX` pass runs on bytes too: `REGEXP_REPLACE` on utf8mb4 text costs time
//! quadratic in the length, on a binary string linear (BENCHMARKS.md, MariaDB;
//! `long_keys_are_linear`).

use std::fmt::Write;

use urn_core::{CheckDigits, DigitForm, Hyphens, KeyRule, KnownNamespace, patterns};

/// urn-core's URN pattern as MariaDB's PCRE2 takes it in an SQL literal: flags reset, `\?`
/// and `\+` as classes.
pub(crate) fn urn_regex() -> String {
    regex(
        &patterns::URN
            .replacen('^', "", 1)
            .replace("\\?", "[?]")
            .replace("\\+", "[+]"),
    )
}

/// `pattern` with the flags reset, anchored at the start, quoted for SQL.
fn regex(pattern: &str) -> String {
    format!("'^(?-imsxU){}'", pattern.replace('\'', "''"))
}

/// The check-digit namespaces' `urn:<nid>:` prefixes, grouped by length: their keys drop or
/// add hyphens and upper-case an `x`, so a lower-case URN of theirs is not its own key.
fn check_digit_prefixes() -> Vec<(usize, Vec<String>)> {
    let mut groups: Vec<(usize, Vec<String>)> = Vec::new();
    for &ns in KnownNamespace::ALL {
        if let Some(KeyRule::CheckDigits(_)) = ns.key_rule() {
            let prefix = format!("'urn:{}:'", ns.nid());
            let len = prefix.len() - 2;
            match groups.iter_mut().find(|(l, _)| *l == len) {
                Some((_, prefixes)) => prefixes.push(prefix),
                None => groups.push((len, vec![prefix])),
            }
        }
    }
    groups
}

/// The key of `u` (an SQL expression: a column or a parameter): `NULL` when `u` is `NULL` or
/// not a valid RFC 8141 URN of at most 65,536 bytes, exactly urn_core's `Urn::key()` under
/// `KeyRules::V1` otherwise. `indent` starts every line after the first.
pub(crate) fn key(u: &str, indent: &str) -> String {
    let nid = format!("LOWER(SUBSTRING_INDEX(SUBSTRING({u}, 5), ':', 1))");
    // The NSS runs from the ':' after the NID to the first '?' or '#', which it cannot hold.
    let nss = format!(
        "SUBSTRING_INDEX(SUBSTRING_INDEX(SUBSTRING({u}, LOCATE(':', {u}, 5) + 1), '?', 1), '#', 1)"
    );
    let rule = namespace_rule(&nid, &nss, &format!("{indent}      "));
    let not_check_digits: String = check_digit_prefixes()
        .iter()
        .map(|(len, prefixes)| {
            format!(
                "\n{indent}       AND CAST(LEFT({u}, {len}) AS BINARY) NOT IN ({})",
                prefixes.join(", ")
            )
        })
        .collect();
    format!(
        "CASE\n\
         {indent}  WHEN NOT (OCTET_LENGTH({u}) <= 65536 AND LOCATE(CHAR(10 USING utf8mb4), {u}) = 0\n\
         {indent}            AND {u} REGEXP {urn}) THEN NULL\n\
         {indent}  WHEN LOCATE('%', {u}) = 0 AND LOCATE('?', {u}) = 0 AND LOCATE('#', {u}) = 0\n\
         {indent}       AND CAST(LOWER({u}) AS BINARY) = CAST({u} AS BINARY){not_check_digits} THEN {u}\n\
         {indent}  ELSE CONCAT('urn:', {nid}, ':', CONVERT({hex} USING ascii))\n\
         {indent}END",
        urn = urn_regex(),
        hex = upper_case_hex(&format!("CAST({rule} AS BINARY)")),
    )
}

/// `bytes` (a binary string) with the hex digits of every `%XX` in upper case (RFC 8141
/// section 3): per letter, one replacement of the letter right after a '%', or after a '%' and
/// a hex digit.
fn upper_case_hex(bytes: &str) -> String {
    ['a', 'b', 'c', 'd', 'e', 'f']
        .iter()
        .fold(bytes.to_owned(), |inner, letter| {
            format!(
                "REGEXP_REPLACE({inner}, '(?-imsxU)(?<=%|%[0-9A-Fa-f]){letter}', '{}')",
                letter.to_ascii_uppercase()
            )
        })
}

/// The NSS by the V1 rule of the namespace `nid` (in lower case) names; other namespaces keep
/// it as it is.
fn namespace_rule(nid: &str, nss: &str, indent: &str) -> String {
    let mut out = format!("CASE {nid}");
    for &ns in KnownNamespace::ALL {
        let Some(rule) = ns.key_rule() else {
            continue;
        };
        let arm = match rule {
            KeyRule::Lower { when } => format!(
                "IF({nss} REGEXP {}, LOWER({nss}), {nss})",
                regex(&format!("(?:{when})"))
            ),
            KeyRule::LowerBefore { sep, when } => format!(
                "IF({nss} REGEXP {}, CONCAT(LOWER(SUBSTRING_INDEX({nss}, '{sep}', 1)), '{sep}', \
                 SUBSTRING({nss}, LOCATE('{sep}', {nss}) + 1)), {nss})",
                regex(&format!("(?:{when})"))
            ),
            KeyRule::CheckDigits(digits) => check_digits(&digits, nss, indent),
            _ => continue,
        };
        write!(out, "\n{indent}  WHEN '{}' THEN {arm}", ns.nid()).unwrap_or_default();
    }
    write!(out, "\n{indent}  ELSE {nss}\n{indent}END").unwrap_or_default();
    out
}

/// A check-digit rule: the characters (hyphens dropped, `X` upper case), with the key's
/// hyphen, when the hyphens stand where allowed and a form's check holds; otherwise the NSS.
fn check_digits(rule: &CheckDigits, nss: &str, indent: &str) -> String {
    let digits = format!("UPPER(REPLACE({nss}, '-', ''))");
    let hyphens = format!("CHAR_LENGTH({nss}) - CHAR_LENGTH({digits})");
    let hyphens_ok = match rule.hyphens {
        Hyphens::Between { max } => format!(
            "LEFT({nss}, 1) <> '-' AND RIGHT({nss}, 1) <> '-' AND LOCATE('--', {nss}) = 0\n\
             {indent}     AND {hyphens} <= {max}"
        ),
        Hyphens::OptionalAfter { after } => format!(
            "LOCATE('-', {nss}) IN (0, {}) AND {hyphens} <= 1",
            after + 1
        ),
        _ => "FALSE".to_owned(),
    };
    let forms: Vec<String> = rule
        .forms
        .iter()
        .map(|form| form_check(form, &digits))
        .collect();
    let key = match rule.key_hyphen_after {
        Some(at) => format!(
            "CONCAT(LEFT({digits}, {at}), '-', SUBSTRING({digits}, {}))",
            at + 1
        ),
        None => digits.clone(),
    };
    format!(
        "IF({hyphens_ok}\n\
         {indent}     AND ({}),\n\
         {indent}   {key}, {nss})",
        forms.join(&format!("\n{indent}          OR "))
    )
}

/// Whether the characters `digits` have `form`: its length, its prefix, digits (a last `X`
/// where allowed), and the weighted sum of their values (`X` is 10) a multiple of the modulus.
fn form_check(form: &DigitForm, digits: &str) -> String {
    let n = form.len();
    let prefix_len = form.prefixes.first().map_or(0, |p| p.len());
    let prefix = match form.prefixes {
        [] => String::new(),
        [one] => (*one).to_owned(),
        many => format!("(?:{})", many.join("|")),
    };
    let (count, last) = if form.x_last {
        (n.saturating_sub(prefix_len + 1), "[0-9X]")
    } else {
        (n.saturating_sub(prefix_len), "")
    };
    let value = |i: usize| format!("(ASCII(SUBSTRING({digits}, {i}, 1)) - 48)");
    let terms: Vec<String> = form
        .weights
        .iter()
        .enumerate()
        .map(|(at, w)| {
            let i = at + 1;
            if form.x_last && i == n {
                format!(
                    "{w} * IF(SUBSTRING({digits}, {i}, 1) = 'X', 10, {})",
                    value(i)
                )
            } else {
                format!("{w} * {}", value(i))
            }
        })
        .collect();
    format!(
        "CHAR_LENGTH({digits}) = {n} AND {digits} REGEXP {}\n\
         AND MOD({}, {}) = 0",
        regex(&format!("{prefix}[0-9]{{{count}}}{last}$")),
        terms.join(" + "),
        form.modulus
    )
}

/// Where [`check_block`] keeps its state.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variables {
    /// Local variables, declared in the block (a routine; the migration's routines are
    /// rendered by a test).
    #[cfg_attr(not(test), allow(dead_code))]
    Local,
    /// Session variables named `@urn_sql_…` (a trigger: MariaDB makes every local variable of a
    /// trigger anew on each row it fires for, which cost ~7.7 µs a row in a bulk load even
    /// when the check does not run; session variables cost nothing until it does).
    Session,
}

/// The check of text `v` (an SQL expression) as statements: leaves `problem` (a variable) NULL
/// for a valid RFC 8141 URN (or NULL), and sets it to urn_core's message for anything else,
/// the same rule and byte offset as `Urn::parse`. A port of the parser's single pass in which
/// regular expressions consume each component's longest valid prefix; every character before
/// an error is ASCII, so character position p is byte p - 1. `for_signal`: a character above
/// U+FFFF is shown as `\u{…}` (a message raised by SIGNAL is utf8mb3, which cannot hold it);
/// otherwise as itself. Every line is indented by `indent`.
pub(crate) fn check_block(
    v: &str,
    problem: &str,
    variables: Variables,
    for_signal: bool,
    indent: &str,
) -> String {
    let name = |local: &str| match variables {
        Variables::Local => local.to_owned(),
        Variables::Session => format!("@urn_sql_{local}"),
    };
    let (nid, comp, body, c, p, cp) = (
        name("nid"),
        name("comp"),
        name("body"),
        name("c"),
        name("p"),
        name("cp"),
    );
    let declare = match variables {
        Variables::Local => {
            "  DECLARE nid LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;\n  \
             DECLARE comp VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin DEFAULT 'NSS';\n  \
             DECLARE body VARCHAR(200) CHARACTER SET ascii COLLATE ascii_bin;\n  \
             DECLARE c VARCHAR(1) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;\n  \
             DECLARE p BIGINT DEFAULT 1;\n  \
             DECLARE cp BIGINT;"
                .to_owned()
        }
        Variables::Session => format!(
            "  SET {problem} = NULL, {nid} = NULL, {comp} = 'NSS', {body} = NULL, {c} = NULL, \
             {p} = 1, {cp} = NULL;"
        ),
    };
    let wide = if for_signal {
        format!(" OR {cp} > 65535")
    } else {
        String::new()
    };
    let text = format!(
        r#"check_urn: BEGIN
{declare}
  IF {v} IS NULL THEN
    LEAVE check_urn;
  END IF;
  IF OCTET_LENGTH({v}) > 65536 THEN
    SET {problem} = 'invalid URN: longer than the maximum of 65536 bytes (byte 65536)';
    LEAVE check_urn;
  END IF;
  WHILE {p} <= 4 DO
    SET {c} = SUBSTRING({v}, {p}, 1);
    IF {c} = '' OR LOWER({c}) <> SUBSTRING('urn:', {p}, 1) THEN
      SET {problem} = CONCAT('invalid URN: expected ''urn:'' at byte ', {p} - 1);
      LEAVE check_urn;
    END IF;
    SET {p} = {p} + 1;
  END WHILE;
  -- Leaving this block: character {c} at position {p} is not allowed in {comp}.
  scan: BEGIN
    SET {nid} = REGEXP_SUBSTR(SUBSTRING({v}, 5), '^(?-imsxU)[A-Za-z0-9-]*');
    SET {p} = 5 + CHAR_LENGTH({nid});
    SET {c} = SUBSTRING({v}, {p}, 1);
    IF CHAR_LENGTH({nid}) > 32 THEN
      SET {problem} = CONCAT('invalid URN: NID of ', CHAR_LENGTH({nid}), ' characters at byte 4: it must have 2 to 32');
    ELSEIF {c} = '' THEN
      SET {problem} = CONCAT('invalid URN: the NID must be followed by '':'' (byte ', {p} - 1, ')');
    ELSEIF {c} <> ':' THEN
      SET {comp} = 'NID';
      LEAVE scan;
    ELSEIF LEFT({nid}, 1) = '-' THEN
      SET {problem} = 'invalid URN: ''-'' at byte 4 cannot start the NID';
    ELSEIF CHAR_LENGTH({nid}) < 2 THEN
      SET {problem} = CONCAT('invalid URN: NID of ', CHAR_LENGTH({nid}), ' character',
                             IF(CHAR_LENGTH({nid}) = 1, '', 's'), ' at byte 4: it must have 2 to 32');
    ELSEIF RIGHT({nid}, 1) = '-' THEN
      SET {problem} = CONCAT('invalid URN: ''-'' at byte ', {p} - 2, ' cannot end the NID');
    END IF;
    IF {problem} IS NOT NULL THEN
      LEAVE check_urn;
    END IF;
    SET {p} = {p} + 1;
    -- The NSS, then each component that follows: ?+r, ?=q, #f.
    components: LOOP
      SET {c} = SUBSTRING({v}, {p}, 1);
      IF {comp} <> 'f-component' THEN
        IF {c} = '' OR {c} = '#' OR ({c} = '?' AND {comp} = 'NSS')
           OR ({c} = '?' AND {comp} = 'r-component' AND SUBSTRING({v}, {p} + 1, 1) = '=') THEN
          SET {problem} = CONCAT('invalid URN: the ', {comp}, ' at byte ', {p} - 1, ' is empty');
          LEAVE check_urn;
        ELSEIF {c} IN ('/', '?') THEN
          SET {problem} = CONCAT('invalid URN: ''', {c}, ''' at byte ', {p} - 1, ' cannot start the ', {comp});
          LEAVE check_urn;
        END IF;
      END IF;
      SET {body} = CASE {comp}
        WHEN 'NSS' THEN '^(?-imsxU)(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*'
        WHEN 'r-component' THEN '^(?-imsxU)(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f]|[?](?!=))*'
        ELSE '^(?-imsxU)(?:[/?A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*' END;
      SET {p} = {p} + CHAR_LENGTH(REGEXP_SUBSTR(SUBSTRING({v}, {p}), {body}));
      SET {c} = SUBSTRING({v}, {p}, 1);
      IF {c} = '%' THEN
        SET {problem} = CONCAT('invalid URN: ''%'' at byte ', {p} - 1, ' in the ', {comp},
                               ' must be followed by two hex digits');
        LEAVE check_urn;
      ELSEIF {c} = '' THEN
        LEAVE check_urn;
      ELSEIF {c} = '#' AND {comp} <> 'f-component' THEN
        SET {comp} = 'f-component';
        SET {p} = {p} + 1;
      ELSEIF {c} = '?' AND {comp} = 'NSS' AND SUBSTRING({v}, {p} + 1, 1) = '+' THEN
        SET {comp} = 'r-component';
        SET {p} = {p} + 2;
      ELSEIF {c} = '?' AND {comp} IN ('NSS', 'r-component') AND SUBSTRING({v}, {p} + 1, 1) = '=' THEN
        SET {comp} = 'q-component';
        SET {p} = {p} + 2;
      ELSEIF {c} = '?' AND {comp} = 'NSS' THEN
        SET {problem} = CONCAT('invalid URN: ''?'' at byte ', {p} - 1, ' must be followed by ''+'' or ''=''');
        LEAVE check_urn;
      ELSE
        LEAVE scan;
      END IF;
    END LOOP components;
  END scan;
  -- The character as urn_core's messages show it (Rust's char::escape_debug for the
  -- characters a URN check meets).
  SET {cp} = CONV(HEX(CONVERT({c} USING utf32)), 16, 10);
  SET {problem} = CONCAT('invalid URN: ''',
    CASE
      WHEN {cp} = 0 THEN CONCAT(CHAR(92 USING utf8mb4), '0')
      WHEN {cp} = 9 THEN CONCAT(CHAR(92 USING utf8mb4), 't')
      WHEN {cp} = 13 THEN CONCAT(CHAR(92 USING utf8mb4), 'r')
      WHEN {cp} = 10 THEN CONCAT(CHAR(92 USING utf8mb4), 'n')
      WHEN {cp} = 92 THEN CONCAT(CHAR(92 USING utf8mb4), CHAR(92 USING utf8mb4))
      WHEN {cp} = 39 THEN CONCAT(CHAR(92 USING utf8mb4), '''')
      WHEN {cp} = 34 THEN CONCAT(CHAR(92 USING utf8mb4), '"')
      WHEN {cp} < 32 OR {cp} BETWEEN 127 AND 159 OR {cp} = 173 OR {cp} BETWEEN 768 AND 879
        OR {cp} BETWEEN 8203 AND 8207 OR {cp} BETWEEN 8232 AND 8238 OR {cp} BETWEEN 8288 AND 8292
        OR {cp} = 65279 OR {cp} IN (160, 5760, 8239, 8287, 12288) OR {cp} BETWEEN 8192 AND 8202{wide}
        THEN CONCAT(CHAR(92 USING utf8mb4), 'u{{', LOWER(CONV({cp}, 10, 16)), '}}')
      ELSE {c} END,
    ''' at byte ', {p} - 1, ' is not allowed in the ', {comp});
END check_urn;"#
    );
    text.lines()
        .map(|line| format!("{indent}{line}\n"))
        .collect()
}
