//! Named sets of tables (`egtb-gen gen --set NAME`).

use chariot_formats::egtb::{Material, Signature};
use chariot_rules::Kind;

/// The attacking kinds, in name order.
const ATTACKERS: [Kind; 4] = [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier];

/// The named sets and what they hold.
pub const SETS: [(&str, &str); 5] = [
    (
        "first",
        "one attacking piece (R, N, C or P) with any of its advisors and elephants against any advisors and elephants (324 tables)",
    ),
    (
        "second",
        "two attacking pieces without advisors or elephants against any advisors and elephants (90 tables)",
    ),
    (
        "third",
        "one attacking piece against one attacking piece, each side with at most one advisor or elephant (78 tables; the perpetual check/chase rules decide positions in some)",
    ),
    (
        "fourth",
        "one attacking piece against one attacking piece, each side with up to two advisors or elephants, at least one side with two (the larger 1-vs-1 tables; the third set's are their dependencies)",
    ),
    (
        "small",
        "one attacking piece against a bare general, an advisor or an elephant (KRK .. KPKB; for a quick test)",
    ),
];

/// Every way to give a side up to two advisors and two elephants.
fn defenders() -> Vec<Material> {
    let mut out = Vec::new();
    for a in 0..=2 {
        for b in 0..=2 {
            out.push(
                Material::BARE
                    .with(Kind::Advisor, a)
                    .with(Kind::Elephant, b),
            );
        }
    }
    out
}

/// The tables of a named set (not their dependencies), or `None` for an unknown name.
#[must_use]
pub fn set(name: &str) -> Option<Vec<Signature>> {
    let mut out = Vec::new();
    match name {
        "first" => {
            for att in ATTACKERS {
                for own in defenders() {
                    for other in defenders() {
                        out.push(Signature::canonical(own.with(att, 1), other).0);
                    }
                }
            }
        }
        "second" => {
            for (i, &a) in ATTACKERS.iter().enumerate() {
                for &b in &ATTACKERS[i..] {
                    for other in defenders() {
                        let strong = Material::BARE.with(a, 1).with(b, 1);
                        out.push(Signature::canonical(strong, other).0);
                    }
                }
            }
        }
        "third" => {
            let few = [
                Material::BARE,
                Material::BARE.with(Kind::Advisor, 1),
                Material::BARE.with(Kind::Elephant, 1),
            ];
            for a in ATTACKERS {
                for b in ATTACKERS {
                    for da in few {
                        for db in few {
                            let s = Signature::canonical(da.with(a, 1), db.with(b, 1)).0;
                            if !out.contains(&s) {
                                out.push(s);
                            }
                        }
                    }
                }
            }
        }
        "fourth" => {
            // Up to two defenders a side: none, one or two advisors and elephants together.
            let up_to_two: Vec<Material> = defenders()
                .into_iter()
                .filter(|m| m.count(Kind::Advisor) + m.count(Kind::Elephant) <= 2)
                .collect();
            let two = |m: &Material| m.count(Kind::Advisor) + m.count(Kind::Elephant) == 2;
            for a in ATTACKERS {
                for b in ATTACKERS {
                    for da in &up_to_two {
                        for db in &up_to_two {
                            if !two(da) && !two(db) {
                                continue;
                            }
                            let s = Signature::canonical(da.with(a, 1), db.with(b, 1)).0;
                            if !out.contains(&s) {
                                out.push(s);
                            }
                        }
                    }
                }
            }
        }
        "small" => {
            for att in ATTACKERS {
                for other in ["K", "KA", "KB"] {
                    let s: Signature = format!("K{}{other}", att.letter()).parse().ok()?;
                    out.push(s);
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_sizes() {
        let first = set("first").unwrap();
        assert_eq!(first.len(), 324);
        let mut unique = first.clone();
        unique.sort_by_key(ToString::to_string);
        unique.dedup();
        assert_eq!(unique.len(), 324);
        assert!(first.iter().any(|s| s.to_string() == "KRAABBKAABB"));
        assert_eq!(set("second").unwrap().len(), 90);
        let third = set("third").unwrap();
        assert!(
            third
                .iter()
                .all(|s| s.strong.has_attackers() && s.weak.has_attackers())
        );
        assert!(third.iter().any(|s| s.to_string() == "KRAKNB"));
        assert_eq!(third.len(), 78);
        let fourth = set("fourth").unwrap();
        assert!(fourth.iter().all(|s| !third.contains(s)));
        assert!(fourth.iter().any(|s| s.to_string() == "KRABKNAB"));
        assert!(fourth.iter().any(|s| s.to_string() == "KPAAKP"));
        assert!(!fourth.iter().any(|s| s.to_string().contains("AAB")));
        // Every table of the third set is needed by the fourth.
        let needed = crate::pipeline::generation_order(&fourth);
        assert!(third.iter().all(|s| needed.contains(s)));
        assert!(set("nonsense").is_none());
    }
}
