//! Repairing near-misses ([`repair`]): a text that is almost a URN becomes one only with the
//! list of every change made, each named, placed and shown before and after.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use crate::chars;
use crate::error::{ErrorKind, ParseError};
use crate::find::{FindOptions, find_with};
use crate::namespaces::{KnownNamespace, NamespaceError};
use crate::parse::ParseOptions;
use crate::registry::{NidStatus, nid_status};
use crate::resolver::unwrap_link;
use crate::urn::Urn;
use crate::urn_ref::UrnRef;

/// What a [`Fix`] changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FixKind {
    /// A byte order mark (U+FEFF) at the start, removed.
    ByteOrderMark,
    /// White space before the URN, removed.
    LeadingWhitespace,
    /// White space after the URN, removed.
    TrailingWhitespace,
    /// A control character at either end, or an invisible one (zero-width space, non-joiner,
    /// joiner, word joiner, U+FEFF) anywhere, removed.
    Control,
    /// A full-width form of an ASCII character (U+FF01 to U+FF5E), made ASCII.
    FullWidth,
    /// A Unicode dash in the NSS of a namespace whose syntax groups with `-`, made `-`.
    Dash,
    /// White space in the NSS of a namespace whose syntax groups with `-`, made `-` (a run of
    /// it, one `-`).
    Space,
    /// White space around the `:`s of `urn:<NID>:`, removed.
    Spacing,
    /// `urn:` written before a registered formal NID that lacked it.
    MissingPrefix,
    /// A second `urn:` (`urn:urn:isbn:…`: the NID `urn` is reserved), removed.
    DoubledPrefix,
    /// The namespace's name as a label at the start of its NSS (`urn:isbn:ISBN 978…`),
    /// removed where the NSS is valid for the namespace only without it.
    Label,
    /// A character RFC 8141 allows only percent-encoded (white space, a non-ASCII character
    /// as its UTF-8 bytes, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, `[`, `]`, a `%`
    /// without two hex digits), encoded.
    PercentEncoded,
    /// Quotes or brackets around the whole text (`"…"`, `'…'`, `(…)`, `[…]`, `<…>`, `{…}`,
    /// `` `…` ``, `“…”`, `‘…’`, `«…»`), removed.
    Quotes,
    /// A sentence mark (`.`, `,`, `;`, `:`, `!`, `?`) at the end of a text that is no URN as
    /// given, removed.
    SentenceMark,
    /// A resolver link ([`unwrap_link`](crate::unwrap_link)), made its URN.
    Link,
    /// A whole URN percent-encoded once (`urn%3Aietf%3A…`, as a query string carries it),
    /// decoded.
    Decoded,
}

impl FixKind {
    /// A stable `snake_case` name for machine-readable output (`"full_width"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FixKind::ByteOrderMark => "byte_order_mark",
            FixKind::LeadingWhitespace => "leading_whitespace",
            FixKind::TrailingWhitespace => "trailing_whitespace",
            FixKind::Control => "control",
            FixKind::FullWidth => "full_width",
            FixKind::Dash => "dash",
            FixKind::Space => "space",
            FixKind::Spacing => "spacing",
            FixKind::MissingPrefix => "missing_prefix",
            FixKind::DoubledPrefix => "doubled_prefix",
            FixKind::Label => "label",
            FixKind::PercentEncoded => "percent_encoded",
            FixKind::Quotes => "quotes",
            FixKind::SentenceMark => "sentence_mark",
            FixKind::Link => "link",
            FixKind::Decoded => "decoded",
        }
    }
}

/// One change [`repair`] made: what kind, where in the input (bytes `start..end`; an
/// insertion has `start == end`), and the text before and after.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What changed.
    pub kind: FixKind,
    /// Where the changed text starts in the input.
    pub start: usize,
    /// Where it ends in the input.
    pub end: usize,
    /// The input's text there.
    pub before: String,
    /// What it became.
    pub after: String,
}

/// What [`repair`] made of a text: a URN and the fixes that made it, or the parser's error on
/// the text as given (or the namespace's refusal of the URN made: [`Repair::refused`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    outcome: Result<Urn, ParseError>,
    fixes: Vec<Fix>,
    refused: Option<NamespaceError>,
}

