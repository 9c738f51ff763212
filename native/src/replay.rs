//! A line of moves replayed with every legality check, as `kibitz.solver.verify_win`
//! replays a winning line: each move must be one of the legal moves where it is played.

use crate::apply::apply;
use crate::board::Board;
use crate::generate::{generate, Move, MoveList};
use crate::spec::Spec;

/// How a replayed line ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Replay {
    /// The move at this index is not legal where it is played.
    Illegal(usize),
    /// Every move is legal and the last leaves every card on a foundation.
    Won,
    /// Every move is legal but the game is not won at the end.
    NotWon,
}

/// Replays `moves` from `board`, each checked against the legal moves (as the rules list
/// them, with no piles taken as interchangeable) and applied by the rules.
pub fn replay(spec: &Spec, board: &Board, moves: impl IntoIterator<Item = Option<Move>>) -> Replay {
    let mut board = board.clone();
    let mut after = Board::default();
    let mut legal = MoveList::new();
    for (k, mv) in moves.into_iter().enumerate() {
        let Some(mv) = mv else { return Replay::Illegal(k) };
        legal.clear();
        board.with_position(|position| generate(spec, position, &[], &mut legal));
        if !legal.contains(&mv) {
            return Replay::Illegal(k);
        }
        board.with_position(|position| {
            let edit = apply(spec, position, mv).expect("a legal move applies");
            board.after_into(&edit, &mut after);
        });
        std::mem::swap(&mut board, &mut after);
    }
    if board.is_won(spec) {
        Replay::Won
    } else {
        Replay::NotWon
    }
}
