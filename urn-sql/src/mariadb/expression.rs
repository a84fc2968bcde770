//! MariaDB renderings: the canonical key under a version of the key rules as one expression of
//! built-in functions (a keyed table's generated column; the bodies of `urn_key_v1` and
//! `urn_key_v2` are its pieces as statements: the same text in both), its namespace arms rendered
//! from urn-core's key-rule table
//! ([`KnownNamespace::key_rule`]), and the check that finds the parser's message for a value
//! (the body of `urn_check`, `urn_refuse` and the keyed tables' triggers).
//!
//! Why an expression: MariaDB refuses a stored function in a generated column (ERROR 1901),
//! and a routine prepares each expression it runs again on every call, compiling its regular
//! expressions (what an ad-hoc call costs: BENCHMARKS.md, MariaDB), while a generated column's
//! expressions are compiled once, when the table is opened. No name in it is looked up: only
//! built-ins, which no user can replace.
//!
//! Every regular expression starts with `(?-imsxU)`: `default_regex_flags` (a session
//! setting, in force where the expression is compiled) cannot make one case-blind,
//! multi-line, extended or lazy. No literal holds a backslash (`NO_BACKSLASH_ESCAPES` would
//! change its meaning). The comparisons that case could change compare bytes
//! (`CAST(… AS BINARY)`), so even a column declared with a case-insensitive collation gets
//! exact keys. The `%XX` pass runs on bytes too: `REGEXP_REPLACE` on utf8mb4 text costs time
//! quadratic in the length, on a binary string linear (the test `long_keys_are_linear`).

use std::fmt::Write;

use urn_core::{
    CheckDigits, Component, DigitForm, ErrorKind, Hyphens, KeyRule, KeyRules, KnownNamespace,
    patterns,
};

use crate::message::{self, Join};
use crate::rule_sql;

/// urn-core's URN pattern as MariaDB's PCRE2 takes it in an SQL literal: flags reset, in the
/// spelling without backslashes ([`patterns::sql::URN`]).
pub(crate) fn urn_regex() -> String {
    regex(
        patterns::sql::URN
            .strip_prefix('^')
            .unwrap_or(patterns::sql::URN),
    )
}

/// `pattern` with the flags reset, anchored at the start, quoted for SQL.
fn regex(pattern: &str) -> String {
    format!("'^(?-imsxU){}'", pattern.replace('\'', "''"))
}

/// The `'urn:<nid>'` literals of the namespaces whose rule under `rules` may change a
/// lower-case NSS ([`KeyRule::lower_case_is_key`] false: check digits drop or add hyphens and
/// upper-case an `x`, an LEI is upper case, a DOI's `:` becomes `/`), joined for one `IN`: a
/// lower-case URN of theirs is not always its own key.
fn not_lower_case_prefixes(rules: KeyRules) -> String {
    let prefixes: Vec<String> = KnownNamespace::ALL
        .iter()
        .filter(|ns| {
            ns.key_rule(rules)
                .is_some_and(|rule| !rule.lower_case_is_key())
        })
        .map(|ns| format!("_binary'urn:{}'", ns.nid()))
        .collect();
    prefixes.join(", ")
}

