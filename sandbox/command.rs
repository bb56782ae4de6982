//! Finding the program to run (argv[0] as a path or through PATH) and the errors for a program
//! that cannot be started, written to name the command and say what to do.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::report::Stage;

/// Why a program could not be started. The runner reports it and exits with code 2.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("cannot run `{command}`: {reason}")]
    NotFound { command: String, reason: String },
    #[error("cannot run `{command}`: {reason}")]
    NotExecutable { command: String, reason: String },
    #[error("cannot run `{command}`: {reason}")]
    Other { command: String, reason: String },
    /// The run could not be set up before its program was started.
    #[error("cannot run `{command}`: {reason}")]
    Setup { command: String, reason: SetupError },
}

/// What stops a run being set up, found before anything starts: the caller asked for something
/// the sandbox cannot give, or the host refused what the run needs.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{} must be a relative path inside the working folder", .0.display())]
    Outside(PathBuf),
    #[error("{0:?} contains a NUL byte")]
    Nul(OsString),
    #[error(
        "the command line and environment take {bytes} bytes; the sandbox takes at most {max}"
    )]
    PlanTooLarge { bytes: usize, max: usize },
    #[error("cannot prepare a cgroup: {0}")]
    Cgroup(std::io::Error),
    #[error("{0}")]
    Stdio(std::io::Error),
    /// It would be shown what it must not see.
    #[error(transparent)]
    Hidden(#[from] crate::HiddenError),
    #[error("cannot set up its filesystem view (Landlock): {0}")]
    Landlock(std::io::Error),
}

impl SpawnError {
    pub(crate) fn other(command: &OsStr, reason: impl Into<String>) -> SpawnError {
        SpawnError::Other {
            command: command.to_string_lossy().into_owned(),
            reason: reason.into(),
        }
    }

    pub(crate) fn setup(command: &OsStr, reason: SetupError) -> SpawnError {
        SpawnError::Setup {
            command: command.to_string_lossy().into_owned(),
            reason,
        }
    }

    /// A failure reported by the child after fork, at `stage`, with `errno`.
    pub(crate) fn from_child(command: &OsStr, stage: Stage, errno: i32) -> SpawnError {
        let command_text = command.to_string_lossy().into_owned();
        let os = std::io::Error::from_raw_os_error(errno);
        match (stage, errno) {
            (Stage::Exec, libc::ENOENT) => SpawnError::NotFound {
                command: command_text,
                reason: format!(
                    "{os} (a script whose #! interpreter is missing, or not visible in the \
                     sandbox, fails this way too)"
                ),
            },
            (Stage::Exec, libc::EACCES | libc::ENOEXEC | libc::EISDIR) => {
                SpawnError::NotExecutable {
                    command: command_text,
                    reason: format!("{os} (is it a compiled program or a script with a #! line, with the execute bit set?)"),
                }
            }
            _ => SpawnError::Other {
                command: command_text,
                reason: format!("{} failed: {os}", stage_name(stage)),
            },
        }
    }
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Setup => "preparing the sandbox",
        Stage::Clone => "creating the process",
        Stage::Stdio => "connecting stdin/stdout/stderr",
        Stage::Workdir => "entering the temporary working directory",
        Stage::Cgroup => "joining the cgroup",
        Stage::Limits => "setting resource limits",
        Stage::Identity => "dropping privileges",
        Stage::Filter => "installing the system call filter",
        Stage::Trace => "being traced (the box's filter leaves big allocations to its tracer)",
        Stage::Exec => "exec",
    }
}

/// The absolute path of the file to exec for `argv0`: a name without `/` is looked up in
/// `search` (the PATH the program gets, whose folders the sandbox shows it), anything else is a
/// path relative to the runner's working directory (the program itself runs in a fresh working
/// folder, so relative paths must be resolved here).
pub(crate) fn resolve(argv0: &OsStr, search: &OsStr) -> Result<PathBuf, SpawnError> {
    let command = argv0.to_string_lossy().into_owned();
    if argv0.is_empty() {
        return Err(SpawnError::NotFound {
            command,
            reason: "the command is empty".into(),
        });
    }
    if argv0.as_bytes().contains(&b'/') {
        let path = absolute(Path::new(argv0));
        return check_executable(&path, &command).map(|()| path);
    }
    let mut not_executable = None;
    for dir in std::env::split_paths(search) {
        let candidate = absolute(&dir.join(argv0));
        if !candidate.exists() {
            continue;
        }
        match check_executable(&candidate, &command) {
            Ok(()) => return Ok(candidate),
            Err(e) => not_executable = not_executable.or(Some(e)),
        }
    }
    Err(not_executable.unwrap_or(SpawnError::NotFound {
        command,
        reason: format!(
            "no such program in the sandbox's PATH {} (for a file in this directory write \
             ./NAME; a program installed elsewhere needs its full path)",
            search.to_string_lossy()
        ),
    }))
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    }
}

fn check_executable(path: &Path, command: &str) -> Result<(), SpawnError> {
    let not_executable = |reason: String| SpawnError::NotExecutable {
        command: command.to_string(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SpawnError::NotFound {
            command: command.to_string(),
            reason: format!("{} does not exist", path.display()),
        },
        _ => not_executable(format!("{}: {e}", path.display())),
    })?;
    if meta.is_dir() {
        return Err(not_executable(format!("{} is a directory", path.display())));
    }
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| SpawnError::other(OsStr::new(command), "the path contains a NUL byte"))?;
    // access(X_OK) honours ACLs and, for root, still needs some execute bit on a regular file.
    // SAFETY: c_path is a valid NUL-terminated string.
    let ok = unsafe { libc::access(c_path.as_ptr(), libc::X_OK) } == 0;
    if !ok || meta.permissions().mode() & 0o111 == 0 {
        return Err(not_executable(format!(
            "{} is not executable (chmod +x {0}, or run it through its interpreter, e.g. `python3 {0}`)",
            path.display()
        )));
    }
    Ok(())
}
