//! What a program's files make of it: whether scripts build and run it, or the sources of one
//! language (and which file or class it starts from), or nothing grundy can run, and why. Not
//! how it is built, nor its cache key (the parent module's).

use super::{Kind, Program};
use crate::files::beneath::TreePath;
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
    /// `defaults`: the language's default entry files, as `a or b`.
    #[error("several {language} files and none is {defaults}")]
    NoDefaultEntry {
        language: &'static str,
        defaults: String,
    },
    #[error("cannot tell the {0} entry class; name it with `entrypoint` in submissions.yaml")]
    NoEntryClass(&'static str),
    #[error("several checktestdata scripts")]
    SeveralScripts,
}

impl Program {
    pub(crate) fn kind_of(&self, language: Option<&str>, entry: Option<&str>) -> Kind {
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
        match self.entry_of(language, entry) {
            Ok(entry) => Kind::Source { language, entry },
            Err(why) => Kind::Invalid(why),
        }
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
        let ours: Vec<&TreePath> = files
            .iter()
            .filter(|f| {
                languages::of_file(f.path(), None)
                    .is_some_and(|l| l.extensions == language.extensions)
                    || files.len() == 1
            })
            .collect();
        let contains = |f: &TreePath, needle: &str| {
            f.read()
                .is_ok_and(|bytes| String::from_utf8_lossy(&bytes).contains(needle))
        };
        match language.entry {
            Entry::Binary => Ok(None),
            Entry::File(defaults) => {
                if let Some(given) = given {
                    // Only the program's own files are built and run: an entry file elsewhere
                    // would name a file of the host.
                    let named = self.base().join(given);
                    return if files.iter().any(|f| f.path() == named) {
                        Ok(Some(given.to_string()))
                    } else {
                        Err(Unbuildable::EntryElsewhere(given.to_string()))
                    };
                }
                if let [only] = ours[..] {
                    return Ok(Some(relative(only)));
                }
                defaults
                    .iter()
                    .find(|d| ours.iter().any(|f| relative(f) == **d))
                    .map(|d| Some(d.to_string()))
                    .ok_or_else(|| Unbuildable::NoDefaultEntry {
                        language: language.name,
                        defaults: defaults.join(" or "),
                    })
            }
            Entry::Class(default) => {
                if let Some(given) = given {
                    return Ok(Some(given.to_string()));
                }
                let class = |f: &TreePath| {
                    let stem = f
                        .path()
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if language.code == "kotlin" {
                        let mut chars = stem.chars();
                        chars
                            .next()
                            .map(|c| c.to_uppercase().collect::<String>() + chars.as_str() + "Kt")
                            .unwrap_or_default()
                    } else {
                        stem
                    }
                };
                let main_marker = if language.code == "kotlin" {
                    "fun main"
                } else {
                    "static void main"
                };
                if let Some(named) = ours.iter().find(|f| class(f) == default) {
                    return Ok(Some(class(named)));
                }
                let with_main: Vec<&TreePath> = ours
                    .iter()
                    .copied()
                    .filter(|f| contains(f, main_marker))
                    .collect();
                let chosen = match (&with_main[..], &ours[..]) {
                    ([one], _) | ([], [one]) => Some(class(one)),
                    _ => None,
                };
                chosen
                    .map(Some)
                    .ok_or(Unbuildable::NoEntryClass(language.name))
            }
        }
    }
}
