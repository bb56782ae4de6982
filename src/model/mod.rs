//! The problems as judged, in one shape for every source: a Kattis package read by
//! [`crate::package`], or a built-in problem (or a plain fixtures folder) seen as a package
//! judged by its settings ([`builtin`]), with a scoring
//! problem's scheme of scores ([`scoring`]). The stages (build, validation, judging, report)
//! read only this; [`packages`] reads the packages at a command's targets into it. It builds
//! and runs nothing.

pub mod builtin;
pub mod scoring;
mod settings;
mod time_limit;

pub use settings::judged_under;
pub use time_limit::{Fixed, How, MarginFacts, SlowestRun, TimeLimit};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::checking::default_validator::Options;
use crate::checking::{Checker, Interactor};
use crate::checktestdata::{self, ReadError, Script, ScriptError};
use crate::config::Settings;
use crate::files::beneath::{OpenError, TreePath};
use crate::package::constants::TooLarge;
use crate::package::limits::Limits;
use crate::package::programs::{Kind, Program};
use crate::package::settings::ValidatorArgs;
use crate::package::submissions::Submission;
use crate::package::testdata::{Case, CaseKind};
use crate::package::version::FormatVersion;
use crate::package::yaml::Diagnostic;
use crate::package::{find, load_package, CaseArgsError, OutputValidator, Package};

use scoring::{Scheme, SchemeError};

/// Memory and output limits of a package that leaves them to the judge (the format's defaults).
const DEFAULT_MEMORY_MIB: u64 = 2048;
const DEFAULT_OUTPUT_MIB: u64 = 8;

/// One problem to verify.
#[derive(Clone)]
pub struct Problem {
    pub name: String,
    /// The package folder, or the built-in problem's fixtures folder.
    pub root: PathBuf,
    /// Located warnings and notes, shown before the results.
    pub warnings: Vec<Diagnostic>,
    /// Sample and secret cases, in judging order.
    pub cases: Vec<TestCase>,
    /// Cases validated but not judged: a built-in problem's `extended/` groups, which its
    /// planted submissions are judged on only under `--extended` (see [`super::builtin`]).
    pub unjudged: Vec<TestCase>,
    /// Inputs every input validator must accept (the judged ones) or some must reject.
    pub invalid_inputs: Vec<TestCase>,
    /// `valid_output` (true) and `invalid_output` (false) cases for the output validator.
    pub output_cases: Vec<(TestCase, bool)>,
    pub input_validators: Vec<InputValidator>,
    /// BAPCtools' `answer_validators/`: each judged case's answer on stdin, its input file as
    /// the argument; exit 42 means a valid answer.
    pub answer_validators: Vec<Program>,
    pub judging: Judging,
    pub limits: Limits,
    /// Where a fixed time limit comes from, for the report.
    pub time_limit_source: Fixed,
    pub memory_mib: u64,
    pub output_mib: u64,
    pub submissions: Vec<Submission>,
    /// How many passes a case may take: `limits.validation_passes` for a multi-pass package, 1
    /// for the others.
    pub passes: u64,
    /// A scoring problem's scheme of scores, or why its scores cannot be computed; `None` for a
    /// pass-fail problem.
    pub scoring: Option<Result<Scheme, SchemeError>>,
    /// A submission may change its working folder: not in a 2023-07 or 2025-09 package without
    /// `allow_file_writing: true` (whose default the format makes read-only).
    pub submissions_write: bool,
    /// The output validator's working folder starts with the judged submission's files (its
    /// build folder, as the submission's own runs start in it): a 2023-07 or 2025-09 package's,
    /// as the format lists that folder's contents.
    pub validator_sees_submission: bool,
}

/// One case as every stage sees it ([`crate::discovery::Case`]: its input and answer, opened
/// only through the root of the package or fixtures they were found in, what it expects and the
/// limits its input is held to), with what its validators get.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// Named `problem/id`, as judging names it: what the one case runner
    /// ([`crate::judging::run_case`]) takes.
    pub case: crate::discovery::Case,
    /// The output to validate, for `valid_output`/`invalid_output` cases.
    pub output: Option<TreePath>,
    pub input_validator_args: ValidatorArgs,
    pub output_validator_args: Vec<String>,
    /// A package judged by the default output validator: its flags for this case, or why they
    /// are wrong.
    pub default_validator: Option<Result<Options, CaseArgsError>>,
}

impl TestCase {
    /// The path below `data/` (or below the fixtures folder) without extension.
    pub fn id(&self) -> &str {
        self.case.name()
    }
}

