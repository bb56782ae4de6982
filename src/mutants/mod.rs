//! `grundy mutants`: first-order mutants of an accepted submission, each the source with one
//! token changed ([`operators`]) or one expression ([`conditions`]), over the tokens [`scan`]
//! finds (comments and literals left alone) less those [`syntax`] says are no operators where
//! they stand, in a deterministic order: file by file, then by position, then by operator. Each is
//! named by its number in that order, which a sample (`--max N --seed S`, [`sample`]) keeps, so
//! a mutant has the same name in every run of the same source.
//!
//! Not for: building or judging them (their copies and their judging are `copies` and `judge`,
//! on the build cache and the verification library), nor reporting.

pub mod conditions;
pub mod copies;
pub mod judge;
pub mod operators;
pub mod scan;
pub mod search;
pub mod syntax;

#[cfg(test)]
mod conditions_tests;
#[cfg(test)]
mod operators_tests;
#[cfg(test)]
mod scan_tests;
#[cfg(test)]
mod syntax_tests;

use std::io::Read;
use std::path::PathBuf;

use thiserror::Error;

use crate::files::beneath::OpenError;
use crate::package::programs::Program;
pub use operators::Operator;
use scan::{Family, ScanError};

/// The largest source file mutated: what a contest submission is, many times over.
pub const MAX_SOURCE: u64 = 1 << 20;

/// The most characters of the changed line a mutant's diff shows.
const SHOWN: usize = 120;

/// One mutant: which file of the program changes, where, and into what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// Its number in the program's whole list, from 1: its name in every run.
    pub number: usize,
    /// The index of the file changed in the program's files.
    pub file_index: usize,
    /// That file, relative to the program's folder.
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub operator: Operator,
    /// The text replaced, and what replaces it.
    pub from: String,
    pub to: String,
    /// The changed line, mutated, without its indentation (shortened past [`SHOWN`]).
    pub changed_line: String,
    start: usize,
    end: usize,
}

impl Mutant {
    /// The one-line diff: `< → <=: for (int i = 0; i <= n; i++)`.
    pub fn diff(&self) -> String {
        let to = match self.to.is_empty() {
            true => "(nothing)",
            false => &self.to,
        };
        format!("{} → {to}: {}", self.from, self.changed_line)
    }

    /// The file's source with this mutant's change made.
    pub fn apply(&self, source: &[u8]) -> Vec<u8> {
        let mut mutated = source[..self.start].to_vec();
        mutated.extend_from_slice(self.to.as_bytes());
        mutated.extend_from_slice(&source[self.end..]);
        mutated
    }
}

/// Why a program's mutants cannot be made.
#[derive(Debug, Error)]
pub enum MutateError {
    #[error("cannot read {}: {source}", file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: OpenError,
    },
    #[error("cannot read {}: {source}", file.display())]
    Io {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{} is larger than {} KiB: no submission that large is mutated",
        file.display(),
        MAX_SOURCE / 1024
    )]
    TooLarge { file: PathBuf },
    #[error("{}:{source}", file.display())]
    Scan {
        file: PathBuf,
        #[source]
        source: ScanError,
    },
}

/// One file of a program, read beneath its tree and bounded: its bytes and permissions.
pub fn read_source(
    file: &crate::files::beneath::TreePath,
) -> Result<(Vec<u8>, std::fs::Permissions), MutateError> {
    let shown = || file.path().to_path_buf();
    let opened = file.open().map_err(|source| MutateError::Read {
        file: shown(),
        source,
    })?;
    let io = |source| MutateError::Io {
        file: shown(),
        source,
    };
    let permissions = opened.metadata().map_err(io)?.permissions();
    let mut bytes = vec![];
    opened
        .take(MAX_SOURCE + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_SOURCE {
        return Err(MutateError::TooLarge { file: shown() });
    }
    Ok((bytes, permissions))
}

/// Every mutant of `program`'s own files (those of a language an operator knows), in order.
pub fn of_program(program: &Program) -> Result<Vec<Mutant>, MutateError> {
    let mut mutants = vec![];
    for (index, file) in program.files.iter().enumerate() {
        let relative = program.relative(file).to_path_buf();
        let Some(family) = Family::of(&relative.to_string_lossy()) else {
            continue;
        };
        let (source, _) = read_source(file)?;
        let made = of_source(&source, family).map_err(|source| MutateError::Scan {
            file: relative.clone(),
            source,
        })?;
        for mut mutant in made {
            mutant.file_index = index;
            mutant.file = relative.clone();
            mutants.push(mutant);
        }
    }
    for (n, mutant) in mutants.iter_mut().enumerate() {
        mutant.number = n + 1;
    }
    Ok(mutants)
}

/// The mutants of one file's `source` (numbered and placed by [`of_program`]).
pub fn of_source(source: &[u8], family: Family) -> Result<Vec<Mutant>, ScanError> {
    let tokens = scan::scan(source, family)?;
    let mut edits = operators::edits(source, &tokens, family);
    let skipped = operators::directive_lines(source, &tokens);
    edits.extend(conditions::edits(source, &tokens, family, &skipped));
    // In place order; at one place, the token's operators before the expression's (stable).
    edits.sort_by_key(|edit| edit.start);
    let made = edits.into_iter().map(|edit| {
        let mutated_line = {
            let line_start = source[..edit.start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |n| n + 1);
            let line_end = source[edit.end..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(source.len(), |n| edit.end + n);
            let mut line = source[line_start..edit.start].to_vec();
            line.extend_from_slice(edit.replacement.as_bytes());
            line.extend_from_slice(&source[edit.end..line_end]);
            let text = String::from_utf8_lossy(&line).trim().to_string();
            match text.chars().count() > SHOWN {
                true => text.chars().take(SHOWN).collect::<String>() + "…",
                false => text,
            }
        };
        Mutant {
            number: 0,
            file_index: 0,
            file: PathBuf::new(),
            line: edit.line,
            column: edit.column,
            operator: edit.operator,
            from: String::from_utf8_lossy(&source[edit.start..edit.end]).into_owned(),
            to: edit.replacement,
            changed_line: mutated_line,
            start: edit.start,
            end: edit.end,
        }
    });
    Ok(made.collect())
}

/// `max` of `mutants` picked by `seed` (the same for the same seed), in their order; all of
/// them when there are no more.
pub fn sample(mutants: Vec<Mutant>, max: usize, seed: u64) -> Vec<Mutant> {
    if mutants.len() <= max {
        return mutants;
    }
    let mut keyed: Vec<(u64, Mutant)> = mutants
        .into_iter()
        .map(|m| {
            (
                crate::seeds::mix(seed ^ crate::seeds::mix(m.number as u64)),
                m,
            )
        })
        .collect();
    keyed.sort_by_key(|(key, m)| (*key, m.number));
    keyed.truncate(max);
    let mut picked: Vec<Mutant> = keyed.into_iter().map(|(_, m)| m).collect();
    picked.sort_by_key(|m| m.number);
    picked
}