impl Repair {
    /// The URN, if the text is one after the fixes.
    #[must_use]
    pub fn urn(&self) -> Option<&Urn> {
        self.outcome.as_ref().ok()
    }

    /// Every change made, in input order (none for a text that was a URN already).
    #[must_use]
    pub fn fixes(&self) -> &[Fix] {
        &self.fixes
    }

    /// The parser's error on the text as given, where no repair made it a URN; or, where the
    /// fixes made a URN of a known namespace that the namespace refuses, an
    /// [`ErrorKind::InvalidNss`] at the byte of that URN where its rule broke (see
    /// [`Repair::refused`]).
    #[must_use]
    pub fn error(&self) -> Option<&ParseError> {
        self.outcome.as_ref().err()
    }

    /// The namespace's error on the URN the fixes made, where its known namespace refuses
    /// it: that URN is not returned (it would name what the input did not).
    ///
    /// ```
    /// let template = urn_core::repair("URN:LEI:[20-digit LEI code]");
    /// assert_eq!(template.urn(), None);
    /// assert_eq!(template.refused().map(|e| e.nid()), Some("lei"));
    /// assert_eq!(template.error().map(|e| e.kind()), Some(urn_core::ErrorKind::InvalidNss));
    /// ```
    #[must_use]
    pub fn refused(&self) -> Option<&NamespaceError> {
        self.refused.as_ref()
    }

    /// The URN and its fixes, or the parser's error.
    ///
    /// # Errors
    /// The parser's error on the text as given, where no repair made it a URN; the
    /// [`ErrorKind::InvalidNss`] of [`Repair::error`] where its namespace refuses the URN made.
    pub fn into_result(self) -> Result<(Urn, Vec<Fix>), ParseError> {
        let fixes = self.fixes;
        self.outcome.map(|urn| (urn, fixes))
    }
}

/// What a character of the input became.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Now {
    /// Itself.
    Same,
    /// Removed.
    Gone,
    /// Another character.
    Char(char),
    /// This character, percent-encoded (its UTF-8 bytes as `%XX`).
    Encoded(char),
    /// `urn:`, inserted (a piece of no input).
    Prefix,
}

/// One character of the input (or an insertion) and what it became: 24 bytes a character,
/// the one copy of the input [`repair`] makes (and only of what lies between the white space
/// and controls at its two ends, which are read in place).
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    from: char,
    now: Now,
    kind: Option<FixKind>,
}

impl Piece {
    /// The piece's one character as it stands (`None` once removed or expanded).
    const fn char(&self) -> Option<char> {
        match self.now {
            Now::Same => Some(self.from),
            Now::Char(c) => Some(c),
            Now::Gone | Now::Encoded(_) | Now::Prefix => None,
        }
    }

    /// Where the piece ends in the input (an insertion ends where it starts).
    const fn end(&self) -> usize {
        match self.now {
            Now::Prefix => self.start,
            _ => self.start + self.from.len_utf8(),
        }
    }

    fn set(&mut self, now: Now, kind: FixKind) {
        self.now = now;
        self.kind = Some(kind);
    }

    /// Appends what the piece became.
    fn push_to(&self, out: &mut String) {
        match self.now {
            Now::Same => out.push(self.from),
            Now::Char(c) => out.push(c),
            Now::Gone => {}
            Now::Encoded(c) => {
                for b in c.encode_utf8(&mut [0; 4]).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            }
            Now::Prefix => out.push_str("urn:"),
        }
    }
}

/// A run of changed input of one kind, before its texts are read out: where it is in the
/// input, and what it became.
struct Run {
    kind: FixKind,
    start: usize,
    end: usize,
    after: String,
}

/// Zero-width characters that hide in copied text.
const fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

/// The Unicode dashes read as `-` in a namespace grouped by dashes.
const fn is_dash(c: char) -> bool {
    matches!(
        c,
        '\u{2010}'..='\u{2015}' | '\u{2043}' | '\u{2212}' | '\u{fe58}' | '\u{fe63}'
    )
}

