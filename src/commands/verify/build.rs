//! Building every program of the problems (validators and submissions) once, in parallel, into
//! the build cache ([`super::cache`]: one folder per content key, [`Program::cache_key`]), so an
//! unchanged program is never compiled twice, across runs and packages. Compilers and `build`
//! scripts run as contained processes with generous limits, in a box holding copies of the
//! program's files; what they write is copied out into the build's staging folder.
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

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use grundy_sandbox::{
    BoxFile, ExportError, Limits, Program as Command, SharedFile, SpawnError, Spec,
};

use super::cache::{cache_folder, Cache, CacheError, MANIFEST};
use super::model::Problem;
use super::validation_h::{needs_header, Include, INCLUDE_DIR};
use crate::config::Settings;
use crate::files::beneath::{OpenError, TreePath};
use crate::package::languages;
use crate::package::programs::{Kind, Plan, Program, SCRIPTS_SHELL};
use crate::package::toolchains::{self, missing_tool};
use crate::running::pool::Jobs;
use crate::running::{run_of, SolveWatch};

/// The name of the launcher script in a build folder.
const LAUNCHER: &str = "grundy-run";
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
    /// Not built: why (no compiler, an unsupported language, nothing runnable).
    Skipped(String),
    /// The host failed while building it: a judge error, not the program's fault.
    HostError(HostError),
}

/// A failure of the host during a build.
#[derive(Clone, Debug, thiserror::Error)]
pub enum HostError {
    /// The build cache cannot be made, read or written.
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// A file of the program cannot be read.
    #[error("cannot read `{}`: {error}", path.display())]
    Source {
        path: PathBuf,
        error: Arc<std::io::Error>,
    },
    /// The compiler cannot be started: its box cannot be made, or the compiler is gone.
    #[error("the compiler cannot be started: {0}")]
    Sandbox(Arc<SpawnError>),
}

/// Every program's build, by the program's path.
#[derive(Default)]
pub struct Builds(HashMap<TreePath, Build>);

impl Builds {
    /// The build of `program`, if it was one of those built.
    pub fn get(&self, program: &Program) -> Option<&Build> {
        self.0.get(&program.path)
    }

    pub fn of(&self, program: &Program) -> &Build {
        self.0
            .get(&program.path)
            .expect("every program of every problem was built")
    }
}

/// Where and how a problem's programs are built, and the memory its runs get (a JVM's heap is
/// sized by it).
#[derive(Clone)]
struct BuildSettings {
    cache: PathBuf,
    compile: Settings,
    run_memory_mib: u64,
    /// Headers placed on the compiler's include path (a validator's `validation.h`).
    include: Option<Arc<Include>>,
}

