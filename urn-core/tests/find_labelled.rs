//! `find` on the labelled snippets of `testdata/find/snippets.jsonl` (a label is the span of a
//! hit: the URN, or the DOI of a doi.org link; catalogue records,
//! reference lists, READMEs, HTML, CSV cells, logs, prose; each with the URNs a reader takes
//! from it): precision and recall of the spans, printed, and held to at least 0.99 each.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::BTreeSet;

/// A snippet's kind, its text and the byte spans of its labels.
type Snippet = (String, String, BTreeSet<(usize, usize)>);

/// Each snippet of `testdata/find/<file>`, the spans of its labels found in order (each
/// after the previous one).
fn snippets(file: &str) -> Vec<Snippet> {
    let path = format!("{}/../testdata/find/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let snippet = v["text"].as_str().unwrap().to_owned();
            let mut spans = BTreeSet::new();
            let mut from = 0;
            for urn in v["urns"].as_array().unwrap() {
                let urn = urn.as_str().unwrap();
                let start = from + snippet[from..].find(urn).unwrap();
                spans.insert((start, start + urn.len()));
                from = start + urn.len();
            }
            (v["kind"].as_str().unwrap().to_owned(), snippet, spans)
        })
        .collect()
}

#[test]
fn precision_and_recall_on_the_labelled_snippets() {
    let snippets = snippets("snippets.jsonl");
    assert!(snippets.len() >= 300, "{}", snippets.len());
    precision_and_recall(&snippets);
}

/// On passages copied from public material (`real.jsonl`, each naming its source), of at
/// least 8 kinds.
#[test]
fn precision_and_recall_on_real_text() {
    let snippets = snippets("real.jsonl");
    let kinds: BTreeSet<&str> = snippets.iter().map(|(kind, ..)| kind.as_str()).collect();
    assert!(kinds.len() >= 8, "{kinds:?}");
    precision_and_recall(&snippets);
}

/// Prints precision and recall of `find`'s spans against the labels; holds both to 0.99.
fn precision_and_recall(snippets: &[Snippet]) {
    let (mut right, mut found, mut labelled) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for (kind, text, spans) in snippets {
        let got: BTreeSet<(usize, usize)> =
            urn_core::find(text).map(|f| (f.start(), f.end())).collect();
        right += got.intersection(spans).count();
        found += got.len();
        labelled += spans.len();
        if &got != spans {
            wrong.push(format!(
                "{kind}: {text:?}: found {got:?}, labelled {spans:?}"
            ));
        }
    }
    let precision = right as f64 / found as f64;
    let recall = right as f64 / labelled as f64;
    println!(
        "{} snippets, {labelled} labelled URNs, {found} found, {right} right: precision {precision:.4}, recall {recall:.4}",
        snippets.len()
    );
    for w in &wrong {
        println!("{w}");
    }
    assert!(precision >= 0.99 && recall >= 0.99, "{wrong:#?}");
}
