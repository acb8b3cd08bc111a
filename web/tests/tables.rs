//! The tablebase pages through the router: the list of tables, a material's page against the
//! engine's statistics, its longest mate probed through `/api/tablebase`, and the bad names.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_formats::egtb::stats::{Distances, Summary};
use chariot_formats::egtb::{TableFile, Tablebases};
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

fn data() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb")
}

fn app() -> Router {
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[data()]).unwrap(),
        Limits::default(),
    );
    router(Arc::new(state))
}

async fn json(app: &Router, uri: &str) -> (StatusCode, Value) {
    let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn encode(fen: &str) -> String {
    fen.replace(' ', "%20")
}

#[tokio::test]
async fn the_list_has_every_shipped_table_smallest_first() {
    let app = app();
    let (status, list) = json(&app, "/api/tablebases").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let tables = list["tables"].as_array().unwrap();
    let shipped = std::fs::read_dir(data())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "egtb")
        })
        .count();
    // Every material is shipped in both metrics and listed once.
    assert_eq!(2 * tables.len(), shipped);
    let krk = tables.iter().find(|t| t["material"] == "KRK").unwrap();
    assert_eq!(krk["file"], "KRK.egtb");
    assert_eq!(krk["metrics"], serde_json::json!(["dtm", "dtc"]));
    assert_eq!(
        krk["dtc_bytes"].as_u64().unwrap(),
        std::fs::metadata(data().join("KRK.dtc.egtb"))
            .unwrap()
            .len()
    );
    assert_eq!(krk["pieces"], 3);
    assert_eq!(
        krk["bytes"].as_u64().unwrap(),
        std::fs::metadata(data().join("KRK.egtb")).unwrap().len()
    );
    assert_eq!(krk["longest_plies"], 4);
    assert_eq!(krk["sides"][0]["to_move"], "strong");
    assert_eq!(
        krk["positions"].as_u64().unwrap(),
        krk["sides"][0]["positions"].as_u64().unwrap()
            + krk["sides"][1]["positions"].as_u64().unwrap()
    );
    let order: Vec<(u64, String)> = tables
        .iter()
        .map(|t| {
            (
                t["pieces"].as_u64().unwrap(),
                t["material"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "by pieces, then name");
}

#[tokio::test]
async fn a_page_has_the_engines_numbers_and_its_longest_mate_probes() {
    let app = app();
    // The largest shipped table by entries (and one with wins for both kinds of side).
    for material in ["KRK", "KRBKAB", "KCABKB"] {
        let (status, page) = json(&app, &format!("/api/tablebases/{material}")).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let file = TableFile::open(&data().join(format!("{material}.egtb"))).unwrap();
        let summary = Summary::of(&file).unwrap();
        let distances = Distances::of(&file, chariot_web::tables::LONGEST).unwrap();
        assert_eq!(page["material"], material);
        assert_eq!(page["bytes"].as_u64(), Some(summary.file_bytes));
        assert_eq!(
            page["format"]["entries_per_side"].as_u64(),
            Some(summary.entries_per_side)
        );
        for half in 0..2 {
            let side = &page["sides"][half];
            let counts = &summary.sides[half];
            for (key, n) in [
                ("positions", counts.positions),
                ("wins", counts.wins),
                ("draws", counts.draws),
                ("losses", counts.losses),
                ("rule_wins", counts.rule_wins),
                ("rule_losses", counts.rule_losses),
            ] {
                assert_eq!(side[key].as_u64(), Some(n), "{material} {half} {key}");
            }
            let d = &distances.sides[half];
            for (kind, counts) in [("wins", &d.wins), ("losses", &d.losses)] {
                let bars = side["histogram"][kind].as_array().unwrap();
                let shown: Vec<(u64, u64)> = bars
                    .iter()
                    .map(|b| {
                        (
                            b["plies"].as_u64().unwrap(),
                            b["positions"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                let expected: Vec<(u64, u64)> = counts
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(p, n)| (p as u64, *n))
                    .collect();
                assert_eq!(shown, expected, "{material} {half} {kind}");
            }
            let longest = side["longest"].as_array().unwrap();
            assert_eq!(longest.len(), d.longest.len());
            assert!(!longest.is_empty(), "{material}: every side here has mates");
            assert_eq!(
                longest[0]["plies"].as_u64(),
                Some(u64::from(counts.longest_plies))
            );
            // The longest mate probes to a value at the distance stated.
            let first = &longest[0];
            let (status, tb) = json(
                &app,
                &format!(
                    "/api/tablebase?fen={}",
                    encode(first["fen"].as_str().unwrap())
                ),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{tb}");
            assert_eq!(tb["wdl"], first["wdl"], "{first}");
            assert_eq!(tb["dtm"], first["plies"], "{first}");
        }
        // Asked again: the same page, from the cache.
        let (_, again) = json(
            &app,
            &format!("/api/tablebases/{}", material.to_lowercase()),
        )
        .await;
        assert_eq!(again, page);
    }
}

#[tokio::test]
async fn names_are_canonical_and_bad_ones_refused() {
    let app = app();
    // Any order and case names the same table.
    let (status, page) = json(&app, "/api/tablebases/krkaabb").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["material"], "KRKAABB");
    // A material without a table here: 404.
    let (status, e) = json(&app, "/api/tablebases/KRRKRR").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    assert!(e["error"].as_str().unwrap().contains("KRRKRR"), "{e}");
    // No material at all: 400 naming what is wrong.
    for bad in ["KXK", "RKA", "KRRRK"] {
        let (status, e) = json(&app, &format!("/api/tablebases/{bad}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert!(e["error"].is_string(), "{e}");
    }
}
