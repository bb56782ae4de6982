//! A contest: a folder of packages, in the order and with the labels its `problems.yaml`
//! gives (DOMjudge's and BAPCtools' list of `id`, `label`: each entry a package folder of the
//! contest), else in folder order labelled A, B, C... as `bt` labels them. Reads that one file,
//! beneath the contest's folder and within a size cap; what it says that cannot be used is a
//! located [`Diagnostic`]. Judges nothing: `verify` orders its problems and labels the contest
//! table by it.

use std::path::Path;

use crate::files::beneath::{Scope, Tree};
use crate::package::yaml::{self, Diagnostic, Node, Value};

/// The file naming a contest's problems, their order and labels.
pub const PROBLEMS_FILE: &str = "problems.yaml";
/// The most `problems.yaml` is read of: a list of a few hundred short entries at most.
const PROBLEMS_BYTES: u64 = 1 << 20;

/// A problem of a contest: its package folder's name and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub folder: String,
    pub label: String,
    /// Where its entry is in `problems.yaml`.
    pub line: usize,
    pub column: usize,
}

/// The problems of the contest at `folder` as its `problems.yaml` lists them; `None` without
/// one (the folder order then, labelled by [`default_label`]).
pub fn listed(folder: &Path) -> Result<Option<Vec<Listed>>, Diagnostic> {
    let tree = Tree::open(folder, Scope::Package).map_err(Diagnostic::from)?;
    let file = tree.join(PROBLEMS_FILE);
    if !file.is_file().unwrap_or(false) {
        return Ok(None);
    }
    let Some(root) = yaml::read(&file, PROBLEMS_BYTES)? else {
        return Ok(Some(vec![]));
    };
    let path = file.path();
    let Value::Seq(entries) = &root.value else {
        return Err(Diagnostic::at(
            path,
            &root,
            format!(
                "must be a list of problems (`- id: FOLDER` with a `label:`), not {}",
                root.describe()
            ),
        ));
    };
    let mut problems: Vec<Listed> = vec![];
    for (position, entry) in entries.iter().enumerate() {
        let listed = entry_of(path, entry, position)?;
        if let Some(twice) = problems
            .iter()
            .find(|p| p.folder == listed.folder || p.label == listed.label)
        {
            let what = match twice.folder == listed.folder {
                true => format!("problem `{}` is listed twice", listed.folder),
                false => format!("label `{}` is given twice", listed.label),
            };
            return Err(Diagnostic::at(path, entry, what));
        }
        problems.push(listed);
    }
    Ok(Some(problems))
}

/// One entry: `id` (older DOMjudge: `short-name`) names the folder, `label` (older: `letter`)
/// its label, the entry's place in the list when it has none.
fn entry_of(path: &Path, entry: &Node, position: usize) -> Result<Listed, Diagnostic> {
    let Some(fields) = entry.as_map() else {
        return Err(Diagnostic::at(
            path,
            entry,
            format!(
                "a problem must be a map with an `id`, not {}",
                entry.describe()
            ),
        ));
    };
    let field = |names: &[&str]| {
        fields
            .iter()
            .find(|(key, _)| names.contains(&key.as_str().unwrap_or_default()))
            .map(|(_, value)| value)
    };
    let text = |node: &Node, what: &str| match node.scalar_text() {
        Some(text) if !text.trim().is_empty() => Ok(text),
        _ => Err(Diagnostic::at(
            path,
            node,
            format!("a problem's {what} must be a word, not {}", node.describe()),
        )),
    };
    let Some(id) = field(&["id", "short-name"]) else {
        return Err(Diagnostic::at(
            path,
            entry,
            "a problem has no `id` (its package folder)",
        ));
    };
    let folder = text(id, "`id`")?;
    // A folder of the contest, never a path out of it.
    if folder.contains('/') || folder == "." || folder == ".." {
        let what = format!("`id: {folder}` must name a package folder of the contest");
        return Err(Diagnostic::at(path, id, what));
    }
    let label = match field(&["label", "letter"]) {
        Some(label) => text(label, "`label`")?,
        None => default_label(position),
    };
    Ok(Listed {
        folder,
        label,
        line: entry.line,
        column: entry.column,
    })
}

/// The problems of a contest in its order, each with its label: `found` are its packages in
/// folder order, each by its folder's name; `listed` what its `problems.yaml` says, if it has
/// one (at `file`). A listed problem without its folder is an error at its entry; a package the
/// list leaves out is not part of the contest, and is returned apart.
pub fn ordered<T>(
    file: &Path,
    listed: Option<&[Listed]>,
    found: Vec<(String, T)>,
) -> Result<Ordered<T>, Diagnostic> {
    let Some(listed) = listed else {
        let labelled = found
            .into_iter()
            .enumerate()
            .map(|(position, (_, item))| (default_label(position), item))
            .collect();
        return Ok(Ordered {
            labelled,
            unlisted: vec![],
        });
    };
    let mut found: Vec<Option<(String, T)>> = found.into_iter().map(Some).collect();
    let mut labelled = vec![];
    for entry in listed {
        let taken = found
            .iter_mut()
            .find(|item| item.as_ref().is_some_and(|(name, _)| *name == entry.folder))
            .and_then(Option::take);
        let Some((_, item)) = taken else {
            return Err(Diagnostic {
                file: file.to_path_buf(),
                line: entry.line,
                column: entry.column,
                message: format!(
                    "problem `{}` has no package folder in the contest",
                    entry.folder
                ),
            });
        };
        labelled.push((entry.label.clone(), item));
    }
    let unlisted = found.into_iter().flatten().map(|(name, _)| name).collect();
    Ok(Ordered { labelled, unlisted })
}

/// A contest's problems in order with their labels, and the packages its list leaves out.
#[derive(Debug)]
pub struct Ordered<T> {
    pub labelled: Vec<(String, T)>,
    pub unlisted: Vec<String>,
}

/// The label of the problem at `position` where none is given: A to Z, then AA, AB...
pub fn default_label(position: usize) -> String {
    let letter = |n: usize| char::from(b'A' + (n % 26) as u8);
    match position {
        0..=25 => letter(position).to_string(),
        _ => format!("{}{}", default_label(position / 26 - 1), letter(position)),
    }
}

#[cfg(test)]
mod tests;
