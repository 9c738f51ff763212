//! One attempt of the digging first pass over a full policy (Python's `Digging`).
//!
//! The full policy's key, safe moves and split points, but no card ever leaves a foundation,
//! and the moves are tried in a digging order: to a foundation first, the deal last, the
//! others by how deep their source pile holds a card some foundation takes now; attempts
//! after the first add seeded noise to those depths (splitmix64, seeded from the position and
//! the attempt). Where the policy restarts at random (`FirstPass::random_restarts`), the
//! attempts after the first give every move depth 0, so that the noise alone orders them.
//! Where the policy says `FirstPass::uncovers`, a move between two non-empty tableau piles is
//! played only when it uncovers a card some foundation takes now. With a deal cap,
//! an attempt abandons the search below a deal after that many nodes, and with a nested cap,
//! below a deal inside such a subtree after that share of what the subtree has left, if sooner.
//! With a look, a capped subtree whose board is an end game (nothing is dealt after it, while
//! something was before) begins with a look of that many nodes (Python's `Digging.look_budget`).

use smallvec::SmallVec;

use crate::board::Board;
use crate::cards::IDENTITY;
use crate::generate::{CardMove, Move, MoveList};
use crate::search::noise::SplitMix64;
use crate::search::policy::{Canonical, Policy};
use crate::search::random::crc32;
use crate::spec::has;

/// Depth given to a pile that holds no card a foundation takes now.
const NOT_WANTED: f64 = 99.0;
/// Depth given to a move out of a pile that is no digging source (a cell, the waste).
const CELL_DEPTH: f64 = 5.0;
/// Width of the noise added to depths after the first attempt.
const DIG_NOISE: f64 = 3.0;

/// Attempt `attempt` of the digging first pass over `full`.
pub struct Digging<'a> {
    pub full: &'a Canonical,
    pub attempt: u64,
    /// Most nodes searched below a deal (the policy's `FirstPass::deal_cap` of the
    /// attempt's budget), or none.
    pub deal_cap: Option<u64>,
    /// Most nodes searched below a redeal (the policy's `FirstPass::redeal_cap` of the
    /// attempt's budget), or none.
    pub redeal_cap: Option<u64>,
    /// The share of what the enclosing capped subtree has left that a capped subtree inside
    /// it gets at most (Python's `Digging.nested_cap`), or none.
    pub nested_cap: Option<f64>,
    /// Nodes of the first look below an end game (the policy's `FirstPass::look`), or none.
    pub look: Option<u64>,
}

impl Digging<'_> {
    /// The identities of the cards some foundation takes now, as bits.
    fn wanted(&self, board: &Board) -> u64 {
        let mut wanted = 0u64;
        for f in &self.full.game.foundations {
            let height = board.pile(f.pile).len() as i32;
            let suit = i32::from(f.suit) * 13;
            match f.first {
                None => {
                    if let (Some(base), true) = (board.base, height < 13) {
                        wanted |= 1 << (suit + (i32::from(base) + i32::from(f.step) * height).rem_euclid(13));
                    }
                }
                Some(first) => {
                    let rank = i32::from(first) + i32::from(f.step) * height;
                    if (0..13).contains(&rank) {
                        wanted |= 1 << (suit + rank);
                    }
                }
            }
        }
        wanted
    }

    /// Whether `mv` goes from a tableau pile to a non-empty one (its cards from the top) and
    /// leaves on its source a card outside `wanted` (Python's `Digging.uncovers_nothing`).
    fn uncovers_nothing(&self, board: &Board, mv: CardMove, wanted: u64) -> bool {
        let (source, target) = (usize::from(mv.source), usize::from(mv.target));
        if !self.full.is_tableau(source) || !self.full.is_tableau(target) || mv.index.is_some() || board.pile(target).is_empty() {
            return false;
        }
        let pile = board.pile(source);
        let count = usize::from(mv.count);
        pile.len() > count && wanted & (1 << (pile[pile.len() - count - 1] & IDENTITY)) == 0
    }

    /// How deep under its top `pile` holds a wanted card.
    fn depth(pile: &[u8], wanted: u64) -> f64 {
        pile.iter()
            .rev()
            .position(|&card| wanted & (1 << (card & IDENTITY)) != 0)
            .map_or(NOT_WANTED, |k| k as f64)
    }
}

impl Policy for Digging<'_> {
    fn keys(&self) -> &Canonical {
        self.full
    }

    fn ordered_moves(&self, board: &Board, moves: &mut MoveList) {
        let settings = &self.full.spec.first_pass;
        let by_depth = !(self.attempt > 0 && settings.random_restarts);
        let uncovers = settings.uncovers;
        let wanted = if by_depth || uncovers { self.wanted(board) } else { 0 };
        // Each source's depth, found when a move from it is first ranked (NaN: not yet).
        let mut depths = [f64::NAN; crate::spec::MAX_PILES];
        let mut depth_of = |pile: usize| -> f64 {
            if depths[pile].is_nan() {
                depths[pile] = if !by_depth {
                    0.0
                } else if has(self.full.dig_source_set, pile) {
                    Self::depth(board.pile(pile), wanted)
                } else {
                    CELL_DEPTH
                };
            }
            depths[pile]
        };
        let mut noise = (self.attempt > 0).then(|| {
            // Seeded from the piles joined by 0xff, as Python hashes them (a board's buffer).
            SplitMix64::new(u64::from(crc32([board.joined()])) ^ self.attempt.wrapping_mul(0x9E37_79B1))
        });
        let mut full = MoveList::new();
        self.full.ordered_moves(board, &mut full);
        // Moves to a foundation first and the deal last, each in the full order; the others
        // by score, ties in the full order (a stable sort). Scores are never negative, so
        // their bits sort as the numbers do.
        let mut scored: SmallVec<[(u64, Move); 64]> = SmallVec::new();
        let mut deal = None;
        for &mv in &full {
            match mv {
                Move::Deal => deal = Some(mv),
                Move::Cards(m) if self.full.is_foundation(m.source.into()) => {}
                Move::Cards(m) if uncovers && self.uncovers_nothing(board, m, wanted) => {}
                Move::Cards(m) if self.full.is_foundation(m.target.into()) => moves.push(mv),
                Move::Cards(m) => {
                    let mut score = depth_of(usize::from(m.source));
                    if let Some(noise) = noise.as_mut() {
                        score += noise.random() * DIG_NOISE;
                    }
                    debug_assert!(score >= 0.0, "a depth and noise are never negative");
                    scored.push((score.to_bits(), mv));
                }
            }
        }
        scored.sort_by_key(|&(score, _)| score);
        moves.extend(scored.iter().map(|&(_, mv)| mv));
        moves.extend(deal);
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
        self.deal_cap.is_some() || self.redeal_cap.is_some()
    }

    fn nested_cap(&self) -> Option<f64> {
        self.nested_cap
    }

    fn look_budget(&self, parent: &Board, child: &Board) -> Option<u64> {
        let game = &self.full.game;
        let no_deal_remains = |board: &Board| board.pile(game.stock).is_empty() && board.round > game.redeals;
        self.look.filter(|_| no_deal_remains(child) && !no_deal_remains(parent))
    }

    fn look_margin(&self) -> i64 {
        self.full.spec.first_pass.look_margin
    }

    fn subtree_budget(&self, parent: &Board, child: &Board) -> Option<u64> {
        let stock = self.full.game.stock;
        if child.round > parent.round {
            self.redeal_cap
        } else if child.pile(stock).len() < parent.pile(stock).len() {
            self.deal_cap
        } else {
            None
        }
    }
}
