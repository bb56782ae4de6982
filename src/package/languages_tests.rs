use super::*;

#[test]
fn extensions_decide_and_the_python_shebang_splits_python_2_from_3() {
    let code = |name: &str, line: Option<&str>| of_file(Path::new(name), line).map(|l| l.code);
    assert_eq!(code("a.cpp", None), Some("cpp"));
    assert_eq!(code("a.C", None), Some("cpp"));
    assert_eq!(code("a.c", None), Some("c"));
    assert_eq!(code("a.py", None), Some("python3"));
    assert_eq!(
        code("a.py", Some("#!/usr/bin/env python2")),
        Some("python2")
    );
    assert_eq!(code("a.py", Some("#!/usr/bin/python3")), Some("python3"));
    assert_eq!(code("a.py2", None), Some("python2"));
    assert_eq!(code("A.java", None), Some("java"));
    assert_eq!(code("a.kt", None), Some("kotlin"));
    assert_eq!(code("a.rs", None), Some("rust"));
    assert_eq!(code("a.txt", None), None);
    assert_eq!(code("Makefile", None), None);
    assert_eq!(by_code("cpp").unwrap().name, "C++");
}

#[test]
fn a_program_has_one_language_headers_aside() {
    let dir = tempfile::tempdir().unwrap();
    let tree = crate::files::beneath::Tree::open(dir.path(), crate::files::beneath::Scope::Package)
        .unwrap();
    let files = |names: &[&str]| names.iter().map(|n| tree.join(n)).collect::<Vec<_>>();
    assert_eq!(
        of_files(&files(&["a.cpp", "b.cpp", "a.h"])).unwrap().code,
        "cpp"
    );
    assert!(of_files(&files(&["a.cpp", "b.py"]))
        .unwrap_err()
        .to_string()
        .contains("several languages (C++, Python 3)"));
    assert_eq!(
        of_files(&files(&["notes.txt"])).unwrap_err(),
        LanguageError::NoSource
    );
    assert_eq!(
        of_files(&files(&["x.zig"])).unwrap_err(),
        LanguageError::NoKnownSource
    );
}

#[test]
fn templates_expand_files_as_separate_arguments() {
    let files = [PathBuf::from("/p/a.cpp"), PathBuf::from("/p/b.cpp")];
    let vars = Vars {
        exe: Path::new("/b/main"),
        build: Path::new("/b"),
        files: &files,
        main: Some(Path::new("/p/a.cpp")),
        class: Some("Main"),
    };
    let cpp = by_code("cpp").unwrap();
    assert_eq!(
        expand(cpp.compile.unwrap(), &vars),
        [
            "g++",
            "-x",
            "c++",
            "-O2",
            "-std=gnu++20",
            "-o",
            "/b/main",
            "/p/a.cpp",
            "/p/b.cpp"
        ]
    );
    assert_eq!(
        expand(by_code("java").unwrap().run, &vars),
        [
            "java",
            "-XX:+UseSerialGC",
            "-Xss64m",
            "-Xmx{memory}m",
            "-cp",
            "/b",
            "Main"
        ]
    );
    assert_eq!(
        expand(by_code("python3").unwrap().run, &vars),
        ["python3", "/p/a.cpp"]
    );
}
