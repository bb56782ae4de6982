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
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn extensions_decide_and_the_python_shebang_splits_python_2_from_3() {
        let code = |name: &str, line: Option<&str>| of_file(Path::new(name), line).map(|l| l.code);
        assert_eq!(code("a.cpp", None), Some("cpp"));
        assert_eq!(code("a.C", None), Some("cpp"));
        assert_eq!(code("a.c", None), Some("c"));
        assert_eq!(code("a.py", None), Some("python3"));
        assert_eq!(
            code("a.py", Some("#!/usr/bin/env python2")),
            Some("python2")
        );
        assert_eq!(code("a.py", Some("#!/usr/bin/python3")), Some("python3"));
        assert_eq!(code("a.py2", None), Some("python2"));
        assert_eq!(code("A.java", None), Some("java"));
        assert_eq!(code("a.kt", None), Some("kotlin"));
        assert_eq!(code("a.rs", None), Some("rust"));
        assert_eq!(code("a.txt", None), None);
        assert_eq!(code("Makefile", None), None);
        assert_eq!(by_code("cpp").unwrap().name, "C++");
    }

    #[test]
    fn a_program_has_one_language_headers_aside() {
        let dir = tempfile::tempdir().unwrap();
        let tree =
            crate::files::beneath::Tree::open(dir.path(), crate::files::beneath::Scope::Package)
                .unwrap();
        let files = |names: &[&str]| names.iter().map(|n| tree.join(n)).collect::<Vec<_>>();
        assert_eq!(
            of_files(&files(&["a.cpp", "b.cpp", "a.h"])).unwrap().code,
            "cpp"
        );
        assert!(of_files(&files(&["a.cpp", "b.py"]))
            .unwrap_err()
            .to_string()
            .contains("several languages (C++, Python 3)"));
        assert_eq!(
            of_files(&files(&["notes.txt"])).unwrap_err(),
            LanguageError::NoSource
        );
        assert_eq!(
            of_files(&files(&["x.zig"])).unwrap_err(),
            LanguageError::NoKnownSource
        );
    }

    /// An executable file at `path` (folders made).
    fn executable(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Places below `home` with `path` as the user's PATH and nothing set by variables.
    fn places(home: &Path, path: &[&Path]) -> Places {
        Places {
            path: std::env::join_paths(path).unwrap(),
            cargo_bin: Some(home.join(".cargo/bin")),
            rustup_home: Some(home.join(".rustup")),
            rustup_toolchain: None,
            pyenv_root: Some(home.join(".pyenv")),
            pyenv_version: None,
            cwd: Some(home.join("work")),
            sdkman_candidates: Some(home.join(".sdkman/candidates")),
            local_bin: Some(home.join(".local/bin")),
        }
    }

    #[test]
    fn system_tools_keep_their_names_and_paths_are_taken_as_given() {
        let home = tempfile::tempdir().unwrap();
        let system = places(home.path(), &[Path::new("/usr/bin"), Path::new("/bin")]);
        let sh = locate_in("sh", &system).unwrap();
        assert_eq!((sh.command.as_str(), sh.show.len()), ("sh", 0));
        assert_eq!(locate_in("/bin/sh", &system).unwrap().command, "/bin/sh");
        assert!(locate_in("/nonexistent/sh", &system).is_err());
        let missing = locate_in("surely-no-such-tool", &system).unwrap_err();
        let home = home.path().display();
        assert_eq!(
            missing,
            format!(
                "surely-no-such-tool not found on PATH (/usr/bin:/bin) or in {home}/.cargo/bin, \
                 {home}/.pyenv/shims, {home}/.sdkman/candidates/*/current/bin, {home}/.local/bin"
            )
        );
        // The user's PATH decides what is there: a system tool it leaves out is not found.
        assert!(locate_in("sh", &places(Path::new("/nowhere"), &[])).is_err());
    }

    #[test]
    fn a_rustup_proxy_runs_the_toolchains_own_program_shown_to_the_box() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        executable(&h.join(".cargo/bin/rustup"));
        std::os::unix::fs::symlink("rustup", h.join(".cargo/bin/rustc")).unwrap();
        std::fs::create_dir_all(h.join(".rustup")).unwrap();
        std::fs::write(
            h.join(".rustup/settings.toml"),
            "version = \"12\"\ndefault_toolchain = \"stable\"\n",
        )
        .unwrap();
        let toolchain = h.join(".rustup/toolchains/stable-x86_64-unknown-linux-gnu");
        executable(&toolchain.join("bin/rustc"));
        // Not on PATH: found where rustup puts it all the same.
        let mut places = places(h, &[Path::new("/usr/bin")]);
        let rustc = locate_in("rustc", &places).unwrap();
        assert_eq!(
            rustc.command,
            toolchain.join("bin/rustc").display().to_string()
        );
        assert_eq!(rustc.show, [toolchain]);
        places.rustup_toolchain = Some("nightly".into());
        assert!(locate_in("rustc", &places).is_err(), "no nightly installed");
    }

    #[test]
    fn a_pyenv_shim_runs_the_selected_versions_python_or_passes_on() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let shims = h.join(".pyenv/shims");
        executable(&shims.join("python3"));
        executable(&shims.join("python2"));
        executable(&h.join(".pyenv/versions/3.12.1/bin/python3"));
        executable(&h.join(".pyenv/versions/3.11.7/bin/python3"));
        std::fs::write(h.join(".pyenv/version"), "3.12.1\n").unwrap();
        let system = h.join("system-bin");
        executable(&system.join("python2"));
        let mut places = places(h, &[&shims, &system]);
        let python = locate_in("python3", &places).unwrap();
        assert!(
            python
                .command
                .ends_with(".pyenv/versions/3.12.1/bin/python3"),
            "{python:?}"
        );
        assert_eq!(python.show, [h.join(".pyenv/versions/3.12.1")]);
        // The version lacks python2: the shim would fail, so the next folder's is taken.
        let python2 = locate_in("python2", &places).unwrap();
        assert_eq!(
            python2.command,
            system.join("python2").display().to_string()
        );
        assert_eq!(python2.show, [h.to_path_buf()], "the folder above its bin");
        // A local .python-version beats the global one; PYENV_VERSION beats both.
        std::fs::create_dir_all(h.join("work/deeper")).unwrap();
        std::fs::write(h.join("work/.python-version"), "3.11.7\n").unwrap();
        places.cwd = Some(h.join("work/deeper"));
        assert!(locate_in("python3", &places)
            .unwrap()
            .command
            .contains("3.11.7"));
        places.pyenv_version = Some("3.12.1:3.11.7".into());
        assert!(locate_in("python3", &places)
            .unwrap()
            .command
            .contains("3.12.1"));
        places.pyenv_version = Some("system".into());
        assert!(
            locate_in("python3", &places).is_err(),
            "no system python3 here"
        );
    }

    #[test]
    fn an_sdkman_candidate_is_followed_to_its_version() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let version = h.join(".sdkman/candidates/java/17.0.2-tem");
        executable(&version.join("bin/javac"));
        std::os::unix::fs::symlink(&version, h.join(".sdkman/candidates/java/current")).unwrap();
        let javac = locate_in("javac", &places(h, &[])).unwrap();
        assert_eq!(
            javac.command,
            version.join("bin/javac").display().to_string()
        );
        assert_eq!(javac.show, [version]);
    }

    #[test]
    fn templates_expand_files_as_separate_arguments() {
        let files = [PathBuf::from("/p/a.cpp"), PathBuf::from("/p/b.cpp")];
        let vars = Vars {
            exe: Path::new("/b/main"),
            build: Path::new("/b"),
            files: &files,
            main: Some(Path::new("/p/a.cpp")),
            class: Some("Main"),
        };
        let cpp = by_code("cpp").unwrap();
        assert_eq!(
            expand(cpp.compile.unwrap(), &vars),
            [
                "g++",
                "-x",
                "c++",
                "-O2",
                "-std=gnu++20",
                "-o",
                "/b/main",
                "/p/a.cpp",
                "/p/b.cpp"
            ]
        );
        assert_eq!(
            expand(by_code("java").unwrap().run, &vars),
            [
                "java",
                "-XX:+UseSerialGC",
                "-Xss64m",
                "-Xmx{memory}m",
                "-cp",
                "/b",
                "Main"
            ]
        );
        assert_eq!(
            expand(by_code("python3").unwrap().run, &vars),
            ["python3", "/p/a.cpp"]
        );
    }
}
