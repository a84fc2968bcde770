//! The canonical key as one expression of MariaDB built-in functions, for a keyed table's
//! generated column and for the body of `urn_key_v1`: the same text in both, so they cannot
//! disagree.
//!
//! Why an expression: MariaDB refuses a stored function in a generated column (ERROR 1901),
//! and a routine compiles each regular expression it evaluates again on every call (about
//! 3 µs for `^urn:`, 28 µs for the URN pattern, measured on 10.11), while a generated column's
//! expressions are compiled once, when the table is opened. No name in it is looked up: only
//! built-ins, which no user can replace.
//!
//! Every regular expression starts with `(?-imsxU)`: `default_regex_flags` (a session
//! setting, in force where the expression is compiled) cannot make one case-blind,
//! multi-line, extended or lazy. No literal holds a backslash (`NO_BACKSLASH_ESCAPES` would
//! change its meaning). The comparisons that case could change compare bytes
//! (`CAST(… AS BINARY)`), so even a column declared with a case-insensitive collation gets
//! exact keys.

use urn_core::patterns;

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
    format!(
        "CASE\n\
         {indent}  WHEN NOT (OCTET_LENGTH({u}) <= 65536 AND LOCATE(CHAR(10 USING utf8mb4), {u}) = 0\n\
         {indent}            AND {u} REGEXP {urn}) THEN NULL\n\
         {indent}  WHEN LOCATE('%', {u}) = 0 AND LOCATE('?', {u}) = 0 AND LOCATE('#', {u}) = 0\n\
         {indent}       AND CAST(LOWER({u}) AS BINARY) = CAST({u} AS BINARY)\n\
         {indent}       AND CAST(LEFT({u}, 9) AS BINARY) NOT IN ('urn:isbn:', 'urn:issn:') THEN {u}\n\
         {indent}  ELSE CONCAT('urn:', {nid}, ':', {hex})\n\
         {indent}END",
        urn = urn_regex(),
        hex = upper_case_hex(&rule),
    )
}

/// `text` with the hex digits of every `%XX` in upper case (RFC 8141 section 3): per letter,
/// one replacement of the letter right after a '%', or after a '%' and a hex digit.
fn upper_case_hex(text: &str) -> String {
    ['a', 'b', 'c', 'd', 'e', 'f']
        .iter()
        .fold(text.to_owned(), |inner, letter| {
            format!(
                "REGEXP_REPLACE({inner}, '(?-imsxU)(?<=%|%[0-9A-Fa-f]){letter}', '{}')",
                letter.to_ascii_uppercase()
            )
        })
}

/// The NSS by the V1 rule of the namespace `nid` (in lower case) names; other namespaces keep
/// it as it is.
fn namespace_rule(nid: &str, nss: &str, indent: &str) -> String {
    let lower_if =
        |pattern: &str| format!("IF({nss} REGEXP {}, LOWER({nss}), {nss})", regex(pattern));
    // The part before the first `sep`, in lower case, when the NSS matches.
    let lower_prefix_if = |pattern: &str, sep: &str| {
        format!(
            "IF({nss} REGEXP {}, CONCAT(LOWER(SUBSTRING_INDEX({nss}, '{sep}', 1)), '{sep}', \
             SUBSTRING({nss}, LOCATE('{sep}', {nss}) + 1)), {nss})",
            regex(pattern)
        )
    };
    // The characters of an ISBN or ISSN, hyphens dropped, 'x' upper-cased; digit i's value.
    let digits = format!("UPPER(REPLACE({nss}, '-', ''))");
    let digit = |i: usize| format!("(ASCII(SUBSTRING({digits}, {i}, 1)) - 48)");
    let check = |i: usize| format!("IF(SUBSTRING({digits}, {i}, 1) = 'X', 10, {})", digit(i));
    // The weighted sum of the digits before the check character, plus the check character.
    let weighted = |weights: &[usize], last: String| {
        let mut terms: Vec<String> = weights
            .iter()
            .enumerate()
            .map(|(at, w)| format!("{w} * {}", digit(at + 1)))
            .collect();
        terms.push(last);
        terms.join(" + ")
    };
    let isbn13 = weighted(&[1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3], digit(13));
    let isbn10 = weighted(&[10, 9, 8, 7, 6, 5, 4, 3, 2], check(10));
    let issn = weighted(&[8, 7, 6, 5, 4, 3, 2], check(8));
    let rules = [
        (
            "uuid",
            lower_if(
                "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$",
            ),
        ),
        // A valid ISBN (digits, single hyphens between them, X only as the check character,
        // the check character right) is its digits, X upper case; otherwise the NSS stays.
        (
            "isbn",
            format!(
                "IF(LEFT({nss}, 1) <> '-' AND RIGHT({nss}, 1) <> '-' AND LOCATE('--', {nss}) = 0\n\
                 {indent}     AND CHAR_LENGTH({nss}) - CHAR_LENGTH({digits}) <= 4\n\
                 {indent}     AND (CHAR_LENGTH({digits}) = 13 AND {digits} REGEXP {r13}\n\
                 {indent}          AND MOD({isbn13}, 10) = 0\n\
                 {indent}          OR CHAR_LENGTH({digits}) = 10 AND {digits} REGEXP {r10}\n\
                 {indent}          AND MOD({isbn10}, 11) = 0),\n\
                 {indent}   {digits}, {nss})",
                r13 = regex("97[89][0-9]{10}$"),
                r10 = regex("[0-9]{9}[0-9X]$"),
            ),
        ),
        // NNNN-NNNC (or NNNNNNNC) with the check character right: NNNN-NNNC, X upper case.
        (
            "issn",
            format!(
                "IF(CHAR_LENGTH({digits}) = 8\n\
                 {indent}     AND (CHAR_LENGTH({nss}) = 8\n\
                 {indent}          OR CHAR_LENGTH({nss}) = 9 AND SUBSTRING({nss}, 5, 1) = '-')\n\
                 {indent}     AND {digits} REGEXP {r8} AND MOD({issn}, 11) = 0,\n\
                 {indent}   CONCAT(LEFT({digits}, 4), '-', RIGHT({digits}, 4)), {nss})",
                r8 = regex("[0-9]{7}[0-9X]$"),
            ),
        ),
        // RFC 2648 forms are case-insensitive as a whole; params: registries keep their case.
        (
            "ietf",
            lower_if(
                "(?:(?:[Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+\
                 |(?:[Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+)$",
            ),
        ),
        // The country code and sub-namespaces before the first '-' are case-insensitive.
        (
            "nbn",
            lower_prefix_if("[A-Za-z][A-Za-z](?::[A-Za-z0-9]+)*-[^/]", "-"),
        ),
        // A lex name is case-insensitive as a whole.
        ("lex", lower_if("[A-Za-z][A-Za-z0-9.-]*:.")),
        // The standard's name before the first ':' is case-insensitive.
        ("mpeg", lower_prefix_if("[A-Za-z0-9.-]+:", ":")),
    ];
    let mut out = format!("CASE {nid}");
    for (name, rule) in rules {
        out.push_str(&format!("\n{indent}  WHEN '{name}' THEN {rule}"));
    }
    out.push_str(&format!("\n{indent}  ELSE {nss}\n{indent}END"));
    out
}
