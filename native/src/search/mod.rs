//! The solver's search, natively: the same depth-first search as `kibitz.solver.search`
//! (a transposition table of canonical keys, safe moves played without branching, split
//! points, the first pass with restarts (digging, or capped rounds), probes), step by step,
//! so that a node-limited solve gives the same outcome, moves and counters as the Python
//! solver.

pub mod capped;
pub mod clock;
pub mod digging;
mod dives;
pub mod grand_duchess;
mod line;
pub mod noise;
mod playouts;
pub mod policy;
pub mod random;
pub mod table;
pub mod tournament;

use smallvec::SmallVec;

use crate::apply::apply;
use crate::board::Board;
use crate::generate::{Move, MoveList};
use crate::spec::{AfterMove, MAX_PILES};
use capped::Capped;
use clock::Clock;
use digging::Digging;
use policy::{Canonical, PileHashes, Policy, Probe};
use table::{Key, Table};

/// Nodes between clock readings (and the caller's check for Ctrl-C).
pub const TIME_CHECK_EVERY: u64 = 512;
/// Node budget of each alternative in the first pass of a split search; it grows fourfold.
const FIRST_BUDGET: u64 = 2_000;
/// The most positions a first pass's table holds (Python's `FIRST_PASS_TABLE`): when its
/// attempts' shared table is full, the pass forgets them and goes on, whatever the
/// search's own table limit.
pub const FIRST_PASS_TABLE: u64 = 4_000_000;

/// Budgets of one search (`None`: no limit of that kind).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub seconds: Option<f64>,
    pub nodes: Option<u64>,
    /// Distinct positions the transposition table may hold.
    pub table: u64,
    /// Whether `seconds` counts the thread's processor time instead of the time that passes
    /// (see [`Clock`]); the result's seconds are on the same clock.
    pub cpu: bool,
}

/// The verdict of a search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Won,
    Lost,
    Unknown,
}

/// Why a search stopped undecided.
pub mod reasons {
    pub const TIME_LIMIT: &str = "time limit";
    pub const NODE_LIMIT: &str = "node limit";
    pub const MEMORY_LIMIT: &str = "memory limit";
    pub const INTERRUPTED: &str = "interrupted";
    pub const FIRST_PASS_EXHAUSTED: &str = "first pass exhausted";
    /// A search that abandoned capped subtrees (`Policy::subtree_budget`).
    pub const SUBTREE_CAP: &str = "subtree cap";
}

/// What a search found, with its counters.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub outcome: Outcome,
    pub moves: Vec<Move>,
    pub reason: Option<&'static str>,
    pub nodes: u64,
    pub states: u64,
    pub seconds: f64,
    pub peak_table: u64,
}

impl SearchResult {
    /// This result of a search that followed `earlier` in one solve, with the counters of
    /// both: nodes, positions and seconds added, the larger peak of the table (Python's
    /// `SolveResult.following`).
    fn following(self, earlier: &SearchResult) -> SearchResult {
        SearchResult {
            nodes: self.nodes + earlier.nodes,
            states: self.states + earlier.states,
            seconds: self.seconds + earlier.seconds,
            peak_table: self.peak_table.max(earlier.peak_table),
            ..self
        }
    }
}

/// The moves from one position on the search path to the next: the move tried and the safe
/// moves after it.
type Line = SmallVec<[Move; 8]>;

/// What the search needs besides a policy: the game's rules, and a check for Ctrl-C.
pub struct Searcher<'a> {
    pub full: &'a Canonical,
    /// Asked at every clock reading: whether to stop now (Ctrl-C).
    pub stop: &'a mut dyn FnMut() -> bool,
}

/// The counters of a search made of parts, and its clock (Python's `Budget`).
struct Spent {
    started: Clock,
    nodes: u64,
    states: u64,
    peak: u64,
}

impl Spent {
    fn start(cpu: bool) -> Spent {
        Spent { started: Clock::start(cpu), nodes: 0, states: 0, peak: 0 }
    }

    /// Counts a part's nodes and positions, and its table's peak.
    fn add(&mut self, part: &SearchResult) {
        self.nodes += part.nodes;
        self.states += part.states;
        self.peak = self.peak.max(part.peak_table);
    }