/// Whether `c` may stand in a URN as itself (after the prefix).
const fn is_urn_char(c: char) -> bool {
    c.is_ascii() && (chars::is(c as u8, chars::QF) || c == '%' || c == '#')
}

/// Makes a URN of `input`, listing every change, or keeps the parser's error.
///
/// A URN is returned as it is, with no fixes (one whose NID is the reserved `urn` is first read
/// as a doubled prefix). Otherwise, each of these is tried, in order, and listed where made
/// ([`FixKind`]): invisible characters removed, and a byte order mark, white space and control
/// characters at either end; quotes or brackets around the whole text and a sentence mark at
/// its end removed; a resolver link, or a URN percent-encoded whole, made the URN it stands
/// for; full-width ASCII made ASCII; white space around the `:`s of
/// `urn:<NID>:` removed, a doubled `urn:` removed, a missing `urn:` written before a
/// registered formal NID (`isbn:…`); the namespace's name as a label at the start of its NSS
/// removed where the NSS is valid only without it; in an NSS of a namespace grouped by dashes
/// (isbn, issn, uuid), Unicode dashes and white space made `-`; what RFC 8141 allows only
/// percent-encoded, encoded. If the result parses, it is the URN (unless its known namespace
/// refuses it: [`Repair::refused`]); if not, the error is the parser's on `input`.
///
/// ```
/// use urn_core::{FixKind, repair};
/// let fixed = repair(" URN : ISBN : ISBN 978\u{2011}0\u{2011}395\u{2011}36341\u{2011}6\n");
/// assert_eq!(fixed.urn().map(|u| u.as_str()), Some("URN:ISBN:978-0-395-36341-6"));
/// let kinds: Vec<_> = fixed.fixes().iter().map(|f| f.kind).collect();
/// assert_eq!(kinds, [FixKind::LeadingWhitespace, FixKind::Spacing, FixKind::Spacing,
///                    FixKind::Spacing, FixKind::Spacing, FixKind::Label, FixKind::Dash,
///                    FixKind::Dash, FixKind::Dash, FixKind::Dash, FixKind::TrailingWhitespace]);
/// let first = &fixed.fixes()[1];
/// assert_eq!((first.start, first.end, first.before.as_str(), first.after.as_str()), (4, 5, " ", ""));
///
/// assert_eq!(repair("isbn:0-395-36341-1").urn().map(|u| u.as_str()), Some("urn:isbn:0-395-36341-1"));
/// assert_eq!(repair("urn:example:a").fixes(), []);
/// let broken = repair("urn:example:a?b");
/// assert_eq!(broken.urn(), None);
/// assert_eq!(broken.error().map(|e| e.offset()), Some(13));
/// ```
#[must_use]
pub fn repair(input: &str) -> Repair {
    repair_with(input, ParseOptions::new())
}

