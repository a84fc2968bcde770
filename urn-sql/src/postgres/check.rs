//! PostgreSQL's `urn_check(text)`, rendered: the parser's single pass written in PL/pgSQL,
//! whose regular expressions consume each component's longest valid prefix, with the
//! character classes of urn-core's [`patterns`], the white space it names from
//! [`patterns::WHITE_SPACE`] and every message from urn-core's message parts
//! ([`crate::message`]). The portable migration holds the rendered text.

use urn_core::{Component, ErrorKind, patterns};

use crate::message::{self, Join};

/// A message of the check: `kind`'s words with `offset` and `values` (see
/// [`message::message`]).
fn say(kind: ErrorKind, offset: &str, values: &[&str]) -> String {
    message::message(kind, offset, values, Join::Pipes)
}

/// `class` (a bracket class of [`patterns`]) for an SQL literal: `'` doubled.
fn class(class: &str) -> String {
    class.replace('\'', "''")
}

/// The white space of [`patterns::WHITE_SPACE`] as the inside of a bracket class of regex
/// escapes (`\u0009-\u000D…`), for an `E''` literal (each backslash doubled).
pub(super) fn white_space_class() -> String {
    patterns::WHITE_SPACE
        .iter()
        .map(|&(first, last)| {
            let one = |c: char| format!("\\\\u{:04X}", u32::from(c));
            if first == last {
                one(first)
            } else {
                format!("{}-{}", one(first), one(last))
            }
        })
        .collect()
}

/// The `CREATE OR REPLACE FUNCTION urn_check(v text)` statement, with its comment.
pub(crate) fn urn_check() -> String {
    let max = urn_core::DEFAULT_MAX_LEN;
    let min = urn_core::Syntax::Rfc8141.min_nid_len();
    let (max_text, min_text) = (max.to_string(), min.to_string());
    let component = |c: Component| c.name();
    let (nss, r, q, f) = (
        component(Component::Nss),
        component(Component::RComponent),
        component(Component::QComponent),
        component(Component::FComponent),
    );
    let any = Component::Nss;
    let white = white_space_class();
    let hex = format!("%{0}{0}", patterns::HEX_DIGIT);
    // The r-component may hold '?' not followed by '='; the NSS '/' after its first character;
    // the q- and f-components '/' and '?'.
    let nss_body = format!("^(?:{}|{hex})*", class(&nss_slash_first()));
    let r_body = format!("^(?:{}|{hex}|[?](?!=))*", class(&nss_slash_first()));
    let qf_body = format!("^(?:{}|{hex})*", class(&question_slash_first()));
    format!(
        r#"-- urn_check(text): NULL when the text is a valid RFC 8141 URN, otherwise urn_core's message
-- for it (the same rule and byte offset as `Urn::parse`), e.g.
--   SELECT urn_check('urn:example:a%zz');
--   invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits
-- A port of the parser's single pass in which regexes consume each component's longest valid
-- prefix. Every character before an error is ASCII, so character position p is byte p - 1.
-- Linear: a constant number of steps per component, each one pass. Rendered by urn-sql
-- (src/postgres/check.rs) from urn-core's character classes and message parts.
CREATE OR REPLACE FUNCTION urn_check(v text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid  text;
  comp text;    -- the component being scanned, named as in the messages
  body text;    -- the regex of that component's characters
  p    int;     -- the character position being looked at (1-based)
  q    int;     -- where the component's characters start
  c    text;
BEGIN
  IF octet_length(v) > {max} THEN
    RETURN {too_long};
  END IF;
  FOR i IN 1..4 LOOP
    c := substr(v, i, 1);
    IF c = '' OR lower(c COLLATE "C") <> substr('urn:', i, 1) THEN
      -- What comes before a URN rather than in it: a byte order mark, nothing, white space.
      IF i = 1 THEN
        IF v ~ E'^\\uFEFF' THEN
          RETURN {bom};
        ELSIF v ~ E'^[{white}]*$' THEN
          RETURN {empty};
        ELSIF v ~ E'^[{white}]' THEN
          RETURN {leading};
        END IF;
      END IF;
      RETURN {scheme};
    END IF;
  END LOOP;

  -- Leaving this block: character c at position p is not allowed in comp.
  <<scan>>
  BEGIN
    nid := substring(substr(v, 5) COLLATE "C" from '^{nid_char}*');
    p := 5 + length(nid);
    c := substr(v, p, 1);
    IF length(nid) > {nid_max} THEN
      RETURN {nid_long};
    ELSIF c = '' THEN
      RETURN {nid_unterminated};
    ELSIF c <> ':' THEN
      comp := 'NID';
      EXIT scan;
    ELSIF left(nid, 1) = '-' THEN
      RETURN {nid_leading};
    ELSIF length(nid) < {min} THEN
      RETURN {nid_short};
    ELSIF right(nid, 1) = '-' THEN
      RETURN {nid_trailing};
    END IF;
    p := p + 1;

    -- The NSS, then each component that follows: ?+r, ?=q, #f.
    comp := '{nss}';
    LOOP
      c := substr(v, p, 1);
      IF comp <> '{f}' THEN
        IF c = '' OR c = '#' OR (c = '?' AND comp = '{nss}')
           OR (c = '?' AND comp = '{r}' AND substr(v, p + 1, 1) = '=') THEN
          RETURN {empty_component};
        ELSIF c IN ('/', '?') THEN
          RETURN {cannot_start};
        END IF;
      END IF;
      q := p;
      body := CASE comp
        WHEN '{nss}' THEN '{nss_body}'
        WHEN '{r}' THEN '{r_body}'
        ELSE '{qf_body}' END;
      p := p + length(substring(substr(v, p) COLLATE "C" from body));
      c := substr(v, p, 1);
      IF c = '%' THEN
        RETURN {percent};
      ELSIF c = '' THEN
        RETURN NULL;
      ELSIF c = '#' AND comp <> '{f}' THEN
        comp := '{f}';
        p := p + 1;
      ELSIF c = '?' AND comp = '{nss}' AND substr(v, p + 1, 1) = '+' THEN
        comp := '{r}';
        p := p + 2;
      ELSIF c = '?' AND comp IN ('{nss}', '{r}') AND substr(v, p + 1, 1) = '=' THEN
        comp := '{q}';
        p := p + 2;
      ELSIF c = '?' AND comp = '{nss}' THEN
        RETURN {bare_question_mark};
      ELSE
        EXIT scan;
      END IF;
    END LOOP;
  END;
  -- White space after a URN rather than in it: what comes before it is a URN when a component
  -- has characters (the f-component may have none).
  IF (p > q OR comp = '{f}') AND substr(v, p) ~ E'^[{white}]+$' THEN
    RETURN {trailing};
  END IF;
  -- The character as urn_core's messages show it (Rust's char::escape_debug for the
  -- characters a URN check meets).
  RETURN {invalid_char};
END
$fn$;
"#,
        too_long = say(ErrorKind::TooLong { max }, &max_text, &[&max_text]),
        max = max,
        min = min,
        nid_max = patterns::NID_MAX_LEN,
        bom = say(ErrorKind::ByteOrderMark, "0", &[]),
        empty = say(ErrorKind::Empty, "0", &[]),
        leading = say(ErrorKind::LeadingWhitespace, "0", &[]),
        scheme = say(ErrorKind::Scheme, "i - 1", &[]),
        nid_char = patterns::NID_CHAR,
        nid_long = say(
            ErrorKind::NidLength {
                len: patterns::NID_MAX_LEN + 1,
                min
            },
            "4",
            &["length(nid)", "'s'", &min_text]
        ),
        nid_unterminated = say(ErrorKind::NidUnterminated, "p - 1", &[]),
        nid_leading = say(ErrorKind::NidLeadingHyphen, "4", &[]),
        nid_short = say(
            ErrorKind::NidLength { len: 1, min },
            "4",
            &[
                "length(nid)",
                "CASE WHEN length(nid) = 1 THEN '' ELSE 's' END",
                &min_text
            ]
        ),
        nid_trailing = say(ErrorKind::NidTrailingHyphen, "p - 2", &[]),
        empty_component = say(
            ErrorKind::EmptyComponent { component: any },
            "p - 1",
            &["comp"]
        ),
        cannot_start = say(
            ErrorKind::InvalidFirstChar {
                component: any,
                found: '/'
            },
            "p - 1",
            &["c", "comp"]
        ),
        percent = say(
            ErrorKind::PercentEncoding { component: any },
            "p - 1",
            &["comp"]
        ),
        bare_question_mark = say(ErrorKind::BareQuestionMark, "p - 1", &[]),
        trailing = say(ErrorKind::TrailingWhitespace, "p - 1", &[]),
        invalid_char = say(
            ErrorKind::InvalidChar {
                component: any,
                found: ' '
            },
            "p - 1",
            &[&shown_char("c"), "comp"]
        ),
    )
}

