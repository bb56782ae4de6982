//! Kattis problem packages (legacy, 2023-07, 2025-09) as data: finding packages, reading one
//! whole (its metadata, data, validators and submissions with what each must get), and the
//! arguments of the format's default output validator (`checking::default_validator` judges).
//! Nothing here runs a program; the runner takes the [`programs::Plan`]s and the
//! [`expectations::Expectation`]s from here.
//!
//! One module per part of a package: [`find`] (which folders are packages), [`metadata`],
//! [`about`] and [`limits`] (`problem.yaml`), [`domjudge`] (DOMjudge's `.timelimit` and
//! `domjudge-problem.ini`), [`testdata`] and [`settings`] (`data/`), [`programs`]
//! and [`languages`] (validators and submissions as programs), [`submissions`], [`expectations`]
//! and [`expected_results`] (what each submission must get, DOMjudge's source tag included),
//! [`statement`] (whether there is one) and [`validation_header`] (validators relying on a
//! `validation.h` the package does not ship), and [`yaml`] and [`fields`] (located YAML, read
//! key by key).

pub mod about;
pub mod constants;
pub mod domjudge;
pub mod expectations;
pub mod expected_results;
pub mod fields;
pub mod find;
pub mod generators;
pub mod includes;
pub mod languages;
pub mod limits;
pub mod metadata;
pub mod problem_grading;
pub mod program_files;
pub mod programs;
pub mod settings;
pub mod statement;
pub mod submissions;
pub mod testdata;
pub mod time_limit_edit;
pub mod toolchains;
pub mod validation_header;
pub mod version;
pub mod yaml;

mod summary;

use std::path::{Path, PathBuf};

use crate::checking::default_validator;

use crate::files::beneath::{Kind, Scope, Tree};
use constants::Constants;
use metadata::Metadata;
use programs::Program;
use submissions::Submission;
use testdata::{Case, TestData};
use version::FormatVersion;
use yaml::Diagnostic;

/// How outputs are judged.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputValidator {
    /// The format's default validator ([`default_validator`]), with each case's arguments.
    Default,
    /// The package's own (legacy may have several; all must accept).
    Custom(Vec<Program>),
}

/// One package, read.
#[derive(Clone, Debug)]
pub struct Package {
    /// The folder's name.
    pub name: String,
    pub root: PathBuf,
    pub metadata: Metadata,
    pub data: TestData,
    pub input_validators: Vec<Program>,
    /// BAPCtools' `answer_validators/`, which check `.ans` files.
    pub answer_validators: Vec<Program>,
    pub output_validator: OutputValidator,
    pub submissions: Vec<Submission>,
    /// Everything worth telling that did not stop the reading, located.
    pub warnings: Vec<Diagnostic>,
}

impl Package {
    /// The cases submissions are judged on, in judging order.
    pub fn judged_cases(&self) -> impl Iterator<Item = &Case> {
        self.data.judged()
    }

    /// The default validator's options for `case`, when the default validator judges it; an error
    /// names the case whose arguments are wrong.
    pub fn default_validator_options(
        &self,
        case: &Case,
    ) -> Option<Result<default_validator::Options, CaseArgsError>> {
        if self.output_validator != OutputValidator::Default {
            return None;
        }
        Some(
            default_validator::Options::parse(&case.settings.output_validator_args).map_err(
                |error| CaseArgsError {
                    case: case.id.clone(),
                    error,
                },
            ),
        )
    }
}

/// A case whose default validator flags are wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("output validator arguments of {case}: {error}")]
pub struct CaseArgsError {
    pub case: String,
    pub error: default_validator::OptionsError,
}

/// Reads the package in folder `root`. Its root folder is opened once, and every file of it is
/// read through that ([`crate::files::beneath`]), so nothing outside the package is read.
pub fn load_package(root: &Path) -> Result<Package, Diagnostic> {
    read_package(root).map_err(|unreadable| unreadable.why)
}

/// A package that cannot be read whole: why, and its data as far as the format version alone
/// reads it (or why not), so that a package wrong in another key (an absurd limit) still has its
/// cases, which `check` fails with why.
#[derive(Debug)]
pub struct Unreadable {
    pub why: Diagnostic,
    pub data: Result<TestData, Diagnostic>,
}

