//! Finding the URNs in a text: where each starts, where it ends in prose, and the parser's
//! word on each ([`find`] states the rule).

use core::ops::Range;

use crate::chars::{self, QF};
use crate::error::ErrorKind;
use crate::parse::ParseOptions;
use crate::resolver::{nss_link, unwrap_link};
use crate::urn::Urn;
use crate::urn_ref::UrnRef;

/// Where a URN found in a text ends: see [`find`] for the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UrnEnd {
    /// Prose: a URN ends where what the byte before it opened closes, and trailing punctuation
    /// and unbalanced closers are not part of it.
    #[default]
    Prose,
    /// The parser's longest match, punctuation and all.
    Longest,
}

/// How to find URNs: the parser's options and where a URN ends.
///
/// ```
/// use urn_core::{FindOptions, Syntax, UrnEnd, find_with};
/// let options = FindOptions::new().with_end(UrnEnd::Longest);
/// let found: Vec<_> = find_with("see urn:example:a.", options).map(|f| f.span()).collect();
/// assert_eq!(found, [4..18]);
/// let legacy = FindOptions::new().with_parse_options(Syntax::Rfc2141.into());
/// let found = find_with("urn:x:y/z", legacy).next().unwrap();
/// assert_eq!(found.as_str(), "urn:x:y");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FindOptions {
    parse: ParseOptions,
    end: UrnEnd,
    as_written: bool,
}

impl FindOptions {
    /// RFC 8141 with the default length cap, [`UrnEnd::Prose`], and the names that links
    /// hold without `urn:` ([`Found::link`]).
    #[must_use]
    pub const fn new() -> Self {
        FindOptions {
            parse: ParseOptions::new(),
            end: UrnEnd::Prose,
            as_written: false,
        }
    }

    /// Parse with `parse` (the syntax, the length cap).
    #[must_use]
    pub const fn with_parse_options(mut self, parse: ParseOptions) -> Self {
        self.parse = parse;
        self
    }

    /// End URNs by `end`.
    #[must_use]
    pub const fn with_end(mut self, end: UrnEnd) -> Self {
        self.end = end;
        self
    }

    /// Keep only URNs written as URNs (`urn:…`), not the names that links of a
    /// [`LinkForm::Nss`](crate::LinkForm::Nss) resolver hold (`https://doi.org/10.1000/182`).
    ///
    /// ```
    /// use urn_core::{FindOptions, find_with};
    /// let text = "url = {https://doi.org/10.1038/nphys1170}";
    /// assert_eq!(find_with(text, FindOptions::new()).map(|f| f.as_str().to_owned()).collect::<Vec<_>>(),
    ///            ["urn:doi:10.1038/nphys1170"]);
    /// assert_eq!(find_with(text, FindOptions::new().with_as_written(true)).count(), 0);
    /// ```
    #[must_use]
    pub const fn with_as_written(mut self, as_written: bool) -> Self {
        self.as_written = as_written;
        self
    }

    /// Whether only URNs written as URNs are found.
    #[must_use]
    pub const fn as_written(&self) -> bool {
        self.as_written
    }

    /// The parser's options.
    #[must_use]
    pub const fn parse_options(&self) -> ParseOptions {
        self.parse
    }

    /// Where URNs end.
    #[must_use]
    pub const fn end(&self) -> UrnEnd {
        self.end
    }
}

/// A URN found in a text, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    name: Name<'a>,
    start: usize,
    end: usize,
    /// Where the resolver link around the URN starts, if there is one (it ends where the URN
    /// does).
    link_start: Option<usize>,
}

/// How a found URN is in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Name<'a> {
    /// Written: `urn:…`.
    Written(UrnRef<'a>),
    /// Its NSS, in a link of a [`LinkForm::Nss`](crate::LinkForm::Nss) resolver.
    InLink(Urn),
}

