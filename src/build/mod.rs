//! Building every program of the problems (validators, submissions, generators, a program
//! given on the command line) once, in parallel, into
//! the build cache ([`cache`]: one folder per content key, [`Program::cache_key`]), so an
//! unchanged program is never compiled twice, across runs and packages: which programs, under
//! which limits, looked up or published how. Making one build (the contained compiler, its
//! output checked, the launcher) is [`staging`]'s.
//!
//! A build succeeds only when the compiler exits 0 and leaves what the run command needs as a
//! regular file (a compiled program's `main`, a `run` script, a JVM entry class): otherwise it
//! is a compile error that says what is missing. Whose fault a failure is decides its
//! [`Build`]: the compiler rejecting the program is [`Build::Failed`] (CE); a program grundy
//! cannot build here is [`Build::Skipped`] (no compiler, an unsupported language); the host
//! failing ([`HostError`]: the cache cannot be written, a disk is full, the compiler's box
//! cannot be made) is [`Build::HostError`], a judge error.
//!
//! Every program is started through one executable: the binary itself, or a `grundy-run`
//! launcher script in its build folder (interpreted languages, `run` scripts), so validators can
//! be handed to the checker protocols, which add their files right after the program's path.

mod cache;
mod error;
mod jvm_main;
mod said;
mod staging;
mod validation_h;
pub mod versions;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use grundy_sandbox::Program as Command;

use crate::files::beneath::TreePath;
use crate::limits::Limits;
use crate::model::Problem;
use crate::package::programs::{Kind, Plan, Program, Skip};
use crate::package::toolchains::missing_tool;
use crate::package::validation_header::needs_header;
use crate::running::pool::Jobs;
use crate::running::SolveWatch;
use cache::Cache;
pub use cache::{cache_folder, CacheError};
use error::BuildError;
pub use error::HostError;
use staging::{check_outputs, launch, stage, write_launcher};
use validation_h::Include;

/// A compiler's limits when the package sets none.
const COMPILE_TIME: Duration = Duration::from_secs(60);
const COMPILE_MEMORY_MIB: u64 = 4096;
const COMPILE_OUTPUT_MIB: u64 = 1024;

/// What building a program gave.
#[derive(Clone, Debug)]
pub enum Build {
    /// Ready to run: the command that starts it, and whether it came from the cache.
    Ready { command: Command, cached: bool },
    /// The compiler or build script failed (CE): its message.
    Failed(String),
    /// Not built: why (no compiler, an unsupported language, nothing runnable, the run cut
    /// short).
    Skipped(Skipped),
    /// The host failed while building it: a judge error, not the program's fault.
    HostError(HostError),
}

/// Why a program that did compile (or was never compiled) cannot run here: the build stage
/// skipped it (why), or the host failed while building it. Nobody's fault the package can be
/// blamed for: what it would have checked is left unchecked.
#[derive(Clone, Debug)]
pub enum NoBuild {
    Skipped(Skipped),
    Host(HostError),
}

/// Why the build stage did not build a program, kept as a type until a reporter says it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Skipped {
    /// What its files make of it cannot be built here (no compiler for its language, a language
    /// grundy does not build, nothing runnable).
    #[error("{0}")]
    Plan(Skip),
    /// Ctrl-C cut the build stage short before it was built.
    #[error("skipped: the run was cut short")]
    CutShort,
}

impl std::fmt::Display for NoBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoBuild::Skipped(why) => write!(f, "{why}"),
            NoBuild::Host(error) => write!(f, "judge error: {error}"),
        }
    }
}

/// Every program's build, by the program's [`BuildId`].
#[derive(Default)]
pub struct Builds(HashMap<BuildId, Build>);

/// What tells one program's build from another's: its file or folder, and its name. A program's
/// name is its path's last part, but for a name of `generators.yaml`'s `generators:` dictionary,
/// which makes a program of some files of the one folder `generators/`: two such names are two
/// programs at one path, each with a build of its own.
type BuildId = (TreePath, String);

fn build_id(program: &Program) -> BuildId {
    (program.path.clone(), program.name.clone())
}

