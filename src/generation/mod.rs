//! Generating test data: a package's `data/` made from `generators/generators.yaml` as
//! `bt generate` does: the plan read ([`crate::package::generators`], [`read_plan`]), the
//! generators and solutions built through the build stage ([`programs`]), each changed case made
//! on the pool, contained ([`make`]), its files written atomically ([`write`]), `test_group.yaml`
//! per group, included cases copied; what is unchanged since the last run ([`manifest`]) is not
//! made again. Then the package's inputs and answers go through its validators. `verify` calls
//! [`generate_package`] first on a package with a `generators.yaml`, and `stress` reads a
//! package's generators through [`read_plan`]. A built-in problem's fixtures, described by
//! `fixtures/<problem>/generators.yaml`, are made by [`fixtures`] from its Rust generator
//! ([`recipe`] reads the commands). What fails or is warned of is typed ([`findings`]) until the
//! report ([`report`]) prints it. What `grundy generate` acts on, and its exit code, are
//! `commands::generate`'s.

mod findings;
pub mod fixtures;
pub(crate) mod make;
mod manifest;
pub(crate) mod programs;
mod recipe;
pub mod report;
pub mod scale;
mod write;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use sha2::{Digest, Sha256};

use crate::build::BuildJobs;
use crate::files::beneath::{Scope, Tree};
use crate::limits::Limits;
use crate::model::Problem;
use crate::package::generators::{
    self, Context as PlanContext, Plan, Source, FILE, FOLDER, GENERATORS_YAML_BYTES,
    IMAGE_EXTENSIONS, TEXT_EXTENSIONS,
};
use crate::package::yaml::Diagnostic;
use crate::package::{load_package, Package};
use crate::reporting::findings::{Fault, Unchecked};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::ValidationJobs;
pub use findings::{PlanErrors, Unmade, Warning};
use make::{Made, MakeJobs};
use manifest::Manifest;
use programs::Programs;
use report::Generated;
pub use write::Options;
use write::{groups, include_cases, unlisted, write_recorded};

/// A generator's CPU time when `problem.yaml` gives no `limits.generator_time` (bt's default).
const GENERATOR_TIME: Duration = Duration::from_secs(60);
const GENERATOR_MEMORY_MIB: u64 = 2048;
const GENERATOR_OUTPUT_MIB: u64 = 1024;

/// Generates the data of the package at `root` (which has a `generators.yaml`); validates what
/// changed when `validate`. A [`Stop`] is Ctrl-C, a plan that cannot be read or a host failure;
/// cases that fail are in [`Generated::failed`].
pub fn generate_package(
    root: &Path,
    options: &Options,
    pool: &Pool,
    validate: bool,
) -> Result<Generated, Stop> {
    let read = read_plan(root).map_err(|errors| Stop::Failed(errors.into()))?;
    generate_read(root, read, options, pool, validate)
}