    /// The result of the whole search, with the parts' counters and the time since it started.
    fn result(&self, outcome: Outcome, moves: Vec<Move>, reason: Option<&'static str>) -> SearchResult {
        SearchResult {
            outcome,
            moves,
            reason,
            nodes: self.nodes,
            states: self.states,
            seconds: self.started.elapsed(),
            peak_table: self.peak,
        }
    }
}

/// The first pass's series of attempts from one board (Python's `_Attempts`): its budget,
/// its attempt count, and the table its attempts share.
struct Attempts {
    start: Board,
    /// The moves from the first pass's board to `start`.
    line: Vec<Move>,
    /// The most positions the attempts' shared table holds.
    table: u64,
    budget: Option<u64>,
    attempt: u64,
    finished: Option<Table>,
    /// An attempt abandoned a subtree since the shared table was last cleared.
    abandoned: bool,
    /// Whether the series has another attempt to make.
    going_on: bool,
    /// Why the last attempt ended undecided.
    reason: &'static str,
}

/// The best look of a first pass so far (Python's `Looks`), which its attempts share.
#[derive(Default)]
pub struct Looks {
    /// The most cards on the foundations any look has reached.
    best: i64,
}

impl Looks {
    /// Whether a look that reached `score` goes on: it reached the best less `margin` (the
    /// best is raised to `score` either way).
    fn goes_on(&mut self, score: i64, margin: i64) -> bool {
        let on = score + margin >= self.best;
        self.best = self.best.max(score);
        on
    }
}

impl Attempts {
    fn new(full: &Canonical, start: Board, line: Vec<Move>, table: u64) -> Attempts {
        Attempts {
            start,
            line,
            table,
            budget: full.spec.first_pass.budget,
            attempt: 0,
            finished: None,
            abandoned: false,
            going_on: true,
            reason: reasons::NODE_LIMIT,
        }
    }
}

