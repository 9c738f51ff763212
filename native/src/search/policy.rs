//! How the search treats a game: canonical keys, move order, safe moves, split points.
//!
//! The counterparts of the Python policies in `kibitz.solver.policies`, declared there as
//! typed data beside each policy class and read here as a [`PolicySpec`]. Each must answer
//! exactly as its Python policy does: the same keys up to equality, the same moves in the
//! same order, the same safe moves, so that a node-limited search is the same step by step.

use serde::Deserialize;
use smallvec::SmallVec;

use crate::board::Board;
use crate::cards::IDENTITY;
use crate::generate::{generate, CardMove, Move, MoveList};
use crate::search::grand_duchess::GrandDuchess;
use crate::search::table::{self, Key};
use crate::search::tournament::Tournament;
use crate::spec::{has, mask, Kind, Spec, MAX_PILES};

/// When a group of piles (the tableau, the reserve) is interchangeable, so that keys sort it.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Interchangeable {
    Always,
    Never,
    /// Once the stock is empty.
    WhenStockEmpty,
    /// Once the stock is empty and no redeal is left.
    WhenNoDealRemains,
}

/// The move order of a policy.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveOrder {
    /// Foundation moves first, deals last, otherwise the rules' order.
    Plain,
    /// Cicely's classes (to foundations, builds and cells, transfers, from foundations, the
    /// deal), with its cells (and, once the stock is empty, its columns) interchangeable.
    Cicely,
    /// Kingsdown Eights's classes, with its columns interchangeable and rule R.
    KingsdownEights,
    /// Tournament's: foundation moves, useful transfers, cell moves that dig, the deal,
    /// other cell moves.
    Tournament,
    /// Grand Duchess's: the last round's cover when there is one, else moves from a
    /// foundation after the others and the deal last.
    GrandDuchess,
}

/// The safe moves of a policy (played without branching).
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum SafeMoves {
    /// A card to its foundation once both cards of the other colour one rank below it are
    /// on the foundations (counted from the base rank).
    Duchess,
    /// A card to a foundation where it would be dead.
    KingsdownEights,
    /// Tournament's cell cards and last-round column tops that fit a gap or an overlap.
    Tournament,
    /// Grand Duchess's last-round covers of one move.
    GrandDuchess,
}

/// The quick proofs of loss of a policy.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proofs {
    /// Tournament's: nothing left to deal and a suit that can never move again.
    Tournament,
    /// Grand Duchess's: in the last round, a tableau card that can never be played.
    GrandDuchess,
    /// Duchess's, where the rules keep the order of a tableau pile's cards
    /// (`PolicySpec::tableau_order_kept`): the order the cards must reach their foundations
    /// in goes round in a circle (Python's `order_deadlocked`).
    Duchess,
}

/// The random playouts of a policy's probe (Grand Duchess's `probe`).
#[derive(Deserialize, Clone, Debug)]
pub struct Playouts {
    /// Moves a probe plays (whole playouts, so a little more).
    pub steps: u64,
    /// Per playout in turn: the chance of dealing while a card could be played.
    pub holds: Vec<f64>,
}

/// What a policy's probe plays.
pub enum Probe<'a> {
    Dives(&'a Dives),
    Playouts(&'a GrandDuchess, &'a Playouts),
}

/// The heuristic dives of a policy's probe (Tournament's `probe`).
#[derive(Deserialize, Clone, Debug)]
pub struct Dives {
    /// Dives per probe.
    pub dives: u32,
    /// Most moves in a dive.
    pub length: u32,
    /// Chances that a dive leaves the move order, varied from dive to dive.
    pub skips: Vec<f64>,
    /// A dive that leaves the move order takes one of the next `width - 1` moves.
    pub width: u32,
}

/// The caps of a first pass that cuts short the search below each new round (Tournament's
/// `CappedRounds`), for its first attempt; attempt `k` multiplies them by `2^k`.
#[derive(Deserialize, Clone, Copy, Debug)]
pub struct CappedRounds {
    pub last_round_nodes: u64,
    pub round_nodes: u64,
}

/// Where the search splits (tries each first move with a growing node budget).
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Split {
    /// While no base rank is chosen.
    BaseUnset,
}

