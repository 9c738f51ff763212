//! One attempt of a first pass that cuts short the search below each start of a new round
//! (Python's `CappedRounds`, `kibitz.solver.policies.tournament`): the full policy, with
//! attempt `k` abandoning a last-round start after `last_round_nodes * 2^k` nodes and an
//! earlier round's start after `round_nodes * 2^k`. It plays no dives and proves nothing.

use crate::board::Board;
use crate::generate::{Move, MoveList};
use crate::search::policy::{Canonical, CappedRounds, Policy};

/// Attempt `attempt` of the capped first pass over `full`.
pub struct Capped<'a> {
    pub full: &'a Canonical,
    last_round_nodes: u64,
    round_nodes: u64,
    last_round: u32,
}

/// `nodes * 2^attempt`, saturating.
fn doubled(nodes: u64, attempt: u64) -> u64 {
    u32::try_from(attempt)
        .ok()
        .and_then(|shift| nodes.checked_shl(shift))
        .filter(|&value| value >> attempt.min(63) == nodes)
        .unwrap_or(u64::MAX)
}

impl<'a> Capped<'a> {
    pub fn new(full: &'a Canonical, caps: CappedRounds, attempt: u64) -> Self {
        Capped {
            full,
            last_round_nodes: doubled(caps.last_round_nodes, attempt),
            round_nodes: doubled(caps.round_nodes, attempt),
            last_round: full.tournament().last_round(),
        }
    }
}

impl Policy for Capped<'_> {
    fn keys(&self) -> &Canonical {
        self.full
    }

    fn ordered_moves(&self, board: &Board, moves: &mut MoveList) {
        self.full.ordered_moves(board, moves);
    }

    fn safe_move(&self, board: &Board) -> Option<Move> {
        self.full.safe_move(board)
    }

    fn is_hopeless(&self, board: &Board) -> bool {
        self.full.is_hopeless(board)
    }

    fn splits_at(&self, board: &Board) -> bool {
        self.full.splits_at(board)
    }

    fn caps_subtrees(&self) -> bool {
        true
    }

    fn subtree_budget(&self, parent: &Board, child: &Board) -> Option<u64> {
        if child.round == parent.round {
            None
        } else if child.round >= self.last_round {
            Some(self.last_round_nodes)
        } else {
            Some(self.round_nodes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::doubled;

    #[test]
    fn caps_double_per_attempt_and_saturate() {
        assert_eq!(doubled(100, 0), 100);
        assert_eq!(doubled(100, 3), 800);
        assert_eq!(doubled(100, 60), u64::MAX);
        assert_eq!(doubled(300, 200), u64::MAX);
    }
}
