//! Writing a file so that a crash never leaves a half-written file under its real name: the
//! bytes go to a temporary file in the target's directory, which is renamed over the target
//! once complete (`tempfile` makes and cleans up the temporary file).
//!
//! Errors name the target, never the temporary file, and carry the operating system's reason
//! once. A new file gets the ordinary permissions (0644 on Unix, as `File::create` under the
//! usual umask would give) rather than the temporary file's private 0600.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file being written; it appears under its real name only when [`AtomicFile::commit`]
/// succeeds (dropped without a commit, it vanishes).
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    tmp: tempfile::NamedTempFile,
}

/// An error while writing `path`: the target's name and the reason.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct WriteError {
    /// The file that was being written.
    pub path: PathBuf,
    /// The reason.
    #[source]
    pub source: io::Error,
}

impl AtomicFile {
    /// Starts writing `path`.
    ///
    /// # Errors
    ///
    /// When the temporary file cannot be made in the target's directory (the directory is
    /// missing or not writable): the error names `path`; "is a directory" when it is one.
    pub fn create(path: &Path) -> Result<AtomicFile, WriteError> {
        if path.is_dir() {
            return Err(WriteError {
                path: path.to_path_buf(),
                source: io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
            });
        }
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut builder = tempfile::Builder::new();
        builder.prefix(".chariot-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let tmp = builder.tempfile_in(dir).map_err(|e| WriteError {
            path: path.to_path_buf(),
            source: plain(&e),
        })?;
        Ok(AtomicFile {
            target: path.to_path_buf(),
            tmp,
        })
    }

    /// Renames the finished file over the target.
    ///
    /// # Errors
    ///
    /// When flushing or renaming fails; the target is then unchanged.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let target = self.target;
        let flushed = self
            .tmp
            .as_file_mut()
            .flush()
            .and_then(|()| self.tmp.as_file().sync_all());
        if let Err(e) = flushed {
            return Err(WriteError {
                path: target,
                source: plain(&e),
            });
        }
        self.tmp.persist(&target).map_err(|e| WriteError {
            path: target,
            source: plain(&e.error),
        })?;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// Writes `bytes` to `path` atomically.
///
/// # Errors
///
/// As [`AtomicFile::create`] and [`AtomicFile::commit`], and a failed write, naming `path`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes).map_err(|e| WriteError {
        path: path.to_path_buf(),
        source: plain(&e),
    })?;
    file.commit()
}

/// The operating system's reason without the temporary file's path that `tempfile` adds.
fn plain(e: &io::Error) -> io::Error {
    if let Some(code) = e.raw_os_error() {
        return io::Error::from_raw_os_error(code);
    }
    // tempfile's error reads "REASON at path \"TEMPORARY\"" (and exposes no source): keep the
    // reason.
    let text = e.to_string();
    let reason = text.split(" at path ").next().unwrap_or(&text);
    io::Error::new(e.kind(), reason.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_target_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644);
        }
    }

    #[test]
    fn an_uncommitted_file_never_appears() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn errors_name_the_target_and_say_the_reason_once() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/dir/out.bin");
        let e = write(&missing, b"x").unwrap_err().to_string();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
        assert!(!e.contains(".chariot-") && !e.contains("at path"), "{e}");
        assert_eq!(e.matches("os error").count(), 1, "{e}");
        let e = write(dir.path(), b"x").unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
    }
}
