use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::Path;

use super::*;

/// A small package: a sample case, an accepted and a rejected submission, grundy's manifest.
fn package(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("hello");
    for (path, text) in [
        ("problem.yaml", "name: Hello\n"),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "2\n"),
        ("data/.grundy-generated.json", "{}"),
        ("submissions/accepted/a.py", "print(2)\n"),
        ("submissions/rejected/r.py", "print(3)\n"),
    ] {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    root
}

/// The archive of the package at `root` for `target`, and its zip's bytes.
fn zipped(
    root: &Path,
    target: Target,
    limit: Option<std::time::Duration>,
) -> Result<(Archive, Vec<u8>), ExportError> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    let made = super::package(root, target, limit, &mut bytes)?;
    Ok((made, bytes.into_inner()))
}

/// The names and contents of a zip's entries, read back by the zip crate.
fn unzip(bytes: &[u8]) -> Vec<(String, String)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            (file.name().unwrap().to_string(), text)
        })
        .collect()
}

#[test]
fn kattis_is_the_package_below_its_name_less_grundys_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = package(dir.path());
    let (_, bytes) = zipped(&root, Target::Kattis, None).unwrap();
    let names: Vec<String> = unzip(&bytes).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "hello/data/sample/1.ans",
            "hello/data/sample/1.in",
            "hello/problem.yaml",
            "hello/submissions/accepted/a.py",
            "hello/submissions/rejected/r.py",
        ]
    );
}

#[test]
fn domjudge_takes_what_it_imports_and_tells_the_submissions_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let root = package(dir.path());
    let limit = Some(std::time::Duration::from_millis(1500));
    let (made, bytes) = zipped(&root, Target::Domjudge, limit).unwrap();
    let entries = unzip(&bytes);
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "data/sample/1.ans",
            "data/sample/1.in",
            "domjudge-problem.ini",
            "problem.yaml",
            "submissions/accepted/a.py",
        ]
    );
    assert_eq!(entries[2].1, "timelimit = 1.5\n");
    assert_eq!(made.left_out, ["submissions/rejected/r.py"]);
}

#[test]
fn a_statement_named_for_its_language_is_the_english_one_else_the_first() {
    let paths = |list: &[&str]| -> Vec<String> { list.iter().map(|p| p.to_string()).collect() };
    let found = |list: &[&str]| {
        let list = paths(list);
        domjudge::statement_in_a_language(&list).map(str::to_string)
    };
    let english = [
        "problem.de.pdf",
        "statement/problem.en.pdf",
        "statement/problem.nl.pdf",
    ];
    assert_eq!(found(&english).as_deref(), Some("statement/problem.en.pdf"));
    let others = [
        "problem_statement/problem.pt-BR.pdf",
        "statement/problem.nl.pdf",
    ];
    assert_eq!(
        found(&others).as_deref(),
        Some("problem_statement/problem.pt-BR.pdf")
    );
    assert_eq!(
        found(&["problem.en.pdf"]).as_deref(),
        Some("problem.en.pdf")
    );
    // Not a statement: LaTeX, deeper folders, a name with no language, other files.
    let none = [
        "problem_statement/problem.en.tex",
        "statement/images/problem.en.pdf",
        "attachments/problem.en.pdf",
        "problem..pdf",
        "problem.e n.pdf",
        "statement/problem.en.pdf.txt",
    ];
    assert_eq!(found(&none), None);
}

#[test]
fn the_same_files_make_the_same_bytes_whatever_their_dates() {
    let dir = tempfile::tempdir().unwrap();
    let root = package(dir.path());
    let (_, first) = zipped(&root, Target::Kattis, None).unwrap();
    let file = fs::File::options()
        .write(true)
        .open(root.join("problem.yaml"))
        .unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH)
        .unwrap();
    assert_eq!(zipped(&root, Target::Kattis, None).unwrap().1, first);
}

#[test]
fn a_link_within_the_package_is_what_it_leads_to() {
    let dir = tempfile::tempdir().unwrap();
    let root = package(dir.path());
    symlink(
        "../../submissions/accepted/a.py",
        root.join("data/sample/copy.py"),
    )
    .unwrap();
    let (_, bytes) = zipped(&root, Target::Kattis, None).unwrap();
    let entries = unzip(&bytes);
    let copy = entries
        .iter()
        .find(|(n, _)| n == "hello/data/sample/copy.py");
    assert_eq!(copy.map(|(_, t)| t.as_str()), Some("print(2)\n"));
}

#[test]
fn a_link_out_of_the_package_or_looping_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = package(dir.path());
    fs::write(dir.path().join("secret"), "outside").unwrap();
    symlink("../../secret", root.join("data/leak")).unwrap();
    let error = zipped(&root, Target::Kattis, None).err().unwrap();
    assert!(
        matches!(&error, ExportError::Unreadable(e) if e.leads_outside()),
        "{error}"
    );
    fs::remove_file(root.join("data/leak")).unwrap();
    symlink("..", root.join("data/sample/up")).unwrap();
    let error = zipped(&root, Target::Kattis, None).err().unwrap();
    assert!(
        matches!(&error, ExportError::LinkLoop(p) if p.ends_with("data/sample/up")),
        "{error}"
    );
}
