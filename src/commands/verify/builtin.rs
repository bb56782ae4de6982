//! The built-in problems as packages, for `grundy verify` with no argument in this project: the
//! data is the problem's fixtures (its `invalid/` groups are the inputs its validator must
//! reject), the input validator is the problem's own `validate` (held to the extended limits
//! below `extended/`), outputs are judged by the problem's settings (checker, interactor) and its
//! limits come from runner.toml. The submissions are `problems/<module>/submissions/<verdict>/`,
//! read as a legacy package's: the folder names the verdict each must get. They are judged on
//! every case, `extended/` groups included, unlike a program `check --exec` judges
//! ([`crate::discovery::Judged`]): they are the project's own tests of its data, written knowing
//! both limits, and some exist to show that the extended cases catch a solution that suffices
//! for the original ones.

use std::path::Path;

use anyhow::Result;

use super::model::{absolute, InputValidator, Judging, Problem, TestCase};
use crate::config::Config;
use crate::discovery::discover;
use crate::files::beneath::{Scope, Tree};
use crate::package::settings::ValidatorArgs;
use crate::package::submissions;
use crate::package::version::FormatVersion;
use crate::package::yaml::Diagnostic;

/// Every built-in problem but the test-only ones (`test-*`), with the submissions planted below
/// `project/problems/`.
pub fn problems(config: &Config, project: &Path) -> Result<Vec<Problem>> {
    let fixtures = absolute(&config.fixtures);
    let found = discover(&fixtures, |_| true)?;
    let mut problems = vec![];
    for built_in in grundy_problems::ALL {
        if built_in.id.starts_with("test-") {
            continue;
        }
        let settings = config.settings(built_in.id).clone();
        let mut problem = Problem {
            name: built_in.id.to_string(),
            root: fixtures.join(built_in.id),
            warnings: vec![],
            scoring: None,
            cases: vec![],
            invalid_inputs: vec![],
            output_cases: vec![],
            input_validators: vec![InputValidator::BuiltIn(built_in)],
            answer_validators: vec![],
            limits: Problem::fixed_limits(&settings),
            time_limit_source: "runner.toml",
            memory_mib: settings.memory_limit_mb,
            output_mib: settings.output_limit_mb,
            judging: Judging::Settings(Box::new(settings)),
            submissions: vec![],
            passes: 1,
        };
        for case in found.cases.iter().filter(|c| c.problem == built_in.id) {
            let test_case = TestCase {
                id: case.name().to_string(),
                input: case.input.clone(),
                answer: case.expected.clone(),
                output: None,
                input_validator_args: ValidatorArgs::default(),
                output_validator_args: vec![],
                constraints: case.constraints,
                default_validator: None,
            };
            if case.expects_error() {
                problem.invalid_inputs.push(test_case);
            } else {
                problem.cases.push(test_case);
            }
        }
        let module = project.join("problems").join(built_in.id.replace('-', "_"));
        let folder = module.join("submissions");
        let mut diagnostics = vec![];
        problem.submissions = match Tree::open(&module, Scope::Package) {
            Ok(tree) => submissions::read(&tree, FormatVersion::Legacy, false, &mut diagnostics)?,
            // No folder of its own here: no planted submissions.
            Err(error) if error.is_missing() => vec![],
            Err(error) => return Err(Diagnostic::from(error).into()),
        };
        problem
            .warnings
            .extend(diagnostics.iter().map(ToString::to_string));
        if problem.submissions.is_empty() {
            problem.warnings.push(format!(
                "{}: no planted submissions; only the data is checked",
                super::shown(&folder)
            ));
        }
        problems.push(problem);
    }
    Ok(problems)
}
