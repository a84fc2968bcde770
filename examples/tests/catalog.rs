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
use support::{encode_uri_component, request};

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

    // Lookup by any equivalent spelling: as written (r- and q-components in the query
    // string), or encoded whole with encodeURIComponent (which carries '?' and '#' too).
    for path in [
        "/items/URN:ISBN:0-395-36341-1".to_owned(),
        "/items/urn:isbn:0395363411".to_owned(),
        "/items/urn:Isbn:0-3953-6341-1?=x=1".to_owned(),
        format!(
            "/items/{}",
            encode_uri_component("urn:Isbn:0-3953-6341-1?+r?=x=1#frag")
        ),
    ] {
        let found = server.get(&path);
        assert_eq!(found.status, 200, "{path}: {:?}", found.body);
        assert_eq!(found.body, created.body);
    }

    // As written: %2c and %2C are one item; '/' and its encoding %2F are different URNs (and
    // different items); a different NSS case is a different item.
    let item = server.post(&json!({"urn": "urn:example:shelf/a%2cb", "title": "Shelf"}));
    assert_eq!(item.status, 201, "{:?}", item.body);
    for path in [
        "/items/urn:example:shelf/a%2Cb".to_owned(),
        "/items/URN:EXAMPLE:shelf/a%2cb".to_owned(),
        format!("/items/{}", encode_uri_component("urn:example:shelf/a%2cb")),
    ] {
        let found = server.get(&path);
        assert_eq!(found.status, 200, "{path}: {:?}", found.body);
        assert_eq!(found.body["id"], item.body["id"]);
    }
    assert_eq!(server.get("/items/urn:example:shelf%2Fa%2cb").status, 404);
    let missing = server.get("/items/urn:example:SHELF/a%2cb");
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
            json!({"error": "invalid isbn URN: the check digit does not match (byte 21)", "field": "isbn", "offset": 21}),
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
    // An invalid URN in the path: an RFC 9457 problem naming the rule and the byte.
    let refused = server.get("/items/urn:x:short-nid");
    assert_eq!(
        (refused.status, refused.body),
        (
            422,
            json!({
                "type": "https://www.rfc-editor.org/rfc/rfc8141#section-2",
                "title": "invalid URN",
                "status": 422,
                "detail": "NID of 1 character at byte 4: it must have 2 to 32",
                "urn": "urn:x:short-nid",
                "rule": "nid_length",
                "byte": 4,
            })
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

/// `openapi-spec-validator` (Python) on a file; `None` when it is not installed (a failure
/// under `CI=true`, where `.ci/run` installs it).
fn openapi_spec_validator(path: &std::path::Path) -> Option<std::process::Output> {
    match Command::new("python3")
        .args(["-m", "openapi_spec_validator"])
        .arg(path)
        .output()
    {
        Ok(out) if String::from_utf8_lossy(&out.stderr).contains("No module named") => None,
        Ok(out) => Some(out),
        Err(_) => None,
    }
}

/// Follows `$ref`s (`#/components/schemas/X`) inside `doc`.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => resolve(doc, doc.pointer(reference.trim_start_matches('#')).unwrap()),
        None => schema,
    }
}

/// `GET /openapi.json` is an OpenAPI document that a validator nobody here wrote accepts, covers
/// every route with its bodies (the 422 error body included), and every URN field resolves to
/// a schema with the parser's pattern; a hand-written bad payload checked against its NewItem
/// schema gets the parser's messages.
#[test]
fn openapi_document_is_valid_and_every_urn_field_has_its_pattern() {
    let db = support::TempDb::new("openapi");
    let server = Server::start(&db.url());
    let doc = server.get("/openapi.json");
    assert_eq!(doc.status, 200);
    let doc = doc.body;
    let path = std::env::temp_dir().join(format!("urn-openapi-{}.json", std::process::id()));
    std::fs::write(&path, doc.to_string()).unwrap();
    match openapi_spec_validator(&path) {
        Some(out) => assert!(
            out.status.success(),
            "openapi-spec-validator: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!(
                "CI=true but openapi-spec-validator is not installed (.ci/run installs it in a virtual environment)"
            )
        }
        None => eprintln!("openapi-spec-validator is not installed: skipping that check"),
    }
    std::fs::remove_file(&path).unwrap();

    assert_eq!(doc["openapi"], "3.1.0");
    let post = &doc["paths"]["/items"]["post"];
    for status in ["200", "201", "400", "422", "500"] {
        assert!(
            post["responses"][status].is_object(),
            "POST /items {status}"
        );
    }
    let error_body = resolve(
        &doc,
        &post["responses"]["422"]["content"]["application/json"]["schema"],
    );
    assert_eq!(error_body["required"], json!(["error"]));
    assert!(error_body["properties"]["offset"].is_object());
    for route in ["/items/{urn}", "/schema/item", "/openapi.json"] {
        assert!(doc["paths"][route]["get"].is_object(), "{route}");
    }

    let urn_pattern = urn_core::patterns::URN;
    let expect = |schema: &Value, pattern: &str, what: &str| {
        let schema = resolve(&doc, schema);
        assert_eq!(schema["pattern"], pattern, "{what}");
        assert_eq!(schema["format"], "urn", "{what}");
        assert_eq!(schema["maxLength"], 65536, "{what}");
    };
    let isbn_pattern =
        urn_core::patterns::namespace_urn("isbn", urn_core::KnownNamespace::Isbn.nss_pattern());
    for body in ["NewItem", "Item"] {
        let props = &doc["components"]["schemas"][body]["properties"];
        expect(&props["urn"], urn_pattern, body);
        expect(&props["see_also"]["items"], urn_pattern, body);
        expect(&props["isbn"]["oneOf"][0], &isbn_pattern, body);
    }
    let isbn = &doc["components"]["schemas"]["IsbnUrn"];
    assert_eq!(isbn["title"], "ISBN URN");
    assert_eq!(isbn["examples"][0], "urn:isbn:0-395-36341-1");
    assert!(doc["components"]["schemas"]["Urn"]["examples"].is_array());
    let item = &doc["components"]["schemas"]["Item"]["properties"];
    expect(&item["key"], urn_core::patterns::URN_KEY, "Item.key");
    expect(
        &doc["paths"]["/items/{urn}"]["get"]["parameters"][0]["schema"],
        urn_pattern,
        "the path parameter",
    );

    // The NewItem schema out of this document, on a hand-written bad payload.
    let mut schema = json!({ "$ref": "#/components/schemas/NewItem" });
    schema["components"] = doc["components"].clone();
    let validator = urn_schema::Validator::new(&schema).unwrap();
    let payload: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/tests/payloads/new-item-bad.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let mut problems: Vec<String> = validator
        .validate(&payload)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    problems.sort();
    assert_eq!(
        problems,
        [
            "/isbn: invalid isbn URN: the check digit does not match (byte 25)",
            "/see_also/1: invalid URN: NID of 1 character at byte 4: it must have 2 to 32",
            "/see_also/2: invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits",
            "/urn: invalid URN: ' ' at byte 17 is not allowed in the NSS",
        ]
    );
    shut_down(server);
}
