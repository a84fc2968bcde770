//! Embeds the IANA URN namespace registry (`data/nid-registry.csv`) as a sorted table.

use std::fmt::Write as _;
use std::{env, error::Error, fs, path::Path};

/// Splits one CSV line into fields (double quotes group commas; `""` is a quote).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let push = match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                Some('"')
            }
            '"' => {
                quoted = !quoted;
                None
            }
            ',' if !quoted => {
                out.push(String::new());
                None
            }
            c => Some(c),
        };
        if let (Some(c), Some(field)) = (push, out.last_mut()) {
            field.push(c);
        }
    }
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    let src = "data/nid-registry.csv";
    println!("cargo::rerun-if-changed={src}");
    let csv = fs::read_to_string(src).map_err(|e| format!("reading {src}: {e}"))?;
    let mut rows: Vec<(String, String, &str)> = Vec::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f = fields(line);
        let [nid, reference, status] = f.as_slice() else {
            return Err(format!("{src}:{}: expected 3 fields, found {}", n + 1, f.len()).into());
        };
        let status = match status.as_str() {
            "formal" => "Formal",
            "informal" => "Informal",
            other => return Err(format!("{src}:{}: unknown status {other:?}", n + 1).into()),
        };
        rows.push((nid.to_ascii_lowercase(), reference.clone(), status));
    }
    rows.sort();
    rows.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::from("static REGISTRY: &[RegistryEntry] = &[\n");
    for (nid, reference, status) in &rows {
        writeln!(
            out,
            "    RegistryEntry {{ nid: {nid:?}, reference: {reference:?}, status: NidStatus::{status} }},"
        )?;
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR")?).join("nid_registry.rs");
    fs::write(&dest, out).map_err(|e| format!("writing {}: {e}", dest.display()))?;
    Ok(())
}
