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
    /// The compiler; for a language whose sources run as they are (an [`Entry::File`]), a
    /// check of their syntax, so a syntax error is a compile error as on the contest systems.
    pub compile: Option<&'static str>,
    /// The environment the compile step runs with, besides the sandbox's.
    pub compile_env: &'static [(&'static str, &'static str)],
    pub run: &'static str,
    /// Programs that must be on the PATH; the first is the one named when missing, and the one
    /// asked its version.
    pub tools: &'static [&'static str],
    /// The arguments that make the first tool say its version.
    pub version: &'static [&'static str],
    pub entry: Entry,
}

/// In a run command: a JVM's heap in MiB, filled in when the program is run (a build is shared
/// by problems of different limits): the memory limit
/// less [`JVM_RESERVE_MIB`] for the JVM itself and its thread stacks, as DOMjudge sizes it, so
/// a program that fills its heap ends with an `OutOfMemoryError` (a run-time error) before the
/// run's memory limit is reached, where the kernel would have to end it.
pub const HEAP: &str = "{heap}";

/// What a JVM needs beside its heap: DOMjudge reserves 64 MiB for the main thread's stack
/// (`-Xss64m`) and 64 MiB for the JVM.
pub const JVM_RESERVE_MIB: u64 = 128;

/// A JVM's heap under a memory limit of `memory_mib` (see [`HEAP`]); at least half the limit,
/// however small it is.
pub fn heap_mib(memory_mib: u64) -> u64 {
    memory_mib
        .saturating_sub(JVM_RESERVE_MIB)
        .max(memory_mib / 2)
}

/// In a run command: the entry class of a JVM program.
pub const CLASS: &str = "{class}";

impl Language {
    /// Its runtime reserves far more address space than it uses (the JVM sizes its heap,
    /// class space and code cache up front), so its memory is better held by a cgroup than by
    /// the address-space limit; its heap is sized from the memory limit ([`HEAP`]).
    pub fn reserves_address_space(&self) -> bool {
        matches!(self.code, "java" | "kotlin")
    }

    /// Its sources are what runs (an interpreted language): they are copied into the build,
    /// and its compile step only checks them.
    pub fn runs_sources(&self) -> bool {
        matches!(self.entry, Entry::File(_)) && !self.run.contains("{exe}")
    }
}

/// Python's compile check writes its bytecode below the compiler's working folder, never
/// beside the sources (which are read-only there).
const PYTHON_CHECK_ENV: &[(&str, &str)] = &[("PYTHONPYCACHEPREFIX", "pycache")];

/// Python 3 as problemtools, DOMjudge and Kattis run it: under PyPy.
pub static PYTHON3_PYPY: Language = Language {
    code: "python3",
    name: "Python 3",
    extensions: &["py", "py3"],
    shebang: Some("python3"),
    compile: Some("pypy3 -m py_compile {files}"),
    compile_env: PYTHON_CHECK_ENV,
    run: "pypy3 {main}",
    tools: &["pypy3"],
    version: &["--version"],
    entry: Entry::File(&["main.py", "__main__.py"]),
};

/// Python 3 under CPython, where PyPy is not installed or `python3 = "cpython"` chooses it.
pub static PYTHON3_CPYTHON: Language = Language {
    code: "python3",
    name: "Python 3",
    extensions: &["py", "py3"],
    shebang: Some("python3"),
    compile: Some("python3 -m py_compile {files}"),
    compile_env: PYTHON_CHECK_ENV,
    run: "python3 {main}",
    tools: &["python3"],
    version: &["--version"],
    entry: Entry::File(&["main.py", "__main__.py"]),
};

/// Every language but Python 3, whose row is [`python3`]'s choice.
static LANGUAGES: &[Language] = &[
    Language {
        code: "c",
        name: "C",
        extensions: &["c"],
        shebang: None,
        compile: Some("gcc -x c -O2 -std=gnu17 -o {exe} {files} -lm"),
        compile_env: &[],
        run: "{exe}",
        tools: &["gcc"],
        version: &["--version"],
        entry: Entry::Binary,
    },
    Language {
        code: "cpp",
        name: "C++",
        extensions: &["cc", "cpp", "cxx", "c++", "C"],
        shebang: None,
        compile: Some("g++ -x c++ -O2 -std=gnu++20 -o {exe} {files}"),
        compile_env: &[],
        run: "{exe}",
        tools: &["g++"],
        version: &["--version"],
        entry: Entry::Binary,
    },
    Language {
        code: "python2",
        name: "Python 2",
        extensions: &["py2"],
        shebang: Some("python2"),
        compile: Some("python2 -m py_compile {files}"),
        // Python 2 has no prefix for its bytecode: it writes none where it may not.
        compile_env: &[],
        run: "python2 {main}",
        tools: &["python2"],
        version: &["--version"],
        entry: Entry::File(&["main.py2", "main.py"]),
    },
    Language {
        code: "java",
        name: "Java",
        extensions: &["java"],
        shebang: None,
        compile: Some("javac -encoding UTF-8 -d {build} {files}"),
        compile_env: &[],
        run: "java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -Xss64m -Xms{heap}m -Xmx{heap}m \
              -cp {build} {class}",
        tools: &["javac", "java"],
        version: &["-version"],
        entry: Entry::Class("Main"),
    },
    Language {
        code: "kotlin",
        name: "Kotlin",
        extensions: &["kt"],
        shebang: None,
        compile: Some("kotlinc -d {build} {files}"),
        compile_env: &[],
        run: "kotlin -Dfile.encoding=UTF-8 -J-XX:+UseSerialGC -J-Xss64m -J-Xms{heap}m \
              -J-Xmx{heap}m -cp {build} {class}",
        tools: &["kotlinc", "kotlin"],
        version: &["-version"],
        entry: Entry::Class("MainKt"),
    },
    Language {
        code: "csharp",
        name: "C#",
        extensions: &["cs"],
        shebang: None,
        compile: Some("mcs -out:{exe}.exe -optimize+ -r:System.Numerics {files}"),
        compile_env: &[],
        run: "mono {exe}.exe",
        tools: &["mcs", "mono"],
        version: &["--version"],
        entry: Entry::Binary,
    },
    Language {
        code: "rust",
        name: "Rust",
        extensions: &["rs"],
        shebang: None,
        compile: Some("rustc -O --edition 2021 -o {exe} {main}"),
        compile_env: &[],
        run: "{exe}",
        tools: &["rustc"],
        version: &["--version"],
        entry: Entry::File(&["main.rs"]),
    },
    Language {
        code: "go",
        name: "Go",
        extensions: &["go"],
        shebang: None,
        compile: Some("go build -o {exe} {files}"),
        compile_env: &[],
        run: "{exe}",
        tools: &["go"],
        version: &["version"],
        entry: Entry::Binary,
    },
    Language {
        code: "javascript",
        name: "JavaScript",
        extensions: &["js", "mjs"],
        shebang: None,
        compile: Some("node --check {each}"),
        compile_env: &[],
        run: "node {main}",
        tools: &["node"],
        version: &["--version"],
        entry: Entry::File(&["main.js"]),
    },
    Language {
        code: "ruby",
        name: "Ruby",
        extensions: &["rb"],
        shebang: None,
        compile: Some("ruby -c {each}"),
        compile_env: &[],
        run: "ruby {main}",
        tools: &["ruby"],
        version: &["--version"],
        entry: Entry::File(&["main.rb"]),
    },
    Language {
        code: "bash",
        name: "Bash",
        extensions: &["sh", "bash"],
        shebang: None,
        compile: Some("bash -n {each}"),
        compile_env: &[],
        run: "bash {main}",
        tools: &["bash"],
        version: &["--version"],
        entry: Entry::File(&["main.sh"]),
    },
];