impl<'a> Found<'a> {
    /// The URN, parsed (borrowing the text where it is written there).
    #[must_use]
    pub fn urn(&self) -> UrnRef<'_> {
        match &self.name {
            Name::Written(urn) => *urn,
            Name::InLink(urn) => urn.as_urn_ref(),
        }
    }

    /// The URN as written, or, for the NSS in a link (`https://doi.org/10.1000/182`), the
    /// resolver's URN prefix and the NSS as written there (`urn:doi:10.1000/182`).
    #[must_use]
    pub fn as_str(&self) -> &str {
        match &self.name {
            Name::Written(urn) => urn.as_str(),
            Name::InLink(urn) => urn.as_str(),
        }
    }

    /// The URN written in the text, borrowing it: `None` for the NSS in a link.
    #[must_use]
    pub const fn written(&self) -> Option<UrnRef<'a>> {
        match &self.name {
            Name::Written(urn) => Some(*urn),
            Name::InLink(_) => None,
        }
    }

    /// The byte offset in the text where the URN (or the NSS in a link) starts.
    #[must_use]
    pub const fn start(&self) -> usize {
        self.start
    }

    /// The byte offset in the text just past the URN (or the NSS in a link).
    #[must_use]
    pub const fn end(&self) -> usize {
        self.end
    }

    /// `start()..end()`: `&text[found.span()]` is the URN as written (the NSS, in a link that
    /// holds no `urn:`).
    #[must_use]
    pub const fn span(&self) -> Range<usize> {
        self.start()..self.end()
    }

    /// The span of the resolver link the URN was found in (`http(s)://…/` and the URN, a link
    /// that [`unwrap_link`] reads as this URN), if it was in one.
    ///
    /// ```
    /// let text = "At https://nbn-resolving.org/urn:nbn:de:bvb:19-146642 (2019).";
    /// let found = urn_core::find(text).next().unwrap();
    /// assert_eq!(found.as_str(), "urn:nbn:de:bvb:19-146642");
    /// assert_eq!(found.link().map(|l| &text[l]),
    ///            Some("https://nbn-resolving.org/urn:nbn:de:bvb:19-146642"));
    /// ```
    #[must_use]
    pub fn link(&self) -> Option<Range<usize>> {
        self.link_start.map(|start| start..self.end())
    }
}

/// How far before a URN its link may start (a longer head is not looked at).
const MAX_LINK_HEAD: usize = 2048;

/// How far before a URN [`find`] reads (its link's head, the byte that opens it): a reader
/// that searches a long text in pieces, each cut at a byte where [`outside_urns`] holds,
/// finds the same URNs past the cut when it searches again from this many bytes before it.
pub const FIND_CONTEXT: usize = MAX_LINK_HEAD + 8;

/// Whether no URN [`find`] yields holds the byte `b` (nor the NSS of a link): a found URN
/// starting before such a byte ends at it at the latest.
///
/// ```
/// assert!(urn_core::outside_urns(b' ') && urn_core::outside_urns(b'"'));
/// assert!(!urn_core::outside_urns(b':') && !urn_core::outside_urns(b'%'));
/// ```
#[must_use]
pub const fn outside_urns(b: u8) -> bool {
    !in_urn(b)
}

/// What the search knows of the text before the URNs it found, for their links: a link's head
/// is read backwards from the URN only as far as the last URN it read it for, so each byte is
/// read at most once however many URNs follow it (a text of `…/urn:…|/urn:…|` read the 2 KiB
/// before each one again), and only for URNs after a `/` or `=`.
#[derive(Clone, Copy, Debug, Default)]
struct LinkScan {
    /// Where the last head read ended (the start of the URN it was read for).
    at: usize,
    /// The nearest `http://` or `https://` before `at` with no white space, quote or angle
    /// bracket between them (a link has none), if one is that near.
    scheme: Option<usize>,
    /// The bytes read, in all (for the test that each is read once).
    #[cfg(test)]
    read: usize,
}