/// [`repair`] with the parser's `options`: the syntax, and the length cap the URN (and the
/// text, less what the fixes can remove) must keep to.
///
/// ```
/// use urn_core::{ParseOptions, repair, repair_with};
/// let long = format!(" urn:example:{}", "a".repeat(70_000));
/// assert!(repair(&long).urn().is_none()); // over the default 64 KiB
/// assert!(repair_with(&long, ParseOptions::unlimited()).urn().is_some());
/// ```
#[must_use]
pub fn repair_with(input: &str, options: ParseOptions) -> Repair {
    let given = UrnRef::parse_with(input, options);
    if let Ok(urn) = given
        && !urn.nid().eq_ignore_ascii_case("urn")
    {
        return Repair {
            outcome: Ok(Urn::from(urn)),
            fixes: Vec::new(),
            refused: None,
        };
    }
    let unrepaired = |given: Result<UrnRef<'_>, ParseError>| Repair {
        outcome: given.map(Urn::from),
        fixes: Vec::new(),
        refused: None,
    };
    // The ends first, read in place: a text of megabytes of white space around a URN costs
    // no copy of them.
    let (mut lead, middle_start) = leading(input);
    let (mut trail, middle_end) = trailing(input, middle_start);
    let (middle_start, middle_end) =
        enclosure(input, middle_start, middle_end, &mut lead, &mut trail);
    let middle = input.get(middle_start..middle_end).unwrap_or("");
    // A link, or a URN encoded whole: the whole middle becomes the URN it stands for.
    if let Some(urn) = whole(middle, options) {
        let (kind, after) = (urn.1, urn.0.as_str().to_string());
        lead.push(Run {
            kind,
            start: middle_start,
            end: middle_end,
            after,
        });
        lead.extend(trail);
        return refused_by_namespace(Repair {
            outcome: Ok(urn.0),
            fixes: fixes(input, lead, &[], Vec::new()),
            refused: None,
        });
    }
    if cannot_fit(middle, options.max_len()) {
        return unrepaired(given);
    }
    // One allocation, of the exact size (and one more piece for a missing `urn:`).
    let mut pieces: Vec<Piece> = Vec::with_capacity(middle.chars().count() + 1);
    pieces.extend(middle.char_indices().map(|(at, c)| Piece {
        start: middle_start + at,
        from: c,
        now: Now::Same,
        kind: None,
    }));
    widen(&mut pieces);
    let prefix = prefix(&mut pieces);
    if let Some((nid, nss_start)) = prefix {
        nss(&mut pieces, &nid, nss_start);
    }
    let mut text = String::with_capacity(middle.len());
    for piece in &pieces {
        piece.push_to(&mut text);
    }
    match (UrnRef::parse_with(&text, options), given) {
        (Ok(urn), _) if !urn.nid().eq_ignore_ascii_case("urn") => refused_by_namespace(Repair {
            outcome: Ok(Urn::from(urn)),
            fixes: fixes(input, lead, &pieces, trail),
            refused: None,
        }),
        // A URN with the NID `urn` that is no doubled prefix: as it is.
        (_, given) => unrepaired(given),
    }
}

/// `repaired` unless its URN is of a known namespace that refuses it: then no URN, the
/// namespace's error, and no fixes.
fn refused_by_namespace(repaired: Repair) -> Repair {
    match &repaired.outcome {
        Ok(urn) => match urn.validate_namespace() {
            Err(refused) => Repair {
                outcome: Err(ParseError::new(ErrorKind::InvalidNss, refused.offset())),
                fixes: Vec::new(),
                refused: Some(refused),
            },
            Ok(()) => repaired,
        },
        Err(_) => repaired,
    }
}

/// The closer of a quote or bracket that may stand around a pasted URN.
const fn closer_of(opener: char) -> Option<char> {
    Some(match opener {
        '"' | '\'' | '`' => opener,
        '(' => ')',
        '[' => ']',
        '<' => '>',
        '{' => '}',
        '\u{201c}' => '\u{201d}',
        '\u{2018}' => '\u{2019}',
        '\u{ab}' => '\u{bb}',
        _ => return None,
    })
}

/// Removes, from the ends of `input[start..end]`, a sentence mark at the end and quotes or
/// brackets around the whole, again and again (`("urn:x:y").`): each removal a run added to
/// `lead` or `trail`. Returns what is left. Linear: each step removes a character.
fn enclosure(
    input: &str,
    mut start: usize,
    mut end: usize,
    lead: &mut Vec<Run>,
    trail: &mut Vec<Run>,
) -> (usize, usize) {
    // Removals at the end, read from the end: put in input order at the last.
    let mut closing: Vec<Run> = Vec::new();
    // Each pair of quotes costs a read of what it encloses: a few layers are read, not more.
    let mut layers = 0;
    loop {
        let middle = input.get(start..end).unwrap_or("");
        let mut ends = middle.chars();
        let (Some(first), Some(last)) = (ends.next(), ends.next_back()) else {
            break;
        };
        let kind = if matches!(last, '.' | ',' | ';' | ':' | '!' | '?') {
            FixKind::SentenceMark
        } else if closer_of(first) == Some(last)
            && layers < MAX_QUOTE_LAYERS
            && encloses(middle, first, last)
        {
            layers += 1;
            removed(lead, FixKind::Quotes, start, start + first.len_utf8());
            start += first.len_utf8();
            FixKind::Quotes
        } else {
            break;
        };
        let from = end - last.len_utf8();
        removed_before(&mut closing, kind, from, end);
        end = from;
    }
    closing.reverse();
    closing.append(trail);
    *trail = closing;
    (start, end)
}