/// Which interpreter runs Python 3 (`--python3`); by default PyPy where `pypy3` is found, else
/// CPython.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Python3 {
    #[value(name = "pypy3")]
    PyPy,
    #[value(name = "cpython")]
    CPython,
}

static PYTHON3: std::sync::OnceLock<Python3> = std::sync::OnceLock::new();

/// Puts `choice` in force for this run (`--python3`); without one, [`python3`] decides when
/// first asked. Called once, before any program is read: a later call changes nothing.
pub fn choose_python3(choice: Option<Python3>) {
    if let Some(choice) = choice {
        let _ = PYTHON3.set(choice);
    }
}

/// The row Python 3 programs are built and run by this run: the one chosen, else PyPy where
/// `pypy3` is found, else CPython.
pub fn python3() -> &'static Language {
    let choice = PYTHON3.get_or_init(|| match super::toolchains::locate("pypy3") {
        Ok(_) => Python3::PyPy,
        Err(_) => Python3::CPython,
    });
    match choice {
        Python3::PyPy => &PYTHON3_PYPY,
        Python3::CPython => &PYTHON3_CPYTHON,
    }
}

/// Every language of the table, as this run builds and runs them (Python 3 by [`python3`]).
pub fn table() -> impl Iterator<Item = &'static Language> {
    LANGUAGES[..2]
        .iter()
        .chain(std::iter::once(python3()))
        .chain(&LANGUAGES[2..])
}

/// Extensions of files that belong to a program without deciding its language (headers).
const NEUTRAL: &[&str] = &["h", "hh", "hpp", "hxx", "txt", "md"];

/// The language of code `code` (`cpp`), as `submissions.yaml` names it.
pub fn by_code(code: &str) -> Option<&'static Language> {
    table().find(|l| l.code == code)
}

/// The language of one file: by extension, and for `.py` by its shebang (`python2` claims it;
/// anything else is Python 3). `first_line` is the file's first line, if read.
pub fn of_file(path: &Path, first_line: Option<&str>) -> Option<&'static Language> {
    let extension = path.extension()?.to_str()?;
    if extension == "py" {
        if let Some(line) = first_line.filter(|l| l.starts_with("#!")) {
            if let Some(language) =
                table().find(|l| l.shebang.is_some_and(|word| line.contains(word)))
            {
                return Some(language);
            }
        }
    }
    table().find(|l| l.extensions.contains(&extension))
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

/// The values a command template is expanded with.
pub struct Vars<'a> {
    pub exe: &'a Path,
    pub build: &'a Path,
    pub files: &'a [PathBuf],
    pub main: Option<&'a Path>,
    pub class: Option<&'a str>,
}

/// In a compile template: the command runs once per source file, this standing for the file,
/// as DOMjudge checks each file of a JavaScript, Ruby or Bash submission (`node --check`,
/// `ruby -c` and `bash -n` check one file, the others being the script's arguments).
pub const EACH: &str = "{each}";

/// A compile template as its commands: one per source file where it holds [`EACH`], else one.
pub fn expand_each(template: &str, vars: &Vars) -> Vec<Vec<String>> {
    if !template.split_whitespace().any(|word| word == EACH) {
        return vec![expand(template, vars)];
    }
    vars.files
        .iter()
        .map(|file| {
            let one = template.replace(EACH, "{main}");
            expand(
                &one,
                &Vars {
                    main: Some(file),
                    ..*vars
                },
            )
        })
        .collect()
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
                .replace("{main}", &vars.main.map(path).unwrap_or_default());
            // A class not given is found once the program is built, and put in then.
            match vars.class {
                Some(class) => vec![word.replace(CLASS, class)],
                None => vec![word],
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "languages_tests.rs"]
mod tests;
