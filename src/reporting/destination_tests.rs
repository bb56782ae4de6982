use super::*;
use std::io::Read;
use std::os::unix::fs::{symlink, OpenOptionsExt};

fn at(path: &Path, follow_links: bool) -> Destination {
    Destination {
        path: path.to_path_buf(),
        follow_links,
    }
}

/// Why writing `bytes` to `destination` failed, as the typed error.
fn refused(destination: &Destination) -> DestinationError {
    destination.write(b"report").unwrap_err()
}

#[test]
fn a_new_name_gets_its_folders_and_a_regular_file_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/report.xml");
    at(&path, false).write(b"one").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"one");
    at(&path, false).write(b"two").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"two");
}

#[test]
fn a_link_is_refused_naming_where_it_leads_unless_followed_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (link, middle, target) = (
        dir.path().join("report.xml"),
        dir.path().join("middle.xml"),
        dir.path().join("target.xml"),
    );
    std::fs::write(&target, "theirs").unwrap();
    symlink("middle.xml", &link).unwrap();
    symlink(&target, &middle).unwrap();
    match refused(&at(&link, false)) {
        DestinationError::Link { path, target } => {
            assert_eq!(path, link);
            assert_eq!(target, Path::new("middle.xml"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(std::fs::read(&target).unwrap(), b"theirs");
    at(&link, true).write(b"report").unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"report");
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert!(middle.symlink_metadata().unwrap().is_symlink());

    // Followed to nothing: a new file where the last link leads.
    let dangling = dir.path().join("dangling.xml");
    symlink("sub/new.xml", &dangling).unwrap();
    at(&dangling, true).write(b"new").unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("sub/new.xml")).unwrap(),
        b"new"
    );

    let looped = dir.path().join("loop.xml");
    symlink("loop.xml", &looped).unwrap();
    assert!(matches!(
        refused(&at(&looped, true)),
        DestinationError::TooManyLinks(_)
    ));
}

#[test]
fn a_folder_and_a_path_naming_no_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("reports");
    std::fs::create_dir(&folder).unwrap();
    let error = refused(&at(&folder, false));
    assert!(
        matches!(
            error,
            DestinationError::Unwritable {
                kind: FileType::Directory,
                ..
            }
        ),
        "{error}"
    );
    assert!(folder.is_dir());
    for path in [folder.join(".."), PathBuf::from("/")] {
        let error = refused(&at(&path, false));
        assert!(matches!(error, DestinationError::NoName(_)), "{error}");
    }
}

#[test]
fn a_fifo_is_written_into_and_stays_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    // A reader (and writer) already there: the report's open does not wait.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&fifo)
        .unwrap();
    at(&fifo, false).write(b"report").unwrap();
    let mut read = [0u8; 16];
    let size = reader.read(&mut read).unwrap();
    assert_eq!(&read[..size], b"report");
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
}