/// How many pairs of quotes or brackets around a text [`repair`] removes.
const MAX_QUOTE_LAYERS: usize = 4;

/// Whether `first` and `last`, the ends of `middle`, are one pair around all of it: a quote
/// that does not stand inside again (`'a','b'` is two quoted texts), a bracket whose match is
/// the last character (`(a)(b)` is two).
fn encloses(middle: &str, first: char, last: char) -> bool {
    let inner = middle
        .get(first.len_utf8()..middle.len().saturating_sub(last.len_utf8()))
        .unwrap_or("");
    if first == last {
        return !inner.contains(first);
    }
    let mut depth = 0usize;
    for c in inner.chars() {
        if c == first {
            depth += 1;
        } else if c == last {
            match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            }
        }
    }
    depth == 0
}

/// What a whole text stands for, if it is a resolver link ([`unwrap_link`]) or a URN
/// percent-encoded once (`urn%3A…`, any case), and which fix made it so.
fn whole(middle: &str, options: ParseOptions) -> Option<(Urn, FixKind)> {
    let head = middle.get(..8).unwrap_or(middle).to_ascii_lowercase();
    if head.starts_with("http://") || head.starts_with("https://") {
        // The URN `find` reads in the link that starts the text (a query after it, as
        // `&lang=en`, is the link's), parsed with `options`; `unwrap_link` first, so a link
        // of a known form that holds no URN says nothing.
        unwrap_link(middle).ok()?;
        let found = find_with(middle, FindOptions::new().with_parse_options(options))
            .find(|f| f.link().is_some_and(|link| link.start == 0))?;
        let urn = Urn::from(found.urn());
        return (!urn.nid().eq_ignore_ascii_case("urn")).then_some((urn, FixKind::Link));
    }
    if !middle.get(..6)?.eq_ignore_ascii_case("urn%3a") {
        return None;
    }
    let bytes = middle.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b == b'%' {
            let hex = bytes.get(at + 1..at + 3)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            let hex = core::str::from_utf8(hex).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(b);
            at += 1;
        }
    }
    let text = String::from_utf8(decoded).ok()?;
    let urn = Urn::parse_with(&text, options).ok()?;
    Some((urn, FixKind::Decoded))
}

/// Whether what is left of a text once its ends are trimmed is too long to become a URN of
/// at most `max_len` bytes whatever the fixes: a lower
/// bound of the repaired length counts the characters no fix can remove (not white space, a
/// control, an invisible character or a dash; not `u`, `r`, `n` or `:`, which a doubled
/// prefix may be made of; less the longest label), at least one byte each. A text over that
/// bound is refused as the parser refuses it, in one pass and no copy.
fn cannot_fit(middle: &str, max_len: usize) -> bool {
    // Longer than any namespace's label, its `:` and the NID before it.
    const LABEL: usize = 64;
    let mut kept = 0usize;
    for c in middle.chars() {
        let ascii = if ('\u{ff01}'..='\u{ff5e}').contains(&c) {
            char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c)
        } else {
            c
        };
        let removable = chars::is_whitespace(c)
            || c.is_control()
            || is_invisible(c)
            || is_dash(c)
            || matches!(ascii.to_ascii_lowercase(), 'u' | 'r' | 'n' | ':');
        if !removable {
            kept += 1;
            if kept > max_len.saturating_add(LABEL) {
                return true;
            }
        }
    }
    false
}

/// The removals at the start (a byte order mark, white space, controls and invisible
/// characters), as runs, and where the rest starts.
fn leading(input: &str) -> (Vec<Run>, usize) {
    let mut runs = Vec::new();
    for (at, c) in input.char_indices() {
        let kind = if c == '\u{feff}' && at == 0 {
            FixKind::ByteOrderMark
        } else if is_invisible(c) || (c.is_control() && !chars::is_whitespace(c)) {
            FixKind::Control
        } else if chars::is_whitespace(c) {
            FixKind::LeadingWhitespace
        } else {
            return (runs, at);
        };
        removed(&mut runs, kind, at, at + c.len_utf8());
    }
    (runs, input.len())
}

