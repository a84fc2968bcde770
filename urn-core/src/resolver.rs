//! Resolver links: the web addresses that resolve URNs, as a dated table ([`resolvers`]), read
//! both ways ([`unwrap_link`], [`link`]).

use alloc::format;
use alloc::string::String;
use core::fmt;

use crate::urn::Urn;
use crate::urn_ref::UrnRef;

/// The date the resolver table ([`resolvers`]) was last checked against its sources.
pub const RESOLVERS_DATE: &str = "2026-11-28";

/// How a resolver's link holds the URN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LinkForm {
    /// The whole URN follows the link's start (`https://nbn-resolving.org/urn:nbn:de:…`).
    Urn,
    /// The NSS follows it (`https://doi.org/10.1000/182` for `urn:doi:10.1000/182`).
    Nss,
}

/// One resolver link form of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolver {
    /// The URNs it resolves: an assigned name starting with this, in any case
    /// (`urn:nbn:de:`).
    pub urns: &'static str,
    /// The link up to the URN (or its NSS), without the scheme: `nbn-resolving.org/`. A link
    /// is read with `http://` or `https://`, and with or without `www.`.
    pub link: &'static str,
    /// What follows [`Resolver::link`].
    pub form: LinkForm,
    /// Whether [`link`] makes links of this form (the first preferred form that fits a URN
    /// wins); the others are read only (older hosts that still appear in data).
    pub preferred: bool,
    /// Where the form is documented or reported.
    pub source: &'static str,
}

/// The table, in the order [`link`] tries it.
const RESOLVERS: &[Resolver] = &[
    Resolver {
        urns: "urn:nbn:de:",
        link: "nbn-resolving.org/",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898; clarin-eric/VLO#400 (the /redirect/ path stopped working in 2025)",
    },
    Resolver {
        urns: "urn:nbn:ch:",
        link: "nbn-resolving.org/",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898",
    },
    Resolver {
        urns: "urn:nbn:",
        link: "nbn-resolving.org/",
        form: LinkForm::Urn,
        preferred: false,
        source: "clarin-eric/VLO#400 (resolves urn:nbn:fi: too); pangaea-data-publisher/fuji#274",
    },
    Resolver {
        urns: "urn:nbn:",
        link: "nbn-resolving.de/",
        form: LinkForm::Urn,
        preferred: false,
        source: "MyCoRe-Org/mir#59 (the older host)",
    },
    Resolver {
        urns: "urn:nbn:at:",
        link: "resolver.obvsg.at/",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898",
    },
    Resolver {
        urns: "urn:nbn:fi:",
        link: "urn.fi/",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898; pangaea-data-publisher/fuji#112, #274",
    },
    Resolver {
        urns: "urn:nbn:fi-",
        link: "urn.fi/",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898; pangaea-data-publisher/fuji#112, #274",
    },
    Resolver {
        urns: "urn:nbn:se:",
        link: "urn.kb.se/resolve?urn=",
        form: LinkForm::Urn,
        preferred: true,
        source: "inspirehep/inspire-next#1898; kb.se (URN:NBN, resolution service)",
    },
    Resolver {
        urns: "urn:doi:",
        link: "doi.org/",
        form: LinkForm::Nss,
        preferred: true,
        source: "DOI Handbook (the doi.org proxy server)",
    },
    Resolver {
        urns: "urn:doi:",
        link: "dx.doi.org/",
        form: LinkForm::Nss,
        preferred: false,
        source: "DOI Handbook (dx.doi.org, the proxy's older name)",
    },
];

/// The resolver link forms this crate knows, dated [`RESOLVERS_DATE`]: `urn:nbn:` by country
/// (de and ch at nbn-resolving.org, at at resolver.obvsg.at, fi at urn.fi, se at urn.kb.se;
/// nbn-resolving.org and nbn-resolving.de read for any country) and `urn:doi:` (doi.org,
/// dx.doi.org). Besides these, [`unwrap_link`] reads any `http(s)://…/urn:…` link.
///
/// Sources (each row's [`Resolver::source`] names its own): inspirehep/inspire-next#1898 (the
/// resolvers of de, ch, at, fi and se); clarin-eric/VLO#400 (nbn-resolving.org's
/// `/redirect/` path stopped working in 2025, `/urn:nbn:…` works, also for fi);
/// pangaea-data-publisher/fuji#112 and #274 (urn.fi, nbn-resolving.org); MyCoRe-Org/mir#59
/// (nbn-resolving.de, the older host); the National Library of Sweden's URN:NBN pages (kb.se)
/// for `urn.kb.se/resolve?urn=`; the DOI Handbook for the doi.org proxy and its older name
/// dx.doi.org.
///
/// ```
/// let doi = urn_core::resolvers().iter().find(|r| r.urns == "urn:doi:").unwrap();
/// assert_eq!(doi.link, "doi.org/");
/// ```
#[must_use]
pub fn resolvers() -> &'static [Resolver] {
    RESOLVERS
}

/// Why a link holds no URN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    reason: &'static str,
}

impl LinkError {
    /// What is wrong with the link.
    #[must_use]
    pub fn reason(&self) -> &str {
        self.reason
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a resolver link: {}", self.reason)
    }
}

impl core::error::Error for LinkError {}

