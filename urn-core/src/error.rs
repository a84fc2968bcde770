//! Parse errors: which rule was broken, and at which byte; and the text handed back when a
//! `String` does not parse.

use alloc::string::String;
use core::fmt;

/// The part of a URN in which a [`ParseError`] was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// The leading `urn:`.
    Scheme,
    /// The namespace identifier.
    Nid,
    /// The namespace-specific string.
    Nss,
    /// The r-component (after `?+`).
    RComponent,
    /// The q-component (after `?=`).
    QComponent,
    /// The f-component (after `#`).
    FComponent,
}

impl Component {
    /// A short name used in messages, e.g. `"NSS"` or `"r-component"`.
    ///
    /// ```
    /// assert_eq!(urn_core::Component::RComponent.name(), "r-component");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Nid => "NID",
            Component::Nss => "NSS",
            Component::RComponent => "r-component",
            Component::QComponent => "q-component",
            Component::FComponent => "f-component",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule a rejected input broke. [`ParseError::offset`] says where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input does not start with `urn:` (any case).
    Scheme,
    /// The input is longer than the configured maximum (see [`crate::DEFAULT_MAX_LEN`]).
    TooLong {
        /// The maximum length in bytes.
        max: usize,
    },
    /// A character that the component does not allow.
    InvalidChar {
        /// Where the character stands.
        component: Component,
        /// The offending character.
        found: char,
    },
    /// A character that may appear in the component, but not as its first character
    /// (`/` starting the NSS, `/` or `?` starting an r- or q-component).
    InvalidFirstChar {
        /// Where the character stands.
        component: Component,
        /// The offending character.
        found: char,
    },
    /// `%` not followed by two hex digits.
    PercentEncoding {
        /// Where the `%` stands.
        component: Component,
    },
    /// `%00`, which RFC 2141 forbids even in encoded form.
    PercentNul,
    /// The NID has the wrong number of characters.
    NidLength {
        /// Its length.
        len: usize,
        /// The minimum of the syntax (2 for RFC 8141, 1 for RFC 2141).
        min: usize,
    },
    /// The NID is not followed by `:`.
    NidUnterminated,
    /// The NID starts with `-`.
    NidLeadingHyphen,
    /// The NID ends with `-` (allowed by RFC 2141, not by RFC 8141).
    NidTrailingHyphen,
    /// The NID `urn`, which RFC 2141 reserves.
    NidReserved,
    /// Nothing follows `urn:<NID>:`.
    EmptyNss,
    /// `?+` or `?=` with nothing after it.
    EmptyComponent {
        /// The empty component.
        component: Component,
    },
    /// A `?` after the NSS that is neither `?+` nor `?=`.
    BareQuestionMark,
    /// A delimiter inside a component given to the builder (it would end the component early).
    Delimiter {
        /// The component that holds the delimiter.
        component: Component,
    },
    /// A key was expected, but the text has an r-, q- or f-component.
    KeyHasComponent,
    /// A key was expected, but the text is not in canonical form.
    KeyNotCanonical,
    /// The input is empty, or white space and nothing else.
    Empty,
    /// The input starts with a UTF-8 byte order mark (U+FEFF, bytes EF BB BF), as some editors
    /// write at the start of a file.
    ByteOrderMark,
    /// The input starts with white space (a URN has none).
    LeadingWhitespace,
    /// The input is a URN followed by white space ([`ParseError::offset`] is where the white
    /// space starts).
    TrailingWhitespace,
    /// The input's bytes are not UTF-8 from [`ParseError::offset`] on (a URN is ASCII):
    /// [`UrnRef::parse_bytes`](crate::UrnRef::parse_bytes) says so where no rule broke
    /// before that byte.
    NotUtf8,
    /// A URN of another namespace than the one required ([`NsUrnError::kind`](crate::NsUrnError::kind);
    /// the offset is the NID's).
    WrongNamespace,
    /// A URN of the namespace required whose NSS breaks the namespace's own rules
    /// ([`NsUrnError::kind`](crate::NsUrnError::kind), a URN's
    /// [`validate_namespace`](crate::UrnRef::validate_namespace); the offset is where).
    InvalidNss,
}