impl LinkScan {
    /// Where the resolver link that ends with the URN found at `start..end` starts: the URN
    /// comes after a `/` or `=`, and the nearest `http://` or `https://` before it, at most
    /// [`MAX_LINK_HEAD`] bytes before, with no white space or quote between, starts a link
    /// that [`unwrap_link`] reads as the same URN.
    fn link_start(&mut self, text: &str, start: usize, end: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        if !matches!(bytes.get(start.checked_sub(1)?), Some(b'/' | b'=')) {
            return None;
        }
        let low = self.at.max(start.saturating_sub(MAX_LINK_HEAD));
        let mut scheme = if low == self.at { self.scheme } else { None };
        for at in (low..start).rev() {
            #[cfg(test)]
            {
                self.read += 1;
            }
            match bytes.get(at) {
                Some(b) if b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'<' | b'>') => {
                    scheme = None;
                    break;
                }
                Some(b'h' | b'H') => {
                    let rest = bytes.get(at..start).unwrap_or_default();
                    let found = [b"http://".as_slice(), b"https://"].iter().any(|s| {
                        rest.get(..s.len())
                            .is_some_and(|r| r.eq_ignore_ascii_case(s))
                    });
                    if found {
                        scheme = Some(at);
                        break;
                    }
                }
                _ => {}
            }
        }
        self.at = start;
        self.scheme = scheme;
        let at = scheme.filter(|&at| start - at <= MAX_LINK_HEAD)?;
        let urn = unwrap_link(text.get(at..end)?).ok()?;
        (urn.as_str() == text.get(start..end)?).then_some(at)
    }
}

/// The URNs in `text`, in order, with their byte spans: RFC 8141, ended as prose ends them.
///
/// A URN starts at `urn:` (any case) where a word starts: at the start of the text or after a
/// byte that is not an ASCII letter or digit (`Saturn:x:y` holds no URN). From there it runs
/// over the characters a URN may hold (the byte table of [`patterns`](crate::patterns): its
/// `pchar`s, `/`, `?`, `#` and `%`), and then:
///
/// - [`UrnEnd::Prose`] (the default): where the byte before `urn:` opens a quotation, a
///   bracket, an emphasis or a field (`'`, `"`, `(`, `[`, `<`, `{`, `*`, `_`, `` ` ``, `,`,
///   `;`, `|`, a tab; `=`, a query value, closed by `&`), the URN ends before the first byte
///   that closes it (the same byte; the matching bracket, past the pairs the URN opens and
///   closes itself), if a URN is there:
///   `xmlns='urn:xmpp:ping'/>`, `('urn:nbn:fi','…')`, `42,urn:isbn:…,The Hobbit`. Then prose
///   gives back what it puts after a name: a trailing `.`, `,`, `;`, `:`, `!` or `?`, a `)`
///   that closes no `(` of the URN, and a `'` or `*` that closes none of the URN (an odd
///   count), again and again until none is left. `]`, `}`, `>`, `"`, `|`, `` ` ``, white
///   space and every non-ASCII character end a URN anyway: RFC 8141 allows none of them.
/// - [`UrnEnd::Longest`] keeps them: the longest run that parses.
///
/// What is left is parsed with the given [`ParseOptions`]; where the parser stops at a byte
/// inside it (a bare `?`, a `%` without two hex digits, a second `#`), the URN is what comes
/// before that byte, given back as above once more. A URN in a resolver link
/// (`https://nbn-resolving.org/urn:nbn:…`, or any link with `/urn:…`) is found too, and
/// [`Found::link`] spans the link; so is the name a link of a
/// [`LinkForm::Nss`](crate::LinkForm::Nss) resolver holds without `urn:`
/// (`https://doi.org/10.1038/nphys1170` is `urn:doi:10.1038/nphys1170`; its span is the DOI
/// in the link, ended as above and at the link's `?` or `#`) unless
/// [`FindOptions::with_as_written`] says not to. A start that yields no URN is passed over;
/// nothing yielded ever fails to parse. A run of URN characters longer than the parser's
/// length cap yields nothing (a URN is never cut to fit).
///
/// ```
/// use urn_core::find;
/// let text = "Cited as URN:ISBN:0-395-36341-1 (print), see urn:example:a(1).";
/// let found: Vec<_> = find(text).map(|f| (f.start(), &text[f.span()])).collect();
/// assert_eq!(found, [(9, "URN:ISBN:0-395-36341-1"), (45, "urn:example:a(1)")]);
/// assert_eq!(find(text).next().map(|f| f.urn().key().to_string()),
///            Some("urn:isbn:0395363411".to_owned()));
/// assert_eq!(find("Saturn:x:y").count(), 0); // no word starts at "urn:"
/// ```
pub fn find(text: &str) -> FindUrns<'_> {
    find_with(text, FindOptions::new())
}

/// The URNs in `text` found with `options`.
pub fn find_with(text: &str, options: FindOptions) -> FindUrns<'_> {
    FindUrns {
        text,
        pos: 0,
        run_end: 0,
        link_run_end: 0,
        options,
        links: LinkScan::default(),
    }
}