/// The removals at the end (white space, controls and invisible characters) after `from`, as
/// runs in input order, and where they start.
fn trailing(input: &str, from: usize) -> (Vec<Run>, usize) {
    let mut runs = Vec::new();
    let tail = input.get(from..).unwrap_or("");
    for (at, c) in tail.char_indices().rev() {
        let kind = if is_invisible(c) || (c.is_control() && !chars::is_whitespace(c)) {
            FixKind::Control
        } else if chars::is_whitespace(c) {
            FixKind::TrailingWhitespace
        } else {
            runs.reverse();
            return (runs, from + at + c.len_utf8());
        };
        removed_before(&mut runs, kind, from + at, from + at + c.len_utf8());
    }
    runs.reverse();
    (runs, from)
}

/// Adds the removal of `start..end` to `runs` read from the end (a run grows to the left),
/// joining the last run of the same kind it touches.
fn removed_before(runs: &mut Vec<Run>, kind: FixKind, start: usize, end: usize) {
    match runs.last_mut() {
        Some(run) if run.kind == kind && run.start == end => run.start = start,
        _ => runs.push(Run {
            kind,
            start,
            end,
            after: String::new(),
        }),
    }
}

/// Adds the removal of `start..end` to `runs`, joining the last run of the same kind it
/// touches.
fn removed(runs: &mut Vec<Run>, kind: FixKind, start: usize, end: usize) {
    match runs.last_mut() {
        Some(run) if run.kind == kind && run.end == start => run.end = end,
        _ => runs.push(Run {
            kind,
            start,
            end,
            after: String::new(),
        }),
    }
}

/// Removes invisible characters; makes full-width ASCII ASCII.
fn widen(pieces: &mut [Piece]) {
    for piece in pieces.iter_mut() {
        let Some(c) = piece.char() else { continue };
        if is_invisible(c) {
            piece.set(Now::Gone, FixKind::Control);
        } else if ('\u{ff01}'..='\u{ff5e}').contains(&c) {
            let ascii = char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c);
            piece.set(Now::Char(ascii), FixKind::FullWidth);
        }
    }
}

/// The pieces that still hold one character, in order, found as far as they are asked for
/// (the prefix reads only the start of a text).
struct Live {
    indices: Vec<usize>,
    next: usize,
}

impl Live {
    /// The index in `pieces` of the `k`th piece that holds a character.
    fn index(&mut self, pieces: &[Piece], k: usize) -> Option<usize> {
        while self.indices.len() <= k {
            let piece = pieces.get(self.next)?;
            if piece.char().is_some() {
                self.indices.push(self.next);
            }
            self.next += 1;
        }
        self.indices.get(k).copied()
    }

    /// The `k`th character.
    fn at(&mut self, pieces: &[Piece], k: usize) -> Option<char> {
        let i = self.index(pieces, k)?;
        pieces.get(i).and_then(Piece::char)
    }

    /// The first position from `k` that is no white space.
    fn skip_space(&mut self, pieces: &[Piece], mut k: usize) -> usize {
        while self.at(pieces, k).is_some_and(chars::is_whitespace) {
            k += 1;
        }
        k
    }
}

