//! The Python face of the kernel: `kibitz_native.Kernel`, one per game and ruleset.
//!
//! A kernel reads kibitz's `State` in place (its piles are `bytes`, read without copying),
//! runs the rules in Rust and answers with Python values: the game's own shared `Move`
//! objects (made once by `Game.move` and kept) and new `State` objects whose unchanged piles
//! are the very `bytes` objects of the state before. Each call converts at the boundary
//! once, never per card.
//!
//! No Python code runs while the kernel's cache is locked: objects are only counted in or
//! out there, so a finalizer or another thread can never find it locked by its own caller.
//!
//! [`search`] is the face of the native search: `kibitz_native.Search`, over a kernel.

pub mod search;

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::{PyAssertionError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::apply::apply;
use crate::board::Board;
use crate::generate::{generate, CardMove, Move, MoveList};
use crate::position::{Edit, Position};
use crate::replay::{replay, Replay};
use crate::spec::{Spec, MAX_PILES};

/// How many distinct `alike` groupings a kernel remembers.
const ALIKE_CACHE: usize = 16;

/// The moves a kernel has handed out, both ways, and the groupings it has read.
#[derive(Default)]
struct Cache {
    by_code: FxHashMap<u32, Py<PyAny>>,
    by_object: FxHashMap<usize, Move>,
    alike: Vec<(Py<PyAny>, Vec<u8>)>,
}

/// The slots of `State`, in the order [`Kernel::new_state`] fills them.
const SLOTS: [&str; 5] = ["game", "piles", "round", "base", "_legal"];

/// How new `State` objects are made.
enum Making {
    /// `State` is a plain Python class with `__slots__` (no `__new__` of its own): allocate
    /// it and fill its slots at these offsets, as `object.__new__` and `object.__setattr__` do.
    Slots([ffi::Py_ssize_t; 5]),
    /// Anything else (a compiled `State`): call `State(game, piles, round, base)`.
    Call,
}

/// The rules of one game in one ruleset, run natively.
#[pyclass(frozen, module = "kibitz_native")]
pub struct Kernel {
    pub(crate) spec: Spec,
    game: Py<PyAny>,
    state_type: Py<PyType>,
    making: Making,
    deal: Py<PyAny>,
    cache: Mutex<Cache>,
}

/// Whether `state_type` makes its objects with the plain `object.__new__` (so that the
/// kernel may allocate them and fill their slots itself).
fn has_plain_new(state_type: &Bound<'_, PyType>) -> PyResult<bool> {
    let py = state_type.py();
    let new = state_type.getattr(intern!(py, "__new__"))?;
    let plain = py.get_type::<PyAny>().getattr(intern!(py, "__new__"))?;
    Ok(new.is(&plain))
}

/// How to make `State` objects of `state_type`.
#[cfg(not(Py_LIMITED_API))]
fn making_of(state_type: &Bound<'_, PyType>) -> PyResult<Making> {
    let py = state_type.py();
    let fallback = Making::Call;
    if !has_plain_new(state_type)? {
        return Ok(fallback);
    }
    let own = state_type.getattr(intern!(py, "__dict__"))?;
    let mut offsets: [ffi::Py_ssize_t; 5] = [0; 5];
    for (offset, name) in offsets.iter_mut().zip(SLOTS) {
        let Ok(descriptor) = own.get_item(name) else { return Ok(fallback) };
        // SAFETY: the descriptor is checked to be a member descriptor before it is read as one.
        unsafe {
            if ffi::Py_TYPE(descriptor.as_ptr()) != &raw mut ffi::PyMemberDescr_Type {
                return Ok(fallback);
            }
            let member = (*descriptor.as_ptr().cast::<ffi::PyMemberDescrObject>()).d_member;
            if (*member).type_code != ffi::Py_T_OBJECT_EX || (*member).flags & ffi::Py_READONLY != 0 {
                return Ok(fallback);
            }
            *offset = (*member).offset;
        }
    }
    Ok(Making::Slots(offsets))
}

/// How to make `State` objects of `state_type`. The limited API does not show a member
/// descriptor's offset, so the offsets are found on a probe: an empty instance whose slots are
/// set through their descriptors (which refuse a read-only slot, one not holding objects, or
/// another class's) to new objects. The probe's words up to `__basicsize__` are searched for
/// those objects' addresses, which can be there only where the descriptors stored them, so
/// each must be found once; the slots are then set again and read back both ways.
#[cfg(Py_LIMITED_API)]
fn making_of(state_type: &Bound<'_, PyType>) -> PyResult<Making> {
    const WORD: usize = std::mem::size_of::<*mut ffi::PyObject>();
    let py = state_type.py();
    let fallback = Making::Call;
    if !has_plain_new(state_type)? {
        return Ok(fallback);
    }
    let size: usize = state_type.getattr(intern!(py, "__basicsize__"))?.extract()?;
    let items: usize = state_type.getattr(intern!(py, "__itemsize__"))?.extract()?;
    if items != 0 {
        return Ok(fallback);
    }
    let own = state_type.getattr(intern!(py, "__dict__"))?;
    let member_type = py.import(intern!(py, "types"))?.getattr(intern!(py, "MemberDescriptorType"))?;
    let mut descriptors = Vec::with_capacity(SLOTS.len());
    for name in SLOTS {
        let Ok(descriptor) = own.get_item(name) else { return Ok(fallback) };
        if !descriptor.get_type().is(&member_type) {
            return Ok(fallback);
        }
        descriptors.push(descriptor);
    }
    let plain = py.get_type::<PyAny>().getattr(intern!(py, "__new__"))?;
    let Ok(probe) = plain.call1((state_type,)) else { return Ok(fallback) };
    let words = size / WORD;
    // Word k of the probe, for k < words.
    let word = |k: usize| -> *mut ffi::PyObject {
        // SAFETY: an aligned read within the probe, which is alive.
        unsafe { *probe.as_ptr().cast::<u8>().add(k * WORD).cast::<*mut ffi::PyObject>() }
    };
    // Sets each slot of the probe through its descriptor; false when one refuses.
    let fill = |marks: &[Bound<'_, PyAny>]| -> bool {
        descriptors.iter().zip(marks).all(|(descriptor, mark)| {
            descriptor.call_method1(intern!(py, "__set__"), (&probe, mark)).is_ok()
        })
    };
    // New objects, one per slot.
    let new_marks = || -> PyResult<Vec<Bound<'_, PyAny>>> {
        SLOTS.iter().map(|_| py.get_type::<PyAny>().call0()).collect()
    };
    let first = new_marks()?;
    if !fill(&first) {
        return Ok(fallback);
    }
    let mut offsets: [ffi::Py_ssize_t; 5] = [0; 5];
    for (offset, mark) in offsets.iter_mut().zip(&first) {
        let mut found = (0..words).filter(|&k| word(k) == mark.as_ptr());
        let (Some(k), None) = (found.next(), found.next()) else { return Ok(fallback) };
        *offset = (k * WORD) as ffi::Py_ssize_t;
    }
    let second = new_marks()?;
    if !fill(&second) {
        return Ok(fallback);
    }
    for ((&offset, mark), name) in offsets.iter().zip(&second).zip(SLOTS) {
        if word(offset as usize / WORD) != mark.as_ptr() || !probe.getattr(name)?.is(mark) {
            return Ok(fallback);
        }
    }
    Ok(Making::Slots(offsets))
}