/// [`generate_package`] of a plan already read ([`read_plan`]): `verify` reads each package's
/// plan first, so that one that cannot be read fails as that package alone.
pub fn generate_read(
    root: &Path,
    (tree, package, plan): ReadPlan,
    options: &Options,
    pool: &Pool,
    validate: bool,
) -> Result<Generated, Stop> {
    let context = PlanContext {
        interactive_or_multi_pass: interactive_or_multi_pass(&package),
        ..PlanContext::default()
    };
    // `data/`, made where missing, and everything below it, are reached from the package's
    // descriptor without following a link (see `write`).
    let data = tree.join("data");
    data.open_folder(true)?;
    let mut generated = Generated {
        package: package.name.clone(),
        warnings: plan.warnings.iter().cloned().map(Warning::Plan).collect(),
        ..Generated::default()
    };
    let (mut programs, picked) = Programs::find(&tree, &plan, &package);
    generated
        .warnings
        .extend(picked.map(Warning::DefaultSolution));
    let problem = Problem::from_package(package.clone());
    let build_jobs = Arc::new(BuildJobs::of_programs(&problem, programs.to_build()));
    let built = pool.run(
        Arc::clone(&build_jobs),
        build_jobs.len(),
        "building generators",
    )?;
    programs.built(&build_jobs.collect(built));
    let programs = Arc::new(programs);

    let mut manifest = Manifest::read(&data);
    let mut to_make = vec![];
    let mut keys = vec![];
    for case in &plan.cases {
        let Source::Rule(rule) = &case.source else {
            continue;
        };
        let key = case_key(&tree, rule, &programs, context.interactive_or_multi_pass);
        if !options.force && manifest.is_current(&data, &case.path, &key) {
            generated.unchanged += 1;
        } else {
            to_make.push((case.clone(), (**rule).clone()));
            keys.push(key);
        }
    }
    // The validators build while the cases are made, when there is something to validate.
    let ahead = if validate && !to_make.is_empty() {
        BuildJobs::validators([&problem])
    } else {
        BuildJobs::default()
    };
    let jobs = Arc::new(MakeJobs {
        tree: tree.clone(),
        cases: to_make,
        programs,
        limits: limits(&package),
        interactive_or_multi_pass: context.interactive_or_multi_pass,
        ahead,
    });
    let count = jobs.ahead.len() + jobs.cases.len();
    let outputs = pool.run(Arc::clone(&jobs), count, "generating")?;
    let outputs = outputs.into_iter().skip(jobs.ahead.len());
    for (((case, _), key), made) in jobs.cases.iter().zip(keys).zip(outputs) {
        match made {
            Some(Made::Files { files, warnings }) => {
                let at = &case.path;
                generated.warnings.extend(
                    warnings
                        .into_iter()
                        .map(|missed| Warning::Missed(at.clone(), missed)),
                );
                if write_recorded(
                    &data,
                    &case.path,
                    key,
                    &files,
                    &mut manifest,
                    options.force,
                    &mut generated,
                ) {
                    generated.made += 1;
                }
            }
            Some(Made::Failed(why)) => generated.failed.push((case.path.clone(), why.into())),
            None | Some(Made::BuiltAhead) => {
                generated.failed.push((case.path.clone(), Unmade::CutShort))
            }
        }
        // A killed run keeps what was made so far.
        manifest.write(&data)?;
    }
    include_cases(&plan, &data, &mut manifest, options, &mut generated);
    groups(&plan, &data, &mut manifest, options, &mut generated);
    unlisted(&plan, &data, &mut manifest, options, &mut generated);
    manifest.write(&data)?;
    if validate && generated.made + generated.included > 0 {
        let (invalid, unchecked) = validate_data(root, pool)?;
        generated.invalid = invalid;
        generated
            .warnings
            .extend(unchecked.into_iter().map(Warning::NotValidated));
    }
    Ok(generated)
}

/// A package opened and read, and its `generators.yaml` as a plan.
pub type ReadPlan = (Tree, Package, Plan);

/// The package at `root` (opened and read) and its `generators.yaml` as a plan; else why not:
/// the errors of the plan all together, each located (or the file, or the package, that could
/// not be read). `stress` reads a package's generators through this, `verify` each package's.
pub fn read_plan(root: &Path) -> Result<ReadPlan, PlanErrors> {
    let file = PathBuf::from(FOLDER).join(FILE);
    let shown = root.join(&file);
    let one = |why: Diagnostic| PlanErrors(vec![why]);
    let tree = Tree::open(root, Scope::Package)
        .map_err(|e| one(Diagnostic::file(e.file(), e.reason())))?;
    let text = read_text(&tree, &file).map_err(one)?;
    let package = load_package(root).map_err(one)?;
    let context = PlanContext {
        interactive_or_multi_pass: interactive_or_multi_pass(&package),
        constants: constants(&tree),
        fixtures: false,
    };
    let plan = generators::parse(&shown, &text, &context).map_err(PlanErrors)?;
    let missing = programs::missing(&tree, &plan, &package, &shown);
    if !missing.is_empty() {
        return Err(PlanErrors(missing));
    }
    Ok((tree, package, plan))
}

fn interactive_or_multi_pass(package: &Package) -> bool {
    let kind = package.metadata.problem_type;
    kind.interactive || kind.multi_pass
}