impl ErrorKind {
    /// A stable `snake_case` identifier for the rule, for machine-readable output
    /// (e.g. `"invalid_char"`, `"bare_question_mark"`).
    ///
    /// ```
    /// let err = urn_core::Urn::parse("urn:example:a?b").unwrap_err();
    /// assert_eq!(err.kind().name(), "bare_question_mark");
    /// ```
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            ErrorKind::Scheme => "scheme",
            ErrorKind::TooLong { .. } => "too_long",
            ErrorKind::InvalidChar { .. } => "invalid_char",
            ErrorKind::InvalidFirstChar { .. } => "invalid_first_char",
            ErrorKind::PercentEncoding { .. } => "percent_encoding",
            ErrorKind::PercentNul => "percent_nul",
            ErrorKind::NidLength { .. } => "nid_length",
            ErrorKind::NidUnterminated => "nid_unterminated",
            ErrorKind::NidLeadingHyphen => "nid_leading_hyphen",
            ErrorKind::NidTrailingHyphen => "nid_trailing_hyphen",
            ErrorKind::NidReserved => "nid_reserved",
            ErrorKind::EmptyNss => "empty_nss",
            ErrorKind::EmptyComponent { .. } => "empty_component",
            ErrorKind::BareQuestionMark => "bare_question_mark",
            ErrorKind::Delimiter { .. } => "delimiter",
            ErrorKind::KeyHasComponent => "key_has_component",
            ErrorKind::KeyNotCanonical => "key_not_canonical",
            ErrorKind::Empty => "empty",
            ErrorKind::ByteOrderMark => "byte_order_mark",
            ErrorKind::LeadingWhitespace => "leading_whitespace",
            ErrorKind::TrailingWhitespace => "trailing_whitespace",
            ErrorKind::NotUtf8 => "invalid_utf8",
            ErrorKind::WrongNamespace => "wrong_namespace",
            ErrorKind::InvalidNss => "invalid_nss",
        }
    }

    /// The words of this rule's message (what follows `invalid URN: `), as parts: the one
    /// table that [`ParseError`]'s `Display`, the compile-time messages of
    /// [`urn!`](crate::urn) and urn-sql's SQL renderings all write from. Unused slots are
    /// `None`.
    ///
    /// ```
    /// use urn_core::{ErrorKind, MessagePart};
    /// let parts = ErrorKind::BareQuestionMark.message_parts();
    /// assert_eq!(parts[0], Some(MessagePart::Text("'?' at byte ")));
    /// assert_eq!(parts[1], Some(MessagePart::Offset));
    /// ```
    #[must_use]
    pub const fn message_parts(&self) -> [Option<MessagePart>; MESSAGE_PARTS] {
        use MessagePart::{Char, Component as Part, Num, Offset, Plural, Text};
        let parts: &[MessagePart] = match *self {
            ErrorKind::Scheme => &[Text("expected 'urn:' at byte "), Offset],
            ErrorKind::TooLong { max } => &[
                Text("longer than the maximum of "),
                Num(max),
                Text(" bytes (byte "),
                Offset,
                Text(")"),
            ],
            ErrorKind::InvalidChar { component, found } => &[
                Text("'"),
                Char(found),
                Text("' at byte "),
                Offset,
                Text(" is not allowed in the "),
                Part(component),
            ],
            ErrorKind::InvalidFirstChar { component, found } => &[
                Text("'"),
                Char(found),
                Text("' at byte "),
                Offset,
                Text(" cannot start the "),
                Part(component),
            ],
            ErrorKind::PercentEncoding { component } => &[
                Text("'%' at byte "),
                Offset,
                Text(" in the "),
                Part(component),
                Text(" must be followed by two hex digits"),
            ],
            ErrorKind::PercentNul => &[
                Text("'%00' at byte "),
                Offset,
                Text(" is not allowed by RFC 2141"),
            ],
            ErrorKind::NidLength { len, min } => &[
                Text("NID of "),
                Num(len),
                Text(" character"),
                Plural(len),
                Text(" at byte "),
                Offset,
                Text(": it must have "),
                Num(min),
                Text(" to 32"),
            ],
            ErrorKind::NidUnterminated => &[
                Text("the NID must be followed by ':' (byte "),
                Offset,
                Text(")"),
            ],
            ErrorKind::NidLeadingHyphen => {
                &[Text("'-' at byte "), Offset, Text(" cannot start the NID")]
            }
            ErrorKind::NidTrailingHyphen => {
                &[Text("'-' at byte "), Offset, Text(" cannot end the NID")]
            }
            ErrorKind::NidReserved => &[
                Text("the NID 'urn' at byte "),
                Offset,
                Text(" is reserved by RFC 2141"),
            ],
            ErrorKind::EmptyNss => &[Text("the NSS at byte "), Offset, Text(" is empty")],
            ErrorKind::EmptyComponent { component } => &[
                Text("the "),
                Part(component),
                Text(" at byte "),
                Offset,
                Text(" is empty"),
            ],
            ErrorKind::BareQuestionMark => &[
                Text("'?' at byte "),
                Offset,
                Text(" must be followed by '+' or '='"),
            ],
            ErrorKind::Delimiter { component } => &[
                Text("byte "),
                Offset,
                Text(" would end the "),
                Part(component),
                Text(" early: percent-encode the delimiter"),
            ],
            ErrorKind::KeyHasComponent => &[
                Text("a URN key has no r-, q- or f-component, but one starts at byte "),
                Offset,
            ],
            ErrorKind::KeyNotCanonical => &[
                Text("not a canonical URN key: byte "),
                Offset,
                Text(" differs from the key"),
            ],
            ErrorKind::Empty => &[
                Text("the input is empty or only whitespace (byte "),
                Offset,
                Text(")"),
            ],
            ErrorKind::ByteOrderMark => &[
                Text(
                    "the input starts with a UTF-8 byte order mark (U+FEFF, bytes EF BB BF) at byte ",
                ),
                Offset,
                Text("; remove it"),
            ],
            ErrorKind::LeadingWhitespace => &[
                Text("leading whitespace at byte "),
                Offset,
                Text(" (a URN has none; trim the input)"),
            ],
            ErrorKind::TrailingWhitespace => &[
                Text("trailing whitespace at byte "),
                Offset,
                Text(" (a URN has none; trim the input)"),
            ],
            ErrorKind::NotUtf8 => &[Text("byte "), Offset, Text(" is not UTF-8")],
            ErrorKind::WrongNamespace => &[
                Text("the NID at byte "),
                Offset,
                Text(" is not the namespace required"),
            ],
            ErrorKind::InvalidNss => &[
                Text("the NSS breaks its namespace's rules at byte "),
                Offset,
            ],
        };
        let mut out = [None; MESSAGE_PARTS];
        let mut i = 0;
        while i < parts.len() && i < MESSAGE_PARTS {
            // Both indices were just checked.
            #[allow(clippy::indexing_slicing)]
            {
                out[i] = Some(parts[i]);
            }
            i += 1;
        }
        out
    }
}

