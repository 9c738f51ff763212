//! Positions owned by the search: every pile's cards in one buffer, each pile followed by
//! a separator byte.

use std::hash::{Hash, Hasher};

use crate::apply::can_click;
use crate::cards::{face_up, gather_face_down, rank, FACE_DOWN};
use crate::generate::CardMove;
use crate::position::{Cards, Edit, Position};
use crate::spec::{has, mask, AfterMove, Kind, Spec, MAX_PILES};

/// A position the search keeps: the piles' cards one after another, each pile followed by
/// [`SEPARATOR`] (so that the buffer is the piles joined as the digging noise hashes them),
/// where each pile starts, the round and the base rank.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    cards: Vec<u8>,
    ends: Ends,
    pub round: u32,
    pub base: Option<u8>,
}

/// The byte after each pile in a board's buffer: no card's byte.
pub const SEPARATOR: u8 = 0xff;

/// Where each pile's cards start in a board's buffer, in a fixed array: pile `k` is
/// `bounds[k]..bounds[k + 1] - 1` (`bounds[0]` is 0; the byte before `bounds[k + 1]` is
/// the pile's separator).
#[derive(Clone, Debug)]
struct Ends {
    bounds: [u16; MAX_PILES + 1],
    piles: usize,
}

impl Default for Ends {
    fn default() -> Self {
        Ends { bounds: [0; MAX_PILES + 1], piles: 0 }
    }
}

impl Ends {
    #[inline]
    fn clear(&mut self) {
        self.piles = 0;
    }

    /// The next pile's separator ends at `bound` (where a pile after it would start).
    #[inline]
    fn push(&mut self, bound: u16) {
        self.piles += 1;
        self.bounds[self.piles] = bound;
    }

    #[inline]
    fn len(&self) -> usize {
        self.piles
    }

    /// Where pile `k` starts and ends (its separator is at the end).
    #[inline]
    fn of(&self, k: usize) -> (usize, usize) {
        (usize::from(self.bounds[k]), usize::from(self.bounds[k + 1]) - 1)
    }

    /// Takes the bounds `range` from `other`, each plus `shift` (modulo 2^16: a shift down
    /// is a large one).
    #[inline]
    fn shifted(&mut self, other: &Ends, range: std::ops::RangeInclusive<usize>, shift: u16) {
        for (mine, theirs) in self.bounds[range.clone()].iter_mut().zip(&other.bounds[range]) {
            *mine = theirs.wrapping_add(shift);
        }
    }

    fn used(&self) -> &[u16] {
        &self.bounds[..=self.piles]
    }
}

impl PartialEq for Ends {
    fn eq(&self, other: &Self) -> bool {
        self.used() == other.used()
    }
}

impl Eq for Ends {}

impl Hash for Ends {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.used().hash(state);
    }
}

impl Board {
    /// A board holding `piles`.
    pub fn new(piles: &[&[u8]], round: u32, base: Option<u8>) -> Board {
        let mut cards = Vec::with_capacity(piles.iter().map(|pile| pile.len() + 1).sum());
        let mut ends = Ends::default();
        for pile in piles {
            cards.extend_from_slice(pile);
            cards.push(SEPARATOR);
            ends.push(cards.len() as u16);
        }
        Board { cards, ends, round, base }
    }

    /// Makes this board one of `piles` piles, pile `k`'s cards written by `pile(k, cards)`
    /// (appending to `cards`), reusing its buffers.
    pub fn rebuild(&mut self, piles: usize, round: u32, base: Option<u8>, mut pile: impl FnMut(usize, &mut Vec<u8>)) {
        self.cards.clear();
        self.ends.clear();
        for k in 0..piles {
            pile(k, &mut self.cards);
            self.cards.push(SEPARATOR);
            self.ends.push(self.cards.len() as u16);
        }
        self.round = round;
        self.base = base;
    }

