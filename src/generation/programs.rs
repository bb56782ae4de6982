//! The programs a plan runs: each generator a `generate:` command names (a file or folder of
//! `generators/`, or a name of the `generators:` dictionary) and each solution writing answers
//! (given, or an accepted submission picked as the default), built by [`crate::build`] into the
//! same content-keyed cache as submissions.

use std::collections::BTreeMap;
use std::path::Path;

use grundy_sandbox::Program as Command;

use crate::build::{Build, Builds, HostError, Skipped};
use crate::files::beneath::Tree;
use crate::package::generators::{NamedProgram, Plan, Solution, Source, FILE, FOLDER};
use crate::package::programs::Program;
use crate::package::yaml::Diagnostic;
use crate::package::Package;
use crate::suggest::did_you_mean;

/// The programs of a plan, and once built, their commands.
#[derive(Default)]
pub struct Programs {
    /// Generator name (as commands write it) → its program, or why there is none.
    pub generators: BTreeMap<String, Result<Program, Unrunnable>>,
    /// Solution path (from the package root) → its program, or why there is none.
    pub solutions: BTreeMap<String, Result<Program, Unrunnable>>,
    /// The solution used where none is given, if one is needed.
    pub default_solution: Option<String>,
    /// Name or path → the command that runs it, or why it cannot run.
    commands: BTreeMap<String, Result<Command, Unrunnable>>,
    /// Name or path → its build-cache key, part of each case's key.
    pub keys: BTreeMap<String, String>,
}

impl Programs {
    /// Finds every program `plan` needs in the package at `tree`; the accepted submission
    /// that writes the answers no `solution:` names, if one does.
    pub fn find(tree: &Tree, plan: &Plan, package: &Package) -> (Programs, Option<String>) {
        let mut programs = Programs::default();
        let mut picked = None;
        let mut needs_default = false;
        for case in &plan.cases {
            let Source::Rule(rule) = &case.source else {
                continue;
            };
            if let Some(command) = &rule.generate {
                let name = &command.program;
                if !programs.generators.contains_key(name) {
                    let program = generator(tree, plan, name);
                    programs.generators.insert(name.clone(), program);
                }
            }
            match &rule.solution {
                Solution::Given(path) if !programs.solutions.contains_key(path) => {
                    programs
                        .solutions
                        .insert(path.clone(), given_solution(tree, path));
                }
                Solution::Default => needs_default = true,
                _ => {}
            }
        }
        if needs_default {
            if let Some((path, program)) = default_solution(package) {
                programs.solutions.insert(path.clone(), Ok(program));
                programs.default_solution = Some(path.clone());
                picked = Some(path);
            }
        }
        (programs, picked)
    }

    /// Every program found, to build.
    pub fn to_build(&self) -> Vec<Program> {
        self.generators
            .values()
            .chain(self.solutions.values())
            .filter_map(|p| p.as_ref().ok().cloned())
            .collect()
    }

    /// Takes in the builds.
    pub fn built(&mut self, builds: &Builds) {
        let all = self.generators.iter().chain(self.solutions.iter());
        for (name, program) in all {
            let command = match program {
                Err(why) => Err(why.clone()),
                Ok(program) => {
                    self.keys.insert(name.clone(), program.cache_key());
                    match builds.get(program) {
                        Some(Build::Ready { command, .. }) => Ok(command.clone()),
                        Some(Build::Failed(message)) => {
                            Err(Unrunnable::DoesNotBuild(message.clone()))
                        }
                        Some(Build::Skipped(why)) => Err(Unrunnable::Skipped(why.clone())),
                        Some(Build::HostError(error)) => Err(Unrunnable::Host(error.clone())),
                        None => Err(Unrunnable::NotBuilt),
                    }
                }
            };
            self.commands.insert(name.clone(), command);
        }
    }

    pub fn generator(&self, name: &str) -> Result<&Command, NoProgram> {
        let why = match self.commands.get(name) {
            Some(Ok(command)) => return Ok(command),
            Some(Err(why)) => why.clone(),
            None => Unrunnable::NotBuilt,
        };
        Err(NoProgram::Generator {
            name: name.to_string(),
            why,
        })
    }

    /// The path and command of the solution a rule names.
    pub fn solution<'a>(
        &'a self,
        solution: &'a Solution,
    ) -> Result<(&'a str, &'a Command), NoProgram> {
        let path = match solution {
            Solution::Given(path) => path.as_str(),
            Solution::Default => self
                .default_solution
                .as_deref()
                .ok_or(NoProgram::NoSolution)?,
            Solution::Disabled => return Err(NoProgram::SolutionDisabled),
        };
        let why = match self.commands.get(path) {
            Some(Ok(command)) => return Ok((path, command)),
            Some(Err(why)) => why.clone(),
            None => Unrunnable::NotBuilt,
        };
        Err(NoProgram::Solution {
            path: path.to_string(),
            why,
        })
    }

    /// The build key of the solution a rule names, for its cases' keys.
    pub fn solution_key(&self, solution: &Solution) -> String {
        let path = match solution {
            Solution::Given(path) => Some(path.as_str()),
            Solution::Default => self.default_solution.as_deref(),
            Solution::Disabled => None,
        };
        path.map(|p| format!("{p}:{}", self.keys.get(p).map_or("", String::as_str)))
            .unwrap_or_default()
    }
}