/// How many parts the longest message has ([`ErrorKind::message_parts`]).
pub const MESSAGE_PARTS: usize = 9;

/// One piece of an error message ([`ErrorKind::message_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessagePart {
    /// These words.
    Text(&'static str),
    /// The error's byte offset, in decimal.
    Offset,
    /// This number, in decimal.
    Num(usize),
    /// `s` unless the number is 1.
    Plural(usize),
    /// The character, as `char::escape_debug` writes it (`' '`, `'\t'`, `'\u{feff}'`).
    Char(char),
    /// The component's name ([`Component::name`]).
    Component(Component),
}

/// Why a string is not a URN, and the byte offset where it went wrong.
///
/// ```
/// let err = urn_core::Urn::parse("urn:example:a?b").unwrap_err();
/// assert_eq!(err.offset(), 13);
/// assert_eq!(err.kind(), urn_core::ErrorKind::BareQuestionMark);
/// assert_eq!(err.to_string(), "invalid URN: '?' at byte 13 must be followed by '+' or '='");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    kind: ErrorKind,
    offset: usize,
}

impl ParseError {
    pub(crate) const fn new(kind: ErrorKind, offset: usize) -> Self {
        ParseError { kind, offset }
    }

    /// The error of input whose bytes are not UTF-8 from `offset` on
    /// ([`ErrorKind::NotUtf8`]), for a reader that holds the URN inside other text (a JSON
    /// line); [`UrnRef::parse_bytes`](crate::UrnRef::parse_bytes) gives it for bytes that are
    /// the URN.
    ///
    /// ```
    /// assert_eq!(urn_core::ParseError::not_utf8(3).to_string(), "invalid URN: byte 3 is not UTF-8");
    /// ```
    #[must_use]
    pub const fn not_utf8(offset: usize) -> Self {
        ParseError::new(ErrorKind::NotUtf8, offset)
    }

