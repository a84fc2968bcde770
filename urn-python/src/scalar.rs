//! The scalar API: `Urn`, `parse`, `key`, `is_valid`, the typed classes of the known
//! namespaces (`IsbnUrn`, …) and the `UrnError` they raise.

use std::sync::OnceLock;

use crate::text::utf8;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use urn_core::{NamespaceError, NsUrnError, ParseError, Syntax, UrnRef};

/// `urnkit.UrnError`, defined in Python (`urnkit/_errors.py`) so that it pickles and
/// subclasses like any exception; imported once.
static URN_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A `UrnError(message, kind, offset)`.
pub fn urn_error(py: Python<'_>, message: String, kind: &str, offset: usize) -> PyErr {
    match URN_ERROR.import(py, "urnkit._errors", "UrnError") {
        Ok(class) => PyErr::from_type(class.clone(), (message, kind.to_owned(), offset)),
        Err(e) => e,
    }
}

/// The `UrnError` of a parse error: kind `ErrorKind::name()` (as `urn inspect` prints it).
fn parse_error(py: Python<'_>, e: &ParseError) -> PyErr {
    urn_error(py, e.to_string(), e.kind().name(), e.offset())
}

/// The `UrnError` of a namespace error (urn-core's kind `invalid_nss`).
fn namespace_error(py: Python<'_>, e: &NamespaceError) -> PyErr {
    urn_error(py, e.to_string(), e.kind().name(), e.offset())
}

/// The `UrnError` of a typed class's refusal (urn-core's kind: the parser's, `wrong_namespace`
/// or `invalid_nss`).
fn ns_urn_error(py: Python<'_>, e: &NsUrnError) -> PyErr {
    urn_error(py, e.to_string(), e.kind().name(), e.offset())
}

/// `text` parsed with `syntax`, or the `UrnError` of why it is not a URN.
fn parse_ref<'t>(py: Python<'_>, text: &'t str, syntax: Syntax) -> PyResult<UrnRef<'t>> {
    UrnRef::parse_with(text, syntax).map_err(|e| parse_error(py, &e))
}

/// The grammar named by the `syntax` argument.
pub(crate) fn syntax(name: &str) -> PyResult<Syntax> {
    match name {
        "rfc8141" => Ok(Syntax::Rfc8141),
        "rfc2141" => Ok(Syntax::Rfc2141),
        other => Err(PyValueError::new_err(format!(
            "syntax must be \"rfc8141\" or \"rfc2141\", not {other:?}"
        ))),
    }
}

/// A URN (RFC 8141), kept verbatim. `==`, `hash` and ordering are the canonical key's.
///
/// It keeps the `str` it was made from, not a Rust copy: a copy is an allocation a URN, the
/// largest part of `parse` when the URNs are kept, as a column's are.
/// The components are parsed again when asked for, on a getter that makes a `str` anyway; the
/// key is made once, on first use, and kept for `==`, `hash` and ordering.
#[pyclass(module = "urnkit", name = "Urn", subclass, frozen)]
pub struct PyUrn {
    /// The text as given, an exact `str` (a subclass's text is copied into one).
    text: Py<PyString>,
    syntax: Syntax,
    /// The canonical key (the current rules, V2), made on first use: the text itself when it is its own
    /// key. A plain `OnceLock`, filled while the GIL is held and without calling back into
    /// Python (so no other thread can be waiting on it); `PyOnceLock` would release and
    /// re-take the GIL on every first use, which costs more than making the key.
    key: OnceLock<Py<PyString>>,
}

impl PyUrn {
    /// Parses `text` with `syntax`.
    fn parse(py: Python<'_>, text: &Bound<'_, PyString>, syntax: Syntax) -> PyResult<Self> {
        PyUrn::keeping(text, syntax, |utf8| parse_ref(py, utf8, syntax).map(drop))
    }

    /// A `PyUrn` of `text` when `check` accepts its UTF-8 (as a URN under `syntax`).
    fn keeping(
        text: &Bound<'_, PyString>,
        syntax: Syntax,
        check: impl FnOnce(&str) -> PyResult<()>,
    ) -> PyResult<Self> {
        let utf8 = utf8(text)?;
        check(&utf8)?;
        let text = if text.is_exact_instance_of::<PyString>() {
            text.clone().unbind()
        } else {
            PyString::new(text.py(), &utf8).unbind()
        };
        Ok(PyUrn {
            text,
            syntax,
            key: OnceLock::new(),
        })
    }

