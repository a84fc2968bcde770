//! The scalar API: `Urn`, `parse`, `key`, `is_valid`, the typed classes of the known
//! namespaces (`IsbnUrn`, …) and the `UrnError` they raise.

use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use urn_core::{NamespaceError, NsUrnError, ParseError, Syntax, UrnRef};

/// `urnkit.UrnError`, defined in Python (`urnkit/_errors.py`) so that it pickles and
/// subclasses like any exception; imported once.
static URN_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The error kind of a URN in another namespace than a typed class requires.
pub const WRONG_NAMESPACE: &str = "wrong_namespace";
/// The error kind of an NSS that breaks its namespace's rules (`NamespaceError`).
pub const INVALID_NSS: &str = "invalid_nss";

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

/// The `UrnError` of a namespace error (kind `invalid_nss`).
fn namespace_error(py: Python<'_>, e: &NamespaceError) -> PyErr {
    urn_error(py, e.to_string(), INVALID_NSS, e.offset())
}

/// The `UrnError` of a typed class's refusal.
fn ns_urn_error(py: Python<'_>, e: &NsUrnError) -> PyErr {
    match e {
        NsUrnError::Parse(e) => parse_error(py, e),
        NsUrnError::InvalidNss(e) => namespace_error(py, e),
        other => urn_error(py, other.to_string(), WRONG_NAMESPACE, other.offset()),
    }
}

/// The grammar named by the `syntax` argument.
fn syntax(name: &str) -> PyResult<Syntax> {
    match name {
        "rfc8141" => Ok(Syntax::Rfc8141),
        "rfc2141" => Ok(Syntax::Rfc2141),
        other => Err(PyValueError::new_err(format!(
            "syntax must be \"rfc8141\" or \"rfc2141\", not {other:?}"
        ))),
    }
}

/// A URN (RFC 8141), kept verbatim. `==`, `hash` and ordering follow the canonical key.
#[pyclass(module = "urnkit", name = "Urn", subclass, frozen)]
pub struct PyUrn {
    inner: urn_core::Urn,
    syntax: Syntax,
}

impl PyUrn {
    /// Parses `text` with `syntax`.
    fn parse(py: Python<'_>, text: &str, syntax: Syntax) -> PyResult<Self> {
        match urn_core::Urn::parse_with(text, syntax) {
            Ok(inner) => Ok(PyUrn { inner, syntax }),
            Err(e) => Err(parse_error(py, &e)),
        }
    }
}