/// The iterator of [`find`] and [`find_with`].
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct FindUrns<'a> {
    text: &'a str,
    /// Where the search for the next `urn:` starts.
    pos: usize,
    /// The end of the run of URN characters that the last candidate started in: a later
    /// candidate inside it ends there too (so a long run is scanned once).
    run_end: usize,
    /// The end of the last run of a link's NSS read ([`FindUrns::in_link`]).
    link_run_end: usize,
    options: FindOptions,
    links: LinkScan,
}

/// Whether `b` may stand in a URN: a character of a q- or f-component (`pchar`, `/`, `?`), or
/// `%` or `#`.
const fn in_urn(b: u8) -> bool {
    chars::is(b, QF) || b == b'%' || b == b'#'
}

/// The byte that closes what `opener` opens, if the byte before a URN opens a quotation, a
/// bracket, an emphasis or a field ([`find`]'s rule).
const fn closer(opener: u8) -> Option<u8> {
    match opener {
        b'\'' | b'"' | b'*' | b'_' | b'`' | b',' | b';' | b'|' | b'\t' => Some(opener),
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        b'<' => Some(b'>'),
        b'{' => Some(b'}'),
        // A query value: `…&srsName=urn:ogc:def:crs:EPSG::4326&bbox=…`.
        b'=' => Some(b'&'),
        _ => None,
    }
}

/// Where in `run` (a URN's run of URN characters, or a link's NSS) what `opener` opened
/// closes: the first closer from byte `from` on, past the pairs a bracket opens and closes
/// inside it (a quote, an emphasis, a field or `=` does not nest).
fn closed_at(run: &[u8], opener: u8, from: usize) -> Option<usize> {
    let close = closer(opener)?;
    let nests = matches!(opener, b'(' | b'[' | b'<' | b'{');
    let mut depth = 0usize;
    for (at, &b) in run.iter().enumerate().skip(from) {
        #[cfg(test)]
        tests::READ.with(|read| read.set(read.get() + 1));
        if b == close {
            if depth == 0 {
                return Some(at);
            }
            depth -= 1;
        } else if nests && b == opener {
            depth += 1;
        }
    }
    None
}

/// The length of `candidate` with what prose puts after a name given back ([`find`]'s rule).
fn prose_len(candidate: &[u8]) -> usize {
    let mut len = candidate.len();
    let (mut open, mut close, mut quotes, mut stars) = (0usize, 0usize, 0usize, 0usize);
    for &b in candidate {
        match b {
            b'(' => open += 1,
            b')' => close += 1,
            b'\'' => quotes += 1,
            b'*' => stars += 1,
            _ => {}
        }
    }
    while let Some((&last, _)) = candidate.get(..len).and_then(<[u8]>::split_last) {
        let give_back = match last {
            b'.' | b',' | b';' | b':' | b'!' | b'?' => true,
            b')' if close > open => {
                close -= 1;
                true
            }
            b'\'' if quotes % 2 == 1 => {
                quotes -= 1;
                true
            }
            b'*' if stars % 2 == 1 => {
                stars -= 1;
                true
            }
            _ => false,
        };
        if !give_back {
            break;
        }
        len -= 1;
    }
    len
}

