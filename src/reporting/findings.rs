//! What `verify` finds in a problem, as types its events carry until a reporter renders them:
//! what makes the package invalid ([`Fault`]), what could not be checked ([`Unchecked`]), why
//! its outputs cannot be judged ([`Unjudgeable`]), what judging warns of ([`JudgingWarning`]),
//! the programs the host failed to build ([`Unbuilt`]), and the packages that could not be
//! verified at all ([`Unreadable`]). Validation, judging and settling make them (`validation`,
//! `verification`, and `generation`'s validation); each renders as the one line every format
//! shows (the JSON reporter prints the same text). They carry the errors of `build` and `model`
//! as those make them (`HostError`, `NoBuild`, `Unusable`, `OutOfRange`), which is why
//! `reporting` sits above those two and below the stages that report.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::seconds;
use crate::build::{HostError, NoBuild};
use crate::judging::Verdict;
use crate::model::scoring::OutOfRange;
use crate::model::{MarginFacts, Unusable};
use crate::package::limits::{Margin, TimeLimitError};
use crate::package::yaml::Diagnostic;

/// What makes a package invalid.
#[derive(Clone, Debug)]
pub enum Fault {
    /// A judged input an input validator rejects, with what it said.
    InputRejected {
        case: String,
        validator: String,
        said: String,
    },
    /// An input validator that failed on an input (a crash, a wrong exit code).
    InputValidatorBroken {
        case: String,
        validator: String,
        said: String,
    },
    /// An answer an answer validator rejects.
    AnswerRejected {
        case: String,
        validator: String,
        said: String,
    },
    /// An answer validator that failed on an answer.
    AnswerValidatorBroken {
        case: String,
        validator: String,
        said: String,
    },
    /// A `valid_output` (`must_accept`) or `invalid_output` case the output validator judged
    /// the other way, or failed on.
    OutputCase {
        case: String,
        must_accept: bool,
        but: OutputBut,
    },
    /// An `invalid_input` case every input validator accepts.
    InvalidAccepted(String),
    /// A validator that does not compile.
    DoesNotCompile { validator: String, why: Uncompiled },
    /// This many more validation failures, not listed.
    More(usize),
    /// This many warnings, errors under `--warnings-as-errors`.
    Warnings(usize),
    /// The package's outputs cannot be judged, by its own fault.
    Unjudgeable(Unjudgeable),
    /// A submission's run on a case that the judge (the output validator, a score file) failed.
    JudgeError {
        case: String,
        submission: String,
        why: String,
    },
    /// No time limit to judge with.
    TimeLimit(TimeLimitError),
    /// The time limit against the format's margins ([`margin_findings`]).
    Margins(TimeLimitError),
    /// A scoring problem whose scores cannot be computed.
    Scoring(String),
    /// A group's score outside its range with a submission.
    ScoreOutOfRange {
        fault: OutOfRange,
        submission: String,
    },
    /// Shards of one partition judged the package with different time limits (a computed one
    /// timed either side of a rounding step on their machines), each limit with the shard's
    /// file: `report merge`'s finding, its submissions' verdicts not being one run's.
    ShardLimits(Vec<(Result<Duration, TimeLimitError>, PathBuf)>),
    /// Read back from a report, as its line said it (`report merge`): every reporter shows a
    /// finding by its one line, so that line is all a merged report needs of it.
    Reported(String),
}

/// Why a validator does not compile: the compiler's message, or why a checktestdata script
/// cannot be read or does not parse (shared by every input it would check).
#[derive(Clone, Debug)]
pub enum Uncompiled {
    Compiler(String),
    Script(Arc<Unusable>),
}

impl fmt::Display for Uncompiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uncompiled::Compiler(message) => f.write_str(message),
            Uncompiled::Script(why) => why.fmt(f),
        }
    }
}

/// Why a problem's outputs cannot be judged, and whose fault that is (which checker judges a
/// case is `validation::checkers`').
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unjudgeable {
    /// The package's: its output validator does not compile, a case's flags are wrong.
    #[error("{0}")]
    Package(String),
    /// Nobody's known: its output validator could not be built here (no compiler, an
    /// unsupported language, the host failing), so nothing is known of the package.
    #[error("the output validator {validator}: {why}")]
    NotRun { validator: String, why: NoBuild },
}

