//! Making one case's files from its rule, on a pool worker: the generator run contained (its
//! files `testcase.<ext>` copied out of its working folder, its stdout the `.in` when it wrote
//! none), `copy:` files read through the package's root, inline text, links, then the solution's
//! answer; `match:` patterns checked. Writes nothing into the package.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use grundy_sandbox::{Program as Command, Stdin};

pub use super::findings::{CopyError, MakeError, Missed, RunFailed};
use super::programs::Programs;
use crate::build::BuildJobs;
use crate::contained::Contained;
use crate::files::beneath::Tree;
use crate::limits::Limits;
use crate::package::generators::{Case, Match, Rule, IMAGE_EXTENSIONS, TEXT_EXTENSIONS};
use crate::running::pool::Jobs;
use crate::running::{run_of, SolveWatch};

/// The name a generator's files have in its working folder (`{name}`), as in `bt`.
pub const CASE_NAME: &str = "testcase";

/// The top-level groups whose cases get no answer from the solution.
const NO_SOLUTION: [&str; 5] = [
    "invalid_input",
    "invalid_answer",
    "invalid_output",
    "valid_output",
    "testing_tool_test",
];

/// A case's files, by extension (`in`, `ans`, `in.download`...).
pub type Files = BTreeMap<String, Vec<u8>>;

/// What making a case gave.
#[derive(Debug)]
pub enum Made {
    Files {
        files: Files,
        /// The `match:` patterns its files do not match.
        warnings: Vec<Missed>,
    },
    /// Why not, naming the command and what its program said.
    Failed(MakeError),
    /// Not a case: a validator built ahead (see [`MakeJobs::ahead`]).
    BuiltAhead,
}

/// One job per case to make, after one per program to build ahead.
pub struct MakeJobs {
    pub tree: Tree,
    pub cases: Vec<(Case, Rule)>,
    pub programs: Arc<Programs>,
    pub limits: Limits,
    pub interactive_or_multi_pass: bool,
    /// The validators, built first on the same workers while the cases are made: only the
    /// validation after the cases runs them, so this takes their builds (seconds of `g++` for
    /// one that includes `validation.h`) off the path to it. The builds land in the build cache,
    /// where the validation finds them; the first `ahead.len()` jobs are theirs.
    pub ahead: BuildJobs,
}

impl Jobs for MakeJobs {
    type Output = Made;

    fn run(&self, index: usize, watch: &SolveWatch) -> Result<Made> {
        let Some(index) = index.checked_sub(self.ahead.len()) else {
            self.ahead.run(index, watch)?;
            return Ok(Made::BuiltAhead);
        };
        let (case, rule) = &self.cases[index];
        Ok(match self.make(case, rule) {
            Ok((files, warnings)) => Made::Files { files, warnings },
            Err(message) => Made::Failed(message),
        })
    }

    fn failed(&self, made: &Made) -> bool {
        matches!(made, Made::Failed(_))
    }
}

fn all_extensions() -> impl Iterator<Item = &'static str> {
    TEXT_EXTENSIONS.into_iter().chain(IMAGE_EXTENSIONS)
}

impl MakeJobs {
    fn make(&self, case: &Case, rule: &Rule) -> Result<(Files, Vec<Missed>), MakeError> {
        let mut files = Files::new();
        if let Some(command) = &rule.generate {
            let program = self.programs.generator(&command.program)?;
            files = run_generator(program, command, rule.retries, &self.limits)?;
        }
        if let Some(copy) = &rule.copy {
            let mut copied = false;
            for ext in all_extensions() {
                let file = self.tree.join(format!("{copy}.{ext}"));
                if matches!(file.kind(), Ok(Some(_))) {
                    files.insert(ext.to_string(), read_all(&file)?);
                    copied = true;
                }
            }
            if !copied {
                return Err(MakeError::NothingToCopy(copy.clone()));
            }
        }
        for (ext, text) in &rule.inline {
            files.insert(ext.clone(), text.clone().into_bytes());
        }
        self.link(rule, &mut files, "in")?;
        if !files.contains_key("in")
            && !files.contains_key("in.statement")
            && !files.contains_key("interaction")
        {
            return Err(MakeError::NoInput);
        }
        if !files.contains_key("ans") && !NO_SOLUTION.contains(&case.root()) {
            if self.interactive_or_multi_pass {
                files.insert("ans".into(), vec![]);
            } else if let Some(input) = files.get("in") {
                let answer = self.solve(rule, input.clone())?;
                files.insert("ans".into(), answer);
            }
        }
        self.link(rule, &mut files, "ans")?;
        let warnings = rule
            .matches
            .iter()
            .filter_map(|m| missed(m, &files))
            .collect();
        Ok((files, warnings))
    }

