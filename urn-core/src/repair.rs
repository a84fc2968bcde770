//! Repairing near-misses ([`repair`]): a text that is almost a URN becomes one only with the
//! list of every change made, each named, placed and shown before and after.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use crate::chars;
use crate::error::ParseError;
use crate::namespaces::KnownNamespace;
use crate::registry::{NidStatus, nid_status};
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
    /// A control character at either end, or an invisible one (zero-width space, joiner, word
    /// joiner, U+FEFF) anywhere, removed.
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
    /// `urn:` written before a registered NID that lacked it.
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
/// the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    outcome: Result<Urn, ParseError>,
    fixes: Vec<Fix>,
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

    /// The parser's error on the text as given, where no repair made it a URN.
    #[must_use]
    pub fn error(&self) -> Option<&ParseError> {
        self.outcome.as_ref().err()
    }

    /// The URN and its fixes, or the parser's error.
    ///
    /// # Errors
    /// The parser's error on the text as given, where no repair made it a URN.
    pub fn into_result(self) -> Result<(Urn, Vec<Fix>), ParseError> {
        let fixes = self.fixes;
        self.outcome.map(|urn| (urn, fixes))
    }
}

/// One character of the input (or an insertion) and what it became.
struct Piece {
    start: usize,
    end: usize,
    text: String,
    kind: Option<FixKind>,
}

impl Piece {
    /// The piece's one character as it stands (`None` once removed or expanded).
    fn char(&self) -> Option<char> {
        let mut chars = self.text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    }

    fn set(&mut self, text: &str, kind: FixKind) {
        self.text.clear();
        self.text.push_str(text);
        self.kind = Some(kind);
    }
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
/// characters at either end; full-width ASCII made ASCII; white space around the `:`s of
/// `urn:<NID>:` removed, a doubled `urn:` removed, a missing `urn:` written before a
/// registered NID (`isbn:…`); the namespace's name as a label at the start of its NSS
/// removed where the NSS is valid only without it; in an NSS of a namespace grouped by dashes
/// (isbn, issn, uuid), Unicode dashes and white space made `-`; what RFC 8141 allows only
/// percent-encoded, encoded. If the result parses, it is the URN; if not, the error is the
/// parser's on `input`.
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
    let given = UrnRef::parse(input);
    if let Ok(urn) = given
        && !urn.nid().eq_ignore_ascii_case("urn")
    {
        return Repair {
            outcome: Ok(Urn::from(urn)),
            fixes: Vec::new(),
        };
    }
    let mut pieces: Vec<Piece> = input
        .char_indices()
        .map(|(start, c)| Piece {
            start,
            end: start + c.len_utf8(),
            text: c.to_string(),
            kind: None,
        })
        .collect();
    trim_and_widen(&mut pieces);
    let prefix = prefix(&mut pieces);
    if let Some((nid, nss_start)) = prefix {
        nss(&mut pieces, &nid, nss_start);
    }
    let mut text = String::new();
    for piece in &pieces {
        text.push_str(&piece.text);
    }
    match (UrnRef::parse(&text), given) {
        (Ok(urn), _) if !urn.nid().eq_ignore_ascii_case("urn") => Repair {
            outcome: Ok(Urn::from(urn)),
            fixes: fixes(input, &pieces),
        },
        // A URN with the NID `urn` that is no doubled prefix: as it is.
        (_, given) => Repair {
            outcome: given.map(Urn::from),
            fixes: Vec::new(),
        },
    }
}

