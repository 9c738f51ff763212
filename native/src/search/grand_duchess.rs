//! Grand Duchess and Parisienne (Python's `GrandDuchessPolicy`,
//! `kibitz.solver.policies.grand_duchess`): the last round's covers (a smallest set of moves
//! one of which wins if any line wins; a cover of one move is safe), the move order and the
//! proof of loss by a card that can never be played, each answering exactly as the Python
//! policy does. Why each is sound is argued there.

use smallvec::SmallVec;

use crate::board::Board;
use crate::cards::{FACE_DOWN, IDENTITY};
use crate::generate::{CardMove, Move, MoveList};
use crate::spec::{Kind, Spec};

/// The moves of a cover (at most two).
pub type Cover = SmallVec<[Move; 2]>;

/// A card that may go to a foundation if a lane wants it: its pile, its index in the pile
/// (`None` for the top card) and its identity.
type Play = (usize, Option<u16>, u8);

/// A move of one card onto a foundation.
pub fn card_move(source: usize, target: usize, index: Option<u16>) -> Move {
    Move::Cards(CardMove { source: source as u8, target: target as u8, count: 1, index })
}

/// The tables of the Grand Duchess policy over one game.
pub struct GrandDuchess {
    /// The up and down foundation of each suit.
    pub up: [usize; 4],
    pub down: [usize; 4],
    pub tableau: Vec<usize>,
    pub reserve: Vec<usize>,
    pub stock: usize,
    /// The round in which no redeal is left.
    pub last_round: u32,
    /// A foundation's top card may move to the other lane of its suit (pysolfc).
    pub transfers: bool,
    /// No card ever leaves the foundations but onto another: every rule here needs it.
    foundations_final: bool,
    kinds: Vec<Kind>,
}

impl GrandDuchess {
    pub fn new(game: &Spec, foundations_final: bool, transfers: bool) -> Result<GrandDuchess, String> {
        let (mut up, mut down) = ([usize::MAX; 4], [usize::MAX; 4]);
        for f in &game.foundations {
            let lanes = if f.step > 0 { &mut up } else { &mut down };
            lanes[usize::from(f.suit % 4)] = f.pile;
        }
        if up.iter().chain(&down).any(|&pile| pile == usize::MAX) {
            return Err("the Grand Duchess policy needs an up and a down foundation per suit".into());
        }
        let of_kind = |kind: Kind| (0..game.kinds.len()).filter(|&k| game.kinds[k] == kind).collect();
        Ok(GrandDuchess {
            up,
            down,
            tableau: of_kind(Kind::Tableau),
            reserve: of_kind(Kind::Reserve),
            stock: game.stock,
            last_round: game.redeals + 1,
            transfers,
            foundations_final,
            kinds: game.kinds.clone(),
        })
    }

    fn heights(&self, board: &Board) -> ([usize; 4], [usize; 4]) {
        (std::array::from_fn(|s| board.pile(self.up[s]).len()), std::array::from_fn(|s| board.pile(self.down[s]).len()))
    }

    /// Whether the suit's lanes are fixed for good.
    fn fixed(&self, ups: &[usize; 4], downs: &[usize; 4], suit: usize) -> bool {
        self.foundations_final && (!self.transfers || ups[suit] + downs[suit] >= 14)
    }

    /// Tableau tops and, once the reserve is face up, every reserve card.
    fn plays(&self, board: &Board) -> SmallVec<[Play; 32]> {
        let mut plays = SmallVec::new();
        for &i in &self.tableau {
            if let Some(&top) = board.pile(i).last() {
                plays.push((i, None, top & IDENTITY));
            }
        }
        for &i in &self.reserve {
            let pile = board.pile(i);
            if pile.last().is_some_and(|&top| top & FACE_DOWN == 0) {
                let top = pile.len() - 1;
                for (k, &card) in pile.iter().enumerate() {
                    plays.push((i, (k < top).then_some(k as u16), card & IDENTITY));
                }
            }
        }
        plays
    }

