//! The books compiled in the browser (`crate::books` compiles them): kept in the user's data
//! directory (`chariot_formats::data::user_data_dir()/books`, `NAME.xqb`), found there again on the next
//! start, each shared by every game and analysis that uses it; a book compiled under a name the
//! library has replaces the old one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use chariot_formats::book::{Book, BookSet};

/// The extension of compiled books.
pub(crate) const EXTENSION: &str = "xqb";

/// A compiled book.
struct Compiled {
    name: String,
    set: Arc<BookSet>,
}

/// The compiled books, in the order they were made (those found at start first, by name).
#[derive(Default)]
pub struct Library {
    /// Where they are kept; `None` for a server that keeps none.
    dir: Option<PathBuf>,
    books: RwLock<Vec<Compiled>>,
}

impl Library {
    /// The books of `dir` (created when missing); a file that is not a valid book is skipped
    /// with a warning in the returned list.
    #[must_use]
    pub fn open(dir: &Path) -> (Library, Vec<String>) {
        let mut warnings = Vec::new();
        let mut books = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
                .collect();
            paths.sort();
            for path in paths {
                match Book::open(&path) {
                    Ok(book) => books.push(Compiled {
                        name: path
                            .file_stem()
                            .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
                        set: Arc::new(BookSet::from_books(vec![book])),
                    }),
                    Err(e) => warnings.push(format!("skipping a compiled book: {e}")),
                }
            }
        }
        (
            Library {
                dir: Some(dir.to_owned()),
                books: RwLock::new(books),
            },
            warnings,
        )
    }

    /// The default place: `books` in the user's data directory.
    #[must_use]
    pub fn default_dir() -> PathBuf {
        chariot_formats::data::user_data_dir().join("books")
    }

    /// The compiled book called `name`, as a book set an engine plays from.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Arc<BookSet>> {
        self.read()
            .iter()
            .find(|b| b.name == name)
            .map(|b| Arc::clone(&b.set))
    }

    /// Every compiled book: its name and set.
    pub(crate) fn all(&self) -> Vec<(String, Arc<BookSet>)> {
        self.read()
            .iter()
            .map(|b| (b.name.clone(), Arc::clone(&b.set)))
            .collect()
    }

    /// Where the books are kept, if anywhere.
    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<Compiled>> {
        self.books.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Files (or replaces) the book `name`.
    pub(crate) fn put(&self, name: String, book: Book) {
        let set = Arc::new(BookSet::from_books(vec![book]));
        let mut books = self.books.write().unwrap_or_else(|e| e.into_inner());
        match books.iter_mut().find(|b| b.name == name) {
            Some(b) => b.set = set,
            None => books.push(Compiled { name, set }),
        }
    }
}

/// Whether `book` is the one built into the binary (whose name, `built-in book`, a page says in
/// its own language).
pub(crate) fn is_builtin(book: &Book) -> bool {
    book.path() == Path::new(chariot_formats::book::builtin::NAME)
}

/// The name the explorer gives a configured book: its file's name.
pub(crate) fn configured_name(book: &Book) -> String {
    book.path().file_name().map_or_else(
        || "built-in".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    )
}
