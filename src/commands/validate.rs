//! `grundy validate [FILTER]...`: every selected fixture input against its problem's validator,
//! so a fixture that breaks the constraints (a false test) is caught. Inputs below an `extended/`
//! group are checked against the extended limits, the rest against the original ones; inputs
//! below an `invalid/` group must be rejected. A Kattis package's data goes through its own
//! validators instead, built and run as `verify` does it (its validation stage, without the
//! submissions). Every input is a unit of the run's report (a package's too, failed when a check
//! of it or its answer failed), and each package one more; the reporters print them. Exit 0 when
//! every input passes and every package is valid, 1 otherwise, 2 for layout errors (as
//! `check`), 130 after Ctrl-C.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;
use grundy_problems::ValidateFn;

use super::setup::case_config;
use crate::cli::ValidateArgs;
use crate::commands::error::CommandError;
use crate::config::Overrides;
use crate::discovery::{select_cases, Case};
use crate::model::{Problem, TestCase};
use crate::package::yaml::Diagnostic;
use crate::reporting::findings::Unreadable;
use crate::reporting::unit::within;
use crate::reporting::validated::{InputFinding, PackageValidation};
use crate::reporting::{
    self, Dispatcher, Ended, Finished, ReportOptions, RunKind, Stages, Summary, Unit, Verbosity,
};
use crate::root_packages::RootPackages;
use crate::running::pool::{self, Event, Jobs, Stop};
use crate::running::SolveWatch;
use crate::stages::Pool;

pub fn run(args: ValidateArgs, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
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
    let chosen = selected(packages.take(&in_packages), &packaged);
    let deliberate = built_in.iter().filter(|c| c.expects_error()).count()
        + chosen
            .iter()
            .filter_map(|(_, problem)| problem.as_ref().ok())
            .map(|problem| problem.invalid_inputs.len())
            .sum::<usize>();
    let reporter = reporting::reporter(ReportOptions {
        format: args.reports.format,
        color: false,
        verbosity: match args.verbose {
            true => Verbosity::Verbose,
            false => Verbosity::Normal,
        },
        junit: args.reports.junit(),
        html: None,
        slowest: None,
    });
    let mut dispatch = Dispatcher::new(reporter, Stages::new(false, false), cancel, false);
    dispatch.run_started(&RunKind::Validate { deliberate });
    let options = dispatch.pool_options(config.jobs);
    let mut ran = validate_built_in(built_in, &options, &mut dispatch);
    if ran.is_ok() && !chosen.is_empty() {
        // A package's validators are programs: built and run contained.
        super::setup::containment_check(config.isolate)?;
        let pool = Pool::new(options, Stages::new(false, false));
        ran = validate_packages(chosen, &pool, &mut dispatch);
    }
    Ok(dispatch.finish(ran, Summary::default())?)
}

/// The fixtures of built-in problems through their built-in validators, on the pool, each
/// reported in case order as its turn comes.
fn validate_built_in(
    cases: Vec<Case>,
    options: &pool::PoolOptions,
    dispatch: &mut Dispatcher,
) -> Result<(), Stop> {
    let jobs = Arc::new(ValidateJobs(cases));
    let mut next = 0;
    pool::run_all(Arc::clone(&jobs), jobs.0.len(), options, |event| {
        let Event::Finished(finding) = event else {
            return;
        };
        let case = &jobs.0[next];
        next += 1;
        match finding {
            Some(finding) => {
                let path = within(&case.problem, &case.id);
                dispatch.finished(Finished::input(&case.problem, path, &case.input, &finding));
            }
            None => dispatch.skipped(Unit::Case),
        }
    })
}

/// The packages to validate, each with the cases a filter selects of it: a filter naming some
/// cases of a package keeps only those (and leaves its invalid inputs and outputs out).
fn selected(
    packages: Vec<(String, Result<Problem, Diagnostic>)>,
    selected: &[Case],
) -> Vec<(String, Result<Problem, Diagnostic>)> {
    let mut chosen = packages;
    for (name, problem) in &mut chosen {
        let Ok(problem) = problem else { continue };
        let ids: Vec<String> = selected
            .iter()
            .filter(|case| case.problem == *name)
            .map(|case| case.id.clone())
            .collect();
        if ids.len() < problem.cases.len() {
            problem
                .cases
                .retain(|case| ids.contains(&format!("{name}/{}", case.id())));
            problem.invalid_inputs.clear();
            problem.output_cases.clear();
        }
    }
    chosen
}

