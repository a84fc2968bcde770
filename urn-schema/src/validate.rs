//! JSON Schema validation whose URN errors read like the parser's (feature `validate`): a
//! `jsonschema` validator in which every URN `pattern` of this crate's schemas is checked by
//! the parser itself, so a bad value is reported as
//! `/see_also/1: invalid URN: ' ' at byte 13 is not allowed in the NSS` rather than as a
//! long regular expression, and a typed field also names its namespace's rule
//! (`invalid isbn URN: the check digit does not match (byte 21)`).
//!
//! Other keywords (`required`, `type`, `maxLength`, other patterns and formats) are validated
//! by `jsonschema` as usual, with its messages.

use core::fmt;

use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value};
use urn_core::{KnownNamespace, Urn, UrnKey, patterns};

/// The keyword the validator puts in place of a URN `pattern` (in its own copy of the schema).
const KEYWORD: &str = "x-urn-parser";

/// What a URN pattern of this crate's schemas stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    /// `patterns::URN`: any RFC 8141 URN.
    Urn,
    /// `patterns::URN_KEY`: a canonical key.
    Key,
    /// `patterns::namespace_urn(nid, …)`: a URN of one namespace, with that namespace's rules
    /// when urn-core knows them.
    Namespace(String),
}

impl Rule {
    /// The rule a pattern of this crate stands for; `None` for any other pattern.
    fn of(pattern: &str) -> Option<Rule> {
        if pattern == patterns::URN {
            return Some(Rule::Urn);
        }
        if pattern == patterns::URN_KEY {
            return Some(Rule::Key);
        }
        let nid = nid_of_namespace_pattern(pattern)?;
        // The generic NSS (any namespace) or a known namespace's own NSS pattern.
        let mut nss_patterns = core::iter::once(patterns::NSS)
            .chain(KnownNamespace::ALL.iter().map(|ns| ns.nss_pattern()));
        nss_patterns
            .any(|nss| patterns::namespace_urn(&nid, nss) == pattern)
            .then_some(Rule::Namespace(nid))
    }

    /// The keyword value that carries this rule in the rewritten schema.
    fn encode(&self) -> String {
        match self {
            Rule::Urn => "urn".to_owned(),
            Rule::Key => "key".to_owned(),
            Rule::Namespace(nid) => format!("namespace:{nid}"),
        }
    }

    /// The rule [`Rule::encode`] wrote.
    fn decode(value: &str) -> Option<Rule> {
        match value {
            "urn" => Some(Rule::Urn),
            "key" => Some(Rule::Key),
            _ => value
                .strip_prefix("namespace:")
                .map(|nid| Rule::Namespace(nid.to_owned())),
        }
    }

