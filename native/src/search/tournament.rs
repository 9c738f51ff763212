//! Tournament and Napoleon's Flank (Python's `TournamentPolicy`,
//! `kibitz.solver.policies.tournament`): safe moves, proofs of loss and the move order, each
//! answering exactly as the Python policy does. Why each is sound is argued there.
//!
//! A suit has an up pile holding ranks `0..u` and a down pile holding `13-d..=12`; `(u, d)`
//! are its heights.

use smallvec::SmallVec;

use crate::board::Board;
use crate::cards::IDENTITY;
use crate::generate::{CardMove, Move, MoveList};
use crate::spec::{Kind, Spec};

/// Sort rank of the deal: after foundation moves, transfers and cell moves that dig.
const DEAL_ORDER: u32 = 50;
/// Sort rank of a cell move that digs, before the cards to dig through are added.
const DIG_ORDER: u32 = 30;
/// Sort rank of a cell move that digs for nothing (and the depth of a column without a
/// playable card within reach).
const NO_DIG: u32 = 200;
/// Sort ranks of moves to a foundation: from a column, from a cell, a transfer.
const FROM_COLUMN: u32 = 0;
const FROM_CELL: u32 = 10;
const TRANSFER: u32 = 20;

/// `(u, d)` of each suit.
type Heights = [(i32, i32); 4];

/// The tables of the Tournament policy over one game.
pub struct Tournament {
    /// No card ever leaves the foundations but onto another (the standard ruleset), or the
    /// policy plays as if none did (a first pass's twin, which drops moves from a
    /// foundation into a cell): the safe moves, proofs of loss and transfer pruning rely on it.
    foundations_final: bool,
    up: [usize; 4],
    down: [usize; 4],
    cells: Vec<usize>,
    columns: Vec<usize>,
    stock: usize,
    /// The round in which no redeal is left.
    last_round: u32,
    kinds: Vec<Kind>,
}

fn card_move(source: usize, target: usize) -> Move {
    Move::Cards(CardMove { source: source as u8, target: target as u8, count: 1, index: None })
}

impl Tournament {
    /// The tables over `game`, whose eight foundations are the four up piles then the four
    /// down piles, in suit order.
    pub fn new(game: &Spec, foundations_final: bool) -> Result<Tournament, String> {
        let f: Vec<usize> = game.foundations.iter().map(|f| f.pile).collect();
        if f.len() != 8 {
            return Err(format!("the Tournament policy needs 8 foundations, not {}", f.len()));
        }
        let of_kind = |kind: Kind| (0..game.kinds.len()).filter(|&k| game.kinds[k] == kind).collect();
        Ok(Tournament {
            foundations_final,
            up: [f[0], f[1], f[2], f[3]],
            down: [f[4], f[5], f[6], f[7]],
            cells: of_kind(Kind::Reserve),
            columns: of_kind(Kind::Tableau),
            stock: game.stock,
            last_round: game.redeals + 1,
            kinds: game.kinds.clone(),
        })
    }

    /// The round after which nothing is dealt again.
    pub fn last_round(&self) -> u32 {
        self.last_round
    }

    fn heights(&self, board: &Board) -> Heights {
        std::array::from_fn(|s| (board.pile(self.up[s]).len() as i32, board.pile(self.down[s]).len() as i32))
    }

    /// A foundation that takes `card` now (the up pile first).
    fn target_for(&self, card: u8, heights: &Heights) -> Option<usize> {
        let card = card & IDENTITY;
        let (suit, rank) = (usize::from(card / 13), i32::from(card % 13));
        let (u, d) = heights[suit];
        if u == rank {
            Some(self.up[suit])
        } else if 12 - d == rank {
            Some(self.down[suit])
        } else {
            None
        }
    }

    /// Python's `safe_move`: cell cards that fit across a gap or an overlap; in the last
    /// round, column tops that fit an overlap, or a gap with their other copy below them.
    pub fn safe_move(&self, board: &Board) -> Option<Move> {
        if !self.foundations_final {
            return None;
        }
        let heights = self.heights(board);
        for &i in &self.cells {
            let Some(&first) = board.pile(i).first() else { continue };
            let card = first & IDENTITY;
            let (u, d) = heights[usize::from(card / 13)];
            if u + d != 13 {
                if let Some(target) = self.target_for(card, &heights) {
                    return Some(card_move(i, target));
                }
            }
        }
        if board.round >= self.last_round {
            let stock_empty = board.pile(self.stock).is_empty();
            for &i in &self.columns {
                let pile = board.pile(i);
                let Some((&top, below)) = pile.split_last() else { continue };
                if !stock_empty && below.is_empty() {
                    continue;
                }
                let card = top & IDENTITY;
                let (u, d) = heights[usize::from(card / 13)];
                if u + d > 13 || (u + d < 13 && below.contains(&card)) {
                    if let Some(target) = self.target_for(card, &heights) {
                        return Some(card_move(i, target));
                    }
                }
            }
        }
        None
    }

    /// For each card identity, whether it fits a foundation now or after transfers.
    fn fitting(&self, board: &Board) -> [bool; 52] {
        let mut fits = [false; 52];
        for suit in 0..4 {
            let (u, d) = (board.pile(self.up[suit]).len(), board.pile(self.down[suit]).len());
            let base = suit * 13;
            if u + d == 13 {
                fits[base..base + 13].fill(true);
            } else {
                if u < 13 {
                    fits[base + u] = true;
                }
                if d < 13 {
                    fits[base + 12 - d] = true;
                }
            }
        }
        fits
    }

