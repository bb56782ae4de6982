//! `grundy export` through the real binary: a scaffold's Kattis zip holds its files as they are
//! on disk (below the package's name, grundy's own left out), byte-identical when made again,
//! and verifies unpacked as the package does, and as problemtools' `verifyproblem` does where it
//! is installed; a DOMjudge-style package (`verify_domjudge`'s `twice`) is refused while it does
//! not verify (exit 1, as verify's), and with `--force` gives DOMjudge's zip: its own ini's keys
//! kept but the time limit, its built statement carried (one named for its language as
//! `problem.pdf`, where DOMjudge reads it), or a note that it has none; an ini
//! DOMjudge could not parse is an error at its line; an existing zip is never replaced without
//! `--force`; a link out of the package is refused; a zip an error cut short leaves no file.

use crate::common;

use std::io::Read;
use std::path::Path;

use common::{code, dump, stderr, tree, verify_json, Project};

/// Unpacks `entries` into `folder` of `project`.
fn unpack(project: &Project, folder: &str, entries: &[(String, Vec<u8>)]) {
    for (name, bytes) in entries {
        project.file(&format!("{folder}/{name}"), bytes);
    }
}

/// The entries of the zip at `path`, names and bytes, in the zip's order, read by the zip crate.
fn unzip(path: &Path) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut bytes = vec![];
            file.read_to_end(&mut bytes).unwrap();
            (file.name().unwrap().to_string(), bytes)
        })
        .collect()
}

/// The submissions' verdicts of a `verify --format json` run.
fn verdicts(output: &std::process::Output) -> Vec<(String, String)> {
    let (rows, _) = verify_json(output);
    let mut verdicts: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["submission"].to_string(), r["verdict"].to_string()))
        .collect();
    verdicts.sort();
    verdicts
}

#[test]
fn a_kattis_export_is_the_package_as_on_disk_and_verifies_alike() {
    let project = Project::new();
    let package = project.scaffold("sum", &["--package"]);
    let out = project.path().join("sum.zip");
    let exported = project.grundy(&["export", "sum", "--to", "kattis", "-o", "sum.zip"]);
    assert_eq!(code(&exported), 0, "{}", dump(&exported));
    // Verify generated the data first; its record of that is grundy's, not the package's.
    assert!(package.join("data/.grundy-generated.json").is_file());
    let on_disk: Vec<String> = tree(&package)
        .into_iter()
        .filter(|path| !path.ends_with(".grundy-generated.json"))
        .collect();
    let entries = unzip(&out);
    let names: Vec<String> = entries.iter().map(|(name, _)| name.clone()).collect();
    let expected: Vec<String> = on_disk.iter().map(|path| format!("sum/{path}")).collect();
    assert_eq!(names, expected);
    for (name, bytes) in &entries {
        let file = package.join(name.strip_prefix("sum/").unwrap());
        assert_eq!(bytes, &std::fs::read(&file).unwrap(), "{name}");
    }
    // The same package, the same bytes.
    let again = project.grundy(&["export", "sum", "--to", "kattis", "-o", "again.zip"]);
    assert_eq!(code(&again), 0, "{}", dump(&again));
    let again = std::fs::read(project.path().join("again.zip")).unwrap();
    assert!(
        again == std::fs::read(&out).unwrap(),
        "a second export differs"
    );
    // Never over an existing file unless asked.
    std::fs::write(&out, "mine").unwrap();
    let refused = project.grundy(&["export", "sum", "--to", "kattis", "-o", "sum.zip"]);
    assert_eq!(code(&refused), 2, "{}", dump(&refused));
    assert!(
        stderr(&refused).contains("already exists"),
        "{}",
        dump(&refused)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"mine");
    let forced = project.grundy(&[
        "export", "sum", "--to", "kattis", "-o", "sum.zip", "--force",
    ]);
    assert_eq!(code(&forced), 0, "{}", dump(&forced));
    assert!(std::fs::read(&out).unwrap() == again);
    // Unpacked, it verifies as the package does.
    let unpacked = project.path().join("unpacked");
    unpack(&project, "unpacked", &entries);
    let original = project.verify(&["sum", "--format", "json"]);
    let copy = project.verify(&[unpacked.join("sum").to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&copy), 0, "{}", dump(&copy));
    assert_eq!(verdicts(&copy), verdicts(&original));
}