/// The pieces of the key of `u` (an SQL expression: a column or a parameter) under `rules`,
/// which [`key`] puts together as one expression and [`key_statements`] as a routine's
/// statements: the same text in both.
struct KeyParts {
    /// Whether `u` is a valid RFC 8141 URN of at most 65,536 bytes (NULL for a NULL `u`).
    valid: String,
    /// Whether `u` (valid) is its own key: no `%XX`, no r-, q- or f-component, no upper case,
    /// and not of a namespace whose rule may change a lower-case NSS.
    own_key: String,
    /// The NID in lower case.
    nid: String,
    /// The NSS.
    nss: String,
    /// Each namespace with a rule under `rules`: its NID and its NSS by that rule.
    arms: Vec<(&'static str, String)>,
}

impl KeyParts {
    /// `indent` starts every line after the first of each piece.
    fn new(u: &str, rules: KeyRules, indent: &str) -> KeyParts {
        // `u`'s bytes, for the searches: a valid URN is ASCII, so a byte's position is its
        // character's, and the newline refused before is one byte in UTF-8. LOCATE and
        // SUBSTRING_INDEX on bytes skip utf8mb4's walk through the characters (a LOCATE costs
        // a third as much). Case mappings keep to the text: on bytes they change nothing. What
        // is compared with bytes is written `_binary'…'`: a plain literal is text of the
        // connection's character set where a routine is created, and in UCS-2 a '%' is two
        // bytes that no URN holds.
        let bytes = format!("CAST({u} AS BINARY)");
        let nss = nss(u, &format!("LOCATE(_binary':', {bytes}, 5) + 1"));
        // One `IN` of every such prefix, whatever their lengths: V2's doi and lei add no
        // comparison of their own.
        let prefixes = not_lower_case_prefixes(rules);
        let not_check_digits = if prefixes.is_empty() {
            String::new()
        } else {
            format!(
                "\n{indent}       AND SUBSTRING_INDEX({bytes}, _binary':', 2) NOT IN ({prefixes})"
            )
        };
        KeyParts {
            valid: format!(
                "OCTET_LENGTH({u}) <= {} AND LOCATE(CHAR(10), {bytes}) = 0\n\
                 {indent}            AND {u} REGEXP {}",
                urn_core::DEFAULT_MAX_LEN,
                urn_regex()
            ),
            own_key: format!(
                "LOCATE(_binary'%', {bytes}) = 0 AND LOCATE(_binary'?', {bytes}) = 0\n\
                 {indent}       AND LOCATE(_binary'#', {bytes}) = 0\n\
                 {indent}       AND CAST(LOWER({u}) AS BINARY) = {bytes}{not_check_digits}"
            ),
            nid: format!("LOWER(SUBSTRING_INDEX(SUBSTRING({u}, 5), ':', 1))"),
            arms: namespace_arms(u, rules, &format!("{indent}      ")),
            nss,
        }
    }

    /// The key of a URN that is not its own key, from `rule` (its NSS by its namespace's
    /// rule).
    fn key_from_rule(&self, rule: &str) -> String {
        format!(
            "CONCAT('urn:', {}, ':', CONVERT({} USING ascii))",
            self.nid,
            upper_case_hex(&format!("CAST({rule} AS BINARY)"))
        )
    }
}

/// The key of `u` (an SQL expression: a column or a parameter): `NULL` when `u` is `NULL` or
/// not a valid RFC 8141 URN of at most 65,536 bytes, exactly urn_core's `Urn::key_with(rules)`
/// otherwise. `indent` starts every line after the first.
pub(crate) fn key(u: &str, rules: KeyRules, indent: &str) -> String {
    let parts = KeyParts::new(u, rules, indent);
    let arm_indent = format!("{indent}      ");
    let mut rule = format!("CASE {}", parts.nid);
    for (nid, arm) in &parts.arms {
        write!(rule, "\n{arm_indent}  WHEN '{nid}' THEN {arm}").unwrap_or_default();
    }
    write!(rule, "\n{arm_indent}  ELSE {}\n{arm_indent}END", parts.nss).unwrap_or_default();
    format!(
        "CASE\n\
         {indent}  WHEN NOT ({}) THEN NULL\n\
         {indent}  WHEN {} THEN {u}\n\
         {indent}  ELSE {}\n\
         {indent}END",
        parts.valid,
        parts.own_key,
        parts.key_from_rule(&rule),
    )
}

/// What [`key`] computes, as a routine's statements that set the variable `k` (of the
/// routine's key type) and use `r` (of `u`'s type) on the way: the same pieces, with the
/// namespace's rule chosen by a `CASE` statement. MariaDB prepares a routine's expressions
/// (and compiles their regular expressions) on every call, a statement's only when it runs:
/// so a call prepares the rule of its URN's namespace alone, not every namespace's
/// (BENCHMARKS.md, MariaDB). `indent` starts every line. (The install script is rendered by a
/// test.)
#[cfg(test)]
pub(crate) fn key_statements(u: &str, rules: KeyRules, indent: &str) -> String {
    let inner = format!("{indent}  ");
    let parts = KeyParts::new(u, rules, indent);
    // A namespace without a rule is told by one `IN`, not by passing every `WHEN` statement:
    // a namespace added to the table adds none for its URNs. The `CASE` needs no `ELSE`: the
    // `IN` found its arm.
    let keep_nss = format!("SET r = {};", parts.nss);
    let rule = if parts.arms.is_empty() {
        format!("{inner}{keep_nss}\n")
    } else {
        let nids: Vec<String> = parts
            .arms
            .iter()
            .map(|(nid, _)| format!("'{nid}'"))
            .collect();
        let arms: String = parts
            .arms
            .iter()
            .map(|(nid, arm)| {
                format!("{inner}    WHEN '{nid}' THEN\n{inner}      SET r = {arm};\n")
            })
            .collect();
        format!(
            "{inner}IF {nid} IN ({}) THEN\n{inner}  CASE {nid}\n{arms}{inner}  END CASE;\n\
             {inner}ELSE\n{inner}  {keep_nss}\n{inner}END IF;\n",
            nids.join(", "),
            nid = parts.nid,
        )
    };
    format!(
        "{indent}IF NOT ({}) THEN\n\
         {indent}  SET k = NULL;\n\
         {indent}ELSEIF {} THEN\n\
         {indent}  SET k = {u};\n\
         {indent}ELSE\n\
         {rule}\
         {inner}SET k = {};\n\
         {indent}END IF;\n",
        parts.valid,
        parts.own_key,
        parts.key_from_rule("r"),
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
                "REGEXP_REPLACE({inner}, _binary'(?-imsxU)(?<=%|%[0-9A-Fa-f]){letter}', _binary'{}')",
                letter.to_ascii_uppercase()
            )
        })
}

