//! Tests of programs (programs.rs) on temporary folders.

use super::*;
use crate::package::test_support::{root, tree};

fn program(dir: &tempfile::TempDir, path: &str) -> Program {
    given(dir, path, None, None)
}

/// The program at `path` with the language and entry point a `submissions.yaml` may give.
fn given(
    dir: &tempfile::TempDir,
    path: &str,
    language: Option<&str>,
    entry: Option<&str>,
) -> Program {
    Program::new(&root(dir.path()).join(path), language, entry).unwrap()
}

fn code(program: &Program) -> (&str, Option<&str>) {
    match &program.kind {
        Kind::Source { language, entry } => (language.code, entry.as_deref()),
        other => panic!("not a source program: {other:?}"),
    }
}

#[test]
fn single_files_and_folders_of_one_language() {
    let dir = tree(&[
        ("a.cpp", "int main() {}"),
        ("py/main.py", "import util"),
        ("py/util.py", ""),
        ("val/__init__.py", ""),
        ("val/__main__.py", ""),
        ("c/sol.c", ""),
        ("c/helper.c", ""),
        ("c/helper.h", ""),
        ("two.py", "#!/usr/bin/env python2\nprint 1\n"),
    ]);
    assert_eq!(code(&program(&dir, "a.cpp")), ("cpp", None));
    assert_eq!(code(&program(&dir, "py")), ("python3", Some("main.py")));
    assert_eq!(
        code(&program(&dir, "val")),
        ("python3", Some("__main__.py"))
    );
    assert_eq!(code(&program(&dir, "c")), ("c", None));
    assert_eq!(code(&program(&dir, "two.py")), ("python2", Some("two.py")));
    assert_eq!(program(&dir, "c").files.len(), 3);
    assert_eq!(program(&dir, "a.cpp").name, "a.cpp");
}

#[test]
fn jvm_entry_classes() {
    let dir = tree(&[
        ("j1/Main.java", "class Main {}"),
        ("j1/Util.java", ""),
        ("j2/Solver.java", "public static void main(String[] a)"),
        ("j2/Util.java", ""),
        ("j3/A.java", ""),
        ("j3/B.java", ""),
        ("k/solve.kt", "fun main() {}"),
        ("Single.java", ""),
    ]);
    assert_eq!(code(&program(&dir, "j1")), ("java", Some("Main")));
    assert_eq!(code(&program(&dir, "j2")), ("java", Some("Solver")));
    assert_eq!(
        code(&program(&dir, "Single.java")),
        ("java", Some("Single"))
    );
    assert!(
        matches!(program(&dir, "j3").kind, Kind::Invalid(ref why) if why.contains("entry class"))
    );
    assert_eq!(code(&program(&dir, "k")), ("kotlin", Some("SolveKt")));
    assert_eq!(
        code(&given(&dir, "j3", None, Some("B"))),
        ("java", Some("B"))
    );
}

#[test]
fn scripts_unsupported_validators_and_invalid_programs() {
    let dir = tree(&[
        ("scripted/build", "#!/bin/sh\n"),
        ("scripted/src.cpp", ""),
        ("runonly/run", "#!/bin/sh\n"),
        ("check.ctd", ""),
        ("check.viva", ""),
        ("mixed/a.cpp", ""),
        ("mixed/b.py", ""),
        ("py/a.py", ""),
        ("py/b.py", ""),
        ("notes.txt", ""),
    ]);
    assert_eq!(program(&dir, "scripted").kind, Kind::Scripts);
    assert_eq!(program(&dir, "runonly").kind, Kind::Scripts);
    assert_eq!(
        program(&dir, "check.ctd").kind,
        Kind::Unsupported("checktestdata")
    );
    assert_eq!(program(&dir, "check.viva").kind, Kind::Unsupported("viva"));
    assert!(
        matches!(program(&dir, "mixed").kind, Kind::Invalid(ref why) if why.contains("several languages"))
    );
    assert!(
        matches!(program(&dir, "py").kind, Kind::Invalid(ref why) if why.contains("none is main.py"))
    );
    assert_eq!(
        program(&dir, "notes.txt").kind,
        Kind::Invalid("no source file".into())
    );
    let forced = given(&dir, "mixed", Some("cpp"), None);
    assert_eq!(code(&forced), ("cpp", None));
    let unknown = given(&dir, "mixed", Some("cobol"), None);
    assert_eq!(
        unknown.kind,
        Kind::Invalid("unknown language `cobol`".into())
    );
}

