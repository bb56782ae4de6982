//! `grundy generate PROBLEM` for a built-in problem: `fixtures/<problem>/generators.yaml`, read
//! by the same reader as a package's (its `data:` is the problem's fixtures folder), names each
//! generated case's recipe ([`recipe`]); the input is made in-process by the problem's own Rust
//! generator (the project's code: no sandbox), must pass the problem's validator, and the `.out`
//! is the brute force's, as `grundy gen` makes them. Files go through the fixture store; what is
//! unchanged since the last run (the manifest, hidden in the problem's folder so discovery skips
//! it) is not made again. Fixtures written by hand, and `.gen` recipes, are never replaced
//! without `--force` nor removed. Reports nothing itself: the caller prints the [`Generated`].

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use grundy_problems::{Constraints, Problem};
use sha2::{Digest, Sha256};

use super::manifest::{self, case_file, Manifest};
use super::recipe::{self, Recipe};
use super::report::Generated;
use super::write::Options;
use super::{read_text, PlanErrors, Unmade, Warning};
use crate::discovery::{constraints_of, Expects, INVALID_GROUP};
use crate::files::beneath::{Scope, Tree, TreePath};
use crate::files::store::Writer;
use crate::files::Entry;
use crate::new_case::{reference_run, Reference};
use crate::package::generators::{self, Context as PlanContext, GroupYaml, Plan, Solution, Source};
use crate::package::yaml::Diagnostic;
use crate::running::pool::{Jobs, Stop};
use crate::running::SolveWatch;
use crate::stages::Pool;

/// The file below a built-in problem's fixtures folder.
pub const FILE: &str = "generators.yaml";

/// The files of a case that make it exist; generate writes the first two.
const CASE_FILES: [&str; 4] = ["in", "out", "ans", "err"];

/// One case to make: its path below the problem's folder and how.
#[derive(Clone, Debug)]
struct Planned {
    path: String,
    command: generators::Command,
    retries: u32,
    constraints: Constraints,
}

/// Whether `fixtures/<id>/generators.yaml` is there.
pub fn has_plan(fixtures: &Path, problem: &Problem) -> bool {
    fixtures.join(problem.id).join(FILE).is_file()
}

/// Generates the fixtures of `problem` below the fixtures root `fixtures`. An error is a plan
/// that cannot be read or used (all its located errors) or a host failure; cases that fail are
/// in [`Generated::failed`].
pub fn generate_fixtures(
    fixtures: &Path,
    problem: &'static Problem,
    options: &Options,
    pool: &Pool,
) -> Result<Generated, Stop> {
    let tree = Tree::open(&fixtures.join(problem.id), Scope::Fixtures)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let folder = tree.join("");
    let text = read_text(&tree, Path::new(FILE))?;
    let shown = folder.path().join(FILE);
    let context = PlanContext {
        fixtures: true,
        ..PlanContext::default()
    };
    let plan = generators::parse(&shown, &text, &context).map_err(PlanErrors)?;
    let planned = usable(&shown, &plan).map_err(PlanErrors)?;
    let mut generated = Generated {
        package: problem.id.to_string(),
        warnings: plan.warnings.iter().cloned().map(Warning::Plan).collect(),
        ..Generated::default()
    };
    let mut manifest = Manifest::read(&folder);
    let mut to_make = vec![];
    let mut keys = vec![];
    for case in planned {
        let recipe_file = case_file(&folder, &case.path, "gen");
        if !matches!(recipe_file.entry(), Ok(Entry::Missing)) {
            // One case, one description: two could disagree.
            generated.failed.push((
                case.path.clone(),
                Unmade::Described(recipe_file.path().to_path_buf()),
            ));
            continue;
        }
        let key = case_key(problem, &case);
        if !options.force && manifest.is_current(&folder, &case.path, &key) {
            generated.unchanged += 1;
        } else {
            to_make.push(case);
            keys.push(key);
        }
    }
    let jobs = Arc::new(MakeJobs {
        problem,
        cases: to_make,
    });
    let made = pool.run(Arc::clone(&jobs), jobs.cases.len(), "generating")?;
    let writer = Writer::open(fixtures)?;
    for ((case, key), made) in jobs.cases.iter().zip(keys).zip(made) {
        let written = match made {
            Some(Ok(files)) => write_case(&writer, &folder, &case.path, &files, &manifest, options)
                .map(|()| files)
                .map_err(Unmade::Write),
            Some(Err(why)) => Err(why),
            None => Err(Unmade::CutShort),
        };
        match written {
            Ok(files) => {
                let files = [("in".to_string(), files.0), ("out".to_string(), files.1)];
                manifest.record(&case.path, key, &files.into_iter().collect());
                generated.made += 1;
            }
            Err(why) => generated.failed.push((case.path.clone(), why)),
        }
        // A killed run keeps what was made so far.
        manifest.write(&folder)?;
    }
    no_longer_listed(&folder, &plan, &mut manifest, options, &mut generated);
    manifest.write(&folder)?;
    Ok(generated)
}

