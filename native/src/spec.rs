//! A game's rules as the kernel reads them: the building blocks, with their parameters.
//!
//! kibitz's Python core declares beside each rule function its native counterpart (typed
//! data); `kibitz.native` turns a game's counterparts into this spec, as JSON, with pile
//! kinds and names already resolved to pile indices. Each block is implemented once, in
//! [`crate::generate`] (sources, targets, permits) and [`crate::apply`] (stock clicks and
//! after-move rules).

use serde::Deserialize;

use crate::cards::IDENTITIES;

/// Piles a position may have at most (move codes keep a pile index in five bits).
pub const MAX_PILES: usize = 32;

/// A set of piles as bits (a game has at most [`MAX_PILES`] piles).
pub fn mask(piles: impl IntoIterator<Item = usize>) -> u32 {
    piles.into_iter().fold(0, |set, pile| set | 1 << pile)
}

/// Whether `pile` is in the set `set` (made by [`mask`]).
#[inline]
pub fn has(set: u32, pile: usize) -> bool {
    set & (1 << pile) != 0
}

/// What a pile is for.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Stock,
    Waste,
    Foundation,
    Tableau,
    Reserve,
}

/// A set of pile kinds.
#[derive(Deserialize, Clone, Copy, Default, PartialEq, Eq, Debug)]
#[serde(from = "Vec<Kind>")]
pub struct KindSet(u8);

impl KindSet {
    /// Whether `kind` is in the set.
    #[inline]
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }
}

impl From<Vec<Kind>> for KindSet {
    fn from(kinds: Vec<Kind>) -> Self {
        KindSet(kinds.iter().fold(0, |set, &kind| set | 1 << kind as u8))
    }
}

/// How cards build on a pile: for each top card identity, the identities it takes.
#[derive(Deserialize, Clone, Debug)]
#[serde(try_from = "Vec<Vec<u8>>")]
pub struct Build {
    takes: Vec<Vec<u8>>,
    masks: Vec<u64>,
}

impl Build {
    /// The identities that build on the card `top` (its face bit ignored).
    #[inline]
    pub fn takes(&self, top: u8) -> &[u8] {
        &self.takes[usize::from(top & crate::cards::IDENTITY)]
    }

    /// Whether `upper` may lie on `lower` (face bits ignored).
    #[inline]
    pub fn builds(&self, lower: u8, upper: u8) -> bool {
        let mask = self.masks[usize::from(lower & crate::cards::IDENTITY)];
        let upper = upper & crate::cards::IDENTITY;
        upper < 64 && mask & (1 << upper) != 0
    }
}

impl TryFrom<Vec<Vec<u8>>> for Build {
    type Error = String;

    fn try_from(takes: Vec<Vec<u8>>) -> Result<Self, String> {
        if takes.len() != IDENTITIES {
            return Err(format!("a build table lists {} cards, not {IDENTITIES}", takes.len()));
        }
        let mut masks = vec![0u64; IDENTITIES];
        for (mask, cards) in masks.iter_mut().zip(&takes) {
            for &card in cards {
                if usize::from(card) >= IDENTITIES {
                    return Err(format!("a build table names card {card}"));
                }
                if *mask & 1 << card != 0 {
                    return Err(format!("a build table names card {card} twice for one card"));
                }
                *mask |= 1 << card;
            }
        }
        // Identities 52..63 (never dealt) take nothing.
        let mut takes = takes;
        takes.resize(64, Vec::new());
        masks.resize(64, 0);
        Ok(Build { takes, masks })
    }
}

/// How a foundation builds.
#[derive(Deserialize, Clone, Debug)]
pub struct Foundation {
    pub pile: usize,
    pub suit: u8,
    /// +1 up, -1 down.
    pub step: i8,
    /// The rank of its first card, or `None` for the game's base rank (chosen in play).
    pub first: Option<u8>,
    /// Ace follows king.
    pub wrap: bool,
}

/// A source rule: which cards may move (as units).
#[derive(Deserialize, Clone, Debug)]
pub enum Source {
    /// The face-up top card of each non-empty pile.
    TopCards { piles: Vec<usize> },
    /// Every card of each pile whose top card is face up, one at a time.
    EveryCardOfFaceUpPiles { piles: Vec<usize> },
    /// The top card and every longer run at the top of a pile that follows `build`.
    Runs { piles: Vec<usize>, build: Build },
    /// The top card, and the whole pile when it is one run that follows `build`.
    TopCardAndWholeRun { piles: Vec<usize>, build: Build },
    /// The top card of the pile, face up or down (the stock's).
    StockTop { pile: usize },
}

