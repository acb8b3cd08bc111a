//! `egtb-gen repack`: rewrites a table file of an older format version in the current one
//! (version 3: a compressed block index, blocks of one code stored as the code alone), with the
//! same entries, key scheme, block size and header. Nothing is lost on the way: the new file is
//! written beside the old one, read back and compared entry by entry with the old file, and only
//! then renamed over it.

use std::path::{Path, PathBuf};

use chariot_formats::egtb::TableFile;
use chariot_formats::egtb::file::{self, Block, FileError};
use rayon::prelude::*;

use crate::dtm::Progress;
use crate::error::TableError;

/// What repacking one file did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repacked {
    /// The format version the file had.
    pub version: u16,
    /// Its size before, in bytes.
    pub before: u64,
    /// Its size after (the same when it was left as it was).
    pub after: u64,
    /// It was rewritten (`false`: it was in the current version already).
    pub rewritten: bool,
}

/// Rewrites the table file at `path` in the current format version, its blocks compressed at
/// zstd `level`; a file in the current version already is left as it is.
///
/// # Errors
/// When the file cannot be read or one of its blocks is damaged (the file is left as it was),
/// or the new file cannot be written or does not read back with the same entries (the new file
/// is removed, the old one kept).
pub fn repack(path: &Path, level: i32) -> Result<Repacked, TableError> {
    repack_with(path, level, &())
}

/// [`repack`], reporting its stages to `progress`: reading the old file, compressing its
/// blocks (counted), reading the new one back.
///
/// # Errors
/// As [`repack`].
pub fn repack_with(
    path: &Path,
    level: i32,
    progress: &dyn Progress,
) -> Result<Repacked, TableError> {
    let file_error = |path: &Path, source| TableError::File {
        path: path.to_owned(),
        source,
    };
    let old = TableFile::open(path).map_err(|e| file_error(path, e))?;
    let before = old.file_len();
    let h = old.header().clone();
    if h.version() == file::VERSION {
        return Ok(Repacked {
            version: h.version(),
            before,
            after: before,
            rewritten: false,
        });
    }
    progress.stage("reading", 0);
    let codes = old.all_codes().map_err(|e| file_error(path, e))?;
    progress.stage("compressing", u64::from(h.blocks));
    let blocks = (0..h.blocks)
        .into_par_iter()
        .map(|b| {
            let block = file::compress_block(&codes, b, h.block_entries, h.value_width, level);
            progress.advance(1);
            block
        })
        .collect::<Result<Vec<Block>, FileError>>()
        .map_err(|e| file_error(path, e))?;
    let mut header = h.clone();
    header.version = file::VERSION;
    let new_path = beside(path);
    file::write_table(&new_path, &header, &blocks).map_err(|e| file_error(&new_path, e))?;
    drop(blocks);
    progress.stage("reading back", 0);
    let checked = check_copy(&new_path, &h, &codes);
    if let Err(e) = checked {
        let _ = std::fs::remove_file(&new_path);
        return Err(e);
    }
    let after = std::fs::metadata(&new_path)
        .map(|m| m.len())
        .unwrap_or_default();
    if let Err(source) = std::fs::rename(&new_path, path) {
        let _ = std::fs::remove_file(&new_path);
        return Err(TableError::Io {
            path: path.to_owned(),
            source,
        });
    }
    Ok(Repacked {
        version: h.version(),
        before,
        after,
        rewritten: true,
    })
}

/// The name the new file is written under before it replaces the old one: hidden, beside it.
fn beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.repack"))
}

/// Checks that the file at `path` reads back in the current version with header `h` (but for
/// the version) and the entries `codes`.
fn check_copy(path: &Path, h: &file::Header, codes: &[u16]) -> Result<(), TableError> {
    let differ = |reason: String| TableError::Header {
        path: path.to_owned(),
        reason,
    };
    let new = TableFile::open(path).map_err(|source| TableError::File {
        path: path.to_owned(),
        source,
    })?;
    let mut expected = h.clone();
    expected.version = file::VERSION;
    if *new.header() != expected {
        return Err(differ(format!(
            "the rewritten header {:?} differs from the old one {h:?}",
            new.header()
        )));
    }
    // Block by block, so that only one copy of the entries is held.
    let per = h.block_entries as usize;
    for b in 0..h.blocks {
        let back = new.block_codes(b).map_err(|source| TableError::File {
            path: path.to_owned(),
            source,
        })?;
        let first = b as usize * per;
        let old = &codes[first.min(codes.len())..(first + back.len()).min(codes.len())];
        if let Some(i) = (0..back.len()).find(|&i| old.get(i) != Some(&back[i])) {
            return Err(differ(format!(
                "entry {} reads back as {}, the old file holds {:?}",
                first + i,
                back[i],
                old.get(i)
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hidden_name_is_beside_the_file() {
        assert_eq!(
            beside(Path::new("t/KRKN.dtc.egtb")),
            Path::new("t/.KRKN.dtc.egtb.repack")
        );
    }
}