/// `text` less a case-insensitive `prefix`.
fn strip_prefix_ci<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

/// The link less `http://` or `https://` and `www.`.
fn without_scheme(link: &str) -> Option<&str> {
    let rest = strip_prefix_ci(link, "https://").or_else(|| strip_prefix_ci(link, "http://"))?;
    Some(strip_prefix_ci(rest, "www.").unwrap_or(rest))
}

/// The resolver of [`LinkForm::Nss`] form whose link starts `link` (its scheme first), and
/// where in `link` the NSS starts: for finding names that links hold without `urn:`.
pub(crate) fn nss_link(link: &str) -> Option<(&'static Resolver, usize)> {
    let rest = without_scheme(link)?;
    RESOLVERS
        .iter()
        .filter(|r| r.form == LinkForm::Nss)
        .find_map(|r| strip_prefix_ci(rest, r.link).map(|tail| (r, link.len() - tail.len())))
}

/// Where the URN starts in a link of no known form: the first path segment, or query value,
/// that starts with `urn:` (any case), after the host.
fn generic_start(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let host_end = bytes.iter().position(|&b| b == b'/')?;
    (host_end..bytes.len().saturating_sub(3))
        .find(|&i| {
            matches!(bytes.get(i), Some(b'/' | b'='))
                && bytes
                    .get(i + 1..i + 5)
                    .is_some_and(|s| s.eq_ignore_ascii_case(b"urn:"))
        })
        .map(|i| i + 1)
}

/// The URN a resolver link stands for: a link of a form in [`resolvers`] (for the URNs that
/// form resolves), or any `http://` or `https://` link with `/urn:…` (or `=urn:…`) after its
/// host. For an [`LinkForm::Nss`] form
/// the NSS ends at the link's query or fragment (a `?` or `#` of the identifier is
/// percent-encoded in a link).
///
/// ```
/// use urn_core::unwrap_link;
/// let urn = unwrap_link("http://urn.fi/URN:NBN:fi-fe2021")?;
/// assert_eq!(urn.as_str(), "URN:NBN:fi-fe2021");
/// let doi = unwrap_link("https://dx.doi.org/10.1000/ABC")?;
/// assert_eq!((doi.as_str(), doi.key().as_str()), ("urn:doi:10.1000/ABC", "urn:doi:10.1000/abc"));
/// let any = unwrap_link("https://example.org/items/urn:example:a")?;
/// assert_eq!(any.as_str(), "urn:example:a");
/// assert!(unwrap_link("https://example.org/items/1").is_err());
/// # Ok::<(), urn_core::LinkError>(())
/// ```
pub fn unwrap_link(link: &str) -> Result<Urn, LinkError> {
    let rest = without_scheme(link).ok_or(LinkError {
        reason: "it does not start with http:// or https://",
    })?;
    let mut refusal = None;
    for resolver in RESOLVERS {
        let Some(tail) = strip_prefix_ci(rest, resolver.link) else {
            continue;
        };
        let parsed = match resolver.form {
            LinkForm::Urn => UrnRef::parse(tail).map(Urn::from),
            LinkForm::Nss => {
                let nss = tail.split(['?', '#']).next().unwrap_or(tail);
                Urn::parse(&format!("{}{nss}", resolver.urns))
            }
        };
        match parsed {
            Ok(urn) if strip_prefix_ci(urn.assigned_name(), resolver.urns).is_some() => {
                return Ok(urn);
            }
            // Another resolver's URN: the generic form below reads it.
            Ok(_) => {}
            Err(_) => refusal = Some("what follows the resolver is not a URN"),
        }
    }
    let tail = generic_start(rest).and_then(|start| rest.get(start..));
    match tail.map(UrnRef::parse) {
        Some(Ok(urn)) => Ok(Urn::from(urn)),
        Some(Err(_)) => Err(LinkError {
            reason: refusal.unwrap_or("what follows /urn: is not a URN"),
        }),
        None => Err(LinkError {
            reason: refusal.unwrap_or("no resolver of the table, and no /urn: in the link"),
        }),
    }
}

/// The resolver link for `urn`, from the first preferred form of [`resolvers`] whose URNs
/// it is among (its assigned name; components are not sent), or `None`.
///
/// ```
/// use urn_core::{UrnRef, link};
/// let nbn = UrnRef::parse("urn:nbn:de:bvb:19-epub-91046-3")?;
/// assert_eq!(link(&nbn).as_deref(), Some("https://nbn-resolving.org/urn:nbn:de:bvb:19-epub-91046-3"));
/// let doi = UrnRef::parse("urn:doi:10.1000/182")?;
/// assert_eq!(link(&doi).as_deref(), Some("https://doi.org/10.1000/182"));
/// assert_eq!(link(&UrnRef::parse("urn:example:a")?), None);
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[must_use]
pub fn link(urn: &UrnRef<'_>) -> Option<String> {
    let name = urn.assigned_name();
    let resolver = RESOLVERS
        .iter()
        .find(|r| r.preferred && strip_prefix_ci(name, r.urns).is_some())?;
    let tail = match resolver.form {
        LinkForm::Urn => name,
        LinkForm::Nss => urn.nss(),
    };
    Some(format!("https://{}{tail}", resolver.link))
}
