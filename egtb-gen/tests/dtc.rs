//! Distance to conversion: the DTC tables agree with the DTM tables on every result, their
//! distances equal an independent fixpoint computed by forward moves only (no unmoves, no
//! counters), `verify` accepts them and finds a damaged one, and playing by DTC alone wins.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chariot_formats::egtb::{
    Indexer, Metric, Signature, TableFile, Tablebases, Value, is_conversion,
};
use chariot_rules::Waivers;
use chariot_rules::{Color, Position};
use egtb_gen::pipeline::{build_all, table_path, table_path_in};

/// Tables with captures (KRKA, KNKA, KRKN: the rule decides positions there), soldiers' moves
/// (KPPK, KNKP) and neither (KRK).
const TABLES: [&str; 6] = ["KRK", "KRKA", "KNKA", "KPPK", "KNKP", "KRKN"];

fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("egtb-dtc");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let wanted: Vec<Signature> = TABLES.iter().map(|n| n.parse().unwrap()).collect();
        build_all(&wanted, &dir, 3, 4096, &Metric::ALL).unwrap();
        dir
    })
}

const LEGAL: Waivers = Waivers {
    placement: true,
    counts: true,
    opposite_check: false,
};

/// Every legal position of a table with its DTM and DTC values.
fn both(name: &str) -> Vec<(Position, Value, Value)> {
    let sig: Signature = name.parse().unwrap();
    let dtm = TableFile::open(&table_path(dir(), sig)).unwrap();
    let dtc = TableFile::open(&table_path_in(dir(), sig, Metric::Dtc)).unwrap();
    assert_eq!(dtc.header().coding.metric, Metric::Dtc);
    assert_eq!(
        dtc.header().coding.chase_stages,
        dtm.header().coding.chase_stages
    );
    // Each file in its own order of entries (key scheme 3 or 4).
    let ix = Indexer::new(sig).unwrap();
    let ix_m = Indexer::with_scheme(sig, dtm.header().key_scheme).unwrap();
    let ix_c = Indexer::with_scheme(sig, dtc.header().key_scheme).unwrap();
    let mut out = Vec::new();
    for turn in Color::ALL {
        for i in 0..ix.size() {
            let p = ix.decode(i);
            if p.has_overlap() {
                continue;
            }
            if let Ok(pos) = Position::from_setup(&ix.setup(&p, turn), LEGAL) {
                let (tm, im) = ix_m.index_of(&pos).unwrap();
                let (tc, ic) = ix_c.index_of(&pos).unwrap();
                out.push((pos, dtm.value(tm, im).unwrap(), dtc.value(tc, ic).unwrap()));
            }
        }
    }
    out
}

#[test]
fn dtc_keeps_every_result_and_is_at_most_the_dtm() {
    for name in TABLES {
        let mut shorter = 0;
        for (pos, m, c) in both(name) {
            assert_eq!(m.wdl(), c.wdl(), "{name} {}", pos.fen());
            match (m, c) {
                (Value::Win(a), Value::Win(b)) | (Value::Loss(a), Value::Loss(b)) => {
                    assert!(b <= a, "{name} {}: dtc {b} > dtm {a}", pos.fen());
                    shorter += usize::from(b < a);
                }
                _ => assert_eq!(m, c, "{name} {}", pos.fen()),
            }
        }
        // Without a conversion that keeps a result (the rook cannot capture in KRK, and the
        // bare general's capture draws), DTC is DTM.
        if name == "KRK" {
            assert_eq!(shorter, 0);
        } else {
            assert!(shorter > 0, "{name}");
        }
    }
}

