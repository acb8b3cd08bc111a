//! The engine's options in each protocol's words: the `option` lines listed after `ucci` and
//! `uci`. The options themselves, their values and what setting them does are the engine's
//! ([`crate::api::options`]).
//!
//! A combo lists its default as its FIRST `var`: UCI2WB (XBoard's adapter) drops the `default`
//! field of a combo, so XBoard takes the first choice for the default and sends it back at every
//! engine start; listed in the natural order, `pruning none`, `knowledge none` and `style solid`
//! would come back and weaken the engine. The `default` field stays, after the choices, where
//! UCCI 3.0 puts it; GUIs that read it are unaffected. A unit test keeps the rule.

use super::Proto;
use crate::api::options::{Kind, OPTIONS};
use crate::resources::EMPTY;

/// The `option` lines a protocol lists after `ucci`/`uci`, in the registry's order.
#[must_use]
pub fn declarations(proto: Proto) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|o| match proto {
            Proto::Ucci => o
                .ucci
                .map(|n| format!("option {n} {}", declaration(&o.kind))),
            Proto::Uci => o
                .uci
                .map(|n| format!("option name {n} {}", declaration(&o.kind))),
        })
        .collect()
}

/// What follows an option's name: `type spin min 0 max 32768 default 16`.
fn declaration(kind: &Kind) -> String {
    match kind {
        Kind::Check { default, .. } => format!("type check default {default}"),
        Kind::Spin {
            min, max, default, ..
        } => format!("type spin min {min} max {max} default {default}"),
        Kind::Combo {
            choices, default, ..
        } => {
            let mut line = format!("type combo var {default}");
            for choice in choices.iter().filter(|c| *c != default) {
                line += &format!(" var {choice}");
            }
            line + &format!(" default {default}")
        }
        Kind::String { .. } => format!("type string default {EMPTY}"),
        Kind::Button { .. } => "type button".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_protocol_lists_its_own_names() {
        let ucci = declarations(Proto::Ucci);
        let uci = declarations(Proto::Uci);
        assert!(ucci.contains(&"option usemillisec type check default false".to_owned()));
        assert!(ucci.contains(&"option hashsize type spin min 0 max 32768 default 16".to_owned()));
        assert!(uci.contains(&"option name Hash type spin min 0 max 32768 default 16".to_owned()));
        assert!(uci.contains(&"option name EvalFile type string default <empty>".to_owned()));
        assert!(uci.contains(&"option name Clear Hash type button".to_owned()));
        assert!(uci.iter().all(|d| !d.contains("usemillisec")));
        assert!(ucci.iter().all(|d| !d.contains("Clear Hash")));
    }

    #[test]
    fn every_combo_lists_its_default_first() {
        let lines = [declarations(Proto::Ucci), declarations(Proto::Uci)].concat();
        let mut combos = 0;
        for line in lines.iter().filter(|l| l.contains(" type combo ")) {
            combos += 1;
            let first = line
                .split(" var ")
                .nth(1)
                .and_then(|v| v.split_whitespace().next());
            let default = line.split(" default ").nth(1);
            assert_eq!(first, default, "{line}");
        }
        assert_eq!(combos, 12, "{lines:?}");
        assert!(
            lines.contains(
                &"option pruning type combo var large var none var small var medium default large"
                    .to_owned()
            )
        );
        assert!(lines.contains(
            &"option style type combo var normal var solid var risky default normal".to_owned()
        ));
    }
}
