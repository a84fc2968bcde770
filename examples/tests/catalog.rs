//! End-to-end: the `catalog` binary on 127.0.0.1:0, real HTTP requests, on a SQLite file and
//! (with `DATABASE_URL`) on PostgreSQL: dedup, lookup by any equivalent spelling, concurrent
//! inserts, 400/404/422 bodies, the item schema, graceful shutdown on SIGINT.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{path_segment, request};

/// A running `catalog` process.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(database: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catalog"))
            .args(["--listen", "127.0.0.1:0", "--database", database])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .strip_prefix("catalog listening on http://")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Server { child, addr }
    }

    fn get(&self, path: &str) -> support::Response {
        request(self.addr, "GET", path, None)
    }

    fn post(&self, body: &Value) -> support::Response {
        request(self.addr, "POST", "/items", Some(&body.to_string()))
    }

    /// Sends SIGINT (what Ctrl-C sends) and expects a clean exit within 10 s.
    fn interrupt(mut self) -> String {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "catalog exited with {status}");
                break;
            }
            assert!(Instant::now() < deadline, "catalog did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut rest = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut rest)
            .unwrap();
        rest
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The whole API, against one running server with an empty database.
fn exercise(server: &Server) {
    // Create: 201 and the stored item, with the key the catalog deduplicates on.
    let hobbit = json!({
        "urn": "URN:ISBN:0-395-36341-1",
        "title": "The Hobbit",
        "isbn": "urn:isbn:0-395-36341-1",
        "see_also": ["urn:ietf:rfc:8141", "urn:example:a%2cb"],
    });
    let created = server.post(&hobbit);
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert!(created.body["id"].is_i64());
    assert_eq!(created.body["urn"], "URN:ISBN:0-395-36341-1");
    assert_eq!(created.body["key"], "urn:isbn:0395363411");
    assert_eq!(created.body["isbn"], "urn:isbn:0-395-36341-1");
    assert_eq!(
        created.body["see_also"],
        json!(["urn:ietf:rfc:8141", "urn:example:a%2cb"])
    );

    // An equivalent spelling: 200 and the existing item, unchanged.
    for spelling in [
        "urn:isbn:0395363411",
        "urn:ISBN:0-395-36341-1?+resolver?=lang=en#p1",
    ] {
        let again = server.post(&json!({"urn": spelling, "title": "A copy"}));
        assert_eq!(again.status, 200, "{spelling}: {:?}", again.body);
        assert_eq!(again.body, created.body);
    }

    // Lookup by any equivalent spelling, percent-encoded in the path.
    for spelling in [
        "URN:ISBN:0-395-36341-1",
        "urn:isbn:0395363411",
        "urn:Isbn:0-3953-6341-1?=x=1#frag",
    ] {
        let found = server.get(&format!("/items/{}", path_segment(spelling)));
        assert_eq!(found.status, 200, "{spelling}: {:?}", found.body);
        assert_eq!(found.body, created.body);
    }

    // NSS case and percent-encoding: %2c and %2C are one item; a '/' in the NSS may come
    // encoded or not; a different NSS case is a different item.
    let item = server.post(&json!({"urn": "urn:example:shelf/a%2cb", "title": "Shelf"}));
    assert_eq!(item.status, 201, "{:?}", item.body);
    for path in [
        "/items/urn:example:shelf%2Fa%252Cb",
        "/items/urn:example:shelf/a%252cb",
        "/items/URN:EXAMPLE:shelf%2Fa%252cb",
    ] {
        let found = server.get(path);
        assert_eq!(found.status, 200, "{path}: {:?}", found.body);
        assert_eq!(found.body["id"], item.body["id"]);
    }
    let missing = server.get("/items/urn:example:SHELF%2Fa%252cb");
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.body,
        json!({
            "error": "no item is named urn:example:SHELF/a%2cb or an equivalent URN \
                      (key urn:example:SHELF/a%2Cb)",
            "field": null,
            "offset": null,
        })
    );

    // Concurrent inserts of equivalent spellings: one row, one id, one 201.
    let spellings = [
        "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        "urn:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "URN:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6?+r",
        "urn:uuid:F81D4FAE-7dec-11d0-A765-00a0c91e6bf6#x",
    ];
    let results: Vec<support::Response> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let body = json!({"urn": spellings[i % 4], "title": format!("task {i}")});
                scope.spawn(move || server.post(&body))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ids: Vec<_> = results.iter().map(|r| r.body["id"].clone()).collect();
    assert!(
        ids.iter().all(|i| *i == ids[0] && i.is_i64()),
        "{results:?}"
    );
    assert_eq!(results.iter().filter(|r| r.status == 201).count(), 1);
    assert!(results.iter().all(|r| r.status == 201 || r.status == 200));

    // Invalid input: 422 with the message, the field and the byte offset.
    let cases = [
        (
            json!({"urn": "urn:example:a b", "title": "t"}),
            json!({"error": "invalid URN: ' ' at byte 13 is not allowed in the NSS", "field": "urn", "offset": 13}),
        ),
        (
            json!({"urn": "urn:example:a", "title": "t", "isbn": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"}),
            json!({"error": "expected a URN in namespace \"isbn\", found \"uuid\"", "field": "isbn", "offset": 4}),
        ),
        (
            json!({"urn": "urn:example:a", "title": "t", "isbn": "urn:isbn:0-395-36341-2"}),
            json!({"error": "invalid \"isbn\" URN: the check digit does not match (byte 21)", "field": "isbn", "offset": 21}),
        ),
        (
            json!({"urn": "urn:example:a", "title": "t", "see_also": ["urn:ok:b", "urn:example:%zz"]}),
            json!({"error": "invalid URN: '%' at byte 12 in the NSS must be followed by two hex digits", "field": "see_also[1]", "offset": 12}),
        ),
    ];
    for (body, expected) in cases {
        let refused = server.post(&body);
        assert_eq!((refused.status, &refused.body), (422, &expected), "{body}");
    }
    let refused = server.post(&json!({"urn": "urn:example:a"}));
    assert_eq!(refused.status, 422);
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .contains("missing field `title`"),
        "{:?}",
        refused.body
    );
    let refused = request(server.addr, "POST", "/items", Some("{\"urn\": "));
    assert_eq!(refused.status, 400);
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid request body: ")
    );
    let refused = server.get("/items/urn:x:short-nid");
    assert_eq!(
        (refused.status, refused.body),
        (
            422,
            json!({"error": "invalid URN: NID of 1 character at byte 4: it must have 2 to 32", "field": "urn", "offset": 4})
        )
    );
    // Nothing invalid was stored: the valid-but-refused bodies left no rows either.
    assert_eq!(server.get("/items/urn:example:a").status, 404);

    // The schema of an item, and what it says about stored items and bad ones.
    let schema = server.get("/schema/item");
    assert_eq!(schema.status, 200);
    assert_eq!(
        schema.body["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let validator = jsonschema::validator_for(&schema.body).unwrap();
    assert!(validator.is_valid(&created.body));
    let mut bad = created.body.clone();
    bad["see_also"] = json!(["urn:x:1"]);
    assert!(!validator.is_valid(&bad));
    bad = created.body.clone();
    bad["isbn"] = json!("urn:issn:0317-8471");
    assert!(!validator.is_valid(&bad));
}

fn shut_down(server: Server) {
    let rest = server.interrupt();
    assert!(rest.contains("catalog stopped"), "{rest:?}");
}

#[test]
fn catalog_on_sqlite_file() {
    let db = support::TempDb::new("catalog");
    let server = Server::start(&db.url());
    exercise(&server);
    let id = server.get("/items/urn:isbn:0395363411").body["id"].clone();
    shut_down(server);
    // The data outlives the process; starting again does not re-run the migrations.
    let server = Server::start(&db.url());
    let found = server.get("/items/URN:ISBN:0-395-36341-1");
    assert_eq!((found.status, &found.body["id"]), (200, &id));
    shut_down(server);
}

#[test]
fn catalog_on_postgres() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let schema = support::PgSchema::create(&url, "catalog");
    let server = Server::start(&schema.url);
    exercise(&server);
    shut_down(server);
    let server = Server::start(&schema.url);
    assert_eq!(server.get("/items/urn:isbn:0395363411").status, 200);
    shut_down(server);
}

#[test]
fn bad_configuration_is_reported() {
    let out = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["--listen", "127.0.0.1:0", "--database", "mysql://nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsupported database URL"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["--listen", "localhost"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
