//! An axum extractor for a URN in the request path, taken as the client wrote it (feature
//! `axum`).
//!
//! axum's `Path` percent-decodes its captures, which changes URNs: `urn:example:a%2Fb` (valid,
//! and *not* equivalent to `urn:example:a/b`) arrives as `urn:example:a/b`. [`UrnPath`] reads
//! the raw request target instead.

use std::borrow::Cow;

use ::axum::extract::{FromRequestParts, MatchedPath, OriginalUri, RawPathParams};
use ::axum::http::request::Parts;
use ::axum::http::{StatusCode, header};
use ::axum::response::{IntoResponse, Response};

use urn_core::{DecodeError, ParseError, Urn};

/// The URN at the end of the request path, for a route ending in a wildcard
/// (`/items/{*urn}`), as the client wrote it.
///
/// Every character of a URN before its `?+`, `?=` or `#` is allowed in a URI path, so a client
/// sends the URN as is: `GET /items/urn:example:a%2Fb` gives `urn:example:a%2Fb`, and
/// `GET /items/urn:example:a%252Fb` gives `urn:example:a%252Fb` (another valid URN) — no
/// percent-decoding. The conventions, in order:
///
/// 1. The text after the wildcard's start, up to the query, is the URN **as written** when it
///    begins with `urn:` (any case).
/// 2. Otherwise it is percent-decoded once: a client that encoded the whole URN as one path
///    segment (JavaScript's `encodeURIComponent`, `urn%3Aexample%3Aa%252Fb`) gets the URN it
///    encoded. Text that begins with neither `urn:` nor an encoding of it is no URN either way,
///    so the two conventions never disagree. Encoded, `?+`, `?=` and `#` travel as `%3F` and
///    `%23`.
/// 3. A query string that begins with `+` or `=` is the URN's r- or q-component, as written
///    and whole: `GET /items/urn:example:a?+r?=q` gives `urn:example:a?+r?=q` (and `?+r&x=1`
///    the r-component `r&x=1`). Any other query string is the route's own and is left alone.
/// 4. A fragment (`#f`) never reaches the server: HTTP clients do not send it. Encode it
///    (convention 2) to send one.
///
/// Encoders that escape `/` but not `:` (Go's `url.PathEscape`) send `urn:example:a%2Fb` for
/// `urn:example:a/b`, and that is read as written: another URN. Clients send the URN as is, or
/// encode all of it.
///
/// An invalid URN is rejected with `422 Unprocessable Content` and an RFC 9457
/// `application/problem+json` body naming the rule and the byte ([`UrnPathRejection`]).
///
/// ```
/// use axum::{Router, routing::get};
/// use urn_serde::axum::UrnPath;
///
/// async fn item(UrnPath(urn): UrnPath) -> String {
///     format!("{urn} has the key {}", urn.key())
/// }
/// let app: Router = Router::new().route("/items/{*urn}", get(item));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrnPath(pub Urn);

impl UrnPath {
    /// The URN.
    pub fn into_inner(self) -> Urn {
        self.0
    }
}

/// Why [`UrnPath`] gave no URN. Its response is an RFC 9457 problem (`application/problem+json`):
///
/// ```json
/// {"type": "https://www.rfc-editor.org/rfc/rfc8141#section-2", "title": "invalid URN",
///  "status": 422, "detail": "' ' at byte 13 is not allowed in the NSS",
///  "urn": "urn:example:a b", "rule": "invalid_char", "byte": 13}
/// ```
///
/// (`urn` is the text parsed, after any decoding; `byte` counts into it.) A path that is
/// encoded whole but does not decode (a bad `%`, bytes that are not UTF-8) is a 422 problem
/// titled "invalid percent-encoding", without `rule` and `byte`. A route without a trailing
/// wildcard, or a URI rewritten by a middleware before routing, is the server's mistake: a
/// 500 problem (its `Display` names the route, for the logs; the body does not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrnPathRejection {
    /// The text is not a URN.
    Invalid {
        /// The text parsed (decoded once when the client encoded it).
        text: String,
        /// The parser's error.
        error: ParseError,
    },
    /// The path was percent-encoded, but does not decode to UTF-8 text (or has a bad `%`).
    Undecodable {
        /// What is wrong with the encoding.
        detail: String,
    },
    /// The extractor was used on a route that does not end in a `{*name}` wildcard.
    NoWildcard {
        /// The route, as registered.
        route: String,
    },
    /// The text found in the request's original URI is not what the router captured: a
    /// middleware rewrote the URI before routing, so the URN cannot be read as written.
    Mislocated {
        /// The route, as registered.
        route: String,
    },
}

