//! The single-pass parsers (RFC 8141 and RFC 2141), how to run them ([`ParseOptions`]), and
//! what they produce: the component offsets of a URN ([`Parsed`]), which `UrnRef`, `Urn` and
//! `UrnKey` are built on.

use crate::chars::{self, HEX, KEEP_LOWER, NID, NSS, PLAIN, QF, TRANS_2141};
use crate::error::{Component, ErrorKind, ParseError};
use crate::key_rules::KeyRules;
use crate::namespaces::{self, KnownNamespace};

/// The longest input [`Urn::parse`](crate::Urn::parse) accepts by default: 64 KiB (65,536
/// bytes, about the 65,534 `http::Uri` allows).
///
/// RFC 8141 sets no limit beyond the 32-character NID. This cap is the workspace's one length
/// policy: the parser, serde, the JSON Schemas (`maxLength`) and the SQL of all three
/// databases (PostgreSQL's `urn_syntax` constraint, MariaDB's key expression, SQLite's key
/// function and `urn_length` guard) accept the same 65,536 bytes, and every URN up to it can
/// be stored, deduplicated and found. A longer input is an [`ErrorKind::TooLong`] error, never
/// truncated. Choose another cap (smaller for an API, or [`ParseOptions::unlimited`]) with
/// [`ParseOptions::with_max_len`]; the `urn` CLI has no cap unless given `--max-len`.
///
/// ```
/// use urn_core::{DEFAULT_MAX_LEN, ErrorKind, ParseOptions, Urn};
/// let long = format!("urn:example:{}", "a".repeat(DEFAULT_MAX_LEN - 12));
/// assert!(Urn::parse(&long).is_ok());
/// let longer = format!("{long}b");
/// assert_eq!(Urn::parse(&longer).unwrap_err().kind(), ErrorKind::TooLong { max: 65_536 });
/// assert!(Urn::parse_with(&longer, ParseOptions::unlimited()).is_ok());
/// ```
pub const DEFAULT_MAX_LEN: usize = 64 * 1024;

/// Which grammar to parse with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Syntax {
    /// RFC 8141 (2017), the current standard: NID of 2 to 32 characters, `/`, `~`, `&` in the
    /// NSS, r-, q- and f-components; a `?` not followed by `+` or `=` is an error.
    #[default]
    Rfc8141,
    /// RFC 2141 (1997), for legacy data: NID of 1 to 32 characters (a trailing `-` allowed,
    /// `urn` reserved), an NSS of letters, digits, `()+,-.:=@;$_!*'` and `%XX` (not `%00`),
    /// no components.
    Rfc2141,
}

impl Syntax {
    /// The fewest characters a NID has in this grammar: 2 (RFC 8141), 1 (RFC 2141); the most
    /// is [`patterns::NID_MAX_LEN`](crate::patterns::NID_MAX_LEN) in both.
    ///
    /// ```
    /// assert_eq!(urn_core::Syntax::Rfc8141.min_nid_len(), 2);
    /// ```
    #[must_use]
    pub const fn min_nid_len(self) -> usize {
        match self {
            Syntax::Rfc8141 => 2,
            Syntax::Rfc2141 => 1,
        }
    }
}

