//! The programs a plan runs: each generator a `generate:` command names (a file or folder of
//! `generators/`, or a name of the `generators:` dictionary) and each solution writing answers
//! (given, or an accepted submission picked as the default), built by [`crate::build`] into the
//! same content-keyed cache as submissions.

use std::collections::BTreeMap;

use grundy_sandbox::Program as Command;

use crate::build::{Build, Builds};
use crate::files::beneath::Tree;
use crate::package::generators::{Plan, Solution, Source, FOLDER};
use crate::package::programs::Program;
use crate::package::Package;

/// The programs of a plan, and once built, their commands.
#[derive(Default)]
pub struct Programs {
    /// Generator name (as commands write it) → its program, or why there is none.
    pub generators: BTreeMap<String, Result<Program, String>>,
    /// Solution path (from the package root) → its program, or why there is none.
    pub solutions: BTreeMap<String, Result<Program, String>>,
    /// The solution used where none is given, if one is needed.
    pub default_solution: Option<String>,
    /// Name or path → the command that runs it, or why it cannot run.
    commands: BTreeMap<String, Result<Command, String>>,
    /// Name or path → its build-cache key, part of each case's key.
    pub keys: BTreeMap<String, String>,
}

impl Programs {
    /// Finds every program `plan` needs in the package at `tree`.
    pub fn find(tree: &Tree, plan: &Plan, package: &Package) -> (Programs, Vec<String>) {
        let mut programs = Programs::default();
        let mut notes = vec![];
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
                notes.push(format!(
                    "generators.yaml gives no `solution:`; answers are written by `/{path}` (add \
                     `solution: /{path}` to say so)"
                ));
                programs.solutions.insert(path.clone(), Ok(program));
                programs.default_solution = Some(path);
            }
        }
        (programs, notes)
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
                        Some(Build::Failed(message)) => Err(format!("does not build: {message}")),
                        Some(Build::Skipped(why)) => Err(why.clone()),
                        Some(Build::HostError(error)) => Err(format!("cannot be built: {error}")),
                        None => Err("was not built".into()),
                    }
                }
            };
            self.commands.insert(name.clone(), command);
        }
    }

    pub fn generator(&self, name: &str) -> Result<&Command, String> {
        match self.commands.get(name) {
            Some(Ok(command)) => Ok(command),
            Some(Err(why)) => Err(format!("generator `{name}` {why}")),
            None => Err(format!("generator `{name}` was not built")),
        }
    }

    /// The path and command of the solution a rule names.
    pub fn solution<'a>(
        &'a self,
        solution: &'a Solution,
    ) -> Result<(&'a str, &'a Command), String> {
        let path = match solution {
            Solution::Given(path) => path.as_str(),
            Solution::Default => self.default_solution.as_deref().ok_or(
                "no `solution:` is given and the package has no accepted submission to write answers",
            )?,
            Solution::Disabled => return Err("no .ans was made and `solution:` is set to nothing".into()),
        };
        match self.commands.get(path) {
            Some(Ok(command)) => Ok((path, command)),
            Some(Err(why)) => Err(format!("solution `/{path}` {why}")),
            None => Err(format!("solution `/{path}` was not built")),
        }
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
pub fn given_solution(tree: &Tree, path: &str) -> Result<Program, String> {
    Program::new(&tree.join(path), None, None)
        .map_err(|e| e.to_string())
        .and_then(|p| exists(p, path))
}

fn exists(program: Program, path: &str) -> Result<Program, String> {
    if program.files.is_empty() {
        Err(format!("`{path}` is not there"))
    } else {
        Ok(program)
    }
}

/// The generator `name` of a command: a name of `generators:` (its files, the first the entry
/// point), else the file or folder `generators/<name>`.
pub fn generator(tree: &Tree, plan: &Plan, name: &str) -> Result<Program, String> {
    if let Some((_, files)) = plan.programs.iter().find(|(n, _)| n == name) {
        let entry = &files[0];
        let folder = tree.join(FOLDER);
        let mut program = Program::new(&folder, None, Some(entry)).map_err(|e| e.to_string())?;
        let listed: Vec<_> = files.iter().map(|f| folder.join(f)).collect();
        program.files.retain(|f| listed.contains(f));
        if program.files.len() != listed.len() {
            return Err(format!(
                "generator `{name}`: a file it lists is not in generators/"
            ));
        }
        program.name = name.to_string();
        // What it is, from its own files only.
        program.kind = program.kind_of(None, Some(entry));
        return Ok(program);
    }
    let path = tree.join(format!("{FOLDER}/{name}"));
    match path.kind() {
        Ok(Some(_)) => Program::new(&path, None, None).map_err(|e| e.to_string()),
        _ => Err(format!(
            "generator `{name}` is neither a file or folder of generators/ nor a name of `generators:`"
        )),
    }
}
