//! What `mutants` reports, as plain data its events carry: the run (which submission of which
//! package, its cases, how many mutants were made and judged: [`MutationRun`]), each mutant's
//! fate ([`MutantRow`]: killed by which case with which verdict, survived, stillborn, or not
//! judged), and the tally every reporter keeps of them ([`MutationTally`]: the mutation score, the
//! cases that killed the most and those that killed none). A survivor is a finding about the
//! data, not a failure of the run; the search may find it an input ([`Distinguished`]) or call
//! it likely equivalent. Why survivors are not searched ([`NotSearched`]) and why a found input
//! was not added ([`Kept`]) stay types until a reporter says them.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::judging::Verdict;
pub use crate::reporting::stressed::Kept;

/// A run of `mutants`, known before anything is judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MutationRun {
    pub problem: String,
    /// The accepted submission mutated, by its path below `submissions/`.
    pub submission: String,
    /// Every case, in judging order.
    pub cases: Vec<String>,
    /// How many mutants its source makes, and how many of them are judged (`--max`).
    pub made: usize,
    pub judged: usize,
    /// `--seed` when `--max` sampled them.
    pub seed: Option<u64>,
    /// How many inputs a survivor's search tries, or why survivors are not searched.
    pub search: Result<usize, NotSearched>,
}

/// Why no survivor is searched: no command makes inputs, or the problem is one stress cannot
/// judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotSearched {
    NoGenerator,
    Interactive,
}

impl std::fmt::Display for NotSearched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotSearched::NoGenerator => {
                "no generator to search with: generators.yaml has no `generate:` command taking \
                 `{seed}`; give one, e.g. --generator 'gen.py {seed} 10'"
            }
            NotSearched::Interactive => {
                "an interactive problem is not searched: stress does not play interactors yet"
            }
        })
    }
}

/// What became of a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A case failed it (a time-limit-exceeded run too).
    Killed,
    /// It passed every case: the data does not tell it from the accepted submission.
    Survived,
    /// It survived, and no input of the search told it from the accepted submission either:
    /// likely equivalent to it.
    Equivalent,
    /// It does not build.
    Stillborn,
    /// It could not be judged: the host, or a case whose checker failed.
    Unjudged,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Killed => "killed",
            Status::Survived => "survived",
            Status::Equivalent => "equivalent",
            Status::Stillborn => "stillborn",
            Status::Unjudged => "unjudged",
        }
    }
}

/// What a mutant's row says beyond its status, kept as the stage made it until a reporter says
/// it (its one line, the same in every format). The reasons are held as errors because
/// `reporting` sits below `mutants`, which makes them.
#[derive(Clone, Debug)]
pub enum Why {
    /// Stillborn: the compiler's first error.
    Stillborn(String),
    /// Not judged: why (`mutants::judge::Unjudged`).
    Unjudged(Arc<dyn std::error::Error + Send + Sync>),
    /// A survivor's search means nothing: why, as stress says it (`mutants::search::Broken`).
    SearchBroken(Arc<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Stillborn(said) => f.write_str(said),
            Why::Unjudged(why) | Why::SearchBroken(why) => write!(f, "{why}"),
        }
    }
}

/// One mutant judged.
#[derive(Clone, Debug)]
pub struct MutantRow {
    /// Its name as a unit: the submission and its number.
    pub subject: String,
    pub status: Status,
    /// The file changed, relative to the submission, and the line.
    pub file: String,
    pub line: usize,
    /// The one-line diff.
    pub diff: String,
    /// The case that killed it, and its verdict there.
    pub killed_by: Option<(String, Verdict)>,
    /// Why it was stillborn or not judged, or why the search for a survivor's input means
    /// nothing.
    pub why: Option<Why>,
    /// A survivor's distinguishing input, where the search found one.
    pub found: Option<Distinguished>,
}

/// An input that tells a survivor from the accepted submission.
#[derive(Clone, Debug, PartialEq)]
pub struct Distinguished {
    /// The generator command that makes it, seed in place.
    pub command: String,
    /// Under `--add`: the case it was written as (`secret/mutant-3`), or why it was not.
    pub added: Option<Result<String, Kept>>,
}

/// The counts of a run's mutants, and how often each case killed one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MutationTally {
    pub killed: usize,
    pub survived: usize,
    pub equivalent: usize,
    /// Survivors the search found an input for, and of them those added as cases.
    pub found: usize,
    pub added: usize,
    pub stillborn: usize,
    pub unjudged: usize,
    /// Per case, the mutants it killed.
    pub kills: BTreeMap<String, usize>,
}

impl MutationTally {
    pub fn add(&mut self, row: &MutantRow) {
        match row.status {
            Status::Killed => self.killed += 1,
            Status::Survived => self.survived += 1,
            Status::Equivalent => self.equivalent += 1,
            Status::Stillborn => self.stillborn += 1,
            Status::Unjudged => self.unjudged += 1,
        }
        if let Some(found) = &row.found {
            self.found += 1;
            self.added += usize::from(matches!(found.added, Some(Ok(_))));
        }
        if let Some((case, _)) = &row.killed_by {
            *self.kills.entry(case.clone()).or_default() += 1;
        }
    }

    /// The mutation score, killed / (killed + survived); none when no mutant was either. A
    /// likely equivalent mutant is not counted: no data could kill it.
    pub fn score(&self) -> Option<f64> {
        let judged = self.killed + self.survived;
        (judged > 0).then(|| self.killed as f64 / judged as f64)
    }

    /// The cases that killed a mutant, the most first (then in name order).
    pub fn killers(&self) -> Vec<(&str, usize)> {
        let mut killers: Vec<(&str, usize)> =
            self.kills.iter().map(|(c, n)| (c.as_str(), *n)).collect();
        killers.sort_by_key(|&(case, n)| (std::cmp::Reverse(n), case));
        killers
    }

    /// Of `cases`, those that killed none, in their order.
    pub fn idle<'a>(&self, cases: &'a [String]) -> Vec<&'a str> {
        let idle = cases.iter().filter(|c| !self.kills.contains_key(*c));
        idle.map(String::as_str).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: Status, killed_by: Option<&str>) -> MutantRow {
        MutantRow {
            subject: "accepted/a.py mutant 1".into(),
            status,
            file: "a.py".into(),
            line: 1,
            diff: "< → <=: x <= y".into(),
            killed_by: killed_by.map(|c| (c.to_string(), Verdict::WA)),
            why: None,
            found: None,
        }
    }

    #[test]
    fn the_score_counts_killed_over_killed_and_survived_only() {
        let mut tally = MutationTally::default();
        assert_eq!(tally.score(), None);
        for (status, case) in [
            (Status::Killed, Some("secret/2")),
            (Status::Killed, Some("secret/1")),
            (Status::Killed, Some("secret/2")),
            (Status::Survived, None),
            (Status::Equivalent, None),
            (Status::Stillborn, None),
        ] {
            tally.add(&row(status, case));
        }
        assert_eq!(tally.score(), Some(0.75));
        assert_eq!(tally.killers(), [("secret/2", 2), ("secret/1", 1)]);
        let cases = ["sample/1", "secret/1", "secret/2"].map(String::from);
        assert_eq!(tally.idle(&cases), ["sample/1"]);
    }
}
