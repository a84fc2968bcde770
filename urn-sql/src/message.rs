//! urn-core's parse errors as SQL: each rule's message is rendered from its message parts
//! ([`ErrorKind::message_parts`], the table `ParseError`'s `Display` writes from), with the SQL
//! expressions that stand for the values it names, and a character is escaped as
//! `char::escape_debug` escapes it, from one table. The PostgreSQL and MariaDB checks are
//! written with these, so their messages are the parser's words.

use urn_core::{ErrorKind, MessagePart};

/// How a dialect joins strings: PostgreSQL's `a || b`, MariaDB's `CONCAT(a, b)` (whose `||`
/// is a logical OR unless `PIPES_AS_CONCAT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Join {
    /// `a || b`.
    #[cfg_attr(not(test), allow(dead_code))]
    Pipes,
    /// `CONCAT(a, b)`.
    Concat,
}

impl Join {
    /// `pieces` joined (one piece as it is).
    pub(crate) fn join(self, pieces: &[String]) -> String {
        match (self, pieces) {
            (_, [one]) => one.clone(),
            (Join::Pipes, _) => pieces.join(" || "),
            (Join::Concat, _) => format!("CONCAT({})", pieces.join(", ")),
        }
    }
}

/// `text` as an SQL string literal (no backslash is ever written: a message holds none).
pub(crate) fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The message of `kind` (`invalid URN: ` and its words) as one SQL expression. `offset` is the
/// SQL for the byte offset, and `values`, in order, for each other part that names a value
/// (a number, a plural `s`, a character, a component); a value that is a number or a string
/// literal (`'s'`) is written into the text.
pub(crate) fn message(kind: ErrorKind, offset: &str, values: &[&str], join: Join) -> String {
    let mut pieces: Vec<String> = Vec::new();
    let mut text = String::from("invalid URN: ");
    let mut values = values.iter();
    let push = |expr: &str, text: &mut String, pieces: &mut Vec<String>| {
        let quoted = expr
            .strip_prefix('\'')
            .and_then(|e| e.strip_suffix('\''))
            .filter(|inner| !inner.contains('\''));
        if expr.bytes().all(|b| b.is_ascii_digit()) && !expr.is_empty() {
            text.push_str(expr);
        } else if let Some(inner) = quoted {
            text.push_str(inner);
        } else {
            if !text.is_empty() {
                pieces.push(literal(text));
                text.clear();
            }
            pieces.push(expr.to_owned());
        }
    };
    for part in kind.message_parts().into_iter().flatten() {
        match part {
            MessagePart::Text(words) => text.push_str(words),
            MessagePart::Offset => push(offset, &mut text, &mut pieces),
            MessagePart::Num(_)
            | MessagePart::Plural(_)
            | MessagePart::Char(_)
            | MessagePart::Component(_) => {
                let value = values.next().copied().unwrap_or("''");
                push(value, &mut text, &mut pieces);
            }
            _ => {}
        }
    }
    if !text.is_empty() {
        pieces.push(literal(&text));
    }
    join.join(&pieces)
}

/// The code points (ranges, inclusive) that `char::escape_debug` writes as `\u{…}` among those
/// the checks show: control characters, soft hyphen, combining diacritics, zero-width and
/// direction marks, line and paragraph separators, invisible operators, the byte order mark,
/// and the spaces other than U+0020. (It escapes more, by Unicode tables the SQL cannot
/// reach; a test holds every code point listed here to std.) `\0`, `\t`, `\r`, `\n`, `\\`,
/// `\'` and `\"` are [`SHORT_ESCAPES`].
pub(crate) const ESCAPED: &[(u32, u32)] = &[
    (0x01, 0x08),
    (0x0B, 0x0C),
    (0x0E, 0x1F),
    (0x7F, 0x9F),
    (0xA0, 0xA0),
    (0xAD, 0xAD),
    (0x300, 0x36F),
    (0x1680, 0x1680),
    (0x2000, 0x200F),
    (0x2028, 0x202F),
    (0x205F, 0x2064),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];

/// The characters `char::escape_debug` writes with a backslash and a letter or itself, and how.
pub(crate) const SHORT_ESCAPES: &[(char, &str)] = &[
    ('\0', "0"),
    ('\t', "t"),
    ('\r', "r"),
    ('\n', "n"),
    ('\\', "\\"),
    ('\'', "'"),
    ('"', "\""),
];

/// The condition, in SQL, that code point `cp` (an SQL expression) is in [`ESCAPED`], or with
/// `beyond_bmp` above U+FFFF too.
pub(crate) fn escaped_condition(cp: &str, beyond_bmp: bool) -> String {
    let mut tests: Vec<String> = ESCAPED
        .iter()
        .map(|&(first, last)| {
            if first == last {
                format!("{cp} = {first}")
            } else {
                format!("{cp} BETWEEN {first} AND {last}")
            }
        })
        .collect();
    if beyond_bmp {
        tests.push(format!("{cp} > 65535"));
    }
    tests.join(" OR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed code point is one std escapes as `\u{…}`, and every short escape is std's.
    #[test]
    fn the_escapes_are_stds() {
        for &(first, last) in ESCAPED {
            for c in (first..=last).filter_map(char::from_u32) {
                let shown = c.escape_debug().to_string();
                assert_eq!(shown, format!("\\u{{{:x}}}", u32::from(c)), "{c:?}");
            }
        }
        for &(c, letter) in SHORT_ESCAPES {
            assert_eq!(c.escape_debug().to_string(), format!("\\{letter}"));
        }
    }

    /// The parts' values take the SQL given, in order; numbers go into the text.
    #[test]
    fn messages_take_their_values_in_order() {
        let kind = ErrorKind::NidLength { len: 1, min: 2 };
        assert_eq!(
            message(kind, "4", &["length(nid)", "s", "2"], Join::Pipes),
            "'invalid URN: NID of ' || length(nid) || ' character' || s || ' at byte 4: it must have 2 to 32'"
        );
        assert_eq!(
            message(kind, "4", &["length(nid)", "'s'", "2"], Join::Pipes),
            "'invalid URN: NID of ' || length(nid) || ' characters at byte 4: it must have 2 to 32'"
        );
        assert_eq!(
            message(ErrorKind::Scheme, "p - 1", &[], Join::Concat),
            "CONCAT('invalid URN: expected ''urn:'' at byte ', p - 1)"
        );
        assert_eq!(
            message(ErrorKind::NidLeadingHyphen, "4", &[], Join::Concat),
            "'invalid URN: ''-'' at byte 4 cannot start the NID'"
        );
    }
}