/// How to parse: the [`Syntax`] and the maximum input length. Pass it to
/// [`Urn::parse_with`](crate::Urn::parse_with) or [`UrnRef::parse_with`](crate::UrnRef::parse_with)
/// (a [`Syntax`] alone converts into options with the default length cap).
///
/// ```
/// use urn_core::{ParseOptions, Syntax, Urn};
/// let legacy = ParseOptions::new().with_syntax(Syntax::Rfc2141).with_max_len(512);
/// let urn = Urn::parse_with("urn:a:b", legacy)?; // one-character NIDs are RFC 2141 only
/// assert_eq!(urn.nid(), "a");
/// assert!(Urn::parse_with("urn:example:a/b", legacy).is_err());
/// assert_eq!((legacy.syntax(), legacy.max_len()), (Syntax::Rfc2141, 512));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseOptions {
    syntax: Syntax,
    max_len: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl ParseOptions {
    /// The error every input longer than the cap gets ([`ErrorKind::TooLong`], at the byte
    /// the cap ends): for a reader that stops reading an input there.
    ///
    /// ```
    /// let options = urn_core::ParseOptions::new().with_max_len(8);
    /// assert_eq!(options.too_long().to_string(), "invalid URN: longer than the maximum of 8 bytes (byte 8)");
    /// ```
    #[must_use]
    pub const fn too_long(&self) -> ParseError {
        ParseError::new(ErrorKind::TooLong { max: self.max_len }, self.max_len)
    }

    /// RFC 8141 with a maximum length of [`DEFAULT_MAX_LEN`].
    #[must_use]
    pub const fn new() -> Self {
        ParseOptions {
            syntax: Syntax::Rfc8141,
            max_len: DEFAULT_MAX_LEN,
        }
    }

    /// RFC 8141 with no length cap beyond what a `Urn` can index (`u32::MAX` bytes), for
    /// tools that read data rather than guard an API (the `urn` CLI parses this way).
    #[must_use]
    pub const fn unlimited() -> Self {
        Self::new().with_max_len(usize::MAX)
    }

    /// These options with another grammar.
    #[must_use]
    pub const fn with_syntax(mut self, syntax: Syntax) -> Self {
        self.syntax = syntax;
        self
    }

    /// These options with another maximum input length in bytes (at most `u32::MAX`).
    #[must_use]
    pub const fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = if max_len > u32::MAX as usize {
            u32::MAX as usize
        } else {
            max_len
        };
        self
    }

    /// The grammar these options parse with.
    #[must_use]
    pub const fn syntax(&self) -> Syntax {
        self.syntax
    }

    /// The maximum input length in bytes.
    #[must_use]
    pub const fn max_len(&self) -> usize {
        self.max_len
    }
}

/// The grammar, with the default length cap.
impl From<Syntax> for ParseOptions {
    fn from(syntax: Syntax) -> Self {
        ParseOptions::new().with_syntax(syntax)
    }
}

/// A parsed URN: its text and where its components lie. The one representation `UrnRef`
/// wraps, `Urn` keeps (with an owned text) and the key and comparison code read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parsed<'a> {
    pub(crate) text: &'a str,
    pub(crate) offsets: Offsets,
}

impl<'a> Parsed<'a> {
    /// `text[start..end]`, or `""` where that is no slice (the parse's offsets always are).
    #[inline]
    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// Where the NSS starts.
    #[inline]
    pub(crate) const fn nss_start(&self) -> usize {
        self.offsets.nid_end as usize + 1
    }

    #[inline]
    pub(crate) fn nid(&self) -> &'a str {
        self.slice(4, self.offsets.nid_end as usize)
    }

    #[inline]
    pub(crate) fn nss(&self) -> &'a str {
        self.slice(self.nss_start(), self.offsets.nss_end as usize)
    }

    pub(crate) fn r_component(&self) -> Option<&'a str> {
        let Offsets { nss_end, r_end, .. } = self.offsets;
        (r_end > nss_end).then(|| self.slice(nss_end as usize + 2, r_end as usize))
    }

    pub(crate) fn q_component(&self) -> Option<&'a str> {
        let Offsets { r_end, q_end, .. } = self.offsets;
        (q_end > r_end).then(|| self.slice(r_end as usize + 2, q_end as usize))
    }

    pub(crate) fn f_component(&self) -> Option<&'a str> {
        let q_end = self.offsets.q_end as usize;
        (q_end < self.text.len()).then(|| self.slice(q_end + 1, self.text.len()))
    }

    /// `urn:<NID>:<NSS>` as written.
    #[inline]
    pub(crate) fn assigned_name(&self) -> &'a str {
        self.slice(0, self.offsets.nss_end as usize)
    }
}

/// Where the components of a parsed URN lie in its text, plus what the parse learned
/// about its normal form.
///
/// The NID spans `4..nid_end`; the NSS `nid_end + 1..nss_end`. An r-component is present
/// when `r_end > nss_end` and spans `nss_end + 2..r_end`; a q-component when
/// `q_end > r_end`, spanning `r_end + 2..q_end`; an f-component when `q_end < len`,
/// spanning `q_end + 1..len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Offsets {
    pub(crate) nid_end: u8,
    pub(crate) flags: u8,
    /// The namespace whose own equivalence rule (in [`KeyRules::V1`] or a later version)
    /// applies to this NID, so that whether the assigned name is its key depends on the NSS
    /// (found once, here).
    pub(crate) rule: Option<KnownNamespace>,
    pub(crate) nss_end: u32,
    pub(crate) r_end: u32,
    pub(crate) q_end: u32,
}