/// Removes invisible characters, and white space and controls at both ends; makes full-width
/// ASCII ASCII.
fn trim_and_widen(pieces: &mut [Piece]) {
    for piece in pieces.iter_mut() {
        let Some(c) = piece.char() else { continue };
        if is_invisible(c) && !(c == '\u{feff}' && piece.start == 0) {
            piece.set("", FixKind::Control);
        } else if ('\u{ff01}'..='\u{ff5e}').contains(&c) {
            let ascii = char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c);
            piece.set(ascii.encode_utf8(&mut [0; 4]), FixKind::FullWidth);
        }
    }
    let edge = |c: char| chars::is_whitespace(c) || c.is_control() || c == '\u{feff}';
    for piece in pieces.iter_mut() {
        match piece.char() {
            Some('\u{feff}') if piece.start == 0 => piece.set("", FixKind::ByteOrderMark),
            Some(c) if chars::is_whitespace(c) => piece.set("", FixKind::LeadingWhitespace),
            Some(c) if edge(c) => piece.set("", FixKind::Control),
            Some(_) => break,
            None => {}
        }
    }
    for piece in pieces.iter_mut().rev() {
        match piece.char() {
            Some(c) if chars::is_whitespace(c) => piece.set("", FixKind::TrailingWhitespace),
            Some(c) if edge(c) => piece.set("", FixKind::Control),
            Some(_) => break,
            None => {}
        }
    }
}

/// The indices of the pieces that still hold one character, in order.
fn live(pieces: &[Piece]) -> Vec<usize> {
    (0..pieces.len())
        .filter(|&i| pieces.get(i).and_then(Piece::char).is_some())
        .collect()
}

/// Reads `urn:<NID>:` (spaced, doubled or missing) at the start and fixes it; returns the NID
/// and the index in `pieces` where the NSS starts.
fn prefix(pieces: &mut Vec<Piece>) -> Option<(String, usize)> {
    let live = live(pieces);
    let at = |k: usize| {
        live.get(k)
            .and_then(|&i| pieces.get(i))
            .and_then(Piece::char)
    };
    let skip_space = |mut k: usize| {
        while at(k).is_some_and(chars::is_whitespace) {
            k += 1;
        }
        k
    };
    // Each `urn:` (with white space around its ':'): the live positions it spans.
    let mut prefixes = Vec::new();
    let mut k = 0;
    loop {
        let word = ['u', 'r', 'n']
            .iter()
            .enumerate()
            .all(|(j, u)| at(k + j).is_some_and(|c| c.eq_ignore_ascii_case(u)));
        let colon = skip_space(k + 3);
        if !word || at(colon) != Some(':') {
            break;
        }
        let next = skip_space(colon + 1);
        prefixes.push((k, next));
        k = next;
    }
    let nid_start = k;
    while at(k).is_some_and(|c| c.is_ascii_alphanumeric() || c == '-') {
        k += 1;
    }
    let nid: String = (nid_start..k).filter_map(at).collect();
    let colon = skip_space(k);
    if nid.is_empty() || at(colon) != Some(':') {
        return None;
    }
    let nss_start = skip_space(colon + 1);
    let piece = |k: usize| live.get(k).copied();
    // Spacing: white space around the ':'s (a doubled prefix's is removed with it, below).
    let first = prefixes.first().map_or(nid_start, |&(start, _)| start);
    let spaced: Vec<usize> = (first..nss_start)
        .filter(|&k| at(k).is_some_and(chars::is_whitespace))
        .collect();
    for k in spaced {
        if let Some(p) = piece(k).and_then(|i| pieces.get_mut(i)) {
            p.set("", FixKind::Spacing);
        }
    }
    match prefixes.split_last() {
        Some((_, doubled)) => {
            for &(from, to) in doubled {
                for k in from..to {
                    if let Some(p) = piece(k).and_then(|i| pieces.get_mut(i)) {
                        p.set("", FixKind::DoubledPrefix);
                    }
                }
            }
        }
        None => {
            if nid_status(&nid) != NidStatus::Formal {
                return None;
            }
            let i = piece(nid_start)?;
            let start = pieces.get(i)?.start;
            pieces.insert(
                i,
                Piece {
                    start,
                    end: start,
                    text: "urn:".to_string(),
                    kind: Some(FixKind::MissingPrefix),
                },
            );
            let nss = piece(nss_start).map_or(pieces.len(), |j| j + 1);
            return Some((nid, nss));
        }
    }
    Some((nid, piece(nss_start).unwrap_or(pieces.len())))
}

