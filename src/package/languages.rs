//! The language table: how a program's language is recognised (file extension, and a shebang
//! where two languages share one), how it is compiled and run, and which tools it needs, so a
//! missing compiler reads "skipped: no compiler for C++ (g++ not found)" instead of failing.
//!
//! Codes and extensions follow the format's languages appendix; the commands are this project's.
//! Templates expand `{exe}` (the built binary), `{build}` (the build folder), `{files}` (every
//! source file of the language, as separate arguments), `{main}` (the entry file) and `{class}`
//! (the entry class of a JVM language).

use std::path::{Path, PathBuf};

use crate::files::beneath::TreePath;

/// How a language names the thing to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A compiled binary; every source file goes to the compiler.
    Binary,
    /// One source file runs, the others are modules; these names are the default entry files.
    File(&'static [&'static str]),
    /// A JVM class; the default class name.
    Class(&'static str),
}

/// One row of the table.
#[derive(Debug, PartialEq, Eq)]
pub struct Language {
    /// The format's code: `cpp`, `python3`.
    pub code: &'static str,
    pub name: &'static str,
    /// Extensions (without the dot) that mark a file as this language.
    pub extensions: &'static [&'static str],
    /// For a shared extension: the word a `#!` first line must contain to claim the file.
    pub shebang: Option<&'static str>,
    pub compile: Option<&'static str>,
    pub run: &'static str,
    /// Programs that must be on the PATH; the first is the one named when missing.
    pub tools: &'static [&'static str],
    pub entry: Entry,
}

/// In a run command: the run's memory limit in MiB, filled in when the program is run (a
/// build is shared by problems of different limits).
pub const MEMORY: &str = "{memory}";

impl Language {
    /// Its runtime reserves far more address space than it uses (the JVM sizes its heap,
    /// class space and code cache up front), so its memory is better held by a cgroup than by
    /// the address-space limit; its heap is set to the memory limit (`-Xmx`).
    pub fn reserves_address_space(&self) -> bool {
        matches!(self.code, "java" | "kotlin")
    }
}

pub static LANGUAGES: &[Language] = &[
    Language {
        code: "c",
        name: "C",
        extensions: &["c"],
        shebang: None,
        compile: Some("gcc -x c -O2 -std=gnu17 -o {exe} {files} -lm"),
        run: "{exe}",
        tools: &["gcc"],
        entry: Entry::Binary,
    },
    Language {
        code: "cpp",
        name: "C++",
        extensions: &["cc", "cpp", "cxx", "c++", "C"],
        shebang: None,
        compile: Some("g++ -x c++ -O2 -std=gnu++20 -o {exe} {files}"),
        run: "{exe}",
        tools: &["g++"],
        entry: Entry::Binary,
    },
    Language {
        code: "python3",
        name: "Python 3",
        extensions: &["py", "py3"],
        shebang: Some("python3"),
        compile: None,
        run: "python3 {main}",
        tools: &["python3"],
        entry: Entry::File(&["main.py", "__main__.py"]),
    },
    Language {
        code: "python2",
        name: "Python 2",
        extensions: &["py2"],
        shebang: Some("python2"),
        compile: None,
        run: "python2 {main}",
        tools: &["python2"],
        entry: Entry::File(&["main.py2", "main.py"]),
    },
    Language {
        code: "java",
        name: "Java",
        extensions: &["java"],
        shebang: None,
        compile: Some("javac -encoding UTF-8 -d {build} {files}"),
        run: "java -XX:+UseSerialGC -Xss64m -Xmx{memory}m -cp {build} {class}",
        tools: &["javac", "java"],
        entry: Entry::Class("Main"),
    },
    Language {
        code: "kotlin",
        name: "Kotlin",
        extensions: &["kt"],
        shebang: None,
        compile: Some("kotlinc -d {build} {files}"),
        run: "kotlin -J-XX:+UseSerialGC -J-Xss64m -J-Xmx{memory}m -cp {build} {class}",
        tools: &["kotlinc", "kotlin"],
        entry: Entry::Class("MainKt"),
    },
    Language {
        code: "rust",
        name: "Rust",
        extensions: &["rs"],
        shebang: None,
        compile: Some("rustc -O --edition 2021 -o {exe} {main}"),
        run: "{exe}",
        tools: &["rustc"],
        entry: Entry::File(&["main.rs"]),
    },
    Language {
        code: "go",
        name: "Go",
        extensions: &["go"],
        shebang: None,
        compile: Some("go build -o {exe} {files}"),
        run: "{exe}",
        tools: &["go"],
        entry: Entry::Binary,
    },
    Language {
        code: "javascript",
        name: "JavaScript",
        extensions: &["js"],
        shebang: None,
        compile: None,
        run: "node {main}",
        tools: &["node"],
        entry: Entry::File(&["main.js"]),
    },
    Language {
        code: "ruby",
        name: "Ruby",
        extensions: &["rb"],
        shebang: None,
        compile: None,
        run: "ruby {main}",
        tools: &["ruby"],
        entry: Entry::File(&["main.rb"]),
    },
    Language {
        code: "bash",
        name: "Bash",
        extensions: &["sh"],
        shebang: None,
        compile: None,
        run: "bash {main}",
        tools: &["bash"],
        entry: Entry::File(&["main.sh"]),
    },
];

