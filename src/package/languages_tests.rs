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
            "-Dfile.encoding=UTF-8",
            "-XX:+UseSerialGC",
            "-Xss64m",
            "-Xms{heap}m",
            "-Xmx{heap}m",
            "-cp",
            "/b",
            "Main"
        ]
    );
    assert_eq!(expand(PYTHON3_PYPY.run, &vars), ["pypy3", "/p/a.cpp"]);
    assert_eq!(expand(PYTHON3_CPYTHON.run, &vars), ["python3", "/p/a.cpp"]);
    // A check of one file at a time is one command per file; any other template, one command.
    assert_eq!(
        expand_each("bash -n {each}", &vars),
        [["bash", "-n", "/p/a.cpp"], ["bash", "-n", "/p/b.cpp"]]
    );
    assert_eq!(
        expand_each("pypy3 -m py_compile {files}", &vars),
        [["pypy3", "-m", "py_compile", "/p/a.cpp", "/p/b.cpp"]]
    );
    // A class not given stays for the build to fill in.
    let unnamed = Vars {
        class: None,
        ..vars
    };
    assert_eq!(
        expand(by_code("java").unwrap().run, &unnamed)
            .last()
            .unwrap(),
        CLASS
    );
}

#[test]
fn a_jvm_heap_leaves_room_for_the_jvm_as_domjudge_sizes_it() {
    assert_eq!(heap_mib(2048), 1920);
    assert_eq!(heap_mib(1024), 896);
    assert_eq!(heap_mib(200), 100, "at least half the limit");
    assert_eq!(heap_mib(0), 0);
}

#[test]
fn python_3_is_one_row_of_the_table_and_its_sources_are_checked_before_they_run() {
    let rows: Vec<&Language> = table().filter(|l| l.code == "python3").collect();
    assert_eq!(rows.len(), 1);
    assert!(std::ptr::eq(rows[0], python3()));
    for row in [&PYTHON3_PYPY, &PYTHON3_CPYTHON] {
        assert!(row.runs_sources());
        assert!(row.compile.unwrap().contains("-m py_compile {files}"));
        assert_eq!(row.compile_env, [("PYTHONPYCACHEPREFIX", "pycache")]);
    }
    assert!(!by_code("cpp").unwrap().runs_sources());
    assert!(
        !by_code("rust").unwrap().runs_sources(),
        "its entry file is compiled"
    );
    let codes: Vec<&str> = table().map(|l| l.code).collect();
    let mut unique = codes.clone();
    unique.dedup();
    assert_eq!(codes, unique, "one row per code");
}
