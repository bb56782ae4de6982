//! The built-in problems as packages, for `grundy verify` with no argument in this project: the
//! data is the problem's fixtures (its `invalid/` groups are the inputs its validator must
//! reject), the input validator is the problem's own `validate` (held to the extended limits
//! below `extended/`), outputs are judged by the problem's settings (checker, interactor) and its
//! limits come from runner.toml. The same shape without submissions ([`judged_by_settings`]) is
//! what `check`'s plan makes of a built-in problem or a plain fixtures folder.
//!
//! The planted submissions are programs like any other, so they are judged as `check --exec`
//! judges one ([`crate::discovery::Judged`]): on the cases within the original judge's limits,
//! the `extended/` groups only under `--extended` (those are still validated). Two folders:
//! - `problems/<module>/submissions/<verdict>/`, read as a legacy package's: the folder names the
//!   verdict each must get, with or without the extended cases;
//! - `problems/<module>/extended/submissions/<verdict>/`: solutions that suffice for the original
//!   limits and fail only beyond them. They must be accepted on the original cases, and get
//!   their folder's verdict under `--extended`: the proof that the extended cases catch them.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{absolute, Fixed, InputValidator, Judging, Problem, SettingsJudge, TestCase};
use crate::config::{Config, Settings};
use crate::discovery::{discover, Case};
use crate::files::beneath::{Scope, Tree};
use crate::package::expectations::{Expectation, Verdict};
use crate::package::settings::ValidatorArgs;
use crate::package::submissions::{self, Submission};
use crate::package::version::FormatVersion;
use crate::package::yaml::Diagnostic;
use grundy_problems::Constraints;

/// The folder below a problem's module whose submissions fail only beyond the original limits.
const BEYOND_ORIGINAL: &str = "extended";

/// Every built-in problem but the test-only ones (`test-*`), with the submissions planted below
/// `project/problems/`; `extended`: they are judged on the `extended/` groups too.
pub fn problems(config: &Config, project: &Path, extended: bool) -> Result<Vec<Problem>> {
    let fixtures = absolute(&config.fixtures);
    let found = discover(&fixtures, |_| true)?;
    let mut problems = vec![];
    for built_in in grundy_problems::ALL {
        if built_in.id.starts_with("test-") {
            continue;
        }
        let settings = config.settings(built_in.id);
        let cases = found.cases.iter().filter(|c| c.problem == built_in.id);
        let validators = vec![InputValidator::BuiltIn(built_in)];
        let mut problem = judged_by_settings(
            built_in.id,
            fixtures.join(built_in.id),
            settings,
            Fixed::Runner,
            cases,
            validators,
            extended,
        );
        let module = project.join("problems").join(built_in.id.replace('-', "_"));
        let folder = module.join("submissions");
        let mut diagnostics = vec![];
        problem.submissions = planted(&module, &mut diagnostics)?;
        let beyond = planted(&module.join(BEYOND_ORIGINAL), &mut diagnostics)?;
        problem
            .submissions
            .extend(beyond.into_iter().map(|mut submission| {
                submission.id = format!("{BEYOND_ORIGINAL}/{}", submission.id);
                if !extended {
                    submission.expectation = Some(Expectation::Final(Verdict::AC, None));
                }
                submission
            }));
        problem.warnings.extend(diagnostics);
        if problem.submissions.is_empty() {
            problem.warnings.push(Diagnostic::file(
                Path::new(&super::shown(&folder)),
                "no planted submissions; only the data is checked",
            ));
        }
        problems.push(problem);
    }
    Ok(problems)
}

/// A problem judged by its `settings` (runner.toml's, flags laid over them): a built-in
/// problem, or a fixtures folder, whose `root` holds `cases` as the walk found them, its time
/// limit fixed by `source`, without submissions. It keeps their limits as its own and their
/// checker and interactor as its judge; what else its cases are judged under is
/// [`super::judged_under`]'s, from the same settings. The cases that expect an error are the
/// inputs its `validators` must reject; the ones beyond the original limits are judged only
/// when `extended`, validated always.
pub fn judged_by_settings<'a>(
    name: &str,
    root: PathBuf,
    settings: &Settings,
    source: Fixed,
    cases: impl IntoIterator<Item = &'a Case>,
    validators: Vec<InputValidator>,
    extended: bool,
) -> Problem {
    let mut problem = Problem {
        name: name.to_string(),
        root,
        warnings: vec![],
        scoring: None,
        cases: vec![],
        unjudged: vec![],
        invalid_inputs: vec![],
        output_cases: vec![],
        input_validators: validators,
        answer_validators: vec![],
        limits: Problem::fixed_limits(settings),
        time_limit_source: source,
        memory_mib: settings.limits.memory_mib,
        output_mib: settings.limits.output_mib,
        judging: Judging::Settings(Box::new(SettingsJudge {
            checker: settings.checker.clone(),
            interactor: settings.interactor.clone(),
        })),
        submissions: vec![],
        passes: 1,
        submissions_write: true,
        validator_sees_submission: false,
    };
    for case in cases {
        let test_case = TestCase {
            case: case.clone(),
            output: None,
            input_validator_args: ValidatorArgs::default(),
            output_validator_args: vec![],
            default_validator: None,
        };
        if case.expects_error() {
            problem.invalid_inputs.push(test_case);
        } else if case.constraints == Constraints::Extended && !extended {
            problem.unjudged.push(test_case);
        } else {
            problem.cases.push(test_case);
        }
    }
    problem
}

/// The submissions planted in `folder/submissions/`, read as a legacy package's; none when the
/// folder is not there.
fn planted(folder: &Path, diagnostics: &mut Vec<Diagnostic>) -> Result<Vec<Submission>> {
    match Tree::open(folder, Scope::Package) {
        Ok(tree) => Ok(submissions::read(
            &tree,
            FormatVersion::Legacy,
            false,
            diagnostics,
        )?),
        Err(error) if error.is_missing() => Ok(vec![]),
        Err(error) => Err(Diagnostic::from(error).into()),
    }
}
