//! Programs of a package as data: what a validator or submission is made of, how to build and run
//! it, and the content hash that keys its build cache (`<cache>/<key>/`; the runner chooses the
//! cache folder).
//!
//! A program is one file or one folder; its name is the file's or folder's name. A folder with a
//! `build` or `run` script is built and run by them; otherwise its sources must be of one language
//! (see [`super::languages`]). A checktestdata script (a `.ctd` file, or a folder holding one)
//! is run by grundy itself ([`crate::checktestdata`]), never built; VIVA (`.viva`) validators are
//! recognised and reported as unsupported. Hidden files, `*.disabled`, `*.template` and READMEs are not
//! programs, nor parts of one.
//!
//! What a program's files make of it (its kind, language and entry point) is in [`kind`].

mod kind;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::constants::Constants;
use super::includes::{Included, Includes};
use super::languages::{self, Entry, Language, Vars};
use super::program_files::files_in;
pub use super::program_files::{listing, SUPPLIED_HEADER};
use super::toolchains::{self, NotFound};
use super::yaml::Diagnostic;
use crate::files::beneath::{Kind as Found, TreePath};
pub use kind::Unbuildable;

/// How a program is made and started.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A folder with `build` and/or `run` scripts.
    Scripts,
    /// Sources of one language; `entry` is the entry file or class when the language has one.
    Source {
        language: &'static Language,
        entry: Option<String>,
    },
    /// A checktestdata script, interpreted in-process: the `.ctd` file.
    Checktestdata { script: TreePath },
    /// A validator in a language grundy does not run (`viva`).
    Unsupported(&'static str),
    /// Nothing runnable: why.
    Invalid(Unbuildable),
}

/// One program; its files are the package's, opened only through the package's root.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub name: String,
    /// The file or folder.
    pub path: TreePath,
    /// Whether it is a folder.
    pub is_folder: bool,
    /// Every file of it, sorted.
    pub files: Vec<TreePath>,
    pub kind: Kind,
    /// The package's files included with it ([`Program::include`]: a submission's, for its
    /// language), built and run as if they were its own.
    pub included: Vec<Included>,
    /// Its runs start in a copy of its own built folder rather than an empty one, because its
    /// format says so (a 2023-07 or 2025-09 input validator's working directory holds its
    /// files). A submission's always do, whatever its format: the build decides that.
    pub works_in_own_folder: bool,
    /// The package's constants, substituted in its sources (and included files) before it is
    /// built: a 2025-09 submission's or validator's; empty otherwise.
    pub constants: Arc<Constants>,
}

/// What to do to build and run a program, for the runner.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The content hash naming the build folder.
    pub key: String,
    /// `<cache>/<key>/`: where the build happens and its results stay. For scripts
    /// the program's folder is copied here first, and `compile`/`run` run inside it.
    pub dir: PathBuf,
    /// The build's commands, in order: none, one, or (a language that checks each source file
    /// alone, [`languages::EACH`]) one per file.
    pub compile: Vec<Vec<String>>,
    /// The environment the compile step runs with, besides the sandbox's.
    pub compile_env: Vec<(String, String)>,
    /// The sources are what runs (an interpreted language): they are copied into the build
    /// folder, and `compile` only checks them.
    pub runs_sources: bool,
    /// The run command; [`languages::HEAP`] in it stands for a JVM's heap under the run's memory
    /// limit, [`languages::CLASS`] for an entry class the build finds.
    pub run: Vec<String>,
    /// Its runtime reserves far more address space than it uses (the JVM).
    pub reserves_address_space: bool,
    /// What the run command needs in the build folder once the build is done.
    pub needs: Vec<Needed>,
    /// A JVM program whose entry class is not given: `{class}` stays in the run command until
    /// the build says which of its classes holds `main`; these names win where several do.
    pub main_class: Option<Vec<String>>,
}

/// A file a run command needs in the build folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Needed {
    /// Relative to the build folder.
    pub path: PathBuf,
    /// Started itself (a compiled program, a `run` script), so it must be executable.
    pub executable: bool,
    /// What it is, for the message when it is missing: `the compiled program`.
    pub what: &'static str,
}

/// Changed whenever what a build folder holds or how it is made changes, so older builds are
/// not taken for new.
const BUILD_LAYOUT: &[u8] = b"layout 3: raw names, tool identities, a manifest";

/// The shell a `build` script is started through.
pub const SCRIPTS_SHELL: &str = "/bin/sh";

/// Why a program will not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    Unsupported(&'static str),
    NoCompiler {
        language: &'static str,
        /// Which tool is missing, and where.
        why: NotFound,
    },
    Invalid(Unbuildable),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Unsupported(what) => write!(f, "skipped: unsupported ({what})"),
            Skip::NoCompiler { language, why } => {
                write!(f, "skipped: no compiler for {language} ({why})")
            }
            Skip::Invalid(why) => write!(f, "skipped: {why}"),
        }
    }
}

