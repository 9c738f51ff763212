//! Permits: the ordered clauses that check each candidate move beyond what targets want.

use crate::position::Position;
use crate::spec::{Permits, Spec, Test};

/// A candidate move: `count` cards from pile `source` onto pile `target`.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub source: usize,
    pub target: usize,
    pub count: usize,
}

impl Permits {
    /// Whether the first clause that applies to `candidate` permits it (a move no clause
    /// applies to is permitted).
    pub fn permit(&self, spec: &Spec, position: &Position, candidate: Candidate) -> bool {
        for clause in &self.clauses {
            if clause.when.iter().all(|test| test.holds(spec, position, candidate)) {
                return clause.then.iter().all(|test| test.holds(spec, position, candidate));
            }
        }
        true
    }
}

impl Test {
    /// Whether the test holds for `candidate` in `position`.
    pub fn holds(&self, spec: &Spec, position: &Position, candidate: Candidate) -> bool {
        match self {
            Test::BaseUnset => position.base.is_none(),
            Test::SourceIn { kinds } => kinds.contains(spec.kinds[candidate.source]),
            Test::TargetIn { kinds } => kinds.contains(spec.kinds[candidate.target]),
            Test::TargetEmpty => position.piles[candidate.target].is_empty(),
            Test::OneCard => candidate.count == 1,
            Test::WholePile => candidate.count == position.piles[candidate.source].len(),
            Test::Empty { piles } => piles.iter().all(|&pile| position.piles[pile].is_empty()),
            Test::Not(test) => !test.holds(spec, position, candidate),
            Test::Never => false,
        }
    }
}
