use super::journal::{PLAN, PLAN_PARTIAL};
use super::lock::LOCK_FILE;
use super::*;

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            e.path().strip_prefix(dir).unwrap().display().to_string()
        })
        .collect();
    names.sort();
    names
}

/// A journal as a writer killed at some point would leave it: staged files by number, and
/// the plan if it had committed.
fn interrupted(root: &Path, staged: &[(usize, &str)], plan: Option<&[&str]>) {
    let journal = root.join(JOURNAL);
    fs::create_dir_all(&journal).unwrap();
    for (index, contents) in staged {
        fs::write(journal.join(index.to_string()), contents).unwrap();
    }
    if let Some(plan) = plan {
        fs::write(journal.join(PLAN), serde_json::to_vec(plan).unwrap()).unwrap();
    }
}

#[test]
fn creates_every_file_and_leaves_no_journal() {
    let root = tempfile::tempdir().unwrap();
    let input = root.path().join("nim/group/a.in");
    let output = root.path().join("nim/group/a.out");
    let writer = Writer::open(root.path()).unwrap();
    writer
        .create(&[(&input, b"1\n"), (&output, b"win\n")])
        .unwrap();
    assert_eq!(fs::read(&output).unwrap(), b"win\n");
    assert_eq!(
        listing(root.path()),
        ["nim", "nim/group", "nim/group/a.in", "nim/group/a.out"]
    );

    let err = writer
        .create(&[
            (&root.path().join("nim/group/b.in"), b"2\n"),
            (&output, b"x\n"),
        ])
        .unwrap_err();
    assert!(format!("{err:#}").contains("already exists"), "{err:#}");
    assert!(
        !root.path().join("nim/group/b.in").exists(),
        "all or nothing"
    );
    writer.replace(&output, b"lose\n").unwrap();
    assert_eq!(fs::read(&output).unwrap(), b"lose\n");
    assert!(!root.path().join(JOURNAL).exists());
}

#[test]
fn a_committed_write_is_rolled_forward_and_an_uncommitted_one_back() {
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("nim")).unwrap();
    // Killed after the commit, with the input already in place.
    fs::write(root.path().join("nim/a.in"), "1\n").unwrap();
    interrupted(
        root.path(),
        &[(1, "win\n"), (2, "recipe\n")],
        Some(&["nim/a.in", "nim/a.out", "nim/a.gen"]),
    );
    drop(lock_for_reading(root.path()));
    assert_eq!(
        listing(root.path()),
        ["nim", "nim/a.gen", "nim/a.in", "nim/a.out"]
    );
    assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"win\n");

    // Killed before the commit: staged files, one cut short, and a partial plan.
    interrupted(root.path(), &[(0, "2\n"), (1, "wi")], None);
    fs::write(
        root.path().join(JOURNAL).join(PLAN_PARTIAL),
        "[\"nim/b.in\"",
    )
    .unwrap();
    drop(Writer::open(root.path()).unwrap());
    assert_eq!(
        listing(root.path()),
        ["nim", "nim/a.gen", "nim/a.in", "nim/a.out"]
    );
}

#[test]
fn recovery_makes_a_case_folder_that_did_not_survive() {
    let root = tempfile::tempdir().unwrap();
    interrupted(
        root.path(),
        &[(0, "1\n"), (1, "win\n")],
        Some(&["nim/new/group/a.in", "nim/new/group/a.out"]),
    );
    drop(Writer::open(root.path()).unwrap());
    assert_eq!(
        listing(root.path()),
        [
            "nim",
            "nim/new",
            "nim/new/group",
            "nim/new/group/a.in",
            "nim/new/group/a.out"
        ]
    );
}