/// A target rule: which piles take which cards.
#[derive(Deserialize, Clone, Debug)]
pub enum Target {
    /// Each foundation takes the next card of its suit and direction.
    FoundationsTakeNext,
    /// Each non-empty pile takes the cards `build` lists for its top card.
    BuildsOn { piles: Vec<usize>, build: Build },
    /// Each empty pile takes any card.
    EmptyPilesTakeAny { piles: Vec<usize> },
}

/// One test of a permit clause, on a candidate move (source, target, card count).
#[derive(Deserialize, Clone, Debug)]
pub enum Test {
    /// No base rank is chosen yet.
    BaseUnset,
    /// The source pile is of one of these kinds.
    SourceIn { kinds: KindSet },
    /// The target pile is of one of these kinds.
    TargetIn { kinds: KindSet },
    /// The target pile is empty.
    TargetEmpty,
    /// One card moves.
    OneCard,
    /// The whole source pile moves.
    WholePile,
    /// Every one of these piles is empty.
    Empty { piles: Vec<usize> },
    /// The test does not hold.
    Not(Box<Test>),
    /// Never holds.
    Never,
}

/// A clause of a permit: when every test of `when` holds, the move is permitted exactly
/// when every test of `then` holds.
#[derive(Deserialize, Clone, Debug)]
pub struct Clause {
    pub when: Vec<Test>,
    pub then: Vec<Test>,
}

/// An extra check of each candidate move: the first clause that applies decides; a move
/// no clause applies to is permitted.
#[derive(Deserialize, Clone, Debug)]
pub struct Permits {
    pub clauses: Vec<Clause>,
}

/// How a click on a non-empty stock deals, from round `from_round` on.
#[derive(Deserialize, Clone, Debug)]
pub struct Deal {
    pub from_round: u32,
    /// `passes` times, `packet` cards onto each pile of `order` in turn, while the stock lasts.
    pub order: Vec<usize>,
    pub packet: usize,
    pub passes: usize,
    /// Piles that get their cards face down.
    pub face_down: Vec<usize>,
    /// Piles turned face up when the deal empties the stock.
    pub face_up_when_stock_empties: Vec<usize>,
}

/// What a redeal needs beyond an empty stock and a round to spare.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum RedealNeeds {
    /// A card in the piles it gathers.
    CardsToGather,
    /// A game not yet won.
    GameNotWon,
}

/// A click on the empty stock: gather `gather` (in turn, face down) into a new stock.
#[derive(Deserialize, Clone, Debug)]
pub struct Redeal {
    pub gather: Vec<usize>,
    pub needs: RedealNeeds,
    /// Whether the new round's deal follows at once.
    pub deal_after: bool,
}

/// What a click on the stock does.
#[derive(Deserialize, Clone, Debug)]
pub struct StockClick {
    /// The stock may be clicked only once the base rank is chosen.
    pub needs_base: bool,
    /// The deals by round (the last one whose `from_round` is reached applies).
    pub deals: Vec<Deal>,
    pub redeal: Option<Redeal>,
}

/// A cheaper test of whether the stock may be clicked.
#[derive(Deserialize, Clone, Copy, Debug)]
pub enum CanDeal {
    /// The stock has cards (games without redeals).
    StockHasCards,
}

/// Effects of a card move.
#[derive(Deserialize, Clone, Debug)]
pub enum AfterMove {
    /// The first card played to a foundation sets the base rank.
    ChooseBase,
    /// One of `piles` emptied by a move at once gets up to `count` cards from the stock.
    Refill { piles: Vec<usize>, count: usize },
}

/// A game in one ruleset, as the kernel runs it.
#[derive(Deserialize, Clone, Debug)]
pub struct Spec {
    pub kinds: Vec<Kind>,
    pub stock: usize,
    pub total_cards: usize,
    pub redeals: u32,
    pub foundations: Vec<Foundation>,
    pub sources: Vec<Source>,
    pub targets: Vec<Target>,
    pub permits: Option<Permits>,
    pub stock_click: StockClick,
    pub can_deal: Option<CanDeal>,
    pub after_move: Option<AfterMove>,
    /// The order in which the target rules name the piles that want cards (made from them).
    #[serde(skip)]
    pub wanting: WantOrder,
}

