//! `grundy validate [FILTER]...`: every selected fixture input against its problem's validator,
//! so a fixture that breaks the constraints (a false test) is caught. Inputs below an `extended/`
//! group are checked against the extended limits, the rest against the original ones; inputs
//! below an `invalid/` group must be rejected. A Kattis package's data goes through its own
//! validators instead, built and run as `verify` does it (its validation stage, without the
//! submissions). Exit 0 when every input passes, 1 listing each one that does not, 2 for
//! layout errors (as `check`).

use std::io::{self, BufRead, BufReader, Read};
use std::process::ExitCode;

use anyhow::Result;
use grundy_problems::{Constraints, InputError, ValidateFn};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::setup::case_config;
use crate::cli::ValidateArgs;
use crate::commands::error::CommandError;
use crate::config::Overrides;
use crate::discovery::{select_cases, Case};
use crate::escape::visible_line;
use crate::model::Problem;
use crate::package::yaml::Diagnostic;
use crate::reporting::print;
use crate::reporting::Stages;
use crate::root_packages::RootPackages;
use crate::running::pool::{self, Event, Jobs, PoolOptions, Stop};
use crate::running::SolveWatch;
use crate::stages::Pool;

pub fn run(args: ValidateArgs) -> Result<ExitCode, CommandError> {
    let (config, filters) = case_config(&args.sources, Overrides::default(), &args.filters)?;
    let packages = RootPackages::read(&config.fixtures);
    let selection = select_cases(&config.fixtures, &filters, &packages)?;
    selection.require_some("input to validate")?;
    let problems: Vec<String> = selection
        .case_problems()
        .into_iter()
        .map(String::from)
        .collect();
    let (in_packages, problems): (Vec<&str>, Vec<&str>) = problems
        .iter()
        .map(String::as_str)
        .partition(|problem| packages.contains(problem));
    for problem in problems {
        if grundy_problems::find(problem).is_none() {
            return Err(anyhow::anyhow!(
                "fixtures folder `{}`: {}, so there is no validator for it",
                config.fixtures.join(problem).display(),
                crate::builtin::unknown(problem)
            )
            .into());
        }
    }
    let (packaged, built_in): (Vec<Case>, Vec<Case>) = selection
        .cases
        .into_iter()
        .partition(|case| in_packages.contains(&case.problem.as_str()));
    let cancel = Arc::new(AtomicBool::new(false));
    super::setup::on_ctrl_c(&cancel);
    let options = PoolOptions {
        jobs: config.jobs,
        fail_fast: false,
        cancel: Arc::clone(&cancel),
    };
    let mut tally = validate_built_in(built_in, &options, args.verbose)?;
    if !in_packages.is_empty() {
        // A package's validators are programs: built and run contained.
        super::setup::containment_check(config.isolate)?;
        let pool = Pool::new(options, Stages::new(false, false));
        let chosen = packages.take(&in_packages);
        tally.add(validate_packages(chosen, &packaged, &pool, args.verbose)?);
    }
    if cancel.load(Ordering::SeqCst) {
        return Err(CommandError::Cancelled);
    }
    tally.text += &format!(
        "Validated {} inputs ({} deliberately invalid).\n{} passed, {} failed\n",
        tally.inputs,
        tally.deliberate,
        tally.inputs.saturating_sub(tally.failed),
        tally.failed
    );
    print(&tally.text)?;
    Ok(match tally.failed {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}

/// What validation found: the lines to print, and the counts of the closing lines.
#[derive(Default)]
struct Tally {
    text: String,
    inputs: usize,
    deliberate: usize,
    failed: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.text += &other.text;
        self.inputs += other.inputs;
        self.deliberate += other.deliberate;
        self.failed += other.failed;
    }
}

/// The fixtures of built-in problems through their built-in validators, on the pool.
fn validate_built_in(
    cases: Vec<Case>,
    options: &PoolOptions,
    verbose: bool,
) -> Result<Tally, Stop> {
    let jobs = Arc::new(ValidateJobs(cases));
    let mut findings = Vec::with_capacity(jobs.0.len());
    pool::run_all(Arc::clone(&jobs), jobs.0.len(), options, |event| {
        if let Event::Finished(finding) = event {
            findings.push(finding);
        }
    })?;
    // No job fails the run, so only a cancel leaves one without a finding.
    let findings: Vec<Finding> = findings
        .into_iter()
        .map(|finding| finding.expect("every input is validated unless cancelled"))
        .collect();
    let cases = &jobs.0;
    let mut tally = Tally {
        inputs: cases.len(),
        deliberate: cases.iter().filter(|c| c.expects_error()).count(),
        ..Tally::default()
    };
    for (case, finding) in cases.iter().zip(&findings) {
        let path = case.input.path().display();
        let line = match finding {
            Finding::Valid(limits) if verbose => format!("ok    {path} ({limits})"),
            Finding::Rejected(error) if verbose => {
                format!("ok    {path}: rejected as intended: {error}")
            }
            Finding::Valid(_) | Finding::Rejected(_) => continue,
            Finding::Invalid(error) => {
                tally.failed += 1;
                format!("{path}: {error}")
            }
            Finding::Accepted(limits) => {
                tally.failed += 1;
                format!(
                    "{path}: valid under the {limits}, but inputs in an `invalid/` group must \
                     break the format or the limits"
                )
            }
            Finding::Unreadable(why) => {
                tally.failed += 1;
                format!("{path}: {why}")
            }
        };
        tally.text += &line;
        tally.text.push('\n');
    }
    Ok(tally)
}

/// Packages' data through their own validators (input and answer validators, and the output
/// validator on `valid_output`/`invalid_output` cases), as `verify` runs them; a filter naming
/// some cases of a package keeps only those (and leaves its invalid inputs out).
fn validate_packages(
    packages: Vec<(String, Result<Problem, Diagnostic>)>,
    selected: &[Case],
    pool: &Pool,
    verbose: bool,
) -> Result<Tally, Stop> {
    let mut tally = Tally::default();
    let mut problems = vec![];
    for (name, problem) in packages {
        let mut problem = match problem {
            Ok(problem) => problem,
            Err(why) => {
                tally.failed += 1;
                tally.text += &format!("{}\n", visible_line(&why.to_string()));
                continue;
            }
        };
        let ids: Vec<String> = selected
            .iter()
            .filter(|case| case.problem == name)
            .map(|case| case.id.clone())
            .collect();
        if ids.len() < problem.cases.len() {
            problem
                .cases
                .retain(|case| ids.contains(&format!("{name}/{}", case.id)));
            problem.invalid_inputs.clear();
            problem.output_cases.clear();
        }
        tally.inputs += problem.cases.len() + problem.invalid_inputs.len();
        tally.deliberate += problem.invalid_inputs.len();
        problems.push(problem);
    }
    let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    for (name, found) in names
        .iter()
        .zip(crate::validation::validate_packages(problems, pool)?)
    {
        let name = visible_line(name);
        for error in &found.errors {
            tally.text += &format!("{name}: {}\n", visible_line(&error.to_string()));
        }
        for unchecked in &found.unchecked {
            let unchecked = unchecked.to_string();
            tally.text += &format!("{name}: not checked: {}\n", visible_line(&unchecked));
        }
        tally.failed += found.failures + found.unchecked.len();
        if verbose {
            tally.text += &format!("ok    {name}: {}\n", visible_line(&found.summary));
        }
    }
    Ok(tally)
}

/// Validating the selected inputs, one pool job per input.
struct ValidateJobs(Vec<Case>);

impl Jobs for ValidateJobs {
    type Output = Finding;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Finding> {
        Ok(validate_case(&self.0[index]))
    }

    fn failed(&self, finding: &Finding) -> bool {
        matches!(
            finding,
            Finding::Invalid(_) | Finding::Accepted(_) | Finding::Unreadable(_)
        )
    }
}

/// What the validator said about one input, measured against what its group asks for.
#[derive(Debug)]
enum Finding {
    /// A valid input where one is wanted.
    Valid(Limits),
    /// An invalid input where one is wanted (an `invalid/` group).
    Rejected(InputError),
    /// An invalid input where a valid one is wanted.
    Invalid(InputError),
    /// A valid input in an `invalid/` group.
    Accepted(Limits),
    /// Why the input cannot be read.
    Unreadable(String),
}

/// The limits a case is held to, named for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Limits(Constraints);

impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Constraints::Original => "original limits",
            Constraints::Extended => "extended limits",
        })
    }
}

