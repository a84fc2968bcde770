//! Where a key's text lives: borrowed from the URN when the URN is its own key, otherwise
//! built — inline for keys of up to [`INLINE`] bytes (nearly every real URN), so computing the
//! key of a URN that is not in normal form does not touch the heap either.

use alloc::string::String;

use arrayvec::ArrayString;

/// The longest key kept inline (a `urn:uuid:` key has 45 bytes).
pub(crate) const INLINE: usize = 64;

/// A key being built, or built.
#[derive(Clone, Debug)]
pub(crate) enum KeyBuf {
    Inline(ArrayString<INLINE>),
    Heap(String),
}

impl KeyBuf {
    /// An empty buffer for `len` bytes.
    #[inline]
    pub(crate) fn with_capacity(len: usize) -> Self {
        if len <= INLINE {
            KeyBuf::Inline(ArrayString::new())
        } else {
            KeyBuf::Heap(String::with_capacity(len))
        }
    }

    /// A copy of `text`.
    #[inline]
    pub(crate) fn copy_of(text: &str) -> Self {
        let mut buf = KeyBuf::with_capacity(text.len());
        buf.push_str(text);
        buf
    }

    /// Appends `text`, moving to the heap when it does not fit inline.
    #[inline]
    pub(crate) fn push_str(&mut self, text: &str) {
        match self {
            KeyBuf::Inline(inline) => {
                if inline.try_push_str(text).is_err() {
                    let mut heap = String::with_capacity(inline.len() + text.len());
                    heap.push_str(inline);
                    heap.push_str(text);
                    *self = KeyBuf::Heap(heap);
                }
            }
            KeyBuf::Heap(heap) => heap.push_str(text),
        }
    }

    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match self {
            KeyBuf::Inline(inline) => inline,
            KeyBuf::Heap(heap) => heap,
        }
    }

    #[inline]
    pub(crate) fn as_mut_str(&mut self) -> &mut str {
        match self {
            KeyBuf::Inline(inline) => inline,
            KeyBuf::Heap(heap) => heap,
        }
    }

    /// Lower-cases the first `end` bytes (`urn:` and the NID, or more where a namespace rule
    /// says so) and hands back the whole text for further mapping.
    #[inline]
    pub(crate) fn lower_head(&mut self, end: usize) -> &mut str {
        let text = self.as_mut_str();
        if let Some(head) = text.get_mut(..end) {
            head.make_ascii_lowercase();
        }
        text
    }

    pub(crate) fn into_string(self) -> String {
        match self {
            KeyBuf::Inline(inline) => String::from(inline.as_str()),
            KeyBuf::Heap(heap) => heap,
        }
    }
}

/// A key's text.
#[derive(Clone, Debug)]
pub(crate) enum KeyText<'a> {
    /// The URN's own assigned name.
    Borrowed(&'a str),
    /// Built from it.
    Built(KeyBuf),
}

impl<'a> KeyText<'a> {
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match self {
            KeyText::Borrowed(text) => text,
            KeyText::Built(buf) => buf.as_str(),
        }
    }

    /// Owned text: a borrowed key is copied (inline when short enough).
    pub(crate) fn into_owned(self) -> KeyText<'static> {
        match self {
            KeyText::Borrowed(text) => KeyText::Built(KeyBuf::copy_of(text)),
            KeyText::Built(buf) => KeyText::Built(buf),
        }
    }

    pub(crate) fn into_string(self) -> String {
        match self {
            KeyText::Borrowed(text) => String::from(text),
            KeyText::Built(buf) => buf.into_string(),
        }
    }
}

impl From<String> for KeyText<'static> {
    fn from(text: String) -> Self {
        KeyText::Built(KeyBuf::Heap(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_stay_inline_and_long_ones_spill() {
        let mut buf = KeyBuf::copy_of("urn:example:");
        assert!(matches!(buf, KeyBuf::Inline(_)));
        buf.push_str(&"a".repeat(INLINE - 12));
        assert!(matches!(buf, KeyBuf::Inline(_)));
        buf.push_str("b");
        assert!(matches!(buf, KeyBuf::Heap(_)));
        assert_eq!(buf.as_str().len(), INLINE + 1);
        assert!(buf.as_str().ends_with("ab"));
        let long = "x".repeat(INLINE + 1);
        assert!(matches!(KeyBuf::copy_of(&long), KeyBuf::Heap(_)));
        assert_eq!(
            KeyText::Borrowed("urn:a:b").into_owned().as_str(),
            "urn:a:b"
        );
        assert_eq!(KeyText::from(long.clone()).into_string(), long);
    }
}