    /// Python's `is_hopeless`: nothing left to deal, and some suit can never move again, or
    /// no card that fits is within reach of the empty cells.
    pub fn is_hopeless(&self, board: &Board) -> bool {
        if !self.foundations_final || board.round < self.last_round || !board.pile(self.stock).is_empty() {
            return false;
        }
        let fits = self.fitting(board);
        let cells = self.cells.len();
        let mut free = 0;
        let mut held = [0usize; 4];
        let mut cheapest = [cells + 1; 4];
        let mut playable = false;
        for &i in &self.cells {
            match board.pile(i).first() {
                None => free += 1,
                Some(&first) => {
                    let card = usize::from(first & IDENTITY);
                    held[card / 13] += 1;
                    if fits[card] {
                        cheapest[card / 13] = 0;
                        playable = true;
                    }
                }
            }
        }
        for &i in &self.columns {
            let mut above = [0usize; 4];
            let mut found = 0u8;
            for (depth, &card) in board.pile(i).iter().rev().enumerate() {
                let card = usize::from(card & IDENTITY);
                let suit = card / 13;
                if fits[card] && found & (1 << suit) == 0 {
                    found |= 1 << suit;
                    cheapest[suit] = cheapest[suit].min(above[suit]);
                    if depth <= free {
                        playable = true;
                    }
                    if found == 15 {
                        break;
                    }
                }
                above[suit] += 1;
            }
        }
        if !playable {
            return true;
        }
        (0..4).any(|s| {
            held[s] + cheapest[s] > cells && board.pile(self.up[s]).len() + board.pile(self.down[s]).len() < 26
        })
    }

    /// Cards above the shallowest card of `pile` within reach of `free` empty cells that
    /// fits a foundation now (or after transfers), or `NO_DIG`.
    fn depth_to_play(&self, pile: &[u8], free: usize, heights: &Heights) -> u32 {
        for k in 1..pile.len().min(free + 1) {
            let card = pile[pile.len() - 1 - k] & IDENTITY;
            let (u, d) = heights[usize::from(card / 13)];
            if u + d == 13 || self.target_for(card, heights).is_some() {
                return k as u32;
            }
        }
        NO_DIG
    }

    /// Python's `ordered_moves`: foundation moves, then useful transfers, then cell moves
    /// that dig for a playable card, then the deal, then other cell moves; transfers that
    /// move a split away from every reachable card, cell-to-cell moves and moves to an
    /// empty cell other than the first are dropped. `legal` are the rules' moves, in order.
    pub fn ordered_moves(&self, board: &Board, legal: &MoveList, moves: &mut MoveList) {
        let heights = self.heights(board);
        let empty = || self.cells.iter().copied().filter(|&i| board.pile(i).is_empty());
        let free = empty().count();
        let first_empty = empty().next();
        // The lowest and highest rank of each suit now reachable (cell cards, column tops).
        let mut lowest = [i32::MAX; 4];
        let mut highest = [i32::MIN; 4];
        let reachable = self.cells.iter().filter_map(|&i| board.pile(i).first())
            .chain(self.columns.iter().filter_map(|&i| board.pile(i).last()));
        for &card in reachable {
            let card = card & IDENTITY;
            let (suit, rank) = (usize::from(card / 13), i32::from(card % 13));
            lowest[suit] = lowest[suit].min(rank);
            highest[suit] = highest[suit].max(rank);
        }
        let mut scored: SmallVec<[(u32, Move); 64]> = SmallVec::new();
        for &mv in legal {
            let Move::Cards(m) = mv else {
                scored.push((DEAL_ORDER, mv));
                continue;
            };
            let (source, target) = (usize::from(m.source), usize::from(m.target));
            match (self.kinds[source], self.kinds[target]) {
                (Kind::Foundation, Kind::Foundation) => {
                    if self.foundations_final {
                        let suit = (source as i64 - self.up[0] as i64).rem_euclid(4) as usize;
                        let (u, _) = heights[suit];
                        let towards_down = source == self.up[suit];
                        if towards_down && lowest[suit] >= u - 1 {
                            continue;
                        }
                        if !towards_down && highest[suit] <= u {
                            continue;
                        }
                    }
                    scored.push((TRANSFER, mv));
                }
                (Kind::Tableau, Kind::Foundation) => scored.push((FROM_COLUMN, mv)),
                (_, Kind::Foundation) => scored.push((FROM_CELL, mv)),
                (_, Kind::Reserve) => {
                    let lift = self.foundations_final && self.kinds[source] == Kind::Foundation;
                    if self.kinds[source] == Kind::Reserve || Some(target) != first_empty || lift {
                        continue;
                    }
                    if self.kinds[source] == Kind::Tableau {
                        scored.push((DIG_ORDER + self.depth_to_play(board.pile(source), free, &heights), mv));
                    } else {
                        scored.push((NO_DIG, mv));
                    }
                }
                _ => {}
            }
        }
        scored.sort_by_key(|&(score, _)| score);
        moves.extend(scored.iter().map(|&(_, mv)| mv));
    }
}
