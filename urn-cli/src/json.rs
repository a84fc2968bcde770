//! The JSON the tool writes: serde_json's compact form, with the characters that reorder,
//! hide or break text where it is shown escaped as `\uXXXX` (serde_json escapes only the C0
//! controls, `"` and `\`): a terminal or a log viewer that shows a line would otherwise let
//! an input's U+202E turn the rest of the line around, or a C1 control act on the terminal.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, Serializer};

/// Whether `c` is escaped: the C1 controls; the bidirectional marks, embeddings, overrides
/// and isolates; the line and paragraph separators (which end a line in JavaScript and in
/// some viewers); the invisible zero-width characters and U+FEFF.
pub(crate) const fn escaped(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// serde_json's compact formatter, escaping what [`escaped`] names too.
struct Guarded;

impl Formatter for Guarded {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut plain = 0;
        for (at, c) in fragment.char_indices() {
            if escaped(c) {
                writer.write_all(fragment.get(plain..at).unwrap_or("").as_bytes())?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                plain = at + c.len_utf8();
            }
        }
        writer.write_all(fragment.get(plain..).unwrap_or("").as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        CompactFormatter.write_char_escape(writer, escape)
    }
}

/// Writes `value` as one line of JSON (no newline).
pub(crate) fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    value.serialize(&mut Serializer::with_formatter(writer, Guarded))
}

/// `value` as one line of JSON.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(128);
    to_writer(&mut out, value)?;
    // serde_json writes UTF-8, and an escape is ASCII.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_is_escaped() {
        let text = "a\u{202e}b\u{85}c\u{2028}d\u{200b}é\u{1f600}\"\n";
        let json = super::to_string(text).unwrap_or_default();
        assert_eq!(
            json,
            "\"a\\u202eb\\u0085c\\u2028d\\u200bé\u{1f600}\\\"\\n\""
        );
        let back: String = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, text);
    }
}