#[test]
fn a_domjudge_export_waits_for_verify_and_holds_what_domjudge_imports() {
    let project = Project::new();
    crate::verify_domjudge::twice(&project);
    let out = project.path().join("twice.zip");
    // Its statement is LaTeX alone, which DOMjudge does not read.
    project.file("twice/problem_statement/problem.en.tex", "Twice.\n");
    // `rejected/broken.py` does not get what its tag says: not exported, a finding as verify's.
    let refused = project.grundy(&["export", "twice", "--to", "domjudge", "-o", "twice.zip"]);
    assert_eq!(code(&refused), 1, "{}", dump(&refused));
    assert!(
        stderr(&refused).contains("not exported"),
        "{}",
        dump(&refused)
    );
    assert!(!out.exists());
    let forced = exported_forced(&project);
    let entries = unzip(&out);
    let names: Vec<&str> = entries.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "data/sample/1.ans",
            "data/sample/1.in",
            "data/secret/1.ans",
            "data/secret/1.in",
            "domjudge-problem.ini",
            "output_validator/validator.py",
            "problem.yaml",
            "submissions/accepted/double.py",
        ]
    );
    for (name, bytes) in &entries {
        if name != "domjudge-problem.ini" {
            let file = project.path().join("twice").join(name);
            assert_eq!(bytes, &std::fs::read(&file).unwrap(), "{name}");
        }
    }
    // The package's ini, each key kept, its time limit the one verify judged with (the ini's 3
    // seconds, over `.timelimit`'s 2, as DOMjudge takes it), that `.timelimit` left out: DOMjudge
    // 10 refuses a zip whose `.timelimit` disagrees with the limit in force.
    assert_eq!(
        String::from_utf8_lossy(&entries[4].1),
        "name = \"Twice\"\ncolor = #00ff00\ntimelimit = 3\n"
    );
    assert!(
        stderr(&forced).contains("twice: the DOMjudge zip has no statement"),
        "{}",
        dump(&forced)
    );
    for left_out in [
        "mixed/crash_on_big.py",
        "rejected/broken.py",
        "untagged/nocompile.c",
    ] {
        assert!(
            stderr(&forced).contains(&format!("twice/submissions/{left_out}: left out")),
            "{}",
            dump(&forced)
        );
    }
}

/// `grundy export twice --to domjudge -o twice.zip --force`, which must succeed.
fn exported_forced(project: &Project) -> std::process::Output {
    let args = [
        "export",
        "twice",
        "--to",
        "domjudge",
        "-o",
        "twice.zip",
        "--force",
    ];
    let exported = project.grundy(&args);
    assert_eq!(code(&exported), 0, "{}", dump(&exported));
    exported
}

#[test]
fn a_link_out_of_the_package_is_not_exported() {
    let project = Project::new();
    crate::verify_domjudge::twice(&project);
    project.file("secret.txt", "not the package's");
    std::fs::create_dir_all(project.path().join("twice/attachments")).unwrap();
    let leak = project.path().join("twice/attachments/leak");
    std::os::unix::fs::symlink("../../secret.txt", leak).unwrap();
    refused_even_forced(&project, "kattis", "attachments/leak");
}