/// The validator reads the file as a stream, a window at a time: validating an input of any size
/// takes a few hundred KiB per worker, never the size of the input.
fn validate_case(case: &Case) -> Finding {
    let problem = grundy_problems::find(&case.problem).expect("problems were checked first");
    let file = match case.input.open() {
        Ok(file) => file,
        Err(error) => return Finding::Unreadable(error.reason()),
    };
    let mut stream = Watched {
        inner: BufReader::with_capacity(64 << 10, file),
        error: None,
    };
    let finding = judge_validity(case, &mut stream, problem.validate);
    // A validator takes a read error for the end of the input; the file, not the input, is at fault.
    match stream.error {
        Some(error) => Finding::Unreadable(format!("cannot read it: {error}")),
        None => finding,
    }
}

/// A stream that keeps the first read error it passes on.
struct Watched<R> {
    inner: R,
    error: Option<io::Error>,
}

/// Keeps `error` in `first` unless one is there (or it only asks to retry); passes its kind on.
fn note(first: &mut Option<io::Error>, error: io::Error) -> io::Error {
    let kind = error.kind();
    if kind != io::ErrorKind::Interrupted && first.is_none() {
        *first = Some(error);
    }
    io::Error::from(kind)
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|error| note(&mut self.error, error))
    }
}

