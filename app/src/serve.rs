//! `chariot serve`: the web server (the `chariot_web` crate) on a tokio runtime.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use chariot::book::{Book, BookSet};
use chariot::egtb::Tablebases;
use chariot_web::{AppState, Limits};

/// Opens the books (the built-in one when none is given) and the table directories (the
/// data-location order when none is given) and serves on `host`:`port` until the process is
/// stopped, with at most `max_games` games open; `open` opens the app in the default browser.
pub fn serve(
    host: IpAddr,
    port: u16,
    books: &[PathBuf],
    egtb: &[PathBuf],
    max_games: usize,
    open: bool,
) -> anyhow::Result<()> {
    let books = if books.is_empty() {
        chariot::book::builtin::book_set()
    } else {
        let mut list = Vec::new();
        for path in books {
            list.push(Book::open(path).with_context(|| format!("--book {}", path.display()))?);
        }
        BookSet::from_books(list)
    };
    let dirs = if egtb.is_empty() {
        chariot::data::table_dirs()
    } else {
        egtb.to_vec()
    };
    let (tables, problems) = Tablebases::open_skipping(&dirs);
    for p in &problems {
        eprintln!("chariot serve: warning: {p}");
    }
    let addr = SocketAddr::new(host, port);
    let state = Arc::new(AppState::new(
        books,
        tables,
        Limits {
            max_games,
            ..Limits::default()
        },
    ));
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener.local_addr().unwrap_or(addr);
        let url = format!("http://{bound}/");
        println!("Chariot is at {url} (its JSON API under /api, docs/web-api.md); Ctrl-C stops it");
        if open && let Err(e) = open::that_detached(&url) {
            eprintln!("chariot serve: warning: cannot open a browser ({e}); open {url} yourself");
        }
        chariot_web::serve_on(listener, state, std::future::pending())
            .await
            .context("the server failed")
    })
}