#[pymethods]
impl PyUrn {
    #[new]
    #[pyo3(signature = (text, *, syntax = "rfc8141"))]
    fn new(py: Python<'_>, text: &str, syntax: &str) -> PyResult<Self> {
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
    fn nid(&self) -> &str {
        self.inner.nid()
    }

    /// The NSS as written.
    #[getter]
    fn nss(&self) -> &str {
        self.inner.nss()
    }

    /// The r-component (after `?+`), `None` when absent.
    #[getter]
    fn r_component(&self) -> Option<&str> {
        self.inner.r_component()
    }

    /// The q-component (after `?=`), `None` when absent.
    #[getter]
    fn q_component(&self) -> Option<&str> {
        self.inner.q_component()
    }

    /// The f-component (after `#`), `None` when absent.
    #[getter]
    fn f_component(&self) -> Option<&str> {
        self.inner.f_component()
    }

    /// The canonical key (rules V1): what `==` and `hash` compare.
    #[getter]
    fn key(&self) -> String {
        self.inner.key().as_str().to_owned()
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    #[getter]
    fn rfc8141_key(&self) -> String {
        self.inner.rfc8141_key().as_str().to_owned()
    }

    /// The lower-case NID of the known namespace (`"isbn"`, …), `None` for any other.
    #[getter]
    fn namespace(&self) -> Option<&'static str> {
        self.inner.namespace().map(urn_core::KnownNamespace::nid)
    }

    /// Raises `UrnError` (kind `invalid_nss`) when the NSS breaks its known namespace's rules.
    fn validate_namespace(&self, py: Python<'_>) -> PyResult<()> {
        self.inner
            .validate_namespace()
            .map_err(|e| namespace_error(py, &e))
    }

    /// The `UrnError` `validate_namespace` would raise, or `None`.
    fn namespace_problem(&self, py: Python<'_>) -> Option<PyErr> {
        self.inner
            .validate_namespace()
            .err()
            .map(|e| namespace_error(py, &e))
    }

    fn __str__(&self) -> &str {
        self.inner.as_str()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let text = PyString::new(slf.py(), slf.get().inner.as_str());
        Ok(format!("{}({})", slf.get_type().name()?, text.repr()?))
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.inner.hash(&mut hasher);
        hasher.finish()
    }

    fn __richcmp__(&self, other: PyRef<'_, PyUrn>, op: CompareOp) -> bool {
        op.matches(self.inner.cmp(&other.inner))
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = PyTuple::new(py, [self.inner.as_str()])?;
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
fn parse(py: Python<'_>, text: &str, syntax: &str) -> PyResult<PyUrn> {
    PyUrn::parse(py, text, self::syntax(syntax)?)
}

/// The canonical key of `text`; raises `UrnError` when it is not a URN.
#[pyfunction]
#[pyo3(signature = (text, *, syntax = "rfc8141"))]
fn key<'py>(py: Python<'py>, text: &str, syntax: &str) -> PyResult<Bound<'py, PyString>> {
    match UrnRef::parse_with(text, self::syntax(syntax)?) {
        Ok(urn) => Ok(PyString::new(py, urn.key().as_str())),
        Err(e) => Err(parse_error(py, &e)),
    }
}

/// Whether `text` is a URN.
#[pyfunction]
#[pyo3(signature = (text, *, syntax = "rfc8141"))]
fn is_valid(text: &str, syntax: &str) -> PyResult<bool> {
    Ok(UrnRef::parse_with(text, self::syntax(syntax)?).is_ok())
}

/// Declares one Python class per known namespace, a subclass of `Urn` over urn-core's typed
/// alias, and [`TYPED_NIDS`] (exported as `TYPED_NIDS`; `tests/test_scalar.py` holds it to
/// `KnownNamespace::ALL` as the oracle prints it).
macro_rules! typed_urns {
    ($($class:ident = $alias:ident, $nid:literal;)*) => {
        $(
            #[doc = concat!("A URN in the `", $nid, "` namespace whose NSS keeps that namespace's rules (urn-core's `", stringify!($alias), "`).")]
            #[pyclass(module = "urnkit", extends = PyUrn, frozen)]
            pub struct $class;

            #[pymethods]
            impl $class {
                #[new]
                fn new(py: Python<'_>, text: &str) -> PyResult<PyClassInitializer<Self>> {
                    match urn_core::$alias::parse(text) {
                        Ok(urn) => Ok(PyClassInitializer::from(PyUrn {
                            inner: urn.into_urn(),
                            syntax: Syntax::Rfc8141,
                        })
                        .add_subclass($class)),
                        Err(e) => Err(ns_urn_error(py, &e)),
                    }
                }

                /// The namespace this class requires (lower case).
                #[classattr]
                const NID: &'static str = $nid;
            }
        )*

        /// The NIDs of the typed classes, in declaration order.
        pub const TYPED_NIDS: &[&str] = &[$($nid),*];

        fn register_typed(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_class::<$class>()?;)*
            Ok(())
        }
    };
}

typed_urns! {
    UuidUrn = UuidUrn, "uuid";
    IsbnUrn = IsbnUrn, "isbn";
    IssnUrn = IssnUrn, "issn";
    IetfUrn = IetfUrn, "ietf";
    OidUrn = OidUrn, "oid";
    NbnUrn = NbnUrn, "nbn";
    LexUrn = LexUrn, "lex";
    MpegUrn = MpegUrn, "mpeg";
    OgcUrn = OgcUrn, "ogc";
    ExampleUrn = ExampleUrn, "example";
}

/// Adds the scalar API to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUrn>()?;
    register_typed(m)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(key, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add("TYPED_NIDS", TYPED_NIDS.to_vec())?;
    m.add("WRONG_NAMESPACE", WRONG_NAMESPACE)?;
    m.add("INVALID_NSS", INVALID_NSS)?;
    Ok(())
}
