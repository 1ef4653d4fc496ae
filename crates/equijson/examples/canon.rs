//! Quick manual check: canonicalize a file given on the command line.
#![allow(clippy::print_stdout, clippy::unwrap_used, missing_docs)]
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let input = std::fs::read(p).unwrap();
    match equijson::canonicalize(&input) {
        Ok(v) => println!("{}", String::from_utf8_lossy(&v)),
        Err(e) => println!("ERR {e}"),
    }
}
