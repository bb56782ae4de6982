//! What runner.toml may not hold: [`ConfigError`], the file, line and column of the first
//! thing wrong and why ([`Invalid`]), and the check of every key against the fields the file is
//! read into, which names the closest known key to an unknown one.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::MAX_JOBS;
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

    /// toml's error (for a document it cannot read) as the `reason` its message is.
    pub(super) fn toml(error: toml::de::Error, reason: fn(String) -> Invalid) -> Self {
        SpannedError {
            span: error.span().unwrap_or(0..0),
            reason: reason(error.message().trim_end().to_string()),
        }
    }

    pub(super) fn located(self, path: &Path, text: &str) -> ConfigError {
        let at = grundy_problems::InputError::at(text.as_bytes(), self.span.start, "");
        let mut reason = self.reason;
        // toml's syntax errors do not quote what they are about (`duplicate key`): the text
        // at the error's place names it, when it is a short piece of one line.
        if let Invalid::Syntax(message) = &mut reason {
            let quoted = text
                .get(self.span.clone())
                .map(str::trim)
                .filter(|piece| !piece.is_empty() && piece.len() <= 60 && !piece.contains('\n'));
            if let Some(piece) = quoted {
                *message = format!("{message}: `{piece}`");
            }
        }
        ConfigError {
            file: path.to_path_buf(),
            line: at.line,
            column: at.column,
            reason,
        }
    }
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
    /// Not TOML; toml's own description.
    #[error("{0}")]
    Syntax(String),
    /// A value serde cannot make the key's type of (a string for a number, a negative count);
    /// serde's own description.
    #[error("{0}")]
    WrongType(String),
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
    #[error("{key} must be between 1 and {max}, not {value}")]
    OutOfRange {
        key: &'static str,
        max: u64,
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
