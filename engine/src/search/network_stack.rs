//! The neural network's first layer at every ply of a search, when the engine evaluates with a
//! network (`EvalFile`). A move only notes what it changes; the sums of a ply are computed when
//! the position there is evaluated, from the nearest ply above whose sums are known, adding and
//! taking off the rows of the pieces each move moved and captured (at most three rows per
//! perspective and move, in one pass) — so a node that is never evaluated (a table cut-off, an
//! evaluation the table kept, a repetition) costs no update. This is what makes the network
//! affordable at every node. The sums live in two flat buffers, one per perspective, allocated
//! once per thread and network size, so a move allocates nothing. A king-bucketed network's
//! perspective whose general moved to another bucket on the way is rebuilt instead, from the
//! thread's [`RefreshCache`], kept for as long as the thread.

use chariot_eval::nnue::network::Change;
use chariot_eval::nnue::{Network, RefreshCache};
use chariot_rules::{Color, Move, Position};

use super::score::MAX_PLY;

/// Plies kept: as the search's other per-ply tables.
const PLIES: usize = MAX_PLY + 4;

/// The first-layer sums of the position at each ply, for both perspectives.
pub(crate) struct NetworkStack {
    hidden: usize,
    red: Vec<i16>,
    black: Vec<i16>,
    /// Per ply, whether red's and black's sums there are computed.
    computed: Vec<[bool; 2]>,
    /// Per ply, the change of the move that led there from the ply before (`None`: a null
    /// move).
    changes: Vec<Option<Change>>,
    cache: RefreshCache,
}

impl NetworkStack {
    /// An empty stack (no network).
    pub fn new() -> NetworkStack {
        NetworkStack {
            hidden: 0,
            red: Vec::new(),
            black: Vec::new(),
            computed: vec![[false; 2]; PLIES],
            changes: vec![None; PLIES],
            cache: RefreshCache::new(),
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
        net.refresh(
            pos,
            &mut self.red[r.clone()],
            &mut self.black[r],
            &mut self.cache,
        );
        self.computed[ply] = [true; 2];
    }

    /// Notes `m`, played in `pos` (the position at `ply`), as the way to `ply + 1`.
    pub fn after_move(&mut self, ply: usize, pos: &Position, m: Move) {
        let change = Change::of(pos, m);
        debug_assert!(change.is_some(), "no piece on {}", m.from());
        self.changes[ply + 1] = change;
        self.computed[ply + 1] = [false; 2];
    }

    /// Notes a null move as the way to `ply + 1`: its sums are those at `ply`.
    pub fn after_null(&mut self, ply: usize) {
        self.changes[ply + 1] = None;
        self.computed[ply + 1] = [false; 2];
    }

    /// Brings `perspective`'s sums at `ply` (where the position is `pos`) up to date.
    fn compute(&mut self, net: &Network, perspective: Color, ply: usize, pos: &Position) {
        let side = perspective.index();
        if self.computed[ply][side] {
            return;
        }
        let mut known = ply;
        while known > 0 && !self.computed[known][side] {
            known -= 1;
        }
        let refresh = !self.computed[known][side]
            || self.changes[known + 1..=ply]
                .iter()
                .flatten()
                .any(|c| net.needs_refresh(perspective, c));
        let h = self.hidden;
        let sums = if perspective.is_red() {
            &mut self.red
        } else {
            &mut self.black
        };
        if refresh {
            let out = &mut sums[ply * h..(ply + 1) * h];
            net.refresh_side(perspective, pos, out, &mut self.cache);
            self.computed[ply][side] = true;
            return;
        }
        // No change on the way moved this side's general to another bucket: it stands where
        // it stands now, and each move is an update.
        let general = pos.king(perspective);
        for j in known + 1..=ply {
            let (before, after) = sums.split_at_mut(j * h);
            let (parent, child) = (&before[(j - 1) * h..], &mut after[..h]);
            match &self.changes[j] {
                Some(change) => net.update_side(perspective, general, parent, child, change),
                None => child.copy_from_slice(parent),
            }
            self.computed[j][side] = true;
        }
    }

    /// The network's evaluation of the position at `ply`, from its side to move's view.
    pub fn evaluate(&mut self, net: &Network, ply: usize, pos: &Position) -> i32 {
        self.compute(net, Color::Red, ply, pos);
        self.compute(net, Color::Black, ply, pos);
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
    use chariot_eval::nnue::features::INPUTS;
    use chariot_eval::nnue::king::{HIDDEN1, HIDDEN2, KingNet, KingParts};
    use chariot_eval::nnue::network::SCALE;
    use chariot_eval::nnue::psq::{QA, QB};
    use chariot_eval::nnue::{Network, PsqNet};
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
        let flat: Network = PsqNet::from_parts(
            vec![0; INPUTS * hidden],
            vec![0; hidden],
            vec![0; 2 * hidden],
            vec![bias],
        )
        .into();
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
        let psq: Network = PsqNet::from_parts(
            w(INPUTS * hidden, 40),
            w(hidden, 100),
            w(2 * hidden * 3, 60),
            vec![0, 40, -40],
        )
        .into();
        // The king-bucketed network, whose sums are rebuilt through the cache when a general
        // moves (the bare-generals position moves them often).
        let h = 64;
        let buckets = 3;
        let king_inputs = chariot_eval::nnue::king_features::INPUTS;
        let i8s = |w: Vec<i16>| w.into_iter().map(|x| x as i8).collect::<Vec<i8>>();
        let king: Network = KingNet::from_parts(KingParts {
            w1: w(king_inputs * h, 40),
            b1: w(h, 100),
            w2: i8s(w(buckets * HIDDEN1 * h, 127)),
            b2: vec![500; buckets * HIDDEN1],
            w3: i8s(w(buckets * HIDDEN2 * HIDDEN1, 127)),
            b3: vec![300; buckets * HIDDEN2],
            w4: w(buckets * HIDDEN2, 2000),
            b4: vec![0, 4000, -4000],
        })
        .into();
        for (net, fen) in [psq, king].iter().flat_map(|net| {
            [
                chariot_rules::START_FEN,
                "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
                "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1",
                "2bak4/4a4/4b4/p3C1p1p/2p6/6P2/P1P1c3P/4B4/4A4/2BAK4 w - - 0 1",
                "3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1",
            ]
            .map(|fen| (net, fen))
        }) {
            let result = search(Some(net.clone()), fen, 6);
            assert!(result.best.is_some(), "{fen}");
        }
    }
}
