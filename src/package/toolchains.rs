//! Where the tools a language needs are found: the user's `PATH` first, then the folders the
//! toolchain managers (rustup, pyenv, sdkman, pip) install into, each resolved to the program
//! that really runs so the sandbox can start it without the user's shell; and what identifies
//! a tool's installed version for the build cache. What each language needs is
//! [`super::languages`]' business, not this module's.

use std::path::{Path, PathBuf};

/// Why `tool` cannot be run, or `None` when it can (see [`locate`]).
pub fn missing_tool(tool: &str) -> Option<NotFound> {
    locate(tool).err()
}

/// A tool found nowhere it was looked for, and where that was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotFound {
    /// A path given as the tool, which is no executable file.
    #[error("{0} not found")]
    Path(String),
    /// A name found on neither the user's `PATH` nor in the toolchain managers' folders (in
    /// words: a folder of each installed sdkman candidate is `*/current/bin`).
    #[error(
        "{tool} not found on PATH ({}) or in {}",
        path.to_string_lossy(),
        managed.join(", ")
    )]
    Anywhere {
        tool: String,
        path: std::ffi::OsString,
        managed: Vec<String>,
    },
}

/// A tool found for a program: the word that starts it in the sandbox, and the folders the
/// sandbox must show (read-only) for it to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Its bare name when the sandbox's PATH finds the same tool; else its real path.
    pub command: String,
    /// Its installation, when it lies outside the system folders every box shows.
    pub show: Vec<PathBuf>,
}

/// Finds `tool` where the user has it: a path as given; else the first of the user's `PATH`
/// folders holding it, then the folders rustup, pyenv, sdkman and pip put tools in even when
/// `PATH` leaves them out (a shell without the user's profile). A tool of the system folders
/// sandboxed programs search keeps its bare name. Elsewhere the tool is resolved to the program
/// that really runs, which the sandbox can start without the user's shell: a rustup proxy
/// (`~/.cargo/bin/rustc`) to the toolchain's own (`RUSTUP_TOOLCHAIN`, else `default_toolchain`
/// of rustup's settings), a pyenv shim to the selected version's (`PYENV_VERSION`, else the
/// nearest `.python-version`, else pyenv's global `version`; a version without the tool, or
/// `system`, passes on to the next folder, as the shim would), anything else to where its links
/// lead (sdkman's `current`); its installation (the toolchain, the version, the folder above its
/// `bin`) is shown to the program. The error names the tool and everywhere it was looked for.
pub fn locate(tool: &str) -> Result<Located, NotFound> {
    locate_in(tool, &Places::of_user())
}

/// Where tools are looked for: the user's `PATH` and the toolchain managers' folders.
struct Places {
    path: std::ffi::OsString,
    cargo_bin: Option<PathBuf>,
    rustup_home: Option<PathBuf>,
    rustup_toolchain: Option<String>,
    pyenv_root: Option<PathBuf>,
    pyenv_version: Option<String>,
    /// Where a `.python-version` is looked for, upwards.
    cwd: Option<PathBuf>,
    sdkman_candidates: Option<PathBuf>,
    local_bin: Option<PathBuf>,
}