/// What became of an output case the output validator had to judge the other way.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputBut {
    Accepted,
    /// Rejected, with what it said.
    Rejected(String),
    /// It failed (a crash, a judge error), with what went wrong.
    Broken(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::InputRejected {
                case,
                validator,
                said,
            } => write!(
                f,
                "input {case} is rejected by the input validator {validator}: {said}"
            ),
            Fault::InputValidatorBroken {
                case,
                validator,
                said,
            } => write!(
                f,
                "the input validator {validator} is broken on {case}: {said}"
            ),
            Fault::AnswerRejected {
                case,
                validator,
                said,
            } => write!(
                f,
                "answer {case} is rejected by the answer validator {validator}: {said}"
            ),
            Fault::AnswerValidatorBroken {
                case,
                validator,
                said,
            } => write!(
                f,
                "the answer validator {validator} is broken on {case}: {said}"
            ),
            Fault::OutputCase {
                case,
                must_accept,
                but,
            } => {
                let wanted = if *must_accept { "accept" } else { "reject" };
                write!(f, "the output validator must {wanted} {case}, but ")?;
                match but {
                    OutputBut::Accepted => f.write_str("it was accepted"),
                    OutputBut::Rejected(said) => write!(f, "it was rejected: {said}"),
                    OutputBut::Broken(why) => f.write_str(why),
                }
            }
            Fault::InvalidAccepted(case) => write!(
                f,
                "invalid input {case} is accepted by every input validator"
            ),
            Fault::DoesNotCompile { validator, why } => write!(
                f,
                "the validator {validator} does not compile: {}",
                telling_line(&why.to_string())
            ),
            Fault::More(count) => write!(f, "… and {count} more validation failures like these"),
            Fault::Warnings(count) => write!(
                f,
                "{count} warning(s) above, errors under --warnings-as-errors"
            ),
            Fault::Unjudgeable(why) => why.fmt(f),
            Fault::JudgeError {
                case,
                submission,
                why,
            } => write!(f, "judge error on {case} with {submission}: {why}"),
            Fault::TimeLimit(why) | Fault::Margins(why) => write!(f, "time limit: {why}"),
            Fault::Scoring(why) => write!(f, "scoring: {why}"),
            Fault::ScoreOutOfRange { fault, submission } => {
                let OutOfRange {
                    group,
                    score,
                    range,
                } = fault;
                write!(
                    f,
                    "scoring: group {group} got score {score}, outside its range [{}, {}] with \
                     {submission}",
                    range.0, range.1
                )
            }
            Fault::ShardLimits(limits) => {
                let each: Vec<String> = (limits.iter())
                    .map(|(limit, file)| match limit {
                        Ok(limit) => format!("{} in {}", seconds(*limit), file.display()),
                        Err(why) => format!("{why} in {}", file.display()),
                    })
                    .collect();
                write!(
                    f,
                    "time limit: the shards judged it with different limits ({}), so its \
                     verdicts are not those of one run: fix the limit in problem.yaml (grundy \
                     timelimit --write)",
                    each.join(", ")
                )
            }
            Fault::Reported(line) => f.write_str(line),
        }
    }
}

/// What could not be checked: the package is then not known to be valid.
#[derive(Clone, Debug)]
pub enum Unchecked {
    /// A validator (the output validator, for judging) that could not be built or run here,
    /// and why.
    NotRun { validator: String, why: NoBuild },
    /// Scores the package asks to be computed by rules grundy does not apply.
    Scoring(String),
    /// No time limit, because a submission it is computed from was not built.
    TimeLimit(TimeLimitError),
    /// Read back from a report, as its line said it (`report merge`): every reporter shows a
    /// finding by its one line, so that line is all a merged report needs of it.
    Reported(String),
}

impl Unchecked {
    /// Whether `other` tells the same: a validator that did not run (validation and judging
    /// both find the output validator's), the same scoring or time limit reason.
    pub fn same_as(&self, other: &Unchecked) -> bool {
        match (self, other) {
            (
                Unchecked::NotRun { validator, .. },
                Unchecked::NotRun {
                    validator: other, ..
                },
            ) => validator == other,
            (Unchecked::Scoring(why), Unchecked::Scoring(other)) => why == other,
            (Unchecked::TimeLimit(why), Unchecked::TimeLimit(other)) => why == other,
            (Unchecked::Reported(line), Unchecked::Reported(other)) => line == other,
            _ => false,
        }
    }
}

impl fmt::Display for Unchecked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unchecked::NotRun { validator, why } => {
                write!(f, "{validator}: {}", telling_line(&why.to_string()))
            }
            Unchecked::Scoring(why) => write!(f, "scoring: {why}"),
            Unchecked::TimeLimit(why) => write!(
                f,
                "time limit: {why} (a submission it is computed from was not built)"
            ),
            Unchecked::Reported(line) => f.write_str(line),
        }
    }
}

