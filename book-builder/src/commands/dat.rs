//! `book-builder import-dat` and `export-dat`: ElephantEye's `BOOK.DAT` to and from `.xqb`.

use chariot_cli::Exit;
use std::fs;
use std::path::Path;
use std::time::Instant;

use super::write_atomically;
use anyhow::Context;
use chariot_formats::book::{Book, BookWriter, BuildInfo, eleeye};

/// `book-builder import-dat BOOK.DAT -o BOOK`.
pub fn import_dat(
    dat: &Path,
    out: &Path,
    max_ply: u32,
    bridge: u32,
    no_mirror: bool,
) -> anyhow::Result<Exit> {
    let bytes = fs::read(dat).with_context(|| format!("cannot read {}", dat.display()))?;
    let records = eleeye::read(&bytes).with_context(|| dat.display().to_string())?;
    let started = Instant::now();
    let (entries, found) = eleeye::import(&records, max_ply, !no_mirror, bridge);
    let name = dat.file_name().map_or_else(
        || dat.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let info = BuildInfo {
        mirror: !no_mirror,
        max_ply,
        min_games: 0,
        min_score_permille: 0,
        games: 0,
        metadata: format!(
            "tool: book-builder {}\nsource: {name} (ElephantEye BOOK.DAT, {} records; weights only, no statistics)\nbridge: {bridge}",
            env!("CARGO_PKG_VERSION"),
            records.len()
        ),
    };
    let n = entries.len();
    let mut w = BookWriter::new(info);
    for e in entries {
        w.push(e);
    }
    w.write(out)?;
    println!(
        "{}: {n} entries from {found} positions of {} ({} records) [{:.2} s]",
        out.display(),
        dat.display(),
        records.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(Exit::Success)
}

/// `book-builder export-dat --book BOOK -o BOOK.DAT`.
pub fn export_dat(book: &Path, out: &Path, max_ply: u32) -> anyhow::Result<Exit> {
    let b = Book::open(book)?;
    let records = eleeye::export(&b, max_ply);
    write_atomically(out, &eleeye::to_bytes(&records))?;
    println!(
        "{}: {} records from {}",
        out.display(),
        records.len(),
        book.display()
    );
    Ok(Exit::Success)
}