impl Places {
    fn of_user() -> Places {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let home = var("HOME").map(PathBuf::from);
        let under = |name: &str, default: &str| {
            var(name)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(default)))
        };
        Places {
            path: var("PATH").unwrap_or_default(),
            cargo_bin: under("CARGO_HOME", ".cargo").map(|c| c.join("bin")),
            rustup_home: under("RUSTUP_HOME", ".rustup"),
            rustup_toolchain: var("RUSTUP_TOOLCHAIN").map(|v| v.to_string_lossy().into_owned()),
            pyenv_root: under("PYENV_ROOT", ".pyenv"),
            pyenv_version: var("PYENV_VERSION").map(|v| v.to_string_lossy().into_owned()),
            cwd: std::env::current_dir().ok(),
            sdkman_candidates: under("SDKMAN_DIR", ".sdkman").map(|s| s.join("candidates")),
            local_bin: home.map(|h| h.join(".local/bin")),
        }
    }

    /// The toolchain managers' folders, in the order they are tried after `PATH`.
    fn managed(&self) -> Vec<PathBuf> {
        let mut folders: Vec<PathBuf> = self.cargo_bin.iter().cloned().collect();
        folders.extend(self.pyenv_root.as_ref().map(|p| p.join("shims")));
        if let Some(candidates) = &self.sdkman_candidates {
            let mut current: Vec<PathBuf> = std::fs::read_dir(candidates)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.path().join("current/bin"))
                .collect();
            current.sort();
            folders.extend(current);
        }
        folders.extend(self.local_bin.iter().cloned());
        folders
    }

    /// The managers' folders in words, for the message of a tool found nowhere.
    fn describe_managed(&self) -> Vec<String> {
        let mut words: Vec<String> = [&self.cargo_bin]
            .into_iter()
            .flatten()
            .map(|p| p.display().to_string())
            .collect();
        words.extend(
            self.pyenv_root
                .as_ref()
                .map(|p| p.join("shims").display().to_string()),
        );
        words.extend(
            self.sdkman_candidates
                .as_ref()
                .map(|p| p.join("*/current/bin").display().to_string()),
        );
        words.extend(self.local_bin.as_ref().map(|p| p.display().to_string()));
        words
    }
}

fn locate_in(tool: &str, places: &Places) -> Result<Located, NotFound> {
    if tool.contains('/') {
        return match is_executable(Path::new(tool)) {
            true => Ok(Located {
                command: tool.to_string(),
                show: vec![],
            }),
            false => Err(NotFound::Path(tool.to_string())),
        };
    }
    let folders = std::env::split_paths(&places.path).chain(places.managed());
    for folder in folders {
        let candidate = folder.join(tool);
        if !is_executable(&candidate) {
            continue;
        }
        if is_system_folder(&folder) {
            return Ok(Located {
                command: tool.to_string(),
                show: vec![],
            });
        }
        if let Some(located) = resolve(tool, &candidate, places) {
            return Ok(located);
        }
    }
    Err(NotFound::Anywhere {
        tool: tool.to_string(),
        path: places.path.clone(),
        managed: places.describe_managed(),
    })
}

/// Whether `folder` is one of the folders sandboxed programs search (and every box shows).
fn is_system_folder(folder: &Path) -> bool {
    std::env::split_paths(grundy_sandbox::DEFAULT_PATH).any(|system| system == folder)
}

/// The program that really runs when `candidate` (a tool outside the system folders) is
/// started, and its installation; `None` when it would not run (a shim of a version lacking it).
fn resolve(tool: &str, candidate: &Path, places: &Places) -> Option<Located> {
    let canonical = std::fs::canonicalize(candidate).ok()?;
    let (real, root) = if canonical.file_name().is_some_and(|n| n == "rustup") {
        let toolchain = rustup_toolchain(places)?;
        (toolchain.join("bin").join(tool), toolchain)
    } else if places
        .pyenv_root
        .as_ref()
        .is_some_and(|root| candidate.starts_with(root.join("shims")))
    {
        let version = pyenv_version(places)?;
        (version.join("bin").join(tool), version)
    } else {
        let root = canonical.parent()?.parent()?.to_path_buf();
        (canonical, root)
    };
    if !is_executable(&real) {
        return None;
    }
    let in_system = real.parent().is_some_and(is_system_folder);
    Some(Located {
        command: real.display().to_string(),
        show: if in_system { vec![] } else { vec![root] },
    })
}