/// Item `k` of `tuple`, borrowed.
///
/// # Safety
/// `tuple` is a live tuple and `k` is within it.
#[inline]
unsafe fn tuple_item(tuple: *mut ffi::PyObject, k: usize) -> *mut ffi::PyObject {
    #[cfg(not(Py_LIMITED_API))]
    return ffi::PyTuple_GET_ITEM(tuple, k as ffi::Py_ssize_t);
    #[cfg(Py_LIMITED_API)]
    return ffi::PyTuple_GetItem(tuple, k as ffi::Py_ssize_t);
}

/// The contents of a bytes object, borrowed.
///
/// # Safety
/// `bytes` is a live bytes object, which outlives 'a.
#[inline]
unsafe fn bytes_contents<'a>(bytes: *mut ffi::PyObject) -> &'a [u8] {
    #[cfg(not(Py_LIMITED_API))]
    let (start, size) = (ffi::PyBytes_AS_STRING(bytes), ffi::Py_SIZE(bytes));
    #[cfg(Py_LIMITED_API)]
    let (start, size) = (ffi::PyBytes_AsString(bytes), ffi::PyBytes_Size(bytes));
    std::slice::from_raw_parts(start.cast::<u8>(), size as usize)
}

/// The piles of a state's `piles` tuple, borrowed in place.
fn read_piles<'a>(piles: &'a Bound<'_, PyTuple>, out: &mut [&'a [u8]; MAX_PILES]) -> PyResult<usize> {
    let count = piles.len();
    if count > MAX_PILES {
        return Err(PyValueError::new_err(format!("a state with {count} piles")));
    }
    for (k, slot) in out.iter_mut().take(count).enumerate() {
        // SAFETY: k is within the tuple; each item is checked to be a bytes object, immutable
        // and held by the tuple, which outlives 'a.
        *slot = unsafe {
            let item = tuple_item(piles.as_ptr(), k);
            if ffi::PyBytes_Check(item) == 0 {
                return Err(PyTypeError::new_err("a state's piles must be bytes"));
            }
            bytes_contents(item)
        };
    }
    Ok(count)
}