/// The settings of a policy's first pass, as its Python class declares them
/// (`kibitz.solver.policy.FirstPass`, sent whole): every field is read, and a spec with a
/// field this struct does not know is refused, so that no setting goes unread.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct FirstPass {
    /// Share of the limits given to the first pass.
    pub share: f64,
    /// Node budget of the first attempt; none: one attempt.
    pub budget: Option<u64>,
    /// Growth of the node budget from one attempt to the next.
    pub growth: f64,
    /// The growth once the first pass has searched `late_growth_from` nodes, if another.
    pub late_growth: Option<f64>,
    /// Nodes the first pass searches before `late_growth` applies.
    pub late_growth_from: u64,
    /// The largest node budget of an attempt.
    pub most: Option<u64>,
    /// Whether the first pass is the digging one (else, where the policy has them, capped rounds).
    pub digs: bool,
    /// Whether the digging attempts after the first play random lines instead of digging.
    pub random_restarts: bool,
    /// Share of a digging attempt's node budget after which it abandons the search below a deal.
    pub deal_cap: Option<f64>,
    /// Share of a digging attempt's node budget after which it abandons the search below a
    /// redeal, in odd attempts only.
    pub redeal_cap: Option<f64>,
    /// Share of what an enclosing capped subtree has left that a capped subtree inside it
    /// gets at most, once the first pass has searched `nested_from` nodes.
    pub nested_cap: Option<f64>,
    /// Nodes the first pass searches before `nested_cap` applies.
    pub nested_from: u64,
    /// Nodes of the first look at each end game below a capped deal in a digging attempt, if any.
    pub look: Option<u64>,
    /// Nodes the first pass searches before `look` applies.
    pub look_from: u64,
    /// How many fewer cards on the foundations than the best look so far a look may reach
    /// and still go on.
    pub look_margin: i64,
    /// Whether the digging pass plays a move between two non-empty tableau piles only when
    /// it uncovers a card some foundation takes now.
    pub uncovers: bool,
    /// Whether the capped first pass plays as if `PolicySpec::foundations_final` held
    /// (declared by the Tournament policy).
    pub foundations_final: bool,
}

/// A canonical policy as its Python counterpart declares it.
#[derive(Deserialize, Clone, Debug)]
pub struct PolicySpec {
    pub tableau: Interchangeable,
    pub reserve: Interchangeable,
    /// Pairs of foundations whose order the key drops.
    pub same_suit_pairs: Vec<(usize, usize)>,
    pub order: MoveOrder,
    pub safe: Option<SafeMoves>,
    pub splits: Option<Split>,
    /// The settings of the first pass (Python's `Policy.first_pass_settings`).
    pub first_pass: FirstPass,
    /// The piles whose depth to a wanted card orders the digging moves.
    pub dig_sources: Vec<usize>,
    #[serde(default)]
    pub proofs: Option<Proofs>,
    #[serde(default)]
    pub dives: Option<Dives>,
    #[serde(default)]
    pub playouts: Option<Playouts>,
    /// The first pass of capped rounds (when the policy does not dig first).
    #[serde(default)]
    pub capped_rounds: Option<CappedRounds>,
    /// No card ever leaves the foundations but onto another (the game's rules declare it).
    #[serde(default)]
    pub foundations_final: bool,
    /// A foundation's top card may move onto the other foundation of its suit.
    #[serde(default)]
    pub foundation_transfers: bool,
    /// The cards of a tableau pile keep their order: one leaves a pile of two or more only
    /// to a foundation, or with the whole pile.
    #[serde(default)]
    pub tableau_order_kept: bool,
}

/// What the search asks of a policy.
pub trait Policy {
    /// The canonical policy whose keys this policy's positions take (`Canonical::key`):
    /// itself, or the full policy a pass of the search runs over.
    fn keys(&self) -> &Canonical;
    /// The moves to try, most promising first.
    fn ordered_moves(&self, board: &Board, moves: &mut MoveList);
    /// A move to play without branching.
    fn safe_move(&self, board: &Board) -> Option<Move>;
    /// Whether the position is proved lost by a quick static argument.
    fn is_hopeless(&self, _board: &Board) -> bool {
        false
    }
    /// Whether the search should split at this position.
    fn splits_at(&self, board: &Board) -> bool;
    /// Most nodes the search may expand below `child` (reached from `parent`) before it
    /// abandons it, or `None` for no cap of its own (a first pass's only).
    fn subtree_budget(&self, _parent: &Board, _child: &Board) -> Option<u64> {
        None
    }
    /// Whether the search asks [`Policy::subtree_budget`].
    fn caps_subtrees(&self) -> bool {
        false
    }
    /// The share of what the innermost capped subtree holding a position has left that a
    /// capped subtree below it gets at most (Python's `Policy.nested_cap`), if any.
    fn nested_cap(&self) -> Option<f64> {
        None
    }
    /// Nodes of a first look below `child` (reached from `parent`, where a capped subtree
    /// begins), if any (Python's `Policy.look_budget`).
    fn look_budget(&self, _parent: &Board, _child: &Board) -> Option<u64> {
        None
    }
    /// How many fewer cards on the foundations than the best look so far a look may reach
    /// and still go on (Python's `Policy.look_margin`).
    fn look_margin(&self) -> i64 {
        0
    }
    /// How far a board got, for a look: its cards on the foundations (Python's
    /// `Policy.look_score`).
    fn look_score(&self, board: &Board) -> i64 {
        board.on_foundations(&self.keys().game) as i64
    }
    /// What the search plays as probes, if anything (the full policy's only).
    fn probe(&self) -> Option<Probe<'_>> {
        None
    }
}