/// An input validator: a program of the package, a checktestdata script of the package, or a
/// built-in problem's `validate`.
#[derive(Clone)]
pub enum InputValidator {
    Program(Program),
    /// The script's text, read once and parsed (so that one that does not parse is known
    /// before any input is checked), or why it could not be read or parsed.
    Checktestdata {
        name: String,
        script: Result<Arc<Vec<u8>>, Arc<Unusable>>,
    },
    BuiltIn(&'static grundy_problems::Problem),
}

impl InputValidator {
    pub fn name(&self) -> String {
        match self {
            InputValidator::Program(program) => program.name.clone(),
            InputValidator::Checktestdata { name, .. } => name.clone(),
            InputValidator::BuiltIn(problem) => format!("built-in validator of {}", problem.id),
        }
    }

    /// A package's input validator: a checktestdata script is read (through the package's
    /// folder, as every file of it), its constants substituted (the format substitutes them in
    /// input validators, a script as much as a program's sources) and parsed here.
    fn of(program: Program) -> InputValidator {
        let Kind::Checktestdata { script } = &program.kind else {
            return InputValidator::Program(program);
        };
        let path = || script.path().to_path_buf();
        let text = script.open().map_err(Unusable::Open).and_then(|file| {
            let text = checktestdata::read_script(file).map_err(|error| Unusable::Read {
                path: path(),
                error,
            })?;
            match program.constants.substitute(&text) {
                Ok(None) => Ok(text),
                Ok(Some(text)) if text.len() as u64 <= checktestdata::MAX_SCRIPT_BYTES => Ok(text),
                Ok(Some(_)) | Err(TooLarge) => Err(Unusable::Substituted { path: path() }),
            }
        });
        let parsed = text.and_then(|text| match Script::parse(&text) {
            Ok(_) => Ok(text),
            Err(error) => Err(Unusable::Parse(error)),
        });
        InputValidator::Checktestdata {
            name: program.name,
            script: parsed.map(Arc::new).map_err(Arc::new),
        }
    }
}

/// Why a checktestdata script cannot check inputs: it cannot be opened or read beneath the
/// package, or does not parse.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    #[error(transparent)]
    Open(OpenError),
    #[error("{}: {error}", path.display())]
    Read { path: PathBuf, error: ReadError },
    #[error(
        "{}: substituting the package's constants makes it longer than {} KiB, which no \
         checktestdata script needs",
        path.display(),
        checktestdata::MAX_SCRIPT_BYTES >> 10
    )]
    Substituted { path: PathBuf },
    #[error("{0}")]
    Parse(ScriptError),
}

/// How outputs are judged.
#[derive(Clone)]
pub enum Judging {
    /// A built-in problem or a fixtures folder: the checker and interactor its settings name.
    Settings(Box<SettingsJudge>),
    /// A package: its output validator; interactive packages talk to it.
    Package {
        validator: OutputValidator,
        interactive: bool,
    },
}

/// The judge of a built-in problem or fixtures folder: the checker and interactor its settings
/// name (runner.toml's, flags over them). Its limits are the problem's, as a package's are; the
/// rest of what its cases are judged under is [`judged_under`]'s.
#[derive(Clone)]
pub struct SettingsJudge {
    pub checker: Checker,
    pub interactor: Option<Interactor>,
}

impl Problem {
    /// The folders holding its answers, which the programs judged and their compilers never
    /// see: a package's `data/`, a built-in problem's fixtures folder.
    pub fn answers(&self) -> Vec<PathBuf> {
        match &self.judging {
            Judging::Settings(_) => vec![absolute(&self.root)],
            Judging::Package { .. } => crate::discovery::package_answers(&self.root),
        }
    }

    /// Every case whose input (and answer) the validators check: the judged ones, then the
    /// unjudged ones.
    pub fn validated(&self) -> impl Iterator<Item = &TestCase> {
        self.cases.iter().chain(&self.unjudged)
    }

    pub fn validated_count(&self) -> usize {
        self.cases.len() + self.unjudged.len()
    }

    /// Validated case `c`, counted as [`Problem::validated`] counts.
    pub fn validated_case(&self, c: usize) -> &TestCase {
        match c.checked_sub(self.cases.len()) {
            None => &self.cases[c],
            Some(u) => &self.unjudged[u],
        }
    }

    /// The programs to build: input and answer validators, the output validator, then the
    /// submissions.
    pub fn programs(&self) -> impl Iterator<Item = &Program> {
        self.validators()
            .chain(self.submissions.iter().map(|s| &s.program))
    }

    /// Its validators that are programs: input, answer and output validators.
    pub fn validators(&self) -> impl Iterator<Item = &Program> {
        let validators = self.input_validators.iter().filter_map(|v| match v {
            InputValidator::Program(program) => Some(program),
            InputValidator::Checktestdata { .. } | InputValidator::BuiltIn(_) => None,
        });
        let output: &[Program] = match &self.judging {
            Judging::Package {
                validator: OutputValidator::Custom(list),
                ..
            } => list,
            _ => &[],
        };
        validators.chain(&self.answer_validators).chain(output)
    }