impl<'a> FindUrns<'a> {
    /// The URN that starts at `start`, if one does, in the run that ends at `run_end`: in
    /// prose, first up to where what the byte before it opened closes, if that holds a URN.
    fn at(&self, start: usize, run_end: usize) -> Option<Found<'a>> {
        let run = self.text.get(start..run_end)?;
        if run.len() > self.options.parse.max_len() {
            return None;
        }
        let found = self.in_run(start, run)?;
        // In prose, where what the byte before it opened closes inside the URN found, the URN
        // ends there if one does (a closer past its end changes nothing: the URN found is as
        // far as the parser reads, so a start costs what the parser reads).
        if self.options.end == UrnEnd::Prose
            && let Some(&opener) = start
                .checked_sub(1)
                .and_then(|b| self.text.as_bytes().get(b))
            && let Some(cut) = closed_at(found.as_str().as_bytes(), opener, "urn:".len())
            && let Some(closed) = self.in_run(start, run.get(..cut)?)
        {
            return Some(closed);
        }
        Some(found)
    }

    /// The URN that starts `run` (at `start` in the text), if one does.
    fn in_run(&self, start: usize, run: &'a str) -> Option<Found<'a>> {
        // The parser first (it stops at the first byte that breaks a rule, so a start that is
        // no URN costs little however long the run), then prose's end, then the parser again
        // on what is left: each pass is over the URN found, which the search then skips.
        let mut len = run.len();
        let mut stripped = false;
        loop {
            // The run is ASCII: every index is a character boundary.
            let candidate = run.get(..len)?;
            match UrnRef::parse_with(candidate, self.options.parse) {
                Ok(urn) => {
                    let end = match self.options.end {
                        UrnEnd::Prose if !stripped => prose_len(candidate.as_bytes()),
                        _ => len,
                    };
                    if end == len {
                        return Some(Found {
                            name: Name::Written(urn),
                            start,
                            end: start + urn.as_str().len(),
                            link_start: None,
                        });
                    }
                    len = end;
                }
                Err(e) => {
                    // Where the URN must end: an empty r- or q-component is reported where it
                    // would start, after its two-byte marker (`?+`, `?=`), and what comes
                    // before the marker's last byte is tried next (an r- or q-component may
                    // end with the `?`; where it may not, the parser says so at the `?`); any
                    // other error at the byte that broke the rule.
                    let cut = match e.kind() {
                        ErrorKind::EmptyComponent { .. } => e.offset().saturating_sub(1),
                        _ => e.offset(),
                    };
                    // Before that byte there may be a URN (never before the NID).
                    if cut <= "urn:".len() || cut >= len {
                        return None;
                    }
                    len = match self.options.end {
                        UrnEnd::Prose => prose_len(run.as_bytes().get(..cut)?),
                        UrnEnd::Longest => cut,
                    };
                }
            }
            stripped = self.options.end == UrnEnd::Prose;
        }
    }

    /// The name that a link of a [`LinkForm::Nss`](crate::LinkForm::Nss) resolver holds, if
    /// the `:` at `colon` is that of the link's `http://` or `https://` (at a word start).
    fn in_link(&mut self, colon: usize) -> Option<Found<'a>> {
        let bytes = self.text.as_bytes();
        if bytes.get(colon + 1..colon + 3) != Some(b"//".as_slice()) {
            return None;
        }
        let scheme_start = [4, 5].into_iter().find_map(|len| {
            let at = colon.checked_sub(len)?;
            let word_start = at
                .checked_sub(1)
                .is_none_or(|b| bytes.get(b).is_some_and(|b| !b.is_ascii_alphanumeric()));
            let scheme = bytes.get(at..colon)?;
            (word_start
                && (scheme.eq_ignore_ascii_case(b"http") || scheme.eq_ignore_ascii_case(b"https")))
            .then_some(at)
        })?;
        let (resolver, nss_at) = nss_link(self.text.get(scheme_start..)?)?;
        let nss_start = scheme_start + nss_at;
        // The NSS's run: URN characters up to the link's query or fragment or a `%` without
        // two hex digits; a link whose NSS starts inside the last run read ends where it does
        // (a run is read once however many links it holds).
        let tail = bytes.get(nss_start..)?;
        if nss_start >= self.link_run_end {
            let end = (0..tail.len())
                .find(|&i| {
                    #[cfg(test)]
                    tests::READ.with(|read| read.set(read.get() + 1));
                    match tail.get(i) {
                        Some(b'%') => !tail
                            .get(i + 1..i + 3)
                            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
                        Some(&b) => !in_urn(b) || b == b'?' || b == b'#',
                        None => true,
                    }
                })
                .unwrap_or(tail.len());
            self.link_run_end = nss_start + end;
        }
        let run = self.link_run_end.checked_sub(nss_start)?;
        if run > self.options.parse.max_len() || matches!(tail.first(), None | Some(b'/')) {
            return None;
        }
        let mut nss = tail.get(..run)?;
        // In prose, the link ends where what the byte before it opened closes, then as prose
        // ends a name.
        if self.options.end == UrnEnd::Prose {
            if let Some(&opener) = scheme_start.checked_sub(1).and_then(|b| bytes.get(b))
                && let Some(cut) = closed_at(nss, opener, 0)
            {
                nss = nss.get(..cut)?;
            }
            nss = nss.get(..prose_len(nss))?;
        }
        // The parser on `urn:doi:` and the NSS; where it stops inside the NSS (RFC 2141), what
        // comes before.
        let urn = loop {
            let text = self.text.get(nss_start..nss_start + nss.len())?;
            if text.is_empty() {
                return None;
            }
            let mut name = alloc::string::String::with_capacity(resolver.urns.len() + text.len());
            name.push_str(resolver.urns);
            name.push_str(text);
            match Urn::parse_with(&name, self.options.parse) {
                Ok(urn) => break urn,
                Err(e) => {
                    let cut = e.offset().checked_sub(resolver.urns.len())?;
                    if cut >= nss.len() {
                        return None;
                    }
                    nss = nss.get(..cut)?;
                    if self.options.end == UrnEnd::Prose {
                        nss = nss.get(..prose_len(nss))?;
                    }
                }
            }
        };
        let nss_len = nss.len();
        Some(Found {
            name: Name::InLink(urn),
            start: nss_start,
            end: nss_start + nss_len,
            link_start: Some(scheme_start),
        })
    }
}