/// A tuple of `items`, whose references it takes over.
fn tuple_of<'py>(py: Python<'py>, items: &[*mut ffi::PyObject]) -> PyResult<Bound<'py, PyTuple>> {
    // SAFETY: each item is an owned reference; the new tuple steals them (or they are
    // released when it cannot be made).
    unsafe {
        let tuple = ffi::PyTuple_New(items.len() as ffi::Py_ssize_t);
        if tuple.is_null() {
            items.iter().for_each(|&item| ffi::Py_DECREF(item));
            return Err(PyErr::fetch(py));
        }
        for (k, &item) in items.iter().enumerate() {
            #[cfg(not(Py_LIMITED_API))]
            ffi::PyTuple_SET_ITEM(tuple, k as ffi::Py_ssize_t, item);
            // Cannot fail on a new tuple of this length; if it did, it released the item.
            #[cfg(Py_LIMITED_API)]
            if ffi::PyTuple_SetItem(tuple, k as ffi::Py_ssize_t, item) != 0 {
                items[k + 1..].iter().for_each(|&item| ffi::Py_DECREF(item));
                ffi::Py_DECREF(tuple);
                return Err(PyErr::fetch(py));
            }
        }
        Ok(Bound::from_owned_ptr(py, tuple).cast_into_unchecked())
    }
}

/// A state's parts as the kernel reads them, with the Python objects they came from.
pub(crate) struct Read<'py> {
    piles: Bound<'py, PyTuple>,
    round_object: Bound<'py, PyAny>,
    base_object: Bound<'py, PyAny>,
    round: u32,
    base: Option<u8>,
}

impl<'py> Read<'py> {
    /// Reads `state`'s parts, straight from its slots when the kernel knows where they are.
    fn of(state: &Bound<'py, PyAny>, making: &Making, state_type: &Py<PyType>) -> PyResult<Self> {
        let py = state.py();
        let [piles, round_object, base_object] = match (making, state.get_type().is(state_type.bind(py))) {
            (Making::Slots(offsets), true) => {
                let slots = [offsets[1], offsets[2], offsets[3]].map(|offset| {
                    // SAFETY: `state` is exactly `State`, whose slots lie at these offsets.
                    unsafe { *state.as_ptr().cast::<u8>().offset(offset).cast::<*mut ffi::PyObject>() }
                });
                if slots.iter().any(|slot| slot.is_null()) {
                    return Err(PyValueError::new_err("a State with an empty slot"));
                }
                // SAFETY: live objects held by `state`, counted in here.
                slots.map(|slot| unsafe { Bound::from_borrowed_ptr(py, slot) })
            }
            _ => [
                state.getattr(intern!(py, "piles"))?,
                state.getattr(intern!(py, "round"))?,
                state.getattr(intern!(py, "base"))?,
            ],
        };
        let piles = piles.cast_into::<PyTuple>()?;
        let round = round_object.extract()?;
        let base = base_object.extract()?;
        Ok(Read { piles, round_object, base_object, round, base })
    }