impl Program {
    /// The program at `path`. `language` and `entry` override detection (from `submissions.yaml`).
    /// A link leading out of the package, on the way to it or in it, is an error.
    pub fn new(
        path: &TreePath,
        language: Option<&str>,
        entry: Option<&str>,
    ) -> Result<Program, Diagnostic> {
        Program::including(path, language, entry, &Includes::default())
    }

    /// [`Program::new`], given the files `includes` has for its language (a submission's,
    /// before it is built): each takes the place of a file of its own of the same name, and one
    /// named as the language's default entry file (`__main__.py`) is the driver it runs from,
    /// unless `entry` names another.
    pub fn including(
        path: &TreePath,
        language: Option<&str>,
        entry: Option<&str>,
        includes: &Includes,
    ) -> Result<Program, Diagnostic> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (is_folder, files) = match path.kind()? {
            Some(Found::Folder(identity)) => (true, files_in(path, identity)?),
            _ => (false, vec![path.clone()]),
        };
        // The kind is decided from the rest of the program, its files first.
        let mut program = Program {
            name,
            path: path.clone(),
            is_folder,
            files,
            kind: Kind::Scripts,
            included: vec![],
            works_in_own_folder: false,
            constants: Arc::default(),
        };
        program.decide_kind(language, entry, includes);
        Ok(program)
    }

    /// The build-cache key: a SHA-256 over everything a build depends on, each part
    /// length-prefixed so no two lists of parts hash alike: the build layout
    /// ([`BUILD_LAYOUT`]); the language's code, compile and run templates and the entry (for a
    /// `build`/`run` folder, the word `scripts`); the identity of each tool the language needs
    /// ([`toolchains::tool_identity`]: the compiler that would run, not only its name; for scripts
    /// the shell that starts `build`); and every file's name as raw bytes relative to the
    /// program (two names that differ only in bytes that are not UTF-8 are two keys), whether it
    /// is executable (a copy in the build keeps that) and its bytes. Equal keys mean an equal
    /// build.
    pub fn cache_key(&self) -> String {
        use std::os::unix::ffi::OsStrExt;
        let mut hash = Sha256::new();
        let mut field = |bytes: &[u8]| {
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        };
        // How a build folder is laid out (the launcher of scripts, say): a new layout is a new
        // build.
        field(BUILD_LAYOUT);
        match &self.kind {
            Kind::Scripts => {
                field(b"scripts");
                field(&toolchains::tool_identity(SCRIPTS_SHELL));
            }
            Kind::Source { language, entry } => {
                for part in [
                    language.code,
                    language.compile.unwrap_or(""),
                    language.run,
                    entry.as_deref().unwrap_or(""),
                ] {
                    field(part.as_bytes());
                }
                for (name, value) in language.compile_env {
                    field(name.as_bytes());
                    field(value.as_bytes());
                }
                for tool in language.tools {
                    field(&toolchains::tool_identity(tool));
                }
            }
            Kind::Checktestdata { .. } => field(b"checktestdata"),
            Kind::Unsupported(what) => field(what.as_bytes()),
            Kind::Invalid(why) => field(why.to_string().as_bytes()),
        }
        let named = self.files.iter().map(|f| (self.relative(f), f));
        let included = self.included.iter().map(|i| (i.name.as_path(), &i.file));
        for (name, file) in named.chain(included) {
            field(name.as_os_str().as_bytes());
            // Its execute bit (a copy in the build keeps it) and bytes, through one open; an
            // unreadable file keys as empty, and building it then fails with the reason.
            let (executable, bytes) = file.open().map_or((false, Vec::new()), |mut opened| {
                use std::io::Read;
                use std::os::unix::fs::PermissionsExt;
                let executable = opened
                    .metadata()
                    .is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
                let mut bytes = Vec::new();
                let read = opened.read_to_end(&mut bytes);
                (executable, if read.is_ok() { bytes } else { Vec::new() })
            });
            field(&[u8::from(executable)]);
            field(&bytes);
        }
        // The constants substituted in its sources are part of what is built.
        for (name, variant, text) in self.constants.entries() {
            for part in [
                b"constant".as_slice(),
                name.as_bytes(),
                variant.as_bytes(),
                text.as_bytes(),
            ] {
                field(part);
            }
        }
        let digest = hash.finalize();
        digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
    }

    /// How to build and run it, with builds kept in the folder `cache` (one folder per key).
    /// `missing_tool` is [`toolchains::missing_tool`] outside tests.
    pub fn plan(
        &self,
        cache: &Path,
        missing_tool: impl Fn(&str) -> Option<NotFound>,
    ) -> Result<Plan, Skip> {
        let key = self.cache_key();
        let dir = cache.join(&key);
        match &self.kind {
            // Scripts are interpreted, and only where an input validator is wanted.
            Kind::Checktestdata { .. } => {
                Err(Skip::Unsupported("checktestdata but as an input validator"))
            }
            Kind::Unsupported(what) => Err(Skip::Unsupported(what)),
            Kind::Invalid(why) => Err(Skip::Invalid(why.clone())),
            Kind::Scripts => Ok(Plan {
                key,
                compile: match self.has("build") {
                    true => vec![vec!["./build".to_string()]],
                    false => vec![],
                },
                compile_env: vec![],
                // Without a `build` script, the folder as it is (its `run` script) is the build.
                runs_sources: !self.has("build"),
                run: vec![dir.join("run").display().to_string()],
                dir,
                reserves_address_space: false,
                needs: vec![Needed {
                    path: PathBuf::from("run"),
                    executable: true,
                    what: "the `run` script",
                }],
                main_class: None,
            }),
            Kind::Source { language, entry } => {
                if let Some(why) = language.tools.iter().find_map(|t| missing_tool(t)) {
                    return Err(Skip::NoCompiler {
                        language: language.name,
                        why,
                    });
                }
                let ours = |path: &Path| {
                    languages::of_file(path, None)
                        .is_some_and(|l| l.extensions == language.extensions)
                };
                // An included file is named as it lies among the program's own (see `sources`).
                let sources: Vec<PathBuf> = self
                    .sources()
                    .into_iter()
                    .map(|(path, _)| path)
                    .filter(|path| ours(path))
                    .collect();
                let main = match language.entry {
                    Entry::File(_) => entry.as_ref().map(|e| self.base().join(e)),
                    _ => None,
                };
                let class = match language.entry {
                    Entry::Class(_) => entry.as_deref(),
                    _ => None,
                };
                let exe = dir.join("main");
                let vars = Vars {
                    exe: &exe,
                    build: &dir,
                    files: &sources,
                    main: main.as_deref(),
                    class,
                };
                Ok(Plan {
                    key,
                    compile: language
                        .compile
                        .map(|c| languages::expand_each(c, &vars))
                        .unwrap_or_default(),
                    compile_env: language
                        .compile_env
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                    runs_sources: language.runs_sources(),
                    run: languages::expand(language.run, &vars),
                    needs: needs(language, entry.as_deref()),
                    dir,
                    reserves_address_space: language.reserves_address_space(),
                    main_class: (matches!(language.entry, Entry::Class(_)) && entry.is_none())
                        .then(|| self.preferred_classes(language)),
                })
            }
        }
    }

    /// Every file built and run as its own, with the path a build plan names it by and its
    /// name in the program: its own files, then the files included with it, named as if they
    /// lay in its folder (where they take the place of a file of its own of the same name).
    pub fn sources(&self) -> Vec<(PathBuf, &TreePath)> {
        let own = self.files.iter().map(|f| (f.path().to_path_buf(), f));
        let included = self
            .included
            .iter()
            .map(|i| (self.base().join(&i.name), &i.file));
        own.chain(included).collect()
    }

    /// The folder the program's relative names are taken from.
    pub fn base(&self) -> &Path {
        if self.is_folder {
            self.path.path()
        } else {
            self.path.path().parent().unwrap_or(Path::new(""))
        }
    }

    /// The name of one of its files relative to [`Program::base`]: `main.py`, `lib/util.py`.
    pub fn relative<'a>(&self, file: &'a TreePath) -> &'a Path {
        file.path().strip_prefix(self.base()).unwrap_or(file.path())
    }

    /// Whether a folder program has the script `name` (`build`, `run`).
    fn has(&self, name: &str) -> bool {
        self.is_folder && self.files.iter().any(|f| f == &self.path.join(name))
    }
}

