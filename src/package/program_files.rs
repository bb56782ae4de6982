//! The files a program is made of, as a package's folders hold them: which names are no part of
//! any program (hidden files, `*.disabled`, `*.template`, READMEs), the entries of a folder that
//! may be programs, and the files below a folder program (links followed within the package).
//! What the files make of a program is [`super::programs`]'s; `include/` reads its folders the
//! same way ([`super::includes`]).

use super::yaml::Diagnostic;
use crate::files::beneath::{Identity, Kind as Found, TreePath};

/// The header BAPCtools supplies to validators at build time, which a package's validator may
/// link to from outside the package; such a link is left out of the program rather than
/// refused, and the runner supplies the header.
pub const SUPPLIED_HEADER: &str = "validation.h";

/// Whether a file or folder name is left out of a package's programs.
pub fn ignored(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with(".disabled")
        || name.ends_with(".template")
        || name.starts_with("README")
}

/// The entries of a folder that may be programs, sorted; none if it is missing or no folder.
pub fn listing(folder: &TreePath) -> Result<Vec<TreePath>, Diagnostic> {
    if !matches!(folder.kind()?, Some(Found::Folder(_))) {
        return Ok(vec![]);
    }
    Ok(folder
        .list()?
        .iter()
        .filter(|name| !ignored(&name.to_string_lossy()))
        .map(|name| folder.join(name))
        .collect())
}

/// The files below the folder `folder` (whose identity is `identity`), sorted by path.
pub fn files_in(folder: &TreePath, identity: Identity) -> Result<Vec<TreePath>, Diagnostic> {
    let mut files = vec![];
    add_files(folder, &mut vec![identity], &mut files)?;
    files.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(files)
}

/// Adds the files below `folder` to `files` (nothing ignored is kept). Links are followed within
/// the package (packages share headers that way); a folder met again below itself (a link loop)
/// is passed over, and so are special files and links to nothing.
fn add_files(
    folder: &TreePath,
    open: &mut Vec<Identity>,
    files: &mut Vec<TreePath>,
) -> Result<(), Diagnostic> {
    for name in folder.list()? {
        if ignored(&name.to_string_lossy()) {
            continue;
        }
        let path = folder.join(&name);
        let kind = match path.kind() {
            // BAPCtools' own packages link it to BAPCtools' copy, outside the package: it is
            // not shipped, and the runner supplies one (see `load_package`'s warning).
            Err(error) if name == SUPPLIED_HEADER && error.leads_outside() => continue,
            kind => kind?,
        };
        match kind {
            Some(Found::File) => files.push(path),
            Some(Found::Folder(identity)) if !open.contains(&identity) => {
                open.push(identity);
                add_files(&path, open, files)?;
                open.pop();
            }
            _ => {}
        }
    }
    Ok(())
}
