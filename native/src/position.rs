//! Positions: piles of card bytes (bottom to top), the round and the base rank.

use smallvec::SmallVec;

use crate::spec::Spec;

/// A position read in place: the piles borrowed from their owner (Python's `bytes`).
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    pub piles: &'a [&'a [u8]],
    /// Counts from 1, up by one with each redeal.
    pub round: u32,
    /// The base rank once chosen.
    pub base: Option<u8>,
}

impl Position<'_> {
    /// Whether every card is on a foundation.
    pub fn is_won(&self, spec: &Spec) -> bool {
        spec.foundations.iter().map(|f| self.piles[f.pile].len()).sum::<usize>() == spec.total_cards
    }
}

/// A changed pile's cards (kept inline up to 24 cards: most moves allocate nothing).
pub type Cards = SmallVec<[u8; 24]>;

/// The position after a move, as changes to a position: the piles it changed hold new
/// cards, every other pile is the one before.
#[derive(Clone, Debug)]
pub struct Edit<'a> {
    before: &'a [&'a [u8]],
    changed: u32,
    new: SmallVec<[(u8, Cards); 4]>,
    pub round: u32,
    pub base: Option<u8>,
}

impl<'a> Edit<'a> {
    /// An edit that changes nothing yet.
    pub fn of(position: &Position<'a>) -> Self {
        Edit { before: position.piles, changed: 0, new: SmallVec::new(), round: position.round, base: position.base }
    }

    /// How many piles the position has.
    pub fn len(&self) -> usize {
        self.before.len()
    }

    /// Whether the position has no pile.
    pub fn is_empty(&self) -> bool {
        self.before.is_empty()
    }

    /// The cards of pile `index` after the edit.
    #[inline]
    pub fn pile(&self, index: usize) -> &[u8] {
        if self.is_changed(index) {
            self.new.iter().find(|(pile, _)| usize::from(*pile) == index).map(|(_, cards)| cards.as_slice()).unwrap_or(&[])
        } else {
            self.before[index]
        }
    }

    /// Pile `index`, to change.
    pub fn pile_mut(&mut self, index: usize) -> &mut Cards {
        let at = match self.new.iter().position(|(pile, _)| usize::from(*pile) == index) {
            Some(at) => at,
            None => {
                self.changed |= 1 << index;
                self.new.push((index as u8, Cards::from_slice(self.before[index])));
                self.new.len() - 1
            }
        };
        &mut self.new[at].1
    }

    /// Pile `index` holds `cards` now.
    pub fn set(&mut self, index: usize, cards: Cards) {
        match self.new.iter_mut().find(|(pile, _)| usize::from(*pile) == index) {
            Some(entry) => entry.1 = cards,
            None => {
                self.changed |= 1 << index;
                self.new.push((index as u8, cards));
            }
        }
    }

    /// Whether pile `index` changed (holds new cards, possibly equal to the old ones).
    #[inline]
    pub fn is_changed(&self, index: usize) -> bool {
        self.changed & (1 << index) != 0
    }
}