/// What a language's run command needs of a build: the compiled program (`{exe}`), the entry
/// class's file when it is given (`{class}`: `pkg.Main` is `pkg/Main.class`; one found after
/// the build is there), the entry file (`{main}`).
fn needs(language: &Language, entry: Option<&str>) -> Vec<Needed> {
    let entry = entry.unwrap_or_default();
    let mut needs = vec![];
    if language.run.contains("{exe}") {
        needs.push(Needed {
            path: PathBuf::from("main"),
            executable: true,
            what: "the compiled program",
        });
    }
    if language.run.contains("{class}") && !entry.is_empty() {
        needs.push(Needed {
            path: PathBuf::from(format!("{}.class", entry.replace('.', "/"))),
            executable: false,
            what: "the entry class",
        });
    }
    if language.run.contains("{main}") {
        needs.push(Needed {
            path: PathBuf::from(entry),
            executable: false,
            what: "the entry file",
        });
    }
    needs
}

/// The programs in a folder (each file or subfolder one), sorted by name; none if it is missing.
pub fn programs_in(folder: &TreePath) -> Result<Vec<Program>, Diagnostic> {
    listing(folder)?
        .iter()
        .map(|path| Program::new(path, None, None))
        .collect()
}

#[cfg(test)]
#[path = "programs_tests.rs"]
mod tests;
