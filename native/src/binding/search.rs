//! `kibitz_native.Search`: the solver's search over a kernel, for one policy.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::time::{Duration, Instant};

use super::Kernel;
use crate::board::Board;
use crate::search::policy::{Canonical, PolicySpec};
use crate::search::{Limits, Outcome, Searcher};

/// The native search of one game's policy (declared by the policy's native counterpart).
#[pyclass(frozen, module = "kibitz_native")]
pub struct Search {
    kernel: Py<Kernel>,
    policy: Canonical,
}

/// The least time between two questions whether to stop (Ctrl-C, or a stop asked of the thread).
const STOP_POLL: Duration = Duration::from_millis(50);

/// A search's answer: outcome, moves, reason, nodes, distinct positions, seconds, peak table.
type Answer<'py> = (&'static str, Bound<'py, PyTuple>, Option<&'static str>, u64, u64, f64, u64);

#[pymethods]
impl Search {
    /// The search of the policy `spec` (JSON, see `kibitz.solver.native_search`) over `kernel`.
    #[new]
    fn new(kernel: Py<Kernel>, spec: &str) -> PyResult<Self> {
        let policy: PolicySpec = serde_json::from_str(spec).map_err(|error| PyValueError::new_err(error.to_string()))?;
        let game = kernel.get().spec.clone();
        let policy = Canonical::new(game, policy).map_err(PyValueError::new_err)?;
        Ok(Search { kernel, policy })
    }

    /// A self-check of the search's keys (see `Searcher::reused_key_mismatches`): walks up
    /// to `steps` moves from `state`; the moves walked and the keys made from reused pile
    /// hashes, or before the position is made, that differ from keys made from scratch.
    fn reused_key_mismatches(&self, state: &Bound<'_, PyAny>, steps: usize) -> PyResult<(usize, usize)> {
        let board = self.kernel.get().read(state)?.with_position(|position| Ok(Board::new(position.piles, position.round, position.base)))?;
        let mut stop = || false;
        let searcher = Searcher { full: &self.policy, stop: &mut stop };
        Ok(searcher.reused_key_mismatches(&board, steps))
    }

    /// Decides `state` as `kibitz.solver` does (first pass and full search) within the
    /// limits (`seconds` of the thread's processor time with `cpu`, else of the time that
    /// passes), a winning line with its loops cut out; `requested()` is asked at each clock
    /// reading whether Ctrl-C came.
    #[pyo3(signature = (state, seconds, nodes, table, cpu, requested))]
    #[allow(clippy::too_many_arguments)] // the arguments of the Python call
    fn solve<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        seconds: Option<f64>,
        nodes: Option<u64>,
        table: u64,
        cpu: bool,
        requested: &Bound<'py, PyAny>,
    ) -> PyResult<Answer<'py>> {
        let kernel = self.kernel.get();
        let board = kernel.read(state)?.with_position(|position| Ok(Board::new(position.piles, position.round, position.base)))?;
        let requested = requested.clone().unbind();
        let policy = &self.policy;
        // The search runs without the interpreter's lock, so that searches in other threads
        // run at the same time; each clock reading takes the lock to ask whether to stop.
        let (result, error) = py.detach(|| {
            let mut error: Option<PyErr> = None;
            let mut asked = Instant::now();
            let mut stop = || {
                // Taking the lock may wait for another thread's turn: asked at most every
                // STOP_POLL, not at every clock reading.
                if asked.elapsed() < STOP_POLL {
                    return false;
                }
                asked = Instant::now();
                Python::attach(|py| match py.check_signals().and_then(|()| requested.call0(py)?.is_truthy(py)) {
                    Ok(stop) => stop,
                    Err(raised) => {
                        error = Some(raised);
                        true
                    }
                })
            };
            let mut searcher = Searcher { full: policy, stop: &mut stop };
            let mut result = searcher.solve(&board, Limits { seconds, nodes, table, cpu });
            if result.outcome == Outcome::Won {
                result.moves = searcher.without_loops(&board, &result.moves);
            }
            (result, error)
        });
        if let Some(error) = error {
            return Err(error);
        }
        let outcome = match result.outcome {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Unknown => "unknown",
        };
        let moves = kernel.move_tuple(py, &result.moves)?;
        Ok((outcome, moves, result.reason, result.nodes, result.states, result.seconds, result.peak_table))
    }
}