#[test]
fn ignored_names_are_not_programs() {
    let dir = tree(&[
        ("v/a.py", ""),
        ("v/.hidden.py", ""),
        ("v/old.py.disabled", ""),
        ("v/skel.cpp.template", ""),
        ("v/README.md", ""),
        ("v/dir/x.cpp", ""),
        ("v/dir/.git/config", ""),
    ]);
    let package = root(dir.path());
    let names: Vec<_> = programs_in(&package.join("v"))
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["a.py", "dir"]);
    assert_eq!(program(&dir, "v/dir").files, [package.join("v/dir/x.cpp")]);
    assert!(programs_in(&package.join("missing")).unwrap().is_empty());
}

#[test]
fn plans_build_in_the_cache_folder_and_skip_without_a_compiler() {
    let dir = tree(&[
        ("a.cpp", "int main() {}"),
        ("s.py", ""),
        ("scripted/build", ""),
        ("v.ctd", ""),
    ]);
    let target = Path::new("/t");
    let cpp = program(&dir, "a.cpp");
    let plan = cpp.plan(target, |_| None).unwrap();
    let build = target.join(cpp.cache_key());
    assert_eq!(plan.dir, build);
    let compile = plan.compile.unwrap();
    assert_eq!(compile[0], "g++");
    assert!(compile.contains(&dir.path().join("a.cpp").display().to_string()));
    assert_eq!(plan.run, [build.join("main").display().to_string()]);
    assert_eq!(
        cpp.plan(target, |tool| (tool == "g++")
            .then(|| "g++ not found".to_string()))
            .unwrap_err()
            .to_string(),
        "skipped: no compiler for C++ (g++ not found)"
    );
    let python = program(&dir, "s.py").plan(target, |_| None).unwrap();
    assert_eq!(python.compile, None);
    assert_eq!(
        python.run,
        [
            "python3".to_string(),
            dir.path().join("s.py").display().to_string()
        ]
    );
    let scripted = program(&dir, "scripted")
        .plan(target, |tool| Some(format!("{tool} not found")))
        .unwrap();
    assert_eq!(scripted.compile, Some(vec!["./build".to_string()]));
    assert_eq!(
        program(&dir, "v.ctd")
            .plan(target, |_| None)
            .unwrap_err()
            .to_string(),
        "skipped: unsupported (checktestdata)"
    );
}

#[test]
fn the_cache_key_follows_names_bytes_and_language() {
    let a = tree(&[("sol/a.cpp", "int main() {}")]);
    let b = tree(&[("other/a.cpp", "int main() {}")]);
    let key = |dir: &tempfile::TempDir, path: &str| program(dir, path).cache_key();
    assert_eq!(
        key(&a, "sol"),
        key(&b, "other"),
        "the folder's own name and place do not matter"
    );
    assert_eq!(key(&a, "sol").len(), 32);
    std::fs::write(b.path().join("other/a.cpp"), "int main() { return 0; }").unwrap();
    assert_ne!(key(&a, "sol"), key(&b, "other"), "bytes matter");
    let renamed = tree(&[("sol/b.cpp", "int main() {}")]);
    assert_ne!(key(&a, "sol"), key(&renamed, "sol"), "file names matter");
    let as_c = given(&a, "sol", Some("c"), None);
    assert_ne!(as_c.cache_key(), key(&a, "sol"), "the language matters");
}

#[test]
fn an_entry_file_must_be_a_file_of_the_program() {
    let dir = tree(&[("py/main.py", ""), ("py/lib/util.py", ""), ("other.py", "")]);
    assert_eq!(
        code(&given(&dir, "py", None, Some("lib/util.py"))),
        ("python3", Some("lib/util.py"))
    );
    for entry in ["../other.py", "missing.py", "lib"] {
        assert_eq!(
            given(&dir, "py", None, Some(entry)).kind,
            Kind::Invalid(format!(
                "the entry point `{entry}` is not a file of this program"
            )),
        );
    }
}

#[cfg(unix)]
#[test]
fn files_linked_from_outside_the_package_are_an_error_naming_the_link() {
    let outside = tree(&[("secret.h", "")]);
    let dir = tree(&[("sol/main.cpp", "")]);
    std::os::unix::fs::symlink(outside.path().join("secret.h"), dir.path().join("sol/s.h"))
        .unwrap();
    let error = Program::new(&root(dir.path()).join("sol"), None, None).unwrap_err();
    assert_eq!(error.file, dir.path().join("sol/s.h"));
    assert!(
        error.message.starts_with("links outside the package"),
        "{error}"
    );
}