/// Packages' data through their own validators (input and answer validators, and the output
/// validator on `valid_output`/`invalid_output` cases), as `verify` runs them; each package's
/// inputs reported, then the package. One that cannot be read is reported first, invalid.
fn validate_packages(
    packages: Vec<(String, Result<Problem, Diagnostic>)>,
    pool: &Pool,
    dispatch: &mut Dispatcher,
) -> Result<(), Stop> {
    let mut problems = vec![];
    for (name, problem) in packages {
        match problem {
            Ok(problem) => problems.push(problem),
            Err(why) => dispatch.finished(Finished::validated(&PackageValidation {
                unreadable: Some(Unreadable::Package {
                    package: name.clone(),
                    error: why,
                }),
                name,
                ..PackageValidation::default()
            })),
        }
    }
    // What each package's inputs are, kept as validation takes the problems.
    let inputs: Vec<(String, Vec<TestCase>)> = problems
        .iter()
        .map(|p| {
            let all = p.cases.iter().chain(&p.invalid_inputs).cloned();
            (p.name.clone(), all.collect())
        })
        .collect();
    let found = crate::validation::validate_packages(problems, pool)?;
    for ((name, inputs), found) in inputs.iter().zip(found) {
        for case in inputs {
            let finding = if found.failed_inputs.contains(case.id()) {
                InputFinding::Failed
            } else if found.not_run {
                InputFinding::Unchecked
            } else {
                InputFinding::Valid(case.case.constraints)
            };
            dispatch.finished(Finished::input(name, case.id(), &case.case.input, &finding));
        }
        dispatch.finished(Finished::validated(&PackageValidation {
            name: name.clone(),
            unreadable: None,
            errors: found.errors,
            unchecked: found.unchecked,
            summary: found.summary,
        }));
    }
    Ok(())
}

/// Validating the selected inputs, one pool job per input.
struct ValidateJobs(Vec<Case>);

impl Jobs for ValidateJobs {
    type Output = InputFinding;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<InputFinding> {
        Ok(validate_case(&self.0[index]))
    }

    fn failed(&self, finding: &InputFinding) -> bool {
        finding.outcome() == reporting::unit::Outcome::Failed
    }
}

/// The validator reads the file as a stream, a window at a time: validating an input of any size
/// takes a few hundred KiB per worker, never the size of the input.
fn validate_case(case: &Case) -> InputFinding {
    let problem = grundy_problems::find(&case.problem).expect("problems were checked first");
    let file = match case.input.open() {
        Ok(file) => file,
        Err(error) => return InputFinding::Unreadable(error.reason()),
    };
    let mut stream = Watched {
        inner: BufReader::with_capacity(64 << 10, file),
        error: None,
    };
    let finding = judge_validity(case, &mut stream, problem.validate);
    // A validator takes a read error for the end of the input; the file, not the input, is at fault.
    match stream.error {
        Some(error) => InputFinding::Unreadable(format!("cannot read it: {error}")),
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

fn judge_validity(case: &Case, input: &mut dyn BufRead, validate: ValidateFn) -> InputFinding {
    let limits = case.constraints;
    match (validate(input, limits), case.expects_error()) {
        (Ok(()), false) => InputFinding::Valid(limits),
        (Ok(()), true) => InputFinding::Accepted(limits),
        (Err(error), false) => InputFinding::Invalid(error),
        (Err(error), true) => InputFinding::Rejected(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::beneath::{Scope, Tree};
    use grundy_problems::Constraints;

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
            InputFinding::Invalid(e) if e.to_string().starts_with("line 1, column 1: heap size")
        ));
        assert!(matches!(
            judge_validity(&case("nim/extended/a"), &mut &big[..], nim),
            InputFinding::Valid(Constraints::Extended)
        ));
        assert!(matches!(
            judge_validity(&case("nim/invalid/a"), &mut &big[..], nim),
            InputFinding::Rejected(_)
        ));
        assert!(matches!(
            judge_validity(&case("nim/extended/invalid/a"), &mut &big[..], nim),
            InputFinding::Accepted(_)
        ));
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
            InputFinding::Valid(_)
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