    /// The board after `edit` (made on this board's position).
    pub fn after(&self, edit: &Edit) -> Board {
        let mut board = Board::default();
        self.after_into(edit, &mut board);
        board
    }

    /// Makes `out` the board after `edit` (made on this board's position), reusing its buffers.
    pub fn after_into(&self, edit: &Edit, out: &mut Board) {
        out.cards.clear();
        out.ends.clear();
        for k in 0..self.ends.len() {
            out.cards.extend_from_slice(if edit.is_changed(k) { edit.pile(k) } else { self.pile(k) });
            out.cards.push(SEPARATOR);
            out.ends.push(out.cards.len() as u16);
        }
        out.round = edit.round;
        out.base = edit.base;
    }

    /// The board after a card move (as [`crate::apply::move_cards`] makes it, after-move
    /// rule included); `None` for a refilling game's move from or to the stock.
    pub fn after_cards(&self, spec: &Spec, mv: CardMove) -> Option<Board> {
        let mut board = Board::default();
        self.after_cards_into(spec, mv, &mut board).then_some(board)
    }

    /// Makes `out` the board after a card move, reusing its buffers, as
    /// [`Board::after_cards`]; false (and `out` untouched) for the moves it does not cover.
    pub fn after_cards_into(&self, spec: &Spec, mv: CardMove, out: &mut Board) -> bool {
        let Some(effect) = self.cards_effect(spec, mv) else { return false };
        let (cards, ends) = (&mut out.cards, &mut out.ends);
        cards.clear();
        ends.piles = self.ends.piles;
        // Unchanged piles (with their separators) are copied in runs, and their bounds
        // shifted by what the changed piles before them grew: `from` is where the run not
        // yet copied starts, `bound` the first bound not yet written.
        let (mut from, mut bound, mut shift) = (0usize, 1usize, 0u16);
        for k in effect.changed() {
            let (start, end) = self.ends.of(k);
            cards.extend_from_slice(&self.cards[from..start]);
            ends.shifted(&self.ends, bound..=k, shift);
            effect.write(self, k, cards);
            cards.push(SEPARATOR);
            ends.bounds[k + 1] = cards.len() as u16;
            shift = (cards.len() as u16).wrapping_sub(end as u16 + 1);
            (from, bound) = (end + 1, k + 2);
        }
        cards.extend_from_slice(&self.cards[from..]);
        ends.shifted(&self.ends, bound..=self.ends.piles, shift);
        out.round = self.round;
        out.base = effect.base_after(self, spec);
        true
    }

    /// Calls `visit(k, cards)` for each pile a card move changes, with the cards it holds
    /// after the move (as [`Board::after_cards_into`] makes them, written into `scratch`),
    /// and returns the base rank after the move; `None` (and no call) for the moves
    /// `after_cards_into` does not cover.
    pub fn each_pile_after_cards(
        &self,
        spec: &Spec,
        mv: CardMove,
        scratch: &mut Vec<u8>,
        mut visit: impl FnMut(usize, &[u8]),
    ) -> Option<Option<u8>> {
        let effect = self.cards_effect(spec, mv)?;
        for k in effect.changed() {
            scratch.clear();
            effect.write(self, k, scratch);
            visit(k, scratch);
        }
        Some(effect.base_after(self, spec))
    }