impl<'a> Iterator for FindUrns<'a> {
    type Item = Found<'a>;

    fn next(&mut self) -> Option<Found<'a>> {
        let bytes = self.text.as_bytes();
        loop {
            // The next ':' at least three bytes in, preceded by "urn" (any case), or that of
            // a link's scheme.
            let from = self.pos.checked_add(3)?;
            let colon = from + bytes.get(from..)?.iter().position(|&b| b == b':')?;
            let start = colon - 3;
            self.pos = start + 1;
            if !self.options.as_written
                && let Some(found) = self.in_link(colon)
            {
                self.pos = found.end();
                return Some(found);
            }
            let word_start = match start.checked_sub(1) {
                Some(before) => bytes
                    .get(before)
                    .is_some_and(|b| !b.is_ascii_alphanumeric()),
                None => true,
            };
            if !word_start
                || !bytes
                    .get(start..colon)
                    .is_some_and(|s| s.eq_ignore_ascii_case(b"urn"))
            {
                continue;
            }
            if start >= self.run_end {
                let after = bytes.get(colon..)?;
                self.run_end = colon
                    + after
                        .iter()
                        .position(|&b| !in_urn(b))
                        .unwrap_or(after.len());
            }
            if let Some(mut found) = self.at(start, self.run_end) {
                self.pos = found.end();
                found.link_start = self.links.link_start(self.text, start, found.end());
                return Some(found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    std::thread_local! {
        /// The bytes read looking for a closer or a link's NSS end (this thread's).
        pub(super) static READ: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// Looking for the closer of an opener, and for the end of a link's NSS, reads each byte a
    /// bounded number of times: on 1 MB of `(urn:` (every start after an opener, none a URN)
    /// and of `https://doi.org/` (every link's NSS the rest of the text), the search reads
    /// fewer than two bytes per byte of text (each start read the rest of its run before).
    #[test]
    fn closers_and_link_ends_are_read_once() {
        for unit in ["(urn:", "https://doi.org/", "=urn:x:", "'urn:a:b%"] {
            let text = unit.repeat(1_000_000 / unit.len());
            READ.with(|read| read.set(0));
            let _ = super::find(&text).count();
            let read = READ.with(core::cell::Cell::get);
            assert!(
                read <= 2 * text.len(),
                "{unit}: {read} bytes read for {}",
                text.len()
            );
        }
    }

    /// A link's head is read once, however many URNs follow one another in it: on 64 KiB of
    /// `/urn:…|` after one scheme, the search reads fewer bytes before the URNs than the text
    /// holds (it read the 2 KiB before each URN: 2 KiB times 4,000 URNs).
    #[test]
    fn each_byte_before_a_urn_is_read_once() {
        let mut text = alloc::string::String::from("https://nbn-resolving.org");
        while text.len() < 65_536 {
            text.push_str("/urn:nbn:de:1-2|");
        }
        let mut search = super::find(&text);
        let found = search.by_ref().count();
        assert_eq!(found, 4_095);
        assert!(search.links.read <= text.len(), "{}", search.links.read);
        // The first URN is in the link; the rest are not (`|` is no part of a link).
        assert!(super::find(&text).next().and_then(|f| f.link()).is_some());
    }
}