/// DTC by forward moves only, as a fixpoint: a win takes its quickest conversion, a loss its
/// slowest, starting from "unknown" and repeating until nothing changes.
fn fixpoint(name: &str, tb: &Tablebases) -> HashMap<u64, (bool, u32)> {
    let rows = both(name);
    // A position and its mirror image are one entry.
    let key = |p: &Position| p.key().min(p.mirror().key());
    let class: HashMap<u64, bool> = rows
        .iter()
        .filter_map(|(p, m, _)| match m {
            Value::Win(_) => Some((key(p), true)),
            Value::Loss(_) => Some((key(p), false)),
            _ => None,
        })
        .collect();
    let mut dist: HashMap<u64, u32> = HashMap::new();
    loop {
        let mut changed = false;
        for (pos, _, _) in &rows {
            let Some(&won) = class.get(&key(pos)) else {
                continue;
            };
            let mut p = pos.clone();
            let moves = p.legal_move_list();
            let mut best: Option<u32> = None;
            let mut complete = true;
            for &m in moves.iter() {
                let conversion = is_conversion(&p, m);
                p.make_move(m);
                let after = if conversion {
                    // Its result only, from whichever table holds it.
                    let v = tb.probe(&p).unwrap().unwrap();
                    matches!(v, Value::Win(_) | Value::Loss(_)).then_some(1)
                } else {
                    dist.get(&key(&p)).map(|d| d + 1)
                };
                let mate_lost_after = class.get(&key(&p)) == Some(&false)
                    || (conversion && matches!(tb.probe(&p).unwrap(), Some(Value::Loss(_))));
                p.unmake_move();
                if won {
                    if mate_lost_after && let Some(d) = after {
                        best = Some(best.map_or(d, |b| b.min(d)));
                    }
                } else {
                    match after {
                        Some(d) => best = Some(best.map_or(d, |b| b.max(d))),
                        None => complete = false,
                    }
                }
            }
            let new = if moves.is_empty() {
                Some(0)
            } else if won || complete {
                best
            } else {
                None
            };
            if let Some(d) = new
                && dist.get(&key(pos)) != Some(&d)
            {
                dist.insert(key(pos), d);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist.into_iter().map(|(k, d)| (k, (class[&k], d))).collect()
}

#[test]
fn dtc_equals_a_fixpoint_of_forward_moves() {
    let tb = Tablebases::open(&[dir()]).unwrap();
    for name in ["KRKA", "KPPK"] {
        let expected = fixpoint(name, &tb);
        let mut compared = 0;
        for (pos, _, c) in both(name) {
            let Some(&(won, d)) = expected.get(&pos.key().min(pos.mirror().key())) else {
                assert!(!matches!(c, Value::Win(_) | Value::Loss(_)), "{name}");
                continue;
            };
            let want = if won { Value::Win(d) } else { Value::Loss(d) };
            assert_eq!(c, want, "{name} {}", pos.fen());
            compared += 1;
        }
        assert!(compared > 1000, "{name}: {compared}");
    }
}

#[test]
fn verify_accepts_the_dtc_tables_and_finds_a_damaged_one() {
    for name in TABLES {
        let path = table_path_in(dir(), name.parse().unwrap(), Metric::Dtc);
        let bad = egtb_gen::verify::verify_table(&path).unwrap();
        assert!(bad.is_none(), "{name}: {bad:?}");
    }
    // KRKA with one won position's distance to conversion changed by two plies.
    let sig: Signature = "KRKA".parse().unwrap();
    let src = TableFile::open(&table_path_in(dir(), sig, Metric::Dtc)).unwrap();
    let mut codes = src.all_codes().unwrap();
    let h = src.header().clone();
    let ix = Indexer::with_scheme(sig, h.key_scheme).unwrap();
    let victim = (0..ix.size())
        .find(|&i| {
            let p = ix.decode(i);
            !p.has_overlap()
                && Position::from_setup(&ix.setup(&p, Color::Red), LEGAL).is_ok()
                && matches!(h.coding.decode(codes[i as usize]), Ok(Value::Win(d)) if d >= 3)
        })
        .unwrap();
    let Ok(Value::Win(d)) = h.coding.decode(codes[victim as usize]) else {
        unreachable!()
    };
    codes[victim as usize] = h.coding.encode(Value::Win(d - 2)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for s in sig.closure() {
        for m in Metric::ALL {
            let from = table_path_in(dir(), s, m);
            std::fs::copy(&from, table_path_in(tmp.path(), s, m)).unwrap();
        }
    }
    let path = table_path_in(tmp.path(), sig, Metric::Dtc);
    let mut header =
        chariot_formats::egtb::file::make_header(sig, &codes, h.stats, h.flags, h.coding, 4096);
    header.key_scheme = h.key_scheme;
    let blocks = (0..header.blocks)
        .map(|b| {
            chariot_formats::egtb::file::compress_block(&codes, b, 4096, header.value_width, 3)
        })
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    chariot_formats::egtb::file::write_table(&path, &header, &blocks).unwrap();
    let found = egtb_gen::verify::verify_table(&path).unwrap();
    assert!(
        matches!(found, Some((e, _, Value::Win(x), _)) if e == victim && x == d - 2),
        "{found:?}"
    );
    // Checked together with its (sound) DTM file: the DTM file passes, the DTC file gets the
    // same verdict as alone.
    let dtm = table_path_in(tmp.path(), sig, Metric::Dtm);
    let mut both = egtb_gen::verify::verify_tables_with(&[&dtm, &path], &());
    let dtc_verdict = both.pop().unwrap().unwrap();
    assert_eq!(dtc_verdict, found);
    assert_eq!(both.pop().unwrap().unwrap(), None);
}

/// A table's DTM and DTC files checked together (one pass, one game) pass, the rule-decided
/// `KRKN` among them, as they do one by one.
#[test]
fn verify_checks_a_tables_two_files_together() {
    for name in TABLES {
        let sig: Signature = name.parse().unwrap();
        let (dtm, dtc) = (
            table_path_in(dir(), sig, Metric::Dtm),
            table_path_in(dir(), sig, Metric::Dtc),
        );
        let verdicts = egtb_gen::verify::verify_tables_with(&[&dtm, &dtc], &());
        assert_eq!(verdicts.len(), 2);
        for v in verdicts {
            assert_eq!(v.unwrap(), None, "{name}");
        }
    }
}

/// With the DTC tables alone, the winner's table moves mate against the longest defence and
/// against every other defence tried, without a repetition.
#[test]
fn playing_by_dtc_alone_wins() {
    let mut tb = Tablebases::open(&[dir()]).unwrap();
    tb.retain_metric(Metric::Dtc);
    for name in ["KRKA", "KNKP", "KRKN"] {
        // The won positions with the longest distance to conversion.
        let rows = both(name);
        let longest = rows
            .iter()
            .filter_map(|(_, _, c)| match c {
                Value::Win(d) => Some(*d),
                _ => None,
            })
            .max()
            .unwrap();
        let starts: Vec<Position> = rows
            .into_iter()
            .filter(|(_, _, c)| *c == Value::Win(longest))
            .map(|(p, _, _)| p)
            .take(5)
            .collect();
        for start in starts {
            assert_eq!(tb.metric_of(&start), Some(Metric::Dtc));
            assert!(matches!(tb.probe(&start).unwrap(), Some(Value::Win(_))));
            for defence in 0..4 {
                let mut pos = start.clone();
                let mut seen = vec![pos.key()];
                let mut plies = 0;
                loop {
                    let moves = tb.move_values(&pos).unwrap().unwrap();
                    if moves.is_empty() {
                        // Mated: the loser is to move.
                        assert_eq!(plies % 2, 1, "{name} {}", start.fen());
                        break;
                    }
                    let m = if plies % 2 == 0 || defence == 0 {
                        tb.best_move(&pos).unwrap().unwrap().0
                    } else {
                        // Another defence: the (defence)-th move in generation order.
                        moves[(plies / 2 + defence) % moves.len()].0
                    };
                    pos.make_move(m);
                    plies += 1;
                    assert!(!seen.contains(&pos.key()), "{name}: repetition");
                    seen.push(pos.key());
                    assert!(plies < 400, "{name} {}: no mate", start.fen());
                    // Off the tables (a capture into a draw is no option: the loser loses).
                    assert!(tb.covers(&pos));
                }
            }
        }
    }
}
