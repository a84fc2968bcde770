//! The README's first command: the tour runs with nothing set up, exits 0, and shows each step.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

#[test]
fn tour_runs_and_shows_every_step() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tour"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "key              urn:example:weather",
        "urn:example:a b          invalid URN: ' ' at byte 13 is not allowed in the NSS",
        // The key column is aligned now that `UrnKey`'s `Display` honours the width.
        "urn:isbn:0395363411                              key urn:isbn:0395363411                            duplicate",
        "wrong namespace  expected a URN in namespace \"isbn\", found \"uuid\" at line 1 column 79",
        "URN:ISBN:0395363411?+resolver    row 1 (already there), stored as urn:isbn:0-395-36341-1",
        "urn:isbn:978-0-395-36341-6       row 2 (inserted)",
        "/isbn \"urn:isbn:12\" does not match the schema's URN pattern",
        "/see_also/0 \"urn:x:1\" does not match the schema's URN pattern",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}