/// The piles the target rules that want cards name (`FoundationsTakeNext`, `BuildsOn`), in
/// the order the rules name them: pile `pile[n]` is the `n`-th and `place[pile[n]] == n`.
/// Move generation keeps the piles that want a card as bits of their places, so that it
/// lists them in this order.
#[derive(Clone, Debug, Default)]
pub struct WantOrder {
    pub place: [u8; MAX_PILES],
    pub pile: [u8; MAX_PILES],
}

impl WantOrder {
    /// The order of `spec`'s target rules; an error if they name a pile twice.
    fn of(spec: &Spec) -> Result<WantOrder, String> {
        let mut order = WantOrder::default();
        let (mut named, mut count) = (0u32, 0usize);
        for target in &spec.targets {
            let piles: Vec<usize> = match target {
                Target::FoundationsTakeNext => spec.foundations.iter().map(|f| f.pile).collect(),
                Target::BuildsOn { piles, .. } => piles.clone(),
                Target::EmptyPilesTakeAny { .. } => continue,
            };
            for pile in piles {
                if has(named, pile) {
                    return Err(format!("pile {pile} is named twice by the target rules that want cards"));
                }
                named |= 1 << pile;
                (order.place[pile], order.pile[count]) = (count as u8, pile as u8);
                count += 1;
            }
        }
        Ok(order)
    }
}

impl Spec {
    /// Reads a spec from its JSON text and checks its pile indices.
    pub fn from_json(text: &str) -> Result<Spec, String> {
        let mut spec: Spec = serde_json::from_str(text).map_err(|error| error.to_string())?;
        spec.check()?;
        spec.wanting = WantOrder::of(&spec)?;
        Ok(spec)
    }

    /// The pile kinds and every pile index the spec names are consistent.
    fn check(&self) -> Result<(), String> {
        let piles = self.kinds.len();
        if piles == 0 || piles > MAX_PILES {
            return Err(format!("{piles} piles: a game has 1 to {MAX_PILES}"));
        }
        let mut named: Vec<usize> = vec![self.stock];
        named.extend(self.foundations.iter().map(|f| f.pile));
        for source in &self.sources {
            match source {
                Source::TopCards { piles }
                | Source::EveryCardOfFaceUpPiles { piles }
                | Source::Runs { piles, .. }
                | Source::TopCardAndWholeRun { piles, .. } => named.extend(piles),
                Source::StockTop { pile } => named.push(*pile),
            }
        }
        for target in &self.targets {
            match target {
                Target::FoundationsTakeNext => {}
                Target::BuildsOn { piles, .. } | Target::EmptyPilesTakeAny { piles } => named.extend(piles),
            }
        }
        if let Some(permits) = &self.permits {
            for clause in &permits.clauses {
                for test in clause.when.iter().chain(&clause.then) {
                    test.piles(&mut named);
                }
            }
        }
        let click = &self.stock_click;
        if click.deals.is_empty() {
            return Err("a stock click needs at least one deal".into());
        }
        for deal in &click.deals {
            named.extend(deal.order.iter().chain(&deal.face_down).chain(&deal.face_up_when_stock_empties));
        }
        if let Some(redeal) = &click.redeal {
            named.extend(&redeal.gather);
        }
        if let Some(AfterMove::Refill { piles, .. }) = &self.after_move {
            named.extend(piles);
        }
        match named.iter().find(|&&pile| pile >= piles) {
            Some(pile) => Err(format!("pile index {pile} out of range (the game has {piles} piles)")),
            None => Ok(()),
        }
    }

    /// The deal of a stock click in `round`.
    pub fn deal_in(&self, round: u32) -> &Deal {
        let deals = &self.stock_click.deals;
        deals.iter().rev().find(|deal| deal.from_round <= round).unwrap_or(&deals[0])
    }
}

impl Test {
    fn piles(&self, named: &mut Vec<usize>) {
        match self {
            Test::Empty { piles } => named.extend(piles),
            Test::Not(test) => test.piles(named),
            _ => {}
        }
    }
}
