use super::*;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};

fn folder() -> (tempfile::TempDir, Folder) {
    let dir = tempfile::tempdir().unwrap();
    let folder = Folder::open(dir.path()).unwrap();
    (dir, folder)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success());
}

#[test]
fn a_file_is_written_whole_kept_unless_asked_and_replaced_with_its_permissions() {
    let (dir, folder) = folder();
    let name = OsStr::new("a.out");
    folder.write(name, b"one", Existing::Keep).unwrap();
    assert_eq!(std::fs::read(dir.path().join("a.out")).unwrap(), b"one");
    let refused = folder.write(name, b"two", Existing::Keep).unwrap_err();
    assert!(refused.already_exists(), "{refused}");
    assert!(
        refused.to_string().contains("refusing to overwrite"),
        "{refused}"
    );
    std::fs::set_permissions(dir.path().join("a.out"), PermissionsExt::from_mode(0o640)).unwrap();
    folder.write(name, b"three", Existing::Replace).unwrap();
    assert_eq!(std::fs::read(dir.path().join("a.out")).unwrap(), b"three");
    let mode = std::fs::metadata(dir.path().join("a.out"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o640);
    assert_eq!(names(dir.path()), ["a.out"], "no temporary file is left");
}

#[test]
fn nothing_but_a_regular_file_is_ever_replaced() {
    let (dir, folder) = folder();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("target");
    std::fs::write(&target, "theirs").unwrap();
    symlink(&target, dir.path().join("link")).unwrap();
    mkfifo(&dir.path().join("fifo"));
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    for (name, kind) in [
        ("link", "a symbolic link"),
        ("fifo", "a FIFO"),
        ("folder", "a directory"),
    ] {
        for existing in [Existing::Keep, Existing::Replace] {
            let refused = folder
                .write(OsStr::new(name), b"x", existing)
                .unwrap_err()
                .to_string();
            assert!(refused.contains(kind), "{name}: {refused}");
            assert!(refused.contains("never replaces"), "{name}: {refused}");
        }
    }
    assert!(dir
        .path()
        .join("link")
        .symlink_metadata()
        .unwrap()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"theirs");
    let fifo = dir.path().join("fifo").symlink_metadata().unwrap();
    assert!(fifo.file_type().is_fifo());
    assert_eq!(names(dir.path()), ["fifo", "folder", "link"]);
}

#[test]
fn folders_are_made_and_opened_never_through_a_link() {
    let (dir, folder) = folder();
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), dir.path().join("link")).unwrap();
    std::fs::write(dir.path().join("file"), "").unwrap();
    let made = folder.make_folder(OsStr::new("new")).unwrap();
    made.write(OsStr::new("a"), b"a", Existing::Keep).unwrap();
    assert_eq!(std::fs::read(dir.path().join("new/a")).unwrap(), b"a");
    assert!(folder
        .create_folder(OsStr::new("new"))
        .unwrap_err()
        .already_exists());

    let refused = folder.make_folder(OsStr::new("link")).unwrap_err();
    assert!(refused.is_not_folder(), "{refused}");
    let link = dir.path().join("link");
    assert!(refused
        .to_string()
        .starts_with(&format!("`{}`:", link.display())));
    assert!(refused.reason().contains("symbolic link"), "{refused}");
    let refused = folder.open_folder(OsStr::new("file")).unwrap_err();
    assert!(
        refused.reason().contains("a regular file, not a folder"),
        "{refused}"
    );
    assert!(folder.open_folder(OsStr::new("missing")).unwrap().is_none());
    for name in ["", ".", "..", "a/b"] {
        let refused = folder.make_folder(OsStr::new(name)).unwrap_err();
        assert!(
            refused.reason().contains("not a plain path"),
            "{name:?}: {refused}"
        );
    }
    assert!(names(outside.path()).is_empty());
}

#[test]
fn a_folder_moved_away_after_it_was_opened_keeps_what_is_written_in_it() {
    let (dir, root) = folder();
    let data = root.make_folder(OsStr::new("data")).unwrap();
    // Swapped for a link to a folder outside once opened: the write goes where it was opened.
    let outside = tempfile::tempdir().unwrap();
    std::fs::rename(dir.path().join("data"), dir.path().join("moved")).unwrap();
    symlink(outside.path(), dir.path().join("data")).unwrap();
    data.write(OsStr::new("a.in"), b"1\n", Existing::Keep)
        .unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("moved/a.in")).unwrap(),
        b"1\n"
    );
    assert!(names(outside.path()).is_empty());
}

#[test]
fn a_removal_takes_regular_files_only_and_a_read_follows_no_link() {
    let (dir, folder) = folder();
    std::fs::write(dir.path().join("a"), "abc").unwrap();
    symlink("a", dir.path().join("link")).unwrap();
    assert_eq!(folder.read(OsStr::new("a"), 2).unwrap().unwrap(), b"ab");
    assert!(folder.read(OsStr::new("missing"), 2).unwrap().is_none());
    assert!(folder.read(OsStr::new("link"), 2).is_err());
    assert!(folder.remove_file(OsStr::new("link")).is_err());
    assert!(folder.remove_file(OsStr::new("a")).unwrap());
    assert!(!folder.remove_file(OsStr::new("a")).unwrap());
    assert_eq!(names(dir.path()), ["link"]);
}

#[test]
fn temporary_names_look_like_the_ones_discovery_sweeps() {
    let drawn: Vec<OsString> = (0..100).map(|_| temporary_name()).collect();
    for name in &drawn {
        assert!(
            super::super::store::is_stale_temporary(name.as_bytes()),
            "{name:?}"
        );
    }
    let mut distinct = drawn.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), drawn.len());
}

#[test]
fn a_write_its_filler_fails_leaves_nothing_and_replaces_nothing() {
    let (dir, folder) = folder();
    let name = OsStr::new("made.zip");
    let failed: Result<(), WriteError> = folder.write_with(name, Existing::Keep, |file| {
        file.write_all(b"half").unwrap();
        Err(WriteError::io(
            &dir.path().join("made.zip"),
            io::Error::other("cut short"),
        ))
    });
    assert!(failed.is_err());
    assert_eq!(
        names(dir.path()),
        Vec::<String>::new(),
        "no temporary file left"
    );
    folder.write(name, b"old", Existing::Keep).unwrap();
    let failed: Result<(), WriteError> = folder.write_with(name, Existing::Replace, |_| {
        Err(WriteError::io(
            &dir.path().join("made.zip"),
            io::Error::other("cut short"),
        ))
    });
    assert!(failed.is_err());
    assert_eq!(std::fs::read(dir.path().join("made.zip")).unwrap(), b"old");
    assert_eq!(names(dir.path()), ["made.zip"]);
    let made: Result<u8, WriteError> = folder.write_with(name, Existing::Replace, |file| {
        file.write_all(b"new")
            .map_err(|error| WriteError::io(dir.path(), error))?;
        Ok(3)
    });
    assert_eq!(made.unwrap(), 3);
    assert_eq!(std::fs::read(dir.path().join("made.zip")).unwrap(), b"new");
}