impl core::fmt::Display for UrnPathRejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UrnPathRejection::Invalid { text, error } => {
                write!(f, "{error} (in {text:?})")
            }
            UrnPathRejection::Undecodable { detail } => {
                write!(f, "the URN in the path is percent-encoded, but {detail}")
            }
            UrnPathRejection::NoWildcard { route } => write!(
                f,
                "UrnPath needs a route ending in a {{*name}} wildcard; {route:?} has none"
            ),
            UrnPathRejection::Mislocated { route } => write!(
                f,
                "UrnPath found text in the original URI that route {route:?} did not capture \
                 (a middleware rewrote the URI before routing)"
            ),
        }
    }
}

impl std::error::Error for UrnPathRejection {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UrnPathRejection::Invalid { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl UrnPathRejection {
    /// The HTTP status of the response: 422 for the client's text, 500 for a misrouted
    /// extractor.
    pub fn status(&self) -> StatusCode {
        match self {
            UrnPathRejection::Invalid { .. } | UrnPathRejection::Undecodable { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            UrnPathRejection::NoWildcard { .. } | UrnPathRejection::Mislocated { .. } => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    /// The RFC 9457 problem document the response carries.
    pub fn problem(&self) -> serde_json::Value {
        let status = self.status();
        match self {
            UrnPathRejection::Invalid { text, error } => serde_json::json!({
                "type": "https://www.rfc-editor.org/rfc/rfc8141#section-2",
                "title": "invalid URN",
                "status": status.as_u16(),
                "detail": error.detail().to_string(),
                "urn": text,
                "rule": error.kind().name(),
                "byte": error.offset(),
            }),
            UrnPathRejection::Undecodable { .. } => serde_json::json!({
                "type": "https://www.rfc-editor.org/rfc/rfc3986#section-2.1",
                "title": "invalid percent-encoding",
                "status": status.as_u16(),
                "detail": self.to_string(),
            }),
            // The route stays in the server's logs (`Display`), not in the response.
            UrnPathRejection::NoWildcard { .. } | UrnPathRejection::Mislocated { .. } => {
                serde_json::json!({
                    "type": "about:blank",
                    "title": "Internal Server Error",
                    "status": status.as_u16(),
                    "detail": "the route cannot read a URN from its path",
                })
            }
        }
    }
}

impl IntoResponse for UrnPathRejection {
    fn into_response(self) -> Response {
        (
            self.status(),
            [(header::CONTENT_TYPE, "application/problem+json")],
            self.problem().to_string(),
        )
            .into_response()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for UrnPath {
    type Rejection = UrnPathRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let route = parts
            .extensions
            .get::<MatchedPath>()
            .map(|matched| matched.as_str().to_owned())
            .unwrap_or_default();
        // Under `Router::nest` the URI is the nested router's (its prefix removed) while the
        // matched route is whole: read the original URI then.
        let uri = parts
            .extensions
            .get::<OriginalUri>()
            .map_or(&parts.uri, |original| &original.0)
            .clone();
        let located = wildcard_text(&route, uri.path())?;
        // A middleware that rewrote the URI between the outer router and this route would
        // make the original URI and the matched route disagree: the text found must be the
        // router's own capture (which axum percent-decodes) once decoded.
        let decoded = urn_core::decode_nss(located.written);
        if let (Ok(params), Ok(decoded)) = (
            RawPathParams::from_request_parts(parts, state).await,
            &decoded,
        ) {
            let capture = params.iter().find(|(name, _)| *name == located.name);
            if capture.is_some_and(|(_, value)| value != decoded) {
                return Err(UrnPathRejection::Mislocated {
                    route: route.clone(),
                });
            }
        }
        let text = urn_text(located.written, decoded, uri.query())?;
        Urn::from_string(text)
            .map(UrnPath)
            .map_err(|e| UrnPathRejection::Invalid {
                error: e.error(),
                text: e.into_string(),
            })
    }
}

/// Where the wildcard's text is in a raw path, and the wildcard's name.
struct Located<'a> {
    written: &'a str,
    name: &'a str,
}

/// The raw text of the route's trailing wildcard in `path`: the path from the wildcard's
/// segment on.
fn wildcard_text<'a>(route: &'a str, path: &'a str) -> Result<Located<'a>, UrnPathRejection> {
    let no_wildcard = || UrnPathRejection::NoWildcard {
        route: route.to_owned(),
    };
    // The catch-all is always the route's last segment (`rfind`: a literal `{{*` before it is
    // an escaped brace).
    let wildcard = route.rfind("{*").ok_or_else(no_wildcard)?;
    let name = route
        .get(wildcard + 2..)
        .and_then(|rest| rest.strip_suffix('}'))
        .ok_or_else(no_wildcard)?;
    // The wildcard starts after as many '/' as the route has before it: the segments before
    // it match one raw segment each (an encoded '/' is no separator).
    let separators = route
        .get(..wildcard)
        .ok_or_else(no_wildcard)?
        .matches('/')
        .count();
    let start = path
        .match_indices('/')
        .nth(separators.saturating_sub(1))
        .map(|(at, _)| at + 1)
        .ok_or_else(no_wildcard)?;
    let written = path.get(start..).ok_or_else(no_wildcard)?;
    Ok(Located { written, name })
}

/// The URN text of a request: the wildcard's text as `written` when it begins with `urn:`,
/// else `decoded` (its one decoding), then a query string that begins with `+` or `=`.
fn urn_text(
    written: &str,
    decoded: Result<Cow<'_, str>, DecodeError>,
    query: Option<&str>,
) -> Result<String, UrnPathRejection> {
    let mut text = if written
        .get(..4)
        .is_some_and(|s| s.eq_ignore_ascii_case("urn:"))
    {
        written.to_owned()
    } else {
        decoded
            .map_err(|e| UrnPathRejection::Undecodable {
                detail: e.to_string().replace("cannot decode NSS: ", ""),
            })?
            .into_owned()
    };
    if let Some(components) = query.filter(|q| q.starts_with(['+', '='])) {
        text.push('?');
        text.push_str(components);
    }
    Ok(text)
}

/// [`wildcard_text`] then [`urn_text`], for the unit tests.
#[cfg(test)]
fn raw_urn(route: &str, path: &str, query: Option<&str>) -> Result<String, UrnPathRejection> {
    let written = wildcard_text(route, path)?.written;
    urn_text(written, urn_core::decode_nss(written), query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wildcard_segment_is_found_under_parameters_and_nesting() {
        let cases = [
            ("/items/{*urn}", "/items/urn:ex:a/b", None, "urn:ex:a/b"),
            (
                "/s/{shelf}/i/{*urn}",
                "/s/x%2Fy/i/urn:ex:a",
                None,
                "urn:ex:a",
            ),
            (
                "/api/items/{*urn}",
                "/api/items/urn:ex:a%2F",
                Some("+r?=q"),
                "urn:ex:a%2F?+r?=q",
            ),
            (
                "/items/{*urn}",
                "/items/URN:EX:a",
                Some("=q"),
                "URN:EX:a?=q",
            ),
            (
                "/items/{*urn}",
                "/items/urn:ex:a",
                Some("page=2"),
                "urn:ex:a",
            ),
            (
                "/items/{*urn}",
                "/items/urn%3Aex%3Aa%253F%3F%2Br",
                None,
                "urn:ex:a%3F?+r",
            ),
            ("/{*urn}", "/urn:ex:a", None, "urn:ex:a"),
        ];
        for (route, path, query, urn) in cases {
            assert_eq!(
                raw_urn(route, path, query).as_deref(),
                Ok(urn),
                "{route} {path}"
            );
        }
        assert!(matches!(
            raw_urn("/items/{urn}", "/items/urn:ex:a", None),
            Err(UrnPathRejection::NoWildcard { .. })
        ));
        assert!(matches!(
            raw_urn("/items/{*urn}", "/items/urn%3Aex%3A%C0%AF", None),
            Err(UrnPathRejection::Undecodable { .. })
        ));
    }
}
