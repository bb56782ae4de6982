use super::*;
use std::os::unix::fs::symlink;

/// A package tree holding `files` (path, contents), and beside it (outside it) `secret`.
fn package(files: &[(&str, &str)]) -> (tempfile::TempDir, Tree) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret"), "outside\n").unwrap();
    let root = dir.path().join("pkg");
    std::fs::create_dir(&root).unwrap();
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let tree = Tree::open(&root, Scope::Package).unwrap();
    (dir, tree)
}

/// Opens `relative` for reading both ways, by `openat2` (where the kernel has it) and by
/// the walk, which must agree; the contents read, or the open's error.
fn read_both(tree: &Tree, relative: &str) -> Result<String, OpenError> {
    let by_walk = walk::walk(tree.fd().unwrap(), Path::new(relative), Want::File)
        .map_err(|why| tree.join(relative).error(why))
        .and_then(|fd| {
            let file = File::from(fd);
            match file.metadata() {
                Ok(m) if m.is_file() => Ok(file),
                _ => Err(tree.join(relative).error(Why::NotFile("other"))),
            }
        })
        .map(|file| {
            let size = file.metadata().unwrap().len();
            String::from_utf8(read_whole(file, size).unwrap()).unwrap()
        });
    let by_open = tree
        .join(relative)
        .read()
        .map(|bytes| String::from_utf8(bytes).unwrap());
    match (&by_walk, &by_open) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{relative}"),
        (Err(_), Err(_)) => {}
        _ => panic!("{relative}: the walk gives {by_walk:?}, the open {by_open:?}"),
    }
    by_open
}

#[test]
fn files_of_any_size_are_read_whole() {
    let (_dir, tree) = package(&[]);
    let first = FIRST_READ;
    for size in [
        0usize,
        1,
        31,
        4096,
        first - 1,
        first,
        first + 1,
        65_537,
        1 << 20,
    ] {
        let bytes: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(tree.path().join(format!("f{size}")), &bytes).unwrap();
        assert_eq!(tree.join(format!("f{size}")).read().unwrap(), bytes);
    }
    assert!(tree.join("missing").read().unwrap_err().is_missing());
}

#[test]
fn paths_and_links_within_the_tree_are_followed() {
    let (_dir, tree) = package(&[("data/sample/1.in", "5\n")]);
    let secret = tree.path().join("data/secret");
    std::fs::create_dir(&secret).unwrap();
    symlink("../sample/1.in", secret.join("1.in")).unwrap();
    symlink("../sample", secret.join("group")).unwrap();
    // `..` after a link is taken from where the link leads (data/sample/..), as the kernel does.
    symlink("group/../sample/1.in", secret.join("chained.in")).unwrap();
    for path in [
        "data/sample/1.in",
        "data/secret/1.in",
        "data/secret/group/1.in",
        "data/secret/chained.in",
        "data/secret/../sample/1.in",
        "./data/sample/../sample/1.in",
    ] {
        assert_eq!(read_both(&tree, path).unwrap(), "5\n", "{path}");
    }
    assert_eq!(tree.join("data/secret/group").path(), secret.join("group"));
    assert_eq!(
        tree.join("data/secret/group").relative(),
        Path::new("data/secret/group")
    );
}

#[test]
fn paths_and_links_leaving_the_tree_are_refused_naming_the_link() {
    let (dir, tree) = package(&[("data/1.in", "")]);
    let data = tree.path().join("data");
    symlink("../../secret", data.join("up.ans")).unwrap();
    symlink(dir.path().join("secret"), data.join("absolute.ans")).unwrap();
    symlink(data.join("1.in"), data.join("inside.ans")).unwrap();
    symlink("../..", data.join("up2")).unwrap();
    for (path, reason) in [
        ("../secret", "not a path within the package"),
        ("data/../../secret", "not a path within the package"),
        ("/etc/hostname", "not a path within the package"),
        (
            "data/up.ans",
            "links outside the package (to ../../secret); the format allows links only within it",
        ),
        ("data/up2/secret", "links outside the package (to ../..)"),
        ("data/absolute.ans", "links outside the package (to /"),
        ("data/inside.ans", "an absolute link (to /"),
    ] {
        let error = read_both(&tree, path).unwrap_err().reason();
        assert!(error.starts_with(reason), "{path}: {error}");
    }
    let error = tree.join("data/up.ans").read().unwrap_err();
    assert_eq!(error.file(), data.join("up.ans"));
    let error = tree.join("data/up2/secret").read().unwrap_err();
    assert_eq!(
        error.file(),
        data.join("up2"),
        "the link that leaves is named"
    );
    assert!(!error.to_string().contains("outside\n"));
}

#[test]
fn loops_of_links_end() {
    let (_dir, tree) = package(&[]);
    symlink("b", tree.path().join("a")).unwrap();
    symlink("a", tree.path().join("b")).unwrap();
    let error = read_both(&tree, "a").unwrap_err().reason();
    assert!(error.contains("a loop of links"), "{error}");
}

#[test]
fn a_fifo_or_a_folder_is_not_a_file_and_the_open_does_not_wait() {
    let (_dir, tree) = package(&[("data/1.ans", "")]);
    let fifo = tree.path().join("data/1.in");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let error = read_both(&tree, "data/1.in").unwrap_err().reason();
    assert!(
        error.starts_with("a FIFO (named pipe), not a regular file"),
        "{error}"
    );
    let folder = tree.join("data");
    for error in [folder.open().unwrap_err(), folder.read().unwrap_err()] {
        let error = error.to_string();
        assert!(
            error.ends_with("data: a directory, not a regular file; only regular files are read"),
            "{error}"
        );
    }
    assert_eq!(
        tree.join("data/1.in").kind().unwrap(),
        Some(Kind::Other("a FIFO (named pipe)"))
    );
    let error = tree.join("data/1.ans").list().unwrap_err().reason();
    assert_eq!(error, "a regular file, not a folder");
}