/// The assigned name is already its RFC 8141 section 3 key.
pub(crate) const RFC8141_VERBATIM: u8 = 1;
/// The NSS holds a `%XX` with lower-case hex.
pub(crate) const LOWER_HEX: u8 = 4;
/// The NSS holds a `%XX`.
pub(crate) const HAS_PERCENT: u8 = 8;

impl Offsets {
    /// Whether the assigned name is its own key under `rules`, as far as the parse could tell
    /// without namespace work: `Some(answer)`, or `None` when the namespace rule must decide.
    #[inline]
    pub(crate) const fn verbatim(&self, rules: KeyRules) -> Option<bool> {
        let generic = self.flags & RFC8141_VERBATIM != 0;
        match rules {
            KeyRules::Rfc8141 => Some(generic),
            _ if generic && self.rule.is_some() => None,
            _ => Some(generic),
        }
    }

    /// Whether some `%XX` in the NSS has lower-case hex digits.
    #[inline]
    pub(crate) const fn nss_has_lower_hex(&self) -> bool {
        self.flags & LOWER_HEX != 0
    }

    /// Whether the NSS holds any `%XX`.
    #[inline]
    pub(crate) const fn nss_has_percent(&self) -> bool {
        self.flags & HAS_PERCENT != 0
    }

    /// Whether the assigned name is its own key under `rules` with no namespace work to do.
    #[inline]
    pub(crate) const fn surely_verbatim(&self, rules: KeyRules) -> bool {
        matches!(self.verbatim(rules), Some(true))
    }

    /// Offsets of `text`, a URN without components that is its own key, whose NID has
    /// `nid_len` characters.
    pub(crate) fn normal_assigned_name(text: &str, nid_len: usize) -> Self {
        let len = text.len();
        finish(
            4 + nid_len,
            rule_of(text.as_bytes(), 4 + nid_len),
            len,
            len,
            len,
            seen(true, false, text.contains('%')),
        )
    }
}

/// Returns the error of a `Result` from the enclosing `const fn` (`?` is not `const`).
macro_rules! tri {
    ($result:expr) => {
        match $result {
            Ok(value) => value,
            Err(e) => return Err(e),
        }
    };
}

const fn invalid_char(bytes: &[u8], at: usize, component: Component) -> ParseError {
    let found = chars::char_at(bytes, at);
    ParseError::new(ErrorKind::InvalidChar { component, found }, at)
}

const fn invalid_first(bytes: &[u8], at: usize, component: Component) -> ParseError {
    let found = chars::char_at(bytes, at);
    if found == '/' || found == '?' {
        ParseError::new(ErrorKind::InvalidFirstChar { component, found }, at)
    } else {
        ParseError::new(ErrorKind::InvalidChar { component, found }, at)
    }
}

/// Checks the `%XX` triplet starting at `at` and returns whether its hex is lowercase.
#[inline(always)]
const fn percent(bytes: &[u8], at: usize, component: Component) -> Result<bool, ParseError> {
    match (chars::at(bytes, at + 1), chars::at(bytes, at + 2)) {
        (Some(h1), Some(h2)) if chars::is(h1, HEX) && chars::is(h2, HEX) => {
            Ok(h1 >= b'a' || h2 >= b'a')
        }
        _ => Err(ParseError::new(
            ErrorKind::PercentEncoding { component },
            at,
        )),
    }
}

/// Parses `input` under `options`: the one parser, a `const fn`, so that run-time parsing,
/// [`UrnRef::from_static`](crate::UrnRef::from_static) and [`urn!`](crate::urn) run the same
/// code.
#[inline]
pub(crate) const fn parse(input: &str, options: ParseOptions) -> Result<Parsed<'_>, ParseError> {
    if input.len() > options.max_len {
        return Err(options.too_long());
    }
    match offsets(input.as_bytes(), options.syntax) {
        Ok(offsets) => Ok(Parsed {
            text: input,
            offsets,
        }),
        Err(e) => Err(diagnose(input.as_bytes(), e, options.syntax)),
    }
}