    /// Calls `f` with the URN, parsed again from the kept text. It parsed when the object was
    /// made and a `str` does not change, so this does not fail; if it did, the error is raised.
    fn with_urn<R>(&self, py: Python<'_>, f: impl FnOnce(UrnRef<'_>) -> R) -> PyResult<R> {
        let text = utf8(self.text.bind(py))?;
        Ok(f(parse_ref(py, &text, self.syntax)?))
    }

    /// The canonical key, made on first use.
    fn key_str<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyString>> {
        if let Some(key) = self.key.get() {
            return Ok(key.bind(py));
        }
        let key = self.with_urn(py, |u| {
            let key = u.key();
            if key.as_str() == u.as_str() {
                self.text.clone_ref(py)
            } else {
                PyString::new(py, key.as_str()).unbind()
            }
        })?;
        // Set at most once: a second value (none can race it under the GIL) is dropped.
        Ok(self.key.get_or_init(|| key).bind(py))
    }
}

#[pymethods]
impl PyUrn {
    #[new]
    #[pyo3(signature = (text, *, syntax = "rfc8141"))]
    fn new(py: Python<'_>, text: &Bound<'_, PyString>, syntax: &str) -> PyResult<Self> {
        PyUrn::parse(py, text, self::syntax(syntax)?)
    }

    /// The namespace a typed class requires: `None` on `Urn` itself.
    #[classattr]
    #[pyo3(name = "NID")]
    fn class_nid() -> Option<&'static str> {
        None
    }

    /// The NID as written.
    #[getter]
    fn nid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.with_urn(py, |u| PyString::new(py, u.nid()))
    }

    /// The NSS as written.
    #[getter]
    fn nss<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.with_urn(py, |u| PyString::new(py, u.nss()))
    }

    /// The r-component (after `?+`), `None` when absent.
    #[getter]
    fn r_component<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.with_urn(py, |u| u.r_component().map(|r| PyString::new(py, r)))
    }

    /// The q-component (after `?=`), `None` when absent.
    #[getter]
    fn q_component<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.with_urn(py, |u| u.q_component().map(|q| PyString::new(py, q)))
    }

    /// The f-component (after `#`), `None` when absent.
    #[getter]
    fn f_component<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.with_urn(py, |u| u.f_component().map(|f| PyString::new(py, f)))
    }

    /// The canonical key (the current rules, V2): what `==` and `hash` compare.
    #[getter]
    fn key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.key_str(py).cloned()
    }

    /// The key under the key rules `rules` (`"v2"`, `"v1"`, `"rfc8141"`): a table keyed by
    /// the V1 rules holds `u.key_with("v1")`.
    fn key_with<'py>(&self, py: Python<'py>, rules: &str) -> PyResult<Bound<'py, PyString>> {
        let rules = crate::ops::key_rules(rules)?;
        self.with_urn(py, |u| PyString::new(py, u.key_with(rules).as_str()))
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    #[getter]
    fn rfc8141_key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.with_urn(py, |u| PyString::new(py, u.rfc8141_key().as_str()))
    }

    /// The lower-case NID of the known namespace (`"isbn"`, …), `None` for any other.
    #[getter]
    fn namespace(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        self.with_urn(py, |u| u.namespace().map(urn_core::KnownNamespace::nid))
    }

    /// Raises `UrnError` (kind `invalid_nss`) when the NSS breaks its known namespace's rules.
    fn validate_namespace(&self, py: Python<'_>) -> PyResult<()> {
        self.with_urn(py, |u| u.validate_namespace())?
            .map_err(|e| namespace_error(py, &e))
    }

    /// The `UrnError` `validate_namespace` would raise, or `None`.
    fn namespace_problem(&self, py: Python<'_>) -> PyResult<Option<PyErr>> {
        self.with_urn(py, |u| {
            u.validate_namespace()
                .err()
                .map(|e| namespace_error(py, &e))
        })
    }

    fn __str__(&self, py: Python<'_>) -> Py<PyString> {
        self.text.clone_ref(py)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let text = slf.get().text.bind(slf.py()).repr()?;
        Ok(format!("{}({})", slf.get_type().name()?, text))
    }

    /// The key's `hash`: equal URNs hash alike.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.key_str(py)?.hash()
    }

    /// Compares the keys as Python strings: code-point order, which is the UTF-8 byte order
    /// urn-core's `Ord` uses (the keys' text), with no copy on any interpreter.
    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: PyRef<'_, PyUrn>,
        op: CompareOp,
    ) -> PyResult<bool> {
        let ordering = self.key_str(py)?.compare(other.key_str(py)?)?;
        Ok(op.matches(ordering))
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = PyTuple::new(py, [self.text.clone_ref(py)])?;
        let kwargs = PyDict::new(py);
        if self.syntax == Syntax::Rfc2141 {
            kwargs.set_item("syntax", "rfc2141")?;
        }
        Ok((args, kwargs))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    /// pydantic v2: `Urn` (and each typed class) as a field type; the schema is built in
    /// `urnkit/_pydantic.py`.
    #[classmethod]
    fn __get_pydantic_core_schema__<'py>(
        cls: &Bound<'py, PyType>,
        source: &Bound<'py, PyAny>,
        handler: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        cls.py()
            .import("urnkit._pydantic")?
            .getattr("core_schema")?
            .call1((cls, source, handler))
    }

    /// pydantic v2: the JSON Schema urn-schema generates for the class.
    #[classmethod]
    fn __get_pydantic_json_schema__<'py>(
        cls: &Bound<'py, PyType>,
        core_schema: &Bound<'py, PyAny>,
        handler: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        cls.py()
            .import("urnkit._pydantic")?
            .getattr("json_schema")?
            .call1((cls, core_schema, handler))
    }
}