/// [`patterns::PCHAR_SLASH`] with the `/` written first (`[/A-Za-z…-]`).
fn nss_slash_first() -> String {
    patterns::PCHAR_SLASH
        .replacen('[', "[/", 1)
        .replacen("/-]", "-]", 1)
}

/// [`patterns::PCHAR_SLASH_QUESTION`] with `/?` written first (`[/?A-Za-z…-]`).
fn question_slash_first() -> String {
    patterns::PCHAR_SLASH_QUESTION
        .replacen('[', "[/?", 1)
        .replacen("/?-]", "-]", 1)
}

/// The character `c` (a one-character text) as `char::escape_debug` shows it, as far as
/// [`message::ESCAPED`] and [`message::SHORT_ESCAPES`] say.
fn shown_char(c: &str) -> String {
    let short: String = message::SHORT_ESCAPES
        .iter()
        .map(|&(ch, letter)| {
            let is = match ch {
                '\0' => "ascii(c) = 0".to_owned(),
                '\'' => format!("{c} = ''''"),
                '\\' => format!("{c} = E'\\\\'"),
                '\t' => format!("{c} = E'\\t'"),
                '\r' => format!("{c} = E'\\r'"),
                '\n' => format!("{c} = E'\\n'"),
                other => format!("{c} = '{other}'"),
            };
            let shown = match letter {
                "\\" => "E'\\\\\\\\'".to_owned(),
                "'" => "E'\\\\'''".to_owned(),
                other => format!("E'\\\\{other}'"),
            };
            format!("      WHEN {is} THEN {shown}\n")
        })
        .collect();
    format!(
        "CASE\n{short}      WHEN {}\n        THEN E'\\\\u{{' || to_hex(ascii({c})) || '}}'\n      ELSE {c} END",
        message::escaped_condition(&format!("ascii({c})"), false)
    )
}
