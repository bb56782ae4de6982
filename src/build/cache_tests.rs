//! Tests of the build cache (cache.rs) on temporary folders: publishing, verification before
//! use, and the sweep under the folder's lock.

use super::*;

const KEY: &str = "0123456789abcdef0123456789abcdef";

/// Publishes a build of `files` under [`KEY`] in `folder`.
fn publish(folder: &Path, files: &[(&str, &[u8])]) {
    let cache = Cache::open(folder).unwrap();
    let staging = cache.stage(KEY).unwrap();
    for (name, bytes) in files {
        let path = staging.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    staging.publish().unwrap();
}

/// The names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_published_build_is_found_and_a_damaged_one_is_removed() {
    type Damage = fn(&Path);
    let damages: [(&str, Damage); 6] = [
        ("same size, other bytes", |e| {
            std::fs::write(e.join("main"), b"MAIN").unwrap()
        }),
        ("truncated", |e| {
            std::fs::write(e.join("main"), b"").unwrap()
        }),
        ("a file removed", |e| {
            std::fs::remove_file(e.join("lib/helper")).unwrap()
        }),
        ("a file added", |e| {
            std::fs::write(e.join("extra"), b"").unwrap()
        }),
        ("no manifest", |e| {
            std::fs::remove_file(e.join(MANIFEST)).unwrap()
        }),
        ("a link instead of a file", |e| {
            std::fs::remove_file(e.join("main")).unwrap();
            std::os::unix::fs::symlink("/bin/sh", e.join("main")).unwrap();
        }),
    ];
    for (what, damage) in damages {
        let dir = tempfile::tempdir().unwrap();
        publish(dir.path(), &[("main", b"main"), ("lib/helper", b"h")]);
        let cache = Cache::open(dir.path()).unwrap();
        assert!(cache.lookup(KEY).unwrap(), "{what}: whole");
        assert!(!cache.lookup("ffffffffffffffffffffffffffffffff").unwrap());
        damage(&dir.path().join(KEY));
        assert!(!cache.lookup(KEY).unwrap(), "{what}: taken for whole");
        assert!(names(dir.path()).is_empty(), "{what}: not removed");
    }
}

#[test]
fn a_staging_folder_is_gone_unless_published_and_the_first_publication_wins() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    let staging = cache.stage(KEY).unwrap();
    std::fs::write(staging.path().join("main"), b"dropped").unwrap();
    let path = staging.path().to_path_buf();
    assert!(is_staging_name(path.file_name().unwrap()));
    drop(staging);
    assert!(!path.exists());
    // Two builds of one key: the one published first stays.
    let first = cache.stage(KEY).unwrap();
    let second = cache.stage(KEY).unwrap();
    std::fs::write(first.path().join("main"), b"first").unwrap();
    std::fs::write(second.path().join("main"), b"second").unwrap();
    first.publish().unwrap();
    second.publish().unwrap();
    assert_eq!(
        std::fs::read(dir.path().join(KEY).join("main")).unwrap(),
        b"first"
    );
    assert!(cache.lookup(KEY).unwrap());
    assert_eq!(names(dir.path()), [KEY]);
}

#[test]
fn debris_is_swept_only_when_no_grundy_builds_there() {
    let dir = tempfile::tempdir().unwrap();
    let debris = dir.path().join(format!(".{KEY}.4242.0"));
    std::fs::create_dir_all(debris.join("deep")).unwrap();
    std::fs::write(debris.join("deep/main"), b"half").unwrap();
    for kept in ["notes", ".hidden", ".0123.1.2"] {
        std::fs::create_dir(dir.path().join(kept)).unwrap();
    }
    // Another grundy is building here: its lock is shared, and its staging folder stays.
    let other = File::open(dir.path()).unwrap();
    flock(&other, FlockOperation::LockShared).unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    assert!(debris.exists(), "a live build's folder was removed");
    drop(cache);
    drop(other);
    // That grundy is gone: the next build sweeps what it left, and only that.
    let _cache = Cache::open(dir.path()).unwrap();
    assert!(!debris.exists(), "debris was kept");
    assert_eq!(names(dir.path()), [".0123.1.2", ".hidden", "notes"]);
}

#[test]
fn a_sweep_waits_for_no_build_and_a_build_waits_for_no_sweep() {
    let dir = tempfile::tempdir().unwrap();
    // A sweeper holds the lock exclusively: a build waits for it, and then sweeps nothing.
    let sweeper = File::open(dir.path()).unwrap();
    flock(&sweeper, FlockOperation::LockExclusive).unwrap();
    let opened = std::thread::spawn({
        let folder = dir.path().to_path_buf();
        move || Cache::open(&folder).map(drop).is_ok()
    });
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(!opened.is_finished(), "a build went on during a sweep");
    drop(sweeper);
    assert!(opened.join().unwrap());
}

#[test]
fn manifests_keep_every_name_on_one_line_and_tell_bytes_apart() {
    let dir = tempfile::tempdir().unwrap();
    let with = |byte: u8| {
        let folder = dir.path().join(format!("b{byte}"));
        std::fs::create_dir(&folder).unwrap();
        let name = [b'a', byte, b'\n', b'%'];
        std::fs::write(folder.join(OsStr::from_bytes(&name)), b"x").unwrap();
        manifest(&folder).unwrap()
    };
    let (one, other) = (with(0xff), with(0xfe));
    assert_ne!(one, other);
    let text = String::from_utf8(one).unwrap();
    assert_eq!(
        text,
        "grundy build manifest 1\nf 1 \
         2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 a%FF%0A%25\n"
    );
}

#[test]
fn a_staging_folder_never_takes_a_name_in_use() {
    let dir = tempfile::tempdir().unwrap();
    // Folders of this pid's names: a dead grundy's, or a live one's in another PID namespace.
    let taken: Vec<PathBuf> = (0..2000)
        .map(|n| {
            dir.path()
                .join(format!(".{KEY}.{}.{n}", std::process::id()))
        })
        .collect();
    for path in &taken {
        std::fs::create_dir(path).unwrap();
        std::fs::write(path.join("theirs"), b"").unwrap();
    }
    let other = File::open(dir.path()).unwrap();
    flock(&other, FlockOperation::LockShared).unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    let staging = cache.stage(KEY).unwrap();
    assert!(!taken.contains(&staging.path().to_path_buf()));
    assert!(names(staging.path()).is_empty());
    drop(staging);
    assert!(taken.iter().all(|path| path.join("theirs").exists()));
}
