//! Rebuilds the crate when a file under `assets/` changes: the page's files are embedded at
//! compile time (rust-embed), and a proc macro cannot tell Cargo about files added later.

fn main() {
    println!("cargo:rerun-if-changed=assets");
}