/// Reads `urn:<NID>:` (spaced, doubled or missing) at the start and fixes it; returns the NID
/// and the index in `pieces` where the NSS starts.
fn prefix(pieces: &mut Vec<Piece>) -> Option<(String, usize)> {
    let mut live = Live {
        indices: Vec::new(),
        next: 0,
    };
    // Each `urn:` (with white space around its ':'): the live positions it spans.
    let mut prefixes = Vec::new();
    let mut k = 0;
    loop {
        let word = ['u', 'r', 'n'].iter().enumerate().all(|(j, u)| {
            live.at(pieces, k + j)
                .is_some_and(|c| c.eq_ignore_ascii_case(u))
        });
        let colon = live.skip_space(pieces, k + 3);
        if !word || live.at(pieces, colon) != Some(':') {
            break;
        }
        let next = live.skip_space(pieces, colon + 1);
        prefixes.push((k, next));
        k = next;
    }
    let nid_start = k;
    let mut nid = String::new();
    while let Some(c) = live
        .at(pieces, k)
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
    {
        nid.push(c);
        k += 1;
    }
    let colon = live.skip_space(pieces, k);
    if nid.is_empty() || live.at(pieces, colon) != Some(':') {
        return None;
    }
    let nss_start = live.skip_space(pieces, colon + 1);
    let nss_piece = live.index(pieces, nss_start);
    // Spacing: white space around the ':'s (a doubled prefix's is removed with it, below).
    let first = prefixes.first().map_or(nid_start, |&(start, _)| start);
    for k in first..nss_start {
        if let Some(i) = live.index(pieces, k)
            && let Some(p) = pieces.get_mut(i)
            && p.char().is_some_and(chars::is_whitespace)
        {
            p.set(Now::Gone, FixKind::Spacing);
        }
    }
    match prefixes.split_last() {
        Some((_, doubled)) => {
            for &(from, to) in doubled {
                for k in from..to {
                    if let Some(p) = live.index(pieces, k).and_then(|i| pieces.get_mut(i)) {
                        p.set(Now::Gone, FixKind::DoubledPrefix);
                    }
                }
            }
        }
        None => {
            if nid_status(&nid) != NidStatus::Formal {
                return None;
            }
            let i = live.index(pieces, nid_start)?;
            let start = pieces.get(i)?.start;
            pieces.insert(
                i,
                Piece {
                    start,
                    from: ':',
                    now: Now::Prefix,
                    kind: Some(FixKind::MissingPrefix),
                },
            );
            return Some((nid, nss_piece.map_or(pieces.len(), |j| j + 1)));
        }
    }
    Some((nid, nss_piece.unwrap_or(pieces.len())))
}

/// Fixes the NSS and components that start at `pieces[from]`: the label, dashes and white
/// space of a namespace grouped by dashes, and what must be percent-encoded.
fn nss(pieces: &mut [Piece], nid: &str, from: usize) {
    let Some(tail) = pieces.get_mut(from..) else {
        return;
    };
    // Where the NSS ends: the first `#`, `?+` or `?=`.
    let mut nss_end = tail.len();
    let mut question = false;
    for (i, piece) in tail.iter().enumerate() {
        let Some(c) = piece.char() else { continue };
        if c == '#' {
            nss_end = i;
            break;
        }
        if question && matches!(c, '+' | '=') {
            // The `?` is the live character before: the NSS ends there.
            nss_end = tail
                .get(..i)
                .and_then(|head| head.iter().rposition(|p| p.char().is_some()))
                .unwrap_or(i);
            break;
        }
        question = c == '?';
    }
    let (nss, components) = tail.split_at_mut(nss_end);
    let namespace = KnownNamespace::from_nid(nid);
    if let Some(ns) = namespace {
        label(nss, ns);
    }
    spacing(nss);
    spacing(components);
    if namespace.is_some_and(KnownNamespace::grouped_by_dashes) {
        dashes(nss);
    }
    // A `%` not followed by two hex digits (the next two characters still there), read from
    // the end; then what RFC 8141 allows only encoded.
    let mut next: [Option<char>; 2] = [None, None];
    for piece in nss.iter_mut().chain(components.iter_mut()).rev() {
        let Some(c) = piece.char() else { continue };
        let hex_follows = next
            .iter()
            .all(|n| n.is_some_and(|n| n.is_ascii_hexdigit()));
        if (c == '%' && !hex_follows) || (c != '%' && !is_urn_char(c)) {
            piece.set(Now::Encoded(c), FixKind::PercentEncoded);
        }
        next = [Some(c), next[0]];
    }
}

/// Removes white space next to a `:` in `pieces` (`urn:ietf:rfc: 7230`): it is a slip, and
/// encoded it would name another resource. Two passes, each linear.
fn spacing(pieces: &mut [Piece]) {
    /// Removes the white space that follows a `:` in the order `pieces` come in.
    fn after_colons<'p>(pieces: impl Iterator<Item = &'p mut Piece>) {
        let mut after_colon = false;
        for piece in pieces {
            match piece.char() {
                Some(c) if chars::is_whitespace(c) && after_colon => {
                    piece.set(Now::Gone, FixKind::Spacing);
                }
                Some(c) => after_colon = c == ':',
                None => {}
            }
        }
    }
    after_colons(pieces.iter_mut());
    after_colons(pieces.iter_mut().rev());
}