impl Builds {
    /// The build of `program`, if it was one of those built.
    pub fn get(&self, program: &Program) -> Option<&Build> {
        self.0.get(&build_id(program))
    }

    pub fn of(&self, program: &Program) -> &Build {
        self.0
            .get(&build_id(program))
            .expect("every program of every problem was built")
    }
}

/// Where and how a problem's programs are built, and the memory its runs get (a JVM's heap is
/// sized by it).
#[derive(Clone)]
struct BuildSettings {
    cache: PathBuf,
    compile: Limits,
    run_memory_mib: u64,
    /// Headers placed on the compiler's include path (a validator's `validation.h`).
    include: Option<Arc<Include>>,
    /// Folders its compilers never see (the answers), whatever folders their toolchain shows.
    hide: Vec<PathBuf>,
    /// Its runs start in a copy of the build folder (a submission's: see [`launch`]).
    working_copy: bool,
    /// That copy is read-only (the problem's submissions may not write: see
    /// [`Problem::submissions_write`]).
    read_only_copy: bool,
}

impl BuildSettings {
    fn of(problem: &Problem) -> BuildSettings {
        BuildSettings {
            cache: cache_folder(&problem.root),
            compile: compile_limits(problem),
            run_memory_mib: problem.memory_mib,
            include: None,
            hide: problem.answers(),
            working_copy: false,
            read_only_copy: !problem.submissions_write,
        }
    }

    /// These settings for a submission, whose runs start in a copy of its build folder.
    fn submission(&self) -> BuildSettings {
        BuildSettings {
            working_copy: true,
            ..self.clone()
        }
    }

    /// These settings with `include` on the include path, the builds kept in its own part of
    /// the cache.
    fn with_include(&self, include: &Arc<Include>) -> BuildSettings {
        BuildSettings {
            cache: include.cache(&self.cache),
            include: Some(include.clone()),
            ..self.clone()
        }
    }
}

/// The build jobs: one per distinct program (by [`BuildId`]), in problem order (none by default).
#[derive(Default)]
pub struct BuildJobs {
    /// Each program with its problem's build settings.
    programs: Vec<(Program, BuildSettings)>,
}

impl BuildJobs {
    /// Every program of `problems`: their validators and their submissions.
    pub fn new<'a>(problems: impl IntoIterator<Item = &'a Problem>) -> BuildJobs {
        BuildJobs::of_problems(problems, true)
    }

    /// The validators of `problems` only (input, answer and output validators), for what runs
    /// no submission: validating data, or judging another program by them.
    pub fn validators<'a>(problems: impl IntoIterator<Item = &'a Problem>) -> BuildJobs {
        BuildJobs::of_problems(problems, false)
    }

    fn of_problems<'a>(
        problems: impl IntoIterator<Item = &'a Problem>,
        submissions: bool,
    ) -> BuildJobs {
        let mut seen = std::collections::HashSet::new();
        let mut programs = vec![];
        let include = Arc::new(Include::builtin());
        for problem in problems {
            let settings = BuildSettings::of(problem);
            let validators: Vec<&TreePath> = problem.validators().map(|v| &v.path).collect();
            let submitted = problem.submissions.iter().map(|s| &s.program);
            for program in problem
                .validators()
                .chain(submitted.filter(|_| submissions))
            {
                if seen.insert(build_id(program)) {
                    let validator = validators.contains(&&program.path);
                    let settings = if validator && needs_header(program) {
                        settings.with_include(&include)
                    } else if validator {
                        settings.clone()
                    } else {
                        settings.submission()
                    };
                    programs.push((program.clone(), settings));
                }
            }
        }
        BuildJobs { programs }
    }

    /// The build jobs of `programs`, which are not all of `problem`'s own (a package's
    /// generators, say), under `problem`'s build settings.
    pub fn of_programs(problem: &Problem, programs: Vec<Program>) -> BuildJobs {
        let settings = BuildSettings::of(problem);
        let mut seen = std::collections::HashSet::new();
        let programs = programs
            .into_iter()
            .filter(|p| seen.insert(build_id(p)))
            .map(|p| (p, settings.clone()))
            .collect();
        BuildJobs { programs }
    }

    pub fn len(&self) -> usize {
        self.programs.len()
    }

    /// The builds, from the pool's outputs in job order (`None`: cut short by a cancel).
    pub fn collect(&self, outputs: Vec<Option<Build>>) -> Builds {
        let builds = self
            .programs
            .iter()
            .zip(outputs)
            .map(|((program, ..), build)| {
                let build = build.unwrap_or(Build::Skipped(Skipped::CutShort));
                (build_id(program), build)
            });
        Builds(builds.collect())
    }
}

