//! The neural network's first layer at every ply of a search, when the engine evaluates with a
//! network (`EvalFile`): a move copies the parent ply's sums and adds and subtracts the rows of
//! the pieces it moves and captures (at most three rows per perspective), which is what makes
//! the network affordable at every node. The sums live in two flat buffers, one per perspective,
//! allocated once per thread and network size, so a move allocates nothing.

use chariot_eval::nnue::Network;
use chariot_rules::{Move, Position, Square};

use super::score::MAX_PLY;

/// Plies kept: as the search's other per-ply tables.
const PLIES: usize = MAX_PLY + 4;

/// The first-layer sums of the position at each ply, for both perspectives.
pub(crate) struct NetworkStack {
    hidden: usize,
    red: Vec<i16>,
    black: Vec<i16>,
}

impl NetworkStack {
    /// An empty stack (no network).
    pub fn new() -> NetworkStack {
        NetworkStack {
            hidden: 0,
            red: Vec::new(),
            black: Vec::new(),
        }
    }

    /// Sizes the buffers for `net` (once per network size).
    fn fit(&mut self, net: &Network) {
        if self.hidden != net.hidden() {
            self.hidden = net.hidden();
            self.red = vec![0; PLIES * self.hidden];
            self.black = vec![0; PLIES * self.hidden];
        }
    }

    fn range(&self, ply: usize) -> std::ops::Range<usize> {
        ply * self.hidden..(ply + 1) * self.hidden
    }

    /// Computes the sums of `pos` at `ply` from its pieces.
    pub fn refresh(&mut self, net: &Network, ply: usize, pos: &Position) {
        self.fit(net);
        let r = self.range(ply);
        let (red, black) = (&mut self.red[r.clone()], &mut self.black[r]);
        red.copy_from_slice(net.biases());
        black.copy_from_slice(net.biases());
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                net.add_to(red, black, piece, sq);
            }
        }
    }

    /// The sums at `ply + 1` after `m` is played in `pos` (the position at `ply`, before `m`).
    pub fn after_move(&mut self, net: &Network, ply: usize, pos: &Position, m: Move) {
        let h = self.hidden;
        let (from, to) = (ply * h, (ply + 1) * h);
        self.red.copy_within(from..to, to);
        self.black.copy_within(from..to, to);
        let r = self.range(ply + 1);
        let (red, black) = (&mut self.red[r.clone()], &mut self.black[r]);
        let Some(mover) = pos.piece_at(m.from()) else {
            debug_assert!(false, "no piece on {}", m.from());
            return;
        };
        if let Some(captured) = pos.piece_at(m.to()) {
            net.remove_from(red, black, captured, m.to());
        }
        net.remove_from(red, black, mover, m.from());
        net.add_to(red, black, mover, m.to());
    }

    /// The sums at `ply + 1` after a null move: those at `ply`.
    pub fn after_null(&mut self, ply: usize) {
        let h = self.hidden;
        let (from, to) = (ply * h, (ply + 1) * h);
        self.red.copy_within(from..to, to);
        self.black.copy_within(from..to, to);
    }

    /// The network's evaluation of the position at `ply`, from its side to move's view.
    pub fn evaluate(&self, net: &Network, ply: usize, pos: &Position) -> i32 {
        let r = self.range(ply);
        let v = net.output(
            &self.red[r.clone()],
            &self.black[r],
            pos.turn(),
            pos.piece_count(),
        );
        debug_assert_eq!(
            v,
            net.evaluate_position(pos),
            "the incrementally kept sums differ from the position's"
        );
        v
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::search::{Control, Limits, Options, Score, Searcher};
    use chariot_eval::nnue::Network;
    use chariot_eval::nnue::features::INPUTS;
    use chariot_eval::nnue::network::{QA, QB, SCALE};
    use chariot_rules::Position;
    use chariot_rules::random::Rng;

    fn search(net: Option<Network>, fen: &str, depth: u32) -> crate::search::SearchResult {
        search_with(Options::default(), net, fen, depth)
    }

    fn search_with(
        options: Options,
        net: Option<Network>,
        fen: &str,
        depth: u32,
    ) -> crate::search::SearchResult {
        let mut searcher = Searcher::new(options);
        searcher.set_network(net.map(Arc::new));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let pos = Position::from_fen(fen).unwrap();
        searcher.search(&pos, &limits, &Arc::new(Control::default()), &mut |_| {})
    }

    #[test]
    fn the_search_evaluates_with_the_network() {
        // A network that says 125 centipawns for the side to move whatever the position: every
        // move leaves the opponent 125 up, so the root scores -125.
        let hidden = 4;
        let bias = 125 * i32::from(QA) * i32::from(QB) / SCALE;
        let flat = Network::from_parts(
            vec![0; INPUTS * hidden],
            vec![0; hidden],
            vec![0; 2 * hidden],
            vec![bias],
        );
        let result = search(Some(flat.clone()), chariot_rules::START_FEN, 3);
        assert_eq!(result.score, Score::Cp(-125));
        let hand_written = search(None, chariot_rules::START_FEN, 3);
        assert_ne!(hand_written.score, Score::Cp(-125));
        // Lower knowledge levels and other styles shape the hand-written evaluation: the
        // network is set aside for them.
        for options in [
            Options {
                knowledge: chariot_eval::levels::Level::Medium,
                ..Options::default()
            },
            Options {
                style: chariot_eval::levels::Style::Risky,
                ..Options::default()
            },
        ] {
            let r = search_with(options, Some(flat.clone()), chariot_rules::START_FEN, 3);
            assert_ne!(r.score, Score::Cp(-125));
        }
    }

    #[test]
    fn the_incremental_sums_follow_every_move_of_a_search() {
        // Debug builds check the sums and the evaluation against the position's at every
        // evaluation (see `NetworkStack::evaluate`): captures, null moves, both sides, several
        // positions, three output buckets.
        let mut rng = Rng::seeded(5);
        let mut w = |n: usize, span: usize| -> Vec<i16> {
            (0..n)
                .map(|_| rng.below(2 * span + 1) as i16 - span as i16)
                .collect()
        };
        let hidden = 16;
        let net = Network::from_parts(
            w(INPUTS * hidden, 40),
            w(hidden, 100),
            w(2 * hidden * 3, 60),
            vec![0, 40, -40],
        );
        for fen in [
            chariot_rules::START_FEN,
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1",
            "2bak4/4a4/4b4/p3C1p1p/2p6/6P2/P1P1c3P/4B4/4A4/2BAK4 w - - 0 1",
        ] {
            let result = search(Some(net.clone()), fen, 6);
            assert!(result.best.is_some(), "{fen}");
        }
    }
}