    /// What a card move does to this board, as [`crate::apply::move_cards`] makes it
    /// (after-move rule included); `None` for a refilling game's move from or to the stock.
    fn cards_effect(&self, spec: &Spec, mv: CardMove) -> Option<CardsEffect<'_>> {
        let (source, target) = (usize::from(mv.source), usize::from(mv.target));
        let pile = self.pile(source);
        let (keep, moving): (usize, &[u8]) = match mv.index {
            Some(index) => (usize::from(index), &pile[usize::from(index)..=usize::from(index)]),
            None => (pile.len() - usize::from(mv.count), &pile[pile.len() - usize::from(mv.count)..]),
        };
        let mut refill = None;
        if let Some(AfterMove::Refill { piles, count }) = &spec.after_move {
            if source == spec.stock || target == spec.stock {
                return None;
            }
            if pile.len() == moving.len() && piles.contains(&source) {
                let stock = self.pile(spec.stock);
                refill = Some((stock, stock.len().saturating_sub(*count)));
            }
        }
        Some(CardsEffect { source, target, stock: spec.stock, keep, from_inside: mv.index.is_some(), moving, refill })
    }

    /// Makes `out` the board after a click on the stock (as [`crate::apply::click`] makes
    /// it: a deal, or a redeal and the new round's deal), reusing its buffers; false (and
    /// `out` untouched) when no click is allowed.
    pub fn after_click_into(&self, spec: &Spec, out: &mut Board) -> bool {
        let allowed = self.with_position(|position| can_click(spec, position));
        if !allowed {
            return false;
        }
        let mut round = self.round;
        // The stock to deal from, bottom to top: after a redeal, the piles it gathers.
        let mut gathered = Cards::new();
        let mut emptied = 0u32;
        let redeal = self.pile(spec.stock).is_empty();
        if redeal {
            let Some(redeal) = spec.stock_click.redeal.as_ref() else { return false };
            gathered = gather_face_down(redeal.gather.iter().map(|&pile| self.pile(pile)));
            emptied = mask(redeal.gather.iter().copied());
            round += 1;
        }
        let stock: &[u8] = if redeal { &gathered } else { self.pile(spec.stock) };
        let deal_after = !redeal || spec.stock_click.redeal.as_ref().is_some_and(|r| r.deal_after);
        let deal = spec.deal_in(round);
        if deal.order.contains(&spec.stock) {
            return false; // a deal onto the stock itself: left to the general apply
        }
        let packets = if deal_after { deal.passes * deal.order.len() } else { 0 };
        let dealt = (packets * deal.packet).min(stock.len());
        let kept = stock.len() - dealt;
        let turned = if kept == 0 && deal_after { mask(deal.face_up_when_stock_empties.iter().copied()) } else { 0 };
        let face_down_piles = mask(deal.face_down.iter().copied());
        // Packet `n` goes to pile `order[n % len]` and takes the stock's cards `n * packet ..`
        // counted from its top: first how many each pile gets, then the cards into place.
        let mut extra = [0u16; MAX_PILES];
        for n in 0..packets {
            let taken = ((n + 1) * deal.packet).min(dealt) - (n * deal.packet).min(dealt);
            extra[deal.order[n % deal.order.len()]] += taken as u16;
        }
        out.cards.clear();
        out.ends.clear();
        let mut next = [0usize; MAX_PILES];
        for k in 0..self.piles() {
            if k == spec.stock {
                out.cards.extend_from_slice(&stock[..kept]);
            } else {
                if !has(emptied, k) {
                    out.cards.extend_from_slice(self.pile(k));
                }
                next[k] = out.cards.len();
                out.cards.resize(out.cards.len() + usize::from(extra[k]), 0);
            }
            out.cards.push(SEPARATOR);
            out.ends.push(out.cards.len() as u16);
        }
        for n in 0..packets {
            let k = deal.order[n % deal.order.len()];
            for t in (n * deal.packet).min(dealt)..((n + 1) * deal.packet).min(dealt) {
                let card = face_up(stock[stock.len() - 1 - t]);
                out.cards[next[k]] = if has(face_down_piles, k) { card | FACE_DOWN } else { card };
                next[k] += 1;
            }
        }
        for k in (0..self.piles()).filter(|&k| has(turned, k)) {
            let (start, end) = out.ends.of(k);
            out.cards[start..end].iter_mut().for_each(|card| *card = face_up(*card));
        }
        out.round = round;
        out.base = self.base;
        true
    }

    /// A 128-bit hash of the piles, the round and the base: equal boards have equal
    /// identities, different boards differ but with probability about 2^-128.
    pub fn identity(&self) -> u128 {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&self.cards);
        for end in self.ends.used() {
            hasher.update(&end.to_le_bytes());
        }
        hasher.update(&self.round.to_le_bytes());
        hasher.update(&[self.base.map_or(0, |base| base + 1)]);
        hasher.digest128()
    }

    /// How many cards lie on the foundations.
    pub fn on_foundations(&self, spec: &Spec) -> usize {
        spec.foundations.iter().map(|f| self.pile(f.pile).len()).sum()
    }

    /// Whether every card is on a foundation.
    pub fn is_won(&self, spec: &Spec) -> bool {
        self.on_foundations(spec) == spec.total_cards
    }

    /// How many piles the board has.
    #[inline]
    pub fn piles(&self) -> usize {
        self.ends.len()
    }

    /// The cards of pile `k`, bottom to top.
    #[inline]
    pub fn pile(&self, k: usize) -> &[u8] {
        debug_assert!(k < self.piles(), "pile {k} of a board of {} piles", self.piles());
        let (start, end) = self.ends.of(k);
        &self.cards[start..end]
    }

    /// The piles' cards joined by [`SEPARATOR`], as Python's `b"\xff".join` of them.
    #[inline]
    pub fn joined(&self) -> &[u8] {
        &self.cards[..self.cards.len().saturating_sub(1)]
    }

    /// Runs `f` on this board as a [`Position`].
    pub fn with_position<T>(&self, f: impl FnOnce(&Position) -> T) -> T {
        let mut slices: [&[u8]; MAX_PILES] = [&[]; MAX_PILES];
        for (k, slot) in slices.iter_mut().enumerate().take(self.piles()) {
            *slot = self.pile(k);
        }
        f(&Position { piles: &slices[..self.piles()], round: self.round, base: self.base })
    }
}

