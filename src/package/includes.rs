//! A package's included files: `include/<language>/` and `include/default/` (every language's:
//! the 2025-09 format's, read in every format), added to each submission of that language before
//! it is built, as the format says: an included file takes the place of a submission's file of
//! the same name, and one named as the language's default entry file (`__main__.py`, say) is
//! the driver the submission runs from. Two included files of one name, one for every language
//! and one for the submission's, are an error naming both (the format does not say which wins;
//! problemtools refuses them too). What a submission makes of them is
//! `programs::Program::including`'s.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::program_files::{files_in, listing};
use super::yaml::Diagnostic;
use crate::files::beneath::{Kind as Found, Tree, TreePath};

/// The folder's name for the files of every language.
pub const DEFAULT: &str = "default";

/// One included file: its name in the submission (below its language's folder) and the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Included {
    pub name: PathBuf,
    pub file: TreePath,
}

/// The included files of a package, by the folder they are in (a language's code, or
/// [`DEFAULT`]).
#[derive(Debug, Default)]
pub struct Includes(BTreeMap<String, Vec<Included>>);

impl Includes {
    /// The files a submission in `language` (its code) gets: the default ones and its own.
    pub fn for_language(&self, language: &str) -> Vec<Included> {
        let of = |key: &str| self.0.get(key).into_iter().flatten().cloned();
        of(DEFAULT).chain(of(language)).collect()
    }
}

/// Reads `include/` of the package (none when it is missing). A language's file named as a
/// default one is an error naming both.
pub fn read(package: &Tree) -> Result<Includes, Diagnostic> {
    let folder = package.join("include");
    let mut includes = BTreeMap::new();
    for language in listing(&folder)? {
        let Some(Found::Folder(identity)) = language.kind()? else {
            continue;
        };
        // A folder's files, as a program's are found (links within the package, hidden files
        // left out).
        let files = files_in(&language, identity)?
            .into_iter()
            .map(|file| Included {
                name: file
                    .path()
                    .strip_prefix(language.path())
                    .unwrap_or(file.path())
                    .to_path_buf(),
                file,
            })
            .collect();
        let code = language
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        includes.insert(code, files);
    }
    let includes = Includes(includes);
    if let Some(defaults) = includes.0.get(DEFAULT) {
        for (code, files) in includes.0.iter().filter(|(code, _)| *code != DEFAULT) {
            for file in files {
                if let Some(default) = defaults.iter().find(|d| d.name == file.name) {
                    return Err(clash(code, file, &default.file));
                }
            }
        }
    }
    Ok(includes)
}

fn clash(code: &str, file: &Included, default: &TreePath) -> Diagnostic {
    Diagnostic::file(
        file.file.path(),
        format!(
            "has the name of `{}`, which is included for every language: a {code} submission \
             would get both as `{}`; rename or remove one",
            default.path().display(),
            file.name.display()
        ),
    )
}

#[cfg(test)]
#[path = "includes_tests.rs"]
mod tests;
