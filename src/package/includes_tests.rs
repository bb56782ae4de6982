//! Tests of a package's included files (includes.rs) and what a submission makes of them.

use super::*;
use crate::package::programs::{Kind, Program};
use crate::package::test_support::{root, tree};

fn names(included: &[Included]) -> Vec<String> {
    included
        .iter()
        .map(|i| i.name.display().to_string())
        .collect()
}

#[test]
fn a_language_gets_the_default_files_and_its_own_and_no_others() {
    let dir = tree(&[
        ("include/default/notes.txt", ""),
        ("include/python3/include.py", "magic = 2\n"),
        ("include/python3/lib/util.py", ""),
        ("include/cpp/driver.h", ""),
        ("include/.hidden/x", ""),
        ("include/README.md", ""),
    ]);
    let includes = read(&root(dir.path())).unwrap();
    assert_eq!(
        names(&includes.for_language("python3")),
        ["notes.txt", "include.py", "lib/util.py"]
    );
    assert_eq!(
        names(&includes.for_language("cpp")),
        ["notes.txt", "driver.h"]
    );
    assert_eq!(names(&includes.for_language("java")), ["notes.txt"]);
    let none = tree(&[("problem.yaml", "")]);
    assert!(read(&root(none.path()))
        .unwrap()
        .for_language("cpp")
        .is_empty());
}

#[test]
fn a_languages_file_named_as_a_default_one_is_an_error_naming_both() {
    let dir = tree(&[
        ("include/default/shared.h", ""),
        ("include/cpp/shared.h", ""),
    ]);
    let error = read(&root(dir.path())).unwrap_err();
    assert_eq!(error.file, dir.path().join("include/cpp/shared.h"));
    let default = dir.path().join("include/default/shared.h");
    assert!(
        error.message.contains(&format!("`{}`", default.display())),
        "{error}"
    );
    assert!(error.message.contains("as `shared.h`"), "{error}");
}

#[test]
fn an_included_file_replaces_a_submissions_own_and_a_driver_becomes_the_entry() {
    let dir = tree(&[
        ("include/python3/include.py", "magic = 2\n"),
        ("include/python3/__main__.py", "import solution\n"),
        ("sub/solution.py", ""),
        ("sub/include.py", "magic = 1\n"),
        ("single.py", ""),
    ]);
    let package = root(dir.path());
    let includes = read(&package).unwrap();
    let folder = Program::including(&package.join("sub"), None, None, &includes).unwrap();
    assert_eq!(names(&folder.included), ["__main__.py", "include.py"]);
    assert_eq!(folder.files, [package.join("sub/solution.py")], "replaced");
    let Kind::Source { entry, .. } = &folder.kind else {
        panic!("{:?}", folder.kind);
    };
    assert_eq!(entry.as_deref(), Some("__main__.py"), "the driver");
    // Named by submissions.yaml, the entry stays.
    let named = Program::including(&package.join("sub"), None, Some("solution.py"), &includes);
    let named = named.unwrap();
    let Kind::Source { entry, .. } = &named.kind else {
        panic!("{:?}", named.kind);
    };
    assert_eq!(entry.as_deref(), Some("solution.py"));
    // The included files are part of what keys the build.
    let alone = Program::new(&package.join("single.py"), None, None).unwrap();
    let single = Program::including(&package.join("single.py"), None, None, &includes).unwrap();
    assert_ne!(single.cache_key(), alone.cache_key());
}
