//! `chariot serve`: the web server (the `chariot_web` crate) on a tokio runtime.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use chariot::book::{Book, BookSet};
use chariot::egtb::Tablebases;
use chariot_web::{AppState, Limits};

/// What `chariot serve` is asked for.
pub struct ServeArgs {
    /// The address to listen on (loopback unless told otherwise).
    pub host: IpAddr,
    /// The port.
    pub port: u16,
    /// Books; the built-in one when empty.
    pub books: Vec<PathBuf>,
    /// Table directories; the data-location order when empty.
    pub egtb: Vec<PathBuf>,
    /// Games open at once.
    pub max_games: usize,
}

/// Opens the books and tables and serves until the process is stopped.
pub fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    let books = if args.books.is_empty() {
        chariot::book::builtin::book_set()
    } else {
        let mut list = Vec::new();
        for path in &args.books {
            list.push(Book::open(path).with_context(|| format!("--book {}", path.display()))?);
        }
        BookSet::from_books(list)
    };
    let dirs = if args.egtb.is_empty() {
        chariot::data::table_dirs()
    } else {
        args.egtb.clone()
    };
    let (tables, problems) = Tablebases::open_skipping(&dirs);
    for p in &problems {
        eprintln!("chariot serve: warning: {p}");
    }
    let addr = SocketAddr::new(args.host, args.port);
    let state = Arc::new(AppState::new(
        books,
        tables,
        Limits {
            max_games: args.max_games,
            ..Limits::default()
        },
    ));
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener.local_addr().unwrap_or(addr);
        println!(
            "Chariot serves its JSON API on http://{bound}/api (docs/web-api.md); Ctrl-C stops it"
        );
        chariot_web::serve_on(listener, state, std::future::pending())
            .await
            .context("the server failed")
    })
}