/// The NSS of the URN `u`, which starts at the character `start` (an SQL expression) and runs
/// to the first '?' or '#', which it cannot hold.
fn nss(u: &str, start: &str) -> String {
    format!("SUBSTRING_INDEX(SUBSTRING_INDEX(SUBSTRING({u}, {start}), '?', 1), '#', 1)")
}

/// Each namespace with a rule under `rules` (its NID, in lower case) and the NSS of `u` by
/// that rule; other namespaces keep the NSS as it is. An arm is taken for its NID alone, so
/// its NSS starts at a known character: no `LOCATE` of the ':' after the NID at each of the
/// arm's reads of the NSS.
fn namespace_arms(u: &str, rules: KeyRules, indent: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for &ns in KnownNamespace::ALL {
        let Some(rule) = ns.key_rule(rules) else {
            continue;
        };
        // The character after "urn:", the NID and ':' (ASCII: characters are bytes), counted
        // from 1.
        let start = "urn:".len() + ns.nid().len() + ":".len() + 1;
        let nss = &nss(u, &start.to_string());
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
            // The characters as one decimal number (each letter its two digits in base 36)
            // leave 1 modulo 97; at most 40 digits, which DECIMAL(40) holds exactly.
            KeyRule::Mod97 { when } => format!(
                "IF({nss} REGEXP {}\n\
                 {indent}     AND MOD(CAST({} AS DECIMAL(40)), 97) = 1,\n\
                 {indent}   UPPER({nss}), {nss})",
                regex(&format!("(?:{when})")),
                rule_sql::base36_digits(&format!("UPPER({nss})"), "REPLACE"),
            ),
            // The prefix (before the first separator), the separator, and the rest in lower
            // case with each encoded separator written as itself.
            KeyRule::Separated {
                when,
                separators,
                separator,
            } => {
                let prefix = format!("REGEXP_SUBSTR({nss}, '^(?-imsxU)[^{separators}]*')");
                format!(
                    "IF({nss} REGEXP {},\n\
                     {indent}   CONCAT(LOWER({prefix}), '{separator}',\n\
                     {indent}          REPLACE(LOWER(SUBSTRING({nss}, CHAR_LENGTH({prefix}) + 2)), '{}', '{separator}')),\n\
                     {indent}   {nss})",
                    regex(&format!("(?:{when})")),
                    rule_sql::encoded(separator),
                )
            }
            _ => continue,
        };
        out.push((ns.nid(), arm));
    }
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
        .map(|form| form_check(form, &digits, indent))
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
fn form_check(form: &DigitForm, digits: &str, indent: &str) -> String {
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
    let check = if rule_sql::nibble_sum(form) {
        // CONV reads the digits as hexadecimal; its decimal text is read as an integer by the
        // bit operators.
        let (hex, mask) = (
            format!("CONV({digits}, 16, 10)"),
            format!("0x{}", rule_sql::nibble_mask(form)),
        );
        format!(
            "MOD(((({hex}) & {mask}) MOD 255)\n\
             {indent}              + 3 * (((({hex}) >> 4) & {mask}) MOD 255), {}) = 0",
            form.modulus
        )
    } else {
        format!("MOD({}, {}) = 0", weighted_sum(form, digits), form.modulus)
    };
    format!(
        "CHAR_LENGTH({digits}) = {n} AND {digits} REGEXP {}\n\
         {indent}          AND {check}",
        regex(&format!("{prefix}[0-9]{{{count}}}{last}$")),
    )
}