    /// Runs `f` on the position these objects hold.
    pub(crate) fn with_position<T>(&self, f: impl FnOnce(&Position) -> PyResult<T>) -> PyResult<T> {
        let mut slices: [&[u8]; MAX_PILES] = [&[]; MAX_PILES];
        let count = read_piles(&self.piles, &mut slices)?;
        f(&Position { piles: &slices[..count], round: self.round, base: self.base })
    }
}

impl Kernel {
    pub(crate) fn read<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Read<'py>> {
        Read::of(state, &self.making, &self.state_type)
    }

    fn lock(&self) -> MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The shared `Move` objects of `moves`, made by `Game.move` the first time.
    pub(crate) fn move_tuple<'py>(&self, py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyTuple>> {
        let mut items: SmallVec<[*mut ffi::PyObject; 64]> = SmallVec::with_capacity(moves.len());
        for attempt in 0..2 {
            let mut missing: SmallVec<[Move; 8]> = SmallVec::new();
            {
                let cache = self.lock();
                for mv in moves {
                    match cache.by_code.get(&mv.code()) {
                        Some(object) => {
                            // SAFETY: a live object, counted in for the tuple.
                            unsafe { ffi::Py_INCREF(object.as_ptr()) };
                            items.push(object.as_ptr());
                        }
                        None => missing.push(*mv),
                    }
                }
            }
            if missing.is_empty() {
                return tuple_of(py, &items);
            }
            // SAFETY: the references counted in above are released before trying again.
            items.drain(..).for_each(|item| unsafe { ffi::Py_DECREF(item) });
            if attempt == 0 {
                for mv in missing {
                    self.make_move(py, mv)?;
                }
            }
        }
        Err(PyAssertionError::new_err("a move the kernel made was not kept"))
    }

    /// Asks the game for the move object of `mv` and remembers it both ways.
    fn make_move(&self, py: Python<'_>, mv: Move) -> PyResult<()> {
        let object = match mv {
            Move::Deal => self.deal.clone_ref(py),
            Move::Cards(m) => {
                let index: i64 = m.index.map_or(-1, i64::from);
                self.game.bind(py).call_method1(intern!(py, "move"), (m.source, m.target, m.count, index))?.unbind()
            }
        };
        let pointer = object.as_ptr() as usize;
        let unused = {
            let mut cache = self.lock();
            match cache.by_code.entry(mv.code()) {
                std::collections::hash_map::Entry::Occupied(_) => Some(object),
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(object);
                    cache.by_object.insert(pointer, mv);
                    None
                }
            }
        };
        drop(unused); // released with the cache unlocked
        Ok(())
    }

    /// The kernel's reading of a `Move` object (one it handed out, or any equal one).
    fn resolve(&self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        let py = mv.py();
        if mv.is(self.deal.bind(py)) {
            return Ok(Move::Deal);
        }
        if let Some(&known) = self.lock().by_object.get(&(mv.as_ptr() as usize)) {
            return Ok(known);
        }
        let target = mv.getattr(intern!(py, "target"))?;
        if target.cast::<PyString>()?.to_cow()?.is_empty() {
            return Ok(Move::Deal);
        }
        let (source, target): (u8, u8) = self.game.bind(py).call_method1(intern!(py, "ends"), (mv,))?.extract()?;
        let count: u16 = mv.getattr(intern!(py, "size"))?.extract()?;
        let index: Option<u16> = mv.getattr(intern!(py, "position"))?.extract()?;
        Ok(Move::Cards(CardMove { source, target, count, index }))
    }

    /// The groups of `alike` (a sequence of sets of pile indices) as one group number per pile.
    fn groups(&self, alike: &Bound<'_, PyAny>, piles: usize) -> PyResult<Vec<u8>> {
        let py = alike.py();
        let immutable = alike.is_instance_of::<PyTuple>();
        if immutable {
            let cache = self.lock();
            if let Some((_, groups)) = cache.alike.iter().find(|(known, _)| known.bind(py).is(alike)) {
                return Ok(groups.clone());
            }
        }
        let sets: Vec<Bound<'_, PyAny>> = alike.try_iter()?.collect::<PyResult<_>>()?;
        let mut groups = vec![0u8; piles];
        for (pile, group) in groups.iter_mut().enumerate() {
            for (k, set) in sets.iter().enumerate() {
                if set.contains(pile)? {
                    *group = (k + 1) as u8;
                    break;
                }
            }
        }
        if immutable {
            let dropped = {
                let mut cache = self.lock();
                let dropped = if cache.alike.len() >= ALIKE_CACHE { Some(cache.alike.remove(0)) } else { None };
                cache.alike.push((alike.clone().unbind(), groups.clone()));
                dropped
            };
            drop(dropped);
        }
        Ok(groups)
    }

    /// A new `State` object holding `values` (in the order of [`SLOTS`]).
    fn make_state<'py>(&self, py: Python<'py>, values: [&Bound<'py, PyAny>; 5]) -> PyResult<Bound<'py, PyAny>> {
        match &self.making {
            Making::Call => self.state_type.bind(py).call1((values[0], values[1], values[2], values[3])),
            // SAFETY: as `object.__new__` does for a class with `__slots__`, allocate an
            // instance (its slots empty), then fill each empty slot with a new reference, as
            // `object.__setattr__` does through the slot's member descriptor.
            Making::Slots(offsets) => unsafe {
                let tp = self.state_type.as_ptr().cast::<ffi::PyTypeObject>();
                #[cfg(not(Py_LIMITED_API))]
                let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
                #[cfg(Py_LIMITED_API)]
                let alloc = match ffi::PyType_GetSlot(tp, ffi::Py_tp_alloc) {
                    found if found.is_null() => ffi::PyType_GenericAlloc,
                    // SAFETY: the type's `tp_alloc` slot holds an `allocfunc`.
                    found => std::mem::transmute::<*mut std::ffi::c_void, ffi::allocfunc>(found),
                };
                let state = alloc(tp, 0);
                if state.is_null() {
                    return Err(PyErr::fetch(py));
                }
                for (&offset, value) in offsets.iter().zip(values) {
                    let slot = state.cast::<u8>().offset(offset).cast::<*mut ffi::PyObject>();
                    ffi::Py_INCREF(value.as_ptr());
                    *slot = value.as_ptr();
                }
                Ok(Bound::from_owned_ptr(py, state))
            },
        }
    }

    /// A new `State` of the game from an edit of `read`'s position.
    fn new_state<'py>(&self, py: Python<'py>, read: &Read<'py>, edit: &Edit) -> PyResult<Bound<'py, PyAny>> {
        let mut items: SmallVec<[*mut ffi::PyObject; MAX_PILES]> = SmallVec::with_capacity(edit.len());
        for k in 0..edit.len() {
            // SAFETY: new bytes are owned references; old ones are counted in, and k is
            // within the tuple the edit was made from.
            let item = unsafe {
                if edit.is_changed(k) {
                    let pile = edit.pile(k);
                    ffi::PyBytes_FromStringAndSize(pile.as_ptr() as *const _, pile.len() as ffi::Py_ssize_t)
                } else {
                    let item = tuple_item(read.piles.as_ptr(), k);
                    ffi::Py_INCREF(item);
                    item
                }
            };
            if item.is_null() {
                // SAFETY: releases the references taken so far.
                items.drain(..).for_each(|item| unsafe { ffi::Py_DECREF(item) });
                return Err(PyErr::fetch(py));
            }
            items.push(item);
        }
        let piles = tuple_of(py, &items)?;
        let round = if edit.round == read.round {
            read.round_object.clone()
        } else {
            edit.round.into_pyobject(py)?.into_any()
        };
        let base = if edit.base == read.base {
            read.base_object.clone()
        } else {
            edit.base.into_pyobject(py)?.into_any()
        };
        self.make_state(py, [self.game.bind(py), piles.as_any(), &round, &base, &py.None().into_bound(py)])
    }

    fn apply_move<'py>(&self, py: Python<'py>, state: &Bound<'py, PyAny>, mv: Move) -> PyResult<Bound<'py, PyAny>> {
        let read = self.read(state)?;
        read.with_position(|position| {
            let edit = apply(&self.spec, position, mv)
                .ok_or_else(|| PyAssertionError::new_err("deal applied where it is not legal"))?;
            self.new_state(py, &read, &edit)
        })
    }
}

