//! Legal-move generation, in the order of kibitz's Python rules.
//!
//! The target rules first say which piles want which cards (in rule order, then pile
//! order) and which empty piles take any card; the source rules list the movable units;
//! each unit then goes to each pile that wants its bottom card, then to each pile that
//! takes any card, where the permits allow. A click on the stock comes last.

use crate::apply::can_click;
use crate::cards::{is_face_down, rank, IDENTITIES, IDENTITY};
use crate::permits::Candidate;
use crate::position::Position;
use smallvec::SmallVec;

use crate::spec::{Build, CanDeal, Source, Spec, Target, MAX_PILES};

/// A move of cards: `count` from the top of `source`, or the one card at `index`
/// (counted from the bottom), onto `target`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CardMove {
    pub source: u8,
    pub target: u8,
    pub count: u16,
    pub index: Option<u16>,
}

/// A move: cards from pile to pile, or a click on the stock.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Cards(CardMove),
    Deal,
}

/// The code of the stock click.
pub const DEAL_CODE: u32 = u32::MAX;

impl Move {
    /// A number naming the move, as Python's `Game.move` numbers its cache.
    #[inline]
    pub fn code(self) -> u32 {
        match self {
            Move::Deal => DEAL_CODE,
            Move::Cards(m) => {
                let variant = match m.index {
                    Some(index) => 512 + u32::from(index),
                    None => u32::from(m.count),
                };
                (u32::from(m.source) * 32 + u32::from(m.target)) * 1024 + variant
            }
        }
    }
}

/// A movable unit: `count` cards of `pile` (or the card at `index`), `card` at its bottom.
#[derive(Clone, Copy, Debug)]
struct Unit {
    pile: u8,
    count: u16,
    index: Option<u16>,
    card: u8,
}

/// The moves of a position (no allocation for up to 64).
pub type MoveList = SmallVec<[Move; 64]>;

/// For each card identity, the piles that want it, as bits of their places in the target
/// rules' order ([`crate::spec::WantOrder`]).
type Wants = [u32; IDENTITIES];

/// Every legal move of `position`, appended to `moves` in the order of the Python rules.
///
/// `alike` gives each pile a group number (0: none) of piles the caller treats as
/// interchangeable: a card that may go to any empty pile then goes only to the first empty
/// pile of each group. An empty slice means no groups.
pub fn generate(spec: &Spec, position: &Position, alike: &[u8], moves: &mut MoveList) {
    let piles = position.piles;
    let order = &spec.wanting;
    let mut wants: Wants = [0; IDENTITIES];
    let mut anywhere: SmallVec<[u8; MAX_PILES]> = SmallVec::new();
    for target in &spec.targets {
        match target {
            Target::FoundationsTakeNext => foundations_take_next(spec, position, &mut wants),
            Target::BuildsOn { piles: targets, build } => {
                for &i in targets {
                    if let Some(&top) = piles[i].last() {
                        let bit = 1 << order.place[i];
                        for &card in build.takes(top) {
                            wants[usize::from(card)] |= bit;
                        }
                    }
                }
            }
            Target::EmptyPilesTakeAny { piles: targets } => {
                anywhere.extend(targets.iter().filter(|&&i| piles[i].is_empty()).map(|&i| i as u8));
            }
        }
    }
    if !alike.is_empty() && anywhere.len() > 1 {
        first_of_each_group(&mut anywhere, alike);
    }
    let mut unit_moves = |unit: Unit| {
        let source = usize::from(unit.pile);
        let mut push = |target: u8| {
            let target_index = usize::from(target);
            if target_index == source {
                return;
            }
            if let Some(permits) = &spec.permits {
                let candidate = Candidate { source, target: target_index, count: usize::from(unit.count) };
                if !permits.permit(spec, position, candidate) {
                    return;
                }
            }
            moves.push(Move::Cards(CardMove { source: unit.pile, target, count: unit.count, index: unit.index }));
        };
        // A face-down byte is no identity: no pile wants it.
        let mut wanting = wants.get(usize::from(unit.card)).copied().unwrap_or(0);
        while wanting != 0 {
            push(order.pile[wanting.trailing_zeros() as usize]);
            wanting &= wanting - 1;
        }
        anywhere.iter().for_each(|&target| push(target));
    };
    for source in &spec.sources {
        list_units(source, position, &mut unit_moves);
    }
    let can_deal = match spec.can_deal {
        Some(CanDeal::StockHasCards) => !piles[spec.stock].is_empty(),
        None => can_click(spec, position),
    };
    if can_deal {
        moves.push(Move::Deal);
    }
}