/// Reads the package in folder `root`, each of its files once: the package, or why not with as
/// much of its data as can be read.
pub fn read_package(root: &Path) -> Result<Package, Box<Unreadable>> {
    let both = |why: Diagnostic| {
        Box::new(Unreadable {
            data: Err(why.clone()),
            why,
        })
    };
    let tree = Tree::open(root, Scope::Package).map_err(|e| both(e.into()))?;
    let file = tree.join("problem.yaml");
    let yaml = yaml::read(&file, yaml::PROBLEM_YAML_BYTES).map_err(both)?;
    let version = metadata::version(file.path(), yaml.as_ref()).map_err(both)?;
    let mut warnings = vec![];
    // The data as the version alone reads it: the validator flags only go into the cases'
    // settings.
    let data_alone = |why: Diagnostic| {
        Box::new(Unreadable {
            data: testdata::read(&tree, version, &[], &Constants::default(), &mut vec![]),
            why,
        })
    };
    let mut metadata =
        metadata::of_yaml(file.path(), yaml.as_ref(), &mut warnings).map_err(data_alone)?;
    domjudge::apply(&tree, &mut metadata, &mut warnings).map_err(data_alone)?;
    let flags = &metadata.validator_flags;
    let data =
        testdata::read(&tree, version, flags, &metadata.constants, &mut warnings).map_err(both)?;
    statement::warn_if_missing(&tree, root, version, &mut warnings);
    let programs = match programs(&tree, root, &metadata, &mut warnings) {
        Ok(programs) => programs,
        Err(why) => {
            return Err(Box::new(Unreadable {
                why,
                data: Ok(data),
            }))
        }
    };
    Ok(Package {
        name: find::name_of(root),
        root: root.to_path_buf(),
        metadata,
        data,
        input_validators: programs.input_validators,
        answer_validators: programs.answer_validators,
        output_validator: programs.output_validator,
        submissions: programs.submissions,
        warnings,
    })
}

/// A package's programs: its validators and submissions.
struct Programs {
    input_validators: Vec<Program>,
    answer_validators: Vec<Program>,
    output_validator: OutputValidator,
    submissions: Vec<Submission>,
}

