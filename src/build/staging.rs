//! One program's build, made: its files copied into a box, its compiler or `build` script run
//! there contained, what it wrote copied out into the build's staging folder and checked, and
//! the command (the binary, or a `grundy-run` launcher script) that starts the result. Which
//! programs are built, and the cache they are published into, is [`super`]'s.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use grundy_sandbox::{BoxFile, ExportError, Program as Command, SharedFile};

use super::cache::{CacheError, MANIFEST};
use super::error::{BuildError, HostError};
use super::jvm_main;
use super::validation_h::{Include, INCLUDE_DIR};
use crate::contained::Contained;
use crate::files::beneath::OpenError;
use crate::limits::Limits;
use crate::package::constants::{Constants, MAX_SUBSTITUTED};
use crate::package::languages;
use crate::package::programs::{Plan, Program, SCRIPTS_SHELL};
use crate::package::toolchains;
use crate::running::run_of;

/// The name of the launcher script in a build folder.
pub(super) const LAUNCHER: &str = "grundy-run";

/// Where a program's files go in its compiler's working folder, and where the compiler writes.
const SOURCES: &str = "src";
const OUTPUT: &str = "out";

/// Fills `staging` with what the program runs from: its own files (an interpreted language runs
/// them from there), and what its compiler or `build` script made. The compiler runs contained,
/// in an empty folder holding the program's files (under `src/`) and any headers it is given
/// (under `include/`, on its include path), and writes under `out/`, which is copied back into
/// `staging`: it reaches nothing else of the host, and never the folders `hide` (the answers),
/// whatever its toolchain's folder holds.
pub(super) fn stage(
    program: &Program,
    plan: &Plan,
    scripts: bool,
    staging: &Path,
    limits: &Limits,
    include: Option<&Include>,
    hide: &[PathBuf],
) -> Result<(), BuildError> {
    // Each file is opened once, through the package's root, and that open file is what is
    // copied or given to the compiler: the program's own and those included with it, each by
    // the path its build plan names it and its name in the program.
    let base = program.base();
    let files: Vec<(std::fs::File, PathBuf, PathBuf)> = program
        .sources()
        .into_iter()
        .map(|(path, file)| {
            let relative = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
            Ok((file.open()?, path, relative))
        })
        .collect::<Result<_, OpenError>>()?;
    let files = files
        .into_iter()
        .map(|(opened, path, relative)| {
            let opened = substituted(&program.constants, opened, &path)?;
            Ok((opened, path, relative))
        })
        .collect::<Result<Vec<_>, BuildError>>()?;
    if plan.runs_sources {
        for (source, _, relative) in &files {
            copy_source(source, &staging.join(relative))?;
        }
    }
    if plan.compile.is_empty() {
        return Ok(());
    }
    let paths: Vec<(PathBuf, PathBuf)> = files
        .iter()
        .map(|(_, path, relative)| (path.clone(), relative.clone()))
        .collect();
    let mut placed: Vec<BoxFile> = files
        .into_iter()
        .map(|(opened, _, relative)| {
            BoxFile::copy(Path::new(SOURCES).join(relative), SharedFile::new(opened))
        })
        .collect();
    // A check of sources that run as they are writes nothing the build keeps.
    let exports = !plan.runs_sources;
    if exports && !scripts {
        placed.push(BoxFile::writable_dir(OUTPUT));
    }
    if let Some(include) = include.filter(|_| !scripts) {
        placed.extend(
            include.files.iter().map(|(name, bytes)| {
                BoxFile::bytes(Path::new(INCLUDE_DIR).join(name), bytes.clone())
            }),
        );
    }
    // A language that checks each source file has one command a file: the first that fails
    // fails the build.
    let compiler = Compiler {
        plan,
        scripts,
        paths: &paths,
        include: include.is_some(),
        hide,
    };
    for compile in &plan.compile {
        compiler.run(compile, placed.clone(), staging, limits)?;
    }
    Ok(())
}

/// One command of a program's build, with what every command of it is given.
struct Compiler<'a> {
    plan: &'a Plan,
    scripts: bool,
    /// Each source's path as the plan names it, and its path in the program.
    paths: &'a [(PathBuf, PathBuf)],
    /// Headers are given, on the include path.
    include: bool,
    hide: &'a [PathBuf],
}

