//! The `urn` command-line tool (filled by the urn-cli issue).

fn main() {
    println!("urn: the command-line tool arrives with the urn-cli issue");
}
