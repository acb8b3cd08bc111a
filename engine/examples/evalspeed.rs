//! Measures the cost of the evaluation at each knowledge level (development aid; compare
//! `perf stat -e cycles:u` between builds, since wall time is noisy on a shared machine).
use chariot_engine::search::Level;
use chariot_engine::search::bench::POSITIONS;
use chariot_eval::{EvalConfig, evaluate_with};
use chariot_rules::Position;
fn main() {
    let level = match std::env::args().nth(1).as_deref() {
        Some("none") => Level::None,
        Some("small") => Level::Small,
        Some("medium") => Level::Medium,
        _ => Level::Large,
    };
    let cfg = EvalConfig {
        knowledge: level,
        ..EvalConfig::FULL
    };
    let ps: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let t = std::time::Instant::now();
    let mut s = 0i64;
    for _ in 0..200_000 {
        for p in &ps {
            s += i64::from(evaluate_with(std::hint::black_box(p), &cfg));
        }
    }
    let n = 200_000 * ps.len();
    println!(
        "{level:?}: {} ns/eval (sum {s})",
        t.elapsed().as_nanos() as f64 / n as f64
    );
}