/// What judging noticed that is worth fixing but fails nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum JudgingWarning {
    /// The slowest run of the submissions that bound the limit from below has less room under
    /// it than the format's margin.
    ThinMargin(ThinMargin),
    /// A run that finished within a tenth of the limit, either side: another machine could
    /// judge it the other way.
    CloseCall {
        submission: String,
        case: String,
        time: Duration,
        verdict: Verdict,
        limit: Duration,
    },
    /// Read back from a report, as its line said it (`report merge`): every reporter shows a
    /// finding by its one line, so that line is all a merged report needs of it.
    Reported(String),
}

/// A limit tighter than the format's margin for a run ([`Margin`]); when the run is of a
/// submission that does not compute the limit, the limit the format's rule would give with it.
#[derive(Clone, Debug, PartialEq)]
pub struct ThinMargin {
    pub margin: Margin,
    pub with_it: Option<Duration>,
}

impl fmt::Display for JudgingWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgingWarning::ThinMargin(ThinMargin { margin, with_it }) => {
                write!(f, "time limit: {margin}")?;
                match with_it {
                    Some(limit) => write!(
                        f,
                        "; grundy computes the limit from the accepted submissions alone, as \
                         problemtools does, while the format and BAPCtools' bt time_limit count \
                         this one too, which would make it {}",
                        seconds(*limit)
                    ),
                    None => Ok(()),
                }
            }
            JudgingWarning::CloseCall {
                submission,
                case,
                time,
                verdict,
                limit,
            } => write!(
                f,
                "close to the time limit: {submission} on {case} used {} of CPU time ({verdict}, \
                 limit {})",
                seconds(*time),
                seconds(*limit)
            ),
            JudgingWarning::Reported(line) => f.write_str(line),
        }
    }
}

/// A program of a problem the host failed to build (a judge error).
#[derive(Clone, Debug)]
pub enum Unbuilt {
    /// Its path in the problem, and what went wrong.
    Host { path: PathBuf, error: HostError },
    /// Read back from a report, as its line said it (`report merge`): every reporter shows a
    /// finding by its one line, so that line is all a merged report needs of it.
    Reported(String),
}

impl fmt::Display for Unbuilt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbuilt::Host { path, error } => {
                write!(f, "{} could not be built: {error}", path.display())
            }
            Unbuilt::Reported(line) => f.write_str(line),
        }
    }
}

/// A package that could not be verified: the run is incomplete.
#[derive(Clone, Debug, PartialEq)]
pub enum Unreadable {
    /// It could not be found or read: the package (as shown: its folder, or the folder that
    /// could not be searched) and the located error, which may be in any file of it.
    Package { package: String, error: Diagnostic },
    /// Its data could not all be generated: the package (as shown) and how many cases failed.
    NotGenerated { package: String, failed: usize },
    /// Its `generators.yaml` cannot be used, so its data was not made and it was not verified:
    /// the package (as shown) and the plan's located errors.
    NoPlan {
        package: String,
        errors: Vec<Diagnostic>,
    },
    /// Read back from a report (`report merge`): the package, and what its line said.
    Reported { package: String, said: String },
}

impl Unreadable {
    /// The package at `root` (a folder it was looked for in) could not be read, for `error`.
    pub fn at(root: &Path, error: Diagnostic) -> Unreadable {
        Unreadable::Package {
            package: crate::model::shown(root),
            error,
        }
    }

    /// The package it is about, as shown.
    pub fn package(&self) -> String {
        match self {
            Unreadable::Package { package, .. }
            | Unreadable::NotGenerated { package, .. }
            | Unreadable::NoPlan { package, .. }
            | Unreadable::Reported { package, .. } => package.clone(),
        }
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::Package { error, .. } => error.fmt(f),
            Unreadable::NotGenerated { package, failed } => write!(
                f,
                "{package}: its data could not all be generated ({failed} cases failed)"
            ),
            Unreadable::NoPlan { package, errors } => write!(
                f,
                "{package}: not verified, as its data cannot be generated by its \
                 generators.yaml (fix it, or verify the data as it is with --no-generate):\n{}",
                lines(errors).join("\n")
            ),
            Unreadable::Reported { said, .. } => f.write_str(said),
        }
    }
}

