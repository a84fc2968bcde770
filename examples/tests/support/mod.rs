//! Shared by the end-to-end tests: where PostgreSQL is, fresh schemas and files, and a
//! minimal HTTP/1.1 client (real sockets, nothing mocked).
#![allow(dead_code, unreachable_pub)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use diesel::{Connection, PgConnection, RunQueryDsl};

#[path = "../../../urn-sql/tests/support/database.rs"]
mod database;

pub use database::{postgres_url, unique};

/// A PostgreSQL schema that exists for the life of the value; its URL sets `search_path` to
/// it, so a program pointed there creates its tables (and urn-sql's domains) inside it.
pub struct PgSchema {
    admin: String,
    name: String,
    /// The database URL that selects the schema.
    pub url: String,
}

impl PgSchema {
    pub fn create(admin: &str, test: &str) -> PgSchema {
        let name = unique(&format!("urn_examples_{test}"));
        let mut conn = PgConnection::establish(admin).unwrap();
        diesel::sql_query(format!("CREATE SCHEMA {name}"))
            .execute(&mut conn)
            .unwrap();
        let sep = if admin.contains('?') { '&' } else { '?' };
        let url = format!("{admin}{sep}options=-csearch_path%3D{name}");
        PgSchema {
            admin: admin.into(),
            name,
            url,
        }
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        if let Ok(mut conn) = PgConnection::establish(&self.admin) {
            let _ =
                diesel::sql_query(format!("DROP SCHEMA {} CASCADE", self.name)).execute(&mut conn);
        }
    }
}

/// A SQLite file in the temp directory, removed on drop.
pub struct TempDb {
    pub path: std::path::PathBuf,
}

impl TempDb {
    pub fn new(test: &str) -> TempDb {
        let path = std::env::temp_dir().join(format!("{}.sqlite3", unique(test)));
        TempDb { path }
    }

    pub fn url(&self) -> String {
        format!("sqlite:{}", self.path.display())
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.path.display()));
        }
    }
}

/// An HTTP response: status and JSON body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub body: serde_json::Value,
}

/// Sends one request (`Connection: close`) and reads the whole response.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Response {
    let mut stream = TcpStream::connect(addr).unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, payload) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let lower = head.to_ascii_lowercase();
    assert!(
        !lower.contains("transfer-encoding: chunked"),
        "expected a sized body:\n{head}"
    );
    // JSON, or an RFC 9457 problem (also JSON) for an invalid URN in the path.
    assert!(
        lower.contains("content-type: application/json")
            || (status == 422 && lower.contains("content-type: application/problem+json")),
        "expected JSON:\n{text}"
    );
    Response {
        status,
        body: serde_json::from_str(payload).unwrap(),
    }
}

/// `s` percent-encoded whole, as JavaScript's `encodeURIComponent` does (everything but
/// unreserved characters and `!'()*`).
pub fn encode_uri_component(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!'()*".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
