//! `grundy export`'s archives: a package's files, read beneath its folder ([`walk`]), chosen as
//! the system it goes to imports them ([`Target`]: DOMjudge's problem zip, [`domjudge`], or the
//! Kattis package as it is), and written as a zip that depends on nothing but those files
//! ([`archive`]): the same package always makes the same bytes. Whether the package verified,
//! and where the zip goes, is the command's ([`crate::commands`]); this module reads the package
//! and writes the zip into the writer it is given, nothing else.

mod archive;
pub mod domjudge;
mod walk;

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::files::beneath::{OpenError, Scope, Tree};
use crate::package::yaml::Diagnostic;

pub use walk::Entry;

/// The system a package is exported for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// DOMjudge's problem zip: `problem.yaml`, `domjudge-problem.ini`, the sample and secret
    /// data, the output validator, the submissions of the four verdict folders, attachments.
    Domjudge,
    /// The package as it is, below a folder named as the package's, minus grundy's own files.
    Kattis,
}

/// What went wrong making a package's archive, and where.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file or folder of the package that cannot be read beneath it (a link leading out of
    /// it, a FIFO, a file that cannot be opened).
    #[error("{0}")]
    Unreadable(#[from] OpenError),
    /// A file opened beneath the package that could not be read to its end.
    #[error("cannot read `{}`: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A link to a folder that holds it: following it would never end.
    #[error("`{}` is a link to a folder holding it: a package's links must not loop", .0.display())]
    LinkLoop(PathBuf),
    /// A DOMjudge file of the package that cannot be read or parsed, at its line.
    #[error("{0}")]
    Package(#[from] Diagnostic),
    /// A name a zip cannot hold as the package has it.
    #[error("`{}`: the name is not UTF-8, which a zip entry's name must be", .0.display())]
    NotUtf8(PathBuf),
    /// The zip library failed, or writing it did.
    #[error("cannot make the zip of `{}`: {source}", .package.display())]
    Zip {
        package: PathBuf,
        source: zip::result::ZipError,
    },
}

/// What went into a package's archive for `target`, and the submissions it leaves out (paths
/// below the package, for a note).
pub struct Archive {
    pub entries: usize,
    pub left_out: Vec<String>,
    /// A DOMjudge zip without a statement DOMjudge reads (the package has none built).
    pub no_statement: bool,
}

/// Writes the archive of the package at `root` for `target` into `out`: `time_limit` is the
/// limit the package verified with, which DOMjudge is told in `domjudge-problem.ini`.
pub fn package(
    root: &Path,
    target: Target,
    time_limit: Option<Duration>,
    out: impl Write + Seek,
) -> Result<Archive, ExportError> {
    let tree = Tree::open(root, Scope::Package)?;
    let mut no_statement = false;
    let (entries, left_out) = match target {
        Target::Kattis => {
            let name = root
                .file_name()
                .map(Path::new)
                .unwrap_or(Path::new("problem"));
            let prefix = name
                .to_str()
                .ok_or_else(|| ExportError::NotUtf8(root.to_path_buf()))?;
            let (mut entries, _) = walk::collect(&tree, &|_| true)?;
            for entry in &mut entries {
                entry.name = format!("{prefix}/{}", entry.name);
            }
            (entries, vec![])
        }
        Target::Domjudge => {
            let imports = |path: &str| domjudge::imports(path, time_limit);
            let (mut entries, skipped) = walk::collect(&tree, &imports)?;
            if !entries.iter().any(|e| domjudge::is_statement(&e.name)) {
                // A statement in a language's name only, which DOMjudge does not look for.
                if let Some(path) = domjudge::statement_in_a_language(&skipped) {
                    let copy = domjudge::STATEMENT_COPY.to_string();
                    entries.push(walk::read(&tree.join(path), copy)?);
                }
            }
            no_statement = !entries.iter().any(|e| domjudge::is_statement(&e.name));
            entries.push(domjudge::ini(&tree, time_limit)?);
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            (entries, domjudge::left_out(skipped))
        }
    };
    let zip_error = |source| ExportError::Zip {
        package: root.to_path_buf(),
        source,
    };
    archive::zip(&entries, out, zip_error)?;
    Ok(Archive {
        entries: entries.len(),
        left_out,
        no_statement,
    })
}

#[cfg(test)]
mod tests;
