//! Tests of programs (programs.rs) on temporary folders.

use super::*;
use crate::package::languages::LanguageError;
use crate::package::test_support::{root, tree};
use crate::package::toolchains;
use std::os::unix::fs::PermissionsExt;

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
        ("m/a.py", ""),
        ("m/Main.py", ""),
        ("js/module.mjs", ""),
        ("js/hello.mjs", ""),
        ("js/package.json", "{}"),
    ]);
    assert_eq!(code(&program(&dir, "a.cpp")), ("cpp", None));
    assert_eq!(code(&program(&dir, "py")), ("python3", Some("main.py")));
    assert_eq!(
        code(&program(&dir, "val")),
        ("python3", Some("__main__.py"))
    );
    assert_eq!(code(&program(&dir, "c")), ("c", None));
    assert_eq!(code(&program(&dir, "two.py")), ("python2", Some("two.py")));
    // No default entry file: one called main.* in any case, else the first by name.
    assert_eq!(code(&program(&dir, "m")), ("python3", Some("Main.py")));
    assert_eq!(
        code(&program(&dir, "js")),
        ("javascript", Some("hello.mjs"))
    );
    assert_eq!(program(&dir, "c").files.len(), 3);
    assert_eq!(program(&dir, "a.cpp").name, "a.cpp");
}

#[test]
fn jvm_entry_classes_are_found_after_the_build_unless_given() {
    let dir = tree(&[
        ("j1/Main.java", "class Main {}"),
        ("j1/Util.java", ""),
        ("j2/Solver.java", "public static void main(String[] a)"),
        ("j2/Util.java", ""),
        ("k/solve.kt", "fun main() {}"),
        ("Single.java", ""),
        ("main-lower/main.java", ""),
        ("main-lower/A.java", ""),
    ]);
    let preferred = |path: &str| {
        let program = program(&dir, path);
        let Kind::Source { language, entry } = &program.kind else {
            panic!("not a source program: {:?}", program.kind);
        };
        assert_eq!(*entry, None, "{path}: found after the build");
        program.preferred_classes(language)
    };
    assert_eq!(preferred("j1"), ["Main"]);
    assert_eq!(preferred("j2"), ["Main", "Solver"], "the first by name");
    assert_eq!(preferred("Single.java"), ["Main", "Single"]);
    assert_eq!(preferred("main-lower"), ["Main", "main"], "main.* first");
    assert_eq!(preferred("k"), ["MainKt", "SolveKt"]);
    assert_eq!(
        code(&given(&dir, "j2", None, Some("Util"))),
        ("java", Some("Util"))
    );
}

