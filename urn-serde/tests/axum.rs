//! `UrnPath` (feature `axum`) behind a real HTTP/1.1 server: each request is written byte for
//! byte on a TCP socket, so the request target is exactly what a client sends.
#![cfg(feature = "axum")]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use axum::extract::Path;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use urn_serde::axum::UrnPath;

async fn item(UrnPath(urn): UrnPath) -> Json<Value> {
    Json(json!({ "urn": urn.as_str(), "key": urn.key().as_str() }))
}

/// The same route with axum's own `Path`, which percent-decodes.
async fn decoded(Path(text): Path<String>) -> String {
    text
}

async fn serve() -> std::net::SocketAddr {
    let app = Router::new()
        .route("/items/{*urn}", get(item))
        .route("/shelves/{shelf}/items/{*urn}", get(item))
        .route("/decoded/{*urn}", get(decoded))
        .route("/misrouted/{urn}", get(item))
        .nest("/api", Router::new().route("/items/{*urn}", get(item)));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// Sends `GET target` as written; returns the status, the content type and the body.
async fn get_raw(addr: std::net::SocketAddr, target: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    let content_type = head
        .lines()
        .find_map(|line| line.strip_prefix("content-type: "))
        .unwrap_or_default()
        .to_owned();
    (status, content_type, body.to_owned())
}

async fn urn_of(addr: std::net::SocketAddr, target: &str) -> (String, String) {
    let (status, _, body) = get_raw(addr, target).await;
    assert_eq!(status, 200, "{target}: {body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    (
        body["urn"].as_str().unwrap().to_owned(),
        body["key"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn the_urn_arrives_as_the_client_wrote_it() {
    let addr = serve().await;
    for (target, urn, key) in [
        // As written: an encoded '/' stays encoded (a different URN from the one with '/').
        (
            "/items/urn:example:a%2Fb",
            "urn:example:a%2Fb",
            "urn:example:a%2Fb",
        ),
        (
            "/items/urn:example:a/b",
            "urn:example:a/b",
            "urn:example:a/b",
        ),
        (
            "/items/urn:example:a%252Fb",
            "urn:example:a%252Fb",
            "urn:example:a%252Fb",
        ),
        (
            "/items/URN:ISBN:0-395-36341-1",
            "URN:ISBN:0-395-36341-1",
            "urn:isbn:0395363411",
        ),
        // Encoded whole (encodeURIComponent): decoded once.
        (
            "/items/urn%3Aexample%3Aa%252Fb",
            "urn:example:a%2Fb",
            "urn:example:a%2Fb",
        ),
        (
            "/items/urn%3Aexample%3Aa%3F%2Br%3F%3Dq%23f",
            "urn:example:a?+r?=q#f",
            "urn:example:a",
        ),
        // r- and q-components in the query string, as written; another query is the route's.
        (
            "/items/urn:example:a?+r?=q",
            "urn:example:a?+r?=q",
            "urn:example:a",
        ),
        (
            "/items/urn:example:a?=lang=en",
            "urn:example:a?=lang=en",
            "urn:example:a",
        ),
        (
            "/items/urn:example:a?page=2",
            "urn:example:a",
            "urn:example:a",
        ),
        // Parameters before the wildcard, and a nested router.
        (
            "/shelves/x%2Fy/items/urn:example:a%2Fb",
            "urn:example:a%2Fb",
            "urn:example:a%2Fb",
        ),
        (
            "/api/items/urn:example:a%2Fb",
            "urn:example:a%2Fb",
            "urn:example:a%2Fb",
        ),
    ] {
        assert_eq!(
            urn_of(addr, target).await,
            (urn.to_owned(), key.to_owned()),
            "{target}"
        );
    }
}

#[tokio::test]
async fn axum_path_would_have_changed_the_urn() {
    let addr = serve().await;
    let (status, _, body) = get_raw(addr, "/decoded/urn:example:a%2Fb").await;
    assert_eq!((status, body.as_str()), (200, "urn:example:a/b"));
}

#[tokio::test]
async fn a_fragment_is_not_sent() {
    let addr = serve().await;
    // A client that put '#f' in the request target anyway: hyper drops the fragment, so the
    // server sees the URN without it (encode it, `%23f`, to send it).
    assert_eq!(
        urn_of(addr, "/items/urn:example:a#f").await,
        ("urn:example:a".to_owned(), "urn:example:a".to_owned())
    );
}

#[tokio::test]
async fn an_invalid_urn_is_a_problem_naming_rule_and_byte() {
    let addr = serve().await;
    for (target, urn, rule, byte, detail) in [
        (
            "/items/urn:example:a%zz",
            "urn:example:a%zz",
            "percent_encoding",
            13,
            "'%' at byte 13 in the NSS must be followed by two hex digits",
        ),
        (
            "/items/urn:example:a?+",
            "urn:example:a?+",
            "empty_component",
            15,
            "the r-component at byte 15 is empty",
        ),
        (
            "/items/urn%3Aexample%3Aa%20b",
            "urn:example:a b",
            "invalid_char",
            13,
            "' ' at byte 13 is not allowed in the NSS",
        ),
        (
            "/items/isbn:0",
            "isbn:0",
            "scheme",
            0,
            "expected 'urn:' at byte 0",
        ),
    ] {
        let (status, content_type, body) = get_raw(addr, target).await;
        assert_eq!(
            (status, content_type.as_str()),
            (422, "application/problem+json"),
            "{target}"
        );
        let problem: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(problem["status"], 422, "{target}");
        assert_eq!(problem["title"], "invalid URN", "{target}");
        assert_eq!(problem["urn"], urn, "{target}");
        assert_eq!(problem["rule"], rule, "{target}");
        assert_eq!(problem["byte"], byte, "{target}");
        assert_eq!(problem["detail"], detail, "{target}");
    }
    let (status, content_type, body) = get_raw(addr, "/items/urn%3Aex%3Aa%zz").await;
    assert_eq!(
        (status, content_type.as_str()),
        (422, "application/problem+json")
    );
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (&problem["title"], &problem["detail"]),
        (
            &json!("invalid percent-encoding"),
            &json!(
                "the URN in the path is percent-encoded, but '%' at byte 12 must be followed by two hex digits"
            )
        )
    );
    let (status, content_type, body) = get_raw(addr, "/items/urn%3Aex%3A%C0%AF").await;
    assert_eq!(
        (status, content_type.as_str()),
        (422, "application/problem+json")
    );
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        problem["detail"],
        "the URN in the path is percent-encoded, but the bytes encoded from byte 11 are not UTF-8"
    );
}

/// Strips a `/v1` prefix before an inner router sees the request (a rewrite after the outer
/// router recorded the original URI).
async fn strip_v1(mut request: axum::extract::Request) -> axum::extract::Request {
    let path = request.uri().path().trim_start_matches("/v1").to_owned();
    *request.uri_mut() = path.parse().unwrap();
    request
}

#[tokio::test]
async fn a_uri_rewritten_before_routing_is_refused_not_misread() {
    let inner = Router::new().route("/{kind}/{*urn}", get(item));
    let app = Router::new()
        .fallback_service(inner)
        .layer(axum::middleware::map_request(strip_v1));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    // Counting segments in the original URI would give "urn:ex:b/urn:ex:a"; the router
    // captured "urn:ex:a".
    let (status, content_type, body) = get_raw(addr, "/v1/urn:ex:b/urn:ex:a").await;
    assert_eq!(
        (status, content_type.as_str()),
        (500, "application/problem+json"),
        "{body}"
    );
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        problem["detail"],
        "the route cannot read a URN from its path"
    );
}

#[tokio::test]
async fn a_route_without_a_wildcard_is_the_servers_error() {
    let addr = serve().await;
    let (status, content_type, body) = get_raw(addr, "/misrouted/urn:example:a").await;
    assert_eq!(
        (status, content_type.as_str()),
        (500, "application/problem+json")
    );
    // The route stays out of the body (it is in the rejection's `Display`, for the logs).
    assert!(!body.contains("misrouted"), "{body}");
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        problem["detail"],
        "the route cannot read a URN from its path"
    );
}
