//! The messages of rejected literals, written at compile time.
//!
//! A `const fn` cannot call `Display`, but it can panic with a `&str` it has built
//! (`panic!("{}", text)`), and the compiler prints that text as the error. So the messages are
//! assembled here, byte by byte, from the message parts the run-time errors' `Display` writes
//! from ([`ErrorKind::message_parts`](crate::ErrorKind::message_parts)).

use crate::error::{MessagePart, ParseError};

/// Room for the longest message: a prefix, a rule's words, a character escape, a 20-digit
/// offset, or a namespace's reason (the longest is under 100 bytes). Longer text is cut at a
/// character boundary, never a panic.
const CAPACITY: usize = 256;

/// A message under construction.
pub(super) struct Message {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl Message {
    pub(super) const fn new() -> Self {
        Message {
            bytes: [0; CAPACITY],
            len: 0,
        }
    }

    /// Appends `text` (as much of it as fits).
    pub(super) const fn str(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < CAPACITY {
            // Both indices were just checked.
            #[allow(clippy::indexing_slicing)]
            {
                self.bytes[self.len] = text[i];
            }
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends one ASCII byte.
    const fn byte(mut self, b: u8) -> Self {
        if b.is_ascii() && self.len < CAPACITY {
            // Just checked.
            #[allow(clippy::indexing_slicing)]
            {
                self.bytes[self.len] = b;
            }
            self.len += 1;
        }
        self
    }

    /// Appends `n` in decimal.
    pub(super) const fn num(self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            // `start < 20`: a `usize` has at most 20 decimal digits.
            #[allow(clippy::indexing_slicing)]
            {
                digits[start] = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut tail: &[u8] = match digits.split_at_checked(start) {
            Some((_, tail)) => tail,
            None => &[],
        };
        let mut this = self;
        while let Some((&digit, rest)) = tail.split_first() {
            this = this.byte(digit);
            tail = rest;
        }
        this
    }

    /// Appends `n` in lower-case hex without leading zeros.
    const fn hex(mut self, n: u32) -> Self {
        let mut shift = 28;
        let mut started = false;
        loop {
            let digit = ((n >> shift) & 0xF) as u8;
            if digit != 0 || started || shift == 0 {
                started = true;
                let b = if digit < 10 {
                    b'0' + digit
                } else {
                    b'a' + digit - 10
                };
                self = self.byte(b);
            }
            if shift == 0 {
                return self;
            }
            shift -= 4;
        }
    }

    /// Appends `c` as `char::escape_debug` writes it for ASCII (`\t`, `\\`, `\'`, `\u{1b}`,
    /// …). Other characters are written as they are: std's rule for them (escape what is not
    /// printable or is a combining mark) rests on Unicode tables that are not `const`.
    pub(super) const fn escaped(self, c: char) -> Self {
        match c {
            '\0' => self.str("\\0"),
            '\t' => self.str("\\t"),
            '\r' => self.str("\\r"),
            '\n' => self.str("\\n"),
            '\\' => self.str("\\\\"),
            '\'' => self.str("\\'"),
            '"' => self.str("\\\""),
            ' '..='~' => self.byte(c as u8),
            _ if c.is_ascii() => self.str("\\u{").hex(c as u32).str("}"),
            _ => {
                let mut buf = [0u8; 4];
                let text: &str = c.encode_utf8(&mut buf);
                self.str(text)
            }
        }
    }

    /// The text written so far.
    pub(super) const fn as_str(&self) -> &str {
        let mut len = self.len;
        loop {
            if let Some((head, _)) = self.bytes.split_at_checked(len)
                && let Ok(text) = core::str::from_utf8(head)
            {
                return text;
            }
            // Only a character cut at the capacity can fail: drop its bytes.
            if len == 0 {
                return "";
            }
            len -= 1;
        }
    }

    /// Appends the detail of `error`: `ParseError::detail`'s `Display`, written from the same
    /// message parts ([`ErrorKind::message_parts`]).
    pub(super) const fn detail(mut self, error: &ParseError) -> Self {
        let parts = error.kind().message_parts();
        let mut i = 0;
        while i < parts.len() {
            // `i < parts.len()`.
            #[allow(clippy::indexing_slicing)]
            let part = parts[i];
            self = match part {
                Some(MessagePart::Text(text)) => self.str(text),
                Some(MessagePart::Offset) => self.num(error.offset()),
                Some(MessagePart::Num(n)) => self.num(n),
                Some(MessagePart::Plural(n)) => self.str(if n == 1 { "" } else { "s" }),
                Some(MessagePart::Char(c)) => self.escaped(c),
                Some(MessagePart::Component(c)) => self.str(c.name()),
                None => self,
            };
            i += 1;
        }
        self
    }
}