/// The programs of a package whose metadata is read.
fn programs(
    tree: &Tree,
    root: &Path,
    metadata: &Metadata,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Programs, Diagnostic> {
    let version = metadata.version;
    let mut input_validators = programs::programs_in(&tree.join("input_validators"))?;
    if version.is_legacy() {
        input_validators.extend(programs::programs_in(
            &tree.join("input_format_validators"),
        )?);
    } else {
        // 2023-07 and 2025-09 run an input validator in a folder holding its own files (a
        // table it reads by a relative name); the legacy format says nothing, and problemtools
        // and BAPCtools run it in a folder of theirs.
        for validator in &mut input_validators {
            validator.works_in_own_folder = true;
        }
    }
    if input_validators.is_empty() {
        warnings.push(Diagnostic::file(
            &root.join("input_validators"),
            "no input validator: inputs cannot be checked",
        ));
    }
    let output_validator = output_validator(tree, metadata, warnings)?;
    let scoring = metadata.problem_type.scoring;
    let includes = includes::read(tree)?;
    let submissions = submissions::read_including(tree, version, scoring, &includes, warnings)?;
    if !submissions.iter().any(|s| s.folder == "accepted") {
        warnings.push(Diagnostic::file(
            &root.join("submissions/accepted"),
            "no accepted submission; the format requires one",
        ));
    }
    let answer_validators = programs::programs_in(&tree.join("answer_validators"))?;
    let (mut input_validators, mut output_validator, mut submissions) =
        (input_validators, output_validator, submissions);
    if !version.is_legacy() && !metadata.constants.is_empty() {
        // The format substitutes its constants in submissions (with their included files) and
        // in input and output validators.
        let constants = std::sync::Arc::new(metadata.constants.clone());
        let output = match &mut output_validator {
            OutputValidator::Custom(list) => &mut list[..],
            OutputValidator::Default => &mut [],
        };
        let submitted = submissions.iter_mut().map(|s| &mut s.program);
        for program in input_validators.iter_mut().chain(output).chain(submitted) {
            program.constants = constants.clone();
        }
    }
    let validators = input_validators.iter().chain(&answer_validators);
    let output_validators = match &output_validator {
        OutputValidator::Custom(list) => &list[..],
        OutputValidator::Default => &[],
    };
    for program in validators.chain(output_validators) {
        unshipped_header(program, warnings);
    }
    Ok(Programs {
        input_validators,
        answer_validators,
        output_validator,
        submissions,
    })
}

/// The output validator: `output_validator/` (one program) in the new versions, accepting the
/// legacy `output_validators/` with a warning; legacy `output_validators/<name>` (or, with a
/// warning, `output_validator/`) used when `validation` is custom. Interactive and multi-pass problems must have one.
fn output_validator(
    tree: &Tree,
    metadata: &Metadata,
    warnings: &mut Vec<Diagnostic>,
) -> Result<OutputValidator, Diagnostic> {
    let single = tree.join("output_validator");
    let several = tree.join("output_validators");
    let found = if metadata.version.is_legacy() {
        let mut programs = programs::programs_in(&several)?;
        let mut folder = &several;
        // DOMjudge's example packages (hangman, jumble) are legacy yet keep their validator in
        // the new versions' folder, which DOMjudge and BAPCtools both read.
        if programs.is_empty() && matches!(single.kind()?, Some(Kind::Folder(_))) {
            warnings.push(Diagnostic::file(single.path(), "the legacy format names this folder output_validators/ (a folder per validator); read as the one output validator all the same, as DOMjudge and BAPCtools read it"));
            programs = vec![Program::new(&single, None, None)?];
            folder = &single;
        }
        if !metadata.custom_validation && !programs.is_empty() {
            warnings.push(Diagnostic::file(folder.path(), "validation is `default`, so these validators are not used; say `validation: custom` to use them"));
            vec![]
        } else {
            programs
        }
    } else if matches!(single.kind()?, Some(Kind::Folder(_))) {
        vec![Program::new(&single, None, None)?]
    } else {
        let programs = programs::programs_in(&several)?;
        if !programs.is_empty() {
            warnings.push(Diagnostic::file(several.path(), format!("format {} names this folder output_validator (one validator); read all the same", metadata.version)));
        }
        programs
    };
    let kind = &metadata.problem_type;
    let needs_custom = kind.interactive || kind.multi_pass || metadata.custom_validation;
    match (found.is_empty(), needs_custom) {
        (true, true) => {
            let folder = if metadata.version == FormatVersion::Legacy {
                &several
            } else {
                &single
            };
            Err(Diagnostic::file(
                folder.path(),
                format!(
                    "a {} problem needs a custom output validator here",
                    describe_need(metadata)
                ),
            ))
        }
        (true, false) => Ok(OutputValidator::Default),
        (false, _) => Ok(OutputValidator::Custom(found)),
    }
}

/// Warns when a validator's `validation.h` links outside the package (the link is not
/// followed, so the header is not shipped, and the build supplies grundy's), or when a
/// validator includes a `validation.h` the package does not ship at all: grundy supplies its
/// own, the peers none, so the package builds here and not under them.
fn unshipped_header(program: &Program, warnings: &mut Vec<Diagnostic>) {
    let header = programs::SUPPLIED_HEADER;
    if program.is_folder {
        if let Err(error) = program.path.join(header).kind() {
            if error.leads_outside() {
                warnings.push(Diagnostic::file(
                    error.file(),
                    format!(
                        "{}; not read, so {header} is not shipped and grundy supplies its own",
                        error.reason(),
                    ),
                ));
                return;
            }
        }
    }
    if validation_header::needs_header(program) {
        warnings.push(Diagnostic::file(
            program.path.path(),
            format!(
                "includes {header}, which the package does not ship: grundy supplies its own, \
                 but BAPCtools (`bt generate`, `bt validate`) and problemtools (`verifyproblem`) \
                 supply none and fail to compile it (`{header}: No such file or directory`); \
                 put BAPCtools' {header} beside the validator to share the package"
            ),
        ));
    }
}

fn describe_need(metadata: &Metadata) -> String {
    if metadata.problem_type.interactive || metadata.problem_type.multi_pass {
        metadata.problem_type.to_string()
    } else {
        "`validation: custom`".to_string()
    }
}

#[cfg(test)]
#[path = "package_mixed_tests.rs"]
mod mixed_tests;
#[cfg(test)]
#[path = "package_tests.rs"]
mod tests;

/// Temporary package trees for the tests of every module here (and the runner's).
#[cfg(test)]
pub(crate) mod test_support {
    use std::path::Path;

    use super::constants::Constants;
    use super::yaml::Diagnostic;
    use crate::files::beneath::{Scope, Tree};

    /// The package rooted at `dir`, opened.
    pub fn root(dir: &Path) -> Tree {
        Tree::open(dir, Scope::Package).unwrap()
    }

    /// Writes `files` (path, contents) below `root`, making folders as needed.
    pub fn write(root: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    /// A temporary folder holding `files`.
    pub fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), files);
        dir
    }

    /// The `constants:` of a `problem.yaml` holding `text`, as read.
    pub fn constants(text: &str) -> Result<Constants, Diagnostic> {
        let file = Path::new("problem.yaml");
        let node = super::yaml::parse(file, text).unwrap().unwrap();
        let (_, constants) = node
            .as_map()
            .unwrap()
            .iter()
            .find(|(k, _)| k.as_str() == Some("constants"))
            .unwrap();
        Constants::read(file, constants)
    }
}