/// The programs `plan` names that the package has not got (a generator that is neither a file
/// or folder of `generators/` nor a name of `generators:`, a solution that is not there), each
/// an error where `file` (as messages name it) first names it, with the closest of the
/// package's own: a misspelt name is one mistake, said once, not once per case it would make.
pub fn missing(tree: &Tree, plan: &Plan, package: &Package, file: &Path) -> Vec<Diagnostic> {
    let mut errors = vec![];
    for named in &plan.named {
        // What the file wrote, why it cannot run, and what the package has instead.
        let (written, error, kind, known): (String, NoProgram, _, Vec<String>) =
            match &named.program {
                NamedProgram::Generator(name) => {
                    let Err(why @ Unrunnable::Unknown) = generator(tree, plan, name) else {
                        continue;
                    };
                    let files = tree.join(FOLDER).list().unwrap_or_default();
                    let files = files.iter().map(|f| f.to_string_lossy().into_owned());
                    let names = plan.programs.iter().map(|(n, _)| n.clone());
                    let known = names.chain(files.filter(|f| f != FILE)).collect();
                    let name = name.clone();
                    let error = NoProgram::Generator {
                        name: name.clone(),
                        why,
                    };
                    (name, error, "generators", known)
                }
                NamedProgram::Solution(path) => {
                    let Ok(None) = tree.join(path).kind() else {
                        continue;
                    };
                    let submissions = package.submissions.iter();
                    let known = submissions.map(|s| format!("/submissions/{}", s.id));
                    let why = Unrunnable::Missing;
                    let error = NoProgram::Solution {
                        path: path.clone(),
                        why,
                    };
                    (format!("/{path}"), error, "submissions", known.collect())
                }
            };
        let hint = match did_you_mean(&written, known.iter().map(String::as_str)) {
            hint if !hint.is_empty() || known.is_empty() => hint,
            _ => format!(" (the package's {kind}: {})", listed(&known)),
        };
        errors.push(Diagnostic {
            file: file.to_path_buf(),
            line: named.line,
            column: named.column,
            message: format!("{error}{hint}"),
        });
    }
    errors
}

/// A few names, quoted, for a message: the first five and how many more.
fn listed(names: &[String]) -> String {
    let mut shown: Vec<String> = names.iter().take(5).map(|n| format!("`{n}`")).collect();
    if names.len() > shown.len() {
        shown.push(format!("{} more", names.len() - shown.len()));
    }
    shown.join(", ")
}

/// The solution writing answers where none is given: the first accepted submission by name, as
/// its path from the package root (`submissions/accepted/a.py`) and its program.
pub fn default_solution(package: &Package) -> Option<(String, Program)> {
    let accepted = package
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted")
        .min_by(|a, b| a.id.cmp(&b.id))?;
    Some((
        format!("submissions/{}", accepted.id),
        accepted.program.clone(),
    ))
}

/// A solution `generators.yaml` names, at `path` from the package root, or why there is none.
pub fn given_solution(tree: &Tree, path: &str) -> Result<Program, Unrunnable> {
    let program = Program::new(&tree.join(path), None, None)?;
    match program.files.is_empty() {
        true => Err(Unrunnable::Missing),
        false => Ok(program),
    }
}

/// The generator `name` of a command: a name of `generators:` (its files, the first the entry
/// point), else the file or folder `generators/<name>`.
pub fn generator(tree: &Tree, plan: &Plan, name: &str) -> Result<Program, Unrunnable> {
    if let Some((_, files)) = plan.programs.iter().find(|(n, _)| n == name) {
        let entry = &files[0];
        let folder = tree.join(FOLDER);
        let mut program = Program::new(&folder, None, Some(entry))?;
        let listed: Vec<_> = files.iter().map(|f| folder.join(f)).collect();
        program.files.retain(|f| listed.contains(f));
        if program.files.len() != listed.len() {
            return Err(Unrunnable::Unlisted);
        }
        program.name = name.to_string();
        // What it is, from its own files only.
        program.kind = program.kind_of(None, Some(entry));
        return Ok(program);
    }
    let path = tree.join(format!("{FOLDER}/{name}"));
    match path.kind() {
        Ok(Some(_)) => Ok(Program::new(&path, None, None)?),
        _ => Err(Unrunnable::Unknown),
    }
}

/// Why a generator or solution a rule needs has no command to run.
#[derive(Debug, thiserror::Error)]
pub enum NoProgram {
    #[error("generator `{name}` {why}")]
    Generator { name: String, why: Unrunnable },
    #[error("solution `/{path}` {why}")]
    Solution { path: String, why: Unrunnable },
    #[error("no `solution:` is given and the package has no accepted submission to write answers")]
    NoSolution,
    #[error("no .ans was made and `solution:` is set to nothing")]
    SolutionDisabled,
}

/// Why a program of the plan (named before it, as [`NoProgram`] says it) cannot run.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unrunnable {
    /// Its files cannot be read beneath the package.
    #[error("cannot be read: {0}")]
    Unreadable(#[from] Diagnostic),
    #[error("is not there")]
    Missing,
    /// A name of `generators:` lists a file that `generators/` does not have.
    #[error("lists a file that is not in generators/")]
    Unlisted,
    #[error("is neither a file or folder of generators/ nor a name of `generators:`")]
    Unknown,
    /// The compiler's message.
    #[error("does not build: {0}")]
    DoesNotBuild(String),
    /// Why the build stage skipped it (no compiler, an unsupported language).
    #[error("{0}")]
    Skipped(Skipped),
    #[error("cannot be built: {0}")]
    Host(HostError),
    #[error("was not built")]
    NotBuilt,
}