impl Searcher<'_> {
    fn apply(&self, board: &Board, mv: Move) -> Board {
        let mut after = Board::default();
        self.apply_into(board, mv, &mut after);
        after
    }

    /// Makes `out` the board after `mv`, reusing its buffers.
    fn apply_into(&self, board: &Board, mv: Move, out: &mut Board) {
        let done = match mv {
            Move::Cards(cards) => board.after_cards_into(&self.full.game, cards, out),
            Move::Deal => board.after_click_into(&self.full.game, out),
        };
        if done {
            return;
        }
        board.with_position(|position| {
            let edit = apply(&self.full.game, position, mv).expect("only legal moves are applied");
            board.after_into(&edit, out);
        })
    }

    /// Makes `board` the board after `mv`, with `spare` as the buffers to build it in.
    fn advance(&self, board: &mut Board, mv: Move, spare: &mut Board) {
        self.apply_into(board, mv, spare);
        std::mem::swap(board, spare);
    }

    /// The piles `mv` may change (a mask): its source and target, and the stock where an
    /// emptied pile is refilled from it; every pile for a click on the stock.
    fn changed_by(&self, mv: Move) -> u32 {
        match mv {
            Move::Deal => u32::MAX,
            Move::Cards(m) => {
                let refill = match self.full.game.after_move {
                    Some(AfterMove::Refill { .. }) => 1 << self.full.game.stock,
                    _ => 0,
                };
                1 << m.source | 1 << m.target | refill
            }
        }
    }

    /// A self-check of the keys the search makes from reused pile hashes: walks up to
    /// `steps` moves from `board` (in turn: the full policy's first move; at step `k` the
    /// move at place `7919 k` of its order, counted round; a move that leaves the fewest
    /// cards in its source pile, so that piles empty and games refill them), and returns
    /// the moves walked and how many keys differed from the key made from scratch: of each
    /// position reached, the key from the parent's pile hashes and, where the policy makes
    /// one, the key made before the position is (`Canonical::key_after`); 0 when all agree.
    pub fn reused_key_mismatches(&self, board: &Board, steps: usize) -> (usize, usize) {
        let policy = self.full;
        let mut scratch = Vec::new();
        let mut known: PileHashes = [0; MAX_PILES];
        policy.keys().key_reusing(board, &[0; MAX_PILES], u32::MAX, &mut known);
        let mut board = board.clone();
        let mut moves = MoveList::new();
        let (mut walked, mut mismatches) = (0, 0);
        for step in 0..steps {
            moves.clear();
            policy.ordered_moves(&board, &mut moves);
            if moves.is_empty() {
                break;
            }
            // Cards a move leaves in its source pile (a deal: as many as there are).
            let left = |mv: &Move| match mv {
                Move::Cards(m) => board.pile(m.source.into()).len() - usize::from(m.count),
                Move::Deal => usize::MAX,
            };
            let mv = match step % 3 {
                0 => moves[0],
                1 => moves[step.wrapping_mul(7919) % moves.len()],
                _ => *moves.iter().min_by_key(|mv| left(mv)).expect("moves to walk"),
            };
            let mut hashes: PileHashes = [0; MAX_PILES];
            let before = policy.keys().key_after(&board, mv, &known, &mut hashes, &mut scratch);
            board = self.apply(&board, mv);
            walked += 1;
            let from_scratch = policy.keys().key(&board);
            if before.is_some_and(|key| key != from_scratch) {
                mismatches += 1;
            }
            let reused = policy.keys().key_reusing(&board, &known, self.changed_by(mv), &mut hashes);
            if reused != from_scratch {
                mismatches += 1;
            }
            known = hashes;
        }
        (walked, mismatches)
    }

    /// Whether the board `mv` makes from `board` has key `key` and no safe move (the
    /// debug builds' check of a child skipped by its key before safe moves).
    fn settled_as(&self, policy: &dyn Policy, board: &Board, mv: Move, key: Option<Key>) -> bool {
        let child = self.apply(board, mv);
        Some(policy.keys().key(&child)) == key && policy.safe_move(&child).is_none()
    }

    fn is_won(&self, board: &Board) -> bool {
        board.is_won(&self.full.game)
    }

    /// Plays safe moves until none is left: the board reached and the moves played.
    fn settle(&self, policy: &dyn Policy, board: &Board) -> (Board, Vec<Move>) {
        let mut board = board.clone();
        let mut played = Vec::new();
        while let Some(mv) = policy.safe_move(&board) {
            board = self.apply(&board, mv);
            played.push(mv);
        }
        (board, played)
    }

    /// Decides `board` as `kibitz.solver._solve` does: the first pass with its share of the
    /// budget (when the policy digs first or caps rounds), then the full search with the rest.
    pub fn solve(&mut self, board: &Board, limits: Limits) -> SearchResult {
        let full = self.full;
        if !full.spec.first_pass.digs && full.spec.capped_rounds.is_none() {
            return self.search(board, full, limits, None, None);
        }
        let share = full.spec.first_pass.share;
        let first = self.first_pass(board, Limits {
            seconds: limits.seconds.map(|s| s * share),
            nodes: limits.nodes.map(|n| ((n as f64 * share) as u64).max(1)),
            ..limits
        });
        if first.outcome == Outcome::Won || first.reason == Some(reasons::INTERRUPTED) {
            return first;
        }
        let rest = Limits {
            seconds: limits.seconds.map(|s| (s - first.seconds).max(1e-3)),
            nodes: limits.nodes.map(|n| n.saturating_sub(first.nodes).max(1)),
            ..limits
        };
        self.search(board, full, rest, None, None).following(&first)
    }

    /// The first pass: attempts with a node budget growing by the policy's
    /// `FirstPass::growth` (up to its `FirstPass::most`), until one wins, one ends before its
    /// budget, or the limits are reached; an attempt that abandoned capped subtrees is
    /// followed by the next one (with the same budget), and one that found nothing left but
    /// what the attempts abandoned by the next one with their table cleared. Where the
    /// settled board splits, each board where the split is made (`split_leaves`) starts a
    /// series of its own, the series take turns, one attempt each, and their tables share
    /// the first pass's limit equally (Python's `first_pass`).
    fn first_pass(&mut self, board: &Board, limits: Limits) -> SearchResult {
        let table = limits.table.min(FIRST_PASS_TABLE);
        let mut spent = Spent::start(limits.cpu);
        let mut series = match self.split_leaves(board) {
            None => vec![Attempts::new(self.full, board.clone(), Vec::new(), table)],
            Some(leaves) => {
                let share = (table / (leaves.len() as u64).max(1)).max(1);
                leaves.into_iter().map(|(line, leaf)| Attempts::new(self.full, leaf, line, share)).collect()
            }
        };
        let mut reason = reasons::NODE_LIMIT;
        let mut looks = Looks::default(); // the series share the best look
        while !series.is_empty() {
            let mut going_on = Vec::with_capacity(series.len());
            for mut attempts in series {
                let part = match self.attempt(&mut attempts, &mut spent, limits, &mut looks) {
                    Err(reason) => return spent.result(Outcome::Unknown, Vec::new(), Some(reason)),
                    Ok(part) => part,
                };
                if part.outcome == Outcome::Won {
                    let moves = attempts.line.iter().copied().chain(part.moves).collect();
                    return spent.result(Outcome::Won, moves, None);
                }
                if matches!(part.reason, Some(reasons::TIME_LIMIT | reasons::INTERRUPTED)) {
                    return spent.result(Outcome::Unknown, Vec::new(), part.reason);
                }
                reason = attempts.reason;
                if attempts.going_on {
                    going_on.push(attempts);
                }
            }
            series = going_on;
        }
        spent.result(Outcome::Unknown, Vec::new(), Some(reason))
    }

    /// The boards below `board` where its split is made, each with the moves to it, or
    /// `None` where `board` does not split (Python's `split_leaves`): the moves of a split
    /// board lead to boards that split no more, or split again and are followed in turn; a
    /// position met twice counts once; depth first, in the policy's order of the moves.
    fn split_leaves(&self, board: &Board) -> Option<Vec<(Vec<Move>, Board)>> {
        let policy = self.full;
        let (root, prelude) = self.settle(policy, board);
        if self.is_won(&root) || !policy.splits_at(&root) {
            return None;
        }
        let mut leaves = Vec::new();
        let mut met = Table::default();
        met.insert(policy.keys().key(&root));
        let skip = prelude.len();
        self.follow_split(&root, &root, skip, prelude, &mut met, &mut leaves);
        Some(leaves)
    }

    /// The leaves below the split board `position`, reached from the first split board
    /// `root` by `line` (after its first `skip` moves, the safe moves to `root`; see
    /// `split_leaves`).
    fn follow_split(
        &self,
        root: &Board,
        position: &Board,
        skip: usize,
        line: Vec<Move>,
        met: &mut Table,
        leaves: &mut Vec<(Vec<Move>, Board)>,
    ) {
        let policy = self.full;
        let mut moves = MoveList::new();
        policy.ordered_moves(position, &mut moves);
        for &mv in moves.iter() {
            let child = self.apply(position, mv);
            let (settled, played) = self.settle(policy, &child);
            let key = policy.keys().key(&settled);
            if !met.insert(key) {
                continue;
            }
            let mut next = line.clone();
            next.push(mv);
            if !self.is_won(&settled) && policy.splits_at(&settled) {
                next.extend(played);
                self.follow_split(root, &settled, skip, next, met, leaves);
            } else if !self.reached_first(root, &line[skip..], mv, key) {
                leaves.push((next, child));
            }
        }
    }

    /// Whether the leaf `key`, reached from `root` by `between` and then `last`, is also
    /// reached with `last` played earlier, after only the first `k` of `between` (Python's
    /// `reached_first`).
    fn reached_first(&self, root: &Board, between: &[Move], last: Move, key: Key) -> bool {
        let policy = self.full;
        let mut moves = MoveList::new();
        (0..between.len()).any(|k| {
            let mut position = root.clone();
            for &mv in between[..k].iter().chain([last].iter()).chain(&between[k..]) {
                moves.clear();
                policy.ordered_moves(&position, &mut moves);
                if !moves.contains(&mv) {
                    return false;
                }
                position = self.apply(&position, mv);
            }
            policy.keys().key(&self.settle(policy, &position).0) == key
        })
    }

    /// Makes the next attempt of `series` within what `spent` leaves of `limits`, and counts
    /// it there: its result, or the limit reached before it could start.
    fn attempt(&mut self, series: &mut Attempts, spent: &mut Spent, limits: Limits, looks: &mut Looks) -> Result<SearchResult, &'static str> {
        let seconds = spent.started.left(limits.seconds);
        let left = limits.nodes.map(|n| n as i64 - spent.nodes as i64);
        if seconds.is_some_and(|s| s <= 0.0) {
            return Err(reasons::TIME_LIMIT);
        }
        if left.is_some_and(|l| l <= 0) {
            return Err(reasons::NODE_LIMIT);
        }
        let left = left.map(|l| l as u64);
        let (budget, attempt) = (series.budget, series.attempt);
        let cap = match (budget, left) {
            (None, left) => left,
            (Some(budget), None) => Some(budget),
            (Some(budget), Some(left)) => Some(budget.min(left)),
        };
        let (digging, capped);
        let quick: &dyn Policy = match self.full.spec.capped_rounds {
            Some(caps) if !self.full.spec.first_pass.digs => {
                capped = Capped::new(self.full.first_pass_policy(), caps, attempt);
                &capped
            }
            _ => {
                // `cap` and the shares as Python computes them: int(nodes * share), the
                // redeal cap in odd attempts only.
                let of = |share: Option<f64>| share.zip(cap).map(|(share, nodes)| (nodes as f64 * share) as u64);
                let settings = &self.full.spec.first_pass;
                let redeal_share = settings.redeal_cap.filter(|_| attempt % 2 == 1);
                let (deal_cap, redeal_cap) = (of(settings.deal_cap), of(redeal_share));
                let nested_cap = settings.nested_cap.filter(|_| spent.nodes >= settings.nested_from);
                let look = settings.look.filter(|_| spent.nodes >= settings.look_from);
                digging = Digging { full: self.full, attempt, deal_cap, redeal_cap, nested_cap, look };
                &digging
            }
        };
        // The positions the attempts searched through without a win, in one table (the
        // digging pass's only: its attempts share their moves, Python's
        // `Policy.attempts_share_moves`); when it is full, the series forgets them.
        if series.finished.is_none() && self.full.spec.first_pass.digs {
            series.finished = Some(Table::default());
        }
        let remembered = series.finished.as_ref().map_or(0, |table| table.len());
        let part_limits = Limits { seconds, nodes: cap, table: series.table, ..limits };
        let part = self.search(&series.start, quick, part_limits, series.finished.as_mut(), Some(looks));
        spent.add(&part);
        if part.outcome == Outcome::Won {
            return Ok(part);
        }
        series.reason = part.reason.unwrap_or(reasons::FIRST_PASS_EXHAUSTED);
        let capped = part.reason == Some(reasons::SUBTREE_CAP);
        // The attempts' shared table is full: forget what they searched through, go on.
        let full = remembered > 0 && part.reason == Some(reasons::MEMORY_LIMIT);
        // Nothing left but what the attempts abandoned: forget it all and look again, deeper.
        let exhausted = series.abandoned && part.outcome == Outcome::Lost;
        if let (true, Some(table)) = (full || exhausted, series.finished.as_mut()) {
            table.clear();
            series.abandoned = false;
        }
        series.abandoned = series.abandoned || (capped && series.finished.is_some());
        let restart = capped
            || full
            || exhausted
            || match (budget, cap) {
                (Some(budget), Some(cap)) => {
                    part.outcome != Outcome::Lost && part.reason == Some(reasons::NODE_LIMIT) && cap >= budget
                }
                _ => false,
            };
        if !restart {
            series.going_on = false;
            return Ok(part);
        }
        series.attempt += 1;
        if !capped {
            let settings = &self.full.spec.first_pass;
            let most = settings.most.unwrap_or(u64::MAX);
            let growth = settings.late_growth.filter(|_| spent.nodes >= settings.late_growth_from).unwrap_or(settings.growth);
            series.budget = budget.map(|b| ((b as f64 * growth) as u64).min(most));
        }
        Ok(part)
    }

    /// A search of `board` under `policy`: split where the policy says, else one depth-first
    /// search. `finished`, when given, holds the keys of positions that earlier searches with
    /// the same moves searched through without a win (Python's `search`): skipped as
    /// positions met before are; this search adds those it searches through, but not those
    /// still on its path when it stops. `looks`, when given, holds the best look of the first
    /// pass so far: where a capped subtree begins with a look (`Policy::look_budget`), the
    /// search goes on past the look only where it put at least as many cards on the
    /// foundations as that best, less the policy's margin (Python's `search`).
    fn search(&mut self, board: &Board, policy: &dyn Policy, limits: Limits, finished: Option<&mut Table>, looks: Option<&mut Looks>) -> SearchResult {
        let (root, prelude) = self.settle(policy, board);
        if !self.is_won(&root) && policy.splits_at(&root) {
            return self.split_search(&root, prelude, policy, limits, finished, looks);
        }
        self.depth_first(board, policy, limits, finished, looks)
    }

    /// Tries each move of `root` with a node budget that grows fourfold per pass, each with
    /// its own complete search (own table); lost when every alternative is. Given
    /// `finished` (a first pass's), the alternatives share it and prove nothing.
    fn split_search(
        &mut self,
        root: &Board,
        prelude: Vec<Move>,
        policy: &dyn Policy,
        limits: Limits,
        mut finished: Option<&mut Table>,
        mut looks: Option<&mut Looks>,
    ) -> SearchResult {
        let mut spent = Spent::start(limits.cpu);
        let mut first = MoveList::new();
        policy.ordered_moves(root, &mut first);
        let mut alternatives: Vec<(Move, Board)> = first.into_iter().map(|mv| (mv, self.apply(root, mv))).collect();
        let mut budget = FIRST_BUDGET;
        while !alternatives.is_empty() {
            let mut still_open = Vec::new();
            for (mv, child) in alternatives {
                let seconds = spent.started.left(limits.seconds);
                if seconds.is_some_and(|s| s <= 0.0) {
                    return spent.result(Outcome::Unknown, Vec::new(), Some(reasons::TIME_LIMIT));
                }
                let left = limits.nodes.map(|n| n as i64 - spent.nodes as i64);
                if left.is_some_and(|l| l <= 0) {
                    return spent.result(Outcome::Unknown, Vec::new(), Some(reasons::NODE_LIMIT));
                }
                let cap = left.map_or(budget, |l| budget.min(l as u64));
                let part = self.depth_first(&child, policy, Limits { seconds, nodes: Some(cap), ..limits }, finished.as_deref_mut(), looks.as_deref_mut());
                spent.add(&part);
                match part.outcome {
                    Outcome::Won => {
                        let moves = prelude.iter().copied().chain([mv]).chain(part.moves).collect();
                        return spent.result(Outcome::Won, moves, None);
                    }
                    Outcome::Unknown => {
                        if part.reason != Some(reasons::NODE_LIMIT) || cap < budget {
                            return spent.result(Outcome::Unknown, Vec::new(), part.reason);
                        }
                        still_open.push((mv, child));
                    }
                    Outcome::Lost => {}
                }
            }
            alternatives = still_open;
            budget *= 4;
        }
        spent.result(Outcome::Lost, Vec::new(), None)
    }

    /// Probe `attempt` from `root` (`Policy::probe`): a winning line if found, and the moves
    /// played, which the search counts as nodes.
    fn probe(&self, policy: &dyn Policy, probe: Probe, root: &Board, attempt: u64) -> (Option<Vec<Move>>, u64) {
        match probe {
            Probe::Dives(dives) => self.dive(policy, dives, root, attempt),
            Probe::Playouts(grand_duchess, playouts) => self.playouts(grand_duchess, playouts, root, attempt),
        }
    }

    /// Depth-first search with one transposition table.
    fn depth_first(
        &mut self,
        board: &Board,
        policy: &dyn Policy,
        limits: Limits,
        finished: Option<&mut Table>,
        looks: Option<&mut Looks>,
    ) -> SearchResult {
        /// A position on the search path: its moves are `stack[start..end]`, `next` the one
        /// to try; past `abandon_after` nodes the innermost capped subtree holding it is abandoned.
        struct Frame {
            board: Board,
            start: usize,
            end: usize,
            next: usize,
            line: Line,
            abandon_after: Option<u64>,
            /// The hashes of the board's piles, for its children's keys.
            hashes: PileHashes,
            key: Key,
            /// Where a look begins, while it lasts: the node count its subtree is abandoned
            /// past when the look goes on.
            promote_to: Option<u64>,
        }
        let started = Clock::start(limits.cpu);
        let carries = finished.is_some();
        let mut own = Table::default();
        let seen: &mut Table = finished.unwrap_or(&mut own);
        let known = seen.len() as u64;
        let mut nodes = 0u64;
        let mut stack: Vec<Move> = Vec::with_capacity(1024);
        let done = |outcome, moves, reason, nodes, seen: &Table| SearchResult {
            outcome,
            moves,
            reason,
            nodes,
            states: seen.len() as u64 - known,
            seconds: started.elapsed(),
            peak_table: seen.len() as u64,
        };
        // Stopped undecided: with `finished` given, the positions still on the path, and
        // `open` (a position counted but not searched), leave the table.
        let stopped = |reason, nodes, seen: &mut Table, frames: &[Frame], open: Option<Key>| {
            let result = done(Outcome::Unknown, Vec::new(), Some(reason), nodes, seen);
            if carries {
                frames.iter().map(|f| f.key).chain(open).for_each(|key| {
                    seen.remove(&key);
                });
            }
            result
        };
        let (root, prelude) = self.settle(policy, board);
        if self.is_won(&root) {
            return done(Outcome::Won, prelude, None, nodes, seen);
        }
        let mut root_hashes = [0; MAX_PILES];
        let root_key = policy.keys().key_reusing(&root, &[0; MAX_PILES], u32::MAX, &mut root_hashes);
        seen.insert(root_key);
        if policy.is_hopeless(&root) {
            return done(Outcome::Lost, Vec::new(), None, nodes, seen);
        }
        let caps = policy.caps_subtrees();
        let nested = policy.nested_cap();
        let mut own_looks = Looks::default();
        let looks = looks.unwrap_or(&mut own_looks);
        let mut looking = false; // a look is under way: the frame where it began has `promote_to`
        let mut look_best = 0i64; // the most cards on the foundations of its boards
        let mut abandoned = false;
        let mut probes = 0u64;
        if let Some(probe) = policy.probe() {
            let (found, played) = self.probe(policy, probe, &root, probes);
            nodes = played;
            if let Some(found) = found {
                return done(Outcome::Won, prelude.into_iter().chain(found).collect(), None, nodes, seen);
            }
        }
        let mut moves = MoveList::new();
        policy.ordered_moves(&root, &mut moves);
        stack.extend_from_slice(&moves);
        let root_line = Line::from_slice(&prelude);
        // Boards of frames popped and of children not kept, whose buffers the next children reuse.
        let mut pool: Vec<Board> = Vec::new();
        let mut spare = Board::default();
        let mut hashes: PileHashes = [0; MAX_PILES];
        let mut scratch = Vec::with_capacity(128);
        let mut frames = vec![Frame { board: root, start: 0, end: stack.len(), next: 0, line: root_line, abandon_after: None, hashes: root_hashes, key: root_key, promote_to: None }];
        nodes += 1;
        while let Some(frame) = frames.last_mut() {
            if let Some(mark) = frame.abandon_after.filter(|&mark| nodes > mark) {
                let bottom = frames.iter().rposition(|f| f.abandon_after != Some(mark)).map_or(0, |k| k + 1);
                if let Some(promote_to) = frames[bottom].promote_to.take() {
                    // A look ends.
                    looking = false;
                    if looks.goes_on(look_best, policy.look_margin()) {
                        frames[bottom..].iter_mut().for_each(|f| f.abandon_after = Some(promote_to));
                        continue;
                    }
                }
                while let Some(inner) = frames.pop_if(|f| f.abandon_after == Some(mark)) {
                    looking &= inner.promote_to.is_none();
                    stack.truncate(inner.start);
                    pool.push(inner.board);
                }
                abandoned = true;
                continue;
            }
            if frame.start + frame.next >= frame.end {
                stack.truncate(frame.start);
                if let Some(done) = frames.pop() {
                    looking &= done.promote_to.is_none();
                    pool.push(done.board);
                }
                continue;
            }
            let mv = stack[frame.start + frame.next];
            frame.next += 1;
            // A child whose key (before safe moves) is in the table is a position met before,
            // where no safe move is played (the table keeps only such positions, and whether
            // a safe move exists is the same for positions of one key, as
            // tests/solver/test_key_symmetry.py checks): skipped unmade.
            let before_safe = policy.keys().key_after(&frame.board, mv, &frame.hashes, &mut hashes, &mut scratch);
            if before_safe.is_some_and(|key| seen.contains(&key)) {
                debug_assert!(self.settled_as(policy, &frame.board, mv, before_safe), "a child skipped by its key before safe moves");
                continue;
            }
            let mut child = pool.pop().unwrap_or_default();
            self.apply_into(&frame.board, mv, &mut child);
            let mut line = Line::from_elem(mv, 1);
            let mut changed = self.changed_by(mv);
            while let Some(safe) = policy.safe_move(&child) {
                self.advance(&mut child, safe, &mut spare);
                line.push(safe);
                changed |= self.changed_by(safe);
            }
            if self.is_won(&child) {
                let path = frames.iter().flat_map(|f| f.line.iter().copied()).chain(line).collect();
                return done(Outcome::Won, path, None, nodes, seen);
            }
            let key = match before_safe {
                Some(key) if line.len() == 1 => key, // no safe move: `hashes` are the child's
                _ => policy.keys().key_reusing(&child, &frame.hashes, changed, &mut hashes),
            };
            debug_assert_eq!(key, policy.keys().key(&child), "a key made from reused pile hashes");
            if !seen.insert(key) {
                pool.push(child);
                continue;
            }
            if seen.len() as u64 > limits.table {
                seen.remove(&key); // the table was full: the position is not kept
                return stopped(reasons::MEMORY_LIMIT, nodes, seen, &frames, None);
            }
            if policy.is_hopeless(&child) {
                pool.push(child);
                continue;
            }
            nodes += 1;
            if nodes.is_multiple_of(TIME_CHECK_EVERY) {
                if started.passed(limits.seconds) {
                    return stopped(reasons::TIME_LIMIT, nodes, seen, &frames, Some(key));
                }
                if (self.stop)() {
                    return stopped(reasons::INTERRUPTED, nodes, seen, &frames, Some(key));
                }
                if let Some(probe) = policy.probe() {
                    probes += 1;
                    let (found, played) = self.probe(policy, probe, &frames[0].board, probes);
                    nodes += played;
                    if let Some(found) = found {
                        return done(Outcome::Won, prelude.into_iter().chain(found).collect(), None, nodes, seen);
                    }
                }
            }
            if limits.nodes.is_some_and(|limit| nodes >= limit) {
                return stopped(reasons::NODE_LIMIT, nodes, seen, &frames, Some(key));
            }
            if looking {
                look_best = look_best.max(policy.look_score(&child));
            }
            let frame = frames.last().expect("the frame whose move was tried");
            let mut abandon_after = frame.abandon_after;
            let mut promote_to = None;
            if caps {
                if let Some(mut budget) = policy.subtree_budget(&frame.board, &child) {
                    if let (Some(after), Some(share)) = (abandon_after, nested) {
                        // As Python computes it: int(max(0, after - nodes) * share).
                        budget = budget.min((after.saturating_sub(nodes) as f64 * share) as u64);
                    }
                    let until = nodes.saturating_add(budget);
                    if abandon_after.is_none_or(|after| until < after) {
                        abandon_after = Some(until);
                    }
                    if let Some(look) = policy.look_budget(&frame.board, &child) {
                        let until = nodes.saturating_add(look);
                        if abandon_after.is_none_or(|after| until < after) {
                            (promote_to, abandon_after) = (abandon_after, Some(until));
                            looking = true;
                            look_best = policy.look_score(&child);
                        }
                    }
                }
            }
            moves.clear();
            policy.ordered_moves(&child, &mut moves);
            let start = stack.len();
            stack.extend_from_slice(&moves);
            frames.push(Frame { board: child, start, end: stack.len(), next: 0, line, abandon_after, hashes, key, promote_to });
        }
        if abandoned {
            return done(Outcome::Unknown, Vec::new(), Some(reasons::SUBTREE_CAP), nodes, seen);
        }
        done(Outcome::Lost, Vec::new(), None, nodes, seen)
    }
}
