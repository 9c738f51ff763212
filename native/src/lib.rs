//! The native kernel of kibitz's rules.
//!
//! kibitz declares each game from rule building blocks (sources, targets, permits, stock
//! clicks, after-move rules) in Python; beside each rule function it declares the rule's
//! native counterpart as typed data. This crate implements every building block once and
//! runs a game from its [`spec::Spec`]: legal-move generation ([`generate`]) and apply
//! ([`apply`]), with the same moves in the same order and the same positions as the Python
//! rules, which stay the reference.
//!
//! [`search`] is the solver's search over the same kernel, for the policies that declare
//! a native counterpart (the same search as the Python solver's, step by step).
//!
//! With the `python` feature (the default) the crate is also the extension module
//! `kibitz_native` ([`binding`]), which reads and makes kibitz's `State` objects.

pub mod apply;
pub mod board;
pub mod cards;
pub mod generate;
pub mod permits;
pub mod position;
pub mod replay;
pub mod search;
pub mod spec;

#[cfg(feature = "python")]
pub mod binding;

/// The version of the spec format and of the interface: `kibitz.native` refuses a module of
/// another version (2: `Search.solve` takes the clock of its time limit; 3: a policy may cap
/// the digging first pass below a deal, `first_pass_deal_cap`; 4: and below a redeal,
/// `first_pass_redeal_cap`; 5: Duchess's proof of loss, with the rules' `tableau_order_kept`;
/// 6: a nested share of the digging pass's caps, `first_pass_nested_cap` and
/// `first_pass_nested_from`; 7: looks at the end games, `first_pass_look`,
/// `first_pass_look_margin` and `first_pass_look_from`; 8: a later growth of the first pass's
/// budgets, `first_pass_late_growth` and `first_pass_late_growth_from`; 9: the first pass's
/// settings as one object, `first_pass`, the fields of Python's `FirstPass`).
pub const SPEC_VERSION: u32 = 9;

#[cfg(feature = "python")]
#[pyo3::pymodule(gil_used = true)]
mod kibitz_native {
    #[pymodule_export]
    use crate::binding::Kernel;

    #[pymodule_export]
    use crate::binding::search::Search;

    #[pymodule_export]
    const SPEC_VERSION: u32 = crate::SPEC_VERSION;

    /// Which build this is: `KIBITZ_NATIVE_BUILD` when the module was compiled, else "source".
    #[pymodule_export]
    const BUILD: &str = match option_env!("KIBITZ_NATIVE_BUILD") {
        Some(build) => build,
        None => "source",
    };

    /// Whether the module was built for Python's limited API (abi3: one wheel for CPython 3.11 on).
    #[pymodule_export]
    const ABI3: bool = cfg!(Py_LIMITED_API);
}