/// The grammar of `syntax` over `bytes`.
#[inline(always)]
const fn offsets(bytes: &[u8], syntax: Syntax) -> Result<Offsets, ParseError> {
    match syntax {
        Syntax::Rfc8141 => parse_rfc8141(bytes),
        Syntax::Rfc2141 => parse_rfc2141(bytes),
    }
}

/// The rule a user broke when the grammar refused `bytes` with `error`: what lies around a URN
/// rather than in it (a byte order mark from an editor, an empty or blank line, white space
/// around the URN), or else `error` itself. Only refused inputs get here, and only an error at
/// byte 0 or at a white space character looks further.
#[cold]
const fn diagnose(bytes: &[u8], error: ParseError, syntax: Syntax) -> ParseError {
    match error.kind() {
        // Only an input that starts with white space is read further: the first character
        // tells an input with a URN-ish start apart (its scheme error stands).
        ErrorKind::Scheme if error.offset() == 0 => {
            if let Some(&[0xEF, 0xBB, 0xBF]) = bytes.first_chunk::<3>() {
                ParseError::new(ErrorKind::ByteOrderMark, 0)
            } else if bytes.is_empty() {
                ParseError::new(ErrorKind::Empty, 0)
            } else if !chars::is_whitespace(chars::char_at(bytes, 0)) {
                error
            } else if blank_from(bytes, 0) {
                ParseError::new(ErrorKind::Empty, 0)
            } else {
                ParseError::new(ErrorKind::LeadingWhitespace, 0)
            }
        }
        ErrorKind::InvalidChar { found, .. } | ErrorKind::InvalidFirstChar { found, .. }
            if chars::is_whitespace(found) =>
        {
            let at = error.offset();
            match bytes.split_at_checked(at) {
                Some((urn, _)) if blank_from(bytes, at) && offsets(urn, syntax).is_ok() => {
                    ParseError::new(ErrorKind::TrailingWhitespace, at)
                }
                _ => error,
            }
        }
        _ => error,
    }
}

/// Whether everything in `bytes` from byte `from` (a character boundary) on is white space;
/// stops at the first character that is not.
const fn blank_from(bytes: &[u8], from: usize) -> bool {
    let mut i = from;
    while let Some(lead) = chars::at(bytes, i) {
        if !chars::is_whitespace(chars::char_at(bytes, i)) {
            return false;
        }
        i += chars::utf8_len(lead);
    }
    true
}

/// Matches `urn:` in any case; returns whether it was written in lower case.
#[inline(always)]
const fn scheme(bytes: &[u8]) -> Result<bool, ParseError> {
    if let Some(&[u, r, n, colon]) = bytes.first_chunk::<4>()
        && u | 0x20 == b'u'
        && r | 0x20 == b'r'
        && n | 0x20 == b'n'
        && colon == b':'
    {
        return Ok(u == b'u' && r == b'r' && n == b'n');
    }
    let expected = b"urn:";
    let mut at = 0;
    while at < 4 {
        match (chars::at(bytes, at), chars::at(expected, at)) {
            (Some(b), Some(e)) if b.to_ascii_lowercase() == e => at += 1,
            _ => break,
        }
    }
    Err(ParseError::new(ErrorKind::Scheme, at))
}

/// Scans the NID starting at byte 4; returns the index of its closing `:` and whether it
/// holds an upper-case letter.
#[inline(always)]
const fn nid(bytes: &[u8], min: usize, trailing_hyphen: bool) -> Result<(usize, bool), ParseError> {
    let mut i = 4;
    let mut all = KEEP_LOWER;
    while let Some(b) = chars::at(bytes, i) {
        let class = chars::class(b);
        if class & NID == 0 {
            break;
        }
        all &= class;
        i += 1;
    }
    if i - 4 > crate::patterns::NID_MAX_LEN {
        return Err(ParseError::new(ErrorKind::NidLength { len: i - 4, min }, 4));
    }
    match chars::at(bytes, i) {
        Some(b':') => {}
        None => return Err(ParseError::new(ErrorKind::NidUnterminated, i)),
        Some(_) => return Err(invalid_char(bytes, i, Component::Nid)),
    }
    let len = i - 4;
    if matches!(chars::at(bytes, 4), Some(b'-')) {
        return Err(ParseError::new(ErrorKind::NidLeadingHyphen, 4));
    }
    if len < min {
        return Err(ParseError::new(ErrorKind::NidLength { len, min }, 4));
    }
    if !trailing_hyphen && matches!(chars::at(bytes, i - 1), Some(b'-')) {
        return Err(ParseError::new(ErrorKind::NidTrailingHyphen, i - 1));
    }
    Ok((i, all == 0))
}

