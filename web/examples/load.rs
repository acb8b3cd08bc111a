//! A load test of the web server on loopback (issues 15 and 16): `ANALYSES` concurrent analysis
//! streams and `RATE` queries a second for `SECONDS`, reporting the queries' latency (p50, p99,
//! max) and every error.
//!
//! `cargo run --release -p chariot-web --example load [-- SECONDS RATE ANALYSES [KIND]]`
//! (defaults 30, 200, 20, `position`). KIND is the query: `position` (`/api/position`), `book`,
//! `tablebase`, or `games` (`/api/games` at the start position, filtered by a player, on the
//! default game database, which `chariot serve` builds on its first start). The server runs in
//! this process on a free port, with the built-in book and the shipped tables; the client speaks
//! plain HTTP/1.1 over keep-alive connections.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chariot_formats::egtb::Tablebases;
use chariot_web::{AppState, Limits};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Positions queried in turn: the start, a middlegame, an ending the tables cover.
const FENS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R%20w%20-%20-%200%201",
    "3k5/9/9/9/9/9/9/9/4R4/4K4%20w%20-%20-%200%201",
];

/// Positions the shipped tables cover: rook against king, and a rook and two advisors against
/// a king.
const COVERED: [&str; 2] = [
    "3k5/9/9/9/9/9/9/9/4R4/4K4%20w%20-%20-%200%201",
    "4k4/9/9/9/9/9/9/9/4A4/3AK2R1%20w%20-%20-%200%201",
];

/// Sends one GET on a keep-alive connection and reads the response; returns the status.
async fn get(stream: &mut BufReader<TcpStream>, path: &str) -> std::io::Result<u16> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: load\r\n\r\n");
    stream.get_mut().write_all(request.as_bytes()).await?;
    let mut status_line = String::new();
    stream.read_line(&mut status_line).await?;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {status_line:?}")))?;
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).await?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await?;
    Ok(status)
}

/// Reads an analysis stream to its end; returns the number of `info` events.
async fn analyse(addr: std::net::SocketAddr, seconds: u64) -> std::io::Result<usize> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!(
        "GET /api/analysis?fen={}&multipv=3&seconds={seconds} HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n",
        FENS[1]
    );
    stream.write_all(request.as_bytes()).await?;
    let mut text = String::new();
    stream.read_to_string(&mut text).await?;
    if !text.contains("event: done") {
        return Err(std::io::Error::other("the stream ended without done"));
    }
    Ok(text.matches("event: info").count())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let seconds = args.first().copied().unwrap_or(30);
    let rate = args.get(1).copied().unwrap_or(200);
    let analyses = args.get(2).copied().unwrap_or(20);
    let kind = std::env::args()
        .skip(1)
        .find(|a| a.parse::<u64>().is_err())
        .unwrap_or_else(|| "position".to_owned());
    let query = move |i: usize| -> String {
        match kind.as_str() {
            "book" => format!("/api/book?fen={}", FENS[i % 2]),
            "tablebase" => format!("/api/tablebase?fen={}", COVERED[i % 2]),
            // 胡榮華, as Red or Black, then as Red.
            "games" => format!(
                "/api/games?fen={}&player=%E8%83%A1%E6%A6%AE%E8%8F%AF{}",
                FENS[0],
                if i.is_multiple_of(2) {
                    ""
                } else {
                    "&color=red"
                }
            ),
            _ => format!("/api/position?fen={}", FENS[i % 3]),
        }
    };
    let tables = Tablebases::open_skipping(&chariot_formats::data::table_dirs()).0;
    let mut state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        tables,
        Limits {
            max_analyses: usize::try_from(analyses).unwrap_or(usize::MAX),
            ..Limits::default()
        },
    );
    let games = chariot_web::explorer_db::GamesDb::default_path();
    if games.is_file() {
        state = state.with_games_db(Arc::new(
            chariot_web::explorer_db::GamesDb::open(&games).map_err(std::io::Error::other)?,
        ));
    }
    let state = Arc::new(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(chariot_web::serve_on(
        listener,
        state,
        std::future::pending(),
    ));

    let streams: Vec<_> = (0..analyses)
        .map(|_| tokio::spawn(analyse(addr, seconds)))
        .collect();

    // Queries at the rate, spread over 8 keep-alive connections.
    let connections = 8u64;
    let per = Duration::from_secs_f64(connections as f64 / rate as f64);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..connections)
        .map(|c| {
            let query = query.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut errors = Vec::new();
                let mut stream = BufReader::new(TcpStream::connect(addr).await?);
                let mut next = Instant::now() + per.mul_f64(c as f64 / connections as f64);
                let mut i = c as usize;
                while Instant::now() < deadline {
                    tokio::time::sleep_until(next.into()).await;
                    next += per;
                    let t = Instant::now();
                    match get(&mut stream, &query(i)).await {
                        Ok(200) => latencies.push(t.elapsed()),
                        Ok(s) => errors.push(format!("status {s}")),
                        Err(e) => {
                            errors.push(e.to_string());
                            stream = BufReader::new(TcpStream::connect(addr).await?);
                        }
                    }
                    i += 1;
                }
                Ok::<_, std::io::Error>((latencies, errors))
            })
        })
        .collect();

    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    for w in workers {
        match w.await {
            Ok(Ok((l, e))) => {
                latencies.extend(l);
                errors.extend(e);
            }
            Ok(Err(e)) => errors.push(e.to_string()),
            Err(e) => errors.push(e.to_string()),
        }
    }
    let mut infos = 0;
    let mut stream_errors = Vec::new();
    for s in streams {
        match s.await {
            Ok(Ok(n)) => infos += n,
            Ok(Err(e)) => stream_errors.push(e.to_string()),
            Err(e) => stream_errors.push(e.to_string()),
        }
    }
    latencies.sort();
    println!(
        "{seconds} s, {rate} queries/s target, {analyses} analyses (MultiPV 3) at once on loopback"
    );
    println!(
        "queries: {} answered ({:.0}/s), p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
        latencies.len(),
        latencies.len() as f64 / seconds as f64,
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        errors.len()
    );
    println!(
        "analyses: {} of {analyses} ended with done, {infos} info events, {} errors",
        analyses as usize - stream_errors.len(),
        stream_errors.len()
    );
    for e in errors.iter().chain(&stream_errors).take(10) {
        println!("  error: {e}");
    }
    Ok(())
}