#[test]
fn scripts_unsupported_validators_and_invalid_programs() {
    let dir = tree(&[
        ("scripted/build", "#!/bin/sh\n"),
        ("scripted/src.cpp", ""),
        ("runonly/run", "#!/bin/sh\n"),
        ("check.ctd", ""),
        ("legacy/format.ctd", ""),
        ("legacy/notes.txt", ""),
        ("twice/a.ctd", ""),
        ("twice/b.ctd", ""),
        ("check.viva", ""),
        ("mixed/a.cpp", ""),
        ("mixed/b.py", ""),
        ("py/a.py", ""),
        ("py/b.py", ""),
        ("notes.txt", ""),
    ]);
    assert_eq!(program(&dir, "scripted").kind, Kind::Scripts);
    assert_eq!(program(&dir, "runonly").kind, Kind::Scripts);
    let package = root(dir.path());
    assert_eq!(
        program(&dir, "check.ctd").kind,
        Kind::Checktestdata {
            script: package.join("check.ctd")
        }
    );
    assert_eq!(
        program(&dir, "legacy").kind,
        Kind::Checktestdata {
            script: package.join("legacy/format.ctd")
        },
        "a legacy folder holding a script"
    );
    assert_eq!(
        program(&dir, "twice").kind,
        Kind::Invalid(kind::Unbuildable::SeveralScripts)
    );
    assert_eq!(program(&dir, "check.viva").kind, Kind::Unsupported("viva"));
    assert!(
        matches!(program(&dir, "mixed").kind, Kind::Invalid(ref why) if why.to_string().contains("several languages"))
    );
    // Several files, none the default entry: the first by name, as problemtools starts.
    assert_eq!(code(&program(&dir, "py")), ("python3", Some("a.py")));
    assert_eq!(
        program(&dir, "notes.txt").kind,
        Kind::Invalid(Unbuildable::Language(LanguageError::NoSource))
    );
    let forced = given(&dir, "mixed", Some("cpp"), None);
    assert_eq!(code(&forced), ("cpp", None));
    let unknown = given(&dir, "mixed", Some("cobol"), None);
    assert_eq!(
        unknown.kind,
        Kind::Invalid(Unbuildable::UnknownLanguage("cobol".into()))
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
    let [compile] = &plan.compile[..] else {
        panic!("one compile command: {:?}", plan.compile)
    };
    assert_eq!(compile[0], "g++");
    assert!(compile.contains(&dir.path().join("a.cpp").display().to_string()));
    assert_eq!(plan.run, [build.join("main").display().to_string()]);
    assert_eq!(
        cpp.plan(target, |tool| (tool == "g++")
            .then(|| NotFound::Path(tool.to_string())))
            .unwrap_err()
            .to_string(),
        "skipped: no compiler for C++ (g++ not found)"
    );
    // Its sources run as they are, checked first by the interpreter this run chose.
    let python = program(&dir, "s.py").plan(target, |_| None).unwrap();
    let interpreter = crate::package::languages::python3().tools[0];
    let source = dir.path().join("s.py").display().to_string();
    assert_eq!(
        python.compile,
        [[interpreter, "-m", "py_compile", source.as_str()]]
    );
    assert!(python.runs_sources);
    assert_eq!(python.run, [interpreter, source.as_str()]);
    let scripted = program(&dir, "scripted")
        .plan(target, |tool| Some(NotFound::Path(tool.to_string())))
        .unwrap();
    assert_eq!(scripted.compile, [["./build"]]);
    assert_eq!(
        program(&dir, "v.ctd")
            .plan(target, |_| None)
            .unwrap_err()
            .to_string(),
        "skipped: unsupported (checktestdata but as an input validator)"
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
    let executable = tree(&[("sol/a.cpp", "int main() {}")]);
    let file = executable.path().join("sol/a.cpp");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_ne!(
        key(&a, "sol"),
        key(&executable, "sol"),
        "the execute bit matters"
    );
}

#[test]
fn names_that_differ_only_in_bytes_that_are_not_utf8_are_two_keys() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    // Both names read `h\u{FFFD}.h` once made UTF-8 the lossy way.
    let with = |byte: u8| {
        let dir = tree(&[("sol/a.cpp", "#include \"h.h\"\nint main() {}")]);
        let name = [b'h', byte, b'.', b'h'];
        std::fs::write(dir.path().join("sol").join(OsStr::from_bytes(&name)), "").unwrap();
        dir
    };
    let (one, other) = (with(0xff), with(0xfe));
    let (one, other) = (program(&one, "sol"), program(&other, "sol"));
    assert_eq!(one.files.len(), 2);
    let lossy = |p: &Program| p.relative(&p.files[1]).to_string_lossy().into_owned();
    assert_eq!(lossy(&one), lossy(&other), "alike but for the byte");
    assert_ne!(one.cache_key(), other.cache_key());
}

#[test]
fn the_compiler_is_part_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let tool = dir.path().join("cc-tool");
    std::fs::write(&tool, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tool = tool.to_str().unwrap();
    let first = toolchains::tool_identity(tool);
    assert!(!first.is_empty());
    assert_eq!(toolchains::tool_identity(tool), first, "nothing changed");
    // Upgraded in place: same path and inode, another size and time.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let file = std::fs::OpenOptions::new().append(true).open(tool).unwrap();
    std::io::Write::write_all(&mut &file, b"# 2\n").unwrap();
    file.set_modified(old).unwrap();
    let upgraded = toolchains::tool_identity(tool);
    assert_ne!(upgraded, first);
    // Replaced by another file of the same size and time.
    let replacement = dir.path().join("new");
    std::fs::copy(tool, &replacement).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&replacement)
        .unwrap()
        .set_modified(old)
        .unwrap();
    std::fs::rename(&replacement, tool).unwrap();
    assert_ne!(toolchains::tool_identity(tool), upgraded, "another inode");
    // Reached through a link: the file it leads to, and the link's own path.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(tool, &link).unwrap();
    let through = toolchains::tool_identity(link.to_str().unwrap());
    assert_ne!(through, toolchains::tool_identity(tool));
    assert!(toolchains::tool_identity("/nonexistent/cc").is_empty());
}

#[test]
fn plans_say_what_the_run_command_needs_of_the_build() {
    let dir = tree(&[
        ("a.cpp", "int main() {}"),
        ("s.py", ""),
        ("scripted/run", ""),
        ("j/Main.java", "package pkg; class Main {}"),
    ]);
    let needs = |program: Program| -> Vec<(String, bool)> {
        let plan = program.plan(Path::new("/t"), |_| None).unwrap();
        let needs = plan.needs.into_iter();
        needs
            .map(|n| (n.path.display().to_string(), n.executable))
            .collect()
    };
    assert_eq!(needs(program(&dir, "a.cpp")), [("main".to_string(), true)]);
    assert_eq!(needs(program(&dir, "s.py")), [("s.py".to_string(), false)]);
    assert_eq!(
        needs(program(&dir, "scripted")),
        [("run".to_string(), true)]
    );
    // A class not given is found by the build among the classes it made.
    assert_eq!(needs(program(&dir, "j")), []);
    let in_package = given(&dir, "j", None, Some("pkg.Main"));
    assert_eq!(needs(in_package), [("pkg/Main.class".to_string(), false)]);
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
            Kind::Invalid(Unbuildable::EntryElsewhere(entry.to_string())),
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