    /// A package, read, as a problem to verify.
    pub fn from_package(package: Package) -> Problem {
        let mut warnings = package.warnings.clone();
        let kind = package.metadata.problem_type;
        let scoring = kind.scoring.then(|| {
            let ids: Vec<String> = package.judged_cases().map(|c| c.id.clone()).collect();
            let metadata = &package.metadata;
            let (version, custom) = (metadata.version, metadata.custom_score);
            Scheme::new(version, &package.data, &ids, custom, &metadata.grading)
        });
        let test_case = |case: &Case| TestCase {
            case: crate::discovery::Case::of_package(
                format!("{}/{}", package.name, case.id),
                package.name.clone(),
                case.input.clone(),
                case.answer.clone(),
            ),
            output: case.output.clone(),
            input_validator_args: case.settings.input_validator_args.clone(),
            output_validator_args: case.settings.output_validator_args.clone(),
            default_validator: package.default_validator_options(case),
        };
        if let OutputValidator::Custom(list) = &package.output_validator {
            if list.len() > 1 {
                warnings.push(Diagnostic::file(
                    &package.root.join("output_validators"),
                    format!(
                        "several output validators; only the first, {}, judges",
                        list[0].name
                    ),
                ));
            }
        }
        let of_kind = |kind: CaseKind| {
            package
                .data
                .of_kind(kind)
                .map(test_case)
                .collect::<Vec<_>>()
        };
        let mut output_cases: Vec<(TestCase, bool)> = of_kind(CaseKind::ValidOutput)
            .into_iter()
            .map(|c| (c, true))
            .collect();
        output_cases.extend(
            of_kind(CaseKind::InvalidOutput)
                .into_iter()
                .map(|c| (c, false)),
        );
        let limits = package.metadata.limits.clone();
        let passes = if kind.multi_pass {
            limits.validation_passes
        } else {
            1
        };
        let cases = package.judged_cases().map(test_case).collect();
        let invalid_inputs = of_kind(CaseKind::InvalidInput);
        Problem {
            name: package.name,
            cases,
            unjudged: vec![],
            invalid_inputs,
            output_cases,
            input_validators: package
                .input_validators
                .into_iter()
                .map(InputValidator::of)
                .collect(),
            answer_validators: package.answer_validators,
            judging: Judging::Package {
                validator: package.output_validator,
                interactive: kind.interactive,
            },
            memory_mib: limits.memory_mib_or(DEFAULT_MEMORY_MIB),
            output_mib: limits.output_mib.unwrap_or(DEFAULT_OUTPUT_MIB),
            time_limit_source: Fixed::Package(limits.time_limit_file),
            limits,
            submissions: package.submissions,
            passes,
            scoring,
            submissions_write: package.metadata.version.is_legacy()
                || package.metadata.allow_file_writing,
            validator_sees_submission: !package.metadata.version.is_legacy(),
            root: package.root,
            warnings,
        }
    }

    /// Fixed limits with no safety margins: what a built-in problem's runner.toml settings mean.
    pub fn fixed_limits(settings: &Settings) -> Limits {
        Limits {
            time_limit: Some(settings.limits.time),
            ac_to_time_limit: 1.0,
            time_limit_to_tle: 1.0,
            ..Limits::defaults(FormatVersion::Legacy)
        }
    }
}

/// `path` made absolute (programs run in an empty folder of their own).
pub fn absolute(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The packages found at some package or contest folders ([`packages`]).
pub struct Packages {
    /// Those read, as problems.
    pub problems: Vec<Problem>,
    /// The located errors of those that could not be read, each with the package's folder (or
    /// the folder that could not be searched).
    pub unreadable: Vec<(PathBuf, Diagnostic)>,
    /// The folders of a contest passed over, for the command to note.
    pub skipped: Vec<find::Skipped>,
}

/// The packages found at `targets` (package or contest folders).
pub fn packages(targets: &[PathBuf]) -> Packages {
    let mut read = Packages {
        problems: vec![],
        unreadable: vec![],
        skipped: vec![],
    };
    for target in targets {
        let found = match find::find(target) {
            Ok(found) => found,
            Err(error) => {
                read.unreadable.push((target.clone(), error));
                continue;
            }
        };
        read.skipped.extend(found.skipped);
        for package in &found.packages {
            let root = absolute(package);
            match load_package(&root) {
                Ok(package) => read.problems.push(Problem::from_package(package)),
                Err(error) => read.unreadable.push((root, error)),
            }
        }
    }
    read
}

/// The path shown for a problem's folder: relative to the working directory when inside it.
pub fn shown(path: &Path) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    let shown = path
        .strip_prefix(&here)
        .unwrap_or(path)
        .display()
        .to_string();
    match shown.is_empty() {
        true => ".".into(),
        false => shown,
    }
}
