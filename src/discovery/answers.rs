//! Where the answers of judged cases lie: the folders a judged program must never see, whatever
//! its command line names (the sandbox hides them: `Program::hide`). They are the fixtures root
//! when it is a folder of plain problems, each judged package's `data/` folder, each judged
//! plain problem's folder, and the folder of every expected output judged. A fixtures root that
//! is a package, or holds packages, is not hidden whole: the contestants' programs live there
//! (`submissions/`), beside the answers.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::case::Case;
use super::packages::is_package;
use crate::files::beneath::Scope;

/// The folders holding the answers of `cases` of the fixtures root `root` (its plain problems'
/// answers all, when it has no package), absolute, each once.
pub fn answer_folders(root: &Path, cases: &[Case]) -> Vec<PathBuf> {
    let mut folders = BTreeSet::new();
    if root.is_dir() && !is_package(root) && crate::package::find::find(root).is_err() {
        folders.insert(root.to_path_buf());
    }
    for case in cases {
        let tree = case.input.tree();
        folders.insert(match tree.scope() {
            Scope::Package => tree.path().join("data"),
            Scope::Fixtures | Scope::Program => tree.path().join(&case.problem),
        });
        let expected = case.expected.as_ref().and_then(|e| e.path().parent());
        folders.extend(expected.map(Path::to_path_buf));
    }
    folders
        .into_iter()
        .map(|folder| std::path::absolute(&folder).unwrap_or(folder))
        .collect()
}

/// The folder holding the answers of the package at `package`: its `data/`.
pub fn package_answers(package: &Path) -> Vec<PathBuf> {
    let data = package.join("data");
    vec![std::path::absolute(&data).unwrap_or(data)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::discover;

    #[test]
    fn a_root_of_plain_problems_is_hidden_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("fixtures");
        std::fs::create_dir_all(root.join("nim/edge")).unwrap();
        std::fs::write(root.join("nim/edge/a.in"), "1\n").unwrap();
        std::fs::write(root.join("nim/edge/a.out"), "x\n").unwrap();
        let cases = discover(&root, |_| true).unwrap().cases;
        assert_eq!(
            answer_folders(&root, &cases),
            [root.clone(), root.join("nim"), root.join("nim/edge")]
        );
    }

    #[test]
    fn in_a_contest_each_judged_package_hides_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("contest");
        for package in ["hello", "other"] {
            let folder = root.join(package);
            std::fs::create_dir_all(folder.join("data/secret")).unwrap();
            std::fs::create_dir_all(folder.join("submissions/accepted")).unwrap();
            std::fs::write(folder.join("problem.yaml"), "name: Hello\n").unwrap();
            std::fs::write(folder.join("data/secret/1.in"), "1\n").unwrap();
            std::fs::write(folder.join("data/secret/1.ans"), "1\n").unwrap();
        }
        let cases = discover(&root, |problem| problem == "hello").unwrap().cases;
        assert_eq!(
            answer_folders(&root, &cases),
            [root.join("hello/data"), root.join("hello/data/secret")]
        );
        let package = root.join("hello");
        let cases = discover(&package, |_| true).unwrap().cases;
        assert_eq!(
            answer_folders(&package, &cases),
            [package.join("data"), package.join("data/secret")]
        );
    }
}
