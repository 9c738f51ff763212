//! Heuristic dives, the probe of a policy that declares them (Tournament's `probe`): a few
//! walks from the search's root that follow the move order but now and then take a later
//! move, drawn from `random.Random(attempt)` as in Python. They prove nothing.

use crate::board::Board;
use crate::generate::{Move, MoveList};
use crate::search::policy::{Dives, Policy};
use crate::search::random::PyRandom;
use crate::search::table::Table;
use crate::search::Searcher;

impl Searcher<'_> {
    /// Probe `attempt` from `root`: a winning line if a dive finds one, and the moves the
    /// dives played (safe moves not counted), which the search counts as nodes. A dive stops
    /// at a won, moveless or repeated position, or after `dives.length` moves.
    pub(super) fn dive(&self, policy: &dyn Policy, dives: &Dives, root: &Board, attempt: u64) -> (Option<Vec<Move>>, u64) {
        let mut random = PyRandom::new(attempt);
        let mut played = 0u64;
        let mut moves = MoveList::new();
        let skips = dives.skips.len() as u64;
        let mut seen = Table::default();
        let (mut current, mut spare) = (Board::default(), Board::default());
        for dive in 0..u64::from(dives.dives) {
            let skip = dives.skips[((attempt + dive) % skips) as usize];
            current.clone_from(root);
            let mut line = Vec::new();
            seen.clear();
            seen.insert(policy.keys().key(&current));
            for _ in 0..dives.length {
                moves.clear();
                policy.ordered_moves(&current, &mut moves);
                let Some(&first) = moves.first() else { break };
                let mut mv = first;
                if moves.len() > 1 && random.random() < skip {
                    let stop = moves.len().min(dives.width as usize) as u32;
                    mv = moves[random.randrange(1, stop) as usize];
                }
                self.advance(&mut current, mv, &mut spare);
                line.push(mv);
                played += 1;
                while let Some(safe) = policy.safe_move(&current) {
                    self.advance(&mut current, safe, &mut spare);
                    line.push(safe);
                }
                if self.is_won(&current) {
                    return (Some(line), played);
                }
                if !seen.insert(policy.keys().key(&current)) {
                    break;
                }
            }
        }
        (None, played)
    }
}