/// Each of `found` as its line of text.
pub fn lines<T: fmt::Display>(found: &[T]) -> Vec<String> {
    found.iter().map(ToString::to_string).collect()
}

/// What a compiler says first is often where (`sol.c: In function 'main':`) or a warning:
/// the line that says what is wrong is its first error (`error:` of gcc, clang and javac,
/// rustc's `error[E0308]:`, Python's `SyntaxError:`), else its first line.
pub fn first_error(text: &str) -> String {
    let said = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    let error = said().find(|line| {
        let line = line.to_ascii_lowercase();
        line.contains("error:") || line.contains("error[")
    });
    error
        .or_else(|| said().next())
        .unwrap_or_default()
        .to_string()
}

/// A compiler's message in a line of a report: its [`first_error`], ` …` when it says more.
pub fn telling_line(text: &str) -> String {
    let said = text.lines().filter(|line| !line.trim().is_empty()).count();
    let more = if said > 1 { " …" } else { "" };
    format!("{}{more}", first_error(text))
}

/// What the runs of `facts` find of `limit`, the limit judged with: the limit outside the
/// format's margins (the fastest time-limit-exceeded submission not far enough above it, an
/// error), and the slowest run of the submissions that bound it from below with less than
/// `ac_to_time_limit` of room (a warning). A fixed limit is the author's choice; a computed one
/// has that room for the accepted runs it comes from, and a run of another (a `wrong_answer/`
/// one, say) over the limit already fails its expectation as TLE. One run and `report merge`
/// (from every shard's facts) both find them here.
pub fn margin_findings(
    facts: &MarginFacts,
    limit: Duration,
) -> (Option<Fault>, Option<JudgingWarning>) {
    let rule = &facts.rule;
    let fastest_tle = facts.fastest_tle.as_ref().map(|run| run.time);
    let error = rule
        .time_limit(facts.slowest_accepted, fastest_tle)
        .err()
        .map(Fault::Margins);
    let warning = facts.slowest_lower.as_ref().and_then(|lower| {
        let who = match lower.computes_the_limit {
            true => "the slowest accepted run".to_string(),
            false => format!("{}'s slowest run", lower.submission),
        };
        let margin = rule.margin_warning(limit, lower.time, &who)?;
        let with_it = match (rule.time_limit, lower.computes_the_limit) {
            (None, false) => rule.time_limit(Some(lower.time), None).ok(),
            _ => None,
        };
        Some(JudgingWarning::ThinMargin(ThinMargin { margin, with_it }))
    });
    (error, warning)
}

#[cfg(test)]
mod tests {
    use super::{first_error, telling_line};

    #[test]
    fn a_compiler_message_is_told_by_its_error_line() {
        // g++ on an error in a header a validator includes.
        let gcc = "In file included from validate.cpp:1:\n\
                   validate.h:12:10: error: 'array' in namespace 'std' does not name a type\n\
                   \x20  12 |     std::array<int, 3> a;\n";
        assert_eq!(
            telling_line(gcc),
            "validate.h:12:10: error: 'array' in namespace 'std' does not name a type …"
        );
        assert_eq!(telling_line("\nno such file\n"), "no such file");
        // A path saying `error` is context, not the error.
        let context = "run_time_error/a.cpp: In function 'int main()':\na.cpp:3:1: error: x\n";
        assert_eq!(telling_line(context), "a.cpp:3:1: error: x …");
        assert_eq!(telling_line("first\nsecond\n"), "first …");
        assert_eq!(telling_line(""), "");
    }

    #[test]
    fn a_stillborn_mutant_is_said_by_its_compilers_first_error() {
        let gcc = "sol.c: In function 'main':\nsol.c:3:5: warning: unused [-Wunused]\n\
                   sol.c:4:9: error: static assertion failed\nsol.c:5:1: error: later";
        assert_eq!(
            first_error(gcc),
            "sol.c:4:9: error: static assertion failed"
        );
        let rustc = "warning: unused\nerror[E0308]: mismatched types\n --> a.rs:2:5";
        assert_eq!(first_error(rustc), "error[E0308]: mismatched types");
        let python = "  File \"a.py\", line 2\n    x = (\nSyntaxError: '(' was never closed";
        assert_eq!(first_error(python), "SyntaxError: '(' was never closed");
        // No error line: the first that says anything.
        assert_eq!(
            first_error("\n  ./a.go:3:5: undefined: x\n"),
            "./a.go:3:5: undefined: x"
        );
        assert_eq!(first_error(""), "");
    }
}
