//! What runner.toml may not hold: [`ConfigError`], the file, line and column of the first
//! thing wrong and why ([`Invalid`]), and the check of every key against the fields the file is
//! read into, which names the closest known key to an unknown one.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::bounds::Whole;
use crate::bounds::MAX_JOBS;
use crate::checking::NameError;

/// A problem in the file, located by byte span.
#[derive(Debug)]
pub(super) struct SpannedError {
    span: Range<usize>,
    reason: Invalid,
}

impl SpannedError {
    pub(super) fn new<T>(value: &Spanned<T>, reason: Invalid) -> Self {
        SpannedError {
            span: value.span(),
            reason,
        }
    }

    /// toml's error for a document it cannot read (`text`): its own description, with the
    /// text it points at (the key written twice, for a duplicate key).
    pub(super) fn syntax(error: toml::de::Error, text: &str) -> Self {
        let span = error.span().unwrap_or(0..0);
        let near = pointed_at(text, &span);
        SpannedError {
            span,
            reason: Invalid::Syntax {
                message: error.message().trim_end().to_string(),
                near,
            },
        }
    }

    /// serde's error for a value of the wrong type in `text`: the key it is the value of, what
    /// that key takes and what it holds (serde's description when the value cannot be found).
    pub(super) fn wrong_type(error: toml::de::Error, text: &str) -> Self {
        let span = error.span().unwrap_or(0..0);
        let found = DeTable::parse(text)
            .ok()
            .and_then(|document| value_at(document.get_ref(), span.start, &mut vec![]));
        let Some((key, found)) = found else {
            return SpannedError::syntax(error, text);
        };
        SpannedError {
            span,
            reason: Invalid::WrongType {
                expected: expected_of(&key),
                key: key.join("."),
                found,
            },
        }
    }

    pub(super) fn located(self, path: &Path, text: &str) -> ConfigError {
        let (line, column) = line_column(text, self.span.start);
        ConfigError {
            file: path.to_path_buf(),
            line,
            column,
            reason: self.reason,
        }
    }
}

/// The line and column (from 1) of byte `offset` of `text`.
pub(super) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let at = grundy_problems::InputError::at(text.as_bytes(), offset, "");
    (at.line, at.column)
}

/// What runner.toml holds that it should not, and where.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}:{column}: {reason}", file.display())]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub reason: Invalid,
}

/// Why runner.toml is refused.
#[derive(Debug, thiserror::Error)]
pub enum Invalid {
    /// Not TOML; toml's own description, and the text it points at when that is short.
    #[error("{message}{}", near.as_ref().map(|near| format!(": `{near}`")).unwrap_or_default())]
    Syntax {
        message: String,
        near: Option<String>,
    },
    /// A value the key cannot take (a string for a number, a negative count): the key's dotted
    /// path, what it takes, and the value found.
    #[error("`{key}`: expected {expected}, found {found}")]
    WrongType {
        key: String,
        expected: &'static str,
        found: String,
    },
    /// `key` is none of `expected` (serde's wording, which the file's authors know).
    #[error(
        "unknown field `{key}`, expected one of {}{}",
        backquoted(expected),
        crate::suggest::did_you_mean(key, expected.iter().copied())
    )]
    UnknownKey {
        key: String,
        expected: &'static [&'static str],
    },
    #[error("{key} must be {bound}, not {value}")]
    OutOfRange {
        key: &'static str,
        bound: Whole,
        value: u64,
    },
    #[error("jobs must be at most {MAX_JOBS} (0 means one per core)")]
    TooManyJobs,
    #[error("box_uids must be at least 1")]
    NoBoxUids,
    #[error("isolate must be true, false, \"strict\" or \"off\", not {0}")]
    Isolate(toml::Value),
    /// A checker or interactor that cannot be used.
    #[error(transparent)]
    Judge(#[from] NameError),
    #[error(
        "{}, and no folder of the fixtures root has that name: [problems.<id>] must name one or \
         the other",
        crate::builtin::unknown(.0)
    )]
    UnknownProblem(String),
}

/// `` `a`, `b`, `c` ``.
fn backquoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    quoted.join(", ")
}