#[test]
fn recovery_never_replaces_and_ignores_a_plan_leading_out_of_the_root() {
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("nim")).unwrap();
    fs::write(root.path().join("nim/a.out"), "mine\n").unwrap();
    interrupted(
        root.path(),
        &[(0, "1\n"), (1, "win\n")],
        Some(&["nim/a.in", "nim/a.out"]),
    );
    drop(lock_for_reading(root.path()));
    assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"mine\n");
    assert_eq!(fs::read(root.path().join("nim/a.in")).unwrap(), b"1\n");
    assert!(!root.path().join(JOURNAL).exists());

    interrupted(root.path(), &[(0, "x")], Some(&["../escaped"]));
    drop(lock_for_reading(root.path()));
    assert!(!root.path().parent().unwrap().join("escaped").exists());
    assert!(!root.path().join(JOURNAL).exists());
}

#[test]
fn a_lock_file_once_made_is_the_lock() {
    use rustix::fs::{flock, FlockOperation::NonBlockingLockExclusive};
    use rustix::io::Errno;
    use std::fs::File;
    let root = tempfile::tempdir().unwrap();
    let writer = Writer::open(root.path()).unwrap();
    let folder = File::open(root.path()).unwrap();
    assert_eq!(
        flock(&folder, NonBlockingLockExclusive),
        Err(Errno::WOULDBLOCK)
    );
    drop(writer);
    assert_eq!(flock(&folder, NonBlockingLockExclusive), Ok(()));
    drop(folder);

    // As on NFS, where the first writer made it.
    let lock_file = root.path().join(LOCK_FILE);
    fs::write(&lock_file, "").unwrap();
    let reader = lock_for_reading(root.path()).unwrap();
    let file = File::open(&lock_file).unwrap();
    assert_eq!(
        flock(&file, NonBlockingLockExclusive),
        Err(Errno::WOULDBLOCK)
    );
    drop(reader);
    let writer = Writer::open(root.path()).unwrap();
    assert_eq!(
        flock(&file, NonBlockingLockExclusive),
        Err(Errno::WOULDBLOCK)
    );
    drop(writer);
    assert_eq!(flock(&file, NonBlockingLockExclusive), Ok(()));
}

#[test]
fn non_regular_files_are_never_replaced() {
    let root = tempfile::tempdir().unwrap();
    let fifo = root.path().join("nim/a.out");
    fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let writer = Writer::open(root.path()).unwrap();
    let err = writer.replace(&fifo, b"x").unwrap_err();
    assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
    let err = writer
        .create(&[(&root.path().join("nim/a.in"), b"1\n"), (&fifo, b"x")])
        .unwrap_err();
    assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
    assert!(!root.path().join("nim/a.in").exists());
    let err = require_plain_path(root.path(), Path::new("nim/a.out/b.in")).unwrap_err();
    assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
}

#[test]
fn a_case_folder_swapped_for_a_link_after_the_lock_is_taken_gets_nothing() {
    use std::os::unix::fs::symlink;
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("nim")).unwrap();
    fs::write(root.path().join("nim/b.out"), "old\n").unwrap();
    let writer = Writer::open(root.path()).unwrap();
    fs::rename(root.path().join("nim"), root.path().join("moved")).unwrap();
    symlink(outside.path(), root.path().join("nim")).unwrap();
    let (input, output) = (root.path().join("nim/a.in"), root.path().join("nim/a.out"));
    let err = writer
        .create(&[(&input, b"1\n"), (&output, b"win\n")])
        .unwrap_err();
    assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
    fs::write(outside.path().join("b.out"), "theirs\n").unwrap();
    let err = writer.replace(&root.path().join("nim/b.out"), b"new\n");
    assert!(format!("{:#}", err.unwrap_err()).contains("symbolic link"));
    assert_eq!(listing(outside.path()), ["b.out"]);
    assert_eq!(fs::read(outside.path().join("b.out")).unwrap(), b"theirs\n");
    drop(writer);

    // Nor does recovery finish a write through it.
    interrupted(
        root.path(),
        &[(0, "1\n"), (1, "win\n")],
        Some(&["nim/a.in", "nim/a.out"]),
    );
    drop(lock_for_reading(root.path()));
    assert_eq!(listing(outside.path()), ["b.out"]);
    assert!(!root.path().join(JOURNAL).exists());
}