#[test]
fn a_contest_gives_one_zip_per_package_in_the_folder() {
    let project = Project::new();
    crate::verify_domjudge::twice(&project);
    std::fs::create_dir(project.path().join("contest")).unwrap();
    std::fs::rename(
        project.path().join("twice"),
        project.path().join("contest/twice"),
    )
    .unwrap();
    // A statement built as DOMjudge reads it goes along.
    project.file("contest/twice/problem_statement/problem.pdf", b"%PDF-1.4\n");
    // A folder that is no package is passed over, and said so once.
    project.file("contest/notes/todo.txt", "later\n");
    let args = [
        "export", "contest", "--to", "domjudge", "-o", "zips", "--force",
    ];
    let exported = project.grundy(&args);
    assert_eq!(code(&exported), 0, "{}", dump(&exported));
    assert_eq!(tree(&project.path().join("zips")), ["twice.zip"]);
    let entries = unzip(&project.path().join("zips/twice.zip"));
    assert!(
        entries
            .iter()
            .any(|(name, bytes)| name == "problem_statement/problem.pdf" && bytes == b"%PDF-1.4\n"),
        "{:?}",
        entries.iter().map(|(name, _)| name).collect::<Vec<_>>()
    );
    assert!(
        !stderr(&exported).contains("no statement"),
        "{}",
        dump(&exported)
    );
    let skipped = stderr(&exported).matches("skipped contest/notes").count();
    assert_eq!(skipped, 1, "{}", dump(&exported));
}

#[test]
fn a_statement_named_for_its_language_goes_where_domjudge_reads_one() {
    let project = Project::new();
    crate::verify_domjudge::twice(&project);
    // DOMjudge reads `problem.pdf`, never `problem.en.pdf`: the English one is carried as that.
    project.file("twice/statement/problem.nl.pdf", b"%PDF-1.4 nl\n");
    project.file("twice/statement/problem.en.pdf", b"%PDF-1.4 en\n");
    let exported = exported_forced(&project);
    let entries = unzip(&project.path().join("twice.zip"));
    let statements: Vec<(&str, &[u8])> = entries
        .iter()
        .filter(|(name, _)| name.ends_with(".pdf"))
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    assert_eq!(statements, [("problem.pdf", &b"%PDF-1.4 en\n"[..])]);
    assert!(
        !stderr(&exported).contains("no statement"),
        "{}",
        dump(&exported)
    );
}

#[test]
fn an_ini_domjudge_could_not_parse_is_not_exported() {
    let project = Project::new();
    crate::verify_domjudge::twice(&project);
    // DOMjudge would ignore all of it, the exported time limit too.
    project.file(
        "twice/domjudge-problem.ini",
        "name = \"Twice\"\ntimelimit = 3\ncolor\n",
    );
    refused_even_forced(&project, "domjudge", "domjudge-problem.ini:3:1:");
}

/// `grundy export twice --to TO -o twice.zip --force` ends with an error (exit 2) that says
/// `says`, and writes nothing.
fn refused_even_forced(project: &Project, to: &str, says: &str) {
    let args = [
        "export",
        "twice",
        "--to",
        to,
        "-o",
        "out/twice.zip",
        "--force",
    ];
    let refused = project.grundy(&args);
    assert_eq!(code(&refused), 2, "{}", dump(&refused));
    assert!(stderr(&refused).contains(says), "{}", dump(&refused));
    // The zip is written into a temporary file beside it as it is made: one cut short by the
    // error is removed, not left beside where the zip would have been.
    let out = std::fs::read_dir(project.path().join("out")).map_or(vec![], |entries| {
        entries.map(|entry| entry.unwrap().file_name()).collect()
    });
    assert!(out.is_empty(), "{out:?}");
}

#[test]
#[cfg_attr(
    not(verifyproblem),
    ignore = "needs problemtools' verifyproblem on the PATH (pip install problemtools), and pypy3"
)]
fn verifyproblem_finds_no_error_in_an_unpacked_kattis_export() {
    let project = Project::new();
    project.scaffold("legacy", &["--format", "legacy", "--lang", "python"]);
    let exported = project.grundy(&["export", "legacy", "--to", "kattis", "-o", "legacy.zip"]);
    assert_eq!(code(&exported), 0, "{}", dump(&exported));
    unpack(
        &project,
        "unpacked",
        &unzip(&project.path().join("legacy.zip")),
    );
    // The statement is left out: rendering it takes TeX Live and pandoc.
    let parts = ["-p", "config", "data", "validators", "submissions"];
    let (status, said) = crate::new_package::peer(
        &project.path().join("unpacked"),
        "verifyproblem",
        &[&["legacy"][..], &parts].concat(),
    );
    assert_eq!(status, 0, "{said}");
    assert!(said.contains("legacy tested: 0 errors"), "{said}");
}
