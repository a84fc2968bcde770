//! `urnkit.find` and `urnkit.repair`: urn-core's `find` and `repair` on a Python `str`, their
//! results as dicts whose offsets are the `str`'s (code points, so `text[start:end]` is the
//! URN), not UTF-8 bytes as in the columnar functions.

use std::cell::Cell;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use urn_core::{FindOptions, UrnEnd, find_with, repair as repair_text};

use crate::text::utf8;

/// Code-point offsets of byte offsets into one text (the same numbers when it is ASCII, as
/// nearly every text with URNs is: asked once, not per offset). Otherwise it counts from the
/// offset it converted last, so offsets that come nearly in order (a URN's, then its link's)
/// cost their distance, not the length of the text before them.
struct CodePoints<'t> {
    text: &'t str,
    ascii: bool,
    /// The last byte offset converted and its code-point offset.
    last: Cell<(usize, usize)>,
}

impl<'t> CodePoints<'t> {
    fn new(text: &'t str) -> Self {
        CodePoints {
            text,
            ascii: text.is_ascii(),
            last: Cell::new((0, 0)),
        }
    }

    /// The code-point offset of byte offset `byte` (a character boundary).
    fn at(&self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        let count = |range: Option<&str>| range.map_or(0, |part| part.chars().count());
        let (from, points) = self.last.get();
        let at = if byte >= from {
            points + count(self.text.get(from..byte))
        } else {
            points.saturating_sub(count(self.text.get(byte..from)))
        };
        self.last.set((byte, at));
        at
    }
}

/// The URNs in `text`, in order, each a dict: `start`, `end` (offsets into `text`: `text[start:
/// end]` is the URN, or the DOI of a doi.org link), `text` (the URN; for a DOI, `urn:doi:` and
/// the DOI), `key` (under `rules`), `link` (the resolver link's `(start, end)` or `None`). A
/// URN ends where prose ends it (urn-core's `find`), or with `longest=True` where the parser's
/// longest match does.
#[pyfunction]
#[pyo3(signature = (text, *, longest = false, syntax = "rfc8141", rules = "v2"))]
fn find<'py>(
    py: Python<'py>,
    text: &Bound<'_, PyString>,
    longest: bool,
    syntax: &str,
    rules: &str,
) -> PyResult<Bound<'py, PyList>> {
    let rules = crate::ops::key_rules(rules)?;
    let text = utf8(text)?;
    let end = if longest {
        UrnEnd::Longest
    } else {
        UrnEnd::Prose
    };
    let options = FindOptions::new()
        .with_parse_options(crate::scalar::syntax(syntax)?.into())
        .with_end(end);
    let at = CodePoints::new(&text);
    let out = PyList::empty(py);
    for found in find_with(&text, options) {
        let hit = PyDict::new(py);
        hit.set_item("start", at.at(found.start()))?;
        hit.set_item("end", at.at(found.end()))?;
        hit.set_item("text", found.as_str())?;
        hit.set_item("key", found.urn().key_with(rules).as_str())?;
        hit.set_item("link", found.link().map(|l| (at.at(l.start), at.at(l.end))))?;
        out.append(hit)?;
    }
    Ok(out)
}

/// What repair makes of `text`: a dict of `input`, `urn` (`None` when not repaired), `fixes`
/// (dicts of `kind`, `start`, `end`: offsets into `text`, `before`, `after`) and `error` (a dict
/// of `kind`, `offset`, `message`: the parser's on `text`; for a URN the fixes made that its
/// known namespace refuses, `invalid_nss`, the byte in that URN and the namespace's message; or
/// `None`). A URN comes back as it is, with no fixes.
#[pyfunction]
fn repair<'py>(py: Python<'py>, text: &Bound<'_, PyString>) -> PyResult<Bound<'py, PyDict>> {
    let input = utf8(text)?;
    let repaired = repair_text(&input);
    let at = CodePoints::new(&input);
    let fixes = PyList::empty(py);
    for fix in repaired.fixes() {
        let item = PyDict::new(py);
        item.set_item("kind", fix.kind.name())?;
        item.set_item("start", at.at(fix.start))?;
        item.set_item("end", at.at(fix.end))?;
        item.set_item("before", &fix.before)?;
        item.set_item("after", &fix.after)?;
        fixes.append(item)?;
    }
    let out = PyDict::new(py);
    out.set_item("input", text)?;
    out.set_item("urn", repaired.urn().map(|u| u.as_str()))?;
    out.set_item("fixes", fixes)?;
    match repaired.error() {
        Some(e) => {
            let error = PyDict::new(py);
            error.set_item("kind", e.kind().name())?;
            // A URN its namespace refuses: the offset is into that URN (ASCII), the message
            // the namespace's.
            match repaired.refused() {
                Some(refused) => {
                    error.set_item("offset", e.offset())?;
                    error.set_item("message", refused.to_string())?;
                }
                None => {
                    error.set_item("offset", at.at(e.offset()))?;
                    error.set_item("message", e.to_string())?;
                }
            }
            out.set_item("error", error)?;
        }
        None => out.set_item("error", py.None())?,
    }
    Ok(out)
}

/// Adds `find` and `repair` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(find, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    Ok(())
}