#[pymethods]
impl Kernel {
    /// A kernel for `game` (a `kibitz.rules.Game`) from its spec (JSON, see `kibitz.native`).
    /// `state_type` is `kibitz.state.State` and `deal` the stock click `kibitz.moves.DEAL`.
    #[new]
    fn new(py: Python<'_>, spec: &str, game: Py<PyAny>, state_type: Py<PyType>, deal: Py<PyAny>) -> PyResult<Self> {
        let spec = Spec::from_json(spec).map_err(PyValueError::new_err)?;
        let making = making_of(state_type.bind(py))?;
        Ok(Kernel { spec, game, state_type, making, deal, cache: Mutex::new(Cache::default()) })
    }

    /// Every legal move of `state`, as `Game.generate_moves` lists them.
    #[pyo3(signature = (state, alike = None))]
    fn generate_moves<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        alike: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let read = self.read(state)?;
        let groups = match alike {
            Some(alike) if alike.len()? > 0 => self.groups(alike, read.piles.len())?,
            _ => Vec::new(),
        };
        let mut moves = MoveList::new();
        read.with_position(|position| {
            generate(&self.spec, position, &groups, &mut moves);
            Ok(())
        })?;
        self.move_tuple(py, &moves)
    }

    /// The state after `move`, which must be legal in `state` (as `Game.apply_unchecked`).
    fn apply_unchecked<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mv = self.resolve(r#move)?;
        self.apply_move(py, state, mv)
    }

    /// The state after `move` (a `Move`) when it is one of `state.legal_moves`, else `None`.
    fn apply<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let cached = match (&self.making, state.get_type().is(self.state_type.bind(py))) {
            // SAFETY: `state` is exactly `State`, whose `_legal` slot lies at this offset.
            (Making::Slots(offsets), true) => unsafe {
                let slot = *state.as_ptr().cast::<u8>().offset(offsets[4]).cast::<*mut ffi::PyObject>();
                (!slot.is_null()).then(|| Bound::from_borrowed_ptr(py, slot)).filter(|legal| !legal.is_none())
            },
            _ => None,
        };
        let legal = match cached {
            Some(legal) => legal,
            None => state.getattr(intern!(py, "legal_moves"))?,
        }
        .cast_into::<PyTuple>()?;
        let found = legal.iter_borrowed().any(|item| item.is(r#move)) || legal.contains(r#move)?;
        if !found {
            return Ok(None);
        }
        self.apply_unchecked(py, state, r#move).map(Some)
    }

    /// Replays `moves` from `state` with every legality check (as `kibitz.solver.verify_win`):
    /// the index of the first move that is not legal where it is played (`None` when all
    /// are), and whether the line ends with the game won.
    fn replay(&self, state: &Bound<'_, PyAny>, moves: &Bound<'_, PyAny>) -> PyResult<(Option<usize>, bool)> {
        let board = self.read(state)?.with_position(|position| Ok(Board::new(position.piles, position.round, position.base)))?;
        let mut line = Vec::new();
        for item in moves.try_iter()? {
            line.push(self.resolve(&item?).ok()); // a move the kernel cannot read is illegal
        }
        Ok(match replay(&self.spec, &board, line) {
            Replay::Illegal(k) => (Some(k), false),
            Replay::Won => (None, true),
            Replay::NotWon => (None, false),
        })
    }

    /// How the kernel makes `State` objects: `"slots"` (filled in place) or `"call"` (by
    /// calling `State`).
    #[getter]
    fn making(&self) -> &'static str {
        match self.making {
            Making::Slots(_) => "slots",
            Making::Call => "call",
        }
    }

    /// Whether every card of `state` is on a foundation.
    fn is_won(&self, state: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.read(state)?.with_position(|position| Ok(position.is_won(&self.spec)))
    }

    /// How many legal moves `state` has, without making their Python objects; the moves are
    /// generated `repeat` times (timing one call against many measures the boundary's cost).
    #[pyo3(signature = (state, repeat = 1))]
    fn count_moves(&self, state: &Bound<'_, PyAny>, repeat: usize) -> PyResult<usize> {
        let mut moves = MoveList::new();
        self.read(state)?.with_position(|position| {
            for _ in 0..repeat.max(1) {
                moves.clear();
                generate(&self.spec, std::hint::black_box(position), &[], &mut moves);
            }
            Ok(moves.len())
        })
    }
}
