//! What a program's files make of it: whether scripts build and run it, or the sources of one
//! language (and which file or class it starts from), or nothing grundy can run, and why. Not
//! how it is built, nor its cache key (the parent module's).

use std::path::Path;

use super::{Kind, Program};
use crate::files::beneath::TreePath;
use crate::package::includes::{Included, Includes};
use crate::package::languages::{self, Entry, Language, LanguageError};

/// Why a program's files make nothing grundy can build.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unbuildable {
    /// `language` in submissions.yaml names none grundy knows.
    #[error("unknown language `{0}`")]
    UnknownLanguage(String),
    #[error(transparent)]
    Language(LanguageError),
    /// The `entrypoint` given is not among the program's files.
    #[error("the entry point `{0}` is not a file of this program")]
    EntryElsewhere(String),
    /// `submissions.yaml` named a language none of the program's files is in.
    #[error("no {0} file to start from")]
    NoEntryFile(&'static str),
    #[error("several checktestdata scripts")]
    SeveralScripts,
}

impl Program {
    /// Decides its kind; a program of one language takes in the files `includes` has for it
    /// first ([`Program::include`]), which may hold its entry file.
    pub(crate) fn decide_kind(
        &mut self,
        language: Option<&str>,
        entry: Option<&str>,
        includes: &Includes,
    ) {
        self.kind = self.kind_including(language, entry, includes);
    }

    /// What its own files make of it, nothing included.
    pub(crate) fn kind_of(&mut self, language: Option<&str>, entry: Option<&str>) -> Kind {
        self.kind_including(language, entry, &Includes::default())
    }

    fn kind_including(
        &mut self,
        language: Option<&str>,
        entry: Option<&str>,
        includes: &Includes,
    ) -> Kind {
        let extension = self.path.path().extension().and_then(|e| e.to_str());
        match extension {
            Some("ctd") if !self.is_folder => {
                return Kind::Checktestdata {
                    script: self.path.clone(),
                }
            }
            Some("viva") => return Kind::Unsupported("viva"),
            _ => {}
        }
        if self.has("build") || self.has("run") {
            return Kind::Scripts;
        }
        // A folder holding a checktestdata script (the legacy layout) is that script.
        let is_ctd = |f: &&TreePath| f.path().extension().is_some_and(|e| e == "ctd");
        match self.files.iter().filter(is_ctd).collect::<Vec<_>>()[..] {
            [] => {}
            [script] => {
                return Kind::Checktestdata {
                    script: script.clone(),
                }
            }
            _ => return Kind::Invalid(Unbuildable::SeveralScripts),
        }
        let language = match language {
            Some(code) => match languages::by_code(code) {
                Some(language) => language,
                None => return Kind::Invalid(Unbuildable::UnknownLanguage(code.to_string())),
            },
            None => match languages::of_files(&self.files) {
                Ok(language) => language,
                Err(why) => return Kind::Invalid(Unbuildable::Language(why)),
            },
        };
        self.include(includes.for_language(language.code));
        match self.entry_of(language, entry) {
            Ok(entry) => Kind::Source { language, entry },
            Err(why) => Kind::Invalid(why),
        }
    }

    /// Takes in the files included with it (a submission's, for its language, before it is
    /// built): each takes the place of a file of its own of the same name.
    fn include(&mut self, included: Vec<Included>) {
        let base = self.base().to_path_buf();
        let replaced = |file: &TreePath| {
            let name = file.path().strip_prefix(&base).unwrap_or(file.path());
            included.iter().any(|i| i.name == name)
        };
        self.files.retain(|file| !replaced(file));
        self.included = included;
    }

    /// The entry point: given (a file of the program, or a class), or the language's default,
    /// or the one file that has a `main`.
    fn entry_of(
        &self,
        language: &Language,
        given: Option<&str>,
    ) -> Result<Option<String>, Unbuildable> {
        let files = &self.files;
        let relative = |f: &TreePath| self.relative(f).to_string_lossy().into_owned();
        let ours: Vec<String> = files
            .iter()
            .filter(|f| {
                languages::of_file(f.path(), None)
                    .is_some_and(|l| l.extensions == language.extensions)
                    || files.len() == 1
            })
            .map(relative)
            .collect();
        // What is included with it may hold the entry file: a driver.
        let included = |name: &str| self.included.iter().any(|i| i.name == Path::new(name));
        match language.entry {
            Entry::Binary => Ok(None),
            Entry::File(defaults) => {
                if let Some(given) = given {
                    // Only the program's own files are built and run: an entry file elsewhere
                    // would name a file of the host.
                    let named = self.base().join(given);
                    return if included(given) || files.iter().any(|f| f.path() == named) {
                        Ok(Some(given.to_string()))
                    } else {
                        Err(Unbuildable::EntryElsewhere(given.to_string()))
                    };
                }
                if let Some(driver) = defaults.iter().find(|d| included(d)) {
                    return Ok(Some(driver.to_string()));
                }
                if let [only] = &ours[..] {
                    return Ok(Some(only.clone()));
                }
                // The format's default entry file; else, as problemtools picks (and DOMjudge,
                // which starts the first file), one called `main.*` in any case, else the first
                // by name.
                let main = |name: &&String| {
                    Path::new(name.as_str())
                        .file_stem()
                        .is_some_and(|stem| stem.eq_ignore_ascii_case("main"))
                };
                defaults
                    .iter()
                    .find_map(|d| ours.iter().find(|name| name == d))
                    .or_else(|| ours.iter().find(main))
                    .or_else(|| ours.iter().min())
                    .map(|name| Some(name.clone()))
                    .ok_or(Unbuildable::NoEntryFile(language.name))
            }
            // The class is found among what the compiler wrote (the build's), unless given.
            Entry::Class(_) => Ok(given.map(str::to_string)),
        }
    }
}

impl Program {
    /// The classes that win where several of a JVM build's hold `main`: the language's default
    /// (`Main`), then the one problemtools starts, named after the program's main file (its only
    /// source, else one called `main.*` in any case, else the first by name; for Kotlin with
    /// its first letter capitalised and `Kt` after).
    pub(crate) fn preferred_classes(&self, language: &Language) -> Vec<String> {
        let Entry::Class(default) = language.entry else {
            return vec![];
        };
        let stems: Vec<String> = self
            .files
            .iter()
            .filter(|f| {
                languages::of_file(f.path(), None)
                    .is_some_and(|l| l.extensions == language.extensions)
            })
            .filter_map(|f| f.path().file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        let main = stems
            .iter()
            .find(|s| s.eq_ignore_ascii_case("main"))
            .or_else(|| stems.iter().min());
        let mut preferred = vec![default.to_string()];
        if let Some(stem) = main {
            let class = match language.code {
                "kotlin" => {
                    let mut chars = stem.chars();
                    let first: String = chars
                        .next()
                        .into_iter()
                        .flat_map(char::to_uppercase)
                        .collect();
                    format!("{first}{}Kt", chars.as_str())
                }
                _ => stem.clone(),
            };
            if class != default {
                preferred.push(class);
            }
        }
        preferred
    }
}
