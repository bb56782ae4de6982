//! Checkers: deciding whether a program's output is accepted. Four kinds, one [`Checker`]:
//! - a comparison with the one expected output (`tokens`, `lines`, ...: [`compare`]);
//! - the Kattis problem package format's default output validator with a case's flags
//!   ([`crate::checking::default_validator`]), for packages without a validator of their own;
//! - a built-in problem's own checker, for problems with many right answers (Rust, in the
//!   problems crate);
//! - an external checker program of the problem's author, in the Kattis or testlib protocol
//!   ([`external`]), run contained like a judged program.
//!
//! A checker that cannot do its job (crashes, hangs, breaks its protocol, or finds the problem's
//! own files unusable) gives [`Judgement::JudgeError`]: the problem is at fault, not the program.

mod compare;
pub mod default_validator;
pub mod external;
pub mod feedback;
mod judgement;
pub mod score;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use grundy_problems::{CheckFn, Decision, Interaction};

pub use compare::Comparison;
pub use external::{ExternalJudge, Protocol};
pub use feedback::Feedback;
pub use judgement::{Judgement, NameError, Submitted};

/// How a program's output is judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Checker {
    /// Compared with the expected output.
    Compare(Comparison),
    /// A built-in problem's own checker.
    BuiltIn(BuiltInChecker),
    /// A checker program (`kattis:CMD`, `testlib:CMD`).
    External(ExternalJudge),
    /// A Kattis package's default output validator with the case's flags.
    KattisDefault(default_validator::Options),
}

/// A built-in problem's checker, named by its problem.
#[derive(Clone, Debug)]
pub struct BuiltInChecker {
    pub problem: &'static str,
    pub check: CheckFn,
}

impl PartialEq for BuiltInChecker {
    fn eq(&self, other: &Self) -> bool {
        self.problem == other.problem
    }
}

/// The judge an interactive problem's program talks to.
#[derive(Clone)]
pub enum Interactor {
    /// A built-in problem's own judge.
    BuiltIn {
        problem: &'static str,
        interaction: Interaction,
    },
    /// An interactor program (`kattis:CMD`, `testlib:CMD`).
    External(ExternalJudge),
}

impl Interactor {
    /// Parses `kattis:CMD` or `testlib:CMD`, relative paths taken from `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Interactor, NameError> {
        match Protocol::split(text) {
            Some((protocol, command)) => {
                ExternalJudge::parse(protocol, command, base).map(Interactor::External)
            }
            None => Err(NameError::NotAnInteractor(text.to_string())),
        }
    }
}

impl PartialEq for Interactor {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Interactor::BuiltIn { problem: a, .. }, Interactor::BuiltIn { problem: b, .. }) => {
                a == b
            }
            (Interactor::External(a), Interactor::External(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Debug for Interactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Interactor({self})")
    }
}

impl fmt::Display for Interactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interactor::BuiltIn { problem, .. } => write!(f, "built-in ({problem})"),
            Interactor::External(external) => external.fmt(f),
        }
    }
}

/// Command-line `--interactor`: relative paths are taken from the working directory.
impl FromStr for Interactor {
    type Err = NameError;

    fn from_str(text: &str) -> Result<Self, NameError> {
        let here = std::env::current_dir().map_err(NameError::WorkingDirectory)?;
        Interactor::parse(text, &here)
    }
}

impl Checker {
    /// The default: whitespace-separated tokens.
    pub const TOKENS: Checker = Checker::Compare(Comparison::Tokens);

    /// Parses a checker name: a comparison (`tokens`, `float:1e-6:1e-6`, ...) or `kattis:CMD` /
    /// `testlib:CMD`, whose relative paths are taken from `base` (runner.toml's folder, or the
    /// working directory on the command line).
    pub fn parse(text: &str, base: &Path) -> Result<Checker, NameError> {
        match Protocol::split(text) {
            Some((protocol, command)) => {
                ExternalJudge::parse(protocol, command, base).map(Checker::External)
            }
            None => text.parse().map(Checker::Compare),
        }
    }

    /// Judges `submitted.output`. External checkers run as contained processes here (on the
    /// calling thread), under `judge_limits`.
    pub fn judge(
        &self,
        submitted: &Submitted<'_>,
        judge_limits: &grundy_sandbox::Limits,
    ) -> Judgement {
        match self {
            Checker::Compare(comparison) => comparison.judge(submitted.expected, submitted.output),
            Checker::BuiltIn(built_in) => built_in.judge(submitted),
            Checker::External(external) => external.check(submitted, judge_limits),
            Checker::KattisDefault(options) => {
                default_validator::validate(submitted.expected, submitted.output, options)
            }
        }
    }

    /// Whether the checker compares with one expected output (so a differing output can be
    /// shown as a diff, and `--bless` may replace the expected file).
    pub fn compares(&self) -> bool {
        matches!(self, Checker::Compare(_))
    }
}