impl BuildSettings {
    fn of(problem: &Problem) -> BuildSettings {
        BuildSettings {
            cache: cache_folder(&problem.root),
            compile: compile_limits(problem),
            run_memory_mib: problem.memory_mib,
            include: None,
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

/// The build jobs: one per distinct program (by path), in problem order.
pub struct BuildJobs {
    /// Each program with its problem's build settings.
    programs: Vec<(Program, BuildSettings)>,
}

impl BuildJobs {
    pub fn new<'a>(problems: impl IntoIterator<Item = &'a Problem>) -> BuildJobs {
        let mut seen = std::collections::HashSet::new();
        let mut programs = vec![];
        let include = Arc::new(Include::builtin());
        for problem in problems {
            let settings = BuildSettings::of(problem);
            let validators: Vec<&TreePath> = problem.validators().map(|v| &v.path).collect();
            for program in problem.programs() {
                if seen.insert(program.path.clone()) {
                    let settings = if validators.contains(&&program.path) && needs_header(program) {
                        settings.with_include(&include)
                    } else {
                        settings.clone()
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
            .filter(|p| seen.insert(p.path.clone()))
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
                let build = build
                    .unwrap_or_else(|| Build::Skipped("skipped: the run was cut short".into()));
                (program.path.clone(), build)
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
/// its runs sized for `run_memory_mib` (a JVM's heap).
pub fn build_program(program: &Program, cache: &Path, run_memory_mib: u64) -> Build {
    let settings = BuildSettings {
        cache: cache.to_path_buf(),
        compile: Settings {
            time_limit: COMPILE_TIME,
            memory_limit_mb: COMPILE_MEMORY_MIB,
            output_limit_mb: COMPILE_OUTPUT_MIB,
            ..Settings::default()
        },
        run_memory_mib,
        include: None,
    };
    build(program, &settings)
}

/// The limits a problem's compilers run under.
fn compile_limits(problem: &Problem) -> Settings {
    Settings {
        time_limit: problem
            .limits
            .compilation_time_s
            .map_or(COMPILE_TIME, Duration::from_secs),
        memory_limit_mb: problem
            .limits
            .compilation_memory_mib
            .unwrap_or(COMPILE_MEMORY_MIB),
        // What a compiler may write: its messages, and files of 4 times this (a program with a
        // large initialised array has an object file that size); what is copied back is capped
        // at this.
        output_limit_mb: COMPILE_OUTPUT_MIB,
        ..Settings::default()
    }
}

/// Builds `program` in its problem's cache (or finds it there).
fn build(program: &Program, settings: &BuildSettings) -> Build {
    let plan = match program.plan(&settings.cache, missing_tool) {
        Ok(plan) => plan,
        Err(skip) => return Build::Skipped(skip.to_string()),
    };
    let scripts = program.kind == Kind::Scripts;
    match build_cached(program, &plan, scripts, settings) {
        Ok(cached) => Build::Ready {
            command: launch(program, &plan, scripts, settings.run_memory_mib),
            cached,
        },
        Err(BuildError::Failed(message)) => Build::Failed(message),
        Err(BuildError::Host(error)) => Build::HostError(error),
    }
}

/// Why a build failed: the program's fault (a compile error), or the host's.
enum BuildError {
    Failed(String),
    Host(HostError),
}

impl<E: Into<HostError>> From<E> for BuildError {
    fn from(error: E) -> Self {
        BuildError::Host(error.into())
    }
}

impl From<OpenError> for HostError {
    fn from(error: OpenError) -> Self {
        HostError::Source {
            path: error.file().to_path_buf(),
            error: Arc::new(std::io::Error::other(error.reason())),
        }
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
    )?;
    check_outputs(plan, staging.path())?;
    if scripts {
        write_launcher(plan, staging.path())
            .map_err(|e| CacheError::new("write the launcher in", staging.path(), e))?;
    }
    staging.publish()?;
    Ok(false)
}

/// Where a program's files go in its compiler's working folder, and where the compiler writes.
const SOURCES: &str = "src";
const OUTPUT: &str = "out";

/// Fills `staging` with what the program runs from: its own files (an interpreted language runs
/// them from there), and what its compiler or `build` script made. The compiler runs contained,
/// in an empty folder holding the program's files (under `src/`) and any headers it is given
/// (under `include/`, on its include path), and writes under `out/`, which is copied back into
/// `staging`: it reaches nothing else of the host.
fn stage(
    program: &Program,
    plan: &Plan,
    scripts: bool,
    staging: &Path,
    limits: &Settings,
    include: Option<&Include>,
) -> Result<(), BuildError> {
    // Each file is opened once, through the package's root, and that open file is what is
    // copied or given to the compiler.
    let files: Vec<(std::fs::File, &TreePath, &Path)> = program
        .files
        .iter()
        .map(|file| Ok((file.open()?, file, program.relative(file))))
        .collect::<Result<_, OpenError>>()?;
    let Some(compile) = &plan.compile else {
        for (mut source, _, relative) in files {
            let target = staging.join(relative);
            if let Some(folder) = target.parent() {
                std::fs::create_dir_all(folder)
                    .map_err(|e| CacheError::new("create the folder", folder, e))?;
            }
            let copied = source.metadata().and_then(|meta| {
                let mut copy = std::fs::File::create(&target)?;
                std::io::copy(&mut source, &mut copy)?;
                copy.set_permissions(meta.permissions())
            });
            copied.map_err(|e| CacheError::new("copy a source file to", &target, e))?;
        }
        return Ok(());
    };
    let argv: Vec<String> = if scripts {
        // A build script runs in (a writable copy of) its own folder.
        [
            SCRIPTS_SHELL,
            "-c",
            "cp -R src/. out && chmod -R u+w out && cd out && exec ./build",
        ]
        .map(String::from)
        .to_vec()
    } else {
        let dir = plan.dir.display().to_string();
        compile
            .iter()
            .map(|word| {
                let word = files
                    .iter()
                    .fold(word.clone(), |word, (_, file, relative)| {
                        let inside = Path::new(SOURCES).join(relative);
                        let outside = file.path().display().to_string();
                        word.replace(&outside, &inside.display().to_string())
                    });
                word.replace(&dir, OUTPUT)
            })
            .collect()
    };
    // A compiler of the user's toolchains (rustup's, pyenv's) starts by its real path, its
    // installation shown to the box.
    let (mut argv, show) = if scripts {
        (argv, vec![])
    } else {
        with_tool(argv)
    };
    let mut placed: Vec<BoxFile> = files
        .into_iter()
        .map(|(opened, _, relative)| {
            BoxFile::copy(Path::new(SOURCES).join(relative), SharedFile::new(opened))
        })
        .collect();
    if !scripts {
        placed.push(BoxFile::writable_dir(OUTPUT));
    }
    if let Some(include) = include.filter(|_| !scripts) {
        argv.splice(1..1, ["-I".to_string(), INCLUDE_DIR.to_string()]);
        placed.extend(
            include.files.iter().map(|(name, bytes)| {
                BoxFile::bytes(Path::new(INCLUDE_DIR).join(name), bytes.clone())
            }),
        );
    }
    let limits_bytes = Limits {
        time: limits.time_limit,
        wall: Limits::wall_for(limits.time_limit),
        memory_bytes: limits.memory_limit_mb << 20,
        output_bytes: limits.output_limit_mb << 20,
    };
    let compiler = Command {
        show,
        ..Command::new(&argv)
    };
    let spec = Spec {
        files: placed,
        export: vec![(PathBuf::from(OUTPUT), staging.to_path_buf())],
        ..Spec::new(&compiler, &limits_bytes)
    };
    let outcome = grundy_sandbox::run(spec).map_err(|e| HostError::Sandbox(Arc::new(e)))?;
    let not_copied = outcome.export_failures.first().map(|f| f.why.clone());
    let run = run_of(outcome, limits);
    if let Some(failure) = run.failure {
        let said = String::from_utf8_lossy(&run.stderr);
        let said = if said.trim().is_empty() {
            String::from_utf8_lossy(&run.output).into_owned()
        } else {
            said.into_owned()
        };
        return Err(BuildError::Failed(format!(
            "the compiler {failure}: {}",
            said.trim()
        )));
    }
    match not_copied {
        None => Ok(()),
        // The host could not take the build (a full disk, say): not the program's fault.
        Some(ExportError::Host {
            path,
            kind,
            message,
        }) => Err(CacheError::new(
            "copy the build's output into",
            &path,
            std::io::Error::new(kind, message),
        )
        .into()),
        Some(ExportError::Missing) => Err(BuildError::Failed(
            "the build made nothing to run (no `out` folder was left)".into(),
        )),
        Some(ExportError::TooBig) => Err(BuildError::Failed(format!(
            "the build's output is larger than may be copied out ({} MiB, 64 folder levels or \
             100,000 files and folders)",
            limits.output_limit_mb
        ))),
    }
}

/// Whether a build left what its run command needs, each a regular file (executable when it is
/// started itself), and nowhere the name of the cache's manifest; else a compile error saying
/// what is missing.
fn check_outputs(plan: &Plan, staging: &Path) -> Result<(), BuildError> {
    use std::os::unix::fs::PermissionsExt;
    for needed in &plan.needs {
        let path = staging.join(&needed.path);
        let wrong = match path.symlink_metadata() {
            Err(_) => "is missing",
            Ok(meta) if !meta.is_file() => "is not a regular file",
            Ok(meta) if needed.executable && meta.permissions().mode() & 0o111 == 0 => {
                "is not executable"
            }
            Ok(_) => continue,
        };
        return Err(BuildError::Failed(format!(
            "the build exited 0, but {} `{}` {wrong}",
            needed.what,
            needed.path.display()
        )));
    }
    if staging.join(MANIFEST).symlink_metadata().is_ok() {
        return Err(BuildError::Failed(format!(
            "the build made `{MANIFEST}`, a name grundy keeps for its build cache"
        )));
    }
    Ok(())
}

/// The command that starts a built program: its run command with the program's files taken
/// from the build folder (or its launcher, for a `run` script), shown the whole build folder.
fn launch(program: &Program, plan: &Plan, scripts: bool, memory_mib: u64) -> Command {
    let (argv, tool_folders) = if scripts {
        (vec![plan.dir.join(LAUNCHER).display().to_string()], vec![])
    } else {
        let base = program.base().display().to_string();
        let dir = plan.dir.display().to_string();
        with_tool(
            plan.run
                .iter()
                .map(|word| {
                    // A word naming the build already stays (the cache may lie inside the
                    // program's folder, for a source given on the command line).
                    let word = match word.starts_with(&dir) {
                        true => word.clone(),
                        false => word.replace(&base, &dir),
                    };
                    word.replace(languages::MEMORY, &memory_mib.to_string())
                })
                .collect(),
        )
    };
    let mut show = vec![plan.dir.clone()];
    show.extend(tool_folders);
    Command {
        argv: argv.into_iter().map(Into::into).collect(),
        show,
        reserves_address_space: plan.reserves_address_space,
    }
}

/// `argv` with its first word, a tool, as [`toolchains::locate`] finds it (the same word for a
/// system tool, the real path of a toolchain manager's), and the folders that tool needs shown.
/// A tool not found stays as it is: the plan was made only once every tool was found.
fn with_tool(mut argv: Vec<String>) -> (Vec<String>, Vec<PathBuf>) {
    let Some(first) = argv.first_mut() else {
        return (argv, vec![]);
    };
    match toolchains::locate(first) {
        Ok(located) => {
            *first = located.command;
            (argv, located.show)
        }
        Err(_) => (argv, vec![]),
    }
}

/// `grundy-run`: `exec`s the `run` script with the arguments it was given, from the build folder
/// (a `run` script finds its files beside it); arguments naming files of the folder it was
/// started in (a checker's `input`, `feedback/`) are made absolute first, so they still name them.
fn write_launcher(plan: &Plan, staging: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let quote = |word: &str| format!("'{}'", word.replace('\'', r"'\''"));
    let text = format!(
        "#!/bin/sh\n\
         for arg do\n\
         \x20   shift\n\
         \x20   case $arg in /*) ;; *) [ -e \"$arg\" ] && arg=\"$PWD/$arg\" ;; esac\n\
         \x20   set -- \"$@\" \"$arg\"\n\
         done\n\
         cd {} || exit 1\n\
         exec ./run \"$@\"\n",
        quote(&plan.dir.display().to_string())
    );
    let path = staging.join(LAUNCHER);
    std::fs::write(&path, text)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
