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

/// In a run command: the entry class of a JVM program.
pub const CLASS: &str = "{class}";

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
