//! Passes pyo3's build configuration on to the crate (`cfg(Py_LIMITED_API)` in an abi3 build).

fn main() {
    #[cfg(feature = "python")]
    pyo3_build_config::use_pyo3_cfgs();
}
