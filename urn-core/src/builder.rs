//! [`UrnBuilder`]: assembling a URN from parts, which can only ever yield a valid [`Urn`].

use alloc::string::String;

use crate::Urn;
use crate::error::{Component, ErrorKind, ParseError};

/// Builds a [`Urn`] from a NID, an NSS and optional components.
///
/// The parts must already be percent-encoded ([`encode_nss`](crate::encode_nss) turns any
/// text into a valid NSS). [`UrnBuilder::build`] parses the result and checks that every part
/// reads back unchanged, so a delimiter inside a part (say `?=` inside an r-component) is an
/// error rather than a silently different URN.
///
/// ```
/// use urn_core::{ErrorKind, Urn};
/// let urn = Urn::builder("example", "a123").r_component("res").f_component("").build()?;
/// assert_eq!(urn.as_str(), "urn:example:a123?+res#");
/// let err = Urn::builder("example", "a").r_component("x?=y").build().unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Delimiter { .. }));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrnBuilder {
    nid: String,
    nss: String,
    r_component: Option<String>,
    q_component: Option<String>,
    f_component: Option<String>,
}

impl UrnBuilder {
    /// A builder for `urn:<nid>:<nss>`.
    pub fn new(nid: &str, nss: &str) -> Self {
        UrnBuilder {
            nid: nid.into(),
            nss: nss.into(),
            ..UrnBuilder::default()
        }
    }

    /// Sets the NID.
    pub fn nid(mut self, nid: &str) -> Self {
        self.nid = nid.into();
        self
    }

    /// Sets the NSS (percent-encoded).
    pub fn nss(mut self, nss: &str) -> Self {
        self.nss = nss.into();
        self
    }

    /// Sets or (with `None`) removes the r-component.
    pub fn r_component<'s>(mut self, r: impl Into<Option<&'s str>>) -> Self {
        self.r_component = r.into().map(String::from);
        self
    }

    /// Sets or (with `None`) removes the q-component.
    pub fn q_component<'s>(mut self, q: impl Into<Option<&'s str>>) -> Self {
        self.q_component = q.into().map(String::from);
        self
    }

    /// Sets or (with `None`) removes the f-component (`Some("")` gives a trailing `#`).
    pub fn f_component<'s>(mut self, f: impl Into<Option<&'s str>>) -> Self {
        self.f_component = f.into().map(String::from);
        self
    }

    /// Assembles and validates the URN. Error offsets count from the start of the assembled
    /// text `urn:<nid>:<nss>[?+r][?=q][#f]`.
    pub fn build(&self) -> Result<Urn, ParseError> {
        let mut text = String::with_capacity(
            6 + self.nid.len()
                + self.nss.len()
                + [&self.r_component, &self.q_component, &self.f_component]
                    .iter()
                    .map(|c| c.as_ref().map_or(0, |c| c.len() + 2))
                    .sum::<usize>(),
        );
        text.push_str("urn:");
        text.push_str(&self.nid);
        text.push(':');
        text.push_str(&self.nss);
        for (marker, part) in [
            ("?+", &self.r_component),
            ("?=", &self.q_component),
            ("#", &self.f_component),
        ] {
            if let Some(part) = part {
                text.push_str(marker);
                text.push_str(part);
            }
        }
        let urn = Urn::from_string(text)?;
        let view = urn.as_urn_ref();
        let offsets = view.offsets();
        let checks = [
            (
                view.nid() == self.nid,
                Component::Nid,
                offsets.nid_end as usize,
            ),
            (
                view.nss() == self.nss,
                Component::Nss,
                offsets.nss_end as usize,
            ),
            (
                view.r_component() == self.r_component.as_deref(),
                Component::RComponent,
                offsets.r_end as usize,
            ),
            (
                view.q_component() == self.q_component.as_deref(),
                Component::QComponent,
                offsets.q_end as usize,
            ),
        ];
        for (ok, component, at) in checks {
            if !ok {
                return Err(ParseError::new(ErrorKind::Delimiter { component }, at));
            }
        }
        Ok(urn)
    }
}

/// Building URNs; here, beside the builder, so `Urn` does not depend on it.
impl Urn {
    /// Starts building a URN from a NID and an (already percent-encoded) NSS.
    ///
    /// ```
    /// use urn_core::{encode_nss, Urn};
    /// let urn = Urn::builder("example", &encode_nss("a b/c"))
    ///     .q_component("lang=en")
    ///     .build()?;
    /// assert_eq!(urn.as_str(), "urn:example:a%20b%2Fc?=lang=en");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn builder(nid: &str, nss: &str) -> UrnBuilder {
        UrnBuilder::new(nid, nss)
    }

    /// `urn:<nid>:<nss>`, validated (the NSS must already be percent-encoded; see
    /// [`encode_nss`](crate::encode_nss)).
    pub fn from_parts(nid: &str, nss: &str) -> Result<Self, ParseError> {
        UrnBuilder::new(nid, nss).build()
    }

    /// A builder holding this URN's parts, for changing a component.
    ///
    /// ```
    /// let urn = urn_core::Urn::parse("urn:example:a?=x=1#top")?;
    /// let plain = urn.to_builder().q_component(None).f_component(None).build()?;
    /// assert_eq!(plain.as_str(), "urn:example:a");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn to_builder(&self) -> UrnBuilder {
        UrnBuilder::new(self.nid(), self.nss())
            .r_component(self.r_component())
            .q_component(self.q_component())
            .f_component(self.f_component())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters_inside_parts_are_errors() {
        let kind = |b: UrnBuilder| b.build().unwrap_err().kind();
        assert_eq!(
            kind(UrnBuilder::new("ab:c", "x")),
            ErrorKind::Delimiter {
                component: Component::Nid
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x?+y")),
            ErrorKind::Delimiter {
                component: Component::Nss
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x").r_component("a?=b")),
            ErrorKind::Delimiter {
                component: Component::RComponent
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x").q_component("a#b")),
            ErrorKind::Delimiter {
                component: Component::QComponent
            }
        );
        assert_eq!(kind(UrnBuilder::new("ab", "")), ErrorKind::EmptyNss);
    }
}