/// Each foundation wants the next card of its suit and direction (any card of its suit
/// while the base rank is not chosen).
fn foundations_take_next(spec: &Spec, position: &Position, wants: &mut Wants) {
    let place = &spec.wanting.place;
    for foundation in &spec.foundations {
        let pile = position.piles[foundation.pile];
        let rank_wanted = match pile.last() {
            None => match foundation.first.or(position.base) {
                Some(first) => i32::from(first),
                None => {
                    for rank in 0..13 {
                        wants[usize::from(foundation.suit * 13 + rank)] |= 1 << place[foundation.pile];
                    }
                    continue;
                }
            },
            Some(_) if pile.len() >= 13 => continue,
            Some(&top) => {
                let next = i32::from(rank(top)) + i32::from(foundation.step);
                if foundation.wrap {
                    next.rem_euclid(13)
                } else if (0..=12).contains(&next) {
                    next
                } else {
                    continue;
                }
            }
        };
        wants[usize::from(foundation.suit) * 13 + rank_wanted as usize] |= 1 << place[foundation.pile];
    }
}

/// Keeps only the first pile of each group (and every pile of no group).
fn first_of_each_group(piles: &mut SmallVec<[u8; MAX_PILES]>, alike: &[u8]) {
    let mut taken: u64 = 0;
    piles.retain(|pile| {
        let pile = *pile;
        let group = alike.get(usize::from(pile)).copied().unwrap_or(0);
        if group == 0 {
            return true;
        }
        let bit = 1u64 << (group % 64);
        let first = taken & bit == 0;
        taken |= bit;
        first
    });
}

/// How many cards at the top of `pile` form a run that follows `build` (at least one).
fn run_length(pile: &[u8], build: &Build) -> usize {
    let len = pile.len();
    let mut n = 1;
    while n < len && build.builds(pile[len - n - 1], pile[len - n]) {
        n += 1;
    }
    n
}

/// Calls `unit` with each movable unit of the source rule `source`, in its order.
fn list_units(source: &Source, position: &Position, units: &mut impl FnMut(Unit)) {
    let piles = position.piles;
    match source {
        Source::TopCards { piles: sources } => {
            for &i in sources {
                if let Some(&top) = piles[i].last() {
                    if !is_face_down(top) {
                        units(Unit { pile: i as u8, count: 1, index: None, card: top });
                    }
                }
            }
        }
        Source::EveryCardOfFaceUpPiles { piles: sources } => {
            for &i in sources {
                let pile = piles[i];
                if let Some(&top) = pile.last() {
                    if !is_face_down(top) {
                        let last = pile.len() - 1;
                        for (k, &card) in pile.iter().enumerate() {
                            let index = if k < last { Some(k as u16) } else { None };
                            units(Unit { pile: i as u8, count: 1, index, card });
                        }
                    }
                }
            }
        }
        Source::Runs { piles: sources, build } => {
            for &i in sources {
                let pile = piles[i];
                if !pile.is_empty() {
                    for n in 1..=run_length(pile, build) {
                        units(Unit { pile: i as u8, count: n as u16, index: None, card: pile[pile.len() - n] });
                    }
                }
            }
        }
        Source::TopCardAndWholeRun { piles: sources, build } => {
            for &i in sources {
                let pile = piles[i];
                if let Some(&top) = pile.last() {
                    units(Unit { pile: i as u8, count: 1, index: None, card: top });
                    if pile.len() > 1 && run_length(pile, build) == pile.len() {
                        units(Unit { pile: i as u8, count: pile.len() as u16, index: None, card: pile[0] });
                    }
                }
            }
        }
        Source::StockTop { pile } => {
            if let Some(&top) = piles[*pile].last() {
                units(Unit { pile: *pile as u8, count: 1, index: None, card: top & IDENTITY });
            }
        }
    }
}
