//! Decides, from PyO3's view of the target, whether `src/text.rs` reads a `str` in place
//! through its own declaration of `PyUnicode_AsUTF8AndSize` (cfg `urnkit_utf8_by_ffi`).
//!
//! Only for CPython's stable ABI below 3.10, the abi3-py39 wheel: elsewhere PyO3 reads a `str`
//! in place itself (a 3.10+ minimum, a version-specific build, PyPy, GraalPy). Not on Windows,
//! where an abi3 module links against `python3.dll`, which exports the function from 3.10 on.

use pyo3_build_config::{PythonAbiKind, PythonImplementation, PythonVersion};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(urnkit_utf8_by_ffi)");
    let abi = pyo3_build_config::get().target_abi();
    let windows = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "windows");
    let stable_below_3_10 = matches!(abi.kind(), PythonAbiKind::Stable(_))
        && abi.version()
            < PythonVersion {
                major: 3,
                minor: 10,
            };
    if stable_below_3_10 && abi.implementation() == PythonImplementation::CPython && !windows {
        println!("cargo::rustc-cfg=urnkit_utf8_by_ffi");
    }
}
