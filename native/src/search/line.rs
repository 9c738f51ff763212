//! The winning line's loops cut out, as `kibitz.solver.without_loops` cuts them.

use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;

use super::Searcher;
use crate::board::Board;
use crate::generate::Move;

impl Searcher<'_> {
    /// `moves` from `board` with every stretch that comes back to an earlier position cut
    /// out (positions compared as the Python keys compare them: piles, round and base).
    pub fn without_loops(&self, board: &Board, moves: &[Move]) -> Vec<Move> {
        let mut line: Vec<Move> = Vec::with_capacity(moves.len());
        let mut positions = vec![board.clone()];
        let mut index: HashMap<Board, usize, FxBuildHasher> = HashMap::default();
        index.insert(board.clone(), 0);
        let mut board = board.clone();
        for &mv in moves {
            board = self.apply(&board, mv);
            if let Some(&earlier) = index.get(&board) {
                for dropped in positions.drain(earlier + 1..) {
                    index.remove(&dropped);
                }
                line.truncate(earlier);
                continue;
            }
            line.push(mv);
            positions.push(board.clone());
            index.insert(board.clone(), line.len());
        }
        line
    }
}