/// Fixes the NSS and components that start at `pieces[from]`: the label, dashes and white
/// space of a namespace grouped by dashes, and what must be percent-encoded.
fn nss(pieces: &mut [Piece], nid: &str, from: usize) {
    let Some(tail) = pieces.get_mut(from..) else {
        return;
    };
    let namespace = KnownNamespace::from_nid(nid);
    // Where the NSS ends: the first `#`, `?+` or `?=`.
    let chars: Vec<Option<char>> = tail.iter().map(Piece::char).collect();
    let nss_end = (0..chars.len())
        .find(|&i| match chars.get(i).copied().flatten() {
            Some('#') => true,
            Some('?') => matches!(chars.get(i + 1).copied().flatten(), Some('+' | '=')),
            _ => false,
        })
        .unwrap_or(chars.len());
    let (nss, components) = tail.split_at_mut(nss_end);
    if let Some(ns) = namespace {
        label(nss, ns);
        if ns.grouped_by_dashes() {
            dashes(nss);
        }
    }
    let all: Vec<Option<char>> = nss
        .iter()
        .chain(components.iter())
        .map(Piece::char)
        .collect();
    for (i, piece) in nss.iter_mut().chain(components.iter_mut()).enumerate() {
        let Some(c) = piece.char() else { continue };
        let hex = |k: usize| {
            all.get(k)
                .copied()
                .flatten()
                .is_some_and(|c| c.is_ascii_hexdigit())
        };
        if c == '%' && !(hex(i + 1) && hex(i + 2)) {
            piece.set("%25", FixKind::PercentEncoded);
        } else if !is_urn_char(c) {
            let mut encoded = String::new();
            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                let _ = write!(encoded, "%{b:02X}");
            }
            piece.set(&encoded, FixKind::PercentEncoded);
        }
    }
}

/// Makes each run of dashes and white space in `nss` one `-` (an ASCII `-` of the run kept).
fn dashes(nss: &mut [Piece]) {
    let separator = |c: char| c == '-' || is_dash(c) || chars::is_whitespace(c);
    let mut i = 0;
    while i < nss.len() {
        let run: Vec<usize> = (i..nss.len())
            .take_while(|&k| nss.get(k).is_some_and(|p| p.char().is_none_or(separator)))
            .filter(|&k| nss.get(k).and_then(Piece::char).is_some())
            .collect();
        let end = (i..nss.len())
            .find(|&k| !nss.get(k).is_some_and(|p| p.char().is_none_or(separator)))
            .unwrap_or(nss.len());
        let mut dash = run
            .iter()
            .any(|&k| nss.get(k).and_then(Piece::char) == Some('-'));
        for &k in &run {
            let Some(p) = nss.get_mut(k) else { continue };
            let Some(c) = p.char() else { continue };
            if c == '-' {
                continue;
            }
            let kind = if is_dash(c) {
                FixKind::Dash
            } else {
                FixKind::Space
            };
            p.set(if dash { "" } else { "-" }, kind);
            dash = true;
        }
        i = end.max(i + 1);
    }
}

/// Removes the namespace's name as a label at the start of `nss` (`ISBN `, `ISBN:`), where the
/// NSS is valid for the namespace without it and not with it.
fn label(nss: &mut [Piece], namespace: KnownNamespace) {
    let title = namespace.title();
    let chars: Vec<(usize, char)> = nss
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.char().map(|c| (i, c)))
        .collect();
    let text: String = chars.iter().map(|&(_, c)| c).collect();
    let Some(head) = text.get(..title.len()) else {
        return;
    };
    if !head.eq_ignore_ascii_case(title) {
        return;
    }
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
            p.set("", FixKind::Label);
        }
    }
}

/// The fixes `pieces` hold: each run of changed pieces of one kind, as one fix.
fn fixes(input: &str, pieces: &[Piece]) -> Vec<Fix> {
    let mut out: Vec<Fix> = Vec::new();
    for piece in pieces {
        let Some(kind) = piece.kind else { continue };
        match out.last_mut() {
            Some(last)
                if last.kind == kind && last.end == piece.start && piece.start < piece.end =>
            {
                last.end = piece.end;
                last.before = input.get(last.start..last.end).unwrap_or("").to_string();
                last.after.push_str(&piece.text);
            }
            _ => out.push(Fix {
                kind,
                start: piece.start,
                end: piece.end,
                before: input.get(piece.start..piece.end).unwrap_or("").to_string(),
                after: piece.text.clone(),
            }),
        }
    }
    out
}