/// The folder of the rustup toolchain in force: `RUSTUP_TOOLCHAIN`, else rustup's default; a
/// name without its target (`stable`) is the toolchain folder it begins.
fn rustup_toolchain(places: &Places) -> Option<PathBuf> {
    let home = places.rustup_home.as_ref()?;
    let name = match &places.rustup_toolchain {
        Some(name) => name.clone(),
        None => {
            // rustup's settings are a few lines; a larger file is not rustup's.
            let text = std::fs::read_to_string(home.join("settings.toml")).ok()?;
            let settings: toml::Table = text.parse().ok()?;
            settings.get("default_toolchain")?.as_str()?.to_string()
        }
    };
    let toolchains = home.join("toolchains");
    let exact = toolchains.join(&name);
    if exact.is_dir() {
        return Some(exact);
    }
    let mut matching: Vec<PathBuf> = std::fs::read_dir(&toolchains)
        .ok()?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{name}-"))
        })
        .map(|e| e.path())
        .collect();
    matching.sort();
    matching.into_iter().next()
}

/// The folder of the pyenv version in force, as pyenv chooses it; `None` for `system` (the
/// system's Python, found on the PATH's later folders) or a version that is not installed.
fn pyenv_version(places: &Places) -> Option<PathBuf> {
    let root = places.pyenv_root.as_ref()?;
    let first_word = |text: &str| {
        text.split([':', ' ', '\n', '\t'])
            .find(|w| !w.is_empty())
            .map(str::to_string)
    };
    let local = || {
        places.cwd.as_ref()?.ancestors().find_map(|folder| {
            let text = std::fs::read_to_string(folder.join(".python-version")).ok()?;
            first_word(&text)
        })
    };
    let global = || first_word(&std::fs::read_to_string(root.join("version")).ok()?);
    let version = places
        .pyenv_version
        .as_deref()
        .and_then(first_word)
        .or_else(local)
        .or_else(global)?;
    let folder = root.join("versions").join(&version);
    (version != "system" && folder.is_dir()).then_some(folder)
}

/// What tells one build of `tool` from another, for the build-cache key, without starting it:
/// the path it is found at ([`locate`]: where sandboxed programs look for it, the real program
/// of a toolchain manager's, or its own path when it has a `/`), the file that path leads to with links followed (`g++` → `x86_64-linux-gnu-g++-12`),
/// and that file's device, inode, size and modification time in nanoseconds. A compiler
/// upgraded in place changes its size or time (a package manager writes a new file, so its
/// inode too); another one first on the PATH changes the path. A few `stat`s and `readlink`s per
/// tool, no process. What the tool runs in turn (`cc1plus`, the headers, the libraries) is not looked at: it
/// changes with the tool's own package. Empty when the tool is not found (the program is then
/// skipped, never built).
pub fn tool_identity(tool: &str) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let found = match locate(tool) {
        Ok(located) if located.command.contains('/') => Some(PathBuf::from(located.command)),
        Ok(_) => std::env::split_paths(grundy_sandbox::DEFAULT_PATH)
            .map(|dir| dir.join(tool))
            .find(|path| is_executable(path)),
        Err(_) => None,
    };
    let Some(found) = found else {
        return Vec::new();
    };
    let (Ok(target), Ok(meta)) = (std::fs::canonicalize(&found), std::fs::metadata(&found)) else {
        return Vec::new();
    };
    let mut identity = Vec::new();
    for path in [&found, &target] {
        let bytes = path.as_os_str().as_bytes();
        identity.extend((bytes.len() as u64).to_le_bytes());
        identity.extend(bytes);
    }
    let mtime_ns = i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec());
    for number in [meta.dev(), meta.ino(), meta.size()] {
        identity.extend(number.to_le_bytes());
    }
    identity.extend(mtime_ns.to_le_bytes());
    identity
}

/// Whether `path` is a regular file (links followed) with an execute bit.
pub fn is_executable(path: &Path) -> bool {
    let Ok(metadata) = path.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
    }
}

#[cfg(test)]
#[path = "toolchains_tests.rs"]
mod tests;