/// `problem.yaml`'s `constants` as `{{name}}` and `{{name.variant}}` name them (a constant's
/// `value` is also `{{name}}`), as BAPCtools reads them; what cannot be read is left out (the
/// package reader warns about it).
fn constants(tree: &Tree) -> Vec<(String, String)> {
    use crate::package::yaml::{self, Value};
    let Ok(Some(root)) = yaml::read(&tree.join("problem.yaml"), yaml::PROBLEM_YAML_BYTES) else {
        return vec![];
    };
    let Some(map) = root
        .as_map()
        .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some("constants")))
    else {
        return vec![];
    };
    let mut out = vec![];
    for (key, value) in map.1.as_map().unwrap_or_default() {
        let Some(key) = key.as_str() else { continue };
        let variants: Vec<(String, String)> = match &value.value {
            Value::Map(entries) => entries
                .iter()
                .filter_map(|(sub, v)| {
                    let sub = sub.as_str()?;
                    let text = match &v.value {
                        Value::Str(s) => s.clone(),
                        Value::Int(_) | Value::Float(_) if sub == "value" => v.raw.clone(),
                        _ => return None,
                    };
                    Some((sub.to_string(), text))
                })
                .collect(),
            _ => value
                .scalar_text()
                .map(|t| vec![("value".to_string(), t)])
                .unwrap_or_default(),
        };
        for (sub, text) in variants {
            if sub == "value" {
                out.push((key.to_string(), text.clone()));
            }
            out.push((format!("{key}.{sub}"), text));
        }
    }
    out
}

fn read_text(tree: &Tree, file: &Path) -> Result<String, Diagnostic> {
    let path = tree.join(file);
    let shown = path.path();
    let opened = path
        .open()
        .map_err(|e| Diagnostic::file(e.file(), e.reason()))?;
    let mut text = String::new();
    opened
        .take(GENERATORS_YAML_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| Diagnostic::file(shown, format!("cannot be read as text: {e}")))?;
    if text.len() as u64 > GENERATORS_YAML_BYTES {
        let why = format!(
            "larger than the {} MiB grundy reads",
            GENERATORS_YAML_BYTES >> 20
        );
        return Err(Diagnostic::file(shown, why));
    }
    Ok(text)
}

/// The limits a generator and a solution writing answers run under.
pub(crate) fn limits(package: &Package) -> Limits {
    let limits = &package.metadata.limits;
    Limits::of_program(
        limits
            .generator_time_s
            .map_or(GENERATOR_TIME, Duration::from_secs),
        limits
            .memory_mib
            .unwrap_or(GENERATOR_MEMORY_MIB)
            .max(GENERATOR_MEMORY_MIB),
        GENERATOR_OUTPUT_MIB,
    )
}

/// Everything a case's files are made from: its rule (command with the seed, inline text,
/// links, retries), the build keys of its generator and solution, the bytes of copied files.
fn case_key(
    tree: &Tree,
    rule: &generators::Rule,
    programs: &Programs,
    interactive: bool,
) -> String {
    let mut hash = Sha256::new();
    hash.update(b"grundy generate 1\0");
    hash.update(format!("{rule:?}\0{interactive}\0").as_bytes());
    if let Some(command) = &rule.generate {
        hash.update(command.keyed_text().as_bytes());
        hash.update(
            programs
                .keys
                .get(&command.program)
                .map_or("", String::as_str)
                .as_bytes(),
        );
    }
    hash.update(programs.solution_key(&rule.solution).as_bytes());
    if let Some(copy) = &rule.copy {
        for ext in TEXT_EXTENSIONS.into_iter().chain(IMAGE_EXTENSIONS) {
            let mut bytes = vec![];
            if let Ok(mut file) = tree.join(format!("{copy}.{ext}")).open() {
                let _ = file.read_to_end(&mut bytes);
                hash.update(format!("{ext}\0{}\0", bytes.len()).as_bytes());
                hash.update(&bytes);
            }
        }
    }
    manifest::hex(&hash.finalize())
}

/// The package's inputs and answers through its validators, as `verify` checks them: the
/// findings (what is invalid, what could not be checked).
fn validate_data(root: &Path, pool: &Pool) -> Result<(Vec<Fault>, Vec<Unchecked>), Stop> {
    let package = load_package(root).map_err(|e| anyhow::anyhow!("{e}"))?;
    let problems = Arc::new(vec![Problem::from_package(package)]);
    let build_jobs = Arc::new(BuildJobs::validators(problems.iter()));
    let built = pool.run(
        Arc::clone(&build_jobs),
        build_jobs.len(),
        "building validators",
    )?;
    let builds = Arc::new(build_jobs.collect(built));
    let validation = Arc::new(ValidationJobs::new(Arc::clone(&problems), builds));
    let said = pool.run(Arc::clone(&validation), validation.len(), "validating")?;
    let (mut invalid, mut unchecked) = (vec![], vec![]);
    for findings in validation.findings(&said) {
        invalid.extend(findings.errors);
        unchecked.extend(findings.unchecked);
    }
    Ok((invalid, unchecked))
}