/// Extensions of files that belong to a program without deciding its language (headers).
const NEUTRAL: &[&str] = &["h", "hh", "hpp", "hxx", "txt", "md"];

/// The language of code `code` (`cpp`), as `submissions.yaml` names it.
pub fn by_code(code: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.code == code)
}

/// The language of one file: by extension, and for `.py` by its shebang (`python2` claims it;
/// anything else is Python 3). `first_line` is the file's first line, if read.
pub fn of_file(path: &Path, first_line: Option<&str>) -> Option<&'static Language> {
    let extension = path.extension()?.to_str()?;
    if extension == "py" {
        if let Some(line) = first_line.filter(|l| l.starts_with("#!")) {
            if let Some(language) = LANGUAGES
                .iter()
                .find(|l| l.shebang.is_some_and(|word| line.contains(word)))
            {
                return Some(language);
            }
        }
    }
    LANGUAGES.iter().find(|l| l.extensions.contains(&extension))
}

/// The single language of a program's files, or why there is none.
pub fn of_files(files: &[TreePath]) -> Result<&'static Language, LanguageError> {
    let mut found: Vec<&'static Language> = vec![];
    for file in files {
        match of_file(file.path(), first_line(file).as_deref()) {
            Some(language) if !found.contains(&language) => found.push(language),
            _ => {}
        }
    }
    match found[..] {
        [one] => Ok(one),
        [] => {
            let neutral_only = files.iter().all(|f| {
                f.path()
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| NEUTRAL.contains(&e))
            });
            Err(if files.is_empty() || neutral_only {
                LanguageError::NoSource
            } else {
                LanguageError::NoKnownSource
            })
        }
        _ => Err(LanguageError::Several(
            found.iter().map(|l| l.name).collect(),
        )),
    }
}

/// Why a program's files are not of one language.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LanguageError {
    #[error("no source file")]
    NoSource,
    #[error("no source file of a known language")]
    NoKnownSource,
    /// The names of the languages found.
    #[error(
        "sources of several languages ({}); name one with `language` in submissions.yaml",
        .0.join(", ")
    )]
    Several(Vec<&'static str>),
}

/// The first line of a file, if it can be read (a shebang is looked for there only).
fn first_line(file: &TreePath) -> Option<String> {
    let mut line = vec![];
    let mut reader = std::io::BufReader::new(file.open().ok()?);
    std::io::BufRead::read_until(&mut reader, b'\n', &mut line).ok()?;
    Some(String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line)).into_owned())
}

/// Why `tool` cannot be run, or `None` when it can (see [`locate`]).
pub fn missing_tool(tool: &str) -> Option<String> {
    locate(tool).err()
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
pub fn locate(tool: &str) -> Result<Located, String> {
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
    fn describe_managed(&self) -> String {
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
        words.join(", ")
    }
}

fn locate_in(tool: &str, places: &Places) -> Result<Located, String> {
    if tool.contains('/') {
        return match is_executable(Path::new(tool)) {
            true => Ok(Located {
                command: tool.to_string(),
                show: vec![],
            }),
            false => Err(format!("{tool} not found")),
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
    Err(format!(
        "{tool} not found on PATH ({}) or in {}",
        places.path.to_string_lossy(),
        places.describe_managed()
    ))
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

/// The values a command template is expanded with.
pub struct Vars<'a> {
    pub exe: &'a Path,
    pub build: &'a Path,
    pub files: &'a [PathBuf],
    pub main: Option<&'a Path>,
    pub class: Option<&'a str>,
}

/// A template as an argument vector; `{files}` standing alone becomes one argument per file.
pub fn expand(template: &str, vars: &Vars) -> Vec<String> {
    let path = |p: &Path| p.display().to_string();
    template
        .split_whitespace()
        .flat_map(|word| -> Vec<String> {
            if word == "{files}" {
                return vars.files.iter().map(|f| path(f)).collect();
            }
            let word = word
                .replace("{exe}", &path(vars.exe))
                .replace("{build}", &path(vars.build))
                .replace("{main}", &vars.main.map(path).unwrap_or_default())
                .replace("{class}", vars.class.unwrap_or_default());
            vec![word]
        })
        .collect()
}

#[cfg(test)]
#[path = "languages_tests.rs"]
mod tests;
