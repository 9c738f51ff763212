//! The winning line's loops cut out, as `kibitz.solver.without_loops` cuts them.

use hashbrown::HashMap;

use super::table::{Key, KeyHasher};
use super::Searcher;
use crate::board::Board;
use crate::generate::Move;

impl Searcher<'_> {
    /// `moves` from `board` with every stretch that comes back to an earlier position cut
    /// out (positions compared as the Python keys compare them: piles, round and base; here
    /// by a 128-bit hash of them, [`Board::identity`]).
    pub fn without_loops(&self, board: &Board, moves: &[Move]) -> Vec<Move> {
        let mut line: Vec<Move> = Vec::with_capacity(moves.len());
        let mut positions = vec![board.identity()];
        let mut index: HashMap<Key, usize, std::hash::BuildHasherDefault<KeyHasher>> = HashMap::default();
        index.insert(positions[0], 0);
        let (mut board, mut spare) = (board.clone(), Board::default());
        for &mv in moves {
            self.advance(&mut board, mv, &mut spare);
            let identity = board.identity();
            if let Some(&earlier) = index.get(&identity) {
                for dropped in positions.drain(earlier + 1..) {
                    index.remove(&dropped);
                }
                line.truncate(earlier);
                continue;
            }
            line.push(mv);
            positions.push(identity);
            index.insert(identity, line.len());
        }
        line
    }
}