impl Compiler<'_> {
    /// Each source's path in the box, and outside it.
    fn in_box(&self) -> Vec<(PathBuf, PathBuf)> {
        let inside = |relative: &Path| Path::new(SOURCES).join(relative);
        self.paths
            .iter()
            .map(|(path, relative)| (inside(relative), path.clone()))
            .collect()
    }

    /// Runs `compile` contained with the files `placed`, what it writes copied into `staging`.
    fn run(
        &self,
        compile: &[String],
        placed: Vec<BoxFile>,
        staging: &Path,
        limits: &Limits,
    ) -> Result<(), BuildError> {
        let (plan, scripts, hide) = (self.plan, self.scripts, self.hide);
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
            let in_box = self.in_box();
            compile
                .iter()
                .map(|word| {
                    let word = in_box.iter().fold(word.clone(), |word, (inside, outside)| {
                        let outside = outside.display().to_string();
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
        let exports = !plan.runs_sources;
        if self.include && !scripts {
            argv.splice(1..1, ["-I".to_string(), INCLUDE_DIR.to_string()]);
        }
        // A JVM compiler reserves address space as the JVM does: refused it, it fails and its
        // message would read as running out of memory.
        let compiler = Command {
            show,
            hide: hide.to_vec(),
            reserves_address_space: plan.reserves_address_space,
            ..Command::new(&argv)
        };
        let env: Vec<(OsString, OsString)> = plan
            .compile_env
            .iter()
            .map(|(name, value)| (name.into(), value.into()))
            .collect();
        let export = match exports {
            true => vec![(PathBuf::from(OUTPUT), staging.to_path_buf())],
            false => vec![],
        };
        let outcome = Contained::new(&compiler, limits.program())
            .files(placed)
            .env(&env)
            .export(export)
            .run()
            .map_err(|e| HostError::Sandbox(Arc::new(e)))?;
        let not_copied = outcome.export_failures.first().map(|f| f.why.clone());
        let run = run_of(outcome, limits);
        if let Some(failure) = run.failure {
            let said = String::from_utf8_lossy(&run.stderr);
            let said = if said.trim().is_empty() {
                String::from_utf8_lossy(&run.output).into_owned()
            } else {
                said.into_owned()
            };
            // A build script ran in a copy of the program's own folder: its paths are the
            // user's already.
            let said = match scripts {
                true => said,
                false => super::said::in_users_paths(&said, &self.in_box()),
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
                limits.output_mib
            ))),
        }
    }
}

/// The file `opened` (the program's `path`) with the package's `constants` substituted: itself
/// when none is named in it (or it is too large to hold a substitution), else an unnamed
/// temporary file with its permissions holding the result. A result past
/// [`MAX_SUBSTITUTED`] is a compile error.
fn substituted(
    constants: &Constants,
    opened: std::fs::File,
    path: &Path,
) -> Result<std::fs::File, BuildError> {
    use std::io::{Read, Seek, Write};
    if constants.is_empty() {
        return Ok(opened);
    }
    let host = |e| BuildError::from(CacheError::new("substitute the constants in", path, e));
    let meta = opened.metadata().map_err(host)?;
    if meta.len() > MAX_SUBSTITUTED as u64 {
        return Ok(opened);
    }
    let mut bytes = Vec::new();
    (&opened).read_to_end(&mut bytes).map_err(host)?;
    let Some(out) = constants
        .substitute(&bytes)
        .map_err(|e| BuildError::Failed(format!("{}: {e}", path.display())))?
    else {
        let mut opened = opened;
        opened.rewind().map_err(host)?;
        return Ok(opened);
    };
    let mut copy = tempfile::tempfile().map_err(host)?;
    copy.write_all(&out)
        .and_then(|()| copy.set_permissions(meta.permissions()))
        .and_then(|()| copy.rewind())
        .map_err(host)?;
    Ok(copy)
}

/// Copies one of a program's files, opened as `source`, to `target` in the build, keeping its
/// permissions.
fn copy_source(source: &std::fs::File, target: &Path) -> Result<(), BuildError> {
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder)
            .map_err(|e| CacheError::new("create the folder", folder, e))?;
    }
    let copied = source.metadata().and_then(|meta| {
        let mut copy = std::fs::File::create(target)?;
        std::io::copy(&mut &*source, &mut copy)?;
        copy.set_permissions(meta.permissions())
    });
    copied.map_err(|e| CacheError::new("copy a source file to", target, e).into())
}

/// Whether a build left what its run command needs, each a regular file (executable when it is
/// started itself), and nowhere the name of the cache's manifest; else a compile error saying
/// what is missing.
pub(super) fn check_outputs(plan: &Plan, staging: &Path) -> Result<(), BuildError> {
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
/// from the build folder (or its launcher, for a `run` script), shown the whole build folder;
/// a JVM program's class as its build found it. With `working_copy` (a submission's, and a
/// 2023-07 or 2025-09 input validator's) its runs start in a writable copy of the build folder,
/// fresh for each run, as the contest tools run a submission in its own folder and the 2025-09
/// format puts a submission's files, and an input validator's, in its working directory: a
/// program that reads its own files by relative names finds them (a `run` script's launcher
/// goes to the build folder itself). A folder holding only what the command names is not
/// copied ([`holds_more_than`]).
pub(super) fn launch(
    program: &Program,
    plan: &Plan,
    scripts: bool,
    memory_mib: u64,
    working_copy: bool,
) -> Result<Command, BuildError> {
    let class = match plan.main_class {
        Some(_) => Some(jvm_main::recorded(&plan.dir)?),
        None => None,
    };
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
                    let heap = languages::heap_mib(memory_mib).to_string();
                    let word = word.replace(languages::HEAP, &heap);
                    match &class {
                        Some(class) => word.replace(languages::CLASS, class),
                        None => word,
                    }
                })
                .collect(),
        )
    };
    let copied = working_copy && !scripts && holds_more_than(&plan.dir, &argv)?;
    let mut show = vec![plan.dir.clone()];
    show.extend(tool_folders);
    Ok(Command {
        argv: argv.into_iter().map(Into::into).collect(),
        show,
        hide: vec![],
        reserves_address_space: plan.reserves_address_space,
        workdir_from: copied.then(|| plan.dir.clone()),
        read_only_workdir: false,
    })
}

/// Whether the build folder `dir` holds anything its runs may look for by a relative name: an
/// entry besides the cache's manifest and the files `argv` names (which the run reaches at
/// their own paths, shown read-only). A compiled program's folder holds only its binary, and a
/// one-file script's only the script: copying those into every run's working folder (and
/// removing them after) made a verify of 1,001 cases take a fifth more CPU time, and gave the
/// run nothing it needs.
fn holds_more_than(dir: &Path, argv: &[String]) -> Result<bool, HostError> {
    let unreadable = |error| HostError::Source {
        path: dir.to_path_buf(),
        error: Arc::new(error),
    };
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let named = argv.iter().any(|word| Path::new(word) == path);
        if !named && path.file_name() != Some(MANIFEST.as_ref()) {
            return Ok(true);
        }
    }
    Ok(false)
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
pub(super) fn write_launcher(plan: &Plan, staging: &Path) -> std::io::Result<()> {
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