/// What one card move does to a board (see [`Board::cards_effect`]): the source keeps its
/// cards below `keep` (and, for a move from inside it, those above), `moving` go onto the
/// target, and a refilled source takes the stock's top cards, the stock keeping those below
/// `refill`'s second part.
struct CardsEffect<'a> {
    source: usize,
    target: usize,
    stock: usize,
    keep: usize,
    from_inside: bool,
    moving: &'a [u8],
    refill: Option<(&'a [u8], usize)>,
}

impl CardsEffect<'_> {
    /// The piles the move changes, in order.
    #[inline]
    fn changed(&self) -> impl Iterator<Item = usize> {
        let mut piles = [self.source, self.target, self.stock];
        let changed = if self.refill.is_some() { 3 } else { 2 };
        piles[..changed].sort_unstable();
        piles.into_iter().take(changed)
    }

    /// Appends the cards pile `k` (one the move changes) holds after the move.
    fn write(&self, board: &Board, k: usize, out: &mut Vec<u8>) {
        let cards_of = board.pile(k);
        if k == self.source {
            if let Some((stock, kept)) = self.refill {
                out.extend(stock[kept..].iter().rev().map(|&card| face_up(card)));
            } else {
                out.extend_from_slice(&cards_of[..self.keep]);
                if self.from_inside {
                    out.extend_from_slice(&cards_of[self.keep + 1..]);
                }
            }
        } else if let (Some((stock, kept)), true) = (self.refill, k == self.stock) {
            out.extend_from_slice(&stock[..kept]);
        } else {
            out.extend_from_slice(cards_of);
            if self.source == self.stock {
                out.extend(self.moving.iter().map(|&card| face_up(card)));
            } else {
                out.extend_from_slice(self.moving);
            }
        }
    }

    /// The base rank after the move: chosen by the first card onto a foundation where the
    /// game's after-move rule says so.
    fn base_after(&self, board: &Board, spec: &Spec) -> Option<u8> {
        if board.base.is_none() && matches!(spec.after_move, Some(AfterMove::ChooseBase)) && spec.kinds[self.target] == Kind::Foundation {
            return self.moving.last().map(|&card| rank(card));
        }
        board.base
    }
}