/// The unknown key that comes first in the file, as an error: a top-level key none of `top`,
/// or a key of a `[problems.<id>]` table none of `table`.
pub(super) fn first_unknown_key(
    document: &DeTable,
    top: &'static [&'static str],
    table: &'static [&'static str],
) -> Option<SpannedError> {
    let mut unknown: Vec<SpannedError> = unknown_in(document, top).collect();
    if let Some(DeValue::Table(problems)) = document.get("problems").map(Spanned::get_ref) {
        for problem in problems.values() {
            if let DeValue::Table(problem) = problem.get_ref() {
                unknown.extend(unknown_in(problem, table));
            }
        }
    }
    unknown.into_iter().min_by_key(|error| error.span.start)
}

/// The keys of `table` that are none of `known`, as errors.
fn unknown_in<'a>(
    table: &'a DeTable,
    known: &'static [&'static str],
) -> impl Iterator<Item = SpannedError> + 'a {
    table
        .keys()
        .filter(|key| !known.contains(&key.get_ref().as_ref()))
        .map(move |key| {
            let key_name = key.get_ref().to_string();
            SpannedError::new(
                key,
                Invalid::UnknownKey {
                    key: key_name,
                    expected: known,
                },
            )
        })
}

/// The fields of struct `T` as its derived `Deserialize` knows them, so the keys checked are
/// the keys read, with no second list to keep in step: the derive hands them to
/// `deserialize_struct`, which [`FieldNames`] answers with them as its error.
pub(super) fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    match T::deserialize(FieldNames) {
        Err(FieldsFound(fields)) => fields,
        Ok(_) => &[],
    }
}

/// A deserializer that reads nothing: asked for a struct, it fails with the struct's fields.
struct FieldNames;

#[derive(Debug)]
struct FieldsFound(&'static [&'static str]);

impl std::fmt::Display for FieldsFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fields {:?}", self.0)
    }
}

impl std::error::Error for FieldsFound {}

impl serde::de::Error for FieldsFound {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        FieldsFound(&[])
    }
}

impl<'de> serde::Deserializer<'de> for FieldNames {
    type Error = FieldsFound;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, FieldsFound> {
        Err(FieldsFound(&[]))
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, FieldsFound> {
        Err(FieldsFound(fields))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The text `span` covers, when it is short and on one line: the whole header for a span in a
/// table header (`[problems.nim]`).
fn pointed_at(text: &str, span: &Range<usize>) -> Option<String> {
    let covered = text.get(span.clone())?.trim();
    let line_start = text[..span.start].rfind('\n').map_or(0, |at| at + 1);
    let line = text[line_start..].lines().next().unwrap_or_default().trim();
    let near = if line.starts_with('[') { line } else { covered };
    (!near.is_empty() && !near.contains('\n') && near.chars().count() <= 60)
        .then(|| crate::escape::visible_line(near).into_owned())
}

/// The key path and a description of the value (not a table) whose span holds `at`.
fn value_at(table: &DeTable, at: usize, path: &mut Vec<String>) -> Option<(Vec<String>, String)> {
    for (key, value) in table {
        path.push(key.get_ref().to_string());
        let found = match value.get_ref() {
            DeValue::Table(inner) => value_at(inner, at, path),
            other if value.span().contains(&at) => Some((path.clone(), described(other))),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        path.pop();
    }
    None
}

/// A value as an error names it: `the string "two"`, `-1`, `an array`.
fn described(value: &DeValue) -> String {
    match value {
        DeValue::String(text) => format!("the string \"{}\"", crate::escape::visible_line(text)),
        DeValue::Integer(number) => number.to_string(),
        DeValue::Float(number) => number.to_string(),
        DeValue::Boolean(truth) => truth.to_string(),
        DeValue::Datetime(when) => format!("the date-time {when}"),
        DeValue::Array(_) => "an array".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// What the key at `path` takes, in words.
pub(super) fn expected_of(path: &[String]) -> &'static str {
    match path {
        [problems, _] if problems == "problems" => "a table of the problem's settings",
        [.., key] => match key.as_str() {
            "fixtures" => "a path, as a string",
            "jobs" => "a whole number (0 means one per core)",
            "first_box_uid" | "box_uids" => "a whole number below 2^32",
            "problems" => "a table of [problems.<id>] tables",
            "checker" => {
                "a checker name as a string (tokens, lines, float:ABS:REL, kattis:CMD, ...)"
            }
            "interactor" => "an interactor as a string (kattis:CMD or testlib:CMD)",
            "isolate" => "true, false, \"strict\" or \"off\"",
            key if key.ends_with("_ms") => "a whole number of milliseconds",
            key if key.ends_with("_mb") => "a whole number of MiB",
            _ => "another type",
        },
        [] => "a table",
    }
}