/// The weighted sum of the values of the characters `digits` by `form`'s weights (`X` is 10),
/// each character read apart.
fn weighted_sum(form: &DigitForm, digits: &str) -> String {
    let n = form.len();
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
    terms.join(" + ")
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

/// The white space of [`patterns::WHITE_SPACE`] as a bracket class for PCRE, in a hexadecimal
/// literal of utf8mb4 text (no backslash, and no character the client's character set could
/// change): `_utf8mb4 X'…'` of `^(?-imsxU)[…]{repeat}$`, where `repeat` is `*` or `+`, or
/// empty for "starts with" (no end anchor).
fn white_space_regex(repeat: &str) -> String {
    let mut class = String::new();
    for &(first, last) in patterns::WHITE_SPACE {
        class.push(first);
        if last != first {
            class.push('-');
            class.push(last);
        }
    }
    let end = if repeat.is_empty() { "" } else { "$" };
    let text = format!("^(?-imsxU)[{class}]{repeat}{end}");
    let hex: String = text.bytes().map(|b| format!("{b:02X}")).collect();
    format!("_utf8mb4 X'{hex}'")
}

/// A character above U+FFFF, as a PCRE regex in a hexadecimal literal of utf8mb4 text (its
/// `\x{…}` escapes hold backslashes, which no quoted literal may).
#[cfg(test)]
pub(crate) fn beyond_bmp_regex() -> String {
    let text = "(?-imsxU)[\\x{10000}-\\x{10FFFF}]";
    let hex: String = text.bytes().map(|b| format!("{b:02X}")).collect();
    format!("_utf8mb4 X'{hex}'")
}

/// A component's characters as an SQL literal of a PCRE regex anchored at the start (flags
/// reset): `class` (a bracket class of [`patterns`]) with `first` moved to its front, `%XX`,
/// and `more` alternatives.
fn body_regex(class: &str, first: &str, more: &str) -> String {
    let hex = patterns::HEX_DIGIT;
    let class = class
        .replacen('[', &format!("[{first}"), 1)
        .replacen(&format!("{first}-]"), "-]", 1)
        .replace('\'', "''");
    format!("'^(?-imsxU)(?:{class}|%{hex}{hex}{more})*'")
}

/// The check of text `v` (an SQL expression) as statements: leaves `problem` (a variable) NULL
/// for a valid RFC 8141 URN (or NULL), and sets it to urn_core's message for anything else,
/// the same rule and byte offset as `Urn::parse`: a byte order mark, an empty or blank value
/// and white space around a URN are named as such. A port of the parser's single pass in which
/// regular expressions consume each component's longest valid prefix, with urn-core's
/// character classes and message parts; every character before an error is ASCII, so
/// character position p is byte p - 1. `for_signal`: a character above U+FFFF is shown as
/// `\u{…}` (a message raised by SIGNAL is utf8mb3, which cannot hold it); otherwise as itself.
/// Every line is indented by `indent`.
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
    let max = urn_core::DEFAULT_MAX_LEN;
    let min = urn_core::Syntax::Rfc8141.min_nid_len();
    let (max_text, min_text) = (max.to_string(), min.to_string());
    let (nid, comp, body, c, p, q, cp) = (
        name("nid"),
        name("comp"),
        name("body"),
        name("c"),
        name("p"),
        name("q"),
        name("cp"),
    );
    let declare = match variables {
        Variables::Local => {
            "  DECLARE nid LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;\n  \
             DECLARE comp VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin DEFAULT 'NSS';\n  \
             DECLARE body VARCHAR(200) CHARACTER SET ascii COLLATE ascii_bin;\n  \
             DECLARE c VARCHAR(1) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;\n  \
             DECLARE p BIGINT DEFAULT 1;\n  \
             DECLARE q BIGINT;\n  \
             DECLARE cp BIGINT;"
                .to_owned()
        }
        Variables::Session => format!(
            "  SET {problem} = NULL, {nid} = NULL, {comp} = 'NSS', {body} = NULL, {c} = NULL, \
             {p} = 1, {q} = NULL, {cp} = NULL;"
        ),
    };
    let say = |kind: ErrorKind, offset: &str, values: &[&str]| {
        message::message(kind, offset, values, Join::Concat)
    };
    let at = |minus: u8| format!("{p} - {minus}");
    let any = Component::Nss;
    let (nss, r, q_name, f) = (
        Component::Nss.name(),
        Component::RComponent.name(),
        Component::QComponent.name(),
        Component::FComponent.name(),
    );
    let short: String = message::SHORT_ESCAPES
        .iter()
        .map(|&(ch, letter)| {
            let shown = match letter {
                "\\" => "CHAR(92 USING utf8mb4)".to_owned(),
                "'" => "''''".to_owned(),
                other => format!("'{other}'"),
            };
            format!(
                "      WHEN {cp} = {} THEN CONCAT(CHAR(92 USING utf8mb4), {shown})\n",
                u32::from(ch)
            )
        })
        .collect();
    let shown = format!(
        "CASE\n{short}      WHEN {}\n        THEN CONCAT(CHAR(92 USING utf8mb4), 'u{{', \
         LOWER(CONV({cp}, 10, 16)), '}}')\n      ELSE {c} END",
        message::escaped_condition(&cp, for_signal)
    );
    let nid_len = format!("CHAR_LENGTH({nid})");
    let text = format!(
        r#"check_urn: BEGIN
{declare}
  IF {v} IS NULL THEN
    LEAVE check_urn;
  END IF;
  IF OCTET_LENGTH({v}) > {max} THEN
    SET {problem} = {too_long};
    LEAVE check_urn;
  END IF;
  WHILE {p} <= 4 DO
    SET {c} = SUBSTRING({v}, {p}, 1);
    IF {c} = '' OR LOWER({c}) <> SUBSTRING('urn:', {p}, 1) THEN
      -- What comes before a URN rather than in it: a byte order mark, nothing, white space.
      IF {p} = 1 AND LEFT({v}, 1) = _utf8mb4 X'EFBBBF' COLLATE utf8mb4_nopad_bin THEN
        SET {problem} = {bom};
      ELSEIF {p} = 1 AND {v} REGEXP {blank} THEN
        SET {problem} = {empty};
      ELSEIF {p} = 1 AND {v} REGEXP {leading_space} THEN
        SET {problem} = {leading};
      ELSE
        SET {problem} = {scheme};
      END IF;
      LEAVE check_urn;
    END IF;
    SET {p} = {p} + 1;
  END WHILE;
  -- Leaving this block: character {c} at position {p} is not allowed in {comp}.
  scan: BEGIN
    SET {nid} = REGEXP_SUBSTR(SUBSTRING({v}, 5), '^(?-imsxU){nid_char}*');
    SET {p} = 5 + {nid_len};
    SET {c} = SUBSTRING({v}, {p}, 1);
    IF {nid_len} > {nid_max} THEN
      SET {problem} = {nid_long};
    ELSEIF {c} = '' THEN
      SET {problem} = {nid_unterminated};
    ELSEIF {c} <> ':' THEN
      SET {comp} = 'NID';
      LEAVE scan;
    ELSEIF LEFT({nid}, 1) = '-' THEN
      SET {problem} = {nid_leading};
    ELSEIF {nid_len} < {min} THEN
      SET {problem} = {nid_short};
    ELSEIF RIGHT({nid}, 1) = '-' THEN
      SET {problem} = {nid_trailing};
    END IF;
    IF {problem} IS NOT NULL THEN
      LEAVE check_urn;
    END IF;
    SET {p} = {p} + 1;
    -- The NSS, then each component that follows: ?+r, ?=q, #f.
    components: LOOP
      SET {c} = SUBSTRING({v}, {p}, 1);
      IF {comp} <> '{f}' THEN
        IF {c} = '' OR {c} = '#' OR ({c} = '?' AND {comp} = '{nss}')
           OR ({c} = '?' AND {comp} = '{r}' AND SUBSTRING({v}, {p} + 1, 1) = '=') THEN
          SET {problem} = {empty_component};
          LEAVE check_urn;
        ELSEIF {c} IN ('/', '?') THEN
          SET {problem} = {cannot_start};
          LEAVE check_urn;
        END IF;
      END IF;
      SET {q} = {p};
      SET {body} = CASE {comp}
        WHEN '{nss}' THEN {nss_body}
        WHEN '{r}' THEN {r_body}
        ELSE {qf_body} END;
      SET {p} = {p} + CHAR_LENGTH(REGEXP_SUBSTR(SUBSTRING({v}, {p}), {body}));
      SET {c} = SUBSTRING({v}, {p}, 1);
      IF {c} = '%' THEN
        SET {problem} = {percent};
        LEAVE check_urn;
      ELSEIF {c} = '' THEN
        LEAVE check_urn;
      ELSEIF {c} = '#' AND {comp} <> '{f}' THEN
        SET {comp} = '{f}';
        SET {p} = {p} + 1;
      ELSEIF {c} = '?' AND {comp} = '{nss}' AND SUBSTRING({v}, {p} + 1, 1) = '+' THEN
        SET {comp} = '{r}';
        SET {p} = {p} + 2;
      ELSEIF {c} = '?' AND {comp} IN ('{nss}', '{r}') AND SUBSTRING({v}, {p} + 1, 1) = '=' THEN
        SET {comp} = '{q_name}';
        SET {p} = {p} + 2;
      ELSEIF {c} = '?' AND {comp} = '{nss}' THEN
        SET {problem} = {bare_question_mark};
        LEAVE check_urn;
      ELSE
        LEAVE scan;
      END IF;
    END LOOP components;
  END scan;
  -- White space after a URN rather than in it: what comes before it is a URN when a component
  -- has characters (the f-component may have none).
  IF ({p} > {q} OR {comp} = '{f}') AND SUBSTRING({v}, {p}) REGEXP {trailing_space} THEN
    SET {problem} = {trailing};
    LEAVE check_urn;
  END IF;
  -- The character as urn_core's messages show it (Rust's char::escape_debug for the
  -- characters a URN check meets).
  SET {cp} = CONV(HEX(CONVERT({c} USING utf32)), 16, 10);
  SET {problem} = {invalid_char};
END check_urn;"#,
        too_long = say(ErrorKind::TooLong { max }, &max_text, &[&max_text]),
        max = max,
        min = min,
        nid_max = patterns::NID_MAX_LEN,
        bom = say(ErrorKind::ByteOrderMark, "0", &[]),
        blank = white_space_regex("*"),
        empty = say(ErrorKind::Empty, "0", &[]),
        leading_space = white_space_regex(""),
        leading = say(ErrorKind::LeadingWhitespace, "0", &[]),
        scheme = say(ErrorKind::Scheme, &at(1), &[]),
        nid_char = patterns::NID_CHAR,
        nid_long = say(
            ErrorKind::NidLength {
                len: patterns::NID_MAX_LEN + 1,
                min
            },
            "4",
            &[&nid_len, "'s'", &min_text]
        ),
        nid_unterminated = say(ErrorKind::NidUnterminated, &at(1), &[]),
        nid_leading = say(ErrorKind::NidLeadingHyphen, "4", &[]),
        nid_short = say(
            ErrorKind::NidLength { len: 1, min },
            "4",
            &[&nid_len, &format!("IF({nid_len} = 1, '', 's')"), &min_text]
        ),
        nid_trailing = say(ErrorKind::NidTrailingHyphen, &at(2), &[]),
        empty_component = say(
            ErrorKind::EmptyComponent { component: any },
            &at(1),
            &[&comp]
        ),
        cannot_start = say(
            ErrorKind::InvalidFirstChar {
                component: any,
                found: '/'
            },
            &at(1),
            &[&c, &comp]
        ),
        nss_body = body_regex(patterns::PCHAR_SLASH, "/", ""),
        r_body = body_regex(patterns::PCHAR_SLASH, "/", "|[?](?!=)"),
        qf_body = body_regex(patterns::PCHAR_SLASH_QUESTION, "/?", ""),
        percent = say(
            ErrorKind::PercentEncoding { component: any },
            &at(1),
            &[&comp]
        ),
        bare_question_mark = say(ErrorKind::BareQuestionMark, &at(1), &[]),
        trailing_space = white_space_regex("+"),
        trailing = say(ErrorKind::TrailingWhitespace, &at(1), &[]),
        invalid_char = say(
            ErrorKind::InvalidChar {
                component: any,
                found: ' '
            },
            &at(1),
            &[&shown, &comp]
        ),
    );
    text.lines()
        .map(|line| format!("{indent}{line}\n"))
        .collect()
}