/// Makes each run of dashes and white space in `nss` one `-` (an ASCII `-` of the run kept).
fn dashes(nss: &mut [Piece]) {
    let separator = |c: char| c == '-' || is_dash(c) || chars::is_whitespace(c);
    let mut i = 0;
    while i < nss.len() {
        let end = (i..nss.len())
            .find(|&k| !nss.get(k).is_some_and(|p| p.char().is_none_or(separator)))
            .unwrap_or(nss.len());
        let mut dash = (i..end).any(|k| nss.get(k).and_then(Piece::char) == Some('-'));
        for p in nss.get_mut(i..end).unwrap_or_default() {
            let Some(c) = p.char() else { continue };
            if c == '-' {
                continue;
            }
            let kind = if is_dash(c) {
                FixKind::Dash
            } else {
                FixKind::Space
            };
            p.set(if dash { Now::Gone } else { Now::Char('-') }, kind);
            dash = true;
        }
        i = end.max(i + 1);
    }
}

/// Removes the namespace's name as a label at the start of `nss` (`ISBN `, `ISBN:`), where the
/// NSS is valid for the namespace without it and not with it.
fn label(nss: &mut [Piece], namespace: KnownNamespace) {
    let title = namespace.title();
    // The title, as the first characters (read no further unless they are).
    let mut head = nss.iter().filter_map(Piece::char);
    let titled = title
        .chars()
        .all(|t| head.next().is_some_and(|c| c.eq_ignore_ascii_case(&t)));
    if !titled {
        return;
    }
    let chars: Vec<(usize, char)> = nss
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.char().map(|c| (i, c)))
        .collect();
    let text: String = chars.iter().map(|&(_, c)| c).collect();
    let mut n = title.len();
    if text.get(n..).is_some_and(|rest| rest.starts_with(':')) {
        n += 1;
    }
    while text
        .get(n..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(chars::is_whitespace)
    {
        n += text
            .get(n..)
            .and_then(|rest| rest.chars().next())
            .map_or(1, char::len_utf8);
    }
    if n == title.len() {
        return;
    }
    // Validity as the NSS will be after the dash fixes (white space and dashes as `-`).
    let dashed = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if namespace.grouped_by_dashes() && (is_dash(c) || chars::is_whitespace(c)) {
                    '-'
                } else {
                    c
                }
            })
            .collect()
    };
    let (with, without) = (dashed(&text), dashed(text.get(n..).unwrap_or("")));
    if namespace.validate_nss(&with).is_ok() || namespace.validate_nss(&without).is_err() {
        return;
    }
    // `n` bytes of `text` are the label's characters.
    let mut bytes = 0;
    for &(i, c) in &chars {
        if bytes >= n {
            break;
        }
        bytes += c.len_utf8();
        if let Some(p) = nss.get_mut(i) {
            p.set(Now::Gone, FixKind::Label);
        }
    }
}

/// The fixes: the runs at the start, each run of changed pieces of one kind, the runs at the
/// end, each as one fix whose `before` is read from the input once (linear however long).
fn fixes(input: &str, lead: Vec<Run>, pieces: &[Piece], trail: Vec<Run>) -> Vec<Fix> {
    let mut runs = lead;
    for piece in pieces {
        let Some(kind) = piece.kind else { continue };
        let end = piece.end();
        match runs.last_mut() {
            Some(last) if last.kind == kind && last.end == piece.start && piece.start < end => {
                last.end = end;
                piece.push_to(&mut last.after);
            }
            _ => {
                let mut after = String::new();
                piece.push_to(&mut after);
                runs.push(Run {
                    kind,
                    start: piece.start,
                    end,
                    after,
                });
            }
        }
    }
    runs.extend(trail);
    runs.into_iter()
        .map(|run| Fix {
            kind: run.kind,
            start: run.start,
            end: run.end,
            before: input.get(run.start..run.end).unwrap_or("").to_string(),
            after: run.after,
        })
        .collect()
}