    /// The rule that was broken.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte index into the input at which the rule was broken.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The message without the `invalid URN: ` prefix, e.g.
    /// `' ' at byte 7 is not allowed in the NSS`.
    ///
    /// ```
    /// let err = urn_core::Urn::parse("urn:x:a b").unwrap_err();
    /// assert_eq!(err.detail().to_string(), "NID of 1 character at byte 4: it must have 2 to 32");
    /// ```
    #[must_use]
    pub fn detail(&self) -> impl fmt::Display + '_ {
        Detail(self)
    }
}

struct Detail<'a>(&'a ParseError);

impl fmt::Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in self.0.kind.message_parts().into_iter().flatten() {
            match part {
                MessagePart::Text(text) => f.write_str(text)?,
                MessagePart::Offset => write!(f, "{}", self.0.offset)?,
                MessagePart::Num(n) => write!(f, "{n}")?,
                MessagePart::Plural(n) => f.write_str(if n == 1 { "" } else { "s" })?,
                MessagePart::Char(c) => write!(f, "{}", c.escape_debug())?,
                MessagePart::Component(c) => f.write_str(c.name())?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid URN: {}", self.detail())
    }
}

impl core::error::Error for ParseError {}

/// A [`ParseError`] that hands back the `String` which did not parse, as std's
/// `FromUtf8Error` hands back its bytes: the error of the conversions that take a `String`
/// ([`Urn::from_string`](crate::Urn::from_string), [`UrnKey::from_string`](crate::UrnKey::from_string)
/// and their `TryFrom<String>`).
///
/// Its `Display` is the [`ParseError`]'s (so it has no `source`); `?` turns it into a
/// `ParseError` where one is expected.
///
/// ```
/// use urn_core::Urn;
/// let err = Urn::from_string(String::from("urn:example:a b")).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (err.error().kind(), 13));
/// assert_eq!(err.to_string(), "invalid URN: ' ' at byte 13 is not allowed in the NSS");
/// let text: String = err.into_string(); // the caller's string, not a copy
/// assert_eq!(text, "urn:example:a b");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FromStringError {
    error: ParseError,
    text: String,
}

impl FromStringError {
    pub(crate) const fn new(text: String, error: ParseError) -> Self {
        FromStringError { error, text }
    }

    /// Why the text is not a URN.
    #[must_use]
    pub const fn error(&self) -> ParseError {
        self.error
    }

    /// The rule that was broken (the same as `error().kind()`).
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.error.kind
    }

    /// The byte index into the text at which the rule was broken.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.error.offset
    }

    /// The text that did not parse.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text that did not parse, given back.
    #[must_use]
    pub fn into_string(self) -> String {
        self.text
    }
}

impl fmt::Display for FromStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl core::error::Error for FromStringError {}

/// The error without the text.
impl From<FromStringError> for ParseError {
    fn from(e: FromStringError) -> Self {
        e.error
    }
}