const fn parse_rfc8141(bytes: &[u8]) -> Result<Offsets, ParseError> {
    let scheme_lower = tri!(scheme(bytes));
    let (nid_end, nid_upper) = tri!(nid(bytes, Syntax::Rfc8141.min_nid_len(), false));
    let rule = rule_of(bytes, nid_end);

    // NSS: PLAIN or %XX first, then PLAIN, %XX or '/', up to '?', '#' or the end.
    let nss_start = nid_end + 1;
    match chars::at(bytes, nss_start) {
        None | Some(b'?') | Some(b'#') => {
            return Err(ParseError::new(ErrorKind::EmptyNss, nss_start));
        }
        Some(b) if b == b'%' || chars::is(b, PLAIN) => {}
        Some(_) => return Err(invalid_first(bytes, nss_start, Component::Nss)),
    }
    let mut i = nss_start;
    let mut lower_hex = false;
    let mut has_percent = false;
    loop {
        i = chars::skip(bytes, i, NSS);
        match chars::at(bytes, i) {
            Some(b'%') => {
                lower_hex |= tri!(percent(bytes, i, Component::Nss));
                has_percent = true;
                i += 3;
            }
            None | Some(b'?') | Some(b'#') => break,
            Some(_) => return Err(invalid_char(bytes, i, Component::Nss)),
        }
    }
    let nss_end = i;

    // r-component: "?+" then up to "?=", '#' or the end.
    if matches!(chars::at(bytes, i), Some(b'?')) {
        match chars::at(bytes, i + 1) {
            Some(b'+') => {
                i = tri!(component(bytes, i + 2, Component::RComponent));
            }
            Some(b'=') => {}
            _ => return Err(ParseError::new(ErrorKind::BareQuestionMark, i)),
        }
    }
    let r_end = i;

    // q-component: "?=" then up to '#' or the end. After an r-component, a '?' here is
    // always followed by '='.
    if matches!(chars::at(bytes, i), Some(b'?')) {
        i = tri!(component(bytes, i + 2, Component::QComponent));
    }
    let q_end = i;

    // f-component: '#' then anything of PLAIN, %XX, '/', '?' (possibly nothing).
    if matches!(chars::at(bytes, i), Some(b'#')) {
        i += 1;
        loop {
            i = chars::skip(bytes, i, QF);
            match chars::at(bytes, i) {
                Some(b'%') => {
                    tri!(percent(bytes, i, Component::FComponent));
                    i += 3;
                }
                None => break,
                Some(_) => return Err(invalid_char(bytes, i, Component::FComponent)),
            }
        }
    }

    let generic = scheme_lower && !nid_upper && !lower_hex;
    Ok(finish(
        nid_end,
        rule,
        nss_end,
        r_end,
        q_end,
        seen(generic, lower_hex, has_percent),
    ))
}

/// Scans an r- or q-component whose first byte is at `start`; returns where it ends.
#[inline(always)]
const fn component(bytes: &[u8], start: usize, which: Component) -> Result<usize, ParseError> {
    let is_r = matches!(which, Component::RComponent);
    match chars::at(bytes, start) {
        Some(b) if b == b'%' || chars::is(b, PLAIN) => {}
        None | Some(b'#') => {
            return Err(ParseError::new(
                ErrorKind::EmptyComponent { component: which },
                start,
            ));
        }
        Some(b'?') if is_r && matches!(chars::at(bytes, start + 1), Some(b'=')) => {
            return Err(ParseError::new(
                ErrorKind::EmptyComponent { component: which },
                start,
            ));
        }
        Some(_) => return Err(invalid_first(bytes, start, which)),
    }
    // The r-component may hold '?' but ends at "?="; the q-component ends only at '#'.
    let mask = if is_r { NSS } else { QF };
    let mut i = start;
    loop {
        i = chars::skip(bytes, i, mask);
        match chars::at(bytes, i) {
            Some(b'%') => {
                tri!(percent(bytes, i, which));
                i += 3;
            }
            Some(b'?') => {
                if matches!(chars::at(bytes, i + 1), Some(b'=')) {
                    return Ok(i);
                }
                i += 1;
            }
            None | Some(b'#') => return Ok(i),
            Some(_) => return Err(invalid_char(bytes, i, which)),
        }
    }
}