impl Jobs for BuildJobs {
    type Output = Build;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Build> {
        let (program, settings) = &self.programs[index];
        Ok(build(program, settings))
    }

    fn failed(&self, build: &Build) -> bool {
        !matches!(build, Build::Ready { .. })
    }
}

/// Builds one program given on the command line (`check --exec sol.cpp`) into `cache`, or
/// finds it there: the build `verify` makes of a submission, under the default compile limits,
/// its runs sized for `run_memory_mib` (a JVM's heap), its compiler never shown the folders
/// `hide` (the answers).
pub fn build_program(
    program: &Program,
    cache: &Path,
    run_memory_mib: u64,
    hide: Vec<PathBuf>,
) -> Build {
    let settings = BuildSettings {
        cache: cache.to_path_buf(),
        compile: Limits::of_program(COMPILE_TIME, COMPILE_MEMORY_MIB, COMPILE_OUTPUT_MIB),
        run_memory_mib,
        include: None,
        hide,
        working_copy: true,
        read_only_copy: false,
    };
    build(program, &settings)
}

/// The limits a problem's compilers run under.
fn compile_limits(problem: &Problem) -> Limits {
    let limits = &problem.limits;
    Limits::of_program(
        limits
            .compilation_time_s
            .map_or(COMPILE_TIME, Duration::from_secs),
        limits.compilation_memory_mib.unwrap_or(COMPILE_MEMORY_MIB),
        // What a compiler may write: its messages, and files of 4 times this (a program with a
        // large initialised array has an object file that size); what is copied back is capped
        // at this.
        COMPILE_OUTPUT_MIB,
    )
}

/// Builds `program` in its problem's cache (or finds it there).
fn build(program: &Program, settings: &BuildSettings) -> Build {
    let plan = match program.plan(&settings.cache, missing_tool) {
        Ok(plan) => plan,
        Err(skip) => return Build::Skipped(Skipped::Plan(skip)),
    };
    let scripts = program.kind == Kind::Scripts;
    let ready = build_cached(program, &plan, scripts, settings).and_then(|cached| {
        let mut command = launch(
            program,
            &plan,
            scripts,
            settings.run_memory_mib,
            settings.working_copy || program.works_in_own_folder,
        )?;
        command.read_only_workdir = settings.working_copy && settings.read_only_copy;
        Ok(Build::Ready { command, cached })
    });
    match ready {
        Ok(build) => build,
        Err(BuildError::Failed(message)) => Build::Failed(message),
        Err(BuildError::Host(error)) => Build::HostError(error),
    }
}

/// Takes the build of `plan` from the cache (`true`), or builds it in a staging folder and
/// publishes it there (`false`).
fn build_cached(
    program: &Program,
    plan: &Plan,
    scripts: bool,
    settings: &BuildSettings,
) -> Result<bool, BuildError> {
    let cache = Cache::open(&settings.cache)?;
    if cache.lookup(&plan.key)? {
        return Ok(true);
    }
    let staging = cache.stage(&plan.key)?;
    let include = settings.include.as_deref();
    stage(
        program,
        plan,
        scripts,
        staging.path(),
        &settings.compile,
        include,
        &settings.hide,
    )?;
    if let Some(preferred) = &plan.main_class {
        jvm_main::find(staging.path(), preferred)?;
    }
    check_outputs(plan, staging.path())?;
    if scripts {
        write_launcher(plan, staging.path())
            .map_err(|e| CacheError::new("write the launcher in", staging.path(), e))?;
    }
    staging.publish()?;
    Ok(false)
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