/// The plan's cases as built-in cases, or why the plan cannot describe a built-in problem's
/// fixtures: each case is `generate: gen ...` and nothing else (the `.out` is the brute force's),
/// none in an `invalid/` group (those are written by hand, with their `.err`).
fn usable(file: &Path, plan: &Plan) -> Result<Vec<Planned>, Vec<Diagnostic>> {
    let mut errors = vec![];
    if !plan.programs.is_empty() {
        errors.push(Diagnostic::file(
            file,
            format!(
                "`generators:` names a package's generators; a built-in problem's is `{}`",
                recipe::PROGRAM
            ),
        ));
    }
    for group in &plan.groups {
        if group.test_group_yaml != GroupYaml::Unset {
            errors.push(Diagnostic::file(
                file,
                format!(
                    "group `{}`: `test_group.yaml` is a package's; a fixtures folder has none",
                    group.path
                ),
            ));
        }
    }
    let mut planned = vec![];
    for case in &plan.cases {
        let at = |message: String| Diagnostic {
            file: file.to_path_buf(),
            line: case.line,
            column: case.column,
            message: format!("case `{}`: {message}", case.path),
        };
        let rule = match &case.source {
            Source::Rule(rule) => rule,
            Source::Included(original) => {
                errors.push(at(format!(
                    "included from `{original}`: a fixture is in one place only"
                )));
                continue;
            }
        };
        let only_generate = rule.copy.is_none()
            && rule.inline.is_empty()
            && rule.links.is_empty()
            && rule.matches.is_empty()
            && rule.solution == Solution::Default;
        let Some(command) = rule.generate.as_ref().filter(|_| only_generate) else {
            errors.push(at(format!(
                "a built-in problem's case is `generate: {} --seed S --scale N` and nothing \
                 else: its `.out` is the brute force's (a fixture written by hand needs no \
                 line here)",
                recipe::PROGRAM
            )));
            continue;
        };
        if Expects::of(&case.path) == Expects::Rejection {
            errors.push(at(format!(
                "cases of an `{INVALID_GROUP}/` group break the limits on purpose, which no \
                 generator does: write them by hand"
            )));
            continue;
        }
        if let Err(why) = recipe::read(command, 0) {
            errors.push(at(why.to_string()));
            continue;
        }
        planned.push(Planned {
            path: case.path.clone(),
            command: command.clone(),
            retries: rule.retries,
            constraints: constraints_of(&case.path),
        });
    }
    if errors.is_empty() {
        Ok(planned)
    } else {
        Err(errors)
    }
}

/// Everything a case's files are made from: grundy's version (its generators and brute forces
/// are compiled in), the problem, the command with its seed, the retries, the limits.
fn case_key(problem: &Problem, case: &Planned) -> String {
    let mut hash = Sha256::new();
    let text = format!(
        "grundy generate built-in 1\0{}\0{}\0{}\0{}\0{:?}",
        env!("CARGO_PKG_VERSION"),
        problem.id,
        case.command.keyed_text(),
        case.retries,
        case.constraints
    );
    hash.update(text.as_bytes());
    manifest::hex(&hash.finalize())
}

/// One job per case to make: the input and the expected output, or why not.
struct MakeJobs {
    problem: &'static Problem,
    cases: Vec<Planned>,
}

impl Jobs for MakeJobs {
    type Output = Result<(Vec<u8>, Vec<u8>), Unmade>;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Self::Output> {
        Ok(make(self.problem, &self.cases[index]))
    }

    fn failed(&self, made: &Self::Output) -> bool {
        made.is_err()
    }
}