const fn parse_rfc2141(bytes: &[u8]) -> Result<Offsets, ParseError> {
    let scheme_lower = tri!(scheme(bytes));
    let (nid_end, nid_upper) = tri!(nid(bytes, Syntax::Rfc2141.min_nid_len(), true));
    let rule = rule_of(bytes, nid_end);
    if chars::slice(bytes, 4, nid_end).eq_ignore_ascii_case(b"urn") {
        return Err(ParseError::new(ErrorKind::NidReserved, 4));
    }
    let nss_start = nid_end + 1;
    if nss_start >= bytes.len() {
        return Err(ParseError::new(ErrorKind::EmptyNss, nss_start));
    }
    let mut i = nss_start;
    let mut lower_hex = false;
    let mut has_percent = false;
    loop {
        i = chars::skip(bytes, i, TRANS_2141);
        match chars::at(bytes, i) {
            Some(b'%') => {
                lower_hex |= tri!(percent(bytes, i, Component::Nss));
                has_percent = true;
                if matches!(chars::at(bytes, i + 1), Some(b'0'))
                    && matches!(chars::at(bytes, i + 2), Some(b'0'))
                {
                    return Err(ParseError::new(ErrorKind::PercentNul, i));
                }
                i += 3;
            }
            None => break,
            Some(_) => return Err(invalid_char(bytes, i, Component::Nss)),
        }
    }
    let generic = scheme_lower && !nid_upper && !lower_hex;
    let end = bytes.len();
    Ok(finish(
        nid_end,
        rule,
        end,
        end,
        end,
        seen(generic, lower_hex, has_percent),
    ))
}

/// The flags for what the parse saw: the assigned name already generic-normal, lower-case
/// hex in the NSS, any `%XX` in the NSS.
#[inline(always)]
const fn seen(generic_verbatim: bool, lower_hex: bool, has_percent: bool) -> u8 {
    let mut flags = 0;
    if generic_verbatim {
        flags |= RFC8141_VERBATIM;
    }
    if lower_hex {
        flags |= LOWER_HEX;
    }
    if has_percent {
        flags |= HAS_PERCENT;
    }
    flags
}

/// The namespace whose equivalence rule applies to the NID ending at `nid_end`. Found as soon
/// as the NID is known, so the NID's bytes need not stay at hand during the NSS scan.
#[inline(always)]
const fn rule_of(bytes: &[u8], nid_end: usize) -> Option<KnownNamespace> {
    namespaces::rule_namespace(chars::slice(bytes, 4, nid_end))
}