#[test]
fn what_was_opened_is_read_after_its_path_becomes_a_link_outside() {
    let (dir, tree) = package(&[("data/1.ans", "the answer\n")]);
    let answer = tree.join("data/1.ans");
    let mut opened = answer.open().unwrap();
    let swapped = tree.path().join("data/swap");
    symlink(dir.path().join("secret"), &swapped).unwrap();
    std::fs::rename(&swapped, answer.path()).unwrap();
    let mut text = String::new();
    opened.read_to_string(&mut text).unwrap();
    assert_eq!(text, "the answer\n");
    let error = answer.read().unwrap_err().to_string();
    assert!(
        error.contains("links outside the package") && !error.contains("outside\n"),
        "{error}"
    );
}

#[test]
fn kinds_and_listings_follow_links_within_the_tree() {
    let (_dir, tree) = package(&[("data/b", ""), ("data/a/1.in", "")]);
    symlink("a", tree.path().join("data/c")).unwrap();
    symlink("nowhere", tree.path().join("data/dangling")).unwrap();
    assert_eq!(
        tree.join("data").list().unwrap(),
        ["a", "b", "c", "dangling"]
    );
    assert_eq!(tree.join("data/b").kind().unwrap(), Some(Kind::File));
    assert_eq!(tree.join("data/dangling").kind().unwrap(), None);
    assert_eq!(tree.join("data/missing").kind().unwrap(), None);
    let (a, c) = (
        tree.join("data/a").kind().unwrap(),
        tree.join("data/c").kind().unwrap(),
    );
    assert!(
        matches!(a, Some(Kind::Folder(_))) && a == c,
        "one folder, two paths"
    );
    assert_eq!(tree.join("").list().unwrap(), ["data"]);
}

#[test]
fn paths_below_the_root_are_named_in_full_and_relative() {
    let (_dir, tree) = package(&[]);
    let case = tree.at(tree.path().join("data/secret/1"));
    assert_eq!(case.relative(), Path::new("data/secret/1"));
    assert_eq!(
        case.with_suffix(".ans").path(),
        tree.path().join("data/secret/1.ans")
    );
    assert_eq!(case, tree.join("data/secret/1"));
    assert_eq!(tree.at(tree.path().to_path_buf()).relative(), Path::new(""));
}

#[test]
fn a_write_makes_its_folders_and_never_passes_a_link_even_one_within_the_tree() {
    use crate::files::{Entry, Existing};
    let (dir, tree) = package(&[("data/sample/1.in", "5\n")]);
    tree.join("data/secret/deep/1.in")
        .write(b"1\n", Existing::Keep)
        .unwrap();
    let written = tree.path().join("data/secret/deep/1.in");
    assert_eq!(std::fs::read(&written).unwrap(), b"1\n");
    symlink("sample", tree.path().join("data/inside")).unwrap();
    let refused = tree
        .join("data/inside/2.in")
        .write(b"2\n", Existing::Keep)
        .unwrap_err();
    let inside = tree.path().join("data/inside");
    assert!(refused
        .to_string()
        .starts_with(&format!("`{}`:", inside.display())));
    assert!(refused.reason().contains("symbolic link"), "{refused}");
    assert!(!tree.path().join("data/sample/2.in").exists());
    for path in ["../escaped", "/tmp/escaped", "data/../x"] {
        let refused = tree.join(path).write(b"", Existing::Keep).unwrap_err();
        assert!(refused.reason().contains("not a plain path"), "{refused}");
    }
    let refused = tree.join("data/inside/1.in").entry().unwrap_err();
    assert!(refused
        .to_string()
        .starts_with(&format!("`{}`:", inside.display())));
    assert_eq!(
        tree.join("data/nowhere/1.in").entry().unwrap(),
        Entry::Missing
    );
    assert!(tree.join("data/secret/deep/1.in").remove().unwrap());
    assert!(!dir.path().join("escaped").exists());
}

#[test]
fn a_folder_swapped_for_a_link_outside_between_open_and_write_fails_the_write() {
    use crate::files::Existing;
    let (dir, tree) = package(&[("data/secret/1.in", "1\n")]);
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let file = tree.join("data/secret/2.in");
    // Checked and opened as a folder, then swapped, as a generator running meanwhile could.
    assert!(tree
        .join("data/secret")
        .open_folder(false)
        .unwrap()
        .is_some());
    let data = tree.path().join("data");
    std::fs::rename(&data, dir.path().join("moved")).unwrap();
    symlink(&outside, &data).unwrap();
    let refused = file.write(b"2\n", Existing::Keep).unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with(&format!("`{}`:", data.display())),
        "the link is named: {refused}"
    );
    assert!(refused.reason().contains("symbolic link"), "{refused}");
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
    // A subtree (a package's data/ as a store's root) stays where it was opened.
    std::fs::remove_file(&data).unwrap();
    std::fs::rename(dir.path().join("moved"), &data).unwrap();
    let subtree = tree.join("data").subtree(Scope::Package).unwrap();
    std::fs::rename(&data, dir.path().join("moved")).unwrap();
    symlink(&outside, &data).unwrap();
    subtree
        .join("secret/3.in")
        .write(b"3\n", Existing::Keep)
        .unwrap();
    assert!(dir.path().join("moved/secret/3.in").exists());
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
}