/// The input (attempt after attempt, each with the next `{seed}`, until one is valid) and the
/// brute force's output for it.
fn make(problem: &Problem, case: &Planned) -> Result<(Vec<u8>, Vec<u8>), Unmade> {
    let mut last = None;
    for retry in 0..case.retries.max(1) {
        let Recipe { seed, scale } = recipe::read(&case.command, retry)?;
        let input = (problem.generate)(seed, scale.0);
        if let Err(error) = (problem.validate)(&mut input.as_slice(), case.constraints) {
            last = Some(Unmade::BreaksLimits {
                command: case.command.text.clone(),
                constraints: case.constraints,
                error,
            });
            continue;
        }
        let output = reference_run(problem, &input, Reference::BruteForce)?;
        return Ok((input, output));
    }
    Err(last.expect("at least one attempt failed"))
}

/// Writes a case's `.in` and `.out` through the fixture store: a new case both or neither, a
/// changed one file by file (the `.out` first, so the input never goes with a stale output
/// unseen: the manifest no longer matches and the next run makes it again). A file generate did
/// not make is replaced only under `--force`; an `.ans` or `.err` of the case is never.
fn write_case(
    writer: &Writer,
    folder: &TreePath,
    path: &str,
    (input, output): &(Vec<u8>, Vec<u8>),
    manifest: &Manifest,
    options: &Options,
) -> Result<()> {
    let target = |ext: &str| case_file(folder, path, ext);
    let mut present = vec![];
    for ext in CASE_FILES {
        if writer.entry(target(ext).path())? != Entry::Missing {
            present.push(ext);
        }
    }
    if let Some(other) = present.iter().find(|e| !["in", "out"].contains(e)) {
        anyhow::bail!(
            "`{}` is there: this case is written by hand; generate writes a `.in` and a `.out`",
            target(other).path().display()
        );
    }
    let (in_file, out_file) = (target("in"), target("out"));
    let (in_path, out_path) = (in_file.path(), out_file.path());
    if present.is_empty() {
        return writer.create(&[(in_path, input), (out_path, output)]);
    }
    let previous = manifest.cases.get(path);
    // Every file checked before any is written: a refused case is left as it was.
    let mut writes = vec![];
    for (ext, file, bytes) in [("out", &out_file, output), ("in", &in_file, input)] {
        if !present.contains(&ext) {
            writes.push((file.path(), bytes, false));
            continue;
        }
        let old = file.read().map_err(|e| anyhow::anyhow!("{e}"))?;
        if &old == bytes {
            continue;
        }
        let ours = previous.is_some_and(|p| p.files.contains_key(ext));
        if !ours && !options.force {
            anyhow::bail!(
                "`{}` is there and was not made by generate; --force replaces it",
                file.path().display()
            );
        }
        writes.push((file.path(), bytes, true));
    }
    for (path, bytes, replace) in writes {
        if replace {
            writer.replace(path, bytes)?;
        } else {
            writer.create(&[(path, bytes)])?;
        }
    }
    Ok(())
}

/// Cases an earlier run made that the plan no longer lists: reported, and removed under
/// `--clean` while their files are still as generate wrote them. A case edited since is
/// forgotten instead: it is hand-written now.
fn no_longer_listed(
    folder: &TreePath,
    plan: &Plan,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    let listed: Vec<&str> = plan.cases.iter().map(|c| c.path.as_str()).collect();
    let gone: Vec<(String, manifest::Entry)> = manifest
        .cases
        .iter()
        .filter(|(path, _)| !listed.contains(&path.as_str()))
        .map(|(path, entry)| (path.clone(), entry.clone()))
        .collect();
    for (path, entry) in gone {
        let files: Vec<TreePath> = entry
            .files
            .keys()
            .map(|ext| case_file(folder, &path, ext))
            .collect();
        let ours = manifest.is_current(folder, &path, &entry.key);
        if ours {
            generated
                .unlisted
                .extend(files.iter().map(|f| f.path().display().to_string()));
        }
        if !ours || options.clean {
            if ours {
                // The input last: a case cut short is an input without output, never the reverse.
                for file in files.iter().rev() {
                    let _ = file.remove();
                }
                generated.removed = true;
            }
            manifest.cases.remove(&path);
        }
    }
}

#[cfg(test)]
#[path = "fixtures_tests.rs"]
mod tests;