/// Parses `text` into a `Urn` (the same as `Urn(text)`).
#[pyfunction]
#[pyo3(signature = (text, *, syntax = "rfc8141"))]
fn parse(py: Python<'_>, text: &Bound<'_, PyString>, syntax: &str) -> PyResult<PyUrn> {
    PyUrn::parse(py, text, self::syntax(syntax)?)
}

/// The canonical key of `text` under the key rules `rules` (`"v2"`, the current rules;
/// `"v1"`; `"rfc8141"`); raises `UrnError` when it is not a URN.
#[pyfunction]
#[pyo3(signature = (text, *, syntax = "rfc8141", rules = "v2"))]
fn key<'py>(
    py: Python<'py>,
    text: &Bound<'_, PyString>,
    syntax: &str,
    rules: &str,
) -> PyResult<Bound<'py, PyString>> {
    let rules = crate::ops::key_rules(rules)?;
    let text = utf8(text)?;
    let urn = parse_ref(py, &text, self::syntax(syntax)?)?;
    Ok(PyString::new(py, urn.key_with(rules).as_str()))
}

/// Whether `text` is a URN.
#[pyfunction]
#[pyo3(signature = (text, *, syntax = "rfc8141"))]
fn is_valid(text: &Bound<'_, PyString>, syntax: &str) -> PyResult<bool> {
    Ok(UrnRef::parse_with(&utf8(text)?, self::syntax(syntax)?).is_ok())
}

/// Declares one Python class per known namespace (the rows of urn-core's table,
/// `urn_core::known_namespaces!`), a subclass of `Urn` over urn-core's typed alias, and
/// [`TYPED_CLASSES`] (exported as `TYPED_CLASSES`: the generated parts of `urnkit/__init__.py`
/// and `_urnkit.pyi` are held to it by a test).
macro_rules! typed_urns {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $class:ident;)*) => {
        $(
            #[doc = concat!("A URN whose NSS keeps its namespace's rules (urn-core's `", stringify!($class), "`).")]
            #[pyclass(module = "urnkit", extends = PyUrn, frozen)]
            pub struct $class;

            #[pymethods]
            impl $class {
                #[new]
                fn new(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<PyClassInitializer<Self>> {
                    let urn = PyUrn::keeping(text, Syntax::Rfc8141, |utf8| {
                        urn_core::$class::parse(utf8).map(drop).map_err(|e| ns_urn_error(py, &e))
                    })?;
                    Ok(PyClassInitializer::from(urn).add_subclass($class))
                }

                /// The namespace this class requires (lower case).
                #[classattr]
                const NID: &'static str = urn_core::KnownNamespace::$variant.nid();
            }
        )*

        /// The typed classes, with their NIDs, in the table's order.
        pub const TYPED_CLASSES: &[(&str, &str)] = &[
            $((stringify!($class), urn_core::KnownNamespace::$variant.nid())),*
        ];

        fn register_typed(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_class::<$class>()?;)*
            Ok(())
        }
    };
}

urn_core::known_namespaces!(typed_urns);

/// Adds the scalar API to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUrn>()?;
    register_typed(m)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(key, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add("TYPED_CLASSES", TYPED_CLASSES.to_vec())?;
    // The kinds of a typed class's refusal that are not the parser's, as urn-core names them.
    m.add(
        "WRONG_NAMESPACE",
        urn_core::ErrorKind::WrongNamespace.name(),
    )?;
    m.add("INVALID_NSS", urn_core::ErrorKind::InvalidNss.name())?;
    Ok(())
}