/// Odd factors, one per place in a group of piles that are not interchangeable (see
/// `Canonical::key_of`): place `k`'s factor has splitmix64's outputs of `2k` and
/// `2k + 1` as its high and low halves, with the lowest bit set.
const PLACE_FACTORS: [u128; MAX_PILES] = odd_factors(0);
/// Odd factors of the parts of a key (see `Canonical::key_of`): the stock's hash, the
/// waste's, the tableau's sum and the reserve's, made as [`PLACE_FACTORS`] are, from the
/// places after theirs.
const PART_FACTORS: [u128; 4] = odd_factors(MAX_PILES as u64);

/// `N` odd factors, the `k`-th with splitmix64's outputs of `2 (first + k)` and
/// `2 (first + k) + 1` as its high and low halves, with the lowest bit set.
const fn odd_factors<const N: usize>(first: u64) -> [u128; N] {
    const fn splitmix(n: u64) -> u64 {
        let mut z = n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let mut factors = [0u128; N];
    let mut k = 0;
    while k < N {
        let n = 2 * (first + k as u64);
        factors[k] = ((splitmix(n) as u128) << 64 | splitmix(n + 1) as u128) | 1;
        k += 1;
    }
    factors
}

/// The hash of each pile of a board (`table::hash` of its cards) that a key is made from;
/// the search keeps them for the boards on its path, so that a child's key hashes only the
/// piles its moves changed.
pub type PileHashes = [Key; MAX_PILES];

/// Appends the moves of `ranked` to `moves` by class, lowest first, each class in its order
/// in `ranked` (a stable sort by class; classes are below 8).
fn extend_by_class(moves: &mut MoveList, ranked: &[(u8, Move)]) {
    // Where each class starts among the new moves: the counts of the classes before it.
    let mut start = [0usize; 8];
    ranked.iter().for_each(|&(class, _)| start[usize::from(class)] += 1);
    let mut sum = moves.len();
    for slot in &mut start {
        (*slot, sum) = (sum, sum + *slot);
    }
    moves.resize(sum, Move::Deal);
    for &(class, mv) in ranked {
        let at = &mut start[usize::from(class)];
        moves[*at] = mv;
        *at += 1;
    }
}

/// The full canonical policy of a game (`CanonicalPolicy` and its subclasses).
pub struct Canonical {
    pub game: Spec,
    pub spec: PolicySpec,
    foundations: Vec<usize>,
    foundation_set: u32,
    tableau: Vec<usize>,
    tableau_set: u32,
    reserve: Vec<usize>,
    reserve_set: u32,
    waste: Option<usize>,
    single: Vec<usize>,
    suit_piles: [SmallVec<[usize; 2]>; 4],
    /// Reserve, waste and tableau piles in layout order (Duchess's safe-move sources).
    duchess_sources: Vec<usize>,
    /// Group numbers of the interchangeable piles each move order asks for.
    cells_alike: Vec<u8>,
    cells_and_columns_alike: Vec<u8>,
    columns_alike: Vec<u8>,
    /// The Tournament policy's tables, when its move order, safe moves or proofs are asked for.
    pub tournament: Option<Tournament>,
    /// The Grand Duchess policy's tables, likewise.
    pub grand_duchess: Option<GrandDuchess>,
    /// The twin that plays as if the foundations were final, for the first pass
    /// (`FirstPass::foundations_final` where the rules let cards leave them).
    as_final: Option<Box<Canonical>>,
    /// The piles whose cards enter the key (stock, waste, tableau, reserve): their hashes do.
    hashed: Vec<usize>,
    /// The same piles, as a mask.
    hashed_set: u32,
    /// The digging first pass's sources (`PolicySpec::dig_sources`), as a mask.
    pub dig_source_set: u32,
}

impl Canonical {
    /// The policy `spec` over the game `game`.
    pub fn new(game: Spec, spec: PolicySpec) -> Result<Canonical, String> {
        let piles = game.kinds.len();
        let of_kind = |kind: Kind| -> Vec<usize> { (0..piles).filter(|&k| game.kinds[k] == kind).collect() };
        let foundations: Vec<usize> = game.foundations.iter().map(|f| f.pile).collect();
        let (tableau, reserve) = (of_kind(Kind::Tableau), of_kind(Kind::Reserve));
        let named = spec.same_suit_pairs.iter().flat_map(|&(a, b)| [a, b]).chain(spec.dig_sources.iter().copied());
        if let Some(pile) = named.clone().find(|&pile| pile >= piles) {
            return Err(format!("policy names pile {pile}, beyond the game's {piles}"));
        }
        if foundations.len() > 12 {
            // Their heights, the round, the base and a flag byte fill the 16 bytes `key_of` packs.
            return Err(format!("a key holds at most 12 foundations' heights; the game has {}", foundations.len()));
        }
        let paired = mask(spec.same_suit_pairs.iter().flat_map(|&(a, b)| [a, b]));
        let mut suit_piles: [SmallVec<[usize; 2]>; 4] = Default::default();
        for f in &game.foundations {
            suit_piles[usize::from(f.suit % 4)].push(f.pile);
        }
        let groups = |first: &[usize], second: &[usize]| -> Vec<u8> {
            let mut groups = vec![0u8; piles];
            second.iter().for_each(|&pile| groups[pile] = 2);
            first.iter().for_each(|&pile| groups[pile] = 1);
            groups
        };
        let wants_tournament = spec.order == MoveOrder::Tournament
            || spec.safe == Some(SafeMoves::Tournament)
            || spec.proofs == Some(Proofs::Tournament)
            || spec.capped_rounds.is_some();
        let tournament = if wants_tournament { Some(Tournament::new(&game, spec.foundations_final)?) } else { None };
        let wants_grand_duchess = spec.order == MoveOrder::GrandDuchess
            || spec.safe == Some(SafeMoves::GrandDuchess)
            || spec.proofs == Some(Proofs::GrandDuchess)
            || spec.playouts.is_some();
        let as_final = if spec.first_pass.foundations_final && !spec.foundations_final {
            let first_pass = FirstPass { foundations_final: false, ..spec.first_pass.clone() };
            let twin = PolicySpec { foundations_final: true, first_pass, ..spec.clone() };
            Some(Box::new(Canonical::new(game.clone(), twin)?))
        } else {
            None
        };
        let grand_duchess = if wants_grand_duchess {
            Some(GrandDuchess::new(&game, spec.foundations_final, spec.foundation_transfers)?)
        } else {
            None
        };
        let waste = (0..piles).find(|&k| game.kinds[k] == Kind::Waste);
        let hashed: Vec<usize> = std::iter::once(game.stock).chain(waste).chain(tableau.iter().copied()).chain(reserve.iter().copied()).collect();
        Ok(Canonical {
            dig_source_set: mask(spec.dig_sources.iter().copied()),
            hashed_set: mask(hashed.iter().copied()),
            hashed,
            as_final,
            tournament,
            grand_duchess,
            foundation_set: mask(foundations.iter().copied()),
            single: foundations.iter().copied().filter(|&f| !has(paired, f)).collect(),
            tableau_set: mask(tableau.iter().copied()),
            reserve_set: mask(reserve.iter().copied()),
            waste: (0..piles).find(|&k| game.kinds[k] == Kind::Waste),
            duchess_sources: (0..piles)
                .filter(|&k| matches!(game.kinds[k], Kind::Reserve | Kind::Waste | Kind::Tableau))
                .collect(),
            cells_alike: groups(&reserve, &[]),
            cells_and_columns_alike: groups(&reserve, &tableau),
            columns_alike: groups(&tableau, &[]),
            foundations,
            tableau,
            reserve,
            suit_piles,
            game,
            spec,
        })
    }

    /// Whether a group of piles under `rule` is interchangeable, with the stock empty or
    /// not and in round `round`.
    fn interchangeable(&self, rule: Interchangeable, stock_empty: bool, round: u32) -> bool {
        match rule {
            Interchangeable::Always => true,
            Interchangeable::Never => false,
            Interchangeable::WhenStockEmpty => stock_empty,
            Interchangeable::WhenNoDealRemains => stock_empty && round > self.game.redeals,
        }
    }

    /// The key of `board`: equal for positions that are the same for winning purposes (a
    /// 128-bit hash of their canonical form; see [`crate::search::table`]).
    pub fn key(&self, board: &Board) -> Key {
        let mut hashes = [0; MAX_PILES];
        self.key_reusing(board, &[0; MAX_PILES], u32::MAX, &mut hashes)
    }

    /// The key of `board`, hashing only the piles in `changed` (a pile mask) and taking the
    /// other piles' hashes from `known` (those of a board that differs from this one in
    /// those piles at most); every pile's hash goes into `hashes`.
    pub fn key_reusing(&self, board: &Board, known: &PileHashes, changed: u32, hashes: &mut PileHashes) -> Key {
        for &k in &self.hashed {
            hashes[k] = if has(changed, k) { table::hash(board.pile(k)) } else { known[k] };
        }
        self.key_of(hashes, |k| board.pile(k).len(), board.round, board.base)
    }

    /// The key of the board `mv` makes from `board` (before any safe move), made without
    /// making that board: from `known`, the hashes of `board`'s piles, and the piles `mv`
    /// changes (built in `scratch`); every hashed pile's hash goes into `hashes`. `None`
    /// for a deal (then `hashes` holds nothing useful).
    pub fn key_after(
        &self,
        board: &Board,
        mv: Move,
        known: &PileHashes,
        hashes: &mut PileHashes,
        scratch: &mut Vec<u8>,
    ) -> Option<Key> {
        let Move::Cards(mv) = mv else { return None };
        let (mut lengths, mut changed) = ([0u16; MAX_PILES], 0u32);
        for &k in &self.hashed {
            hashes[k] = known[k];
        }
        let base = board.each_pile_after_cards(&self.game, mv, scratch, |k, cards| {
            lengths[k] = cards.len() as u16;
            changed |= 1 << k;
            if has(self.hashed_set, k) {
                hashes[k] = table::hash(cards);
            }
        })?;
        let length = |k: usize| if has(changed, k) { usize::from(lengths[k]) } else { board.pile(k).len() };
        Some(self.key_of(hashes, length, board.round, base))
    }

    /// The key of a position from its piles' `hashes` (of the hashed piles), each pile's
    /// length, its round and its base rank (see [`Canonical::key`]): the foundations' heights
    /// (a same-suit pair's in either order), the round, the base and which groups are
    /// interchangeable, packed into 16 bytes and hashed, plus the stock's and the waste's
    /// hashes and each group's sum, each times its part's odd factor (the parts' factors
    /// differ, so a pile's hash that changes part changes the key).
    fn key_of(&self, hashes: &PileHashes, length: impl Fn(usize) -> usize, round: u32, base: Option<u8>) -> Key {
        let mut small = 0u128;
        let mut pack = |byte: u8| small = small << 8 | u128::from(byte);
        self.single.iter().for_each(|&f| pack(length(f) as u8));
        for &(first, second) in &self.spec.same_suit_pairs {
            let (a, b) = (length(first) as u8, length(second) as u8);
            pack(a.min(b));
            pack(a.max(b));
        }
        pack(round as u8);
        pack(base.unwrap_or(255));
        let stock_empty = length(self.game.stock) == 0;
        let tableau_alike = self.interchangeable(self.spec.tableau, stock_empty, round);
        let reserve_alike = self.interchangeable(self.spec.reserve, stock_empty, round);
        pack(u8::from(tableau_alike) | u8::from(reserve_alike) << 1);
        let group = |piles: &[usize], alike: bool| -> u128 {
            if alike {
                // The sum of the piles' hashes is the same in any order of the piles.
                piles.iter().fold(0u128, |sum, &k| sum.wrapping_add(hashes[k]))
            } else {
                // Each pile's hash times its place's odd factor: a different pile in any
                // one place changes the sum (odd factors are invertible modulo 2^128).
                piles.iter().zip(PLACE_FACTORS).fold(0u128, |sum, (&k, factor)| sum.wrapping_add(hashes[k].wrapping_mul(factor)))
            }
        };
        let waste = self.waste.map_or(0, |waste| hashes[waste]);
        let parts = [hashes[self.game.stock], waste, group(&self.tableau, tableau_alike), group(&self.reserve, reserve_alike)];
        parts.iter().zip(PART_FACTORS).fold(table::hash(&small.to_le_bytes()), |key, (&part, factor)| key.wrapping_add(part.wrapping_mul(factor)))
    }

    /// The moves of `board` (with `alike` groups of interchangeable piles).
    pub fn legal_moves(&self, board: &Board, alike: &[u8], moves: &mut MoveList) {
        board.with_position(|position| generate(&self.game, position, alike, moves));
    }

    /// The policy a capped first pass plays: the twin as if the foundations were final, or
    /// this one.
    pub fn first_pass_policy(&self) -> &Canonical {
        self.as_final.as_deref().unwrap_or(self)
    }

    /// The Tournament policy's tables (made whenever the spec asks for any of its parts).
    pub fn tournament(&self) -> &Tournament {
        self.tournament.as_ref().expect("made by Canonical::new for a Tournament spec")
    }

    /// The Grand Duchess policy's tables (made whenever the spec asks for any of its parts).
    pub fn grand_duchess(&self) -> &GrandDuchess {
        self.grand_duchess.as_ref().expect("made by Canonical::new for a Grand Duchess spec")
    }

    /// Whether `pile` is a tableau pile.
    #[inline]
    pub fn is_tableau(&self, pile: usize) -> bool {
        has(self.tableau_set, pile)
    }

    /// Whether `pile` is a foundation.
    #[inline]
    pub fn is_foundation(&self, pile: usize) -> bool {
        has(self.foundation_set, pile)
    }

    fn plain_order(&self, board: &Board, moves: &mut MoveList) {
        self.legal_moves(board, &[], moves);
        moves.sort_by_key(|mv| match mv {
            Move::Deal => 2,
            Move::Cards(m) => {
                if self.is_foundation(m.source.into()) || !self.is_foundation(m.target.into()) {
                    1
                } else {
                    0
                }
            }
        });
    }

    fn cicely_order(&self, board: &Board, moves: &mut MoveList) {
        const TO_FOUNDATION: u8 = 0;
        const BUILD: u8 = 1;
        const TRANSFER: u8 = 2;
        const FROM_FOUNDATION: u8 = 3;
        const DEAL_LAST: u8 = 4;
        let columns_alike = board.pile(self.game.stock).is_empty();
        let alike = if columns_alike { &self.cells_and_columns_alike } else { &self.cells_alike };
        let mut legal = MoveList::new();
        self.legal_moves(board, alike, &mut legal);
        let mut ranked: SmallVec<[(u8, Move); 64]> = SmallVec::new();
        for &mv in &legal {
            let Move::Cards(m) = mv else {
                ranked.push((DEAL_LAST, mv));
                continue;
            };
            let (source, target) = (usize::from(m.source), usize::from(m.target));
            let from_foundation = self.is_foundation(source);
            if from_foundation {
                let suit = usize::from(board.pile(source)[board.pile(source).len() - 1] / 13) % 4;
                let complete: usize = self.suit_piles[suit].iter().map(|&f| board.pile(f).len()).sum();
                if complete == 26 {
                    continue; // complete suit
                }
                if self.is_foundation(target) {
                    ranked.push((TRANSFER, mv));
                    continue;
                }
            }
            let other = if from_foundation { FROM_FOUNDATION } else { BUILD };
            if self.is_foundation(target) {
                ranked.push((TO_FOUNDATION, mv));
            } else if has(self.reserve_set, target) {
                if has(self.reserve_set, source) {
                    continue; // cell to cell: same key
                }
                ranked.push((other, mv));
            } else if board.pile(target).is_empty() {
                if columns_alike && has(self.tableau_set, source) && board.pile(source).len() == 1 {
                    continue; // a lone card to another empty column: same key
                }
                ranked.push((other, mv));
            } else {
                ranked.push((other, mv));
            }
        }
        extend_by_class(moves, &ranked);
    }

    /// `(m(black), m(red))`: the shortest foundation of each colour (Kingsdown Eights).
    fn thresholds(&self, board: &Board) -> (i32, i32) {
        let shortest = |suits: [usize; 2]| -> i32 {
            suits.iter().flat_map(|&s| self.suit_piles[s].iter()).map(|&f| board.pile(f).len() as i32).min().unwrap_or(0)
        };
        (shortest([0, 1]), shortest([2, 3]))
    }

    /// Whether nothing from play could ever be built on `card` (Kingsdown Eights's rule R).
    fn is_dead(card: u8, thresholds: (i32, i32)) -> bool {
        let rank = i32::from(card % 13);
        let colour = (card & IDENTITY) / 26;
        let (mine, other) = if colour == 0 { (thresholds.0, thresholds.1) } else { (thresholds.1, thresholds.0) };
        rank <= other && rank - 1 <= mine
    }

    fn kingsdown_order(&self, board: &Board, moves: &mut MoveList) {
        const TO_FOUNDATION: u8 = 0;
        const FROM_RESERVE: u8 = 1;
        const BUILD: u8 = 2;
        const TO_EMPTY: u8 = 3;
        const FROM_FOUNDATION: u8 = 4;
        const DEAL_LAST: u8 = 5;
        let thresholds = self.thresholds(board);
        let mut legal = MoveList::new();
        self.legal_moves(board, &self.columns_alike, &mut legal);
        let mut ranked: SmallVec<[(u8, Move); 64]> = SmallVec::new();
        for &mv in &legal {
            let Move::Cards(m) = mv else {
                ranked.push((DEAL_LAST, mv));
                continue;
            };
            let (source, target) = (usize::from(m.source), usize::from(m.target));
            if self.is_foundation(source) {
                if self.is_foundation(target) {
                    continue; // transfer: same key
                }
                let top = board.pile(source)[board.pile(source).len() - 1];
                if Self::is_dead(top, thresholds) {
                    continue; // rule R
                }
                ranked.push((FROM_FOUNDATION, mv));
            } else if self.is_foundation(target) {
                ranked.push((TO_FOUNDATION, mv));
            } else if board.pile(target).is_empty() {
                if has(self.tableau_set, source) && board.pile(source).len() == 1 {
                    continue; // a lone card to another empty column: same key
                }
                ranked.push((TO_EMPTY, mv));
            } else {
                ranked.push((if has(self.reserve_set, source) { FROM_RESERVE } else { BUILD }, mv));
            }
        }
        extend_by_class(moves, &ranked);
    }

    fn duchess_safe(&self, board: &Board) -> Option<Move> {
        let base = i32::from(board.base?);
        for &i in &self.duchess_sources {
            let Some(&top) = board.pile(i).last() else { continue };
            let card = top & IDENTITY;
            let suit = usize::from(card / 13);
            let target = *self.foundations.get(suit)?;
            let foundation = board.pile(target);
            let height = foundation.len();
            if height == 0 || height >= 13 || (foundation[height - 1] + 1) % 13 != card % 13 {
                continue;
            }
            let relative = (i32::from(card % 13) - base).rem_euclid(13);
            let others = if suit >= 2 { [0, 1] } else { [2, 3] };
            if others.iter().all(|&s| self.foundations.get(s).is_some_and(|&f| board.pile(f).len() as i32 >= relative)) {
                return Some(Move::Cards(CardMove { source: i as u8, target: target as u8, count: 1, index: None }));
            }
        }
        None
    }

    /// Whether the cards of the tableau piles of two or more must reach their foundations
    /// in an order that goes round in a circle: each card before the one below it, and
    /// before the next card of its suit among them (counted up from the base). Python's
    /// `order_deadlocked`, the same topological sort over card identities.
    fn order_deadlocked(&self, board: &Board) -> bool {
        const NONE: u8 = u8::MAX;
        let Some(base) = board.base else { return false };
        // Without a base card under another card, every demand goes up by rank: no circle.
        let crossing = |&pile: &usize| {
            let cards = board.pile(pile);
            cards.len() >= 2 && cards[..cards.len() - 1].iter().any(|&card| (card & IDENTITY) % 13 == base)
        };
        if !self.tableau.iter().any(crossing) {
            return false;
        }
        let mut below = [NONE; 52];
        let mut next_of_suit = [NONE; 52];
        // Per suit, the cards met by their rank counted from the base (bit = relative rank).
        let mut ranks = [0u16; 4];
        let mut met = 0u64;
        // How many cards each card waits on: the one above it, the one before it in its suit.
        let mut waiting = [0u8; 52];
        for &pile in &self.tableau {
            let cards = board.pile(pile);
            if cards.len() < 2 {
                continue;
            }
            let mut under = NONE;
            for &card in cards {
                let card = card & IDENTITY;
                debug_assert!(card < 52, "Duchess's proof is for one pack");
                below[usize::from(card)] = under;
                if under != NONE {
                    waiting[usize::from(under)] += 1;
                }
                met |= 1 << card;
                ranks[usize::from(card / 13)] |= 1 << ((card % 13 + 13 - base) % 13);
                under = card;
            }
        }
        for (suit, &of_suit) in ranks.iter().enumerate() {
            let mut left = of_suit;
            let card_of = |relative: u32| (suit as u32 * 13 + (relative + u32::from(base)) % 13) as u8;
            let mut lower = NONE;
            while left != 0 {
                let card = card_of(left.trailing_zeros());
                left &= left - 1;
                if lower != NONE {
                    next_of_suit[usize::from(lower)] = card;
                    waiting[usize::from(card)] += 1;
                }
                lower = card;
            }
        }
        // A stack of the cards nothing waits on any more: each card enters it at most once.
        let (mut ready, mut size) = ([0u8; 52], 0usize);
        for card in (0..52u8).filter(|&card| met & (1 << card) != 0 && waiting[usize::from(card)] == 0) {
            ready[size] = card;
            size += 1;
        }
        let mut placed = 0u32;
        while size > 0 {
            size -= 1;
            let card = ready[size];
            placed += 1;
            for after in [below[usize::from(card)], next_of_suit[usize::from(card)]] {
                if after != NONE {
                    waiting[usize::from(after)] -= 1;
                    if waiting[usize::from(after)] == 0 {
                        ready[size] = after;
                        size += 1;
                    }
                }
            }
        }
        placed < met.count_ones()
    }

    fn kingsdown_safe(&self, board: &Board) -> Option<Move> {
        // The cards some foundation takes now (suit * 13 + rank, as bits), and the thresholds.
        let (mut wanted, mut shortest) = (0u64, [i32::MAX; 2]);
        for (suit, piles) in self.suit_piles.iter().enumerate() {
            for &f in piles {
                let height = board.pile(f).len();
                if height < 13 {
                    wanted |= 1 << (suit * 13 + height);
                }
                shortest[suit / 2] = shortest[suit / 2].min(height as i32);
            }
        }
        let thresholds = (shortest[0], shortest[1]);
        for &i in self.tableau.iter().chain(&self.reserve) {
            let Some(&top) = board.pile(i).last() else { continue };
            let card = top & IDENTITY;
            let (suit, rank) = (usize::from(card / 13) % 4, usize::from(card % 13));
            if wanted & (1 << (suit * 13 + rank)) == 0 || !Self::is_dead(card, thresholds) {
                continue;
            }
            let f = *self.suit_piles[suit].iter().find(|&&f| board.pile(f).len() == rank)?;
            return Some(Move::Cards(CardMove { source: i as u8, target: f as u8, count: 1, index: None }));
        }
        None
    }
}

impl Policy for Canonical {
    fn keys(&self) -> &Canonical {
        self
    }

    fn ordered_moves(&self, board: &Board, moves: &mut MoveList) {
        match self.spec.order {
            MoveOrder::Plain => self.plain_order(board, moves),
            MoveOrder::Cicely => self.cicely_order(board, moves),
            MoveOrder::KingsdownEights => self.kingsdown_order(board, moves),
            MoveOrder::Tournament => {
                let mut legal = MoveList::new();
                self.legal_moves(board, &[], &mut legal);
                self.tournament().ordered_moves(board, &legal, moves);
            }
            MoveOrder::GrandDuchess => {
                let grand_duchess = self.grand_duchess();
                match grand_duchess.cover(board) {
                    Some(cover) => moves.extend(cover),
                    None => {
                        let mut legal = MoveList::new();
                        self.legal_moves(board, &[], &mut legal);
                        grand_duchess.order(&legal, moves);
                    }
                }
            }
        }
    }

    fn safe_move(&self, board: &Board) -> Option<Move> {
        match self.spec.safe? {
            SafeMoves::Duchess => self.duchess_safe(board),
            SafeMoves::KingsdownEights => self.kingsdown_safe(board),
            SafeMoves::Tournament => self.tournament().safe_move(board),
            SafeMoves::GrandDuchess => self.grand_duchess().safe_move(board),
        }
    }

    fn is_hopeless(&self, board: &Board) -> bool {
        match self.spec.proofs {
            Some(Proofs::Tournament) => self.tournament().is_hopeless(board),
            Some(Proofs::GrandDuchess) => self.grand_duchess().is_hopeless(board),
            Some(Proofs::Duchess) => self.spec.tableau_order_kept && self.order_deadlocked(board),
            None => false,
        }
    }

    fn probe(&self) -> Option<Probe<'_>> {
        match (&self.spec.dives, &self.spec.playouts) {
            (Some(dives), _) => Some(Probe::Dives(dives)),
            (None, Some(playouts)) => Some(Probe::Playouts(self.grand_duchess(), playouts)),
            (None, None) => None,
        }
    }

    fn splits_at(&self, board: &Board) -> bool {
        match self.spec.splits {
            Some(Split::BaseUnset) => board.base.is_none(),
            None => false,
        }
    }
}