    fn link(&self, rule: &Rule, files: &mut Files, kind: &str) -> Result<(), MakeError> {
        for (from, to) in &rule.links {
            if !from.starts_with(kind) {
                continue;
            }
            let bytes = files.get(to).ok_or_else(|| MakeError::BrokenLink {
                from: from.clone(),
                to: to.clone(),
            })?;
            files.insert(from.clone(), bytes.clone());
        }
        Ok(())
    }

    fn solve(&self, rule: &Rule, input: Vec<u8>) -> Result<Vec<u8>, MakeError> {
        let (path, program) = self.programs.solution(&rule.solution)?;
        Ok(run_solution(path, program, input, &self.limits)?)
    }
}

/// Runs the generator `program` of `command` contained under `limits` (attempt after attempt,
/// each with the next seed, up to `retries`): the case's files it made, its stdout the `.in`
/// when it wrote none; or why not, naming the command. `stress` runs generators through this too.
pub fn run_generator(
    program: &Command,
    command: &crate::package::generators::Command,
    retries: u32,
    limits: &Limits,
) -> Result<Files, RunFailed> {
    let staging = tempfile::tempdir().map_err(RunFailed::Staging)?;
    let mut last = None;
    for retry in 0..retries.max(1) {
        let mut argv = program.argv.clone();
        argv.extend(
            command
                .arguments(CASE_NAME, retry)
                .into_iter()
                .map(Into::into),
        );
        let run = Command {
            argv,
            ..program.clone()
        };
        let export: Vec<(PathBuf, PathBuf)> = all_extensions()
            .map(|ext| {
                let name = format!("{CASE_NAME}.{ext}");
                (
                    PathBuf::from(&name),
                    staging.path().join(retry.to_string()).join(&name),
                )
            })
            .collect();
        std::fs::create_dir_all(staging.path().join(retry.to_string()))
            .map_err(RunFailed::Staging)?;
        let outcome = Contained::new(&run, limits.program())
            .export(export)
            .run()
            .map_err(|error| RunFailed::GeneratorUnstarted {
                command: command.text.clone(),
                error,
            })?;
        let too_big = outcome
            .export_failures
            .iter()
            .any(|f| !matches!(f.why, grundy_sandbox::ExportError::Missing));
        let result = run_of(outcome, limits);
        if let Some(failure) = result.failure {
            last = Some(RunFailed::Generator {
                command: command.text.clone(),
                failure,
                stderr: result.stderr,
            });
            continue;
        }
        if too_big {
            return Err(RunFailed::TooLarge(command.text.clone()));
        }
        let mut files = Files::new();
        for ext in all_extensions() {
            let path = staging
                .path()
                .join(retry.to_string())
                .join(format!("{CASE_NAME}.{ext}"));
            if let Ok(bytes) = std::fs::read(&path) {
                files.insert(ext.to_string(), bytes);
            }
        }
        if !files.contains_key("in") {
            if result.output.is_empty() {
                return Err(RunFailed::NoInput {
                    command: command.text.clone(),
                    file: format!("{CASE_NAME}.in"),
                });
            }
            files.insert("in".into(), result.output);
        }
        return Ok(files);
    }
    Err(last.expect("at least one attempt failed"))
}

/// Runs the solution at `path` (its built `program`) contained under `limits` on `input`: the
/// answer it writes, or why it wrote none. `stress` runs its reference solution through this.
pub fn run_solution(
    path: &str,
    program: &Command,
    input: Vec<u8>,
    limits: &Limits,
) -> Result<Vec<u8>, RunFailed> {
    let outcome = Contained::new(program, limits.program())
        .stdin(Stdin::Bytes(input))
        .run()
        .map_err(|error| RunFailed::SolutionUnstarted {
            path: path.to_string(),
            error,
        })?;
    let run = run_of(outcome, limits);
    match run.failure {
        None => Ok(run.output),
        Some(failure) => Err(RunFailed::Solution {
            path: path.to_string(),
            failure,
            stderr: run.stderr,
        }),
    }
}

fn read_all(file: &crate::files::beneath::TreePath) -> Result<Vec<u8>, CopyError> {
    use std::io::Read;
    let mut bytes = vec![];
    file.open()?
        .read_to_end(&mut bytes)
        .map_err(|error| CopyError::Read {
            path: file.path().to_path_buf(),
            error,
        })?;
    Ok(bytes)
}

/// The `match:` pattern the case's file does not match (or that cannot be checked).
fn missed(pattern: &Match, files: &Files) -> Option<Missed> {
    let text = files.get(&pattern.extension)?;
    // Python's `\Z` is the end of the text, which the regex crate writes `\z`; bt matches with
    // MULTILINE and DOTALL.
    let translated = format!("(?ms){}", pattern.pattern.replace("\\Z", "\\z"));
    match regex_automata::hybrid::regex::Regex::new(&translated) {
        Ok(regex) if regex.is_match(&mut regex.create_cache(), text.as_slice()) => None,
        Ok(_) => Some(Missed::NoMatch(pattern.clone())),
        Err(_) => Some(Missed::Unchecked(pattern.clone())),
    }
}
