//! The search for the case a survivor's data misses, and `--add`: for a package, inputs from
//! its generators ([`package`]); for a built-in problem, from its Rust generator ([`builtin`]).
//! Either way each input is one case as `stress` tries it, the first that tells a survivor from
//! the accepted submission is shrunk where the problem can be, and a survivor none of the
//! budget's inputs tells apart is likely equivalent.
//!
//! Not for: judging the mutants on the data ([`super::judge`]).

pub mod builtin;
pub mod package;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::config::Settings;
use crate::package::submissions::Submission;
use crate::reporting::mutated::Kept;
use crate::running::pool::{Jobs, Stop};
use crate::stages::Pool;
use crate::stress::package::trial::Found;
use crate::verification::judge::Prepared;

/// What the search found of one survivor.
pub enum Searched {
    /// An input that tells it from the accepted submission: how it was made (the generator
    /// command, seed in place), and the case.
    Found { command: String, found: Box<Found> },
    /// None of the inputs of the budget did: likely equivalent.
    Equivalent,
    /// The search means nothing: the generator, a validator or the reference failed on an
    /// input (why, as stress says it).
    Broken(Broken),
}

/// Why a survivor's search means nothing, as stress says it of a built-in problem or a package.
#[derive(Debug, thiserror::Error)]
pub enum Broken {
    #[error(transparent)]
    Builtin(crate::stress::Broken),
    #[error("{0}")]
    Package(crate::stress::package::trial::Broken),
}

/// The first of `count` jobs, in job order, that fails (by [`Jobs::failed`]): one input that
/// tells a survivor apart or tells nothing; none when every input agreed. Run on the pool with
/// fail-fast, so no job after it starts, and the one found does not depend on the workers.
fn first_failing<J: Jobs>(
    pool: &Pool,
    jobs: Arc<J>,
    count: usize,
) -> Result<Option<J::Output>, Stop> {
    let mut first = None;
    let keep = Arc::clone(&jobs);
    pool.failing_fast()
        .run_each(jobs, count, "searching for a case", |_, output| {
            if let Some(output) = output.filter(|o| keep.failed(o)) {
                first.get_or_insert(output);
            }
        })?;
    Ok(first)
}

/// Where the survivors' inputs come from, not built yet.
pub enum Source {
    Package(Box<package::Source>),
    BuiltIn(Box<builtin::Source>),
}

/// A search made ready.
pub enum Search {
    Package(package::Search),
    BuiltIn(Box<builtin::Search>),
}

impl Source {
    /// The search made ready: what it runs built, each survivor run with `settings`, `budget`
    /// inputs each, their seeds from `seed`; a package's answers are `accepted`'s.
    pub fn ready(
        self,
        accepted: &Submission,
        pool: &Pool,
        settings: Settings,
        (budget, seed): (usize, u64),
    ) -> Result<Search, Stop> {
        Ok(match self {
            Source::Package(source) => {
                Search::Package(source.ready(accepted, pool, settings, budget, seed)?)
            }
            Source::BuiltIn(source) => {
                Search::BuiltIn(Box::new(source.ready(settings, budget, seed)))
            }
        })
    }
}

impl Search {
    /// Searches for an input that tells survivor `s` of `prepared` from the accepted
    /// submission, on the pool; `cancel` (Ctrl-C) stops it.
    pub fn survivor(
        &self,
        prepared: &Prepared,
        s: usize,
        pool: &Pool,
        cancel: &AtomicBool,
    ) -> Result<Searched, Stop> {
        let subject = prepared
            .subject(s)
            .expect("a survivor was judged, so it has a program")
            .clone();
        match self {
            Search::Package(search) => search.survivor(subject, pool, cancel),
            Search::BuiltIn(search) => search.survivor(subject, pool),
        }
    }

    /// `--add`: writes `found`, the input that tells mutant `number` apart (made by
    /// `command`), as a new case; its name, or why it was not written (a case of that name is
    /// there).
    pub fn add(
        &self,
        number: usize,
        (command, found): (&str, &Found),
        pool: &Pool,
    ) -> Result<Result<String, Kept>, Stop> {
        match self {
            Search::Package(search) => search.add(number, command, found, pool),
            Search::BuiltIn(search) => Ok(search.add(number, found)?),
        }
    }
}