/// Packs the offsets and flags.
#[inline(always)]
const fn finish(
    nid_end: usize,
    rule: Option<KnownNamespace>,
    nss_end: usize,
    r_end: usize,
    q_end: usize,
    flags: u8,
) -> Offsets {
    // The length cap (at most u32::MAX) and the NID cap (32) make these casts lossless.
    Offsets {
        nid_end: nid_end as u8,
        flags,
        rule,
        nss_end: nss_end as u32,
        r_end: r_end as u32,
        q_end: q_end as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> (ErrorKind, usize) {
        let e = parse(s, ParseOptions::new()).unwrap_err();
        (e.kind(), e.offset())
    }

    #[test]
    fn errors_name_rule_and_byte() {
        assert_eq!(kind(""), (ErrorKind::Empty, 0));
        assert_eq!(kind(" \t"), (ErrorKind::Empty, 0));
        assert_eq!(kind("\u{feff}urn:ab:x"), (ErrorKind::ByteOrderMark, 0));
        assert_eq!(kind(" urn:ab:x"), (ErrorKind::LeadingWhitespace, 0));
        assert_eq!(kind("urn:ab:x \n"), (ErrorKind::TrailingWhitespace, 8));
        assert_eq!(kind("urn:ab:x\u{3000}"), (ErrorKind::TrailingWhitespace, 8));
        // Not a URN before the white space: the grammar's own error.
        assert_eq!(
            kind("urn:ab:x?+ "),
            (
                ErrorKind::InvalidChar {
                    component: Component::RComponent,
                    found: ' '
                },
                10
            )
        );
        assert_eq!(
            kind("urn:ab:a b "),
            (
                ErrorKind::InvalidChar {
                    component: Component::Nss,
                    found: ' '
                },
                8
            )
        );
        assert_eq!(kind("x"), (ErrorKind::Scheme, 0));
        assert_eq!(kind("urx:a:b"), (ErrorKind::Scheme, 2));
        assert_eq!(kind("urn"), (ErrorKind::Scheme, 3));
        assert_eq!(kind("urn:ab"), (ErrorKind::NidUnterminated, 6));
        assert_eq!(kind("urn:-ab:x"), (ErrorKind::NidLeadingHyphen, 4));
        assert_eq!(kind("urn:ab-:x"), (ErrorKind::NidTrailingHyphen, 6));
        assert_eq!(
            kind("urn:a:x"),
            (ErrorKind::NidLength { len: 1, min: 2 }, 4)
        );
        assert_eq!(kind("urn:ab:"), (ErrorKind::EmptyNss, 7));
        assert_eq!(kind("urn:ab:#f"), (ErrorKind::EmptyNss, 7));
        assert_eq!(
            kind("urn:ab:/x"),
            (
                ErrorKind::InvalidFirstChar {
                    component: Component::Nss,
                    found: '/'
                },
                7
            )
        );
        assert_eq!(
            kind("urn:ab:a b"),
            (
                ErrorKind::InvalidChar {
                    component: Component::Nss,
                    found: ' '
                },
                8
            )
        );
        assert_eq!(
            kind("urn:ab:aé"),
            (
                ErrorKind::InvalidChar {
                    component: Component::Nss,
                    found: 'é'
                },
                8
            )
        );
        assert_eq!(
            kind("urn:ab:a%4"),
            (
                ErrorKind::PercentEncoding {
                    component: Component::Nss
                },
                8
            )
        );
        assert_eq!(kind("urn:ab:a?b"), (ErrorKind::BareQuestionMark, 8));
        assert_eq!(kind("urn:ab:a?"), (ErrorKind::BareQuestionMark, 8));
        assert_eq!(
            kind("urn:ab:a?+"),
            (
                ErrorKind::EmptyComponent {
                    component: Component::RComponent
                },
                10
            )
        );
        assert_eq!(
            kind("urn:ab:a?+b?="),
            (
                ErrorKind::EmptyComponent {
                    component: Component::QComponent
                },
                13
            )
        );
        assert_eq!(
            kind("urn:ab:a?+?=q"),
            (
                ErrorKind::EmptyComponent {
                    component: Component::RComponent
                },
                10
            )
        );
        assert_eq!(
            kind("urn:ab:a#b#"),
            (
                ErrorKind::InvalidChar {
                    component: Component::FComponent,
                    found: '#'
                },
                10
            )
        );
        let long = alloc::format!("urn:{}:x", "a".repeat(33));
        assert_eq!(kind(&long), (ErrorKind::NidLength { len: 33, min: 2 }, 4));
    }

    #[test]
    fn components_split_by_the_prose_rules() {
        let o = parse("urn:example:a?+r?=q#f", ParseOptions::new())
            .unwrap()
            .offsets;
        assert_eq!((o.nid_end, o.nss_end, o.r_end, o.q_end), (11, 13, 16, 19));
        let o = parse("urn:example:a?=q?+r", ParseOptions::new())
            .unwrap()
            .offsets;
        assert_eq!((o.nss_end, o.r_end, o.q_end), (13, 13, 19));
    }

    #[test]
    fn too_long_is_an_error_not_a_truncation() {
        let opts = ParseOptions::new().with_max_len(10);
        let e = parse("urn:example:abc", opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooLong { max: 10 });
        assert_eq!(e.offset(), 10);
        assert!(parse("urn:ab:cde", opts).is_ok());
    }
}