impl BuiltInChecker {
    fn judge(&self, submitted: &Submitted<'_>) -> Judgement {
        let input = match submitted.input.read() {
            Ok(input) => input,
            Err(error) => return Judgement::JudgeError(format!("the checker {error}")),
        };
        match (self.check)(&input, submitted.expected, submitted.output) {
            Decision::Accept => Judgement::Accepted,
            Decision::Reject(message) => Judgement::WrongAnswer(message),
            Decision::JudgeError(message) => Judgement::JudgeError(format!(
                "the built-in checker of {} cannot judge this case: {message}",
                self.problem
            )),
        }
    }
}

/// Command-line `--checker`: relative paths of an external checker are taken from the working
/// directory.
impl FromStr for Checker {
    type Err = NameError;

    fn from_str(text: &str) -> Result<Self, NameError> {
        let here = std::env::current_dir().map_err(NameError::WorkingDirectory)?;
        Checker::parse(text, &here)
    }
}

impl fmt::Display for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Checker::Compare(comparison) => comparison.fmt(f),
            Checker::BuiltIn(built_in) => write!(f, "built-in ({})", built_in.problem),
            Checker::External(external) => external.fmt(f),
            Checker::KattisDefault(options) => write!(f, "kattis-default{options}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_input::Input;

    #[test]
    fn names_parse_into_the_three_kinds() {
        let here = Path::new("/tmp");
        assert_eq!(Checker::parse("tokens", here).unwrap(), Checker::TOKENS);
        assert!(matches!(
            Checker::parse("float:1e-6:0", here),
            Ok(Checker::Compare(Comparison::Float { .. }))
        ));
        let Ok(Checker::External(kattis)) = Checker::parse("kattis:/bin/cat --flag", here) else {
            panic!("kattis:CMD is an external checker");
        };
        assert_eq!(kattis.protocol, Protocol::Kattis);
        assert_eq!(kattis.to_string(), "kattis:/bin/cat --flag");
        assert!(Checker::parse("testlib:", here).is_err());
        let error = Checker::parse("fuzzy", here).unwrap_err();
        assert!(matches!(&error, NameError::UnknownChecker(name) if name == "fuzzy"));
        assert!(error.to_string().contains("kattis:CMD"), "{error}");
        let error = Checker::parse("line", here).unwrap_err().to_string();
        assert!(
            error.starts_with("unknown checker `line` (did you mean `lines`?);"),
            "{error}"
        );
    }

    #[test]
    fn the_kattis_default_validator_judges_with_the_case_flags() {
        let options = default_validator::Options::parse(&["float_tolerance", "1e-6"]).unwrap();
        let checker = Checker::KattisDefault(options);
        assert_eq!(
            checker.to_string(),
            "kattis-default float_tolerance 0.000001"
        );
        assert!(
            !checker.compares(),
            "no diff: any output within the tolerance is right"
        );
        let limits = grundy_sandbox::Limits {
            time: std::time::Duration::from_secs(1),
            wall: std::time::Duration::from_secs(3),
            memory_bytes: 0,
            output_bytes: 0,
        };
        let judge = |output: &'static [u8]| {
            let submitted = Submitted {
                input: Input::Bytes(b""),
                expected: b"0.3333333\n",
                output,
                feedback: None,
                submission_files: None,
            };
            checker.judge(&submitted, &limits)
        };
        assert_eq!(judge(b"0.33333331"), Judgement::Accepted);
        assert!(matches!(judge(b"0.33"), Judgement::WrongAnswer(_)));
        let plain = Checker::KattisDefault(default_validator::Options::default());
        assert_eq!(plain.to_string(), "kattis-default");
    }

    #[test]
    fn a_built_in_checker_decides_from_the_input_and_answer() {
        fn divides(input: &[u8], _: &[u8], output: &[u8]) -> Decision {
            let number = |b: &[u8]| std::str::from_utf8(b).ok()?.trim().parse::<u64>().ok();
            match (number(input), number(output)) {
                (None, _) => Decision::JudgeError("the input is no number".into()),
                (Some(n), Some(d)) if d > 0 && n % d == 0 => Decision::Accept,
                _ => Decision::Reject("not a divisor".into()),
            }
        }
        let checker = Checker::BuiltIn(BuiltInChecker {
            problem: "divisor",
            check: divides,
        });
        let judge = |input: &'static [u8], output: &'static [u8]| {
            let limits = grundy_sandbox::Limits {
                time: std::time::Duration::from_secs(1),
                wall: std::time::Duration::from_secs(3),
                memory_bytes: 0,
                output_bytes: 0,
            };
            let submitted = Submitted {
                input: Input::Bytes(input),
                expected: b"",
                output,
                feedback: None,
                submission_files: None,
            };
            checker.judge(&submitted, &limits)
        };
        assert_eq!(judge(b"12\n", b"4\n"), Judgement::Accepted);
        assert_eq!(
            judge(b"12\n", b"5\n"),
            Judgement::WrongAnswer("not a divisor".into())
        );
        let Judgement::JudgeError(message) = judge(b"x\n", b"1\n") else {
            panic!("a bad input is the judge's problem");
        };
        assert!(message.contains("built-in checker of divisor"), "{message}");
    }
}