    /// The parser's verdict on `text`, as its message.
    fn check(&self, text: &str) -> Result<(), String> {
        match self {
            Rule::Urn => Urn::parse(text).map(drop).map_err(|e| e.to_string()),
            Rule::Key => UrnKey::parse(text).map(drop).map_err(|e| e.to_string()),
            Rule::Namespace(nid) => {
                let urn = Urn::parse(text).map_err(|e| e.to_string())?;
                if !urn.nid().eq_ignore_ascii_case(nid) {
                    return Err(format!(
                        "expected a URN of the \"{nid}\" namespace, found NID \"{}\"",
                        urn.nid()
                    ));
                }
                match KnownNamespace::from_nid(nid) {
                    Some(_) => urn.validate_namespace().map_err(|e| e.to_string()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The NID of a pattern `patterns::namespace_urn` wrote (`^[Uu][Rr][Nn]:[Ii][Ss][Bb][Nn]:(…`),
/// read back: each letter is written `[Xx]`, digits and `-` as themselves.
fn nid_of_namespace_pattern(pattern: &str) -> Option<String> {
    let mut rest = pattern.strip_prefix("^[Uu][Rr][Nn]:")?;
    let mut nid = String::new();
    loop {
        if let Some(after) = rest.strip_prefix(':') {
            return after.starts_with('(').then_some(nid);
        }
        let bytes = rest.as_bytes();
        match bytes {
            [b'[', upper, lower, b']', ..] if upper.to_ascii_lowercase() == *lower => {
                nid.push(char::from(*lower));
                rest = rest.get(4..)?;
            }
            [b, ..] if b.is_ascii_digit() || *b == b'-' => {
                nid.push(char::from(*b));
                rest = rest.get(1..)?;
            }
            _ => return None,
        }
    }
}

/// The custom keyword: the parser's verdict on strings (other types are left to `type`).
struct ParserKeyword(Rule);

impl<'i> Keyword<'i> for ParserKeyword {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match instance.as_str().map(|s| self.0.check(s)) {
            Some(Err(message)) => Err(ValidationError::custom(message)),
            _ => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|s| self.0.check(s).is_ok())
    }
}

/// A copy of `schema` in which every URN pattern of this crate is replaced by the parser
/// keyword (carrying the rule); returns how many were replaced.
fn rewrite(schema: &mut Value) -> usize {
    match schema {
        Value::Object(map) => {
            let mut n = 0;
            let rule = map
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(Rule::of);
            if let Some(rule) = rule {
                map.remove("pattern");
                map.insert(KEYWORD.to_owned(), Value::from(rule.encode()));
                n += 1;
            }
            n + map.values_mut().map(rewrite).sum::<usize>()
        }
        Value::Array(items) => items.iter_mut().map(rewrite).sum(),
        _ => 0,
    }
}

/// The keyword's factory: reads the rule back from the rewritten schema.
fn factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    match value.as_str().and_then(Rule::decode) {
        Some(rule) => Ok(Box::new(ParserKeyword(rule))),
        None => Err(ValidationError::custom(format!("unknown {KEYWORD} rule"))),
    }
}

/// One reason an instance does not match its schema: where (a JSON pointer into the instance,
/// `""` for the root) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The JSON pointer of the offending value, e.g. `/see_also/1`.
    pub instance_path: String,
    /// Why: the parser's message for a URN, otherwise the validator's.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.instance_path.is_empty() {
            "/"
        } else {
            &self.instance_path
        };
        write!(f, "{path}: {}", self.message)
    }
}

/// The problems one validation error stands for, each marked whether a URN rule found it.
fn explain(error: &ValidationError<'_>) -> Vec<(Problem, bool)> {
    use jsonschema::error::ValidationErrorKind as Kind;
    let here = |message: String| Problem {
        instance_path: error.instance_path().to_string(),
        message,
    };
    match error.kind() {
        Kind::Custom { message, .. } => vec![(here(message.clone()), true)],
        Kind::OneOfNotValid { context } | Kind::AnyOf { context } => {
            let urn_rules: Vec<(Problem, bool)> = context
                .iter()
                .flatten()
                .flat_map(explain)
                .filter(|(_, urn_rule)| *urn_rule)
                .collect();
            if urn_rules.is_empty() {
                vec![(here(error.to_string()), false)]
            } else {
                urn_rules
            }
        }
        _ => vec![(here(error.to_string()), false)],
    }
}

/// Why a schema could not be compiled.
#[derive(Debug)]
pub struct SchemaError(String);

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON Schema: {}", self.0)
    }
}

impl std::error::Error for SchemaError {}

/// A compiled JSON Schema whose URN fields are checked by the parser.
///
/// ```
/// use serde_json::json;
/// #[derive(schemars::JsonSchema)]
/// struct Book { id: urn_schema::Urn, isbn: urn_schema::IsbnUrn, see_also: Vec<urn_schema::Urn> }
///
/// let schema = serde_json::to_value(schemars::schema_for!(Book)).unwrap();
/// let validator = urn_schema::Validator::new(&schema)?;
/// let problems = validator
///     .validate(&json!({
///         "id": "urn:example:book",
///         "isbn": "urn:isbn:0-395-36341-2",
///         "see_also": ["urn:example:a", "urn:example:a b"],
///     }))
///     .unwrap_err();
/// let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
/// assert_eq!(lines, [
///     "/isbn: invalid isbn URN: the check digit does not match (byte 21)",
///     "/see_also/1: invalid URN: ' ' at byte 13 is not allowed in the NSS",
/// ]);
/// # Ok::<(), urn_schema::SchemaError>(())
/// ```
pub struct Validator {
    inner: jsonschema::Validator,
}

impl Validator {
    /// Compiles `schema` (any draft `jsonschema` supports; this crate's documents are 2020-12),
    /// with `format` assertions on.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        let mut schema = schema.clone();
        rewrite(&mut schema);
        let inner = jsonschema::options()
            .should_validate_formats(true)
            .with_keyword(KEYWORD, factory)
            .build(&schema)
            .map_err(|e| SchemaError(e.to_string()))?;
        Ok(Validator { inner })
    }

    /// Whether `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.inner.is_valid(instance)
    }

    /// Every problem with `instance`, in document order. Where no branch of a `oneOf` or
    /// `anyOf` matched (an `Option<IsbnUrn>` is `IsbnUrn` or `null`) and a branch failed on a
    /// URN rule, that rule's message is the problem.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<Problem>> {
        let mut problems = Vec::new();
        for error in self.inner.iter_errors(instance) {
            problems.extend(explain(&error).into_iter().map(|(problem, _)| problem));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}