    /// Python's `_cover` (last round only): the smallest set of moves one of which wins if
    /// any line wins, the first found of the smallest size.
    pub fn cover(&self, board: &Board) -> Option<Cover> {
        if board.round < self.last_round {
            return None;
        }
        let (ups, downs) = self.heights(board);
        let plays = self.plays(board);
        let mut best: Option<Cover> = None;
        let mut done = 0u64;
        for &(_, _, card) in &plays {
            if done & (1 << card) != 0 {
                continue; // cards in the order of their first play
            }
            done |= 1 << card;
            let (suit, rank) = (usize::from(card / 13), usize::from(card % 13));
            if !self.fixed(&ups, &downs, suit) {
                continue;
            }
            let (u, d) = (ups[suit], downs[suit]);
            let takes_up = u == rank;
            let takes_down = 12 - d as i32 == rank as i32;
            if !(takes_up || takes_down) {
                continue;
            }
            let placed = usize::from(rank < u) + usize::from(rank as i32 > 12 - d as i32);
            let in_play = 2 - placed;
            let places: SmallVec<[Play; 2]> = plays.iter().copied().filter(|p| p.2 == card).collect();
            let cover: Cover = if takes_up && takes_down {
                if places.len() == 2 {
                    places.iter().map(|p| card_move(p.0, self.up[suit], p.1)).collect()
                } else {
                    let p = places[0];
                    [card_move(p.0, self.up[suit], p.1), card_move(p.0, self.down[suit], p.1)].into_iter().collect()
                }
            } else if places.len() == in_play {
                let lane = if takes_up { self.up[suit] } else { self.down[suit] };
                places.iter().map(|p| card_move(p.0, lane, p.1)).collect()
            } else {
                continue;
            };
            if best.as_ref().is_none_or(|best| cover.len() < best.len()) {
                let single = cover.len() == 1;
                best = Some(cover);
                if single {
                    break;
                }
            }
        }
        best
    }

    /// Python's `safe_move`: a cover of one move.
    pub fn safe_move(&self, board: &Board) -> Option<Move> {
        self.cover(board).filter(|cover| cover.len() == 1).map(|cover| cover[0])
    }

    /// Python's `ordered_moves` where there is no cover: the rules' moves `legal` with
    /// those from a foundation after the others and the deal last.
    pub fn order(&self, legal: &MoveList, moves: &mut MoveList) {
        let start = moves.len();
        moves.extend_from_slice(legal);
        moves[start..].sort_by_key(|mv| match mv {
            Move::Deal => 2,
            Move::Cards(m) if self.kinds[usize::from(m.source)] == Kind::Foundation => 1,
            Move::Cards(_) => 0,
        });
    }

    /// Python's `is_hopeless`: in the last round, some tableau card can never be played
    /// (with no card marked dead yet, Python's fixed point is reached at the first one).
    pub fn is_hopeless(&self, board: &Board) -> bool {
        if board.round < self.last_round {
            return false;
        }
        let (ups, downs) = self.heights(board);
        let mut free = 0u64;
        for &i in std::iter::once(&self.stock).chain(&self.reserve) {
            for &card in board.pile(i) {
                free |= 1 << (card & IDENTITY);
            }
        }
        // Where each card lies in the tableau: (column, height).
        let mut places: [SmallVec<[(u8, u8); 2]>; 52] = std::array::from_fn(|_| SmallVec::new());
        for (j, &i) in self.tableau.iter().enumerate() {
            for (k, &card) in board.pile(i).iter().enumerate() {
                places[usize::from(card & IDENTITY)].push((j as u8, k as u8));
            }
        }
        for (j, &i) in self.tableau.iter().enumerate() {
            let column = board.pile(i);
            for k in (0..column.len()).rev() {
                if self.blocked(column[k] & IDENTITY, j, k, &ups, &downs, &places, free) {
                    return true;
                }
            }
        }
        false
    }

    /// Python's `_blocked` with no card dead: whether each lane that can ever take `card`
    /// (at column `j`, height `k`) first needs a rank whose copies in play all lie below it.
    #[allow(clippy::too_many_arguments)]
    fn blocked(&self, card: u8, j: usize, k: usize, ups: &[usize; 4], downs: &[usize; 4],
               places: &[SmallVec<[(u8, u8); 2]>; 52], free: u64) -> bool {
        let (suit, rank) = (usize::from(card / 13), usize::from(card % 13));
        if !self.fixed(ups, downs, suit) {
            return false;
        }
        let (u, d) = (ups[suit], downs[suit]);
        let reachable = |needed: usize| {
            let needed = suit * 13 + needed;
            free & (1 << needed) != 0
                || places[needed].iter().any(|&(jj, kk)| !(usize::from(jj) == j && usize::from(kk) < k))
        };
        if u <= rank && (u..rank).all(reachable) {
            return false;
        }
        if 12 >= rank + d && (rank + 1..=12 - d).rev().all(reachable) {
            return false;
        }
        true
    }
}