impl<R: BufRead> BufRead for Watched<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner
            .fill_buf()
            .map_err(|error| note(&mut self.error, error))
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

fn judge_validity(case: &Case, input: &mut dyn BufRead, validate: ValidateFn) -> Finding {
    let limits = case.constraints;
    match (validate(input, limits), case.expects_error()) {
        (Ok(()), false) => Finding::Valid(Limits(limits)),
        (Ok(()), true) => Finding::Accepted(Limits(limits)),
        (Err(error), false) => Finding::Invalid(error),
        (Err(error), true) => Finding::Rejected(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::beneath::{Scope, Tree};

    fn case(id: &str) -> Case {
        let fixtures = Tree::open(std::path::Path::new("fixtures"), Scope::Fixtures).unwrap();
        Case::fixture(
            id.to_string(),
            id.split('/').next().unwrap().to_string(),
            fixtures.join(format!("{id}.in")),
            None,
        )
    }

    #[test]
    fn extended_groups_at_any_depth_use_the_extended_limits() {
        assert_eq!(case("nim/sample-1").constraints, Constraints::Original);
        assert_eq!(case("nim/extended/a").constraints, Constraints::Extended);
        assert_eq!(
            case("nim/large/extended/a").constraints,
            Constraints::Extended
        );
        assert_eq!(case("nim/extended").constraints, Constraints::Original);
        assert_eq!(
            case("nim/extended-ish/a").constraints,
            Constraints::Original
        );
    }

    #[test]
    fn invalid_groups_must_be_rejected_and_everything_else_accepted() {
        let nim = grundy_problems::find("nim").unwrap().validate;
        let big = b"1000000000000000001\n";
        assert!(matches!(
            judge_validity(&case("nim/a"), &mut &big[..], nim),
            Finding::Invalid(e) if e.to_string().starts_with("line 1, column 1: heap size")
        ));
        assert!(matches!(
            judge_validity(&case("nim/extended/a"), &mut &big[..], nim),
            Finding::Valid(Limits(Constraints::Extended))
        ));
        assert!(matches!(
            judge_validity(&case("nim/invalid/a"), &mut &big[..], nim),
            Finding::Rejected(_)
        ));
        assert!(matches!(
            judge_validity(&case("nim/extended/invalid/a"), &mut &big[..], nim),
            Finding::Accepted(_)
        ));
        assert_eq!(Limits(Constraints::Extended).to_string(), "extended limits");
    }

    #[test]
    fn a_read_error_is_kept_for_the_report_not_taken_for_the_end() {
        // "1 2\n" and then the disk fails: the validator saw a valid input, the stream knows better.
        let failing = io::Cursor::new(b"1 2\n".to_vec()).chain(Failing);
        let mut stream = Watched {
            inner: BufReader::new(failing),
            error: None,
        };
        let nim = grundy_problems::find("nim").unwrap().validate;
        assert!(matches!(
            judge_validity(&case("nim/a"), &mut stream, nim),
            Finding::Valid(_)
        ));
        assert_eq!(stream.error.unwrap().to_string(), "the disk is gone");
    }

    struct Failing;

    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("the disk is gone"))
        }
    }
}
